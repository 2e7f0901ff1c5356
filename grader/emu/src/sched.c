/* sched.c - fibers and the block scheduler: a block's threads run one
 * after the other up to their next __syncthreads() (a round); its shared
 * arrays; a launch's blocks on one worker. */

#include "rt_int.h"

/* Keeps the launch's first fault (later ones are dropped). */
void keep_first_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
                             const char *fmt, va_list ap)
{
    int expect = 0;
    if (!atomic_compare_exchange_strong(&L->failed, &expect, 1))
        return;
    worker *W = tls.self;
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
void set_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
                      const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    keep_first_fault(L, category, code, pc, where, fmt, ap);
    va_end(ap);
    atomic_store(&L->stop, 1);
}

static void fiber_init(worker *W, fiber *f);

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
        fiber_init(W, n);
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
    worker *W = tls.self;
#ifdef EMU_CHECK
    __sanitizer_finish_switch_fiber(NULL, NULL, NULL);
#endif
    fiber *f;
    /* the launch's, the same for every thread this loop runs; and a fiber
     * stays on its worker's thread, so W is the same after each call */
    void (*const run_thread)(void *) = W->L->run_thread;
    void *const arg = W->arg;
#ifndef EMU_CHECK
    const atomic_int *const stop = &W->L->stop;
#endif
    for (;;) {
        run_thread(arg);
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
    worker *W = tls.self;
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
    worker *W = tls.self;
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
    worker *W = tls.self;
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
 * bounds check (race.c) reports any access in them, before the array as
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
    worker *W = tls.self;
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

#ifndef MADV_GUARD_INSTALL
#define MADV_GUARD_INSTALL 102 /* Linux 6.13 */
#endif

/* The stacks of fibers first to n - 1, in one mapping, each with a guard
 * page below it: an overflow faults there. madvise(MADV_GUARD_INSTALL)
 * makes a guard without cutting the mapping in two; mprotect() cuts it,
 * and a block of 256 threads was 512 mappings, made and torn down again
 * by every process (most of the processor time of a repair candidate's
 * run, a child that runs one small dataset). mprotect() where the kernel
 * has no guard regions. */
static void fiber_stacks(worker *W, int first, int n)
{
    size_t pg = page_size(), each = STACK_SIZE + pg, len = each * (size_t)(n - first);
    char *map = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (map == MAP_FAILED) {
        diag("gpulab-emu: internal: cannot reserve %d fiber stacks: %s", n - first, strerror(errno));
        abort();
    }
    static atomic_int no_guard_regions; /* workers reserve stacks at once */
    for (int i = first; i < n; i++) {
        fiber *f = &W->fibers[i];
        f->map = map + each * (size_t)(i - first);
        f->maplen = each;
        if (!atomic_load(&no_guard_regions) && madvise(f->map, pg, MADV_GUARD_INSTALL) == 0)
            continue;
        atomic_store(&no_guard_regions, 1);
        if (mprotect(f->map, pg, PROT_NONE) != 0) {
            diag("gpulab-emu: internal: cannot guard a fiber stack: %s", strerror(errno));
            abort();
        }
    }
}

/* A fresh fiber's stack: six zero registers, then the return into emu_fiber_entry.
 * Each starts at the top of its stack, so that a thread's frames begin on
 * one page: staggered by up to 2 KiB (to spread the hot frames over the
 * cache's sets), the frames of a repair candidate's kernel (compiled at O0)
 * crossed into a second page in most threads, a third of the faults of a
 * candidate's run; lab 02's 512 x 512 run took 201 ms either way. */
static void fiber_init(worker *W, fiber *f)
{
    char *top = f->map + f->maplen - 64;
    f->ctx.sp = top;
    f->ctx.pc = (void *)emu_fiber_entry;
    (void)W;
}

void emu_note_return_(const char *file, int line)
{
    worker *W = tls.self;
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
    if (W->nstacks < n) {
        fiber_stacks(W, W->nstacks, n);
        W->nstacks = n;
    }
    W->fresh = W->fibers;
    W->end = W->fibers + n;
#ifdef EMU_RACE
    W->rblock = b;
    hooks.tiles_block_begin(L, b);
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
                hooks.tiles_round_end(W);
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
#ifdef EMU_RACE
    hooks.tiles_block_end(W);
#endif
    W->in_block = 0;
    W->cur = NULL;
    for (int i = 0; i < W->nfrees; i++)
        free(W->frees[i]);
    W->nfrees = 0;
}

/* GPULAB_EMU_BLOCKS=edge (race.c's race_mode_init, with the bounds check
 * only): a launch of more than EDGE_ALL_BLOCKS blocks runs only the blocks
 * within EDGE_DEPTH of the grid's border in a dimension of more than one
 * block, and its centre block; the rest are skipped. The grader's bounds
 * series on every dataset (docs/emulator.md): an invalid access is an
 * address before an array's start or past its end, and a kernel's index
 * grows with blockIdx, so its least and greatest addresses are at the
 * grid's corners; what a block does apart from that (a tile's or a halo's
 * test against the size) differs only where its tile, or a halo of less
 * than a tile, meets the data's first or last row or column, within one
 * block of the border; the centre block stands for the blocks that meet
 * no edge. The run's output is then no result (nothing compares it), and
 * what the skipped blocks would have stored is not known (unset.c's
 * unset_all_stored, after the launch). */
#define EDGE_ALL_BLOCKS 64
#define EDGE_DEPTH 2

int launch_runs_edge_only(const struct emu_launch_cfg *c)
{
#ifdef EMU_RACE
    const dim3 g = c->grid;
    return check_modes.edge_blocks && (unsigned long long)g.x * g.y * g.z > EDGE_ALL_BLOCKS;
#else
    (void)c;
    return 0;
#endif
}

static int near_edge(unsigned i, unsigned n)
{
    return n > 1 && (i < EDGE_DEPTH || i >= n - EDGE_DEPTH);
}

static int edge_block(dim3 g, uint3 b)
{
    return near_edge(b.x, g.x) || near_edge(b.y, g.y) || near_edge(b.z, g.z) ||
           (b.x == g.x / 2 && b.y == g.y / 2 && b.z == g.z / 2);
}

void run_launch(worker *W, launch *L)
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
    const int edge_only = launch_runs_edge_only(L->cfg);
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
            if (!edge_only || edge_block(g, emu_blockIdx_))
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

