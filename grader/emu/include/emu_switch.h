/*
 * emu_switch.h - the gpulab CPU emulator's fiber switch (C and C++).
 *
 * A fiber's context is its stack pointer and the address to resume at. The
 * switch is inline assembly at each __syncthreads() call site: the compiler
 * saves the values it still needs (every register is declared clobbered),
 * the asm stores sp and its resume label, loads the next fiber's sp and jumps
 * to that fiber's resume label. No call/return pair is split across fibers,
 * so the CPU's return predictor stays right and the indirect jump is
 * predicted per call site. No system call, no lock.
 */
#ifndef GPULAB_EMU_SWITCH_H
#define GPULAB_EMU_SWITCH_H

struct emu_ctx { void *sp; void *pc; };
struct emu_swap { struct emu_ctx *from, *to; };

#if defined(__x86_64__)
/* The red zone below rsp may hold the caller's data: step over it first. */
#define EMU_SWITCH(from, to)                                                                   \
    do {                                                                                       \
        struct emu_ctx *emu_f_ = (from), *emu_t_ = (to);                                       \
        __asm__ volatile("leaq -128(%%rsp), %%rsp\n\t"                                         \
                         "pushq %%rbp\n\t"                                                     \
                         "leaq 1f(%%rip), %%rax\n\t"                                           \
                         "movq %%rsp, 0(%0)\n\t"                                               \
                         "movq %%rax, 8(%0)\n\t"                                               \
                         "movq 0(%1), %%rsp\n\t"                                               \
                         "jmpq *8(%1)\n\t"                                                     \
                         "1:\n\t"                                                              \
                         "popq %%rbp\n\t"                                                      \
                         "leaq 128(%%rsp), %%rsp\n\t"                                          \
                         : "+D"(emu_f_), "+S"(emu_t_)                                          \
                         :                                                                     \
                         : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13", \
                           "r14", "r15", "memory", "cc", "xmm0", "xmm1", "xmm2", "xmm3",       \
                           "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10", "xmm11",   \
                           "xmm12", "xmm13", "xmm14", "xmm15");                                \
    } while (0)
#elif defined(__aarch64__)
/* x18 is the platform register on Apple's AArch64 ABI: the OS owns it and no
 * code there uses it, so no fiber can change it, and clang warns when an asm
 * names a reserved register as clobbered. Elsewhere it is an ordinary
 * temporary, declared clobbered like the others. */
#ifdef __APPLE__
#define EMU_CLOBBER_X18_
#else
#define EMU_CLOBBER_X18_ "x18",
#endif
#define EMU_SWITCH(from, to)                                                                   \
    do {                                                                                       \
        register struct emu_ctx *emu_f_ __asm__("x0") = (from);                                \
        register struct emu_ctx *emu_t_ __asm__("x1") = (to);                                  \
        __asm__ volatile("stp x29, x30, [sp, #-16]!\n\t"                                       \
                         "adr x2, 1f\n\t"                                                      \
                         "mov x3, sp\n\t"                                                      \
                         "str x3, [%0]\n\t"                                                    \
                         "str x2, [%0, #8]\n\t"                                                \
                         "ldr x3, [%1]\n\t"                                                    \
                         "mov sp, x3\n\t"                                                      \
                         "ldr x2, [%1, #8]\n\t"                                                \
                         "br x2\n\t"                                                           \
                         "1:\n\t"                                                              \
                         "ldp x29, x30, [sp], #16\n\t"                                         \
                         : "+r"(emu_f_), "+r"(emu_t_)                                          \
                         :                                                                     \
                         : "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9", "x10", "x11",       \
                           "x12", "x13", "x14", "x15", "x16", "x17", EMU_CLOBBER_X18_ "x19", "x20", \
                           "x21", "x22", "x23", "x24", "x25", "x26", "x27", "x28", "x30",      \
                           "memory", "cc", "v0", "v1", "v2", "v3", "v4", "v5", "v6", "v7",     \
                           "v8", "v9", "v10", "v11", "v12", "v13", "v14", "v15", "v16", "v17", \
                           "v18", "v19", "v20", "v21", "v22", "v23", "v24", "v25", "v26",      \
                           "v27", "v28", "v29", "v30", "v31");                                 \
    } while (0)
#else
#error "gpulab emulator: no fiber switch for this architecture (x86-64 and AArch64 only)"
#endif

#endif
