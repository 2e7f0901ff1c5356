/* unset.c - emucc --race: device memory nothing stored.
 *
 * cudaMalloc does not zero memory: on a GPU a fresh buffer holds whatever
 * was there, often 0, so a kernel that sums into it (P[i] += ...) or a copy
 * back of elements no kernel wrote can pass by luck there and fail here
 * (the emulator fills fresh buffers with 0xFF bytes). The checked build
 * keeps, for each device allocation, which of its bytes anything stored:
 * a copy or cudaMemset from the host side, a kernel's store or atomic. A
 * kernel's read (or reading atomic) of a byte nothing stored, and a copy
 * out of one (back to the host, or to another buffer), is an "unset" line
 * on the standard error, naming the read's line and the cudaMalloc that
 * made the buffer (docs/emulator.md):
 *
 *   gpulab-emu: unset FILE:LINE kernel K block (x,y,z) thread (x,y,z): read of N bytes at byte O of a
 *     M-byte cudaMalloc allocation (made at FILE:LINE2) that nothing stored: ...
 *   gpulab-emu: unset FILE:LINE: cudaMemcpy copies N bytes of a M-byte cudaMalloc allocation (made
 *     at FILE:LINE2), bytes from O on that nothing stored: ...
 *
 * Not a fault: the run goes on, as on a GPU. Each instruction (each copy's
 * line) is reported once a launch (once a process for copies), at most
 * UNSET_REPORTS a launch.
 */

#include "rt_int.h"

#define UNSET_REPORTS 8
static struct {
    uint32_t pcs[UNSET_REPORTS];   /* the kernel's instructions reported this launch */
    int npcs;
    void *copies[UNSET_REPORTS];   /* the copies reported in this process */
    int ncopies;
} unset_seen;

void unset_dataset_begin(void)
{
    unset_seen.ncopies = 0;
}

/* FILE:LINE of an instrumented access's return address, given as its offset
 * from __executable_start (the race build's records), or "-". */
void race_where(uint32_t pc, char *out, size_t n)
{
    out[0] = 0;
    if (pc)
        resolve_return((void *)(__executable_start + pc), out, n);
    if (!out[0])
        snprintf(out, n, "-");
}

static const char unset_why[] =
    "no copy, cudaMemset or kernel wrote them before, and cudaMalloc does not zero memory";

/* A new allocation: nothing stored yet (a byte of the map per byte). */
static void unset_new(alloc *a)
{
    a->stored = calloc(a->size ? a->size : 1, 1);
    a->unstored = a->stored ? a->size : 0;
}

static void unset_forget(alloc *a)
{
    free(a->stored);
    a->stored = NULL;
    a->unstored = 0;
}

/* The first byte of [off, off+n) of a that nothing stored, or n. A
 * kernel's access is a few bytes: looked at in place (a library call per
 * access was a third of the bounds check's time on every dataset). */
static inline size_t unset_first(const alloc *a, size_t off, size_t n)
{
    if (!a->unstored) /* every byte stored (a buffer copied in whole): nothing to look at */
        return n;
    const unsigned char *m = a->stored + off;
    if (n <= 16) {
        for (size_t i = 0; i < n; i++)
            if (!m[i])
                return i;
        return n;
    }
    const unsigned char *z = memchr(m, 0, n);
    return z ? (size_t)(z - m) : n;
}

static inline void unset_store_in(alloc *a, size_t off, size_t n)
{
    if (!a->unstored)
        return;
    unsigned char *m = a->stored + off;
    for (size_t i = 0; i < n; i++)
        if (!m[i]) {
            m[i] = 1;
            a->unstored--;
        }
}

/* The kit's mark of an output element nothing wrote yet (GL_POISON_BITS in
 * grader/runtime/dataset.h): the harness copies it into each output before
 * the launch. A copy in of nothing but that mark stores nothing a kernel may
 * read: a kernel that reads the output before storing it (`P[i] += v` into
 * an output nothing zeroed) reads memory nothing stored, as it would in a
 * buffer fresh from cudaMalloc. */
#define UNSET_OUTPUT_MARK 0x7FDEAD00u

/* The host side stored n bytes at p (a copy in, cudaMemset). */
static void unset_stored(const void *p, size_t n)
{
    if (!n)
        return;
    pthread_mutex_lock(&rt.lock);
    alloc *a = find_alloc(p, n);
    if (a)
        unset_store_in(a, (size_t)((const char *)p - a->base), n);
    pthread_mutex_unlock(&rt.lock);
}

/* The host copied n bytes from host memory src into p: stored, unless they
 * are all the output mark. */
static void unset_copied_in(void *p, const void *src, size_t n)
{
    int mark = n > 0 && n % sizeof(uint32_t) == 0;
    for (size_t k = 0; mark && k < n; k += sizeof(uint32_t)) {
        uint32_t w;
        memcpy(&w, (const char *)src + k, sizeof w);
        mark = w == UNSET_OUTPUT_MARK;
    }
    if (!mark)
        unset_stored(p, n);
}

static void unset_launch_begin(void)
{
    unset_seen.npcs = 0;
}

/* After a launch that ran only its grid's edge (GPULAB_EMU_BLOCKS=edge,
 * sched.c): the skipped blocks' stores are not known, so every byte of
 * every live allocation counts as stored from then on. A read of memory
 * nothing stored is still seen in the blocks that ran and before that
 * launch; a later kernel's read or a copy back of what a skipped block
 * would have written is not reported, wrongly or rightly. */
static void unset_all_stored(void)
{
    pthread_mutex_lock(&rt.lock);
    for (size_t i = 0; i < rt.nallocs; i++) {
        alloc *a = &rt.allocs[i];
        if (a->stored && a->unstored)
            memset(a->stored, 1, a->size);
        a->unstored = 0;
    }
    pthread_mutex_unlock(&rt.lock);
}

/* The allocation's cudaMalloc line as the lines name it, "-" unknown. */
static const char *unset_made_at(const alloc *a, char *out, size_t n)
{
    out[0] = 0;
    if (a->made_by)
        resolve_return(a->made_by, out, n);
    if (!out[0])
        snprintf(out, n, "-");
    return out;
}

/* A kernel's access of n bytes at addr in allocation a: a store marks the
 * bytes; a read of any byte nothing stored is reported (once per
 * instruction a launch). Runs on the one worker of the race build. */
void unset_access(const alloc *ac, const char *addr, size_t n, int reads, int writes, uint32_t pc)
{
    alloc *a = (alloc *)ac;
    size_t off = (size_t)(addr - a->base);
    if (reads) {
        size_t first = unset_first(a, off, n);
        if (first < n) {
            int seen = 0;
            for (int i = 0; i < unset_seen.npcs; i++)
                seen |= unset_seen.pcs[i] == pc;
            if (!seen && unset_seen.npcs < UNSET_REPORTS) {
                unset_seen.pcs[unset_seen.npcs++] = pc;
                char here[600], made[600];
                race_where(pc, here, sizeof here);
                const struct emu_launch_cfg *c = tls.self && tls.self->L ? tls.self->L->cfg : NULL;
                /* a pitched buffer's bytes past each row's pixels are its
                 * padding, which no copy stores: a read there steps its
                 * rows by another stride than the pitch */
                char padding[200] = "";
                size_t at = off + first;
                if (a->pitched && a->pitch > 0 && a->row_bytes < a->pitch && at % a->pitch >= a->row_bytes)
                    snprintf(padding, sizeof padding, " (in the padding of row %zu: its rows are %zu bytes apart, "
                             "%zu bytes of them the row's own)", at / a->pitch, a->pitch, a->row_bytes);
                diag("gpulab-emu: unset %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): read of %zu bytes at "
                     "byte %zu%s of a %zu-byte %s allocation (made at %s) that nothing stored: %s",
                     here, c ? c->kernel : "?", emu_blockIdx_.x, emu_blockIdx_.y, emu_blockIdx_.z,
                     emu_threadIdx_.x, emu_threadIdx_.y, emu_threadIdx_.z, n, at, padding, a->size,
                     alloc_call(a), unset_made_at(a, made, sizeof made), unset_why);
            }
        }
    }
    if (writes && a->filled_by && !a->kernel_store)
        a->kernel_store = pc; /* a kernel writing a buffer a copy filled: its input? */
    if (writes)
        unset_store_in(a, off, n);
}

/* A copy of the program's (call, at caller) reads rows of width bytes at
 * pitch from src, device memory: a byte in them that nothing stored is
 * reported (once per copy's line a process). */
static void unset_copy_read(void *caller, const char *call, const void *src, size_t pitch, size_t width,
                            size_t rows)
{
    if (!width || !rows)
        return;
    pthread_mutex_lock(&rt.lock);
    const alloc *a = find_alloc(src, pitch * (rows - 1) + width);
    size_t off = a ? (size_t)((const char *)src - a->base) : 0, first = 0;
    int found = 0;
    for (size_t r = 0; a && r < rows && !found; r++) {
        size_t k = unset_first(a, off + r * pitch, width);
        if (k < width) {
            first = off + r * pitch + k;
            found = 1;
        }
    }
    /* an output element the kernel never wrote, still holding the mark,
     * copied back: the compare stage says so, no finding */
    if (found) {
        uint32_t w = 0;
        size_t at = first - first % sizeof w;
        if (at + sizeof w <= a->size)
            memcpy(&w, a->base + at, sizeof w);
        found = w != UNSET_OUTPUT_MARK;
    }
    alloc copy = found ? *a : (alloc){ 0 };
    /* where the kernel's stores went instead: a buffer a copy filled (an
     * input) that a kernel stored into, the first such */
    alloc input = { 0 };
    for (size_t i = 0; found && i < rt.nallocs && !input.base; i++)
        if (&rt.allocs[i] != a && rt.allocs[i].kernel_store && rt.allocs[i].filled_by)
            input = rt.allocs[i];
    pthread_mutex_unlock(&rt.lock);
    if (!found)
        return;
    for (int i = 0; i < unset_seen.ncopies; i++)
        if (unset_seen.copies[i] == caller)
            return;
    if (unset_seen.ncopies == UNSET_REPORTS)
        return;
    unset_seen.copies[unset_seen.ncopies++] = caller;
    char at[512], made[600], instead[1800] = "";
    if (input.base) {
        char store[600], imade[600], filled[512];
        race_where(input.kernel_store, store, sizeof store);
        snprintf(instead, sizeof instead, "; a kernel stored into another buffer instead, at %s, the %zu-byte %s "
                 "allocation (made at %s) that the copy at %s filled",
                 store, input.size, alloc_call(&input), unset_made_at(&input, imade, sizeof imade),
                 caller_line(input.filled_by, filled, sizeof filled));
    }
    diag("gpulab-emu: unset %s: %s copies %zu bytes of a %zu-byte %s allocation (made at %s), bytes from %zu "
         "on that nothing stored: %s%s",
         caller_line(caller, at, sizeof at), call, pitch * (rows - 1) + width, copy.size, alloc_call(&copy),
         unset_made_at(&copy, made, sizeof made), first, unset_why, instead);
}

/* ---- __constant__ arrays nothing stored ------------------------------------------------ *
 * The rewriter declares each __constant__ array to the runtime before main()
 * (emu_constant_declared_, emu_device.h): its bytes start unstored, unless
 * the declaration initialises it; a cudaMemcpyToSymbol stores the bytes it
 * copies (a partial copy leaves the rest unstored). A kernel's read of a
 * byte nothing stored is an "unset" line naming the array, its declaration
 * and the launch; a copy into an array after a launch read it unstored is
 * an "unset-late" line naming that copy, the launch and the read:
 *
 *   gpulab-emu: unset FILE:LINE kernel K block (x,y,z) thread (x,y,z): read of N bytes at byte O of the
 *     M-byte __constant__ array Mc (declared at FILE:L2) that nothing stored: no cudaMemcpyToSymbol stored
 *     any of its bytes before the launch at FILE:L3
 *   gpulab-emu: unset-late FILE:LINE: cudaMemcpyToSymbol stores Mc (declared at FILE:L2) after the launch at
 *     FILE:L3 read it at FILE:L4
 *
 * On a GPU a __constant__ array is zero-initialised, but a kernel that
 * reads one nothing stored used a mask it was never given either way. */
#define UNSET_CONSTANTS 64
static struct {
    struct {
        const char *base, *name, *file;
        size_t size, unstored;
        int line;
        unsigned char *stored; /* a byte per byte, 1 stored */
        int read_unset;        /* a kernel read bytes of it nothing stored */
        char read_at[512], launch_at[512];
    } list[UNSET_CONSTANTS];
    int n;
    size_t unstored; /* over all of them: 0, and a read returns at once */
} uc;

void emu_constant_declared_(const void *symbol, size_t size, const char *name, const char *file, int line,
                            int initialised)
{
    for (int i = 0; i < uc.n; i++)
        if (uc.list[i].base == symbol)
            return;
    if (uc.n == UNSET_CONSTANTS || !size)
        return;
    unsigned char *stored = calloc(size, 1);
    if (!stored)
        return;
    if (initialised)
        memset(stored, 1, size);
    uc.list[uc.n].base = symbol;
    uc.list[uc.n].name = name;
    uc.list[uc.n].file = file;
    uc.list[uc.n].size = size;
    uc.list[uc.n].line = line;
    uc.list[uc.n].stored = stored;
    uc.list[uc.n].unstored = initialised ? 0 : size;
    uc.unstored += uc.list[uc.n].unstored;
    uc.n++;
}

static int unset_constant_at(const char *a)
{
    for (int i = 0; i < uc.n; i++)
        if (a >= uc.list[i].base && a < uc.list[i].base + uc.list[i].size)
            return i;
    return -1;
}

/* A kernel's read of n bytes at a, in the __constant__ section (race.c,
 * race_space): reported when nothing stored one of them. */
void unset_constant_read(const char *a, size_t n, uint32_t pc)
{
    if (!uc.unstored)
        return;
    int i = unset_constant_at(a);
    if (i < 0)
        return;
    size_t off = (size_t)(a - uc.list[i].base);
    if (n > uc.list[i].size - off)
        n = uc.list[i].size - off; /* the bounds check names what lies past it */
    size_t first = 0;
    while (first < n && uc.list[i].stored[off + first])
        first++;
    if (first == n)
        return;
    for (int k = 0; k < unset_seen.npcs; k++)
        if (unset_seen.pcs[k] == pc)
            return;
    if (unset_seen.npcs == UNSET_REPORTS)
        return;
    unset_seen.pcs[unset_seen.npcs++] = pc;
    const struct emu_launch_cfg *c = tls.self && tls.self->L ? tls.self->L->cfg : NULL;
    char here[512], launch[512] = "-", why[768];
    race_where(pc, here, sizeof here);
    if (c && c->file)
        snprintf(launch, sizeof launch, "%s:%d", c->file, c->line);
    size_t stored = uc.list[i].size - uc.list[i].unstored;
    if (stored)
        snprintf(why, sizeof why, "the cudaMemcpyToSymbol calls before the launch at %s stored %zu of its %zu bytes, "
                 "not these", launch, stored, uc.list[i].size);
    else
        snprintf(why, sizeof why, "no cudaMemcpyToSymbol stored any of its bytes before the launch at %s", launch);
    if (!uc.list[i].read_unset) {
        uc.list[i].read_unset = 1;
        snprintf(uc.list[i].read_at, sizeof uc.list[i].read_at, "%s", here);
        snprintf(uc.list[i].launch_at, sizeof uc.list[i].launch_at, "%s", launch);
    }
    diag("gpulab-emu: unset %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): read of %zu bytes at byte %zu of the "
         "%zu-byte __constant__ array %s (declared at %s:%d) that nothing stored: %s",
         here, c ? c->kernel : "?", emu_blockIdx_.x, emu_blockIdx_.y, emu_blockIdx_.z, emu_threadIdx_.x,
         emu_threadIdx_.y, emu_threadIdx_.z, n - first, off + first, uc.list[i].size, uc.list[i].name,
         uc.list[i].file, uc.list[i].line, why);
}

/* A cudaMemcpyToSymbol (caller: its return address) stored count bytes at
 * offset of symbol. */
static void unset_constant_copied(void *caller, const void *symbol, size_t offset, size_t count)
{
    int i = unset_constant_at(symbol);
    if (i < 0 || uc.list[i].base != symbol || offset > uc.list[i].size || count > uc.list[i].size - offset)
        return;
    for (size_t k = offset; k < offset + count; k++)
        if (!uc.list[i].stored[k]) {
            uc.list[i].stored[k] = 1;
            uc.list[i].unstored--;
            uc.unstored--;
        }
    if (uc.list[i].read_unset == 1) {
        uc.list[i].read_unset = 2; /* told once */
        char at[512];
        diag("gpulab-emu: unset-late %s: cudaMemcpyToSymbol stores %s (declared at %s:%d) after the launch at %s "
             "read it at %s",
             caller_line(caller, at, sizeof at), uc.list[i].name, uc.list[i].file, uc.list[i].line,
             uc.list[i].launch_at, uc.list[i].read_at);
    }
}

/* At exit, the device allocations no cudaFree released: one "leak" line
 * for each cudaMalloc line that made them (how many, how many bytes), a
 * note for the grader, never a fault: the process ends and the driver
 * takes the memory back, but a program that runs the work again (a
 * library, a loop over inputs) runs out of device memory (docs/emulator.md).
 * None after a kernel's fault, which makes every later cudaFree fail, nor
 * after any refused call, whose check may have ended the program early:
 *
 *   gpulab-emu: leak FILE:LINE: 2 cudaMalloc allocations (8192 bytes) made at this line were never freed
 */
__attribute__((destructor)) static void unset_leaks_at_exit(void)
{
    if (rt.sticky != cudaSuccess)
        return; /* after a kernel's fault every cudaFree fails: nothing could be freed */
    if (rt.refused)
        return; /* after a refused call the program's own check (CUDA_CHECK) may have ended it before its
                   cudaFree calls: a leak would be the error's, not a missing cudaFree */
    pthread_mutex_lock(&rt.lock);
    size_t n = rt.nallocs;
    alloc *live = n ? malloc(n * sizeof *live) : NULL;
    if (live)
        memcpy(live, rt.allocs, n * sizeof *live);
    pthread_mutex_unlock(&rt.lock);
    if (!live)
        return;
    for (size_t i = 0; i < n; i++) {
        if (!live[i].size)
            continue; /* told already, with an earlier one of its line */
        size_t count = 1, bytes = live[i].size;
        for (size_t j = i + 1; j < n; j++)
            if (live[j].size && live[j].made_by == live[i].made_by) {
                count++;
                bytes += live[j].size;
                live[j].size = 0;
            }
        char made[600];
        unset_made_at(&live[i], made, sizeof made);
        diag("gpulab-emu: leak %s: %zu %s allocation%s (%zu bytes) made at this line %s never freed", made, count,
             alloc_call(&live[i]), count == 1 ? "" : "s", bytes, count == 1 ? "was" : "were");
    }
    free(live);
}

/* This part's hooks (rt_int.h), set before main(). */
__attribute__((constructor)) static void unset_hooks(void)
{
    hooks.unset_new = unset_new;
    hooks.unset_forget = unset_forget;
    hooks.unset_stored = unset_stored;
    hooks.unset_copied_in = unset_copied_in;
    hooks.unset_copy_read = unset_copy_read;
    hooks.unset_launch_begin = unset_launch_begin;
    hooks.unset_all_stored = unset_all_stored;
    hooks.unset_constant_copied = unset_constant_copied;
}
