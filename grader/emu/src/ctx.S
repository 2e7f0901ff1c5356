/*
 * ctx.S - where a new fiber starts (the switch itself is EMU_SWITCH in
 * include/emu_switch.h). A fresh fiber's context is (its stack top,
 * emu_fiber_entry): the first switch to it jumps here.
 *
 * One source for ELF (Linux) and Mach-O (macOS): C symbols carry the
 * platform's prefix (__USER_LABEL_PREFIX__: none on ELF, "_" on Mach-O), and
 * the ELF-only directives (.type, .size, the non-executable stack note) are
 * under __ELF__.
 */
#define EMU_CAT_(a, b) a##b
#define EMU_CAT(a, b) EMU_CAT_(a, b)
#define EMU_SYM(name) EMU_CAT(__USER_LABEL_PREFIX__, name)

#if defined(__x86_64__)
        .text
        .p2align 4
        .globl  EMU_SYM(emu_fiber_entry)
#ifdef __ELF__
        .type   EMU_SYM(emu_fiber_entry), @function
#endif
EMU_SYM(emu_fiber_entry):
        .cfi_startproc
        .cfi_undefined rip
        xorl    %ebp, %ebp
        andq    $-16, %rsp
        call    EMU_SYM(emu_fiber_main)
        ud2
        .cfi_endproc
#ifdef __ELF__
        .size   EMU_SYM(emu_fiber_entry), .-EMU_SYM(emu_fiber_entry)
#endif
#elif defined(__aarch64__)
        .text
        .p2align 2
        .globl  EMU_SYM(emu_fiber_entry)
#ifdef __ELF__
        .type   EMU_SYM(emu_fiber_entry), %function
#endif
EMU_SYM(emu_fiber_entry):
        mov     x29, #0
        mov     x30, #0
        mov     x9, sp
        and     x9, x9, #-16
        mov     sp, x9
        bl      EMU_SYM(emu_fiber_main)
        brk     #0
#ifdef __ELF__
        .size   EMU_SYM(emu_fiber_entry), .-EMU_SYM(emu_fiber_entry)
#endif
#else
#error "ctx.S: x86-64 and AArch64 only"
#endif

#ifdef __ELF__
        .section .note.GNU-stack,"",%progbits
#endif
