/*
 * ctx.S - where a new fiber starts (the switch itself is EMU_SWITCH in
 * include/emu_switch.h). A fresh fiber's context is (its stack top,
 * emu_fiber_entry): the first switch to it jumps here.
 */
#if defined(__x86_64__)
        .text
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
        .section .note.GNU-stack,"",@progbits
#elif defined(__aarch64__)
        .text
        .globl  emu_fiber_entry
        .type   emu_fiber_entry, %function
emu_fiber_entry:
        mov     x29, #0
        mov     x30, #0
        mov     x9, sp
        and     x9, x9, #-16
        mov     sp, x9
        bl      emu_fiber_main
        brk     #0
        .size   emu_fiber_entry, .-emu_fiber_entry
        .section .note.GNU-stack,"",%progbits
#else
#error "ctx.S: x86-64 and AArch64 only"
#endif
