/* race.c - emucc --race: the kit's own race detector and bounds check.
 *
 * Student code is compiled with -fsanitize=thread for its instrumentation
 * alone: every load and store that may touch shared data calls
 * __tsan_readN / __tsan_writeN with its address. The program is linked with
 * the functions below instead of GCC's ThreadSanitizer runtime.
 *
 * Why not ThreadSanitizer's own runtime: since LLVM 14 (clang 14, and
 * gcc 13's libtsan) it keeps the clocks of at most 256 threads and lets a
 * further thread take over a slot, ordered after everything the slot's
 * previous owner did. A block of 16 x 16 threads is 256 fibers, so every
 * race of a tiled matmul without its second barrier went unseen there (seen
 * with gcc 13 on a GPU machine, and with clang 14 on this kit's CI machine,
 * which saw the same race with 8 x 8 blocks). The emulator knows more than a
 * general detector needs to: two accesses of one launch are unordered
 * exactly when they are made by different blocks, or by different threads of
 * one block in the same round (between the same two barriers). So each
 * 4-byte granule of shared memory and of every device allocation has a
 * shadow cell with the last write and the last two reads (block, thread,
 * round, instruction, which bytes); an access that conflicts with one of
 * them (different bytes never do; one of the two must be a write) is a race,
 * found whatever order the schedule ran them in. Cells are stamped with the
 * block (shared memory) or the launch (device memory) they belong to, so a
 * new block or launch starts clean without clearing anything.
 *
 * The same calls check bounds, so that one build does both checks (a
 * second build, AddressSanitizer's, cost a compile and a run of each
 * dataset more). Device allocations and shared arrays lie inside mapped
 * margins of the runtime's own (device_alloc, shm_place): an access that
 * touches a margin is out of bounds, named by the array it is next to and
 * how far (fault_list.c), and is not recorded as an access. Freed device
 * memory stays mapped (keep_freed): an access there is a use after
 * cudaFree. A __constant__ array that cudaMemcpyToSymbol filled is checked
 * as far as the padding after it reaches (the rewriter gives each one a
 * 256-byte aligned place in a section of their own: EMU_CONSTANT_ARRAY).
 * Atomics are checked too. Not checked: local arrays (the thread's stack),
 * __device__ variables, host memory other than the buffers the program's
 * copies named (rt.host_seen) and inline assembly; emucc --check
 * (AddressSanitizer) sees local arrays and globals.
 *
 * The race build runs one worker thread (worker_count), so the shadow needs
 * no locks. Atomics (atomicAdd and the like) are performed and not recorded:
 * they are the way to share an element. memcpy, memset and memmove in the
 * student's code are watched too (emu_race_memcpy_ and its kin, below). Not
 * watched: __device__ variables, __constant__ memory (read-only in kernels)
 * and inline assembly.
 */

#include "rt_int.h"


typedef struct race_chunk {
    uintptr_t key;
    race_cell *cells;
} race_chunk;

/* The chunks of the last few keys, direct-mapped (recent): a kernel's
 * accesses go back and forth between a few arrays (two inputs, an output,
 * the block's shared tiles), each its own chunks. A chunk's cells never
 * move. */
#define RACE_RECENT 16
static struct {
    race_chunk *chunks; /* a hash table of cap slots, used of them taken */
    size_t cap, used;
    uint32_t launch;    /* the running launch's serial: device memory's cells' tag */
    int off;            /* GPULAB_EMU_CHECKS=bounds or bounds-guards (race_mode_init) */
    struct {
        uintptr_t key;
        race_cell *cells;
    } recent[RACE_RECENT];
} shadow;

/* GPULAB_EMU_CHECKS=bounds: the bounds check and device memory nothing
 * stored (unset.c) on every access, the race check's shadow, the counts
 * and the tile snapshots not: the grader's run of every dataset in one
 * series, where the full checks run on the few datasets it chooses (a
 * third of the cost of the full run: docs/performance.md). Read before
 * main() and taken out of the environment, so that the program's own
 * getenv() sees the environment of its graded run. */
struct emu_check_modes check_modes;

__attribute__((constructor)) static void race_mode_init(void)
{
    const char *s = getenv("GPULAB_EMU_CHECKS");
    shadow.off = s && (strcmp(s, "bounds") == 0 || strcmp(s, "bounds-guards") == 0);
    /* races: the whole check less the kernels' tests, for the grader's
     * race series (a file the full checks found racing, on every other
     * dataset that passed) */
    int races = s && strcmp(s, "races") == 0;
    check_modes.tests_off = s && (strcmp(s, "bounds") == 0 || races);
    check_modes.full = !shadow.off && !check_modes.tests_off;
    /* GPULAB_EMU_BLOCKS=edge: with the bounds check, whose findings are
     * each one access's, and the race series, which asks only whether the
     * blocks race (a skipped block's accesses are missing from the shadow:
     * fewer races found, never one that is not there); the counts and the
     * tile snapshots of a full check need every block (sched.c, edge_block) */
    const char *b = getenv("GPULAB_EMU_BLOCKS");
    check_modes.edge_blocks = (shadow.off || races) && b && strcmp(b, "edge") == 0;
    unsetenv("GPULAB_EMU_CHECKS");
    unsetenv("GPULAB_EMU_BLOCKS");
}

/* A race, as the launch's end prints it. */
typedef struct race_report {
    race_access me, other;
    unsigned size;
    int shared;
} race_report;

#define RACE_REPORTS 32
static struct {
    race_report list[RACE_REPORTS];
    int n, printed;
} reports;

/* The harness calls this before each dataset of a series (harness_main.c:
 * weak, so a build without the race check has none): each dataset's part
 * of the series names its own races and unset copies, as its run alone
 * would, instead of only those the datasets before it had not. */
EMU_PUBLIC void gpulab_emu_dataset_begin(void);
EMU_PUBLIC void gpulab_emu_dataset_begin(void)
{
    reports.n = reports.printed = 0;
    unset_dataset_begin();
}

static void race_oom(void)
{
    diag("gpulab-emu: internal: the race checker is out of memory for its shadow");
    abort();
}

static size_t race_slot(uintptr_t key, size_t cap)
{
    return (size_t)((key * 0x9E3779B97F4A7C15ull) >> 20) & (cap - 1);
}

race_cell *race_cells(uintptr_t key)
{
    unsigned r = (unsigned)(key ^ (key >> 8)) & (RACE_RECENT - 1);
    if (shadow.recent[r].cells && shadow.recent[r].key == key)
        return shadow.recent[r].cells;
    if (shadow.cap && shadow.used * 2 < shadow.cap) {
        for (size_t i = race_slot(key, shadow.cap);; i = (i + 1) & (shadow.cap - 1)) {
            race_chunk *c = &shadow.chunks[i];
            if (c->cells && c->key == key) {
                shadow.recent[r].key = key;
                return shadow.recent[r].cells = c->cells;
            }
            if (!c->cells)
                break;
        }
    } else {
        /* grow (or start), then look again */
        size_t cap = shadow.cap ? shadow.cap * 2 : 256;
        race_chunk *n = calloc(cap, sizeof *n);
        if (!n)
            race_oom();
        for (size_t i = 0; i < shadow.cap; i++) {
            if (!shadow.chunks[i].cells)
                continue;
            size_t j = race_slot(shadow.chunks[i].key, cap);
            while (n[j].cells)
                j = (j + 1) & (cap - 1);
            n[j] = shadow.chunks[i];
        }
        free(shadow.chunks);
        shadow.chunks = n;
        shadow.cap = cap;
        return race_cells(key);
    }
    size_t i = race_slot(key, shadow.cap);
    while (shadow.chunks[i].cells)
        i = (i + 1) & (shadow.cap - 1);
    race_cell *cells = calloc(RACE_CHUNK_CELLS, sizeof *cells);
    if (!cells)
        race_oom();
    shadow.chunks[i].key = key;
    shadow.chunks[i].cells = cells;
    shadow.used++;
    shadow.recent[r].key = key;
    return shadow.recent[r].cells = cells;
}

/* The __constant__ arrays (emu_constant's section, EMU_CONSTANT_ARRAY) whose
 * size the program's cudaMemcpyToSymbol calls told: each starts on a
 * 256-byte boundary and nothing but padding follows it up to the next. */
extern __attribute__((weak)) const char __start_emu_constant[], __stop_emu_constant[];
/* The section's last 256 bytes, after every array of the student's objects
 * (the runtime is linked last): the padding after the last array is inside
 * the section too, never another variable. */
__attribute__((section("emu_constant"), aligned(256), used)) static char g_race_constants_end[256];
#define RACE_CONSTANTS 64
static struct {
    struct { const char *base; size_t size; char name[64]; } list[RACE_CONSTANTS];
    int n;
} constants;

static void race_constant_copied(const void *symbol, const char *name, size_t size)
{
    const char *a = symbol;
    if (!__start_emu_constant || a < __start_emu_constant || a >= __stop_emu_constant)
        return;
    for (int i = 0; i < constants.n; i++)
        if (constants.list[i].base == a)
            return;
    if (constants.n == RACE_CONSTANTS)
        return;
    constants.list[constants.n].base = a;
    constants.list[constants.n].size = size;
    snprintf(constants.list[constants.n].name, sizeof constants.list[0].name, "%s", name);
    constants.n++;
}

/* An access of n bytes at a outside every array, next to the n-byte array
 * at base (NULL: none), of kind: the launch's out-of-bounds fault. Without
 * --list-faults only the launch's first counts, and the rest are not even
 * described. */
static void bounds_fault(worker *W, const char *a, size_t n, int write, const void *pc, const char *base,
                         size_t size, const char *kind)
{
    if (!g_list_faults && atomic_load_explicit(&W->L->failed, memory_order_relaxed))
        return;
    char msg[512], where[512];
    const char *what = write ? "write" : "read";
    if (base)
        describe_near(msg, sizeof msg, what, n, a, base, size, kind);
    else
        snprintf(msg, sizeof msg, "%s of %zu bytes %s", what, n, kind);
    /* pc: the instrumentation call's return address; a write's own line
     * where the race build marked it: at -O1 the stores of both branches of
     * `if (c) a[i] = x; else a[i] = 0;` can be one instruction, named after
     * the first branch's line */
    resolve_return((void *)pc, where, sizeof where);
    char *line_at = strrchr(where, ':');
    if (write && W->access_line > 0 && line_at && line_at[1] >= '0' && line_at[1] <= '9')
        snprintf(line_at + 1, sizeof where - (size_t)(line_at + 1 - where), "%d", W->access_line);
    /* the test that let this thread through to the access, when one did */
    const char *colon = strrchr(where, ':');
    size_t len = strlen(msg);
    if (colon && len < sizeof msg)
        hooks.tiles_guard_words(W, atoi(colon + 1), msg + len, sizeof msg - len);
    report_invalid_access(W, where, msg);
}

/* The device allocations the running launch's accesses last found
 * (race_space), tried first: a kernel's accesses go back and forth between
 * a few buffers, and this is most of the bounds check's cost on every
 * dataset (GPULAB_EMU_CHECKS=bounds). Emptied when a launch begins:
 * allocations change only between launches. */
#define HOT_ALLOCS 4
static struct {
    const alloc *allocs[HOT_ALLOCS];
    unsigned next;
    /* the same for the shared arrays of the launch's blocks (each block of
     * a launch places the same arrays at the same places: shm_place) */
    struct { const char *base; size_t size; } shared[HOT_ALLOCS];
    unsigned shared_next;
} hot;

static inline int hot_shared(const char *a, size_t n)
{
    for (int k = 0; k < HOT_ALLOCS; k++)
        if (hot.shared[k].base && a >= hot.shared[k].base && n <= hot.shared[k].size &&
            (size_t)(a - hot.shared[k].base) <= hot.shared[k].size - n)
            return 1;
    return 0;
}

static inline const alloc *hot_alloc(const char *a, size_t n)
{
    for (int k = 0; k < HOT_ALLOCS; k++) {
        const alloc *al = hot.allocs[k];
        if (al && a >= al->base && n <= al->size && (size_t)(a - al->base) <= al->size - n)
            return al;
    }
    return NULL;
}

/* An instrumentation call's return address as the race build records it:
 * its offset from __executable_start, 0 when that does not fit. */
static inline uint32_t race_pc(const void *pc)
{
    uintptr_t off = (uintptr_t)pc - (uintptr_t)__executable_start;
    return off <= UINT32_MAX ? (uint32_t)off : 0;
}

/* Where an access of n bytes at a lands: 1 in one of the block's shared
 * arrays, 2 in a device allocation (*hit: the counts tell the buffers apart
 * by it), 0 in memory the checks leave alone (the thread's stack, host
 * memory no copy of the program's touched); -1 out of bounds (or in a host
 * buffer the program copied to or from), reported here. */
static int race_space(worker *W, const char *a, size_t n, int write, const void *pc, const alloc **hit)
{
    static size_t last;
    if (W->arena && a >= W->arena && a < W->arena + ARENA_SIZE) {
        size_t off = (size_t)(a - W->arena);
        /* the slots lie one after the other from the arena's start, each an
         * array inside its margins (shm_place) */
        for (int k = 0; k < W->nplaced && k < W->nlayout; k++) {
            const struct shm_slot *s = &W->layout[k];
            if (off >= s->end)
                continue;
            if (off >= s->base && n <= s->size && off - s->base <= s->size - n) {
                unsigned h = hot.shared_next++ % HOT_ALLOCS;
                hot.shared[h].base = W->arena + s->base;
                hot.shared[h].size = s->size;
                return 1;
            }
            bounds_fault(W, a, n, write, pc, W->arena + s->base, s->size,
                         k == 0 ? "shared memory (the dynamic extern __shared__ array)" : "shared memory");
            return -1;
        }
        bounds_fault(W, a, n, write, pc, NULL, 0, "outside the block's shared memory arrays");
        return -1;
    }
    for (size_t j = 0; j <= rt.nallocs; j++) {
        size_t i = j == 0 ? last : j - 1; /* the last one hit, first */
        if (i >= rt.nallocs)
            continue;
        const alloc *al = &rt.allocs[i];
        if (a < al->map || a >= al->map + al->maplen)
            continue;
        last = i;
        if (a >= al->base && n <= al->size && (size_t)(a - al->base) <= al->size - n) {
            *hit = al;
            hot.allocs[hot.next++ % HOT_ALLOCS] = al;
            return 2;
        }
        bounds_fault(W, a, n, write, pc, al->base, al->size, alloc_kind(al));
        return -1;
    }
    if (__start_emu_constant && a >= __start_emu_constant && a < __stop_emu_constant) {
        for (int i = 0; i < constants.n; i++) {
            const char *base = constants.list[i].base;
            size_t size = constants.list[i].size;
            size_t slot = (size + 255) & ~(size_t)255;
            if (a < base || a >= base + (slot ? slot : 256))
                continue;
            if (n <= size && (size_t)(a - base) <= size - n) {
                if (!write)
                    unset_constant_read(a, n, race_pc(pc));
                return 0; /* read-only in kernels: nothing to race on */
            }
            char kind[128];
            snprintf(kind, sizeof kind, "constant memory (%s)", constants.list[i].name);
            bounds_fault(W, a, n, write, pc, base, size, kind);
            return -1;
        }
        if (!write) /* an array no cudaMemcpyToSymbol named yet */
            unset_constant_read(a, n, race_pc(pc));
        return 0;
    }
    for (size_t i = 0; i < FREED_KEPT; i++) {
        const alloc *al = &rt.freed[i];
        if (al->map && a >= al->map && a < al->map + al->maplen) {
            char kind[1200], made[512], freed[512];
            snprintf(kind, sizeof kind, "of a freed %zu-byte allocation (global memory, made at %s): use after "
                     "cudaFree, freed by the cudaFree at %s", al->size, caller_line(al->made_by, made, sizeof made),
                     caller_line(al->freed_by, freed, sizeof freed));
            bounds_fault(W, a, n, write, pc, NULL, 0, kind);
            return -1;
        }
    }
    /* host memory the program copied to or from the device: a GPU's kernel
     * cannot reach it (an illegal address), the emulator's could */
    /* not the emulator's own memory that a kernel reaches (the thread's
     * stack, the worker's copy of the arguments), which a host buffer the
     * program freed before may have lain where it lies now */
    int own = (a >= (const char *)W && a < (const char *)(W + 1)) ||
              (W->cur && W->cur->map && a >= W->cur->map && a < W->cur->map + W->cur->maplen);
    const struct host_side *h = own ? NULL : host_side_at(a, n);
    if (h) {
        char kind[1200], at[512], what[700];
        if (h->caller)
            snprintf(what, sizeof what, "the %zu-byte host buffer%s%s that the %s at %s copied %s", h->size,
                     h->name[0] ? " " : "", h->name, h->call, caller_line(h->caller, at, sizeof at),
                     h->back ? "the results back into" : "to the device from");
        else
            snprintf(what, sizeof what, "the %zu-byte host buffer %s that the program was given", h->size,
                     h->name);
        snprintf(kind, sizeof kind, "of host memory, %zu bytes into %s: a kernel can reach only device memory (on "
                 "a GPU this access is an illegal address)", (size_t)(a - h->base), what);
        bounds_fault(W, a, n, write, pc, NULL, 0, kind);
        return -1;
    }
    return 0;
}

/* Unordered: different blocks, or different threads of a block in one round. */
static int race_conflict(const race_access *old, const race_access *me)
{
    if (!old->block || !(old->bytes & me->bytes) || !(old->write || me->write))
        return 0;
    if (old->block != me->block)
        return 1;
    return old->thread != me->thread && old->round == me->round;
}

static void race_found(const race_access *me, const race_access *other, unsigned size, int shared)
{
    for (int i = 0; i < reports.n; i++) {
        const race_report *r = &reports.list[i];
        if (r->me.pc == me->pc && r->other.pc == other->pc && r->me.write == me->write &&
            r->other.write == other->write)
            return;
    }
    if (reports.n == RACE_REPORTS)
        return;
    race_report *r = &reports.list[reports.n++];
    r->me = *me;
    r->other = *other;
    r->size = size;
    r->shared = shared;
}

/* ---- what a launch reads and writes: the counts ---------------------------------- *
 * Every access the race check records is counted too, by space (shared
 * memory, device memory) and direction: the instrumentation already calls
 * here for each one, and the race build runs one worker, so the counts are
 * plain integers and the same on every run of the same build. What the
 * instrumentation does not see is not counted: an access the compiler kept
 * in a register, atomics, __constant__ memory, the thread's stack. Global
 * reads are also counted by instruction, so that the launch's log can name
 * the lines that read global memory most (count_log). */
typedef struct {
    unsigned long long n, bytes;
} count_tally;
#define COUNT_PCS 64
#define COUNT_BUFFERS 8
static struct {
    count_tally all[2][2]; /* [0 shared, 1 global][0 read, 1 write] */
    struct {
        uint32_t pc;
        size_t buffer;      /* the size of the allocation it read */
        unsigned long long reads;
    } pcs[COUNT_PCS];
    /* Global reads by allocation, told apart by size: the grader counts the
     * reads of the data a lab tiles apart from a small buffer (a mask kept in
     * global memory), which another requirement judges. */
    struct {
        size_t buffer;
        unsigned long long n, bytes;
    } buffers[COUNT_BUFFERS];
} counts;

static void tally_access(int space, unsigned size, int write, uint32_t pc, size_t buffer)
{
    count_tally *t = &counts.all[space == 2][write != 0];
    t->n++;
    t->bytes += size;
    if (space != 2 || write)
        return;
    for (int b = 0; b < COUNT_BUFFERS; b++) {
        if (counts.buffers[b].n && counts.buffers[b].buffer != buffer)
            continue;
        counts.buffers[b].buffer = buffer;
        counts.buffers[b].n++;
        counts.buffers[b].bytes += size;
        break;
    }
    if (!pc)
        return;
    /* open addressing by instruction and buffer; a launch with more than
     * COUNT_PCS of them counts the rest in totals only */
    uint32_t key = pc ^ (uint32_t)(buffer * 40503u);
    for (unsigned i = (key * 2654435761u) >> 26, k = 0; k < COUNT_PCS; k++, i = (i + 1) % COUNT_PCS) {
        if ((counts.pcs[i].pc == pc && counts.pcs[i].buffer == buffer) || !counts.pcs[i].pc) {
            counts.pcs[i].pc = pc;
            counts.pcs[i].buffer = buffer;
            counts.pcs[i].reads++;
            return;
        }
    }
}

static void race_access_at(const void *addr, unsigned size, int write, const void *pc)
{
    worker *W = tls.self;
    if (!W || !W->in_block || !W->cur)
        return;
    /* a write takes its thread's mark of the store it is (emu_race_store_line_) */
    W->access_line = write ? W->cur->store_line : 0;
    if (write)
        W->cur->store_line = 0;
    /* inside a device allocation found lately: not shared memory, not out
     * of bounds */
    const alloc *al = hot_alloc(addr, size);
    int space = al ? 2 : race_space(W, addr, size, write, pc, &al);
    if (space <= 0)
        return;
    uintptr_t off = (uintptr_t)pc - (uintptr_t)__executable_start;
    if (space == 2)
        unset_access(al, addr, size, !write, write, off <= UINT32_MAX ? (uint32_t)off : 0);
    if (shadow.off)
        return; /* bounds and unset memory only (GPULAB_EMU_CHECKS=bounds) */
    race_access me = {
        .block = (uint32_t)W->rblock + 1,
        .round = W->round,
        .pc = off <= UINT32_MAX ? (uint32_t)off : 0,
        .thread = (uint16_t)(W->cur - W->fibers),
        .write = (uint8_t)write,
    };
    tally_access(space, size, write, me.pc, space == 2 ? al->size : 0);
    if (W->tiles_kept) /* tested here: a call to tiles.c for each access costs 3% */
        hooks.tiles_access(W, addr, size, write, space, me.pc);
    uint32_t tag = space == 1 ? (uint32_t)W->serial : shadow.launch;
    uintptr_t u = (uintptr_t)addr, end = u + size;
    for (uintptr_t g = u & ~(uintptr_t)3; g < end; g += 4) {
        unsigned lo = g < u ? (unsigned)(u - g) : 0, hi = end - g < 4 ? (unsigned)(end - g) : 4;
        me.bytes = (uint8_t)(((1u << hi) - 1) & ~((1u << lo) - 1));
        race_cell *c = &race_cells(g >> RACE_CHUNK_SHIFT)[(g >> 2) & (RACE_CHUNK_CELLS - 1)];
        if (c->tag != tag) {
            memset(c, 0, sizeof *c);
            c->tag = tag;
        }
        if (race_conflict(&c->w, &me))
            race_found(&me, &c->w, size, space == 1);
        if (write) {
            for (int k = 0; k < 2; k++)
                if (race_conflict(&c->r[k], &me))
                    race_found(&me, &c->r[k], size, space == 1);
            c->w = me;
        } else if (c->r[0].block == me.block && c->r[0].thread == me.thread) {
            c->r[0].round = me.round;
            c->r[0].pc = me.pc;
            c->r[0].bytes |= me.bytes;
        } else {
            c->r[1] = c->r[0];
            c->r[0] = me;
        }
    }
}

/* ---- the launch's side ------------------------------------------------------------- */

static void subscripts_forget(void);

static void race_launch_begin(void)
{
    subscripts_forget();
    shadow.launch++;
    memset(hot.allocs, 0, sizeof hot.allocs);
    memset(hot.shared, 0, sizeof hot.shared);
    memset(counts.all, 0, sizeof counts.all);
    memset(counts.pcs, 0, sizeof counts.pcs);
    memset(counts.buffers, 0, sizeof counts.buffers);
}

/* The lines that read global memory most: the COUNT_TOP instructions with
 * the most reads, merged by FILE:LINE and buffer (a line has several loads),
 * largest first. addr2line runs once per instruction named, after the launch. */
#define COUNT_TOP 12
typedef struct {
    char where[512];
    size_t buffer;
    unsigned long long reads;
} count_line;

static int count_top_lines(count_line *out, int max)
{
    int n = 0;
    for (int pick = 0; pick < COUNT_TOP; pick++) {
        int best = -1;
        for (int i = 0; i < COUNT_PCS; i++)
            if (counts.pcs[i].reads && (best < 0 || counts.pcs[i].reads > counts.pcs[best].reads))
                best = i;
        if (best < 0)
            break;
        char where[512];
        race_where(counts.pcs[best].pc, where, sizeof where);
        unsigned long long reads = counts.pcs[best].reads;
        size_t buffer = counts.pcs[best].buffer;
        counts.pcs[best].reads = 0;
        int k = 0;
        while (k < n && (strcmp(out[k].where, where) != 0 || out[k].buffer != buffer))
            k++;
        if (k == n && n == max)
            continue;
        if (k == n) {
            snprintf(out[n].where, sizeof out[n].where, "%s", where);
            out[n].buffer = buffer;
            out[n++].reads = 0;
        }
        out[k].reads += reads;
    }
    for (int i = 1; i < n; i++) /* largest first */
        for (int j = i; j > 0 && out[j].reads > out[j - 1].reads; j--) {
            count_line t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

/* The launch's counts, as fields of its "launch" line (docs/emulator.md):
 * ,"counts":{...}. */
static void count_log(FILE *f)
{
    fprintf(f, ",\"counts\":{\"global_loads\":%llu,\"global_load_bytes\":%llu,\"global_stores\":%llu,"
               "\"global_store_bytes\":%llu,\"shared_loads\":%llu,\"shared_load_bytes\":%llu,"
               "\"shared_stores\":%llu,\"shared_store_bytes\":%llu,\"global_load_lines\":[",
            counts.all[1][0].n, counts.all[1][0].bytes, counts.all[1][1].n, counts.all[1][1].bytes, counts.all[0][0].n,
            counts.all[0][0].bytes, counts.all[0][1].n, counts.all[0][1].bytes);
    count_line lines[6];
    int n = count_top_lines(lines, 6);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s{\"where\":", i ? "," : "");
        json_str(f, lines[i].where);
        fprintf(f, ",\"loads\":%llu,\"buffer_bytes\":%zu}", lines[i].reads, lines[i].buffer);
    }
    fputs("],\"global_load_buffers\":[", f);
    for (int b = 0, n = 0; b < COUNT_BUFFERS; b++)
        if (counts.buffers[b].n)
            fprintf(f, "%s{\"buffer_bytes\":%zu,\"loads\":%llu,\"load_bytes\":%llu}", n++ ? "," : "",
                    counts.buffers[b].buffer, counts.buffers[b].n, counts.buffers[b].bytes);
    fputs("]}", f);
}


/* Prints the launch's races, one line each, as the grader reads them
 * (sanitize_parse_emu). */
/* ---- subscripts past their own dimension ----------------------------------------- *
 * emu_subscript_ (emu_device.h) calls here for a subscript of a
 * multi-dimensional array outside [0, dim): ds_M[ty][tx] with tx up to 31
 * in a [16][16] array reads a slot of another row, inside ds_M, which no
 * bounds check sees, and the rows' threads then race on the same slots.
 * Each subscript (array, text, which) is kept with the least and greatest
 * value seen outside its dimension, and reported when the launch ends,
 * before the races it causes:
 *
 *   gpulab-emu: subscript FILE:LINE kernel K block (x,y,z) thread (x,y,z): subscript 2 of 2 of ds_M, `tx`,
 *     takes the values 16 to 31, outside its dimension of 16 (0 to 15; ds_M declared at line 24)
 */
#define SUBSCRIPT_SITES 32
static struct {
    struct {
        const char *array, *text;
        int k, rank, declared;
        unsigned long long dim;
        long long lo, hi;
        uint32_t pc;
        uint3 block, thread;
    } list[SUBSCRIPT_SITES];
    int n;
} subscripts;

void emu_race_subscript_(long long value, unsigned long long dim, const char *array, const char *text, int k,
                         int rank, int declared)
{
    worker *W = tls.self;
    if (!W || !W->in_block)
        return;
    for (int i = 0; i < subscripts.n; i++)
        if (subscripts.list[i].array == array && subscripts.list[i].text == text && subscripts.list[i].k == k) {
            if (value < subscripts.list[i].lo)
                subscripts.list[i].lo = value;
            if (value > subscripts.list[i].hi)
                subscripts.list[i].hi = value;
            return;
        }
    if (subscripts.n == SUBSCRIPT_SITES)
        return;
    subscripts.list[subscripts.n++] = (__typeof__(subscripts.list[0])){
        array, text, k, rank, declared, dim, value, value, race_pc(__builtin_return_address(0)),
        emu_blockIdx_, emu_threadIdx_,
    };
}

static void subscripts_forget(void)
{
    subscripts.n = 0;
}

static void subscripts_report(const struct emu_launch_cfg *c)
{
    for (int i = 0; i < subscripts.n; i++) {
        char here[600], range[96];
        __typeof__(subscripts.list[0]) *s = &subscripts.list[i];
        race_where(s->pc, here, sizeof here);
        if (s->lo == s->hi)
            snprintf(range, sizeof range, "the value %lld", s->lo);
        else
            snprintf(range, sizeof range, "the values %lld to %lld", s->lo, s->hi);
        diag("gpulab-emu: subscript %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): subscript %d of %d of %s, `%s`, "
             "takes %s, outside its dimension of %llu (0 to %llu; %s declared at line %d)",
             here, c->kernel, s->block.x, s->block.y, s->block.z, s->thread.x, s->thread.y, s->thread.z, s->k + 1,
             s->rank, s->array, s->text, range, s->dim, s->dim - 1, s->array, s->declared);
    }
    subscripts.n = 0;
}

static void race_launch_end(const struct emu_launch_cfg *c)
{
    subscripts_report(c);
    for (int i = reports.printed; i < reports.n; i++) {
        const race_report *r = &reports.list[i];
        char here[600], there[600];
        race_where(r->me.pc, here, sizeof here);
        race_where(r->other.pc, there, sizeof there);
        unsigned long long b = r->me.block - 1, ob = r->other.block - 1;
        uint3 bi = { (unsigned)(b % c->grid.x), (unsigned)(b / c->grid.x % c->grid.y),
                     (unsigned)(b / ((unsigned long long)c->grid.x * c->grid.y)) };
        uint3 obi = { (unsigned)(ob % c->grid.x), (unsigned)(ob / c->grid.x % c->grid.y),
                      (unsigned)(ob / ((unsigned long long)c->grid.x * c->grid.y)) };
        unsigned t = r->me.thread, ot = r->other.thread;
        uint3 ti = { t % c->block.x, t / c->block.x % c->block.y, t / (c->block.x * c->block.y) };
        uint3 oti = { ot % c->block.x, ot / c->block.x % c->block.y, ot / (c->block.x * c->block.y) };
        const char *what = r->me.write ? "write" : "read", *owhat = r->other.write ? "write" : "read";
        const char *space = r->shared ? "shared memory" : "global memory";
        if (r->me.block == r->other.block)
            diag("gpulab-emu: race %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): %s of %u bytes of %s races "
                 "with the %s at %s by thread (%u,%u,%u) of the block, with no __syncthreads() between them",
                 here, c->kernel, bi.x, bi.y, bi.z, ti.x, ti.y, ti.z, what, r->size, space, owhat, there, oti.x,
                 oti.y, oti.z);
        else
            diag("gpulab-emu: race %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): %s of %u bytes of %s races "
                 "with the %s at %s by thread (%u,%u,%u) of another block, (%u,%u,%u): nothing orders two blocks",
                 here, c->kernel, bi.x, bi.y, bi.z, ti.x, ti.y, ti.z, what, r->size, space, owhat, there, oti.x,
                 oti.y, oti.z, obi.x, obi.y, obi.z);
    }
    reports.printed = reports.n;
}

/* The bounds check's fast path (GPULAB_EMU_CHECKS=bounds): an access
 * inside a device buffer found lately, every byte of which something
 * stored, needs nothing more; the rest goes through race_access_at. */
static inline __attribute__((always_inline)) void race_access_fast(void *addr, unsigned size, int write, void *pc)
{
    if (shadow.off) {
        worker *W = tls.self;
        if (W && W->in_block && W->cur) {
            /* shared arrays first (no address is in both): a tiled kernel
             * reads its tiles TILE_WIDTH times as often as global memory */
            if (hot_shared(addr, size))
                return;
            /* the worker's copy of the kernel's arguments (run_launch),
             * which every thread reads: the kit's memory, which
             * race_space leaves alone after its longest search */
            if ((const char *)addr >= W->args && (const char *)addr < W->args + sizeof W->args)
                return;
            const alloc *al = hot_alloc(addr, size);
            if (al && !al->unstored)
                return;
        }
    }
    race_access_at(addr, size, write, pc);
}

/* ---- what -fsanitize=thread calls ------------------------------------------------- */
#define RACE_ACCESS(NAME, SIZE, WRITE)                                                                 \
    void NAME(void *addr);                                                                             \
    void NAME(void *addr) { race_access_fast(addr, SIZE, WRITE, __builtin_return_address(0)); }
#define RACE_ACCESSES(PREFIX, N)                                                                       \
    RACE_ACCESS(__tsan_##PREFIX##read##N, N, 0)                                                        \
    RACE_ACCESS(__tsan_##PREFIX##write##N, N, 1)
RACE_ACCESSES(, 1)
RACE_ACCESSES(, 2)
RACE_ACCESSES(, 4)
RACE_ACCESSES(, 8)
RACE_ACCESSES(, 16)
RACE_ACCESSES(unaligned_, 2)
RACE_ACCESSES(unaligned_, 4)
RACE_ACCESSES(unaligned_, 8)
RACE_ACCESSES(unaligned_, 16)
RACE_ACCESSES(volatile_, 1)
RACE_ACCESSES(volatile_, 2)
RACE_ACCESSES(volatile_, 4)
RACE_ACCESSES(volatile_, 8)
RACE_ACCESSES(volatile_, 16)

void __tsan_read_range(void *addr, unsigned long size);
void __tsan_read_range(void *addr, unsigned long size)
{
    race_access_at(addr, (unsigned)size, 0, __builtin_return_address(0));
}
void __tsan_write_range(void *addr, unsigned long size);
void __tsan_write_range(void *addr, unsigned long size)
{
    race_access_at(addr, (unsigned)size, 1, __builtin_return_address(0));
}

/* The C library's block copies, as the student's object calls them in a
 * race build (emucc renames its calls: watch_block_copies): each is a read
 * of its source and a write of its destination, then the copy itself. */
static void race_block(const void *dst, const void *src, size_t n, const void *pc)
{
    size_t len = n < UINT32_MAX ? n : UINT32_MAX;
    if (src)
        race_access_at(src, (unsigned)len, 0, pc);
    race_access_at(dst, (unsigned)len, 1, pc);
}

void *emu_race_memcpy_(void *dst, const void *src, size_t n);
void *emu_race_memcpy_(void *dst, const void *src, size_t n)
{
    race_block(dst, src, n, __builtin_return_address(0));
    return memcpy(dst, src, n);
}
void *emu_race_memmove_(void *dst, const void *src, size_t n);
void *emu_race_memmove_(void *dst, const void *src, size_t n)
{
    race_block(dst, src, n, __builtin_return_address(0));
    return memmove(dst, src, n);
}
void *emu_race_memset_(void *dst, int c, size_t n);
void *emu_race_memset_(void *dst, int c, size_t n)
{
    race_block(dst, NULL, n, __builtin_return_address(0));
    return memset(dst, c, n);
}
/* _FORTIFY_SOURCE's checked forms: the same, and the C library's check */
void *__memcpy_chk(void *dst, const void *src, size_t n, size_t room);
void *__memmove_chk(void *dst, const void *src, size_t n, size_t room);
void *__memset_chk(void *dst, int c, size_t n, size_t room);
void *emu_race_memcpy_chk_(void *dst, const void *src, size_t n, size_t room);
void *emu_race_memcpy_chk_(void *dst, const void *src, size_t n, size_t room)
{
    race_block(dst, src, n, __builtin_return_address(0));
    return __memcpy_chk(dst, src, n, room);
}
void *emu_race_memmove_chk_(void *dst, const void *src, size_t n, size_t room);
void *emu_race_memmove_chk_(void *dst, const void *src, size_t n, size_t room)
{
    race_block(dst, src, n, __builtin_return_address(0));
    return __memmove_chk(dst, src, n, room);
}
void *emu_race_memset_chk_(void *dst, int c, size_t n, size_t room);
void *emu_race_memset_chk_(void *dst, int c, size_t n, size_t room)
{
    race_block(dst, NULL, n, __builtin_return_address(0));
    return __memset_chk(dst, c, n, room);
}

void __tsan_init(void);
void __tsan_init(void) {}
void __tsan_func_entry(void *pc);
void __tsan_func_entry(void *pc) { (void)pc; }
void __tsan_func_exit(void);
void __tsan_func_exit(void) {}
void __tsan_vptr_update(void **vptr, void *value);
void __tsan_vptr_update(void **vptr, void *value) { (void)vptr, (void)value; }
void __tsan_vptr_read(void **vptr);
void __tsan_vptr_read(void **vptr) { (void)vptr; }
void __tsan_atomic_thread_fence(int order);
void __tsan_atomic_thread_fence(int order) { (void)order; __atomic_thread_fence(__ATOMIC_SEQ_CST); }
void __tsan_atomic_signal_fence(int order);
void __tsan_atomic_signal_fence(int order) { (void)order; __atomic_signal_fence(__ATOMIC_SEQ_CST); }

/* An atomic's bounds: checked, never recorded as an access for the race
 * check; in device memory it stores, and all but a plain store read what
 * was there (an atomicAdd into memory nothing zeroed is a read of it). */
static void race_atomic_at(const volatile void *addr, unsigned size, const void *pc, int reads)
{
    worker *W = tls.self;
    const alloc *al = NULL;
    if (W && W->in_block && W->cur && race_space(W, (const char *)addr, size, 1, pc, &al) == 2) {
        uintptr_t off = (uintptr_t)pc - (uintptr_t)__executable_start;
        unset_access(al, (const char *)addr, size, reads, 1, off <= UINT32_MAX ? (uint32_t)off : 0);
    }
}

/* Atomics: done, sequentially consistent whatever order was asked for (a
 * stronger order is always a correct one), bounds checked, and not recorded
 * as accesses. */
#define RACE_ATOMIC_RMW(N, T, OP)                                                                      \
    T __tsan_atomic##N##_##OP(volatile T *a, T v, int mo);                                             \
    T __tsan_atomic##N##_##OP(volatile T *a, T v, int mo)                                              \
    {                                                                                                  \
        (void)mo;                                                                                      \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 1);                                  \
        return __atomic_##OP(a, v, __ATOMIC_SEQ_CST);                                                  \
    }
#define RACE_ATOMICS(N, T)                                                                             \
    T __tsan_atomic##N##_load(const volatile T *a, int mo);                                            \
    T __tsan_atomic##N##_load(const volatile T *a, int mo)                                             \
    {                                                                                                  \
        (void)mo;                                                                                      \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 1);                                  \
        return __atomic_load_n(a, __ATOMIC_SEQ_CST);                                                   \
    }                                                                                                  \
    void __tsan_atomic##N##_store(volatile T *a, T v, int mo);                                         \
    void __tsan_atomic##N##_store(volatile T *a, T v, int mo)                                          \
    {                                                                                                  \
        (void)mo;                                                                                      \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 0);                                  \
        __atomic_store_n(a, v, __ATOMIC_SEQ_CST);                                                      \
    }                                                                                                  \
    T __tsan_atomic##N##_exchange(volatile T *a, T v, int mo);                                         \
    T __tsan_atomic##N##_exchange(volatile T *a, T v, int mo)                                          \
    {                                                                                                  \
        (void)mo;                                                                                      \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 1);                                  \
        return __atomic_exchange_n(a, v, __ATOMIC_SEQ_CST);                                            \
    }                                                                                                  \
    RACE_ATOMIC_RMW(N, T, fetch_add)                                                                   \
    RACE_ATOMIC_RMW(N, T, fetch_sub)                                                                   \
    RACE_ATOMIC_RMW(N, T, fetch_and)                                                                   \
    RACE_ATOMIC_RMW(N, T, fetch_or)                                                                    \
    RACE_ATOMIC_RMW(N, T, fetch_xor)                                                                   \
    RACE_ATOMIC_RMW(N, T, fetch_nand)                                                                  \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo);         \
    int __tsan_atomic##N##_compare_exchange_strong(volatile T *a, T *c, T v, int mo, int fmo)          \
    {                                                                                                  \
        (void)mo, (void)fmo;                                                                           \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 1);                                  \
        return __atomic_compare_exchange_n(a, c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);            \
    }                                                                                                  \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo);           \
    int __tsan_atomic##N##_compare_exchange_weak(volatile T *a, T *c, T v, int mo, int fmo)            \
    {                                                                                                  \
        (void)mo, (void)fmo;                                                                           \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 1);                                  \
        return __atomic_compare_exchange_n(a, c, v, 1, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);            \
    }                                                                                                  \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo);               \
    T __tsan_atomic##N##_compare_exchange_val(volatile T *a, T c, T v, int mo, int fmo)                \
    {                                                                                                  \
        (void)mo, (void)fmo;                                                                           \
        race_atomic_at(a, sizeof(T), __builtin_return_address(0), 1);                                  \
        __atomic_compare_exchange_n(a, &c, v, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);                  \
        return c;                                                                                      \
    }
RACE_ATOMICS(8, uint8_t)
RACE_ATOMICS(16, uint16_t)
RACE_ATOMICS(32, uint32_t)
RACE_ATOMICS(64, uint64_t)

/* This part's hooks (rt_int.h), set before main(). */
__attribute__((constructor)) static void race_hooks(void)
{
    hooks.race_constant_copied = race_constant_copied;
    hooks.race_launch_begin = race_launch_begin;
    hooks.race_launch_end = race_launch_end;
    hooks.count_log = count_log;
}
