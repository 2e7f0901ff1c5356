/*
 * runtime.c - the gpulab CPU emulator's CUDA runtime.
 *
 * Host side: the CUDA runtime API subset of cuda_runtime_api.h, with device
 * allocations tracked so that misuse fails as on a GPU.
 * Device side: a kernel launch runs its grid on a pool of OS worker threads;
 * a worker takes whole blocks; each CUDA thread of a block is a fiber with its
 * own lazily committed stack. The schedule runs thread 0 of a block up to its
 * next __syncthreads() (or its end), then thread 1, and so on: a round. When
 * every thread has reached the barrier the next round starts. See
 * docs/emulator.md for the whole design.
 *
 * Built three times: default, EMU_RACE (the kit's own race and bounds
 * checks on ThreadSanitizer's instrumentation, race.inc, for emucc --race)
 * and EMU_CHECK (AddressSanitizer, for emucc --check); each checking build
 * also with EMU_LIST_FAULTS (faults.inc, emucc --list-faults).
 */
#define _GNU_SOURCE
#include "cuda_runtime_api.h"
#include "emu_switch.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#ifndef __APPLE__ /* there ucontext_t comes with <signal.h>, and <ucontext.h> wants _XOPEN_SOURCE */
#include <ucontext.h>
#endif
#include <unistd.h>

#ifdef EMU_CHECK
void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
void __asan_poison_memory_region(void const volatile *addr, size_t size);
#endif

#define SHARED_LIMIT 49152u
#define STACK_SIZE (256u * 1024u)
#define MAX_THREADS 1024
#define SHM_RESERVE ((size_t)16 << 20)
#define SHM_SLOTS 64
#define ARENA_SIZE SHM_RESERVE

/* The checking builds: device allocations and shared arrays inside margins
 * of their own, and a fault list (faults.inc) */
#if defined(EMU_CHECK) || defined(EMU_RACE)
#define EMU_CHECKED 1
#endif

#ifdef EMU_RACE
struct emu_launch_cfg;
static void race_constant_copied(const void *symbol, const char *name, size_t size);
static void race_launch_begin(void);
static void race_launch_end(const struct emu_launch_cfg *c);
/* tiles.inc: what the shared tiles hold at a barrier */
struct launch;
struct worker;
static void tiles_launch_begin(void);
static void tiles_block_begin(const struct launch *L, unsigned long long b);
static void tiles_round_end(struct worker *W);
static void tiles_access(struct worker *W, const void *addr, unsigned size, int write, int space, uint32_t pc);
static void tiles_launch_end(const struct emu_launch_cfg *c);
/* unset.inc: the bytes of device memory nothing stored */
struct alloc;
static void unset_new(struct alloc *a);
static void unset_forget(struct alloc *a);
static void unset_stored(const void *p, size_t n);
static void unset_copied_in(void *p, const void *src, size_t n);
static void unset_copy_read(void *caller, const char *call, const void *src, size_t pitch, size_t width,
                            size_t rows);
static void unset_launch_begin(void);
static void unset_access(const struct alloc *a, const char *addr, size_t n, int reads, int writes, uint32_t pc);
static void tiles_guard_words(struct worker *W, int line, char *out, size_t n);
#endif

void emu_fiber_entry(void);
void emu_fiber_main(void);

/* ---- built-in variables of the running fiber ------------------------------- */
__thread uint3 emu_threadIdx_;
__thread uint3 emu_blockIdx_;
__thread dim3 emu_blockDim_;
__thread dim3 emu_gridDim_;

/* ---- errors ------------------------------------------------------------------ */
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;
static cudaError_t g_last = cudaSuccess;   /* cudaGetLastError: reset on read */
static cudaError_t g_sticky = cudaSuccess; /* a kernel fault: never reset */

static cudaError_t set_error(cudaError_t e)
{
    if (e != cudaSuccess)
        g_last = e;
    return e;
}

/* CUDA_VISIBLE_DEVICES that hides device 0 (empty, or a list that does not
 * start with 0) leaves no device, as on a GPU machine: every call that
 * touches the device then fails with cudaErrorNoDevice. */
static int device_hidden(void)
{
    static int hidden = -1;
    if (hidden < 0) {
        const char *v = getenv("CUDA_VISIBLE_DEVICES");
        hidden = v != NULL && !(v[0] == '0' && (v[1] == '\0' || v[1] == ','));
    }
    return hidden;
}

/* The sticky error, if any: every API call that touches the device returns it. */
#define RETURN_IF_STICKY()                                      \
    do {                                                        \
        if (device_hidden())                                    \
            return set_error(cudaErrorNoDevice);                \
        if (g_sticky != cudaSuccess)                            \
            return g_sticky;                                    \
    } while (0)

/* The emulated device's memory, as cudaGetDeviceProperties reports it: an
 * allocation past it fails with cudaErrorMemoryAllocation at once, as on a
 * GPU, instead of the emulator touching terabytes of host memory. */
#define EMU_DEVICE_MEMORY ((size_t)8 << 30)
static size_t g_allocated; /* bytes of live device allocations, under g_lock */

static void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void diag(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    fflush(stdout);
    ssize_t w = write(2, buf, (size_t)n);
    (void)w;
}

struct err_name { cudaError_t e; const char *name, *text; };
static const struct err_name err_names[] = {
    { cudaSuccess, "cudaSuccess", "no error" },
    { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
    { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
    { cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error" },
    { cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down" },
    { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
    { cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
    { cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
    { cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer" },
    { cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer" },
    { cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy" },
    { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
    { cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
    { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
    { cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
    { cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
    { cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
    { cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch" },
    { cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated" },
    { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
    { cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered" },
    { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
    { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
    { cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++)
        if (err_names[i].e == e)
            return err_names[i].name;
    return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++)
        if (err_names[i].e == e)
            return err_names[i].text;
    return "unrecognized error code";
}

cudaError_t cudaGetLastError(void)
{
    pthread_mutex_lock(&g_lock);
    cudaError_t e = g_last;
    g_last = cudaSuccess;
    if (g_sticky != cudaSuccess)
        e = g_sticky;
    pthread_mutex_unlock(&g_lock);
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    return g_sticky != cudaSuccess ? g_sticky : g_last;
}

/* ---- the JSON log (GPULAB_EMU_LOG) --------------------------------------------- */
static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static FILE *log_open(void)
{
    const char *path = getenv("GPULAB_EMU_LOG");
    if (!path || !*path)
        return NULL;
    return fopen(path, "a");
}

/* ---- device allocations ------------------------------------------------------ */
typedef struct alloc {
    char *base;
    size_t size;
    char *map;       /* the mapping, guard pages included (--check: the heap block, margins included) */
    size_t maplen;
    int pitched;
    size_t pitch, row_bytes; /* cudaMallocPitch's pitch and the row width asked for (copies.inc) */
    /* What the host side wrote into it and the program's copies read back,
     * and the program's copies that may have moved too few bytes: whether
     * the rest was filled, or read, is judged later (copies.inc) */
    struct byte_range { size_t lo, hi; } written[8], read[8];
    int nwritten, nread;
    void *into_caller, *back_caller;
    size_t into_off, into_count, back_off;
    /* the program's cudaMalloc and cudaFree calls (return addresses), for
     * the lines that name a buffer: a use after cudaFree names both */
    void *made_by, *freed_by;
    unsigned char *stored; /* --race: which bytes anything stored (unset.inc) */
    size_t unstored;       /* --race: how many bytes nothing stored */
} alloc;

static alloc *g_allocs;
static size_t g_nallocs, g_capallocs;

/* copies.inc: what the host side wrote into device memory, and a copy back
 * that left part of a buffer behind */
static void note_write(const void *p, size_t n);
static void short_copy_back(const alloc *a);
static size_t g_page;

static size_t page_size(void)
{
    if (!g_page)
        g_page = (size_t)sysconf(_SC_PAGESIZE);
    return g_page;
}

static size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

static void *alloc_aligned(size_t align, size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, align, size ? size : 1) != 0)
        abort();
    return p;
}

#ifdef EMU_CHECK
/* --check: room for `size` bytes from AddressSanitizer's heap, with a
 * poisoned margin of our own on each side. Every access within the margin
 * is reported (AddressSanitizer's own redzones can be as small as 16 bytes,
 * and past them lies other memory), and when --check runs a launch past its
 * faults (check.inc) the stray writes land in the margin, harming nothing.
 * *block is what to free; *base the caller's bytes. Returns 0, or -1 when
 * out of memory. */
static int margined_block(size_t size, size_t align, size_t margin, char **block, size_t *len, char **base)
{
    margin = round_up(margin ? margin : align, align);
    *len = size + 2 * margin;
    void *mem = NULL;
    if (posix_memalign(&mem, align, *len) != 0)
        return -1;
    *block = mem;
    *base = *block + margin;
    __asan_poison_memory_region(*block, margin);
    __asan_poison_memory_region(*base + size, margin);
    return 0;
}

#endif

#ifdef EMU_CHECKED
/* A device allocation's margin: its own size, from 64 KiB to 64 MiB. */
static size_t device_margin(size_t size)
{
    const size_t lo = (size_t)64 << 10, hi = (size_t)64 << 20;
    return size < lo ? lo : size > hi ? hi : size;
}
#endif

#ifdef EMU_RACE
/* Freed allocations stay mapped, their pages given back, so that the
 * bounds check (race.inc) can name a use after cudaFree; past FREED_KEPT
 * of them the oldest is unmapped (an access there then faults as an
 * address no allocation holds). cudaFree never runs while a launch does. */
#define FREED_KEPT 64
static alloc g_freed[FREED_KEPT];
static size_t g_nfreed;

static void keep_freed(const alloc *a)
{
    alloc *slot = &g_freed[g_nfreed++ % FREED_KEPT];
    if (slot->map)
        munmap(slot->map, slot->maplen);
    *slot = *a;
    madvise(a->base, round_up(a->size, page_size()), MADV_DONTNEED);
}
#endif

/* The last few freed allocations, in every build, so that a copy or
 * cudaMemset given a freed buffer is named a use after cudaFree, with the
 * cudaFree's line (check_side), not a pointer that is not device memory. */
#define GONE_KEPT 64
static alloc g_gone[GONE_KEPT];
static size_t g_ngone;

static void remember_freed(const alloc *a)
{
    alloc *slot = &g_gone[g_ngone++ % GONE_KEPT];
    *slot = (alloc){ 0 };
    slot->base = a->base;
    slot->size = a->size;
    slot->pitched = a->pitched;
    slot->made_by = a->made_by;
    slot->freed_by = a->freed_by;
}

/* The newest freed allocation that held p, or NULL. Caller holds g_lock. */
static const alloc *freed_at(const void *p)
{
    const char *c = (const char *)p;
    for (size_t k = 0; k < GONE_KEPT && k < g_ngone; k++) {
        const alloc *a = &g_gone[(g_ngone - 1 - k) % GONE_KEPT];
        if (c >= a->base && c < a->base + a->size)
            return a;
    }
    return NULL;
}

/* The allocation that holds [p, p+n), or NULL. Caller holds g_lock. */
static alloc *find_alloc(const void *p, size_t n)
{
    const char *c = (const char *)p;
    for (size_t i = 0; i < g_nallocs; i++) {
        alloc *a = &g_allocs[i];
        if (c >= a->base && c < a->base + a->size + (a->size == 0)) {
            if (n <= (size_t)(a->base + a->size - c))
                return a;
            return NULL;
        }
    }
    return NULL;
}

/* The call that made a device allocation, as a finding names it. */
static const char *alloc_call(const alloc *a)
{
    return a->pitched ? "cudaMallocPitch" : "cudaMalloc";
}

#ifdef EMU_CHECKED
/* What a finding calls the memory of a device allocation. */
static const char *alloc_kind(const alloc *a)
{
    return a->pitched ? "global memory (cudaMallocPitch)" : "global memory (cudaMalloc)";
}
#endif

static int is_device_ptr(const void *p)
{
    const char *c = (const char *)p;
    for (size_t i = 0; i < g_nallocs; i++)
        if (c >= g_allocs[i].base && c < g_allocs[i].base + g_allocs[i].size)
            return 1;
    return 0;
}

static void release_alloc(alloc *a);
static void *copy_caller(void *ret);

/* What fresh device memory holds: 0xFF bytes (NaN as floats, -1 as
 * ints), or the 32-bit word GPULAB_EMU_FILL gives in hexadecimal, repeated
 * from each allocation's start. The grader fills it two ways to learn
 * whether a read of memory nothing stored reaches the output (sanitize.c,
 * sanitize_unset_reaches_output). Read before main() and taken out of the
 * environment, like GPULAB_EMU_CHECKS. */
static uint32_t g_fill = 0xFFFFFFFFu;

__attribute__((constructor)) static void fill_init(void)
{
    const char *s = getenv("GPULAB_EMU_FILL");
    char *end = NULL;
    if (s && *s) {
        unsigned long v = strtoul(s, &end, 16);
        if (end && !*end)
            g_fill = (uint32_t)v;
    }
    unsetenv("GPULAB_EMU_FILL");
}

static void fill_fresh(char *p, size_t n)
{
    if (g_fill == 0xFFFFFFFFu) {
        memset(p, 0xFF, n);
        return;
    }
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        memcpy(p + i, &g_fill, 4);
    memcpy(p + i, &g_fill, n - i);
}

/* made_by: the return address into the program's cudaMalloc call. */
static cudaError_t device_alloc(void **out, size_t size, int pitched, void *made_by)
{
    if (!out)
        return set_error(cudaErrorInvalidValue);
    RETURN_IF_STICKY();
    if (size == 0) {
        *out = NULL;
        return cudaSuccess;
    }
    pthread_mutex_lock(&g_lock);
    int too_big = size > EMU_DEVICE_MEMORY - g_allocated;
    if (!too_big)
        g_allocated += size;
    pthread_mutex_unlock(&g_lock);
    if (too_big)
        return set_error(cudaErrorMemoryAllocation);
#define ALLOC_FAILED()                                          \
    do {                                                        \
        pthread_mutex_lock(&g_lock);                            \
        g_allocated -= size;                                    \
        pthread_mutex_unlock(&g_lock);                          \
        return set_error(cudaErrorMemoryAllocation);            \
    } while (0)
    alloc a = { 0 };
    a.size = size;
    a.pitched = pitched;
    a.made_by = made_by;
#ifdef EMU_CHECK
    /* Poisoned margins of our own around the bytes asked for. */
    if (margined_block(size, 256, device_margin(size), &a.map, &a.maplen, &a.base) != 0)
        ALLOC_FAILED();
#elif defined(EMU_RACE)
    /* Margins of its own size (64 KiB to 64 MiB) on each side, mapped, so
     * that a stray access harms nothing: the bounds check (race.inc) reports
     * every access in them. Past them, a PROT_NONE page faults. */
    size_t pg = page_size();
    size_t margin = round_up(device_margin(size), pg);
    a.maplen = pg + margin + round_up(size, pg) + margin + pg;
    a.map = mmap(NULL, a.maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a.map == MAP_FAILED)
        ALLOC_FAILED();
    mprotect(a.map, pg, PROT_NONE);
    mprotect(a.map + a.maplen - pg, pg, PROT_NONE);
    a.base = a.map + pg + margin;
#else
    /* The end of the allocation touches a PROT_NONE page, so that reading or
     * writing just past it faults and is reported as out-of-bounds. */
    size_t pg = page_size();
    size_t size16 = round_up(size, 16);
    size_t data = round_up(size16, pg);
    a.maplen = data + 2 * pg;
    a.map = mmap(NULL, a.maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a.map == MAP_FAILED)
        ALLOC_FAILED();
    mprotect(a.map, pg, PROT_NONE);
    mprotect(a.map + pg + data, pg, PROT_NONE);
    a.base = a.map + pg + (data - size16);
#endif
    /* Device memory is uninitialised: poison it (0xFF bytes: NaN as floats;
     * GPULAB_EMU_FILL another word). */
    fill_fresh(a.base, size);
#ifdef EMU_RACE
    unset_new(&a);
#endif
    pthread_mutex_lock(&g_lock);
    if (g_nallocs == g_capallocs) {
        size_t cap = g_capallocs ? g_capallocs * 2 : 64;
        alloc *n = realloc(g_allocs, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&g_lock);
            release_alloc(&a); /* gives its bytes back to g_allocated */
            return set_error(cudaErrorMemoryAllocation);
        }
        g_allocs = n;
        g_capallocs = cap;
    }
    g_allocs[g_nallocs++] = a;
    pthread_mutex_unlock(&g_lock);
    *out = a.base;
    return cudaSuccess;
}
#undef ALLOC_FAILED

static void release_alloc(alloc *a)
{
    pthread_mutex_lock(&g_lock);
    g_allocated -= a->size;
    remember_freed(a);
    pthread_mutex_unlock(&g_lock);
#ifdef EMU_RACE
    unset_forget(a);
#endif
#ifdef EMU_CHECK
    free(a->map);
#elif defined(EMU_RACE)
    keep_freed(a);
#else
    munmap(a->map, a->maplen);
#endif
}

cudaError_t cudaMalloc(void **devPtr, size_t size)
{
    return device_alloc(devPtr, size, 0, copy_caller(__builtin_return_address(0)));
}

cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!pitch || !devPtr)
        return set_error(cudaErrorInvalidValue);
    /* Rows padded to 512 bytes, as on many GPUs: code that ignores the pitch breaks. */
    size_t p = round_up(width ? width : 1, 512);
    cudaError_t e = device_alloc(devPtr, p * height, 1, copy_caller(__builtin_return_address(0)));
    if (e == cudaSuccess) {
        *pitch = p;
        pthread_mutex_lock(&g_lock);
        alloc *a = find_alloc(*devPtr, 1);
        if (a) {
            a->pitch = p;
            a->row_bytes = width;
        }
        pthread_mutex_unlock(&g_lock);
    }
    return e;
}

cudaError_t cudaFree(void *devPtr)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (!devPtr)
        return cudaSuccess;
    pthread_mutex_lock(&g_lock);
    for (size_t i = 0; i < g_nallocs; i++) {
        if (g_allocs[i].base == devPtr) {
            alloc a = g_allocs[i];
            a.freed_by = caller;
            g_allocs[i] = g_allocs[--g_nallocs];
            pthread_mutex_unlock(&g_lock);
            short_copy_back(&a);
            release_alloc(&a);
            return cudaSuccess;
        }
    }
    pthread_mutex_unlock(&g_lock);
    diag("gpulab-emu: invalid-free -: cudaFree(%p): not a pointer returned by cudaMalloc, or already freed (cudaErrorInvalidValue)", devPtr);
    return set_error(cudaErrorInvalidValue);
}

cudaError_t cudaMallocHost(void **ptr, size_t size)
{
    if (!ptr)
        return set_error(cudaErrorInvalidValue);
    *ptr = malloc(size ? size : 1);
    return *ptr ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}

cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags)
{
    if (flags & ~(unsigned)(cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined))
        return set_error(cudaErrorInvalidValue);
    return cudaMallocHost(ptr, size);
}

cudaError_t cudaFreeHost(void *ptr)
{
    free(ptr);
    return cudaSuccess;
}

static const char *kind_name(int k)
{
    static const char *names[] = { "cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                   "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
                                   "cudaMemcpyDefault" };
    return k >= 0 && k <= 4 ? names[k] : "an invalid cudaMemcpyKind";
}

/* Checks one side of a copy: the n bytes at p are (want_dev) device memory, or
 * host memory. Returns NULL if fine, else why not. Caller holds g_lock. */
static const char *check_side(const void *p, size_t n, int want_dev)
{
    if (!p)
        return "is NULL";
    if (want_dev) {
        if (find_alloc(p, n))
            return NULL;
        const alloc *a = find_alloc(p, 1);
        if (a)
            return a->pitched ? "runs past the end of its cudaMallocPitch allocation"
                              : "runs past the end of its cudaMalloc allocation";
        if (is_device_ptr(p))
            return "runs past the end of its cudaMalloc allocation";
        if (freed_at(p))
            return "was freed"; /* freed_words() says by which cudaFree */
        return "is not device memory (not from cudaMalloc): a host pointer where a device pointer belongs?";
    }
    if (is_device_ptr(p))
        return "is device memory where a host pointer belongs";
    return NULL;
}

static char *resolve_pc(void *pc, char *out, size_t outsz);
/* FILE:LINE of the call instruction that returned to ret, or "". */
static char *resolve_return(void *ret, char *out, size_t outsz)
{
    return resolve_pc(ret ? (char *)ret - 1 : NULL, out, outsz);
}

/* The return address a wrapper of the kit's named for its next copy
 * (emu_copy_caller_), this thread's. */
static __thread void *copy_caller_;

void emu_copy_caller_(void *ret)
{
    copy_caller_ = ret;
}

/* The caller a copy is blamed on: the one a wrapper named, else ret (the
 * copy function's own return address). Taken at every copy's start, so a
 * name never outlives its copy. */
static __thread int copy_by_program_;

static void *copy_caller(void *ret)
{
    void *named = copy_caller_;
    copy_caller_ = NULL;
    /* a copy the program's own code made (through the kit's wrapper), not
     * one of the kit's (the guard zones' checks): only those are judged
     * against their buffers (copies.inc) */
    copy_by_program_ = named != NULL;
    return named ? named : ret;
}

/* FILE:LINE of the call that returned to ret (the program's own code), or
 * "-": where a refused copy is named. */
static const char *caller_line(void *ret, char *out, size_t n)
{
    resolve_return(ret, out, n);
    if (!out[0])
        snprintf(out, n, "-");
    return out;
}

/* Which sides of a copy of `kind` are device memory. */
static void copy_sides(int kind, const void *dst, const void *src, int *dd, int *sd)
{
    pthread_mutex_lock(&g_lock);
    if (kind == cudaMemcpyDefault) {
        *dd = is_device_ptr(dst);
        *sd = is_device_ptr(src);
    } else {
        *dd = kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice;
        *sd = kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice;
    }
    pthread_mutex_unlock(&g_lock);
}

/* why, from check_side(), for the n bytes at p; for a buffer that was
 * freed, the words that name the cudaFree (and the cudaMalloc), into out. */
static const char *freed_words(const char *why, const void *p, char *out, size_t n)
{
    if (strcmp(why, "was freed") != 0)
        return why;
    pthread_mutex_lock(&g_lock);
    const alloc *g = freed_at(p);
    alloc a = g ? *g : (alloc){ 0 };
    pthread_mutex_unlock(&g_lock);
    char freed[512], made[512];
    caller_line(a.freed_by, freed, sizeof freed);
    caller_line(a.made_by, made, sizeof made);
    snprintf(out, n, "points into a %zu-byte %s allocation (made at %s) that the cudaFree at %s freed before: "
             "a use after cudaFree", a.size, alloc_call(&a), made, freed);
    return out;
}

/* Whether a kernel launch has run yet: a copy after one brings results
 * back, a copy before it sends inputs (copy_check's words). */
static int g_launched;

/* Checks a copy of dn bytes to dst and sn bytes from src (a 2D copy's
 * extents differ: each side's rows at its own pitch). caller: the return
 * address into the program, which the refusal's line names. */
static cudaError_t copy_check(const char *fn, void *dst, size_t dn, const void *src, size_t sn, int kind,
                              void *caller)
{
    char at[512];
    if (kind < 0 || kind > 4) {
        diag("gpulab-emu: invalid-memcpy %s: %s: %d is not a cudaMemcpyKind (cudaErrorInvalidMemcpyDirection)",
             caller_line(caller, at, sizeof at), fn, kind);
        return cudaErrorInvalidMemcpyDirection;
    }
    if (dn == 0 && sn == 0)
        return cudaSuccess;
    int dd, sd;
    copy_sides(kind, dst, src, &dd, &sd);
    pthread_mutex_lock(&g_lock);
    const char *wd = check_side(dst, dn, dd);
    const char *ws = wd ? NULL : check_side(src, sn, sd);
    /* the two pointers given the other way round: each side is what the
     * other side should be (a copy back written as a copy in, say) */
    int swapped = (wd || ws) && dd != sd && !check_side(src, dn, dd) && !check_side(dst, sn, sd);
    pthread_mutex_unlock(&g_lock);
    /* Which of the two is the mistake: the pointers or the kind. Before any
     * launch a program sends its inputs to the device, after one it brings
     * results back; where the pointers give the copy that fits that moment
     * (device to host after a kernel ran), the kind names the wrong
     * direction, else the pointers are the wrong way round. */
    int pointers_fit = swapped && (sd ? g_launched == 0 : g_launched != 0);
    if (pointers_fit) {
        diag("gpulab-emu: invalid-memcpy %s: %s(dst=%p, src=%p, %zu bytes, %s): the kind is %s but the destination "
             "is %s memory and the source %s memory%s: this copy's direction should be %s (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), fn, dst, src, dn, kind_name(kind), kind_name(kind),
             dd ? "host" : "device", sd ? "host" : "device",
             g_launched ? ", a copy of results back after the kernel ran" : ", a copy of inputs before any launch",
             kind_name(sd ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost));
        return cudaErrorInvalidValue;
    }
    if (swapped) {
        diag("gpulab-emu: invalid-memcpy %s: %s(dst=%p, src=%p, %zu bytes, %s): the destination and the source are "
             "swapped: the destination is %s memory and the source %s memory, the other way round from what %s "
             "moves (the destination comes first) (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), fn, dst, src, dn, kind_name(kind), dd ? "host" : "device",
             sd ? "host" : "device", kind_name(kind));
        return cudaErrorInvalidValue;
    }
    if (wd || ws) {
        char words[1200];
        diag("gpulab-emu: invalid-memcpy %s: %s(dst=%p, src=%p, %zu bytes, %s): the %s pointer %s (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), fn, dst, src, wd ? dn : sn, kind_name(kind),
             wd ? "destination" : "source", freed_words(wd ? wd : ws, wd ? dst : src, words, sizeof words));
        return cudaErrorInvalidValue;
    }
    return cudaSuccess;
}

#include "copies.inc"

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    cudaError_t e = copy_check("cudaMemcpy", dst, count, src, count, (int)kind, caller);
    if (e != cudaSuccess)
        return set_error(e);
    int dd, sd;
    copy_sides((int)kind, dst, src, &dd, &sd);
    check_copy_1d(caller, dst, src, count, dd, sd);
    track_copy(caller, dst, src, count, dd, sd);
#ifdef EMU_RACE
    if (sd)
        unset_copy_read(caller, "cudaMemcpy", src, count, count, 1);
    if (dd && !sd)
        unset_copied_in(dst, src, count);
    else if (dd)
        unset_stored(dst, count);
#endif
    if (count)
        memmove(dst, src, count);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream)
{
    (void)stream;
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    cudaError_t e = copy_check("cudaMemcpyAsync", dst, count, src, count, (int)kind, caller);
    if (e != cudaSuccess)
        return set_error(e);
#ifdef EMU_RACE
    int dd, sd;
    copy_sides((int)kind, dst, src, &dd, &sd);
    if (sd)
        unset_copy_read(caller, "cudaMemcpyAsync", src, count, count, 1);
    if (dd)
        unset_stored(dst, count);
#endif
    if (count)
        memmove(dst, src, count);
    return cudaSuccess;
}

cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (width > dpitch || width > spitch) {
        char at[512];
        diag("gpulab-emu: invalid-memcpy %s: cudaMemcpy2D: width %zu bytes is more than a pitch (dpitch %zu, spitch %zu) (cudaErrorInvalidPitchValue)",
             caller_line(caller, at, sizeof at), width, dpitch, spitch);
        return set_error(cudaErrorInvalidPitchValue);
    }
    if (height == 0 || width == 0)
        return cudaSuccess;
    /* each side's rows at its own pitch: the last row ends width bytes in */
    size_t dn = dpitch * (height - 1) + width, sn = spitch * (height - 1) + width;
    cudaError_t e = copy_check("cudaMemcpy2D", dst, dn, src, sn, (int)kind, caller);
    if (e != cudaSuccess)
        return set_error(e);
    int dd, sd;
    copy_sides((int)kind, dst, src, &dd, &sd);
    check_copy_2d(caller, dst, dpitch, src, spitch, width, dd, sd);
    if (dd)
        note_write(dst, dn);
#ifdef EMU_RACE
    if (sd)
        unset_copy_read(caller, "cudaMemcpy2D", src, spitch, width, height);
    for (size_t r = 0; dd && r < height; r++)
        unset_stored((char *)dst + r * dpitch, width);
#endif
    for (size_t r = 0; r < height; r++)
        memmove((char *)dst + r * dpitch, (const char *)src + r * spitch, width);
    return cudaSuccess;
}

cudaError_t cudaMemset(void *devPtr, int value, size_t count)
{
    void *caller = copy_caller(__builtin_return_address(0));
    RETURN_IF_STICKY();
    if (count == 0)
        return cudaSuccess;
    pthread_mutex_lock(&g_lock);
    const char *why = check_side(devPtr, count, 1);
    pthread_mutex_unlock(&g_lock);
    if (why) {
        char at[512], words[1200];
        diag("gpulab-emu: invalid-memset %s: cudaMemset(%p, %d, %zu): the pointer %s (cudaErrorInvalidValue)",
             caller_line(caller, at, sizeof at), devPtr, value, count,
             freed_words(why, devPtr, words, sizeof words));
        return set_error(cudaErrorInvalidValue);
    }
    note_write(devPtr, count);
#ifdef EMU_RACE
    unset_stored(devPtr, count);
#endif
    memset(devPtr, value, count);
    return cudaSuccess;
}

cudaError_t emu_memcpy_to_symbol(const void *symbol, const char *name, size_t symbol_size,
                                 const void *src, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind)
{
    RETURN_IF_STICKY();
    if (kind != cudaMemcpyHostToDevice && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return set_error(cudaErrorInvalidMemcpyDirection);
    if (offset > symbol_size || count > symbol_size - offset || !src) {
        diag("gpulab-emu: invalid-memcpy -: cudaMemcpyToSymbol(%s, %zu bytes at offset %zu): the symbol has %zu bytes (cudaErrorInvalidValue)",
             name, count, offset, symbol_size);
        return set_error(cudaErrorInvalidValue);
    }
    memmove((char *)symbol + offset, src, count);
#ifdef EMU_RACE
    race_constant_copied(symbol, name, symbol_size);
#endif
    FILE *f = log_open();
    if (f) {
        fputs("{\"event\":\"memcpy_to_symbol\",\"symbol\":", f);
        json_str(f, name);
        fprintf(f, ",\"bytes\":%zu}\n", count);
        fclose(f);
    }
    return cudaSuccess;
}

cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, const char *name,
                                   size_t symbol_size, size_t count, size_t offset,
                                   enum cudaMemcpyKind kind)
{
    RETURN_IF_STICKY();
    if (kind != cudaMemcpyDeviceToHost && kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return set_error(cudaErrorInvalidMemcpyDirection);
    if (offset > symbol_size || count > symbol_size - offset || !dst) {
        diag("gpulab-emu: invalid-memcpy -: cudaMemcpyFromSymbol(%s, %zu bytes at offset %zu): the symbol has %zu bytes (cudaErrorInvalidValue)",
             name, count, offset, symbol_size);
        return set_error(cudaErrorInvalidValue);
    }
    memmove(dst, (const char *)symbol + offset, count);
#ifdef EMU_RACE
    unset_stored(dst, count); /* into a device buffer (DeviceToDevice): stored */
#endif
    return cudaSuccess;
}

/* ---- device, events, streams ---------------------------------------------------- */
static int g_nworkers_cfg;

static int worker_count(void)
{
    if (!g_nworkers_cfg) {
        const char *s = getenv("GPULAB_EMU_THREADS");
        int n = s ? atoi(s) : 0;
#ifdef EMU_RACE
        /* One worker, whatever is asked: the race detector's shadow
         * (race.inc) is unlocked, and it finds races between blocks from
         * the blocks' numbers, not from their running at once. */
        n = 1;
#endif
        if (n <= 0) {
            long c = sysconf(_SC_NPROCESSORS_ONLN);
            n = c > 0 ? (int)c : 1;
        }
        if (n > 256)
            n = 256;
        g_nworkers_cfg = n;
    }
    return g_nworkers_cfg;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return set_error(cudaErrorInvalidValue);
    *count = device_hidden() ? 0 : 1;
    return device_hidden() ? set_error(cudaErrorNoDevice) : cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (!p)
        return set_error(cudaErrorInvalidValue);
    if (device != 0)
        return set_error(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "gpulab CPU emulator");
    p->totalGlobalMem = EMU_DEVICE_MEMORY;
    p->sharedMemPerBlock = SHARED_LIMIT;
    p->sharedMemPerBlockOptin = SHARED_LIMIT;
    p->sharedMemPerMultiprocessor = 2 * SHARED_LIMIT;
    p->regsPerBlock = 65536;
    p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->memPitch = (size_t)1 << 31;
    p->maxThreadsPerBlock = MAX_THREADS;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->clockRate = 1000000;
    p->totalConstMem = 65536;
    p->major = 8;
    p->minor = 0;
    p->textureAlignment = 512;
    p->multiProcessorCount = worker_count();
    p->maxThreadsPerMultiProcessor = 2048;
    p->concurrentKernels = 0;
    p->unifiedAddressing = 1;
    p->canMapHostMemory = 0;
    p->memoryClockRate = 1000000;
    p->memoryBusWidth = 64;
    p->l2CacheSize = 1 << 20;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : set_error(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* Launches run to completion before emu_launch returns: nothing is pending. */
cudaError_t cudaDeviceSynchronize(void) { RETURN_IF_STICKY(); return cudaSuccess; }

cudaError_t cudaDeviceReset(void)
{
    pthread_mutex_lock(&g_lock);
    size_t n = g_nallocs;
    alloc *all = g_allocs;
    g_allocs = NULL;
    g_nallocs = g_capallocs = 0;
    pthread_mutex_unlock(&g_lock);
    for (size_t i = 0; i < n; i++)
        release_alloc(&all[i]);
    free(all);
    pthread_mutex_lock(&g_lock);
    g_sticky = cudaSuccess;
    g_last = cudaSuccess;
    pthread_mutex_unlock(&g_lock);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    pthread_mutex_lock(&g_lock);
    size_t used = g_allocated;
    pthread_mutex_unlock(&g_lock);
    if (free_bytes)
        *free_bytes = EMU_DEVICE_MEMORY - used;
    if (total_bytes)
        *total_bytes = EMU_DEVICE_MEMORY;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v) { if (v) *v = CUDART_VERSION; return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int *v) { if (v) *v = CUDART_VERSION; return cudaSuccess; }

struct CUevent_st { unsigned magic; int recorded; struct timespec t; };
#define EVENT_MAGIC 0x45564e54u

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    if (!event)
        return set_error(cudaErrorInvalidValue);
    RETURN_IF_STICKY();
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return set_error(cudaErrorMemoryAllocation);
    e->magic = EVENT_MAGIC;
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream)
{
    (void)stream;
    RETURN_IF_STICKY();
    if (!e || e->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    clock_gettime(CLOCK_MONOTONIC, &e->t);
    e->recorded = 1;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    RETURN_IF_STICKY();
    if (!e || e->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    RETURN_IF_STICKY();
    if (!ms)
        return set_error(cudaErrorInvalidValue);
    if (!a || !b || a->magic != EVENT_MAGIC || b->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return set_error(cudaErrorInvalidResourceHandle);
    *ms = (float)((double)(b->t.tv_sec - a->t.tv_sec) * 1e3 + (double)(b->t.tv_nsec - a->t.tv_nsec) / 1e6);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    if (!e || e->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    e->magic = 0;
    free(e);
    return cudaSuccess;
}

struct CUstream_st { int unused; };
cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    if (!s)
        return set_error(cudaErrorInvalidValue);
    *s = calloc(1, sizeof **s);
    return *s ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; RETURN_IF_STICKY(); return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return cudaSuccess; }

/* ---- fibers and the block scheduler ----------------------------------------------- */
enum { F_RUN = 0, F_WAIT = 1, F_EXIT = 2 };

typedef struct fiber {
    struct emu_ctx ctx; /* where the fiber resumes */
    uint3 tid;
    int state;
    const char *wfile;
    int wline;
    const char *retfile; /* the kernel's return statement it took (emu_note_return_), if retserial */
    int retline;
    unsigned long long retserial; /* is the block's (worker.serial): else it took none */
    char *map;          /* guard page + stack */
    size_t maplen;
} fiber;

/* The first fault of a launch, printed by the host thread once the launch ends. */
typedef struct fault {
    const char *category;
    cudaError_t code;
    uint3 block, thread;
    void *pc;
    char where[512];    /* FILE:LINE if known when the fault happened */
    char msg[512];
} fault;

typedef struct launch {
    const struct emu_launch_cfg *cfg;
    void (*invoke)(void *);
    void *arg;
    unsigned long long nblocks;
    unsigned long long chunk; /* blocks a worker takes at a time (run_launch) */
    unsigned nthreads;
    atomic_int failed;  /* the first fault is in f */
    atomic_int stop;    /* run no further thread or block (set with the first fault, except
                           for the faults --list-faults records and runs past: faults.inc) */
    fault f;
    atomic_size_t static_max;
    unsigned long long barriers;
    /* --list-faults (faults.inc): the invalid accesses seen, and
     * whether the launch's line is in the log yet */
    atomic_ullong bad_accesses;
    int faults_logged;
    /* The next block to run: every worker adds to it, so it has a cache
     * line of its own, away from the fields every thread reads (stop). */
    _Alignas(64) atomic_ullong next;
    char next_alone[64 - sizeof(atomic_ullong)];
} launch;

typedef struct worker {
    pthread_t th;
    int index;
    fiber *fibers;
    int nstacks;        /* fibers with a stack */
    fiber *cur;
    fiber *end;         /* one past the block's last fiber */
    fiber *fresh;       /* the block's first thread not started yet (they start in order) */
    int nwait, nexit;   /* this round: threads at a barrier, threads returned */
    int odd;            /* this round: a thread waits at a different barrier */
    const char *rfile;  /* the barrier of this round's first waiting thread */
    int rline;
    struct emu_ctx sched; /* the worker's scheduler loop */
    struct emu_ctx dead;  /* where a returning fiber's context goes */
    sigjmp_buf jb;
    volatile int in_block;
    int block0;
    launch *L;
    void *arg;          /* the launch's arguments: the worker's own copy (run_launch) */
    _Alignas(64) char args[4096];
    unsigned long long serial; /* the running block's, unique in this worker (shared arrays' sites are per worker) */
    char *arena;        /* shared memory (SHM_RESERVE bytes): see shm_place() */
    size_t arena_used, static_used, dyn_size;
    struct shm_slot { size_t size, align, base, end; } layout[SHM_SLOTS];
    int nlayout, nplaced;
    void *dyn;
    void **frees;
    int nfrees, capfrees;
    void *altstack;
#ifdef EMU_RACE
    unsigned long long rblock; /* the running block's linear index (race.inc) */
    unsigned round;     /* rounds run by this worker: a block's barrier interval (race.inc) */
#endif
#ifdef EMU_CHECK
    const void *sched_bottom;
    size_t sched_size;
    /* the block's shared arrays, to name what a bad address is next to */
    struct shm_region { char *base; size_t size; } regions[SHM_SLOTS];
    int nregions;
#endif
#ifdef EMU_CHECKED
    unsigned char faulted[MAX_THREADS / 8]; /* threads of the block already recorded (faults.inc) */
#endif
} worker;

static __thread worker *emu_self_;
static worker *g_workers;
static int g_nworkers;
static pthread_mutex_t g_pool_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t g_pool_start = PTHREAD_COND_INITIALIZER;
static pthread_cond_t g_pool_done = PTHREAD_COND_INITIALIZER;
static unsigned long g_generation;
static int g_done;
static launch *g_launch;
static struct sigaction g_old_segv, g_old_bus;

/* Keeps the launch's first fault (later ones are dropped). */
static void keep_first_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
                             const char *fmt, va_list ap)
{
    int expect = 0;
    if (!atomic_compare_exchange_strong(&L->failed, &expect, 1))
        return;
    worker *W = emu_self_;
    L->f.category = category;
    L->f.code = code;
    L->f.pc = pc;
    snprintf(L->f.where, sizeof L->f.where, "%s", where ? where : "");
    if (W) {
        L->f.block = emu_blockIdx_;
        L->f.thread = W->cur ? W->cur->tid : (uint3){ 0, 0, 0 };
    }
    vsnprintf(L->f.msg, sizeof L->f.msg, fmt, ap);
}

/* A fault that ends the launch: the block stops at its running thread's
 * next barrier or return, and no further block starts. */
static void set_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
                      const char *fmt, ...) __attribute__((format(printf, 6, 7)));
static void set_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    keep_first_fault(L, category, code, pc, where, fmt, ap);
    va_end(ap);
    atomic_store(&L->stop, 1);
}

static void fiber_init(worker *W, fiber *f, int i);

/* Starts fiber n, the block's next thread not started yet, as the running
 * one (its threadIdx was set when the launch began: run_launch). Nothing
 * else of it is written: its state is read only once the round is over,
 * when it waits at a barrier or has returned (each sets it), and a
 * return's line only if stamped with this block (retserial). */
static inline void fiber_start(worker *W, fiber *n)
{
    emu_threadIdx_ = n->tid;
    W->fresh = n + 1;
}

/* Makes fiber n the running one before a switch to it: a thread not
 * started yet gets its fresh context then, not when its block starts, so
 * that a block whose threads return at once (the most of a grid far larger
 * than its data) costs no set-up for the threads that run on the stack of
 * the one before (emu_fiber_main). */
static inline void fiber_ready(worker *W, fiber *n)
{
    W->cur = n;
    if (n == W->fresh) {
        fiber_init(W, n, (int)(n - W->fibers));
        fiber_start(W, n);
    } else {
        emu_threadIdx_ = n->tid;
    }
}

static inline void go(worker *W, struct emu_ctx *save, fiber *to, int dying)
{
#ifdef EMU_CHECK
    void *fake = NULL;
    __sanitizer_start_switch_fiber(dying ? NULL : &fake, to ? (const void *)(to->map + page_size()) : W->sched_bottom,
                                   to ? STACK_SIZE : W->sched_size);
#else
    (void)dying;
#endif
    EMU_SWITCH(save, to ? &to->ctx : &W->sched);
#ifdef EMU_CHECK
    __sanitizer_finish_switch_fiber(fake, NULL, NULL);
#endif
}

/* Passes control to the next fiber of the round (threads run in index order),
 * or back to the scheduler after the last one. */
static inline void next_fiber(worker *W, fiber *f, int dying)
{
    fiber *n = f + 1;
    struct emu_ctx *save = dying ? &W->dead : &f->ctx;
    if (n < W->end && !atomic_load_explicit(&W->L->stop, memory_order_relaxed)) {
        fiber_ready(W, n);
        go(W, save, n, dying);
    } else {
        go(W, save, NULL, dying);
    }
}

void emu_fiber_main(void)
{
    worker *W = emu_self_;
#ifdef EMU_CHECK
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    fiber *f;
    /* the launch's, the same for every thread this loop runs; and a fiber
     * stays on its worker's thread, so W is the same after each call */
    void (*const invoke)(void *) = W->L->invoke;
    void *const arg = W->arg;
#ifndef EMU_CHECK
    const atomic_int *const stop = &W->L->stop;
#endif
    for (;;) {
        invoke(arg);
        f = W->cur;
        f->state = F_EXIT;
        W->nexit++;
#ifndef EMU_CHECK
        /* The next thread of the round has not started yet (it is the
         * block's fresh one): run it here, on this stack, with no switch. A
         * block whose threads all return at once (the early exit of a grid
         * far larger than its data) then costs a call a thread. Should it
         * wait at a barrier, it keeps this stack: the thread that owned it
         * has returned, and the round ends as divergence anyway. The
         * bounds check's build switches every time: AddressSanitizer
         * tracks each stack. */
        fiber *n = f + 1;
        if (n == W->fresh && n < W->end && !atomic_load_explicit(stop, memory_order_relaxed)) {
            fiber_start(W, n);
            W->cur = n;
            continue;
        }
#endif
        break;
    }
    next_fiber(W, f, 1);
    abort(); /* not reached */
}

/* A thread of W's block arrives at the __syncthreads() at file:line: it
 * waits; the first to arrive names the barrier the others must reach too
 * (another is "odd": threads at different barriers); block 0's first
 * thread counts the barrier for the launch log. Returns the thread. */
static fiber *arrive_at_barrier(worker *W, const char *file, int line)
{
    fiber *f = W->cur;
    f->state = F_WAIT;
    f->wfile = file;
    f->wline = line;
    if (W->nwait++ == 0) {
        W->rfile = file;
        W->rline = line;
    } else if (line != W->rline || file != W->rfile) {
        W->odd = 1;
    }
    if (W->block0 && f == &W->fibers[0])
        W->L->barriers++;
    return f;
}

void emu_syncthreads_(const char *file, int line)
{
    worker *W = emu_self_;
    if (!W || !W->in_block)
        return; /* host code: nothing to wait for */
    fiber *f = arrive_at_barrier(W, file, line);
    next_fiber(W, f, 0);
    f->state = F_RUN;
}

/* __syncthreads() in default mode (emu_device.h): the bookkeeping of
 * emu_syncthreads_, returning the switch for the call site to make inline. */
struct emu_swap emu_sync_enter_(const char *file, int line)
{
    worker *W = emu_self_;
    struct emu_swap sw = { NULL, NULL };
    if (!W || !W->in_block)
        return sw;
    fiber *f = arrive_at_barrier(W, file, line);
    sw.from = &f->ctx;
    fiber *n = f + 1;
    if (n < W->end && !atomic_load_explicit(&W->L->stop, memory_order_relaxed)) {
        fiber_ready(W, n);
        sw.to = &n->ctx;
    } else {
        sw.to = &W->sched;
    }
    return sw;
}

void *emu_dynamic_shared_(void)
{
    worker *W = emu_self_;
    return W ? W->dyn : NULL;
}

static void track_free(worker *W, void *p)
{
    if (W->nfrees == W->capfrees) {
        W->capfrees = W->capfrees ? W->capfrees * 2 : 16;
        W->frees = realloc(W->frees, (size_t)W->capfrees * sizeof *W->frees);
        if (!W->frees)
            abort();
    }
    W->frees[W->nfrees++] = p;
}

static void poison(void *p, size_t n)
{
    memset(p, 0xFF, n);
}


/* Places the block's next shared array (the dynamic one first) in the worker's
 * shared memory area, so that its last byte touches a PROT_NONE page: a write
 * or read just past the end of a shared array faults and is reported as
 * out-of-bounds. The race build (EMU_RACE) puts mapped margins as large as a
 * block's whole shared memory on each side of every array instead, and its
 * bounds check (race.inc) reports any access in them, before the array as
 * well as after it; a PROT_NONE page lies past each slot. Blocks of a launch
 * place the same arrays in the same order, so the layout (and its guard
 * pages) is computed once and reused. */
#ifndef EMU_CHECK
static char *shm_place(worker *W, size_t size, size_t align)
{
    size_t pg = page_size();
    int k = W->nplaced++;
    if (k < W->nlayout && W->layout[k].size == size && W->layout[k].align == align)
        return W->arena + W->layout[k].base;
    if (k >= SHM_SLOTS)
        return NULL;
    size_t start = k ? W->layout[k - 1].end : 0;
#ifdef EMU_RACE
    size_t base = round_up(start + SHARED_LIMIT, align);
    size_t data = round_up(base + size + SHARED_LIMIT, pg) - start;
#else
    size_t data = round_up(size ? size : 1, pg);
    size_t base = (start + data - size) & ~(align - 1);
#endif
    if (start + data + pg > SHM_RESERVE)
        return NULL;
    mprotect(W->arena + start, data, PROT_READ | PROT_WRITE);
    mprotect(W->arena + start + data, pg, PROT_NONE);
    W->layout[k] = (struct shm_slot){ size, align, base, start + data + pg };
    W->nlayout = k + 1;
    return W->arena + base;
}
#endif

#ifdef EMU_CHECK
/* --check: one of the block's shared arrays, with poisoned margins as large
 * as a block's whole shared memory, freed when the block ends, and
 * remembered to name what a bad address is next to. */
static char *shared_margined(worker *W, size_t size, size_t align)
{
    char *block, *base;
    size_t len;
    if (margined_block(size, align, SHARED_LIMIT, &block, &len, &base) != 0)
        abort();
    track_free(W, block);
    if (W->nregions < SHM_SLOTS)
        W->regions[W->nregions++] = (struct shm_region){ base, size };
    return base;
}
#endif

void *emu_shared_static_(struct emu_shared_site *site, size_t size, size_t align)
{
    worker *W = emu_self_;
    if (!W) {
        /* not in a kernel: give it private memory */
        if (!site->ptr)
            site->ptr = calloc(1, size ? size : 1);
        return site->ptr;
    }
    if (site->serial == W->serial)
        return site->ptr;
    if (align < 16)
        align = 16;
    W->static_used += size;
    size_t total = W->static_used + W->dyn_size;
    void *p;
    if (total > SHARED_LIMIT) {
        launch *L = W->L;
        set_fault(L, "invalid-launch", cudaErrorInvalidValue, NULL, NULL,
                  "the block uses %zu bytes of shared memory (%zu static, %zu dynamic); the limit is %u",
                  total, W->static_used, W->dyn_size, SHARED_LIMIT);
        p = alloc_aligned(align, size);
        track_free(W, p);
    } else {
#ifdef EMU_CHECK
        p = shared_margined(W, size, align);
#else
        p = shm_place(W, size, align);
        if (!p) {
            p = alloc_aligned(align, size);
            track_free(W, p);
        }
#endif
    }
    poison(p, size);
    site->ptr = p;
    site->serial = W->serial;
    size_t cur = atomic_load(&W->L->static_max);
    while (W->static_used > cur && !atomic_compare_exchange_weak(&W->L->static_max, &cur, W->static_used))
        ;
    return p;
}

static void fiber_stack(worker *W, int i)
{
    fiber *f = &W->fibers[i];
    size_t pg = page_size();
    f->maplen = STACK_SIZE + pg;
    f->map = mmap(NULL, f->maplen, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (f->map == MAP_FAILED) {
        diag("gpulab-emu: internal: cannot reserve a fiber stack: %s", strerror(errno));
        abort();
    }
    mprotect(f->map, pg, PROT_NONE); /* guard page: an overflow faults here */
}

/* A fresh fiber's stack: six zero registers, then the return into emu_fiber_entry.
 * Stacks start at staggered offsets so that the fibers' hot frames do not all
 * fall on the same cache sets. */
static void fiber_init(worker *W, fiber *f, int i)
{
    char *top = f->map + f->maplen - (size_t)(i % 32) * 64 - 64;
    top = (char *)((uintptr_t)top & ~(uintptr_t)15);
    f->ctx.sp = top;
    f->ctx.pc = (void *)emu_fiber_entry;
    (void)W;
}

void emu_note_return_(const char *file, int line)
{
    worker *W = emu_self_;
    if (W && W->in_block && W->cur) {
        W->cur->retfile = file;
        W->cur->retline = line;
        W->cur->retserial = W->serial;
    }
}

static void report_divergence(worker *W, fiber *a, fiber *b)
{
    launch *L = W->L;
    char where[512];
    snprintf(where, sizeof where, "%s:%d", a->wfile, a->wline);
    W->cur = a;
    if (b->state == F_EXIT && b->retserial == W->serial)
        set_fault(L, "barrier-divergence", cudaErrorLaunchFailure, NULL, where,
                  "waits at this __syncthreads() while thread (%u,%u,%u) of its block has returned from the "
                  "kernel, at %s:%d",
                  b->tid.x, b->tid.y, b->tid.z, b->retfile, b->retline);
    else if (b->state == F_EXIT)
        set_fault(L, "barrier-divergence", cudaErrorLaunchFailure, NULL, where,
                  "waits at this __syncthreads() while thread (%u,%u,%u) of its block has returned from the kernel",
                  b->tid.x, b->tid.y, b->tid.z);
    else
        set_fault(L, "barrier-divergence", cudaErrorLaunchFailure, NULL, where,
                  "waits at this __syncthreads() while thread (%u,%u,%u) of its block waits at another one, %s:%d",
                  b->tid.x, b->tid.y, b->tid.z, b->wfile, b->wline);
}

static int same_site(const fiber *a, const fiber *b)
{
    return a->wline == b->wline && (a->wfile == b->wfile || strcmp(a->wfile, b->wfile) == 0);
}

/* Runs block b, whose blockIdx the caller has set (run_launch). */
static void run_block(worker *W, launch *L, unsigned long long b)
{
    const struct emu_launch_cfg *c = L->cfg;
    W->block0 = b == 0;
    W->serial++;
    W->static_used = 0;
    W->dyn_size = c->shmem;
#ifdef EMU_CHECKED
    memset(W->faulted, 0, sizeof W->faulted);
#endif
#ifdef EMU_CHECK
    W->nregions = 0;
    W->dyn = shared_margined(W, c->shmem, 16);
    W->arena_used = 0;
#else
    W->nplaced = 0;
    W->dyn = shm_place(W, c->shmem, 16);
#endif
    if (c->shmem)
        poison(W->dyn, c->shmem);
    int n = (int)L->nthreads;
    while (W->nstacks < n)
        fiber_stack(W, W->nstacks++);
    W->fresh = W->fibers;
    W->end = W->fibers + n;
#ifdef EMU_RACE
    W->rblock = b;
    tiles_block_begin(L, b);
#endif
    /* No signal mask saved (a system call a block): the fault handler
     * blocks nothing (SA_NODEFER, an empty sa_mask), so the mask it jumps
     * back with is the one saved. */
    if (sigsetjmp(W->jb, 0) == 0) {
        W->in_block = 1;
        for (;;) {
            W->nwait = W->nexit = W->odd = 0;
#ifdef EMU_RACE
            W->round++;
#endif
            fiber *f = W->fibers;
            fiber_ready(W, f);
            go(W, &W->sched, f, 0);
            if (atomic_load_explicit(&L->stop, memory_order_relaxed))
                break;
            /* The round is over: every thread waits at a barrier or has returned. */
            if (W->nwait == 0)
                break;
            if (W->nexit == 0 && !W->odd) {
#ifdef EMU_RACE
                tiles_round_end(W);
#endif
                continue;
            }
            /* the slow path: find the two threads that disagree */
            fiber *first_wait = NULL, *first_exit = NULL, *other = NULL;
            for (int i = 0; i < n; i++) {
                fiber *g = &W->fibers[i];
                if (g->state == F_WAIT) {
                    if (!first_wait)
                        first_wait = g;
                    else if (!other && !same_site(first_wait, g))
                        other = g;
                } else if (!first_exit) {
                    first_exit = g;
                }
            }
            if (first_exit) {
                report_divergence(W, first_wait, first_exit);
                break;
            }
            if (other) {
                report_divergence(W, first_wait, other);
                break;
            }
        }
    }
    W->in_block = 0;
    W->cur = NULL;
    for (int i = 0; i < W->nfrees; i++)
        free(W->frees[i]);
    W->nfrees = 0;
}

static void run_launch(worker *W, launch *L)
{
    W->L = L;
    /* The arguments, copied into the worker's own memory, as CUDA copies
     * them to the device: every thread reads them, and where they lie
     * on the host's stack, a few kilobytes from the fibers' hot frames,
     * the reads could wait on the frames' stores (the processor tells
     * loads from stores by the address's low 12 bits): a third of the
     * time of a grid whose threads return at once. */
    W->arg = L->arg;
    if (L->cfg->arg_size && L->cfg->arg_size <= sizeof W->args) {
        memcpy(W->args, L->arg, L->cfg->arg_size);
        W->arg = W->args;
    }
    emu_blockDim_ = L->cfg->block;
    /* each fiber's threadIdx, the same in every block of the launch:
     * counted, not divided out */
    unsigned x = 0, y = 0, z = 0;
    for (unsigned i = 0; i < L->nthreads; i++) {
        W->fibers[i].tid = (uint3){ x, y, z };
        if (++x == L->cfg->block.x) {
            x = 0;
            if (++y == L->cfg->block.y)
                y = 0, z++;
        }
    }
    emu_gridDim_ = L->cfg->grid;
    const dim3 g = L->cfg->grid;
    for (;;) {
        if (atomic_load_explicit(&L->stop, memory_order_relaxed))
            break;
        unsigned long long b = atomic_fetch_add(&L->next, L->chunk);
        if (b >= L->nblocks)
            break;
        unsigned long long end = L->nblocks - b > L->chunk ? b + L->chunk : L->nblocks;
        emu_blockIdx_.x = (unsigned)(b % g.x);
        emu_blockIdx_.y = (unsigned)(b / g.x % g.y);
        emu_blockIdx_.z = (unsigned)(b / ((unsigned long long)g.x * g.y));
        for (;;) {
            run_block(W, L, b);
            if (++b == end || atomic_load_explicit(&L->stop, memory_order_relaxed))
                break;
            /* the next block's index, counted */
            if (++emu_blockIdx_.x == g.x) {
                emu_blockIdx_.x = 0;
                if (++emu_blockIdx_.y == g.y)
                    emu_blockIdx_.y = 0, emu_blockIdx_.z++;
            }
        }
    }
}

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

#ifdef EMU_CHECKED
static void record_thread(worker *W, const char *where); /* faults.inc: the fault list */
#endif

/* Whether a is at least 1 GiB from every device allocation and from the
 * block's shared memory: no small overrun gets there, an index that wrapped
 * round as an unsigned number (about 4 billion elements on) does. */
static int far_from_every_array(const worker *W, const char *a)
{
    const size_t far = (size_t)1 << 30;
#define EMU_NEAR(base, size) ((a >= (base) && (size_t)(a - (base)) < (size) + far) || \
                              (a < (base) && (size_t)((base) - a) < far))
    for (size_t i = 0; i < g_nallocs; i++)
        if (g_allocs[i].map && EMU_NEAR(g_allocs[i].map, g_allocs[i].maplen))
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

static void on_fault(int sig, siginfo_t *si, void *ucv)
{
    char distance[48];
    worker *W = emu_self_;
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
        for (size_t i = 0; i < g_nallocs; i++) {
            alloc *al = &g_allocs[i];
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
        record_thread(W, resolve_pc(pc, at, sizeof at));
#endif
        if (sig == SIGBUS || si->si_code == SI_KERNEL || far_from_every_array(W, a))
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
    /* Not survivable: let the previous handler (or the default action) have it. */
    sigaction(sig, sig == SIGBUS ? &g_old_bus : &g_old_segv, NULL);
}

static void *worker_main(void *arg)
{
    worker *W = arg;
    emu_self_ = W;
    stack_t ss;
    ss.ss_sp = W->altstack;
    ss.ss_size = 65536;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
#ifdef EMU_CHECK
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
        void *addr;
        size_t sz;
        pthread_attr_getstack(&at, &addr, &sz);
        W->sched_bottom = addr;
        W->sched_size = sz;
        pthread_attr_destroy(&at);
    }
#endif
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&g_pool_lock);
        while (g_generation == seen)
            pthread_cond_wait(&g_pool_start, &g_pool_lock);
        seen = g_generation;
        launch *L = g_launch;
        pthread_mutex_unlock(&g_pool_lock);
        run_launch(W, L);
        pthread_mutex_lock(&g_pool_lock);
        if (++g_done == g_nworkers)
            pthread_cond_signal(&g_pool_done);
        pthread_mutex_unlock(&g_pool_lock);
    }
    return NULL;
}

static void start_pool(void)
{
    if (g_workers)
        return;
    int n = worker_count();
    g_workers = calloc((size_t)n, sizeof *g_workers);
    if (!g_workers)
        abort();
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &g_old_segv);
    sigaction(SIGBUS, &sa, &g_old_bus);
    for (int i = 0; i < n; i++) {
        worker *W = &g_workers[i];
        W->index = i;
        W->fibers = calloc(MAX_THREADS, sizeof *W->fibers);
        W->altstack = malloc(65536);
#ifndef EMU_CHECK
        W->arena = mmap(NULL, SHM_RESERVE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (W->arena == MAP_FAILED)
            abort();
#endif
        if (!W->fibers || !W->altstack)
            abort();
    }
    g_nworkers = n;
    for (int i = 0; i < n; i++) {
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 8u << 20);
        if (pthread_create(&g_workers[i].th, &at, worker_main, &g_workers[i]) != 0) {
            diag("gpulab-emu: internal: cannot start worker thread %d", i);
            abort();
        }
        pthread_attr_destroy(&at);
    }
}

/* ---- launch ------------------------------------------------------------------------ */
/* Whether FILE:LINE is in the emulator's own device header: an inline
 * function of the kit's (atomicAdd), whose caller is the line to name. */
static int emu_own_header(const char *where)
{
    return strstr(where, "emu_device.h:") != NULL;
}

/* addr2line is a process: each thread keeps the last few answers (a fault
 * list names the same line for hundreds of threads). Per thread, so that
 * the workers of a multi-threaded build need no lock. */
#define RESOLVED_KEPT 16
static __thread struct { void *pc; char where[512]; } t_resolved[RESOLVED_KEPT];
static __thread unsigned t_resolved_next;

static char *resolve_pc_uncached(void *pc, char *out, size_t outsz);

static char *resolve_pc(void *pc, char *out, size_t outsz)
{
    out[0] = 0;
    if (!pc)
        return out;
    for (unsigned i = 0; i < RESOLVED_KEPT; i++)
        if (t_resolved[i].pc == pc) {
            snprintf(out, outsz, "%s", t_resolved[i].where);
            return out;
        }
    unsigned i = t_resolved_next++ % RESOLVED_KEPT;
    resolve_pc_uncached(pc, t_resolved[i].where, sizeof t_resolved[i].where);
    t_resolved[i].pc = pc;
    snprintf(out, outsz, "%s", t_resolved[i].where);
    return out;
}

static char *resolve_pc_uncached(void *pc, char *out, size_t outsz)
{
    out[0] = 0;
    Dl_info di, own;
    if (!dladdr(pc, &di) || !di.dli_fname)
        return out;
    /* Only the program's own code: a fault inside a sanitizer's runtime
     * (ThreadSanitizer reading the shadow of a wild address) would name a
     * line of that library's sources as if it were the student's. */
    if (!dladdr((void *)resolve_pc, &own) || own.dli_fbase != di.dli_fbase)
        return out;
    uintptr_t off = (uintptr_t)pc - (uintptr_t)di.dli_fbase;
    const char *exe = di.dli_fname;
    char self[4096];
    if (!exe[0] || strchr(exe, '/') == NULL) {
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k <= 0)
            return out;
        self[k] = 0;
        exe = self;
    }
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", exe, (unsigned long)off);
    FILE *p = popen(cmd, "r");
    if (!p)
        return out;
    /* -i: the inlined function's line, then its callers'; the first that is
     * not the emulator's own device header (atomicAdd's body, say) */
    char line[1024];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\r\n")] = 0;
        char *d = strstr(line, " (discriminator");
        if (d)
            *d = 0;
        if (strncmp(line, "??", 2) == 0)
            continue;
        if (!out[0] || emu_own_header(out)) {
            size_t l = strlen(line) < outsz ? strlen(line) : outsz - 1;
            memcpy(out, line, l);
            out[l] = 0;
        }
    }
    pclose(p);
    return out;
}

/* ---- a run out of time ------------------------------------------------------------ */
/* The grader sends SIGUSR1 when a run's time is up, a moment before it kills
 * the run: the worker running a kernel's thread says where that thread is
 * (the FILE:LINE of the instruction it was interrupted at), so the report
 * can name the loop that never ends. A signal that lands on a thread running
 * no kernel (the host thread, waiting for the launch) is passed on to the
 * workers; one line in all. */
static atomic_int g_stuck_told, g_stuck_passed_on;

/* Whether FILE:LINE, where a thread was interrupted, is a line of the
 * student's program: not the emulator's own (this file, its device header)
 * nor the C++ library's headers (the launch's std::apply between two
 * threads), which the report would show them as if it were theirs. */
static int students_line(const char *where)
{
    /* the debug information may name this file as it was compiled or by
     * its whole path: its name ends the path either way */
    const char *colon = strrchr(where, ':');
    size_t n = colon ? (size_t)(colon - where) : strlen(where), own = strlen(__FILE__);
    int ours = n >= own && memcmp(where + n - own, __FILE__, own) == 0 && (n == own || where[n - own - 1] == '/');
    return where[0] && !ours && !emu_own_header(where) && !strstr(where, "/include/c++/");
}

static void on_stuck(int sig, siginfo_t *si, void *ucv)
{
    (void)si;
    worker *W = emu_self_;
    if (W && W->in_block && W->cur && W->L) {
        if (atomic_exchange(&g_stuck_told, 1))
            return;
        void *pc = NULL;
        const ucontext_t *uc = ucv;
#if defined(__APPLE__) && defined(__aarch64__)
        pc = (void *)uc->uc_mcontext->__ss.__pc;
#elif defined(__x86_64__)
        pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
        pc = (void *)uc->uc_mcontext.pc;
#else
        (void)uc;
#endif
        char where[512], line[1536];
        resolve_pc(pc, where, sizeof where);
        if (!students_line(where))
            where[0] = 0;
        const launch *L = W->L;
        const struct emu_launch_cfg *c = L->cfg;
        /* how far the launch got: blocks handed to the workers (a chunk
         * at a time), so that a grid far too large, whose blocks do
         * finish, is not taken for a loop that never ends */
        unsigned long long started = atomic_load(&L->next);
        if (started > L->nblocks)
            started = L->nblocks;
        int n = snprintf(line, sizeof line,
                         "gpulab-emu: stuck %s kernel %s grid (%u,%u,%u) block (%u,%u,%u) thread (%u,%u,%u): still "
                         "running when the time ran out; the launch at %s:%d had started %llu of its %llu blocks "
                         "of (%u,%u,%u) threads\n",
                         where[0] ? where : "-", c->kernel, c->grid.x, c->grid.y, c->grid.z, emu_blockIdx_.x,
                         emu_blockIdx_.y, emu_blockIdx_.z, W->cur->tid.x, W->cur->tid.y, W->cur->tid.z, c->file,
                         c->line, started, L->nblocks, c->block.x, c->block.y, c->block.z);
        if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
            return;
        return;
    }
    if (atomic_exchange(&g_stuck_passed_on, 1))
        return;
    for (int i = 0; i < g_nworkers; i++)
        if (&g_workers[i] != W)
            pthread_kill(g_workers[i].th, sig);
}

/* From the program's start, so that the grader's SIGUSR1 never ends a run
 * (its default action) before the time limit, even before a launch. */
__attribute__((constructor)) static void install_stuck_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_stuck;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
}

#ifdef EMU_RACE
static void count_log(FILE *f); /* race.inc: what the launch read and wrote */
#endif

/* One "launch" line. A launch that did not succeed also says whether its
 * blocks ran ("ran": true for a kernel fault: the kernel ran, and what it
 * did is evidence) or not (a refused configuration, or a launch after a
 * sticky error). */
static void log_launch(const struct emu_launch_cfg *c, size_t st, unsigned long long barriers, cudaError_t e,
                       int ran)
{
    FILE *f = log_open();
    if (!f)
        return;
    fputs("{\"event\":\"launch\",\"kernel\":", f);
    json_str(f, c->kernel);
    /* where the program launched it: the grader names the launch line */
    fputs(",\"where\":", f);
    char where[1024];
    snprintf(where, sizeof where, "%s:%d", c->file ? c->file : "-", c->line);
    json_str(f, where);
    fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shared_static_bytes\":%zu,"
               "\"shared_dynamic_bytes\":%zu,\"barriers\":%llu,\"status\":\"%s\"",
            c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y, c->block.z, st, c->shmem,
            barriers, cudaGetErrorName(e));
    if (e != cudaSuccess)
        fprintf(f, ",\"ran\":%s", ran ? "true" : "false");
#ifdef EMU_RACE
    if (ran)
        count_log(f);
#endif
    fputs("}\n", f);
    fclose(f);
}

static cudaError_t bad_launch(const struct emu_launch_cfg *c, cudaError_t e, const char *why)
{
    diag("gpulab-emu: invalid-launch %s:%d kernel %s grid (%u,%u,%u) block (%u,%u,%u): %s (%s)",
         c->file, c->line, c->kernel, c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y,
         c->block.z, why, cudaGetErrorName(e));
    log_launch(c, 0, 0, e, 0);
    return set_error(e);
}

static pthread_mutex_t g_launch_lock = PTHREAD_MUTEX_INITIALIZER;

cudaError_t emu_launch(const struct emu_launch_cfg *c, void (*invoke)(void *), void *arg)
{
    if (g_sticky != cudaSuccess) {
        log_launch(c, 0, 0, g_sticky, 0);
        return g_sticky;
    }
    g_launched = 1;
    /* CUDA 13 answers every invalid configuration with cudaErrorInvalidValue
     * (checked on an H200; older releases said cudaErrorInvalidConfiguration). */
    const cudaError_t bad = cudaErrorInvalidValue;
    const dim3 g = c->grid, b = c->block;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
        return bad_launch(c, bad, "a grid or block dimension is 0");
    if (b.x > 1024 || b.y > 1024 || b.z > 64)
        return bad_launch(c, bad,
                          "block dimensions are limited to (1024, 1024, 64)");
    if ((unsigned long long)b.x * b.y * b.z > MAX_THREADS)
        return bad_launch(c, bad, "more than 1024 threads per block");
    if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return bad_launch(c, bad,
                          "grid dimensions are limited to (2147483647, 65535, 65535)");
    if (c->shmem > SHARED_LIMIT)
        return bad_launch(c, cudaErrorInvalidValue, "more than 48 KiB (49152 bytes) of dynamic shared memory");

    short_copies_in();
    pthread_mutex_lock(&g_launch_lock);
    start_pool();
    launch L;
    memset(&L, 0, sizeof L);
    L.cfg = c;
    L.invoke = invoke;
    L.arg = arg;
    L.nblocks = (unsigned long long)g.x * g.y * g.z;
    L.nthreads = b.x * b.y * b.z;
    /* A worker takes blocks a chunk at a time (one atomic add a chunk, not
     * a block: a grid of millions of blocks that return at once is mostly
     * that add), small enough that the workers share the work evenly. */
    L.chunk = L.nblocks / ((unsigned long long)g_nworkers * 256 + 1);
    L.chunk = L.chunk < 1 ? 1 : L.chunk > 256 ? 256 : L.chunk;
    atomic_init(&L.next, 0);
    atomic_init(&L.failed, 0);
    atomic_init(&L.stop, 0);
    atomic_init(&L.bad_accesses, 0);
    atomic_init(&L.static_max, 0);

#ifdef EMU_RACE
    race_launch_begin();
    tiles_launch_begin();
    unset_launch_begin();
#endif
    pthread_mutex_lock(&g_pool_lock);
    g_launch = &L;
    g_done = 0;
    g_generation++;
    pthread_cond_broadcast(&g_pool_start);
    while (g_done < g_nworkers)
        pthread_cond_wait(&g_pool_done, &g_pool_lock);
    g_launch = NULL;
    pthread_mutex_unlock(&g_pool_lock);
    pthread_mutex_unlock(&g_launch_lock);
#ifdef EMU_RACE
    race_launch_end(c);
    tiles_launch_end(c);
#endif

    cudaError_t e = cudaSuccess;
    if (atomic_load(&L.failed)) {
        fault *f = &L.f;
        e = f->code;
        char where[1024];
        const char *msg = f->msg;
        if (f->where[0])
            snprintf(where, sizeof where, "%s", f->where);
        else
            resolve_pc(f->pc, where, sizeof where);
        if (!where[0])
            snprintf(where, sizeof where, "-");
        diag("gpulab-emu: %s %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): %s (%s)", f->category,
             where, c->kernel, f->block.x, f->block.y, f->block.z, f->thread.x, f->thread.y,
             f->thread.z, msg, cudaGetErrorName(e));
        if (e == cudaErrorInvalidValue) {
            set_error(e); /* a launch error, not sticky */
        } else {
            g_sticky = e;
            set_error(e);
        }
    }
    /* A refused configuration (cudaErrorInvalidValue, also for too much
     * static shared memory, found once blocks ran) counts as not run, as on
     * a GPU, which refuses such a launch before any block starts. */
    log_launch(c, atomic_load(&L.static_max), L.barriers, e, e != cudaErrorInvalidValue);
    return e;
}

#ifdef EMU_CHECKED
#include "faults.inc"
#endif
#ifdef EMU_CHECK
#include "check.inc"
#endif
#ifdef EMU_RACE
#include "race.inc"
#include "tiles.inc"
#include "unset.inc"
#endif
