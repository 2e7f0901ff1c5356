/* tiles.c - emucc --race: what a block's shared tiles hold at a barrier
 * (reading race.c's shadow cells).
 *
 * A tiled kernel copies elements of its inputs into shared arrays, waits at
 * a __syncthreads(), and computes from them. When its output is wrong, what
 * each slot of a tile held at that barrier says whether the loads put the
 * right elements there: the grader compares the values with the dataset's
 * inputs and with the tiling the lab describes (grader/src/checkers/tiles.c,
 * lab.json's "tiles", docs/emulator.md's "tile" lines).
 *
 * The rewriter names each function-scope __shared__ array as it is declared
 * (emu_shared_named_, emu_device.h), so the runtime knows its name, place
 * and shape. At the end of a round (every thread of the block waits at a
 * barrier), for a few blocks and their first TILE_PHASES rounds that stored
 * into an array, the slots the round stored into are kept: their index,
 * their value's bits, where in its device allocation the value was read
 * (when the storing thread read it from global memory), and the line that
 * stored them (the race check's last
 * write of the slot's granule, or, where the value is the one the storing
 * thread last read from global memory in that round, the line of that
 * read: at -O1 the two branches of `if (in) t = a[i]; else t = 0;` become
 * one store, named after either line: so the race build's rewriter marks
 * each store into an array with its own line, emu_store_line_, and a slot
 * stored there is named after that line), and the thread that stored them. The
 * launch's end writes them to the launch log, one line per array and round.
 * Only arrays of 4-byte elements, of one or two dimensions, are kept.
 *
 * With them go the round's tests: the race build's rewriter wraps each
 * condition of an if, for or while in a kernel (emu_test_, emu_device.h),
 * and each thread's last outcome of each test line in the round (up to
 * TILE_TESTS lines a thread) is kept with the two values its deciding
 * comparison compared: the grader names the test that kept a thread from
 * storing a slot, or sent it to the branch that stored the wrong value
 * (grader/src/checkers/tiles.c), and an invalid access names the test that
 * let its thread through (tiles_guard_words). A test costs a call and a
 * search of the thread's eight entries.
 */

#include "rt_int.h"

#define TILE_ARRAYS 16
#define TILE_PHASES 2
#define TILE_BLOCKS 2
#define TILE_SNAPSHOTS (TILE_ARRAYS * TILE_PHASES * TILE_BLOCKS)
#define TILE_WRITERS 8
#define TILE_MAX_SLOTS 12288 /* 48 KiB of 4-byte elements */
#define TILE_FIELDS 5        /* a slot's: index, bits, writer, source, thread */
#define TILE_TESTS 8         /* test lines kept a thread */
#define TILE_OPERANDS 4      /* comparisons of one test kept (its && and || operands 0..3) */

typedef struct {
    char name[64];
    const char *base;
    size_t count;            /* elements */
    unsigned rank;
    size_t d0, d1;
    int phases;              /* rounds of the current block that stored into it so far */
    /* per slot, in the kept blocks: the global read the storing thread made
     * last before the store (its instruction, address and round) */
    uint32_t *load_pc;
    unsigned *load_round;
    const char **load_addr;
    uint16_t *store_thread;  /* the thread that stored the slot last */
    int *store_line;         /* the line of the store that did, as the rewriter marked it (0: none) */
} tile_array;

/* One thread's last outcome of one test line (emu_race_tested_), with the
 * comparison that decided it (the last one evaluated: && and || stop at
 * the deciding one). */
typedef struct {
    int line;
    unsigned round;
    unsigned char result, op, compared, operand;
    double a, b;
    /* each operand's comparison as this outcome evaluated it (bit k of
     * clauses: operand k was a comparison, evaluated): the guard of an
     * invalid access is judged clause by clause (tiles_guard_words) */
    unsigned char clauses, ops[TILE_OPERANDS];
    float as[TILE_OPERANDS], bs[TILE_OPERANDS];
} tile_test;

typedef struct {
    int array;
    unsigned long long block;
    int phase;
    const char *bfile;       /* the barrier the round ended at */
    int bline;
    int nslots;
    uint32_t *slot;          /* index, bits, writer, source (byte offset, or TILE_NO_SOURCE), thread: TILE_FIELDS per slot */
    uint32_t *unset;         /* the slots no thread of the block has stored into yet (they hold the poison) */
    int nunset;
    uint32_t writer_pc[TILE_WRITERS];
    unsigned char writer_load[TILE_WRITERS]; /* the writer is the line of a global read */
    int writer_line[TILE_WRITERS];           /* a store's own line (emu_store_line_), else 0: the instruction's */
    int nwriters;
    tile_test *tests;        /* the round's tests, thread by thread (TILE_TESTS each; line 0: none) */
    unsigned nthreads;
} tile_snapshot;

/* A kept block at its end: each thread's stores into device memory and its
 * last outcome of each test line, whatever the round (the block's
 * "block_end" line): a thread that never stored its output element names
 * the test that kept it from the store (grader/src/checkers/stores.c). */
typedef struct {
    unsigned long long block;
    unsigned nthreads;
    unsigned *stores;        /* per thread */
    tile_test *tests;        /* TILE_TESTS a thread (line 0: none) */
} block_end;

/* The lines a run writes at most, whatever its launches: a program that
 * launches a kernel thousands of times must not fill the launch log (the
 * grader reads a bounded amount of it, its counts too). */
#define TILE_LINES_PER_RUN 64

/* Whether the running block's tiles are kept is the worker's (tiles_kept). */
static struct {
    tile_array arrays[TILE_ARRAYS];
    int narrays;
    tile_snapshot snaps[TILE_SNAPSHOTS];
    int nsnaps;
    block_end ends[TILE_BLOCKS];
    int nends;
    unsigned global_stores[MAX_THREADS]; /* each thread's in the running kept block */
    unsigned first_round;                /* the running block's first round (W->round) */
    int lines_written; /* of TILE_LINES_PER_RUN */
    /* each thread's last global read in a kept block */
    struct {
        uint32_t pc;
        unsigned round;
        const char *addr;
    } last[MAX_THREADS];
    /* each thread's marked store line (emu_store_line_), until its next write */
    int store_line[MAX_THREADS];
    /* each thread's tests in a kept block, and its last comparison */
    tile_test tests[MAX_THREADS][TILE_TESTS];
    struct {
        int op, fresh, operand;
        double a, b;
        unsigned char clauses, ops[TILE_OPERANDS];
        float as[TILE_OPERANDS], bs[TILE_OPERANDS];
    } cmp[MAX_THREADS];
} tiles; /* all zero: in .bss, not 700 KiB of the program's file */

void emu_race_compared_(int k, int op, double a, double b)
{
    worker *W = tls.self;
    if (check_modes.tests_off || !W || !W->in_block)
        return;
    unsigned th = (unsigned)(W->cur - W->fibers);
    tiles.cmp[th].op = op;
    tiles.cmp[th].operand = k;
    tiles.cmp[th].a = a;
    tiles.cmp[th].b = b;
    tiles.cmp[th].fresh = 1;
    if (k >= 0 && k < TILE_OPERANDS) {
        tiles.cmp[th].clauses |= (unsigned char)(1u << k);
        tiles.cmp[th].ops[k] = (unsigned char)op;
        tiles.cmp[th].as[k] = (float)a;
        tiles.cmp[th].bs[k] = (float)b;
    }
}

void emu_race_tested_(int line, int result)
{
    worker *W = tls.self;
    if (check_modes.tests_off || !W || !W->in_block)
        return;
    unsigned th = (unsigned)(W->cur - W->fibers);
    tile_test *t = tiles.tests[th], *use = NULL;
    /* the line's own entry, else one of an earlier round, else the one
     * whose line came last into this thread's list is replaced */
    for (int k = 0; k < TILE_TESTS && !use; k++)
        if (t[k].line == line)
            use = &t[k];
    for (int k = 0; k < TILE_TESTS && !use; k++)
        if (t[k].line == 0 || t[k].round != W->round)
            use = &t[k];
    if (!use)
        use = &t[TILE_TESTS - 1];
    *use = (tile_test){ line, W->round, (unsigned char)result, (unsigned char)tiles.cmp[th].op,
                        (unsigned char)tiles.cmp[th].fresh, (unsigned char)tiles.cmp[th].operand, tiles.cmp[th].a,
                        tiles.cmp[th].b, tiles.cmp[th].clauses, { 0 }, { 0 }, { 0 } };
    memcpy(use->ops, tiles.cmp[th].ops, sizeof use->ops);
    memcpy(use->as, tiles.cmp[th].as, sizeof use->as);
    memcpy(use->bs, tiles.cmp[th].bs, sizeof use->bs);
    tiles.cmp[th].clauses = 0;
    tiles.cmp[th].fresh = 0;
}

void emu_race_store_line_(int line)
{
    worker *W = tls.self;
    if (!W || !W->in_block || !W->cur)
        return;
    /* the bounds check's too (race.c): a store past an array named by its
     * own line, not by the instruction the compiler made of both branches */
    W->cur->store_line = line;
    if (W->tiles_kept)
        tiles.store_line[W->cur - W->fibers] = line;
}

void emu_race_shared_name_(const char *name, const void *a, size_t bytes, size_t elem, unsigned rank, size_t d0,
                           size_t d1)
{
    worker *W = tls.self;
    if (!W || !W->in_block || elem != 4 || rank < 1 || rank > 2 || bytes / 4 > TILE_MAX_SLOTS)
        return;
    for (int i = 0; i < tiles.narrays; i++)
        if (tiles.arrays[i].base == a && strcmp(tiles.arrays[i].name, name) == 0)
            return;
    if (tiles.narrays == TILE_ARRAYS)
        return;
    tile_array *t = &tiles.arrays[tiles.narrays++];
    snprintf(t->name, sizeof t->name, "%s", name);
    t->base = a;
    t->count = bytes / 4;
    t->rank = rank;
    t->d0 = d0;
    t->d1 = rank == 2 ? d1 : 0;
    t->phases = 0;
    t->load_pc = calloc(t->count, sizeof *t->load_pc);
    t->load_round = calloc(t->count, sizeof *t->load_round);
    t->load_addr = calloc(t->count, sizeof *t->load_addr);
    t->store_thread = calloc(t->count, sizeof *t->store_thread);
    t->store_line = calloc(t->count, sizeof *t->store_line);
    if (!t->load_pc || !t->load_round || !t->load_addr || !t->store_thread || !t->store_line) {
        free(t->load_pc);
        free(t->load_round);
        free(t->load_addr);
        free(t->store_thread);
        free(t->store_line);
        tiles.narrays--; /* not kept: the check only explains, never decides */
    }
}

/* An access the race check recorded (race_access_at): in a kept block, a
 * global read is remembered for its thread, and a store into a named
 * array remembers the thread's last global read for the slot. */
static void tiles_access(struct worker *W, const void *addr, unsigned size, int write, int space, uint32_t pc)
{
    if (!W->tiles_kept)
        return;
    unsigned th = (unsigned)(W->cur - W->fibers);
    int line = write ? tiles.store_line[th] : 0; /* a mark names the next write alone */
    if (write)
        tiles.store_line[th] = 0;
    if (space == 2 && write)
        tiles.global_stores[th]++;
    if (space == 2 && !write) {
        tiles.last[th].pc = pc;
        tiles.last[th].round = W->round;
        tiles.last[th].addr = size == 4 ? addr : NULL;
        return;
    }
    if (space != 1 || !write || size != 4)
        return;
    const char *a = addr;
    for (int i = 0; i < tiles.narrays; i++) {
        tile_array *t = &tiles.arrays[i];
        if (a < t->base || a >= t->base + 4 * t->count || (a - t->base) % 4)
            continue;
        size_t e = (size_t)(a - t->base) / 4;
        int fresh = tiles.last[th].round == W->round && tiles.last[th].addr;
        t->load_pc[e] = fresh ? tiles.last[th].pc : 0;
        t->load_addr[e] = fresh ? tiles.last[th].addr : NULL;
        t->load_round[e] = W->round;
        t->store_thread[e] = (uint16_t)th;
        t->store_line[e] = line;
        return;
    }
}

static void tiles_launch_begin(void)
{
    for (int i = 0; i < tiles.narrays; i++) {
        free(tiles.arrays[i].load_pc);
        free(tiles.arrays[i].load_round);
        free(tiles.arrays[i].load_addr);
        free(tiles.arrays[i].store_thread);
        free(tiles.arrays[i].store_line);
    }
    for (int i = 0; i < tiles.nsnaps; i++) {
        free(tiles.snaps[i].slot);
        free(tiles.snaps[i].unset);
        free(tiles.snaps[i].tests);
    }
    tiles.nsnaps = 0;
    for (int i = 0; i < tiles.nends; i++) {
        free(tiles.ends[i].stores);
        free(tiles.ends[i].tests);
    }
    tiles.nends = 0;
    tiles.narrays = 0;
}

/* A clause that admits the value at its own bound: `Row <= Width` passed
 * with Row == Width (or `Width >= Row`), the one value a `<` would stop.
 * A lower bound at 0 (`x >= 0` with x == 0) is the first element, no edge. */
static int tiles_clause_at_edge(const tile_test *t, int k)
{
    if (!(t->clauses & (1u << k)) || t->as[k] != t->bs[k])
        return 0;
    return t->ops[k] == 1 || (t->ops[k] == 3 && t->bs[k] != 0.0f);
}

/* " (let through by the test at line 75, operand 0: 47 < 48; clauses
 * 0:47<48 1:3<16; also line 70: 0:3<16)": the test before line `line` that this thread passed in
 * this round and that let it through (the last one with a clause at its
 * edge, else the last one), with what its deciding comparison compared
 * ("operand K at its bound" when a clause at its edge is named) and every
 * clause it evaluated, then the thread's other tests passed this round
 * with theirs; nothing when there is none. The tests of every
 * block are kept (a thread's own, each round), for this. */
static void tiles_guard_words(struct worker *W, int line, char *out, size_t n)
{
    static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
    out[0] = '\0';
    if (!W->cur || line <= 0)
        return;
    unsigned th = (unsigned)(W->cur - W->fibers);
    const tile_test *best = NULL, *edge = NULL;
    int edge_k = -1;
    for (int k = 0; k < TILE_TESTS; k++) {
        const tile_test *t = &tiles.tests[th][k];
        if (t->line <= 0 || t->line > line || t->round != W->round || !t->result)
            continue;
        if (!best || t->line > best->line)
            best = t;
        for (int c = 0; c < TILE_OPERANDS; c++)
            if (tiles_clause_at_edge(t, c) && (!edge || t->line > edge->line)) {
                edge = t;
                edge_k = c;
            }
    }
    size_t len = 0;
    if (edge)
        len = (size_t)snprintf(out, n, " (let through by the test at line %d, operand %d at its bound: %.9g %s %.9g",
                               edge->line, edge_k, edge->as[edge_k], ops[edge->ops[edge_k]], edge->bs[edge_k]);
    else if (best && best->compared && best->op < 6 && __builtin_isfinite(best->a) && __builtin_isfinite(best->b))
        len = (size_t)snprintf(out, n, " (let through by the test at line %d, operand %d: %.9g %s %.9g", best->line,
                               best->operand, best->a, ops[best->op], best->b);
    else if (best)
        len = (size_t)snprintf(out, n, " (let through by the test at line %d", best->line);
    else
        return;
    const tile_test *t = edge ? edge : best;
    const char *sep = "; clauses ";
    for (int c = 0; c < TILE_OPERANDS && len < n; c++)
        if ((t->clauses & (1u << c)) && t->ops[c] < 6 && __builtin_isfinite(t->as[c]) &&
            __builtin_isfinite(t->bs[c])) {
            len += (size_t)snprintf(out + len, n - len, "%s%d:%.9g%s%.9g", sep, c, t->as[c], ops[t->ops[c]], t->bs[c]);
            sep = " ";
        }
    /* the thread's other tests that passed this round, each with its
     * clauses: a test that held inside its bound is not the one to blame,
     * and one of these may be the one whose bound let the index out */
    for (int k = 0; k < TILE_TESTS && len < n; k++) {
        const tile_test *o = &tiles.tests[th][k];
        if (o == t || o->line <= 0 || o->line > line || o->round != W->round || !o->result || !o->clauses)
            continue;
        len += (size_t)snprintf(out + len, n - len, "; also line %d:", o->line);
        for (int c = 0; c < TILE_OPERANDS && len < n; c++)
            if ((o->clauses & (1u << c)) && o->ops[c] < 6 && __builtin_isfinite(o->as[c]) &&
                __builtin_isfinite(o->bs[c]))
                len += (size_t)snprintf(out + len, n - len, " %d:%.9g%s%.9g", c, o->as[c], ops[o->ops[c]], o->bs[c]);
    }
    if (len < n)
        snprintf(out + len, n - len, ")");
}

/* The blocks whose tiles are kept: the one right of block 0 and the one
 * below it (a mistake that swaps a row for a column, or x for y, shows
 * there, where block 0 hides it), or block 0 in a grid of one. */
static void tiles_block_begin(const struct launch *L, unsigned long long b)
{
    const struct emu_launch_cfg *c = L->cfg;
    int right = c->grid.x > 1, below = c->grid.y > 1;
    tls.self->tiles_kept = tiles.lines_written < TILE_LINES_PER_RUN &&
                           ((b == 1 && right) || (b == c->grid.x && below) || (b == 0 && !right && !below));
    for (int i = 0; i < tiles.narrays; i++)
        tiles.arrays[i].phases = 0;
    tiles.first_round = tls.self->round + 1; /* run_block counts the round before running it */
    if (tls.self->tiles_kept) { /* no mark of another block's store left over */
        memset(tiles.store_line, 0, sizeof tiles.store_line);
        memset(tiles.global_stores, 0, sizeof tiles.global_stores);
    }
}

/* A kept block's end: its threads' stores into device memory and their
 * tests, for the launch's "block_end" line. The tests are every thread's
 * own from this block's run: the entries an earlier block left in a
 * thread's list are told apart by their round, from before this block's
 * first (the worker's round counter never goes back). */
static void tiles_block_end(struct worker *W)
{
    if (!W->tiles_kept || tiles.nends == TILE_BLOCKS || !check_modes.full)
        return; /* the bounds series records neither every store nor the tests */
    block_end *e = &tiles.ends[tiles.nends];
    e->block = W->rblock;
    e->nthreads = (unsigned)(W->end - W->fibers);
    e->stores = malloc(e->nthreads * sizeof *e->stores);
    e->tests = malloc((size_t)e->nthreads * TILE_TESTS * sizeof *e->tests);
    if (!e->stores || !e->tests) {
        free(e->stores);
        free(e->tests);
        return; /* the check only explains, never decides */
    }
    memcpy(e->stores, tiles.global_stores, e->nthreads * sizeof *e->stores);
    for (unsigned th = 0; th < e->nthreads; th++)
        for (int k = 0; k < TILE_TESTS; k++) {
            tile_test *to = &e->tests[th * TILE_TESTS + k];
            *to = tiles.tests[th][k];
            if (to->round < tiles.first_round)
                to->line = 0;
        }
    tiles.nends++;
}

/* The race check's cell of the granule at a. */
static race_cell *tile_cell(const char *a)
{
    uintptr_t g = (uintptr_t)a;
    return &race_cells(g >> RACE_CHUNK_SHIFT)[(g >> 2) & (RACE_CHUNK_CELLS - 1)];
}

static int tile_writer(tile_snapshot *s, uint32_t pc, int load, int line)
{
    for (int k = 0; k < s->nwriters; k++)
        if (s->writer_pc[k] == pc && s->writer_load[k] == load && s->writer_line[k] == line)
            return k;
    if (s->nwriters == TILE_WRITERS)
        return TILE_WRITERS - 1; /* more lines than that: the last one stands for them */
    s->writer_pc[s->nwriters] = pc;
    s->writer_load[s->nwriters] = (unsigned char)load;
    s->writer_line[s->nwriters] = line;
    return s->nwriters++;
}

#define TILE_NO_SOURCE 4294967295u

/* The byte offset of a in the device allocation it lies in, or
 * TILE_NO_SOURCE. */
static uint32_t tile_source(const char *a)
{
    for (size_t i = 0; i < rt.nallocs; i++)
        if (a >= rt.allocs[i].base && a < rt.allocs[i].base + rt.allocs[i].size &&
            (size_t)(a - rt.allocs[i].base) < TILE_NO_SOURCE)
            return (uint32_t)(a - rt.allocs[i].base);
    return TILE_NO_SOURCE;
}

/* Who stored slot e's bits: the global read its thread made last, when
 * that element still holds them (*source: its offset in its allocation);
 * else the store itself. */
static int tile_storer(tile_snapshot *s, const tile_array *t, size_t e, const race_cell *c, uint32_t bits,
                       unsigned round, uint32_t *source)
{
    uint32_t there;
    *source = TILE_NO_SOURCE;
    if (t->load_round[e] == round && t->load_addr[e] && t->load_pc[e]) {
        memcpy(&there, t->load_addr[e], 4);
        if (there == bits) {
            *source = tile_source(t->load_addr[e]);
            return tile_writer(s, t->load_pc[e], 1, 0);
        }
    }
    return tile_writer(s, c->w.pc, 0, t->load_round[e] == round ? t->store_line[e] : 0);
}

/* One array at the end of a round: the slots this round stored into. */
static void tiles_keep(worker *W, int ai)
{
    tile_array *t = &tiles.arrays[ai];
    uint32_t block = (uint32_t)W->rblock + 1, tag = (uint32_t)W->serial;
    uint32_t *slot = NULL;
    int n = 0;
    tile_snapshot *s = &tiles.snaps[tiles.nsnaps];
    memset(s, 0, sizeof *s);
    uint32_t *unset = NULL;
    int nunset = 0;
    for (size_t e = 0; e < t->count; e++) {
        const char *a = t->base + 4 * e;
        race_cell *c = tile_cell(a);
        uint32_t bits;
        memcpy(&bits, a, 4);
        if (c->tag != tag || c->w.block != block || c->w.round != W->round) {
            /* never stored by this block: still the poison run_block put there */
            int stored = c->tag == tag && c->w.block == block;
            if (!stored && bits == 0xFFFFFFFFu && (unset || (unset = malloc(t->count * sizeof *unset))))
                unset[nunset++] = (uint32_t)e;
            continue;
        }
        if (!slot) {
            slot = malloc(t->count * TILE_FIELDS * sizeof *slot);
            if (!slot) {
                free(unset);
                return; /* no snapshot: the check only explains, never decides */
            }
        }
        uint32_t *f = &slot[TILE_FIELDS * n];
        f[0] = (uint32_t)e;
        f[1] = bits;
        f[2] = (uint32_t)tile_storer(s, t, e, c, bits, W->round, &f[3]);
        f[4] = t->load_round[e] == W->round ? t->store_thread[e] : 0;
        n++;
    }
    if (!n) {
        free(unset);
        return;
    }
    s->unset = unset;
    s->nunset = nunset;
    s->array = ai;
    s->block = W->rblock;
    s->phase = t->phases++;
    s->bfile = W->rfile;
    s->bline = W->rline;
    s->nslots = n;
    s->slot = slot;
    if (s->phase >= TILE_PHASES) {
        free(slot);
        free(unset);
        return;
    }
    /* the round's tests (none kept when there is no memory for them) */
    s->nthreads = (unsigned)(W->end - W->fibers);
    s->tests = malloc((size_t)s->nthreads * TILE_TESTS * sizeof *s->tests);
    for (unsigned th = 0; s->tests && th < s->nthreads; th++)
        for (int k = 0; k < TILE_TESTS; k++) {
            tile_test *to = &s->tests[th * TILE_TESTS + k];
            *to = tiles.tests[th][k];
            if (to->round != W->round)
                to->line = 0;
        }
    tiles.nsnaps++;
}

/* The end of a round in which every thread waits at the same barrier. */
static void tiles_round_end(struct worker *W)
{
    if (!W->tiles_kept)
        return;
    for (int i = 0; i < tiles.narrays && tiles.nsnaps < TILE_SNAPSHOTS; i++)
        tiles_keep(W, i);
}

/* The launch's "tile" lines (docs/emulator.md). */
static void tiles_launch_end(const struct emu_launch_cfg *c)
{
    FILE *f = tiles.nsnaps ? log_open() : NULL;
    for (int i = 0; f && i < tiles.nsnaps && tiles.lines_written < TILE_LINES_PER_RUN; i++, tiles.lines_written++) {
        const tile_snapshot *s = &tiles.snaps[i];
        const tile_array *t = &tiles.arrays[s->array];
        unsigned long long b = s->block;
        fputs("{\"event\":\"tile\",\"kernel\":", f);
        json_str(f, c->kernel);
        fprintf(f, ",\"block\":[%u,%u,%u],\"barrier\":", (unsigned)(b % c->grid.x),
                (unsigned)(b / c->grid.x % c->grid.y), (unsigned)(b / ((unsigned long long)c->grid.x * c->grid.y)));
        char where[600];
        snprintf(where, sizeof where, "%s:%d", s->bfile ? s->bfile : "-", s->bline);
        json_str(f, where);
        fputs(",\"array\":", f);
        json_str(f, t->name);
        if (t->rank == 2)
            fprintf(f, ",\"dims\":[%zu,%zu]", t->d0, t->d1);
        else
            fprintf(f, ",\"dims\":[%zu]", t->d0);
        fprintf(f, ",\"threads\":[%u,%u,%u],\"phase\":%d,\"writers\":[", c->block.x, c->block.y, c->block.z,
                s->phase);
        for (int k = 0; k < s->nwriters; k++) {
            race_where(s->writer_pc[k], where, sizeof where);
            char *colon = strrchr(where, ':');
            if (s->writer_line[k] > 0 && colon) /* the store's own line, in the instruction's file */
                snprintf(colon + 1, sizeof where - (size_t)(colon + 1 - where), "%d", s->writer_line[k]);
            fputs(k ? "," : "", f);
            json_str(f, where);
        }
        fputs("],\"loads\":[", f);
        for (int k = 0; k < s->nwriters; k++)
            fprintf(f, "%s%d", k ? "," : "", s->writer_load[k]);
        fputs("],\"unset\":[", f);
        for (int k = 0; k < s->nunset; k++)
            fprintf(f, "%s%u", k ? "," : "", s->unset[k]);
        fputs("],\"slots\":[", f);
        for (int k = 0; k < s->nslots; k++) {
            const uint32_t *v = &s->slot[TILE_FIELDS * k];
            fprintf(f, "%s%u,%u,%u,%u,%u", k ? "," : "", v[0], v[1], v[2], v[3], v[4]);
        }
        /* thread, line, outcome, operator (-1: no comparison), which operand of
         * the && and || it was, the two values */
        fputs("],\"tests\":[", f);
        int any = 0;
        for (unsigned th = 0; s->tests && th < s->nthreads; th++)
            for (int k = 0; k < TILE_TESTS; k++) {
                const tile_test *t = &s->tests[th * TILE_TESTS + k];
                if (!t->line)
                    continue;
                int both = t->compared && __builtin_isfinite(t->a) && __builtin_isfinite(t->b);
                fprintf(f, "%s%u,%d,%d,%d,%d,%.17g,%.17g", any++ ? "," : "", th, t->line, t->result,
                        both ? t->op : -1, t->operand, both ? t->a : 0.0, both ? t->b : 0.0);
            }
        fputs("]}\n", f);
    }
    if (!f && tiles.nends)
        f = log_open();
    for (int i = 0; f && i < tiles.nends && tiles.lines_written < TILE_LINES_PER_RUN; i++, tiles.lines_written++) {
        const block_end *e = &tiles.ends[i];
        unsigned long long b = e->block;
        fputs("{\"event\":\"block_end\",\"kernel\":", f);
        json_str(f, c->kernel);
        fprintf(f, ",\"block\":[%u,%u,%u],\"threads\":[%u,%u,%u],\"stores\":[", (unsigned)(b % c->grid.x),
                (unsigned)(b / c->grid.x % c->grid.y), (unsigned)(b / ((unsigned long long)c->grid.x * c->grid.y)),
                c->block.x, c->block.y, c->block.z);
        for (unsigned th = 0; th < e->nthreads; th++)
            fprintf(f, "%s%u", th ? "," : "", e->stores[th]);
        fputs("],\"tests\":[", f);
        int any = 0;
        for (unsigned th = 0; th < e->nthreads; th++)
            for (int k = 0; k < TILE_TESTS; k++) {
                const tile_test *t = &e->tests[th * TILE_TESTS + k];
                if (!t->line)
                    continue;
                int both = t->compared && __builtin_isfinite(t->a) && __builtin_isfinite(t->b);
                fprintf(f, "%s%u,%d,%d,%d,%d,%.17g,%.17g", any++ ? "," : "", th, t->line, t->result,
                        both ? t->op : -1, t->operand, both ? t->a : 0.0, both ? t->b : 0.0);
            }
        fputs("]}\n", f);
    }
    if (f)
        fclose(f);
    tiles_launch_begin(); /* frees the snapshots */
}

/* This part's hooks (rt_int.h), set before main(). */
__attribute__((constructor)) static void tiles_hooks(void)
{
    hooks.tiles_launch_begin = tiles_launch_begin;
    hooks.tiles_block_begin = tiles_block_begin;
    hooks.tiles_round_end = tiles_round_end;
    hooks.tiles_block_end = tiles_block_end;
    hooks.tiles_access = tiles_access;
    hooks.tiles_guard_words = tiles_guard_words;
    hooks.tiles_launch_end = tiles_launch_end;
}
