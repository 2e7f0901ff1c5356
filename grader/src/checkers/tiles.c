/*
 * tiles.c - see tiles.h.
 */
#define _GNU_SOURCE
#include "tiles.h"
#include "diagnose.h"
#include "emu_log.h"
#include "expr.h"
#include "findings.h"
#include "source.h"
#include "util.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define TILES_MAX_SIDE 128
#define TILES_MAX_PHASES 4096

/* ---- the launch log's "tile" lines ------------------------------------------- */

static long number_at(const cJSON *a, int i)
{
    const cJSON *v = cJSON_GetArrayItem(a, i);
    return cJSON_IsNumber(v) ? (long)v->valuedouble : -1;
}

/* FILE:LINE into file and *line; "" and 0 when it is not one. */
static void split_where(const char *where, char *file, size_t n, int *line)
{
    const char *colon = where ? strrchr(where, ':') : NULL;
    file[0] = '\0';
    *line = 0;
    if (!colon || (size_t)(colon - where) >= n)
        return;
    snprintf(file, n, "%.*s", (int)(colon - where), where);
    *line = atoi(colon + 1);
}

static int parse_slots(const cJSON *slots, tile_snapshot *s)
{
    int n = cJSON_GetArraySize(slots);
    if (n <= 0 || n % TILE_SLOT_FIELDS != 0 || n / TILE_SLOT_FIELDS > s->d0 * (s->d1 ? s->d1 : 1))
        return -1;
    s->slots = xcalloc((size_t)n, sizeof *s->slots);
    int k = 0;
    for (const cJSON *v = slots->child; v; v = v->next, k++) {
        double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
        if (x < 0 || x > 4294967295.0 || (k % TILE_SLOT_FIELDS == 2 && x >= s->nwriters) ||
            (k % TILE_SLOT_FIELDS == 4 && x >= 1024) ||
            (k % TILE_SLOT_FIELDS == 0 && x >= (double)s->d0 * (double)(s->d1 ? s->d1 : 1)))
            return -1;
        s->slots[k] = (uint32_t)x;
    }
    s->nslots = n / TILE_SLOT_FIELDS;
    return 0;
}

/* The "tests" of a snapshot: TILE_TEST_FIELDS numbers each (tiles.h);
 * a malformed one ends the list, which only explains. */
static void parse_tests(const cJSON *tests, long nthreads, tile_test **out, int *ntests)
{
    int n = cJSON_IsArray(tests) ? cJSON_GetArraySize(tests) / TILE_TEST_FIELDS : 0;
    if (n <= 0 || nthreads <= 0 || nthreads > 1024 || n > nthreads * 8)
        return;
    *out = xcalloc((size_t)n, sizeof **out);
    double v[TILE_TEST_FIELDS];
    int k = 0;
    for (const cJSON *x = tests->child; x && *ntests < n; x = x->next) {
        if (!cJSON_IsNumber(x))
            return;
        v[k++] = x->valuedouble;
        if (k < TILE_TEST_FIELDS)
            continue;
        k = 0;
        if (v[0] < 0 || v[0] >= nthreads || v[1] < 1 || v[1] > 1e8 || v[3] < -1 || v[3] > 5 || v[4] < 0 ||
            v[4] > 64)
            return;
        (*out)[(*ntests)++] = (tile_test){ (long)v[0], (int)v[1], v[2] != 0, (int)v[3], (int)v[4], v[5], v[6] };
    }
}

static int parse_snapshot(const cJSON *o, tile_snapshot *s)
{
    memset(s, 0, sizeof *s);
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(o, "kernel");
    const cJSON *block = cJSON_GetObjectItemCaseSensitive(o, "block");
    const cJSON *barrier = cJSON_GetObjectItemCaseSensitive(o, "barrier");
    const cJSON *array = cJSON_GetObjectItemCaseSensitive(o, "array");
    const cJSON *dims = cJSON_GetObjectItemCaseSensitive(o, "dims");
    const cJSON *phase = cJSON_GetObjectItemCaseSensitive(o, "phase");
    const cJSON *writers = cJSON_GetObjectItemCaseSensitive(o, "writers");
    const cJSON *slots = cJSON_GetObjectItemCaseSensitive(o, "slots");
    const cJSON *loads = cJSON_GetObjectItemCaseSensitive(o, "loads");
    const cJSON *unset = cJSON_GetObjectItemCaseSensitive(o, "unset");
    const cJSON *threads = cJSON_GetObjectItemCaseSensitive(o, "threads");
    if (!cJSON_IsString(kernel) || !cJSON_IsArray(block) || cJSON_GetArraySize(block) != 3 ||
        !cJSON_IsString(barrier) || !cJSON_IsString(array) || !cJSON_IsArray(dims) || !cJSON_IsNumber(phase) ||
        !cJSON_IsArray(writers) || !cJSON_IsArray(slots))
        return -1;
    snprintf(s->kernel, sizeof s->kernel, "%s", kernel->valuestring);
    for (int i = 0; i < 3; i++)
        s->block[i] = number_at(block, i);
    split_where(barrier->valuestring, s->barrier_file, sizeof s->barrier_file, &s->barrier_line);
    snprintf(s->array, sizeof s->array, "%s", array->valuestring);
    /* the launch log is the student's process's: the name is quoted in a
     * sentence, so it must be a C name, as the rewriter wrote it */
    if (!s->array[0] || strspn(s->array, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") !=
                            strlen(s->array))
        return -1;
    s->rank = cJSON_GetArraySize(dims);
    s->d0 = number_at(dims, 0);
    s->d1 = s->rank == 2 ? number_at(dims, 1) : 0;
    s->phase = (int)phase->valuedouble;
    for (int i = 0; i < 3 && cJSON_GetArraySize(threads) == 3; i++)
        s->threads[i] = number_at(threads, i) > 0 && number_at(threads, i) <= 1024 ? number_at(threads, i) : 0;
    if (s->rank < 1 || s->rank > 2 || s->d0 < 1 || s->d0 > TILES_MAX_SIDE * TILES_MAX_SIDE || s->d1 < 0 ||
        s->d1 > TILES_MAX_SIDE || s->phase < 0 || s->block[0] < 0 || s->block[1] < 0)
        return -1;
    for (const cJSON *w = writers->child; w && s->nwriters < TILE_WRITERS_MAX; w = w->next) {
        if (!cJSON_IsString(w))
            return -1;
        split_where(w->valuestring, s->writer_file[s->nwriters], sizeof s->writer_file[0],
                    &s->writer_line[s->nwriters]);
        s->writer_load[s->nwriters] = number_at(loads, s->nwriters) == 1;
        s->nwriters++;
    }
    if (parse_slots(slots, s) != 0)
        return -1;
    int n = cJSON_IsArray(unset) ? cJSON_GetArraySize(unset) : 0;
    s->unset = n > 0 ? xcalloc((size_t)n, sizeof *s->unset) : NULL;
    for (const cJSON *v = n > 0 ? unset->child : NULL; v; v = v->next) {
        double x = cJSON_IsNumber(v) ? v->valuedouble : -1;
        if (x < 0 || x >= (double)s->d0 * (double)(s->d1 ? s->d1 : 1))
            return -1;
        s->unset[s->nunset++] = (uint32_t)x;
    }
    parse_tests(cJSON_GetObjectItemCaseSensitive(o, "tests"), s->threads[0] * s->threads[1] * s->threads[2],
                &s->tests, &s->ntests);
    return 0;
}

static int parse_block_end(const cJSON *o, tile_block_end *e)
{
    memset(e, 0, sizeof *e);
    const cJSON *kernel = cJSON_GetObjectItemCaseSensitive(o, "kernel");
    const cJSON *block = cJSON_GetObjectItemCaseSensitive(o, "block");
    const cJSON *threads = cJSON_GetObjectItemCaseSensitive(o, "threads");
    const cJSON *stores = cJSON_GetObjectItemCaseSensitive(o, "stores");
    if (!cJSON_IsString(kernel) || cJSON_GetArraySize(block) != 3 || cJSON_GetArraySize(threads) != 3 ||
        !cJSON_IsArray(stores))
        return -1;
    snprintf(e->kernel, sizeof e->kernel, "%s", kernel->valuestring);
    e->nthreads = 1;
    for (int i = 0; i < 3; i++) {
        e->block[i] = number_at(block, i);
        e->threads[i] = number_at(threads, i);
        if (e->block[i] < 0 || e->threads[i] < 1 || e->threads[i] > 1024)
            return -1;
        e->nthreads *= e->threads[i];
    }
    if (e->nthreads > 1024 || cJSON_GetArraySize(stores) != e->nthreads)
        return -1;
    e->stores = xcalloc((size_t)e->nthreads, sizeof *e->stores);
    int k = 0;
    for (const cJSON *v = stores->child; v; v = v->next, k++) {
        if (!cJSON_IsNumber(v) || v->valuedouble < 0 || v->valuedouble > 4294967295.0)
            return -1;
        e->stores[k] = (unsigned)v->valuedouble;
    }
    parse_tests(cJSON_GetObjectItemCaseSensitive(o, "tests"), e->nthreads, &e->tests, &e->ntests);
    return 0;
}

/* emu_log_each's callback: a "block_end" line into the snapshots (arg). */
static void add_block_end(const cJSON *o, void *arg)
{
    tile_snapshots *t = arg;
    t->ends = xrealloc(t->ends, ((size_t)t->nends + 1) * sizeof *t->ends);
    if (parse_block_end(o, &t->ends[t->nends]) == 0) {
        t->nends++;
    } else {
        free(t->ends[t->nends].stores);
        free(t->ends[t->nends].tests);
    }
}

/* emu_log_each's callback: a "tile" line into the snapshots (arg). */
static void add_snapshot(const cJSON *o, void *arg)
{
    tile_snapshots *t = arg;
    t->s = xrealloc(t->s, ((size_t)t->n + 1) * sizeof *t->s);
    if (parse_snapshot(o, &t->s[t->n]) == 0) {
        t->n++;
    } else {
        free(t->s[t->n].slots);
        free(t->s[t->n].unset);
        free(t->s[t->n].tests);
    }
}

void tiles_read_emu_log(const char *path, tile_snapshots *t)
{
    emu_log_each(path, "tile", add_snapshot, t);
    emu_log_each(path, "block_end", add_block_end, t);
}

void tiles_free(tile_snapshots *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->s[i].slots);
        free(t->s[i].unset);
        free(t->s[i].tests);
    }
    free(t->s);
    for (int i = 0; i < t->nends; i++) {
        free(t->ends[i].stores);
        free(t->ends[i].tests);
    }
    free(t->ends);
    memset(t, 0, sizeof *t);
}

/* The fields of slot k of a snapshot (tiles.h). */
static uint32_t slot_index(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k]; }
static uint32_t slot_bits(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 1]; }
static uint32_t slot_writer(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 2]; }
static uint32_t slot_source(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 3]; }
static uint32_t slot_thread(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 4]; }

/* ---- the inputs ------------------------------------------------------------------ */

/* One input of the dataset, and how many of its elements hold each value
 * (open addressing on the value's bits), to name an element by its value. */
typedef struct {
    int tried, ok;
    gl_matrix m;
    uint32_t *key, *count, *first;
    size_t cap;
} tile_input;

static uint32_t bits_of(float f)
{
    uint32_t b;
    if (f == 0.0f)
        f = 0.0f; /* -0 is 0 */
    memcpy(&b, &f, sizeof b);
    return b;
}

static float float_of(uint32_t b)
{
    float f;
    memcpy(&f, &b, sizeof f);
    return f;
}

static size_t hash_slot(const tile_input *in, uint32_t key)
{
    size_t i = (size_t)((key * 2654435761u) & (uint32_t)(in->cap - 1));
    while (in->count[i] && in->key[i] != key)
        i = (i + 1) & (in->cap - 1);
    return i;
}

static void index_values(tile_input *in)
{
    size_t n = gl_matrix_count(&in->m);
    in->cap = 16;
    while (in->cap < 2 * n)
        in->cap *= 2;
    in->key = xcalloc(in->cap, sizeof *in->key);
    in->count = xcalloc(in->cap, sizeof *in->count);
    in->first = xcalloc(in->cap, sizeof *in->first);
    for (size_t e = 0; e < n; e++) {
        uint32_t b = bits_of(in->m.data[e]);
        size_t i = hash_slot(in, b);
        if (!in->count[i]) {
            in->key[i] = b;
            in->first[i] = (uint32_t)e;
        }
        in->count[i]++;
    }
}

/* How many elements of the input hold the value b; *first the first. */
static uint32_t value_count(const tile_input *in, uint32_t b, uint32_t *first)
{
    size_t i = hash_slot(in, b);
    *first = in->first[i];
    return in->count[i];
}

static tile_input *input_for(const tile_spec *q, tile_input *cache, const lab_manifest *m, const char *dir)
{
    tile_input *in = &cache[q - m->tiles];
    if (!in->tried) {
        in->tried = 1;
        in->ok = diagnose_read_input(dir, q->input, &in->m) == 0 && gl_matrix_count(&in->m) > 0 &&
                 gl_matrix_count(&in->m) < (1u << 28);
        if (in->ok)
            index_values(in);
    }
    return in->ok ? in : NULL;
}

static void inputs_free(tile_input *cache, int n)
{
    for (int i = 0; i < n; i++) {
        if (cache[i].ok)
            gl_matrix_free(&cache[i].m);
        free(cache[i].key);
        free(cache[i].count);
        free(cache[i].first);
    }
    free(cache);
}

/* ---- what the lab's tiling puts in a slot --------------------------------------------- */

/* Where a tile of the snapshot's shape is: the side of the square it is
 * (T x T, or a flat array of T x T), 0 when it is none. */
static long tile_side(const tile_snapshot *s)
{
    if (s->rank == 2)
        return s->d0 == s->d1 ? s->d0 : 0;
    long t = lround(sqrt((double)s->d0));
    return t * t == s->d0 && t <= TILES_MAX_SIDE ? t : 0;
}

typedef struct {
    const tile_spec *q;
    const gl_matrix *in;
    long T, bx, by;
} tile_frame;

typedef struct {
    long row, col, channel;
    int inside;
    float value;
} tile_element;

/* The names a tile's expressions use (lab.json's "tiles"), at (i, j) in phase ph. */
#define TILE_VARS 9
static void frame_vars(const tile_frame *f, long ph, long i, long j, expr_var v[TILE_VARS])
{
    const gl_matrix *m = f->in;
    const expr_var all[TILE_VARS] = { { "bx", f->bx }, { "by", f->by },      { "ph", ph },
                                      { "i", i },      { "j", j },           { "T", f->T },
                                      { "rows", m->rows }, { "cols", m->cols }, { "channels", m->channels } };
    memcpy(v, all, sizeof all);
}

/* The element the lab's tiling puts at (i, j) in phase ph; 0 when an
 * expression does not evaluate. */
static int element_at(const tile_frame *f, long ph, long i, long j, tile_element *e)
{
    const gl_matrix *m = f->in;
    expr_var v[TILE_VARS];
    frame_vars(f, ph, i, j, v);
    char err[128];
    e->channel = 0;
    if (expr_eval(f->q->row, v, TILE_VARS, &e->row, err, sizeof err) != 0 ||
        expr_eval(f->q->col, v, TILE_VARS, &e->col, err, sizeof err) != 0 ||
        (f->q->channel && expr_eval(f->q->channel, v, TILE_VARS, &e->channel, err, sizeof err) != 0))
        return 0;
    e->inside = e->row >= 0 && e->row < m->rows && e->col >= 0 && e->col < m->cols && e->channel >= 0 &&
                e->channel < m->channels;
    e->value = e->inside ? m->data[((size_t)e->row * (size_t)m->cols + (size_t)e->col) * (size_t)m->channels +
                                   (size_t)e->channel]
                         : 0.0f;
    return 1;
}

/* How many tiles of the input a block loads (the tiles' "phases"); 0 when
 * the expression does not evaluate to 1 ... TILES_MAX_PHASES. */
static long phase_count(const tile_frame *f)
{
    expr_var v[TILE_VARS];
    frame_vars(f, 0, 0, 0, v);
    long p;
    char err[128];
    if (expr_eval(f->q->phases, v, TILE_VARS, &p, err, sizeof err) != 0)
        return 0;
    return p > 0 && p <= TILES_MAX_PHASES ? p : 0;
}

/* Whether the slot at (i, j) holds what the lab's tiling puts at (i, j) or
 * at (j, i) (a tile stored transposed and read so) in some phase. */
static int slot_fits(const tile_frame *f, long phases, long i, long j, uint32_t bits)
{
    float got = float_of(bits);
    tile_element e;
    for (long ph = 0; ph < phases; ph++)
        for (int t = 0; t < 2; t++)
            if (element_at(f, ph, t ? j : i, t ? i : j, &e) && e.value == got)
                return 1;
    return 0;
}

/* Whether it holds what the tiling puts at (i, j) (transposed: at (j, i);
 * -1: either) in phase ph (-1: any of the phases). */
static int slot_fits_as(const tile_frame *f, long phases, long ph, int transposed, long i, long j, uint32_t bits)
{
    float got = float_of(bits);
    tile_element e;
    for (long p = ph < 0 ? 0 : ph; p < (ph < 0 ? phases : ph + 1); p++)
        for (int t = transposed == 1; t < (transposed == 0 ? 1 : 2); t++)
            if (element_at(f, p, t ? j : i, t ? i : j, &e) && e.value == got)
                return 1;
    return 0;
}

/* How a snapshot's slots must fit: one way round for the whole tile (a
 * tile stored transposed is read so; a slot that fits only the other way,
 * a 0 where the transposed place is a ghost cell, is not right), the way
 * most of them fit; and its own phase (the block's rounds that stored into
 * the array, counted), when most of its slots hold that phase's elements:
 * a slot that holds another phase's element there (channel 0's pixel in
 * the channel-1 tile) is wrong. A kernel whose rounds do not follow the
 * phases (a round that only clears the tile) is judged against every
 * phase. */
typedef struct {
    long phase;     /* -1: any */
    int transposed; /* 0, 1 */
} tile_fit;

static tile_fit snapshot_fit(const tile_frame *f, long phases, const tile_snapshot *s)
{
    int way[2] = { 0, 0 }, own = 0;
    for (int k = 0; k < s->nslots; k++)
        for (int t = 0; t < 2; t++)
            way[t] += slot_fits_as(f, phases, -1, t, slot_index(s, k) / f->T, slot_index(s, k) % f->T,
                                   slot_bits(s, k));
    tile_fit fit = { -1, way[1] > way[0] };
    for (int k = 0; phases > 1 && s->phase < phases && k < s->nslots; k++)
        own += slot_fits_as(f, phases, s->phase, fit.transposed, slot_index(s, k) / f->T, slot_index(s, k) % f->T,
                            slot_bits(s, k));
    if (2 * own > s->nslots)
        fit.phase = s->phase;
    return fit;
}

static int fitting_slots(const tile_frame *f, long phases, const tile_snapshot *s)
{
    int n = 0;
    for (int k = 0; k < s->nslots; k++)
        n += slot_fits(f, phases, slot_index(s, k) / f->T, slot_index(s, k) % f->T, slot_bits(s, k));
    return n;
}

/* The input a snapshot's array holds elements of: the one whose tiles fit
 * the most of its slots, else the one with the most of its values. */
/* Whether a part of the array's name (split at underscores and where a
 * capital follows a small letter: `ds_N`, `tileN`) is the input's name
 * (`N`), case aside: the tie-break of input_of where the slots say
 * nothing (a tile of zeros). */
struct name_match {
    const char *want;
    int found;
};

static void match_part(const char *p, size_t n, void *arg)
{
    struct name_match *m = arg;
    m->found |= strlen(m->want) == n && strncasecmp(p, m->want, n) == 0;
}

static int array_named_for(const char *array, const char *input)
{
    struct name_match m = { input, 0 };
    source_identifier_parts(array, strlen(array), match_part, &m);
    return m.found;
}

static const tile_spec *input_of(const lab_manifest *m, tile_input *cache, const char *dir, const tile_snapshot *s,
                                 long T, tile_frame *frame, int *score)
{
    int best = -1, best_fit = 0, best_values = 0, best_named = 0;
    for (int q = 0; q < m->ntiles; q++) {
        tile_input *in = input_for(&m->tiles[q], cache, m, dir);
        if (!in)
            continue;
        tile_frame f = { &m->tiles[q], &in->m, T, s->block[0], s->block[1] };
        long phases = phase_count(&f);
        if (!phases)
            continue;
        int fit = fitting_slots(&f, phases, s), values = 0;
        uint32_t first;
        for (int k = 0; k < s->nslots; k++)
            values += slot_bits(s, k) != 0 && value_count(in, slot_bits(s, k), &first) > 0;
        int named = array_named_for(s->array, m->tiles[q].name);
        if (best < 0 || fit > best_fit || (fit == best_fit && values > best_values) ||
            (fit == best_fit && values == best_values && named > best_named)) {
            best = q;
            best_fit = fit;
            best_values = values;
            best_named = named;
            *frame = f;
        }
    }
    *score = best_values;
    /* an array none of whose values is an input's (sums, say) is no tile */
    return best >= 0 && (best_fit > 0 || best_values * 2 >= s->nslots) ? &m->tiles[best] : NULL;
}

/* ---- the sentence ----------------------------------------------------------------- */

static char *element_name(const tile_frame *f, long row, long col, long channel)
{
    if (!f->q->channel)
        return xasprintf("%s(%ld, %ld)", f->q->name, row, col);
    if (f->in->channels == 1)
        return xasprintf("%s's pixel (%ld, %ld)", f->q->name, row, col);
    return xasprintf("%s's pixel (%ld, %ld) of channel %ld", f->q->name, row, col, channel);
}

/* The shift of the whole tile (in the lab's layout or transposed, from
 * any channel) that explains the most of the snapshot's slots: *hits of
 * them, from the elements the lab's tiling puts there in phase ph. */
typedef struct {
    long hits, dy, dx, channel;
    int transposed;
} tile_shift;

static void best_shift(const tile_frame *f, const tile_snapshot *s, long ph, tile_shift *best)
{
    const gl_matrix *m = f->in;
    long T = f->T, n = s->nslots;
    long *er = xcalloc((size_t)(2 * n), sizeof *er), *ec = xcalloc((size_t)(2 * n), sizeof *ec);
    memset(best, 0, sizeof *best);
    for (int t = 0; t < 2; t++)
        for (long q = 0; q < n; q++) {
            long i = slot_index(s, q) / T, j = slot_index(s, q) % T;
            tile_element e;
            if (!element_at(f, ph, t ? j : i, t ? i : j, &e))
                goto done;
            er[t * n + q] = e.row;
            ec[t * n + q] = e.col;
        }
    for (int t = 0; t < 2; t++)
        for (long ch = 0; ch < m->channels; ch++)
            for (long dy = -2 * T; dy <= 2 * T; dy++)
                for (long dx = -2 * T; dx <= 2 * T; dx++) {
                    long hits = 0;
                    for (long q = 0; q < n && hits + (n - q) > best->hits; q++) {
                        long r = er[t * n + q] + dy, c = ec[t * n + q] + dx;
                        int inside = r >= 0 && r < m->rows && c >= 0 && c < m->cols;
                        float v = inside ? m->data[((size_t)r * (size_t)m->cols + (size_t)c) * (size_t)m->channels +
                                                   (size_t)ch]
                                         : 0.0f;
                        hits += v == float_of(slot_bits(s, q));
                    }
                    if (hits > best->hits)
                        *best = (tile_shift){ hits, dy, dx, ch, t };
                }
done:
    free(er);
    free(ec);
}

/* The input's element e, by name. */
static char *element_named(const tile_frame *f, size_t e)
{
    const gl_matrix *m = f->in;
    long c = (long)(e % (size_t)m->channels), p = (long)(e / (size_t)m->channels);
    return element_name(f, p / m->cols, p % m->cols, c);
}

/* What slot k holds: the element its load read, when the offset it read
 * at is that element's in the input's own layout and holds its value (a
 * buffer copied as it is; a pitched one is not); else the element of the
 * input with its value, when one alone has it; else the element a shift
 * of the whole tile puts there, when one explains nine in ten of its slots
 * (an 8-bit image repeats its values); else the value. */
static char *held(const tile_frame *f, const tile_input *in, const tile_snapshot *s, long ph, int k)
{
    uint32_t bits = slot_bits(s, k), first, source = slot_source(s, k);
    const gl_matrix *m = f->in;
    if (float_of(bits) == 0.0f)
        return xstrdup("0"); /* a ghost's 0 is no element, whatever else holds 0 */
    if (source != TILE_NO_SOURCE && source % 4 == 0 && source / 4 < gl_matrix_count(m) &&
        m->data[source / 4] == float_of(bits))
        return element_named(f, source / 4);
    if (value_count(in, bits, &first) == 1)
        return element_named(f, first);
    tile_shift b;
    best_shift(f, s, ph, &b);
    long i = slot_index(s, k) / f->T, j = slot_index(s, k) % f->T;
    tile_element e;
    if (b.hits * 10 >= (long)s->nslots * 9 && element_at(f, ph, b.transposed ? j : i, b.transposed ? i : j, &e)) {
        long r = e.row + b.dy, c = e.col + b.dx;
        if (r >= 0 && r < m->rows && c >= 0 && c < m->cols)
            return element_name(f, r, c, b.channel);
    }
    return xasprintf("%g", (double)float_of(bits));
}

/* "ds_N[0][1]" */
static char *slot_name(const tile_snapshot *s, uint32_t index)
{
    if (s->rank == 2)
        return xasprintf("%s[%ld][%ld]", s->array, (long)index / s->d1, (long)index % s->d1);
    return xasprintf("%s[%u]", s->array, index);
}

/* "rows 0 to 15, columns 16 to 31 of N" (of channel k) for the tile of phase ph. */
static char *tile_extent(const tile_frame *f, long ph)
{
    long r0 = 0, r1 = 0, c0 = 0, c1 = 0, ch = 0;
    int any = 0;
    for (long i = 0; i < f->T; i++)
        for (long j = 0; j < f->T; j++) {
            tile_element e;
            if (!element_at(f, ph, i, j, &e))
                continue;
            if (!any || e.row < r0)
                r0 = e.row;
            if (!any || e.row > r1)
                r1 = e.row;
            if (!any || e.col < c0)
                c0 = e.col;
            if (!any || e.col > c1)
                c1 = e.col;
            ch = e.channel;
            any = 1;
        }
    if (f->q->channel && f->in->channels > 1)
        return xasprintf("rows %ld to %ld, columns %ld to %ld of channel %ld of %s", r0, r1, c0, c1, ch, f->q->name);
    return xasprintf("rows %ld to %ld, columns %ld to %ld of %s", r0, r1, c0, c1, f->q->name);
}

/* What the lab's tiling puts at the slot with this index in phase ph:
 * "N(0, 16)", or "0 (the image's pixel (-2, 14) lies outside the image)";
 * NULL when an expression does not evaluate. */
static char *wanted(const tile_frame *f, long ph, uint32_t index)
{
    tile_element e;
    if (!element_at(f, ph, index / f->T, index % f->T, &e))
        return NULL;
    char *name = element_name(f, e.row, e.col, e.channel);
    char *want = e.inside ? xstrdup(name) : xasprintf("0 (%s lies outside %s)", name, f->q->name);
    free(name);
    return want;
}

/* Whether the tile puts 0 at every one of the n slots idx (each one's
 * element lies outside the array: padding, which an else stores) */
static int all_padding(const tile_frame *f, const tile_snapshot *s, long phases, const uint32_t *idx, int n)
{
    long ph = s->phase < phases ? s->phase : 0;
    for (int i = 0; i < n; i++) {
        tile_element e;
        if (!element_at(f, ph, idx[i] / f->T, idx[i] % f->T, &e) || e.inside)
            return 0;
    }
    return n > 0;
}

/* "the __syncthreads() at line 47" */
static char *barrier_words(const tile_snapshot *s, const char *student)
{
    if (student && strcmp(path_base(s->barrier_file), path_base(student)) == 0)
        return xasprintf("the __syncthreads() at line %d", s->barrier_line);
    return xstrdup("the first __syncthreads()");
}

/* ---- the tests that decided: which way each thread's conditions went ------ */

/* The snapshot's tests, found by thread: tests[first[th] ... first[th + 1]). */
typedef struct {
    const tile_snapshot *s;
    long nthreads;
    int *first;
} test_index;

static int index_tests(const tile_snapshot *s, test_index *x)
{
    x->s = s;
    x->nthreads = s->threads[0] * s->threads[1] * s->threads[2];
    x->first = NULL;
    if (!s->ntests || x->nthreads <= 0 || x->nthreads > 1024)
        return -1;
    x->first = xcalloc((size_t)x->nthreads + 1, sizeof *x->first);
    for (int k = 0; k < s->ntests; k++)
        x->first[s->tests[k].thread + 1]++;
    for (long th = 0; th < x->nthreads; th++)
        x->first[th + 1] += x->first[th];
    /* the emulator writes them thread by thread; any other order is no account */
    for (int k = 1; k < s->ntests; k++)
        if (s->tests[k].thread < s->tests[k - 1].thread) {
            free(x->first);
            x->first = NULL;
            return -1;
        }
    return 0;
}

static const tile_test *test_at(const test_index *x, long th, int line)
{
    for (int k = x->first[th]; k < x->first[th + 1]; k++)
        if (x->s->tests[k].line == line)
            return &x->s->tests[k];
    return NULL;
}

/* The test that sent thread th another way than every thread of others:
 * of the tests it made up to line `upto` (the store's), the last whose
 * outcome for th differs from the outcome of each of others that made it
 * (at least one did; their tests in y, the same round's or another's).
 * NULL when none does. */
static const tile_test *deciding_test_in(const test_index *x, long th, int upto, const test_index *y,
                                         const unsigned char *others)
{
    const tile_test *best = NULL;
    for (int k = x->first[th]; k < x->first[th + 1]; k++) {
        const tile_test *t = &x->s->tests[k];
        if (t->line > upto || (best && t->line <= best->line))
            continue;
        int seen = 0, same = 0;
        for (long o = 0; o < y->nthreads && !same; o++) {
            const tile_test *u = others[o] && (o != th || y != x) ? test_at(y, o, t->line) : NULL;
            seen += u != NULL;
            same = u && u->result == t->result;
        }
        if (seen && !same)
            best = t;
    }
    return best;
}

static const tile_test *deciding_test(const test_index *x, long th, int upto, const unsigned char *others)
{
    return deciding_test_in(x, th, upto, x, others);
}

/* "(15, 3)": thread th of the block, as threadIdx. */
static char *thread_name(const tile_snapshot *s, long th)
{
    long x = s->threads[0] ? s->threads[0] : 1, y = s->threads[1] ? s->threads[1] : 1;
    if (s->threads[2] > 1)
        return xasprintf("(%ld, %ld, %ld)", th % x, th / x % y, th / (x * y));
    return xasprintf("(%ld, %ld)", th % x, th / x % y);
}

static const char *op_text(int op)
{
    static const char *const ops[] = { "<", "<=", ">", ">=", "==", "!=" };
    return op >= 0 && op <= 5 ? ops[op] : NULL;
}

/* "destY 16 to 19, against 16": what a test's deciding comparison compared
 * across tests[0 .. n); "" when it kept no values. */
static char *compared_words(const tile_test *const *t, int n, const char *student)
{
    if (n <= 0 || !op_text(t[0]->op))
        return xstrdup("");
    double lo = t[0]->a, hi = t[0]->a, b = t[0]->b;
    int one_bound = 1;
    for (int i = 1; i < n; i++) {
        if (t[i]->op != t[0]->op || t[i]->operand != t[0]->operand)
            continue; /* another comparison of the condition decided for it: the first one's values */
        lo = t[i]->a < lo ? t[i]->a : lo;
        hi = t[i]->a > hi ? t[i]->a : hi;
        one_bound = one_bound && t[i]->b == b;
    }
    char name[48];
    if (!student || source_compared_operand(student, t[0]->line, t[0]->operand, op_text(t[0]->op), name,
                                            sizeof name) != 0)
        snprintf(name, sizeof name, "the left side");
    char *range = lo == hi ? xasprintf("%s = %g", name, lo) : xasprintf("%s %g to %g", name, lo, hi);
    char *words = one_bound ? xasprintf("%s, against %g", range, b) : xasprintf("%s", range);
    free(range);
    return words;
}

/* Tile rows first to last of the snapshot's array, when the slots
 * idx[0 .. n) are exactly those rows; else the first and last slot. */
static char *slots_words(const tile_snapshot *s, long T, const uint32_t *idx, int n)
{
    long width = s->rank == 2 ? s->d1 : T;
    long r0 = idx[0] / width, r1 = idx[n - 1] / width;
    int rows = width > 0 && idx[0] % width == 0 && (idx[n - 1] + 1) % width == 0 &&
               (long)n == (r1 - r0 + 1) * width;
    for (int i = 1; rows && i < n; i++)
        rows = idx[i] == idx[i - 1] + 1;
    if (rows && r0 == r1)
        return xasprintf("row %ld of %s", r0, s->array);
    if (rows)
        return xasprintf("rows %ld to %ld of %s", r0, r1, s->array);
    char *a = slot_name(s, idx[0]), *b = slot_name(s, idx[n - 1]);
    char *w = n == 1 ? xasprintf("%s", a) : xasprintf("%d slots of %s, %s to %s", n, s->array, a, b);
    free(a);
    free(b);
    return w;
}

/* " (the phase-0 tile (rows 0 to 15, columns 0 to 15 of M) puts 0 (M(0, 1)
 * lies outside M) at ds_M[0][1])": what belongs in the first slot named. */
static char *wanted_words(const tile_frame *f, const tile_snapshot *s, long phases, uint32_t index)
{
    long ph = s->phase < phases ? s->phase : 0;
    char *want = wanted(f, ph, index);
    if (!want)
        return xstrdup("");
    char *extent = tile_extent(f, ph), *slot = slot_name(s, index);
    char *w = xasprintf(" (the %s-%ld tile (%s) puts %s at %s)", f->q->channel ? "channel" : "phase", ph, extent,
                        want, slot);
    free(extent);
    free(slot);
    free(want);
    return w;
}

/* The shape of the snapshot's array: "20 x 20" or "400". */
static char *shape_words(const tile_snapshot *s)
{
    return s->rank == 2 ? xasprintf("%ld x %ld", s->d0, s->d1) : xasprintf("%ld", s->d0);
}

/* The writer w's index as a function of the thread: slot = a*tx + b*ty + c
 * over every slot w stored; 0 when the slots it stored fit one. */
static int writer_index(const tile_snapshot *s, int w, long *a, long *b, long *c)
{
    long X = s->threads[0], n = 0, p[3] = { -1, -1, -1 }; /* slots: the first, one in another column, another row */
    int have_a = 0, have_b = 0;
    for (int k = 0; k < s->nslots; k++) {
        if ((int)slot_writer(s, k) != w)
            continue;
        n++;
        long th = slot_thread(s, k);
        if (p[0] < 0)
            p[0] = k;
        long t0 = slot_thread(s, (int)p[0]), x0 = t0 % X, y0 = t0 / X;
        if (!have_a && th / X == y0 && th % X != x0) {
            long d = (long)slot_index(s, k) - (long)slot_index(s, (int)p[0]);
            if (d % (th % X - x0) != 0)
                return -1;
            *a = d / (th % X - x0);
            have_a = 1;
        }
        if (!have_b && th % X == x0 && th / X != y0) {
            long d = (long)slot_index(s, k) - (long)slot_index(s, (int)p[0]);
            if (d % (th / X - y0) != 0)
                return -1;
            *b = d / (th / X - y0);
            have_b = 1;
        }
    }
    if (n < 1)
        return -1;
    long t0 = slot_thread(s, (int)p[0]);
    if ((!have_a && X > 1) || (!have_b && s->threads[1] > 1)) {
        /* too few stores to show it (one thread stored, say): the index a
         * tile's loads use, the thread's own place in the tile, where the
         * stores there are fit it */
        long width = s->rank == 2 ? s->d1 : tile_side(s);
        if (width < X)
            return -1;
        *a = 1;
        *b = width;
    } else {
        *a = have_a ? *a : 0;
        *b = have_b ? *b : 0;
    }
    *c = (long)slot_index(s, (int)p[0]) - *a * (t0 % X) - *b * (t0 / X);
    for (int k = 0; k < s->nslots; k++) {
        long th = slot_thread(s, k);
        if ((int)slot_writer(s, k) == w && (long)slot_index(s, k) != *a * (th % X) + *b * (th / X) + *c)
            return -1;
    }
    return 0;
}

/* Slots no thread stored, explained by a test: the writer whose index, as
 * its stores show it (writer_index), would have put them there from
 * threads that did not store, and the test those threads' outcomes differ
 * at from every thread that did. NULL when no writer and test explain the
 * first unset slot. */
/* Where the threads that should have stored into s went instead: a store
 * by thread th into another array of the same block and round, at a line
 * after the test at `test` (the branch its outcome chose), other than
 * `writer` (s's own store); 0 when none. *array: that array's name. */
static int store_elsewhere(const tile_snapshots *all, const tile_snapshot *s, long th, int test, int writer,
                           const char **array)
{
    for (int n = 0; all && n < all->n; n++) {
        const tile_snapshot *o = &all->s[n];
        if (o == s || strcmp(o->array, s->array) == 0 || strcmp(o->kernel, s->kernel) != 0 ||
            o->block[0] != s->block[0] || o->block[1] != s->block[1] || o->barrier_line != s->barrier_line ||
            o->phase != s->phase)
            continue;
        for (int k = 0; k < o->nslots; k++) {
            int w = (int)slot_writer(o, k);
            if ((long)slot_thread(o, k) == th && w >= 0 && w < o->nwriters && o->writer_line[w] > test &&
                o->writer_line[w] != writer && strcmp(path_base(o->writer_file[w]), path_base(s->writer_file[0])) == 0) {
                *array = o->array;
                return o->writer_line[w];
            }
        }
    }
    return 0;
}

static char *unset_by_test(const tile_frame *f, const tile_snapshot *s, long phases, const char *student,
                           const char *barrier, const tile_snapshots *all, int *elsewhere)
{
    test_index x;
    if (s->threads[2] > 1 || index_tests(s, &x) != 0)
        return NULL;
    long X = s->threads[0];
    char *text = NULL;
    unsigned char *stored = xcalloc((size_t)x.nthreads, 1);
    uint32_t *idx = xcalloc((size_t)s->nunset, sizeof *idx);
    long *who = xcalloc((size_t)s->nunset, sizeof *who);
    const tile_test **tests = xcalloc((size_t)s->nunset, sizeof *tests);
    for (int w = 0; w < s->nwriters && !text; w++) {
        long a = 0, b = 0, c = 0;
        if (!student || strcmp(path_base(s->writer_file[w]), path_base(student)) != 0 ||
            writer_index(s, w, &a, &b, &c) != 0)
            continue;
        memset(stored, 0, (size_t)x.nthreads);
        for (int k = 0; k < s->nslots; k++)
            if ((int)slot_writer(s, k) == w)
                stored[slot_thread(s, k)] = 1;
        int n = 0, line = 0;
        for (int u = 0; u < s->nunset; u++) {
            const tile_test *t = NULL;
            long th;
            for (th = 0; th < x.nthreads && !t; th++)
                if (!stored[th] && a * (th % X) + b * (th / X) + c == (long)s->unset[u])
                    t = deciding_test(&x, th, s->writer_line[w], stored);
            if (!t || t->result || (line && t->line != line))
                continue; /* stored by no thread here, or kept by another test */
            line = t->line;
            idx[n] = s->unset[u];
            who[n] = th - 1;
            tests[n++] = t;
        }
        if (!n)
            continue;
        char *what = slots_words(s, f->T, idx, n), *shape = shape_words(s);
        char *test = sanitize_quote_at(student, s->writer_file[w], line);
        char *writer = sanitize_quote_at(student, s->writer_file[w], s->writer_line[w]);
        char *values = compared_words(tests, n, student);
        char *t0 = thread_name(s, who[0]), *t1 = thread_name(s, who[n - 1]);
        char *threads = n == 1 ? xasprintf("thread %s", t0) : xasprintf("threads %s to %s", t0, t1);
        char *want = wanted_words(f, s, phases, idx[0]);
        /* the branch the false test chose stored into another array: the
         * store the slot needed, written to the wrong array (the else of
         * that test: a store after the if, in another statement's else,
         * is no branch of it); or the if has no else at all, and where its
         * test is false nothing is stored */
        const char *other = NULL;
        int there = store_elsewhere(all, s, who[0], line, s->writer_line[w], &other);
        int shape_of_if = source_if_else(student, line, there);
        if (there && shape_of_if != SOURCE_ELSE_HOLDS)
            there = 0;
        char *branch = there ? sanitize_quote_at(student, s->writer_file[w], there) : NULL;
        char *instead = there ? xasprintf(", and where it is false %s take the branch at %s, which stores into %s, "
                                          "not %s: that store belongs to %s",
                                          n == 1 ? "it" : "they", branch, other, s->array, s->array)
                              : xstrdup("");
        int inner = 0, dangling = !there && all_padding(f, s, phases, idx, n)
                                      ? source_dangling_else(student, line, &inner)
                                      : 0;
        char *no_else = dangling > 0
                            ? xasprintf(": the else at line %d is the if's at line %d, the nearest (C gives an "
                                        "else to the nearest if), not the one at line %d, which has none, and %s "
                                        "outside the data, where the tile must hold 0: put braces round the if at "
                                        "line %d, so that the else is the test's at line %d",
                                        dangling, inner, line, n == 1 ? "that slot lies" : "those slots lie", inner,
                                        line)
                        /* the store the test keeps them from is the one that
                         * puts the 0 there (an inner if's else): the test is
                         * wrong, and an else would only hide it where these
                         * slots happen to lie outside the data */
                        : !there && shape_of_if == SOURCE_IF_NO_ELSE && all_padding(f, s, phases, idx, n) &&
                                  !s->writer_load[w]
                            ? xasprintf(": that store is the one that puts the 0 %s, and the test at line %d "
                                        "keeps %s from it: the test is what is wrong (not a missing else): it "
                                        "must let through every thread whose slot lies in the tile",
                                        n == 1 ? "that slot needs" : "those slots need", line,
                                        n == 1 ? "its thread" : "their threads")
                        : !there && shape_of_if == SOURCE_IF_NO_ELSE && all_padding(f, s, phases, idx, n)
                            ? xasprintf(": the if at line %d has no else, and %s outside the data, where the "
                                        "tile must hold 0: give it an else that stores 0 into %s there",
                                        line, n == 1 ? "that slot lies" : "those slots lie", s->array)
                            : xstrdup("");
        *elsewhere = there > 0;
        text = xasprintf("after %s, %s in block (%ld, %ld) %s never stored%s, and the output holds NaN (what the "
                         "emulator's shared memory starts as): the test at %s is false for %s%s%s%s, whose %s at %s "
                         "would store %s by its index%s, so no thread stores %s; %s is %s%s",
                         barrier, what, s->block[0], s->block[1], n == 1 ? "was" : "were", want, test, threads,
                         *values ? " (" : "", values, *values ? ")" : "", s->writer_load[w] ? "load" : "store", writer,
                         n == 1 ? "it" : "them", instead, n == 1 ? "it" : "them", s->array, shape, no_else);
        free(branch);
        free(instead);
        free(no_else);
        free(want);
        free(what);
        free(shape);
        free(test);
        free(writer);
        free(values);
        free(t0);
        free(t1);
        free(threads);
    }
    free(stored);
    free(idx);
    free(who);
    free(tests);
    free(x.first);
    return text;
}

/* Slots no thread stored because no thread is there: a store whose index
 * is the thread's own place in the tile (ty * width + tx), from a block
 * smaller than the tile, leaves the rows or columns past the block's
 * extent to nobody, and the unset slots are exactly those. The block at
 * the launch, or the tile's declared size, does not fit the other. NULL
 * when the stores and the unset slots do not show that. */
static char *unset_by_block(const tile_frame *f, const tile_snapshot *s, long phases, const char *student,
                            const char *barrier)
{
    long X = s->threads[0], Y = s->threads[1] ? s->threads[1] : 1;
    long rows = s->rank == 2 ? s->d0 : 1, width = s->rank == 2 ? s->d1 : s->d0;
    if (s->threads[2] > 1 || (X >= width && Y >= rows) || !student)
        return NULL;
    int own = -1;
    for (int w = 0; w < s->nwriters && own < 0; w++) {
        long a = 0, b = 0, c = 0;
        if (strcmp(path_base(s->writer_file[w]), path_base(student)) == 0 && writer_index(s, w, &a, &b, &c) == 0 &&
            a == 1 && b == width && c == 0)
            own = w;
    }
    if (own < 0)
        return NULL;
    /* every unset slot lies past the block's extent */
    for (int u = 0; u < s->nunset; u++)
        if ((long)s->unset[u] % width < X && (long)s->unset[u] / width < Y)
            return NULL;
    char *what = slots_words(s, f->T, s->unset, s->nunset), *shape = shape_words(s);
    char *want = wanted_words(f, s, phases, s->unset[0]);
    char *writer = sanitize_quote_at(student, s->writer_file[own], s->writer_line[own]);
    char *past = X < width && Y < rows ? xasprintf("rows %ld to %ld and columns %ld to %ld", Y, rows - 1, X, width - 1)
               : X < width             ? xasprintf("columns %ld to %ld", X, width - 1)
                                       : xasprintf("rows %ld to %ld", Y, rows - 1);
    char *text = xasprintf("after %s, %s in block (%ld, %ld) %s never stored%s, and the output holds NaN (what the "
                           "emulator's shared memory starts as): each thread stores the slot at its own place (the "
                           "store at %s), and the block is %ld x %ld threads, so %s of the %s %s have no thread to "
                           "store them: the block and the tile must be the same size: " TILES_BLOCK_WHERE,
                           barrier, what, s->block[0], s->block[1], s->nunset == 1 ? "was" : "were", want, writer, X,
                           Y, past, shape, s->array);
    free(what);
    free(shape);
    free(want);
    free(writer);
    free(past);
    return text;
}

/* Where the value a test compared comes from, with its range across the
 * block where the source shows it (source_eval.c): "; destY is set at line
 * 54 (`...`), from dest at line 53 (`...`), which is 400 to 655 across the
 * block (N_ds holds 400 slots): look at how line 53 places each thread's
 * element"; "" when the source shows no assignment of it. */
static char *origin_words(const tile_snapshot *s, const char *student, const char *header, int test_line,
                          const char *name)
{
    int lines[4];
    char names[4][48];
    int n = source_value_origins(student, test_line, name, lines, names, 4);
    if (n <= 0)
        return xstrdup("");
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < n; i++) {
        char *at = sanitize_quote_at(student, student, lines[i]);
        sb_printf(&sb, i == 0 ? "; %s is set at %s" : ", from %s at %s", names[i], at);
        free(at);
    }
    long lo = 0, hi = 0, slots = s->rank == 2 ? s->d0 * s->d1 : s->d0;
    int known = source_assignment_range(student, header, lines[n - 1], names[n - 1], s->block, s->threads, &lo,
                                        &hi) == 0;
    if (known && lo >= slots)
        sb_printf(&sb, ", which is %ld to %ld across the block, every one past %s's last slot (%ld): look at what "
                  "line %d computes", lo, hi, s->array, slots - 1, lines[n - 1]);
    else if (known)
        sb_printf(&sb, ", which is %ld to %ld across the block: the test is what keeps them out: look at what it "
                  "compares", lo, hi);
    else
        sb_printf(&sb, ": look at what line %d computes, and at what the test compares", lines[n - 1]);
    return sb.buf;
}

/* Slots no thread stored because the test of the if that holds the store
 * meant for them is false for every thread of the block: that store never
 * ran (it is none of the round's writers), whatever its index. Said with
 * the values the test compared and where the compared name comes from.
 * NULL when no such test shows. */
static char *unset_by_closed_test(const tile_frame *f, const tile_snapshot *s, const char *student,
                                  const char *header, const char *barrier)
{
    test_index x;
    if (!student || s->threads[2] > 1 || index_tests(s, &x) != 0)
        return NULL;
    char *text = NULL;
    const tile_test **at = xcalloc((size_t)s->ntests, sizeof *at);
    for (int k = 0; k < s->ntests && !text; k++) {
        int line = s->tests[k].line, first = 1, n = 0, passed = 0;
        for (int j = 0; j < k && first; j++)
            first = s->tests[j].line != line;
        if (!first)
            continue;
        for (int j = 0; j < s->ntests; j++)
            if (s->tests[j].line == line) {
                at[n++] = &s->tests[j];
                passed += s->tests[j].result != 0;
            }
        if (passed || n < x.nthreads)
            continue;
        int store = source_if_guards_store_into(student, line, s->array), ran = 0;
        for (int w = 0; w < s->nwriters; w++)
            ran |= s->writer_line[w] == store && strcmp(path_base(s->writer_file[w]), path_base(student)) == 0;
        if (!store || ran)
            continue;
        char name[48];
        char *origin = op_text(at[0]->op) && source_compared_operand(student, line, at[0]->operand,
                                                                     op_text(at[0]->op), name, sizeof name) == 0
                           ? origin_words(s, student, header, line, name)
                           : xstrdup("");
        char *test = sanitize_quote_at(student, student, line), *st = sanitize_quote_at(student, student, store);
        char *values = compared_words(at, n, student);
        char *what = slots_words(s, f->T, s->unset, s->nunset);
        text = xasprintf("after %s, %s in block (%ld, %ld) %s never stored, and the output holds NaN (what the "
                         "emulator's shared memory starts as): the test at %s is false for every thread of the "
                         "block%s%s%s, so the store into %s at %s under it never runs%s",
                         barrier, what, s->block[0], s->block[1], s->nunset == 1 ? "was" : "were", test,
                         *values ? " (" : "", values, *values ? ")" : "", s->array, st, origin);
        free(origin);
        free(test);
        free(st);
        free(values);
        free(what);
    }
    free(at);
    free(x.first);
    return text;
}

/* Slots no thread stored, where no test explains them: what each store's
 * index covered ("the load at line 45 stored rows 0 to 12 of N_ds"), so
 * that the index that falls short shows. */
static char *unset_by_cover(const tile_frame *f, const tile_snapshot *s, long phases, const char *student,
                            const char *barrier)
{
    strbuf sb;
    sb_init(&sb);
    int lines = 0;
    for (int w = 0; w < s->nwriters; w++) {
        if (!student || strcmp(path_base(s->writer_file[w]), path_base(student)) != 0)
            continue;
        int seen = 0;
        for (int v = 0; v < w; v++)
            seen = seen || s->writer_line[v] == s->writer_line[w];
        if (seen)
            continue;
        long lo = -1, hi = -1, count = 0;
        for (int k = 0; k < s->nslots; k++) {
            int w2 = (int)slot_writer(s, k);
            if (s->writer_line[w2] != s->writer_line[w])
                continue;
            long i = (long)slot_index(s, k);
            lo = lo < 0 || i < lo ? i : lo;
            hi = i > hi ? i : hi;
            count++;
        }
        if (!count)
            continue;
        long width = s->rank == 2 ? s->d1 : f->T;
        char *at = sanitize_quote_at(student, s->writer_file[w], s->writer_line[w]);
        sb_printf(&sb, "%s%s at %s stored %ld slot%s in rows %ld to %ld", lines++ ? "; the " : "the ",
                  s->writer_load[w] ? "load" : "store", at, count, count == 1 ? "" : "s", lo / width, hi / width);
        free(at);
    }
    if (!lines) {
        sb_free(&sb);
        return NULL;
    }
    uint32_t *idx = s->unset;
    char *what = slots_words(s, f->T, idx, s->nunset), *shape = shape_words(s);
    char *want = wanted_words(f, s, phases, idx[0]);
    /* every thread stored the same number of slots, each once, and the
     * array has more: the block has too few threads for the tile, however
     * the stores index it (a tile of TILE_WIDTH + 4 a side, two batches of
     * TILE_WIDTH x TILE_WIDTH threads, with TILE_WIDTH 8) */
    long nthreads = (s->threads[0] ? s->threads[0] : 1) * (s->threads[1] ? s->threads[1] : 1) *
                    (s->threads[2] ? s->threads[2] : 1),
         elements = s->rank == 2 ? s->d0 * s->d1 : s->d0;
    /* (two or more a thread: the batches are there, and still too few;
     * with one, a batch left out is as likely as a small block) */
    int too_few = nthreads > 1 && s->nslots % nthreads == 0 && s->nslots / nthreads >= 2 &&
                  (long)s->nslots + s->nunset == elements;
    /* ... and every store the source writes into the array stored some:
     * none was kept from its slots by its own test or index (a second
     * batch that stores nothing leaves each thread one slot) */
    int store_lines[16], nstores = too_few ? source_store_lines_into(student, s->array, store_lines, 16) : 0;
    for (int i = 0; i < nstores && too_few; i++) {
        int ran = 0;
        for (int w = 0; w < s->nwriters && !ran; w++)
            ran = s->writer_line[w] == store_lines[i] && strcmp(path_base(s->writer_file[w]), path_base(student)) == 0;
        too_few = ran;
    }
    /* ... unless the tile is wider than the block's window: the lab's
     * tiling steps a block's tile by T less its halo (by*(T - 4) for a
     * side T), so a block of B a side reads a tile of B plus that halo;
     * where its threads stored at least that many slots, the declared
     * side, not the block, is too large (`w = TILE_WIDTH + 2 * MASK_WIDTH`) */
    char *wide = NULL;
    if (too_few && s->rank == 2 && s->d0 == s->d1 && s->threads[0] == s->threads[1] && s->threads[0] > 1) {
        tile_frame f0 = *f, f1 = *f;
        f0.by = 0;
        f1.by = 1;
        tile_element e0, e1;
        long halo = element_at(&f0, 0, 0, 0, &e0) && element_at(&f1, 0, 0, 0, &e1) ? f->T - (e1.row - e0.row) : -1;
        long side = s->threads[0], need = side + halo;
        char name[64];
        int size_line = 0, decl = halo > 0 && need < s->d0 && (long)s->nslots >= need * need && s->nwriters > 0
                                      ? source_shared_array_at(student, s->writer_line[0], name, sizeof name, &size_line)
                                      : 0;
        if (decl > 0) {
            char *z = sanitize_quote(student, size_line > 0 ? size_line : decl);
            wide = xasprintf("after %s, %s in block (%ld, %ld) %s never stored%s: %s is declared %ld x %ld, but the "
                             "block's %ld x %ld threads, one output each, read a window of %ld + %ld = %ld a side: the "
                             "tile is wider than its block's window, and the loads, which count its "
                             "slots in rows of %ld, stop short of slots the reads use; declare it %ld a side (its size "
                             "is set at %s)",
                             barrier, what, s->block[0], s->block[1], s->nunset == 1 ? "was" : "were", want, s->array,
                             s->d0, s->d1, side, side, side, halo, need, s->d0, need, z);
            free(z);
        }
    }
    char *text = wide ? wide
               : too_few
                     ? xasprintf("after %s, %s in block (%ld, %ld) %s never stored%s: the block's %ld threads stored "
                                 "%d slots of %s, %ld each, and it has %ld (%s): so few threads cannot fill it, "
                                 "whatever their indices; the block is too small for the tile: " TILES_BLOCK_WHERE,
                                 barrier, what, s->block[0], s->block[1], s->nunset == 1 ? "was" : "were", want,
                                 nthreads, s->nslots, s->array, (long)s->nslots / nthreads, elements, shape)
                     : xasprintf("after %s, %s in block (%ld, %ld) %s never stored%s, and the output holds NaN (what "
                                 "the emulator's shared memory starts as): %s; no store's index reaches %s (%s is "
                                 "%s): look at the index of the store that should reach %s",
                                 barrier, what, s->block[0], s->block[1], s->nunset == 1 ? "was" : "were", want, sb.buf,
                                 s->nunset == 1 ? "it" : "them", s->array, shape, s->nunset == 1 ? "it" : "them");
    free(want);
    sb_free(&sb);
    free(what);
    free(shape);
    return text;
}

/* The threads of snapshot o whose slots hold what belongs there and were
 * stored by another writer than (line, load) (right[], one a thread);
 * how many. */
static int right_threads(const tile_frame *f, long phases, const tile_snapshot *o, int line, int load,
                         unsigned char *right, long nthreads)
{
    int any = 0;
    for (int q = 0; q < o->nslots; q++) {
        uint32_t v = slot_writer(o, q);
        if ((o->writer_line[v] != line || o->writer_load[v] != load) && slot_thread(o, q) < (uint32_t)nthreads &&
            slot_fits(f, phases, slot_index(o, q) / f->T, slot_index(o, q) % f->T, slot_bits(o, q)))
            any += right[slot_thread(o, q)] = 1;
    }
    return any;
}

/* The test whose else holds the store at line `store`, as thread th of x
 * went: the last test it made before that line, when false and the source
 * shows the store in that if's else (a ghost-cell test that sent every
 * thread of a one-pixel image to its 0: no thread took the other branch
 * to tell them apart). NULL when the source does not show it. */
static const tile_test *else_test(const test_index *x, long th, int store, const char *student)
{
    const tile_test *last = NULL;
    for (int k = x->first[th]; k < x->first[th + 1]; k++) {
        const tile_test *t = &x->s->tests[k];
        if (t->line < store && (!last || t->line > last->line))
            last = t;
    }
    return last && !last->result && source_else_holds(student, last->line, store) ? last : NULL;
}

/* The test that sent the thread that stored slot k down the branch it
 * took, against the threads whose slots hold what belongs there and were
 * stored by another writer (in this round, else in another kept round of
 * the same block and array: all may have taken one branch in this one):
 * "the test at line 55 (`...`) was false for thread (15, 3), which stored
 * it (Row = 48, against 48)"; NULL when none differs. */
static char *branch_words(const tile_frame *f, long phases, const tile_snapshot *s, int k, const char *student,
                          const tile_snapshots *all)
{
    test_index x, y = { 0 };
    if (s->threads[2] > 1 || index_tests(s, &x) != 0)
        return NULL;
    unsigned char *right = xcalloc((size_t)x.nthreads, 1);
    uint32_t w = slot_writer(s, k);
    long th = slot_thread(s, k);
    const tile_test *t = NULL;
    if (right_threads(f, phases, s, s->writer_line[w], s->writer_load[w], right, x.nthreads))
        t = deciding_test(&x, th, s->writer_line[w], right);
    for (int n = 0; n < all->n && !t; n++) {
        const tile_snapshot *o = &all->s[n];
        if (o == s || strcmp(o->array, s->array) != 0 || o->block[0] != s->block[0] || o->block[1] != s->block[1] ||
            o->block[2] != s->block[2] || strcmp(o->kernel, s->kernel) != 0 || index_tests(o, &y) != 0)
            continue;
        memset(right, 0, (size_t)x.nthreads);
        if (y.nthreads == x.nthreads && right_threads(f, phases, o, s->writer_line[w], s->writer_load[w], right,
                                                      x.nthreads))
            t = deciding_test_in(&x, th, s->writer_line[w], &y, right);
        free(y.first);
        y.first = NULL;
    }
    if (!t && student && !s->writer_load[w] &&
        strcmp(path_base(s->writer_file[w]), path_base(student)) == 0)
        t = else_test(&x, th, s->writer_line[w], student);
    /* a test the emulator saw at a line of the file that holds no `if`,
     * loop or `?` (a header's min() expanded there, its line a brace) is
     * no test of the student's to name */
    if (t && student && !source_line_has_word(student, t->line, "if") &&
        !source_line_has_word(student, t->line, "while") && !source_line_has_word(student, t->line, "for") &&
        !source_line_has_char(student, t->line, '?'))
        t = NULL;
    char *text = NULL;
    if (t && student) {
        char *test = sanitize_quote_at(student, s->writer_file[w], t->line);
        char *values = compared_words(&t, 1, student);
        char *who = thread_name(s, th);
        char *store = s->writer_line[w] != t->line ? sanitize_quote_at(student, s->writer_file[w], s->writer_line[w])
                                                   : NULL;
        char *at = store ? xasprintf(", through the %s at %s", s->writer_load[w] ? "load" : "store", store) : xstrdup("");
        text = xasprintf("the test at %s was %s for thread %s, which stored it%s%s%s%s", test,
                         t->result ? "true" : "false", who, *values ? " (" : "", values, *values ? ")" : "", at);
        free(store);
        free(at);
        free(test);
        free(values);
        free(who);
    }
    free(right);
    free(x.first);
    return text;
}

/* The element slot q's load read (its source: row, col, channel into
 * *read) and the one the lab's tiling puts at that slot in phase ph (into
 * *want): 1 when both are known (the latter inside the input or not:
 * want->inside says). */
static int slot_read_and_wanted(const tile_frame *f, const tile_snapshot *s, long ph, int q, tile_element *read,
                                tile_element *want)
{
    const gl_matrix *m = f->in;
    uint32_t source = slot_source(s, q), index = slot_index(s, q);
    if (source == TILE_NO_SOURCE || source % 4 != 0 || source / 4 >= gl_matrix_count(m) ||
        !element_at(f, ph, index / f->T, index % f->T, want))
        return 0;
    size_t flat = source / 4, p = flat / (size_t)m->channels;
    read->row = (long)(p / (size_t)m->cols);
    read->col = (long)(p % (size_t)m->cols);
    read->channel = (long)(flat % (size_t)m->channels);
    read->inside = 1;
    read->value = m->data[flat];
    return 1;
}

/* Where slot k's load read an element of the input in the right column
 * and channel and the wrong row (or the reverse), against what the tiling
 * puts there, and the load's row (column) is a local the kernel sets on
 * another line for that read alone (source_load_coordinate): "at row 3,
 * where the tile's is row 2: its row is srcY, set at line 41 (`...`)";
 * else NULL. */
/* What to do at line `at`, which sets name: where another line sets it
 * the same but for one word (the second batch's `srcX` from `destX`), that
 * word; else to look at the line. */
static char *coordinate_fix(const char *student, int at, const char *name)
{
    char from[64], to[64];
    int twin = source_twin_assignment(student, at, name, from, to, sizeof from);
    return twin > 0 ? xasprintf("line %d sets %s the same way but with `%s` where this line has `%s`: write `%s` "
                                "there", twin, name, to, from, to)
                    : xstrdup("look at how that line computes it");
}

static char *coordinate_made(const tile_frame *f, const tile_snapshot *s, long ph, int k, const char *student)
{
    tile_element e, r;
    if (!slot_read_and_wanted(f, s, ph, k, &r, &e))
        return NULL;
    long row = r.row, col = r.col, channel = r.channel;
    int which = channel != e.channel ? -1 : row != e.row && col == e.col ? 0 : row == e.row && col != e.col ? 1 : -1;
    char name[64], init[160];
    int w = (int)slot_writer(s, k);
    int at = which >= 0 && strcmp(path_base(s->writer_file[w]), path_base(student)) == 0
                 ? source_load_coordinate(student, s->writer_line[w], which, name, sizeof name, init, sizeof init)
                 : 0;
    if (at <= 0)
        return NULL;
    char *q = sanitize_quote(student, at), *fix = coordinate_fix(student, at, name);
    char *said = xasprintf("at %s %ld, where the tile's is %s %ld: its %s is %s, set at %s, which gives %s %ld to "
                           "this thread: %s",
                           which ? "column" : "row", which ? col : row, which ? "column" : "row",
                           which ? e.col : e.row, which ? "column" : "row", name, q, which ? "column" : "row",
                           which ? col : row, fix);
    free(fix);
    free(q);
    return said;
}

/* The branch sentence names the value the test compared, "(srcX = 22,
 * against 17)": where that name is the row or the column of a load of
 * the snapshot's, a local set on another line for that read alone
 * (source_load_coordinate), and its value there is not the coordinate
 * of the element the tile wants (want): "srcX, the column of the load at
 * line 40, is set at line 38 (`...`): look at how that line computes it";
 * else NULL (a right value against a wrong bound is the test's mistake). */
/* The name the test compared is one step ahead of the coordinate the
 * tile wants (mCol = 16 where the element is column 0, and `mCol +=
 * TILE_WIDTH;` runs in the loop's body before the test): a running index
 * moved on before this phase's use, in phase 0 too. The step's line and
 * where it belongs; NULL where the source or the values do not show it. */
static char *stepped_early_words(const tile_snapshot *s, const char *branch, const char *student,
                                 const tile_element *want, const char *tested, long value)
{
    int test_line = 0;
    long amount = 0;
    char step[160], who[48] = "";
    if (sscanf(branch, "the test at line %d", &test_line) != 1 || test_line <= 0)
        return NULL;
    int at = source_step_before_use(student, test_line, tested, &amount, step, sizeof step);
    if (at <= 0 || amount == 0)
        return NULL;
    int col = value - amount == want->col && value != want->col, row = value - amount == want->row && value != want->row;
    if (!col && !row)
        return NULL;
    /* which of the load's coordinates the name is, where the guarded load tells */
    int load = source_if_guards_store_into(student, test_line, s->array), which = -1;
    char name[64], init[160];
    for (int c = 0; c < 2 && load > 0 && which < 0; c++)
        if (source_load_coordinate(student, load, c, name, sizeof name, init, sizeof init) > 0 &&
            strcmp(name, tested) == 0)
            which = c;
    if (which < 0)
        which = col && !row ? 1 : row && !col ? 0 : -1;
    const char *p = strstr(branch, " for thread (");
    if (p)
        sscanf(p, " for thread %47[^)])", who);
    const char *coord = which == 1 ? "column" : which == 0 ? "row" : "coordinate";
    return xasprintf("%s is %ld for thread %s) at the test at line %d, %ld more than the %s of the element the tile "
                     "wants there (%ld): line %d (`%s`) moves it on before the test uses it, in every phase, the "
                     "first one's too: step it after the phase's loads, at the end of the loop's body",
                     tested, value, who, test_line, amount, coord, which == 0 ? want->row : want->col, at, step);
}

static char *tested_coordinate_made(const tile_snapshot *s, const char *branch, const char *student,
                                    const tile_element *want)
{
    const char *p = strstr(branch, "which stored it (");
    char tested[64];
    long value = 0;
    if (!p || sscanf(p + strlen("which stored it ("), "%63[A-Za-z0-9_] = %ld", tested, &value) != 2)
        return NULL;
    for (int w = 0; w < s->nwriters; w++) {
        if (!s->writer_load[w] || strcmp(path_base(s->writer_file[w]), path_base(student)) != 0)
            continue;
        for (int which = 0; which < 2; which++) {
            char name[64], init[160];
            int at = source_load_coordinate(student, s->writer_line[w], which, name, sizeof name, init, sizeof init);
            /* a value that is the element's own coordinate was right: the
             * test's bound is what is wrong then (`mCol < j` for k) */
            if (at > 0 && strcmp(name, tested) == 0 && value != (which ? want->col : want->row)) {
                char *q = sanitize_quote(student, at), *fix = coordinate_fix(student, at, name);
                char *said = xasprintf("%s, the %s of the load at line %d, is set at %s: %s", name,
                                       which ? "column" : "row", s->writer_line[w], q, fix);
                free(fix);
                free(q);
                return said;
            }
        }
    }
    return stepped_early_words(s, branch, student, want, tested, value);
}

/* Whether the load that wrote slot k read, in nine in ten or more of the
 * slots it filled in this snapshot (at least four, off the diagonal), the
 * element at the transposed place of the matrix: row c, column r where the
 * tiling puts row r, column c (`N[Col * Width + ph * TILE_WIDTH + ty]`, a
 * row's index where the column's belongs and back). How many it filled
 * into *filled. */
static int load_reads_transposed(const tile_frame *f, const tile_snapshot *s, long ph, int k, long *filled)
{
    uint32_t w = slot_writer(s, k);
    long seen = 0, hits = 0;
    for (int q = 0; q < s->nslots; q++) {
        tile_element e, r;
        if (slot_writer(s, q) != w || !slot_read_and_wanted(f, s, ph, q, &r, &e) || !e.inside || e.row == e.col)
            continue;
        seen++;
        hits += r.row == e.col && r.col == e.row && r.channel == e.channel;
    }
    *filled = seen;
    return seen >= 4 && hits * 10 >= seen * 9;
}

/* Whether the load that wrote slot k read, in nine in ten or more of the
 * slots it filled in this snapshot of phase ph >= 1 (at least four), the
 * element ph * (T - 1) rows (axis 0) or columns (axis 1) before the one
 * the tiling puts there, the other coordinate right: its index moves by
 * one a phase where it should move by a tile (`ph + tx` for `ph *
 * TILE_WIDTH + tx`). The axis into *axis. */
static int load_phase_unscaled(const tile_frame *f, const tile_snapshot *s, long ph, int k, int *axis)
{
    uint32_t w = slot_writer(s, k);
    long seen = 0, hits[2] = { 0, 0 }, step = ph * (f->T - 1);
    if (ph < 1 || f->T < 2)
        return 0;
    for (int q = 0; q < s->nslots; q++) {
        tile_element e, r;
        if (slot_writer(s, q) != w || !slot_read_and_wanted(f, s, ph, q, &r, &e) || !e.inside)
            continue;
        seen++;
        hits[0] += r.row == e.row - step && r.col == e.col;
        hits[1] += r.col == e.col - step && r.row == e.row;
    }
    *axis = hits[1] > hits[0];
    return seen >= 4 && hits[*axis] * 10 >= seen * 9;
}

/* Whether the load that wrote slot k read, in every slot it filled in
 * this snapshot (at least four, over two or more of the tile's rows, axis
 * 0, or columns, axis 1), the same row (column) of the input, the other
 * coordinate right: its index has no term that varies with the tile's row
 * (column). The axis into *axis, that row (column) into *value. */
static int load_axis_constant(const tile_frame *f, const tile_snapshot *s, long ph, int k, int *axis, long *value)
{
    uint32_t w = slot_writer(s, k);
    for (int a = 0; a < 2; a++) {
        long seen = 0, first = 0, lo = 0, hi = 0;
        int same = 1;
        for (int q = 0; q < s->nslots && same; q++) {
            tile_element e, r;
            if (slot_writer(s, q) != w || !slot_read_and_wanted(f, s, ph, q, &r, &e) || !e.inside)
                continue;
            long got = a ? r.col : r.row, want = a ? e.col : e.row;
            same = (a ? r.row == e.row : r.col == e.col) && r.channel == e.channel && (seen == 0 || got == first);
            if (seen++ == 0) {
                first = got;
                lo = hi = want;
            }
            lo = want < lo ? want : lo;
            hi = want > hi ? want : hi;
        }
        if (same && seen >= 4 && hi > lo) {
            *axis = a;
            *value = first;
            return 1;
        }
    }
    return 0;
}

/* A load into a slot the tiling leaves 0 (its element outside the
 * input), by a thread whose test before it compared a name below 0 only
 * from above (`srcX < width`, srcX = -2) and let the load through: the
 * lower bound the test leaves out is the mistake. Its words, or NULL. */
static char *unbounded_below_words(const tile_snapshot *s, int k, const char *student)
{
    test_index x;
    uint32_t w = slot_writer(s, k);
    long th = slot_thread(s, k);
    if (s->threads[2] > 1 || strcmp(path_base(s->writer_file[w]), path_base(student)) != 0 ||
        index_tests(s, &x) != 0)
        return NULL;
    char *text = NULL;
    for (int j = x.first[th]; j < x.first[th + 1] && !text; j++) {
        const tile_test *t = &s->tests[j];
        char left[64], right[64], sibling[160];
        if (!t->result || t->line > s->writer_line[w] || (t->op != 0 && t->op != 1) || t->a >= 0 ||
            !source_line_has_word(student, t->line, "if") ||
            source_compared_sides(student, t->line, t->operand, op_text(t->op), left, right, sizeof left) != 0 ||
            !left[0] || strspn(left, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_") != strlen(left) ||
            source_test_bounds_below(student, t->line, left, sibling, sizeof sibling))
            continue;
        char *test = sanitize_quote_at(student, s->writer_file[w], t->line), *who = thread_name(s, th);
        char *as = sibling[0] ? xasprintf(" (as %s)", sibling) : xstrdup("");
        text = xasprintf("the test at %s bounds %s only from above (`%s %s %s`), and %s is %g for thread %s: nothing "
                         "in it keeps %s from going below 0%s, so the thread loads where a 0 belongs: add `%s >= 0` "
                         "to the test",
                         test, left, left, op_text(t->op), right, left, t->a, who, left, as, left);
        free(as);
        free(test);
        free(who);
    }
    free(x.first);
    return text;
}

static char *wrong_slot_sentence(const tile_frame *f, const tile_input *in, const tile_snapshot *s, long phases,
                                 int k, const char *student, const tile_snapshots *all, int *by_test)
{
    uint32_t index = slot_index(s, k);
    long ph = s->phase < phases ? s->phase : 0;
    char *slot = slot_name(s, index), *got = held(f, in, s, ph, k), *extent = tile_extent(f, ph);
    char *want = wanted(f, ph, index);
    int w = (int)slot_writer(s, k);
    char *load = sanitize_quote_at(student, s->writer_file[w], s->writer_line[w]);
    char *barrier = barrier_words(s, student);
    /* a branch that stored what it did not load (a 0), or a load where
     * the tiling puts a 0: the test that chose the branch is the mistake */
    tile_element e;
    int known = element_at(f, ph, index / f->T, index % f->T, &e), outside = known && !e.inside;
    char *branch = !s->writer_load[w] || outside ? branch_words(f, phases, s, k, student, all) : NULL;
    char *text, *stale = NULL, *made = NULL;
    long filled = 0, constant = 0;
    int axis = 0, if_line = 0;
    *by_test = branch != NULL;
    char *value = branch && known && student ? tested_coordinate_made(s, branch, student, &e) : NULL;
    /* a slot the tiling leaves 0 (outside the input) that holds an input
     * element one coordinate off: the test held for that element, rightly;
     * the coordinate the load was given is what is wrong */
    made = branch && !value && outside && s->writer_load[w] && student ? coordinate_made(f, s, ph, k, student) : NULL;
    /* a store after an if that stored the same element: its else left
     * out, whatever test sent the thread where */
    int empty_else = 0;
    if_line = !s->writer_load[w] && student && strcmp(path_base(s->writer_file[w]), path_base(student)) == 0
                  ? source_store_after_if_of_same_slot(student, s->writer_line[w], &empty_else)
                  : 0;
    char *below = outside && s->writer_load[w] && student ? unbounded_below_words(s, k, student) : NULL;
    if (below) {
        text = xasprintf("%s: after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there",
                         below, barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element");
        *by_test = 1;
        free(below);
    } else if (if_line > 0 && empty_else > 0)
        text = xasprintf("the `else` at line %d ends at its own `;`, an empty statement, so the store at %s is not "
                         "its body: it runs after the if at line %d for every thread and overwrites what the if "
                         "stored; take out the `;` after `else`: after %s, %s of block (%ld, %ld) holds %s, but the "
                         "%s-%ld tile (%s) puts %s there",
                         empty_else, load, if_line, barrier, slot, s->block[0], s->block[1], got,
                         f->q->channel ? "channel" : "phase", ph, extent, want ? want : "another element");
    else if (if_line > 0)
        text = xasprintf("the store at %s follows the if at line %d, which stores the same element, with no `else` "
                         "before it: it overwrites what the if stored, for every thread; write `else` before it: "
                         "after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there",
                         load, if_line, barrier, slot, s->block[0], s->block[1], got,
                         f->q->channel ? "channel" : "phase", ph, extent, want ? want : "another element");
    else if (made)
        text = xasprintf("the load at %s reads it %s; after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile "
                         "(%s) puts %s there, and the test before the load held for the element it read",
                         load, made, barrier, slot, s->block[0], s->block[1], got,
                         f->q->channel ? "channel" : "phase", ph, extent, want ? want : "another element");
    else if (branch && value)
        /* the test compared a coordinate a line of its own made wrong (one
         * that is not the element's, inside the input or outside it, where
         * the tile wants a 0): that line, not the test */
        text = xasprintf("%s: after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: %s, "
                         "so the branch it took stored %s there; %s, so the test was given a wrong value",
                         value, barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", branch, got,
                         outside ? "the element the tile wants there lies outside the input, and the test compared "
                                   "another one's coordinate"
                                 : "that element lies inside the input");
    else if (branch)
        text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: %s, "
                         "so the branch it took stored %s there: look at that test",
                         barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", branch, got);
    else if ((stale = s->writer_load[w] && student &&
                      strcmp(path_base(s->writer_file[w]), path_base(student)) == 0
                          ? source_index_stale(student, s->writer_line[w])
                          : NULL))
        /* the load's index was computed before the names it came from changed */
        text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: "
                         "the load at %s %s",
                         barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", load, stale);
    else if ((made = s->writer_load[w] && student ? coordinate_made(f, s, ph, k, student) : NULL))
        /* the load read the wrong row (or column), which a local of the
         * kernel's set on another line gives it; where every slot it filled
         * is a phase's rows (columns) behind, that local moves one a phase */
        text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: the "
                         "load at %s reads it %s%s",
                         barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", load, made,
                         load_phase_unscaled(f, s, ph, k, &axis)
                             ? " (it moves one row or column a phase, where a tile's width belongs: multiply the "
                               "phase by the tile's width there)"
                             : "");
    else if (s->writer_load[w] && load_phase_unscaled(f, s, ph, k, &axis))
        /* each phase's tile one row (column) on from the last, not a tile on */
        text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: "
                         "the load at %s starts the phase-%ld tile %ld %s%s past phase 0's, where %ld belong (a "
                         "tile's width each phase): its index adds the phase where the phase times the tile's "
                         "width belongs; multiply the phase by the tile's width there",
                         barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", load, ph, ph, axis ? "column" : "row",
                         ph == 1 ? "" : "s", ph * f->T);
    else if (s->writer_load[w] && load_reads_transposed(f, s, ph, k, &filled))
        /* every slot holds the element whose row is the column the tiling
         * gives it, and back: the load's index has the two the other way
         * round */
        text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: "
                         "the load at %s reads the matrix transposed (in the %ld slots it filled off the diagonal, "
                         "the element at row c, column r where the one at row r, column c belongs): its index "
                         "takes the row from what gives the column and the column from what gives the row; "
                         "swap the two",
                         barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", load, filled);
    else if (s->writer_load[w] && load_axis_constant(f, s, ph, k, &axis, &constant))
        /* every row (column) of the tile from one row (column) of the input */
        text = xasprintf("the load at %s reads %s %ld of the input into every %s of the tile, where each %s of the "
                         "tile takes its own: its index has no term that varies with the tile's %s: add the "
                         "thread's %s in the tile there; after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld "
                         "tile (%s) puts %s there",
                         load, axis ? "column" : "row", constant, axis ? "column" : "row", axis ? "column" : "row",
                         axis ? "column" : "row", axis ? "column" : "row", barrier, slot, s->block[0], s->block[1], got,
                         f->q->channel ? "channel" : "phase", ph, extent, want ? want : "another element");
    else if ((made = s->writer_load[w] && student && strcmp(path_base(s->writer_file[w]), path_base(student)) == 0
                         ? source_read_planar(student, s->writer_line[w])
                         : NULL))
        /* a planar index into an interleaved image */
        text = xasprintf("%s: after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there",
                         made, barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element");
    else
        text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: "
                         "look at the %s at %s",
                         barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                         extent, want ? want : "another element", s->writer_load[w] ? "load" : "store", load);
    free(made);
    free(value);
    free(stale);
    free(branch);
    free(barrier);
    free(load);
    free(want);
    free(slot);
    free(got);
    free(extent);
    return text;
}

/* A slot no thread of the block stored into before the barrier, in an
 * output with NaN in it: the emulator's shared memory starts as NaN, and a
 * slot no load covers is read as that. The test that kept the threads
 * whose store would have covered it (unset_by_test), else what each store
 * covered (unset_by_cover), else the lines that stored the others. */
static char *unset_slot_sentence(const tile_frame *f, const tile_snapshot *s, long phases, uint32_t index,
                                 const char *student, const char *header, int *by_test, const tile_snapshots *all,
                                 int *elsewhere)
{
    char *barrier = barrier_words(s, student);
    char *told = unset_by_test(f, s, phases, student, barrier, all, elsewhere);
    if (!told)
        told = unset_by_closed_test(f, s, student, header, barrier);
    *by_test = told != NULL;
    if (!told)
        told = unset_by_block(f, s, phases, student, barrier);
    if (!told)
        told = unset_by_cover(f, s, phases, student, barrier);
    if (told) {
        free(barrier);
        return told;
    }
    long ph = s->phase < phases ? s->phase : 0;
    char *slot = slot_name(s, index), *extent = tile_extent(f, ph), *want = wanted(f, ph, index);
    strbuf lines;
    sb_init(&lines);
    int n = 0;
    for (int w = 0; w < s->nwriters; w++) {
        int seen = 0;
        for (int v = 0; v < w; v++)
            seen = seen || s->writer_line[v] == s->writer_line[w];
        if (seen || !student || strcmp(path_base(s->writer_file[w]), path_base(student)) != 0)
            continue;
        int last = 1;
        for (int v = w + 1; v < s->nwriters; v++)
            last = last && (s->writer_line[v] == s->writer_line[w] ||
                            strcmp(path_base(s->writer_file[v]), path_base(student)) != 0);
        sb_printf(&lines, "%s%d", n == 0 ? "" : last ? " and " : ", ", s->writer_line[w]);
        n++;
    }
    char *text = xasprintf("after %s, %s of block (%ld, %ld) was never stored, but the %s-%ld tile (%s) puts %s "
                           "there, and the output holds NaN (what the emulator's shared memory starts as): no store "
                           "before that barrier covers it; look at which slots the stores into %s%s%s cover",
                           barrier, slot, s->block[0], s->block[1], f->q->channel ? "channel" : "phase", ph, extent,
                           want ? want : "an element", s->array, n ? (n > 1 ? " at lines " : " at line ") : "",
                           lines.buf ? lines.buf : "");
    sb_free(&lines);
    free(barrier);
    free(want);
    free(slot);
    free(extent);
    return text;
}

/* A value a load put in a slot: 0, or an element of the input. NaN (memory
 * nothing stored, read from outside what the inputs filled) and values of
 * no input element (sums) are other diagnoses' to explain, not a load's. */
static int blamable(const tile_input *in, uint32_t bits)
{
    uint32_t first;
    return float_of(bits) == 0.0f || (isfinite(float_of(bits)) && value_count(in, bits, &first) > 0);
}

/* The frame and phase count of a snapshot the lab's tiles describe; 0
 * when they describe none (not a square, no input's elements, no phases). */
static long describe(const lab_manifest *m, tile_input *cache, const char *dir, const tile_snapshot *s,
                     tile_frame *f, const tile_spec **q, const tile_snapshots *all)
{
    long T = tile_side(s);
    int score = 0;
    *q = T ? input_of(m, cache, dir, s, T, f, &score) : NULL;
    /* a round whose slots say little (all 0, say) holds the input the
     * same array holds in the block's round that says the most */
    for (int n = 0; T && all && n < all->n; n++) {
        const tile_snapshot *o = &all->s[n];
        tile_frame g;
        int better = 0;
        const tile_spec *p = o != s && strcmp(o->array, s->array) == 0 && strcmp(o->kernel, s->kernel) == 0 &&
                                     o->block[0] == s->block[0] && o->block[1] == s->block[1] &&
                                     tile_side(o) == T
                                 ? input_of(m, cache, dir, o, T, &g, &better)
                                 : NULL;
        if (p && better > score) {
            score = better;
            *q = p;
            *f = (tile_frame){ p, &cache[p - m->tiles].m, T, s->block[0], s->block[1] };
        }
    }
    return *q ? phase_count(f) : 0;
}

/* The phase whose tile fits the most of a snapshot's slots (the way round
 * fit says), and how many it fits into *fits; -1 when none fits one. */
static long best_phase(const tile_frame *f, long phases, const tile_snapshot *s, int transposed, int *fits)
{
    long best = -1;
    *fits = 0;
    for (long p = 0; p < phases; p++) {
        int n = 0;
        for (int k = 0; k < s->nslots; k++)
            n += slot_fits_as(f, phases, p, transposed, slot_index(s, k) / f->T, slot_index(s, k) % f->T,
                              slot_bits(s, k));
        if (n > *fits) {
            *fits = n;
            best = p;
        }
    }
    return best;
}

/* Two rounds of one block's array, of different phases whose tiles differ,
 * that each hold, in nine in ten of their slots or more, the tile of one
 * and the same phase (`N[Row * Width + Col]`: every phase loads the tile
 * of the thread's own place): the load does not move with the phase,
 * though a slot-by-slot check, which a kernel whose rounds do not follow
 * the phases is judged by, finds every slot some phase's. The sentence,
 * or NULL. */
static char *same_tile_sentence(const lab_manifest *m, tile_input *cache, const char *dir, const tile_snapshots *t,
                                const char *student)
{
    for (int a = 0; a < t->n; a++) {
        const tile_snapshot *s = &t->s[a];
        tile_frame f;
        const tile_spec *q;
        long phases = describe(m, cache, dir, s, &f, &q, t);
        if (phases < 2 || s->phase >= phases || s->nunset > 0 || s->nslots < 4)
            continue;
        tile_fit fit = snapshot_fit(&f, phases, s);
        int fa = 0;
        long pa = best_phase(&f, phases, s, fit.transposed, &fa);
        if (pa < 0 || fa * 10 < s->nslots * 9)
            continue;
        for (int b = 0; b < t->n; b++) {
            const tile_snapshot *o = &t->s[b];
            if (o == s || o->phase == s->phase || o->phase >= phases || o->nunset > 0 ||
                strcmp(o->array, s->array) != 0 || strcmp(o->kernel, s->kernel) != 0 ||
                o->block[0] != s->block[0] || o->block[1] != s->block[1] || o->nslots != s->nslots)
                continue;
            int fb = 0;
            long pb = best_phase(&f, phases, o, fit.transposed, &fb);
            tile_element e0, e1;
            if (pb != pa || fb * 10 < o->nslots * 9 || !element_at(&f, s->phase, 0, 0, &e0) ||
                !element_at(&f, o->phase, 0, 0, &e1) || (e0.row == e1.row && e0.col == e1.col))
                continue;
            const tile_snapshot *later = o->phase > s->phase ? o : s, *first = later == o ? s : o;
            long other = later->phase == pa ? first->phase : later->phase;
            int w = (int)slot_writer(later, 0);
            if (!later->writer_load[w] || !student)
                continue;
            char *load = sanitize_quote_at(student, later->writer_file[w], later->writer_line[w]);
            char *extent = tile_extent(&f, pa), *belongs = tile_extent(&f, other);
            char *text = xasprintf("%s of block (%ld, %ld) holds the same elements in phase %d and in phase %d, the "
                                   "phase-%ld tile (%s), where the phase-%ld tile is %s: the load at %s reads the "
                                   "same elements in every phase; its index must move with the phase, a tile's "
                                   "width a phase",
                                   s->array, s->block[0], s->block[1], first->phase, later->phase, pa, extent, other,
                                   belongs, load);
            free(load);
            free(extent);
            free(belongs);
            return text;
        }
    }
    return NULL;
}

tiles_verdict tiles_judge(const lab_manifest *m, const tile_snapshots *t, const char *dataset_dir,
                          const char *student_file, int output_nan, char **sentence, int *by_test)
{
    *sentence = NULL;
    *by_test = 0;
    if (!m->ntiles || !t->n || !dataset_dir)
        return TILES_UNCHECKED;
    tile_input *cache = xcalloc((size_t)m->ntiles, sizeof *cache);
    char *header = xasprintf("%s/lab.h", m->dir);
    int checked = 0, unset = 0;
    /* first a slot that holds a wrong element, in any snapshot */
    for (int n = 0; n < t->n && !*sentence; n++) {
        const tile_snapshot *s = &t->s[n];
        tile_frame f;
        const tile_spec *q;
        long phases = describe(m, cache, dataset_dir, s, &f, &q, t);
        if (!phases)
            continue;
        checked++;
        unset += s->nunset > 0;
        const tile_input *in = &cache[q - m->tiles];
        tile_fit fit = snapshot_fit(&f, phases, s);
        for (int k = 0; k < s->nslots && !*sentence; k++)
            if (blamable(in, slot_bits(s, k)) &&
                !slot_fits_as(&f, phases, fit.phase, fit.transposed, slot_index(s, k) / f.T,
                              slot_index(s, k) % f.T, slot_bits(s, k)))
                *sentence = wrong_slot_sentence(&f, in, s, phases, k, student_file, t, by_test);
    }
    /* then a load that reads the same tile in every phase, which the
     * slots alone do not show */
    if (!*sentence)
        *sentence = same_tile_sentence(m, cache, dataset_dir, t, student_file);
    if (*sentence) {
        inputs_free(cache, m->ntiles);
        free(header);
        return TILES_WRONG;
    }
    /* then, where the output has NaN, a slot nothing stored */
    int elsewhere = 0;
    for (int n = 0; n < t->n && !*sentence && output_nan && unset; n++) {
        const tile_snapshot *s = &t->s[n];
        tile_frame f;
        const tile_spec *q;
        long phases = describe(m, cache, dataset_dir, s, &f, &q, t);
        if (phases && s->nunset > 0)
            *sentence = unset_slot_sentence(&f, s, phases, s->unset[0], student_file, header, by_test, t,
                                            &elsewhere);
    }
    inputs_free(cache, m->ntiles);
    free(header);
    /* its store went to another array: a store of the wrong element, as
     * specific as a slot that holds one */
    if (*sentence && elsewhere)
        return TILES_WRONG;
    /* right: every slot checked held what the tiling puts there, and none was left unstored */
    return *sentence ? TILES_UNSET : checked && !unset ? TILES_RIGHT : TILES_UNCHECKED;
}

int tiles_in_place(const lab_manifest *m, const tile_snapshots *t, const char *dataset_dir)
{
    if (!m->ntiles || !t->n || !dataset_dir)
        return 0;
    tile_input *cache = xcalloc((size_t)m->ntiles, sizeof *cache);
    int checked = 0, moved = 0;
    for (int n = 0; n < t->n && !moved; n++) {
        const tile_snapshot *s = &t->s[n];
        tile_frame f;
        const tile_spec *q;
        long phases = describe(m, cache, dataset_dir, s, &f, &q, t);
        if (!phases || s->nunset > 0)
            continue;
        long ph = s->phase < phases ? s->phase : 0;
        for (int k = 0; k < s->nslots && !moved; k++) {
            tile_element e;
            long i = slot_index(s, k) / f.T, j = slot_index(s, k) % f.T;
            moved = !element_at(&f, ph, i, j, &e) || e.value != float_of(slot_bits(s, k));
        }
        checked++;
    }
    inputs_free(cache, m->ntiles);
    return checked > 0 && !moved;
}
