/* faults.c - faults inside kernels: SIGSEGV and SIGBUS named from the
 * address (a fiber's stack, a shared array, a device allocation). */

#include "rt_int.h"

#include <execinfo.h>

/* ---- faults inside kernels: SIGSEGV / SIGBUS -------------------------------------- */
/* Leaves the faulting fiber for good: back to the worker's scheduler loop. */
static void escape(worker *W) __attribute__((noreturn));
static void escape(worker *W)
{
    siglongjmp(W->jb, 1);
}

/* "just" for the first byte after an array, else "N bytes": "read just past
 * the end" reads better than "read 0 bytes past the end". */
static const char *past_end_text(size_t offset, char *buf, size_t len)
{
    if (offset == 0)
        snprintf(buf, len, "just");
    else
        snprintf(buf, len, "%zu bytes", offset);
    return buf;
}

/* Whether a is at least 1 GiB from every device allocation and from the
 * block's shared memory: no small overrun gets there, an index that wrapped
 * round as an unsigned number (about 4 billion elements on) does. */
static int far_from_every_array(const worker *W, const char *a)
{
    const size_t far = (size_t)1 << 30;
#define EMU_NEAR(base, size) ((a >= (base) && (size_t)(a - (base)) < (size) + far) || \
                              (a < (base) && (size_t)((base) - a) < far))
    for (size_t i = 0; i < rt.nallocs; i++)
        if (rt.allocs[i].map && EMU_NEAR(rt.allocs[i].map, rt.allocs[i].maplen))
            return 0;
#ifdef EMU_CHECK
    for (int k = 0; k < W->nregions; k++)
        if (EMU_NEAR(W->regions[k].base, W->regions[k].size))
            return 0;
#else
    if (W->arena && EMU_NEAR(W->arena, (size_t)SHM_RESERVE))
        return 0;
#endif
#undef EMU_NEAR
    return 1;
}

/* ---- host code that touched device memory -------------------------------------- */

/* Whether FILE:LINE names a place in a .cu file (the program's own code). */
static int in_student_file(const char *where)
{
    const char *colon = strrchr(where, ':');
    return colon && colon - where > 3 && strncmp(colon - 3, ".cu", 3) == 0;
}

/* The program's line that made the access: the faulting instruction's, or
 * the first caller's in a .cu file (a memcpy's fault is inside the C
 * library, and the program's line is the call's). */
static const char *host_access_line(void *pc, char *out, size_t n)
{
    if (in_student_file(resolve_pc(pc, out, n)))
        return out;
    void *frames[32];
    int nf = backtrace(frames, 32);
    for (int i = 0; i < nf; i++)
        if (frames[i] != pc && in_student_file(resolve_return(frames[i], out, n)))
            return out;
    snprintf(out, n, "-");
    return out;
}

/* Host code read or wrote a device allocation, whose pages the graded build
 * keeps sealed (alloc.c): on a GPU the same code is a segmentation fault.
 * The line names the access and the allocation; the program then dies of
 * the fault, as it would there. */
static void name_host_access(const alloc *al, void *pc, int is_write)
{
    char at[512], made[512];
    host_access_line(pc, at, sizeof at);
    caller_line(al->made_by, made, sizeof made);
    const char *what = is_write == 1 ? "wrote" : is_write == 0 ? "read" : "touched";
    diag("gpulab-emu: host-access %s: host code %s device memory (from the %s at %s): a device pointer names "
         "memory on the GPU, which host code cannot reach (on a GPU this is a segmentation fault): %s",
         at, what, alloc_call(al), made,
         is_write == 1 ? "put the values in a host array and copy them in with cudaMemcpy (cudaMemcpyHostToDevice)"
                       : "copy the values back with cudaMemcpy (cudaMemcpyDeviceToHost) into a host array and read that");
}

void on_fault(int sig, siginfo_t *si, void *ucv)
{
    char distance[48];
    worker *W = tls.self;
    char *a = (char *)si->si_addr;
    ucontext_t *uc = ucv;
    void *pc = NULL;
    int is_write = -1;
#if defined(__APPLE__) && defined(__aarch64__) /* Darwin's mcontext is a pointer (untested) */
    pc = (void *)uc->uc_mcontext->__ss.__pc;
#elif defined(__x86_64__)
    pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
    is_write = (uc->uc_mcontext.gregs[REG_ERR] & 2) != 0;
#elif defined(__aarch64__)
    pc = (void *)uc->uc_mcontext.pc;
#endif
    if (W && W->in_block && W->L) {
        launch *L = W->L;
        size_t pg = page_size();
        for (int i = 0; i < W->nstacks; i++) {
            fiber *f = &W->fibers[i];
            if (a >= f->map - pg && a < f->map + pg) {
                set_fault(L, "stack-overflow", cudaErrorIllegalAddress, pc, NULL,
                          "the thread's stack (%u KiB in the emulator) overflowed: deep recursion or a large local array?",
                          STACK_SIZE / 1024);
                escape(W);
            }
        }
        if (W->arena && a >= W->arena && a < W->arena + SHM_RESERVE) {
            size_t off = (size_t)(a - W->arena);
            for (int k = 0; k < W->nlayout; k++) {
                struct shm_slot *sl = &W->layout[k];
                if (off >= sl->end - pg && off < sl->end) {
                    set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                              "%s %s past the end of a %zu-byte %s array in shared memory",
                              is_write == 1 ? "write" : is_write == 0 ? "read" : "access",
                              past_end_text(off - (sl->base + sl->size), distance, sizeof distance),
                              sl->size, k == 0 ? "dynamic (extern __shared__)" : "__shared__");
                    escape(W);
                }
            }
            set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                      "%s outside the block's shared memory arrays",
                      is_write == 1 ? "write" : is_write == 0 ? "read" : "access");
            escape(W);
        }
        for (size_t i = 0; i < rt.nallocs; i++) {
            alloc *al = &rt.allocs[i];
            if (al->map && a >= al->map && a < al->map + al->maplen) {
                if (a >= al->base + al->size)
                    set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                              "%s %s past the end of a %zu-byte %s allocation (global memory)",
                              is_write == 1 ? "write" : is_write == 0 ? "read" : "access",
                              past_end_text((size_t)(a - (al->base + al->size)), distance, sizeof distance),
                              al->size, alloc_call(al));
                else
                    set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                              "%s %zu bytes before the start of a %zu-byte %s allocation (global memory)",
                              is_write == 1 ? "write" : is_write == 0 ? "read" : "access",
                              (size_t)(al->base - a), al->size, alloc_call(al));
                escape(W);
            }
        }
        /* An address no allocation of the program holds. As on a GPU, the
         * launch fails with an illegal address, named at the kernel's line
         * (the instruction faulted, so it did nothing and the program can
         * go on). On x86-64 an address outside the 48-bit address space
         * raises a general-protection fault (SIGSEGV with si_code SI_KERNEL
         * and no address) or, through the stack pointer, SIGBUS: that is
         * what an index that went below 0 in unsigned arithmetic gives
         * (threadIdx.y + i - MASK_RADIUS wraps round to about 4 billion). */
        const char *what = is_write == 1 ? "write" : is_write == 0 ? "read" : "access";
#ifdef EMU_CHECKED
        /* the fault map's thread (--list-faults): this one faulted here */
        char at[512];
        hooks.record_thread(W, resolve_pc(pc, at, sizeof at));
#endif
        /* an address within the first MiB: a pointer that is NULL, indexed
         * (a buffer not allocated when the kernel was launched) */
        if (sig == SIGSEGV && si->si_code != SI_KERNEL && (uintptr_t)a < ((uintptr_t)1 << 20))
            set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                      "%s through a null pointer (address 0x%lx): the pointer it indexes is NULL, a buffer not allocated "
                      "(yet) when the kernel was launched", what, (unsigned long)(uintptr_t)a);
        else if (sig == SIGBUS || si->si_code == SI_KERNEL || far_from_every_array(W, a))
            set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                      "%s at an address far outside every array: an index that went below 0 in unsigned "
                      "arithmetic (threadIdx, blockIdx and blockDim are unsigned) wraps round to about 4 "
                      "billion; find the offset that makes it negative for the first threads (a radius "
                      "subtracted again where the tile already starts before the output, say): in int "
                      "arithmetic the same index would only read just before the array", what);
        else
            set_fault(L, "out-of-bounds", cudaErrorIllegalAddress, pc, NULL,
                      "%s at address %p, which is not device memory: a wild or host pointer, or an index "
                      "far outside its array", what, (void *)a);
        escape(W);
    }
    if (!(W && W->in_block)) {
        const alloc *sealed = sealed_alloc_at(a);
        if (sealed)
            name_host_access(sealed, pc, is_write);
    }
    /* Not survivable: let the previous handler (or the default action) have it. */
    sigaction(sig, sig == SIGBUS ? &rt.old_bus : &rt.old_segv, NULL);
}

