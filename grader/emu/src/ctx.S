/*
 * ctx.S - the fiber context switch of the gpulab CPU emulator.
 *
 *   void emu_ctx_switch(void **save_sp, void *new_sp);
 *
 * Pushes the callee-saved registers of the calling fiber on its own stack,
 * stores the stack pointer in *save_sp, loads new_sp and pops the registers
 * of the fiber being resumed. A fresh fiber's stack is prepared by
 * emu_ctx_init() (runtime.c) so that the pops and the return land in
 * emu_fiber_entry, which calls emu_fiber_main(). No system call, no signal
 * mask: a switch is a few loads and stores.
 */
#if defined(__x86_64__)
        .text
        .globl  emu_ctx_switch
        .type   emu_ctx_switch, @function
emu_ctx_switch:
        .cfi_startproc
        pushq   %rbp
        pushq   %rbx
        pushq   %r12
        pushq   %r13
        pushq   %r14
        pushq   %r15
        movq    %rsp, (%rdi)
        movq    %rsi, %rsp
        popq    %r15
        popq    %r14
        popq    %r13
        popq    %r12
        popq    %rbx
        popq    %rbp
        ret
        .cfi_endproc
        .size   emu_ctx_switch, .-emu_ctx_switch

        .globl  emu_fiber_entry
        .type   emu_fiber_entry, @function
emu_fiber_entry:
        .cfi_startproc
        .cfi_undefined rip
        xorl    %ebp, %ebp
        andq    $-16, %rsp
        call    emu_fiber_main
        ud2
        .cfi_endproc
        .size   emu_fiber_entry, .-emu_fiber_entry

#elif defined(__aarch64__)
        .text
        .globl  emu_ctx_switch
        .type   emu_ctx_switch, %function
emu_ctx_switch:
        sub     sp, sp, #160
        stp     x19, x20, [sp, #0]
        stp     x21, x22, [sp, #16]
        stp     x23, x24, [sp, #32]
        stp     x25, x26, [sp, #48]
        stp     x27, x28, [sp, #64]
        stp     x29, x30, [sp, #80]
        stp     d8, d9, [sp, #96]
        stp     d10, d11, [sp, #112]
        stp     d12, d13, [sp, #128]
        stp     d14, d15, [sp, #144]
        mov     x2, sp
        str     x2, [x0]
        mov     sp, x1
        ldp     x19, x20, [sp, #0]
        ldp     x21, x22, [sp, #16]
        ldp     x23, x24, [sp, #32]
        ldp     x25, x26, [sp, #48]
        ldp     x27, x28, [sp, #64]
        ldp     x29, x30, [sp, #80]
        ldp     d8, d9, [sp, #96]
        ldp     d10, d11, [sp, #112]
        ldp     d12, d13, [sp, #128]
        ldp     d14, d15, [sp, #144]
        add     sp, sp, #160
        ret
        .size   emu_ctx_switch, .-emu_ctx_switch

        .globl  emu_fiber_entry
        .type   emu_fiber_entry, %function
emu_fiber_entry:
        mov     x29, #0
        mov     x30, #0
        bl      emu_fiber_main
        brk     #0
        .size   emu_fiber_entry, .-emu_fiber_entry
#else
#error "emu_ctx_switch: no context switch for this architecture (x86-64 and AArch64 only)"
#endif
        .section .note.GNU-stack,"",@progbits
