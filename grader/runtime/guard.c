/*
 * guard.c - see guard.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "guard.h"
#include "harness.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The guard pattern: 0x7F7F7F7F, as a float 3.4e38. A kernel that reads past
 * the end of an array (a load without its bounds test) gets a huge number
 * that swamps every sum it enters, so the mistake shows in the output on the
 * GPU too. Not a NaN: a NaN read from a guard keeps its bits through CPU
 * arithmetic, so a kernel that reads a guard and writes the result past the
 * end would write the guard's own pattern back and go unseen. */
#define GUARD_BYTE 0x7F
#define MAX_BLOCKS 256

typedef struct {
    unsigned char *base;    /* what the real allocator returned */
    unsigned char *user;    /* what the caller got */
    size_t size;            /* bytes the caller may use */
    size_t front, back;     /* guard bytes before and after */
    int index;              /* 1-based allocation number */
    const char *file;
    int line;
    char name[64];
    int live;
    /* the program's copies out of it (cudaMemcpy, cudaMemcpy2D): the
     * farthest byte one asked for, from the block's start, and its line */
    size_t copied_out;
    const char *copy_file;
    int copy_line;
} guarded_block;

static guarded_block blocks[MAX_BLOCKS];
static int nblocks, nallocs;

/* Enough to catch the overflow of a rounded-up grid on any lab's sizes. */
static size_t guard_bytes(size_t size)
{
    size_t g = 64 * 1024 + size / 4;
    g = (g + 511) & ~(size_t)511; /* keep the caller's pointer 512-byte aligned */
    return g > (64u << 20) ? (64u << 20) : g;
}

static void describe(const guarded_block *b, char *buf, size_t len)
{
    if (b->name[0])
        snprintf(buf, len, "%s (%zu bytes)", b->name, b->size);
    else
        snprintf(buf, len, "the %zu-byte buffer allocated at %s:%d (device allocation #%d)", b->size,
                 b->file, b->line, b->index);
}

/* The first guard failure of the run. It is reported after the harness has
 * written the output (guard_failure()), so the grader can still show where
 * that output is wrong. */
static char failure[1500];

static void report(const char *fmt, const char *what, size_t offset)
{
    if (!failure[0])
        snprintf(failure, sizeof failure, fmt, what, offset);
}

const char *guard_failure(void)
{
    return failure[0] ? failure : NULL;
}

/* The writes past the end of block b (as far as `past` bytes) lie within
 * what the program's own copy out of it reads: said as an allocation too
 * small for the buffer the program uses, at the cudaMalloc's line. */
static void report_too_small(const guarded_block *b, const char *what, size_t past)
{
    if (failure[0])
        return;
    snprintf(failure, sizeof failure,
             "a kernel wrote past the end of %s, as far as %zu bytes past it, and the copy at %s:%d reads %zu bytes "
             "out of it: the buffer is smaller than the program uses it (an allocation too small, not an index "
             "too large); give the cudaMalloc at %s:%d the buffer's whole size",
             what, past, b->copy_file ? b->copy_file : "?", b->copy_line, b->copied_out, b->file, b->line);
}

/* Records a failure if a guard of the block changed. */
static void check_block(const guarded_block *b)
{
    size_t total = b->front + b->size + b->back;
    unsigned char *host = malloc(b->front > b->back ? b->front : b->back);
    if (!host)
        return;
    char what[160];
    describe(b, what, sizeof what);
    if (cudaMemcpy(host, b->base, b->front, cudaMemcpyDeviceToHost) == cudaSuccess) {
        for (size_t i = 0; i < b->front; i++) /* the farthest damaged byte first */
            if (host[i] != GUARD_BYTE) {
                report("a kernel wrote before the start of %s, as far as %zu bytes before it: "
                       "look for a negative index", what, b->front - i);
                break;
            }
    }
    if (cudaMemcpy(host, b->base + b->front + b->size, b->back, cudaMemcpyDeviceToHost) == cudaSuccess) {
        for (size_t i = b->back; i-- > 0;)
            if (host[i] != GUARD_BYTE) {
                /* the program itself copies more out of the buffer than it
                 * holds, and every stray write lies within that copy: the
                 * buffer is what is too small, not the writes' index */
                if (b->copied_out > b->size && b->size + i + 1 <= b->copied_out)
                    report_too_small(b, what, i + 1);
                else
                    report("a kernel wrote past the end of %s, as far as %zu bytes past it: look for a "
                           "missing or wrong bounds test (the grid is rounded up to whole blocks)", what, i + 1);
                break;
            }
    }
    (void)total;
    free(host);
}

/* The checkers' builds (the sanitizer stage) link a copy of this file
 * compiled with GPULAB_NO_GUARDS, so that the checker sees every
 * out-of-bounds access itself (a guard zone is memory the allocator owns,
 * where an overflow goes unseen by memcheck). A choice made when the kit is
 * built, not a variable of the run's environment: a checker's run must not
 * be told from a graded one by what it can read. */
static int disabled;

void guard_disable(void)
{
    disabled = 1;
}

static int guards_off(void)
{
#ifdef GPULAB_NO_GUARDS
    return 1;
#else
    return disabled;
#endif
}

static guarded_block *new_block(void)
{
    for (int i = 0; i < nblocks; i++)
        if (!blocks[i].live)
            return &blocks[i];
    return nblocks < MAX_BLOCKS ? &blocks[nblocks++] : NULL;
}

static guarded_block *find_block(const void *user)
{
    for (int i = 0; i < nblocks; i++)
        if (blocks[i].live && blocks[i].user == user)
            return &blocks[i];
    return NULL;
}

/* Lays `guard` bytes of guard before and after the `size` bytes at
 * base + guard, records the block in b and hands the caller its start. */
static cudaError_t guard_block_init(guarded_block *b, void *base, size_t guard, size_t size,
                                    const char *file, int line, void **ptr)
{
    cudaError_t err;
    if ((err = cudaMemset(base, GUARD_BYTE, guard)) != cudaSuccess ||
        (err = cudaMemset((unsigned char *)base + guard + size, GUARD_BYTE, guard)) != cudaSuccess) {
        cudaFree(base);
        return err;
    }
    memset(b, 0, sizeof *b);
    b->base = base;
    b->user = (unsigned char *)base + guard;
    b->size = size;
    b->front = b->back = guard;
    b->index = ++nallocs;
    b->file = file;
    b->line = line;
    b->live = 1;
    *ptr = b->user;
    return cudaSuccess;
}

/* On the emulator: the student's line that called, for the next cudaMalloc
 * or cudaFree, which the emulator's findings name (a buffer nothing stored,
 * a use after cudaFree: docs/emulator.md). */
#ifdef GPULAB_EMU
#define NAME_CALLER() emu_copy_caller_(__builtin_return_address(0))
#else
#define NAME_CALLER() ((void)0)
#endif

cudaError_t lab_cuda_malloc(void **ptr, size_t size, const char *file, int line)
{
    guarded_block *b = guards_off() ? NULL : new_block();
    NAME_CALLER();
    if (!ptr || !b) /* guards off, or out of bookkeeping: a plain block */
        return cudaMalloc(ptr, size);
    size_t g = guard_bytes(size);
    void *base = NULL;
    cudaError_t err = cudaMalloc(&base, g + size + g);
    if (err != cudaSuccess)
        return err;
    return guard_block_init(b, base, g, size, file, line, ptr);
}

cudaError_t lab_cuda_malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height,
                                  const char *file, int line)
{
    guarded_block *b = guards_off() ? NULL : new_block();
    NAME_CALLER();
    if (!ptr || !pitch || !b || height == 0)
        return cudaMallocPitch(ptr, pitch, width, height);
    /* Whole guard rows above and below keep every row at the pitch's
     * alignment; the pitch depends on the width alone, so a first
     * allocation finds it and the guarded one reuses it. */
    size_t p = 0;
    void *base = NULL;
    cudaError_t err = cudaMallocPitch(&base, &p, width, height);
    if (err != cudaSuccess)
        return err;
    cudaFree(base);
    size_t rows = (guard_bytes(p * height) + p - 1) / p;
    NAME_CALLER();
    err = cudaMallocPitch(&base, pitch, width, height + 2 * rows);
    if (err != cudaSuccess)
        return err;
    return guard_block_init(b, base, rows * *pitch, *pitch * height, file, line, ptr);
}

cudaError_t lab_cuda_free(void *ptr, const char *file, int line)
{
    (void)file;
    (void)line;
    guarded_block *b = find_block(ptr);
    if (!b) {
        NAME_CALLER();
        return cudaFree(ptr); /* not ours (or already freed): CUDA says what is wrong */
    }
    /* A kernel still running could still write: finish it before looking. */
    cudaError_t err = cudaDeviceSynchronize();
    if (err == cudaSuccess)
        check_block(b);
    b->live = 0;
    NAME_CALLER();
    return cudaFree(b->base);
}

void guard_name(const void *device_ptr, const char *name)
{
    guarded_block *b = find_block(device_ptr);
    if (b)
        snprintf(b->name, sizeof b->name, "%s", name);
}

void guard_note_copy_out(const void *device_ptr, size_t reach, const char *file, int line)
{
    const unsigned char *p = device_ptr;
    for (int i = 0; i < nblocks; i++) {
        guarded_block *b = &blocks[i];
        if (!b->live || p < b->user || p >= b->user + b->size)
            continue;
        size_t end = (size_t)(p - b->user) + reach;
        if (end > b->copied_out) {
            b->copied_out = end;
            b->copy_file = file;
            b->copy_line = line;
        }
        return;
    }
}

void guard_check_all(void)
{
    for (int i = 0; i < nblocks; i++)
        if (blocks[i].live)
            check_block(&blocks[i]);
}

/* Host guards: a header recording the size sits before the front guard. */
#define HOST_GUARD 4096

typedef struct {
    size_t size;
    char name[56];
} host_header;

void *guard_host_alloc(size_t bytes, const char *name)
{
    unsigned char *raw = malloc(sizeof(host_header) + HOST_GUARD + bytes + HOST_GUARD);
    if (!raw)
        return NULL;
    host_header *h = (host_header *)raw;
    h->size = bytes;
    snprintf(h->name, sizeof h->name, "%s", name);
    memset(raw + sizeof *h, GUARD_BYTE, HOST_GUARD);
    memset(raw + sizeof *h + HOST_GUARD + bytes, GUARD_BYTE, HOST_GUARD);
#ifdef GPULAB_EMU
    emu_note_host_buffer_(raw + sizeof *h + HOST_GUARD, bytes, h->name);
#endif
    return raw + sizeof *h + HOST_GUARD;
}

void guard_host_check(const void *ptr)
{
    const unsigned char *user = ptr;
    const unsigned char *front = user - HOST_GUARD;
    const host_header *h = (const host_header *)(front - sizeof(host_header));
    char what[128];
    snprintf(what, sizeof what, "the host array %s (%zu bytes)", h->name, h->size);
    for (size_t i = 0; i < HOST_GUARD; i++)
        if (front[i] != GUARD_BYTE) {
            report("your code wrote before the start of %s, as far as %zu bytes before it", what,
                   HOST_GUARD - i);
            break;
        }
    for (size_t i = HOST_GUARD; i-- > 0;)
        if (user[h->size + i] != GUARD_BYTE) {
            report("your code wrote past the end of %s, as far as %zu bytes past it: check the size "
                   "you gave cudaMemcpy", what, i + 1);
            break;
        }
}

void guard_host_rows(const void *ptr, size_t pitch, size_t row_bytes, size_t rows)
{
#ifdef GPULAB_EMU
    const host_header *h = (const host_header *)((const unsigned char *)ptr - HOST_GUARD - sizeof(host_header));
    emu_note_host_rows_(ptr, pitch, row_bytes, rows, h->name);
#else
    (void)ptr, (void)pitch, (void)row_bytes, (void)rows;
#endif
}
