/* alloc.c - device allocations: cudaMalloc, cudaMallocPitch, cudaFree
 * and the host allocations, fresh memory's fill, the freed allocations
 * kept to name a use after cudaFree, and whether a pointer is device
 * memory. */

#include "rt_int.h"

size_t page_size(void)
{
    if (!rt.page)
        rt.page = (size_t)sysconf(_SC_PAGESIZE);
    return rt.page;
}

void *alloc_aligned(size_t align, size_t size)
{
    void *p = NULL;
    if (posix_memalign(&p, align, size ? size : 1) != 0)
        abort();
    return p;
}

static void seal_pages(const alloc *a, int prot);

#ifdef EMU_CHECK
/* --check: room for `size` bytes from AddressSanitizer's heap, with a
 * poisoned margin of our own on each side. Every access within the margin
 * is reported (AddressSanitizer's own redzones can be as small as 16 bytes,
 * and past them lies other memory), and when --check runs a launch past its
 * faults (check.c) the stray writes land in the margin, harming nothing.
 * *block is what to free; *base the caller's bytes. Returns 0, or -1 when
 * out of memory. */
int margined_block(size_t size, size_t align, size_t margin, char **block, size_t *len, char **base)
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
 * bounds check (race.c) can name a use after cudaFree; past FREED_KEPT
 * of them the oldest is unmapped (an access there then faults as an
 * address no allocation holds). cudaFree never runs while a launch does. */

static void keep_freed(const alloc *a)
{
    alloc *slot = &rt.freed[rt.nfreed++ % FREED_KEPT];
    if (slot->map)
        munmap(slot->map, slot->maplen);
    *slot = *a;
    slot->pages = NULL;
    /* open for good: a kernel's use of it is the bounds check's to name */
    seal_pages(a, PROT_READ | PROT_WRITE);
    madvise(a->base, round_up(a->size, page_size()), MADV_DONTNEED);
}
#endif

/* The last few freed allocations, in every build, so that a copy or
 * cudaMemset given a freed buffer is named a use after cudaFree, with the
 * cudaFree's line (check_side), not a pointer that is not device memory. */

static void remember_freed(const alloc *a)
{
    alloc *slot = &rt.gone[rt.ngone++ % GONE_KEPT];
    *slot = (alloc){ 0 };
    slot->base = a->base;
    slot->size = a->size;
    slot->pitched = a->pitched;
    slot->made_by = a->made_by;
    slot->freed_by = a->freed_by;
}

/* The newest freed allocation that held p, or NULL. Caller holds rt.lock. */
const alloc *freed_at(const void *p)
{
    const char *c = (const char *)p;
    for (size_t k = 0; k < GONE_KEPT && k < rt.ngone; k++) {
        const alloc *a = &rt.gone[(rt.ngone - 1 - k) % GONE_KEPT];
        if (c >= a->base && c < a->base + a->size)
            return a;
    }
    return NULL;
}

/* The allocation that holds [p, p+n), or NULL. Caller holds rt.lock. */
alloc *find_alloc(const void *p, size_t n)
{
    const char *c = (const char *)p;
    for (size_t i = 0; i < rt.nallocs; i++) {
        alloc *a = &rt.allocs[i];
        if (c >= a->base && c < a->base + a->size + (a->size == 0)) {
            if (n <= (size_t)(a->base + a->size - c))
                return a;
            return NULL;
        }
    }
    return NULL;
}

/* The call that made a device allocation, as a finding names it. */
const char *alloc_call(const alloc *a)
{
    return a->pitched ? "cudaMallocPitch" : "cudaMalloc";
}

#ifdef EMU_CHECKED
/* What a finding calls the memory of a device allocation. */
const char *alloc_kind(const alloc *a)
{
    return a->pitched ? "global memory (cudaMallocPitch)" : "global memory (cudaMalloc)";
}
#endif

/* ---- device memory that host code cannot touch (the graded build) ----------------
 *
 * On a GPU, host code that dereferences a device pointer faults: a plain
 * memcpy(P, d_P, bytes) for the copy back, or d_P[i] read in a host loop,
 * names memory on another chip. The emulator's device memory lies in the
 * process's own address space, where such code would work and earn the
 * points a GPU denies. So the graded build keeps every allocation's pages
 * PROT_NONE while host code runs and opens them only inside the calls that
 * move device memory (the copies, cudaMemset) and while a launch's blocks
 * run: a host access faults, as on a GPU, and faults.c names it. The race
 * build seals its allocations too, margins and all, so that the checkers
 * name it where a GPU's graded run only crashed; its freed allocations,
 * kept for the bounds check, stay open (keep_freed). The --check build's
 * allocations share the heap's pages and are left open. */

static void seal_pages(const alloc *a, int prot)
{
    if (a->pages && mprotect(a->pages, a->npages_bytes, prot) != 0) {
        diag("gpulab-emu: internal: mprotect of a device allocation's pages failed: %s", strerror(errno));
        abort();
    }
}

/* Opens (first caller) every live allocation's pages; calls nest. */
void device_memory_open(void)
{
    pthread_mutex_lock(&rt.lock);
    if (rt.device_open++ == 0)
        for (size_t i = 0; i < rt.nallocs; i++)
            seal_pages(&rt.allocs[i], PROT_READ | PROT_WRITE);
    pthread_mutex_unlock(&rt.lock);
}

void device_memory_close(void)
{
    pthread_mutex_lock(&rt.lock);
    if (rt.device_open > 0 && --rt.device_open == 0)
        for (size_t i = 0; i < rt.nallocs; i++)
            seal_pages(&rt.allocs[i], PROT_NONE);
    pthread_mutex_unlock(&rt.lock);
}

/* The live allocation whose sealed pages hold p (host code touched it), or
 * NULL. Called from the fault handler: reads the list without its lock,
 * which the faulting host thread cannot be holding while it runs its own
 * code. */
const alloc *sealed_alloc_at(const void *p)
{
    const char *c = (const char *)p;
    if (rt.device_open)
        return NULL;
    for (size_t i = 0; i < rt.nallocs; i++) {
        const alloc *a = &rt.allocs[i];
        if (a->pages && c >= a->pages && c < a->pages + a->npages_bytes)
            return a;
    }
    return NULL;
}

int is_device_ptr(const void *p)
{
    const char *c = (const char *)p;
    for (size_t i = 0; i < rt.nallocs; i++)
        if (c >= rt.allocs[i].base && c < rt.allocs[i].base + rt.allocs[i].size)
            return 1;
    return 0;
}

/* Page-locked host memory from cudaMallocHost, which a kernel may read
 * (unified addressing maps it for the device). Caller holds rt.lock. */
void note_pinned(void *p, size_t size)
{
    if (rt.npinned == rt.cappinned) {
        size_t cap = rt.cappinned ? 2 * rt.cappinned : 16;
        struct pinned_block *more = realloc(rt.pinned, cap * sizeof *more);
        if (!more)
            return; /* unrecorded: a kernel given it is refused, as without unified addressing */
        rt.pinned = more;
        rt.cappinned = cap;
    }
    rt.pinned[rt.npinned].base = p;
    rt.pinned[rt.npinned++].size = size;
}

int forget_pinned(const void *p)
{
    for (size_t i = 0; i < rt.npinned; i++)
        if (rt.pinned[i].base == p) {
            rt.pinned[i] = rt.pinned[--rt.npinned];
            return 1;
        }
    return 0;
}

/* Whether a kernel may be given pointer p: NULL if so (NULL itself, device
 * memory, a freed allocation, whose use the accesses name, or page-locked
 * host memory), else why not. A pointer a little outside its allocation
 * (one past the end, or before it for 1-based indexing) is the access's to
 * judge, not the launch's. Caller holds rt.lock. */
const char *kernel_pointer_problem(const void *p)
{
    const char *c = (const char *)p;
    if (!p || freed_at(p))
        return NULL;
    for (size_t i = 0; i < rt.nallocs; i++)
        if (c >= rt.allocs[i].map && c <= rt.allocs[i].map + rt.allocs[i].maplen)
            return NULL;
    for (size_t i = 0; i < rt.npinned; i++)
        if (c >= rt.pinned[i].base && c <= rt.pinned[i].base + rt.pinned[i].size)
            return NULL;
    return "is host memory (not from cudaMalloc): a kernel runs on the device and can reach only device memory, "
           "so pass it the device copy (the pointer cudaMalloc gave, which cudaMemcpy filled)";
}


/* What fresh device memory holds: 0xFF bytes (NaN as floats, -1 as
 * ints), or the 32-bit word GPULAB_EMU_FILL gives in hexadecimal, repeated
 * from each allocation's start. The grader fills it two ways to learn
 * whether a read of memory nothing stored reaches the output (sanitize.c,
 * sanitize_unset_reaches_output). Read before main() and taken out of the
 * environment, like GPULAB_EMU_CHECKS. */
__attribute__((constructor)) static void fill_init(void)
{
    const char *s = getenv("GPULAB_EMU_FILL");
    char *end = NULL;
    if (s && *s) {
        unsigned long v = strtoul(s, &end, 16);
        if (end && !*end)
            rt.fill = (uint32_t)v, rt.fill_set = 1;
    }
    unsetenv("GPULAB_EMU_FILL");
}

static void fill_fresh(char *p, size_t n)
{
    if (!rt.fill_set || rt.fill == 0xFFFFFFFFu) {
        memset(p, 0xFF, n);
        return;
    }
    size_t i = 0;
    for (; i + 4 <= n; i += 4)
        memcpy(p + i, &rt.fill, 4);
    memcpy(p + i, &rt.fill, n - i);
}

/* made_by: the return address into the program's cudaMalloc call. */
cudaError_t device_alloc(void **out, size_t size, int pitched, void *made_by)
{
    if (!out) {
        /* `(void **)d_P` where `(void **)&d_P` belongs: the pointer's
         * value (NULL before the call) instead of its address */
        diag("gpulab-emu: invalid-malloc -: %s(NULL, %zu bytes): its first argument is NULL, where it takes the "
             "address of the pointer it sets: pass `&` and the pointer's name, not the pointer (cudaErrorInvalidValue)",
             pitched ? "cudaMallocPitch" : "cudaMalloc", size);
        return set_error(cudaErrorInvalidValue);
    }
    RETURN_IF_STICKY();
    if (size == 0) {
        *out = NULL;
        return cudaSuccess;
    }
    pthread_mutex_lock(&rt.lock);
    int too_big = size > EMU_DEVICE_MEMORY - rt.allocated;
    if (!too_big)
        rt.allocated += size;
    pthread_mutex_unlock(&rt.lock);
    if (too_big)
        return set_error(cudaErrorMemoryAllocation);
#define ALLOC_FAILED()                                          \
    do {                                                        \
        pthread_mutex_lock(&rt.lock);                            \
        rt.allocated -= size;                                    \
        pthread_mutex_unlock(&rt.lock);                          \
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
     * that a stray access harms nothing: the bounds check (race.c) reports
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
    a.pages = a.map + pg; /* the margins too: host code may not touch them either */
    a.npages_bytes = a.maplen - 2 * pg;
#else
    /* The end of the allocation touches a PROT_NONE page, so that reading or
     * writing just past it faults and is reported as out-of-bounds. Past
     * that page lies the next mapping, another allocation perhaps, which a
     * read further out gets silently, as on a GPU. A run of one of the
     * repair search's candidate edits (gpulab_emu_mutant > 0) has guards
     * of 256 MiB (address space, never memory) on both sides: an edit that
     * makes the output right only by reading past an array, whose extra
     * terms happen to be multiplied by zeros, faults there and is not
     * taken for a repair. Only the data is ever made accessible. */
    size_t pg = page_size();
    size_t size16 = round_up(size, 16);
    size_t data = round_up(size16, pg);
    size_t guard = gpulab_emu_mutant > 0 ? (size_t)256 << 20 : pg;
    a.maplen = data + 2 * guard;
    a.map = mmap(NULL, a.maplen, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (a.map == MAP_FAILED)
        ALLOC_FAILED();
    if (mprotect(a.map + guard, data, PROT_READ | PROT_WRITE) != 0) {
        munmap(a.map, a.maplen);
        ALLOC_FAILED();
    }
    a.base = a.map + guard + (data - size16);
    a.pages = a.map + guard;
    a.npages_bytes = data;
#endif
    /* Device memory is uninitialised: poison it (0xFF bytes: NaN as floats;
     * GPULAB_EMU_FILL another word). */
    fill_fresh(a.base, size);
    if (a.pages) {
        seal_pages(&a, rt.device_open ? PROT_READ | PROT_WRITE : PROT_NONE);
        install_fault_handlers(); /* a host access to it is named (faults.c) */
    }
#ifdef EMU_RACE
    hooks.unset_new(&a);
#endif
    pthread_mutex_lock(&rt.lock);
    if (rt.nallocs == rt.capallocs) {
        size_t cap = rt.capallocs ? rt.capallocs * 2 : 64;
        alloc *n = realloc(rt.allocs, cap * sizeof *n);
        if (!n) {
            pthread_mutex_unlock(&rt.lock);
            release_alloc(&a); /* gives its bytes back to rt.allocated */
            return set_error(cudaErrorMemoryAllocation);
        }
        rt.allocs = n;
        rt.capallocs = cap;
    }
    rt.allocs[rt.nallocs++] = a;
    pthread_mutex_unlock(&rt.lock);
    *out = a.base;
    return cudaSuccess;
}
#undef ALLOC_FAILED

void release_alloc(alloc *a)
{
    pthread_mutex_lock(&rt.lock);
    rt.allocated -= a->size;
    remember_freed(a);
    pthread_mutex_unlock(&rt.lock);
#ifdef EMU_RACE
    hooks.unset_forget(a);
#endif
#ifdef EMU_CHECK
    free(a->map);
#elif defined(EMU_RACE)
    keep_freed(a);
#else
    munmap(a->map, a->maplen);
#endif
}

const char *kind_name(int k)
{
    static const char *names[] = { "cudaMemcpyHostToHost", "cudaMemcpyHostToDevice",
                                   "cudaMemcpyDeviceToHost", "cudaMemcpyDeviceToDevice",
                                   "cudaMemcpyDefault" };
    return k >= 0 && k <= 4 ? names[k] : "an invalid cudaMemcpyKind";
}

/* Checks one side of a copy: the n bytes at p are (want_dev) device memory, or
 * host memory. Returns NULL if fine, else why not. Caller holds rt.lock. */
const char *check_side(const void *p, size_t n, int want_dev)
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

