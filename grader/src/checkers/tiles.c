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
            (k % TILE_SLOT_FIELDS == 0 && x >= (double)s->d0 * (double)(s->d1 ? s->d1 : 1)))
            return -1;
        s->slots[k] = (uint32_t)x;
    }
    s->nslots = n / TILE_SLOT_FIELDS;
    return 0;
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
    return 0;
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
    }
}

void tiles_read_emu_log(const char *path, tile_snapshots *t)
{
    emu_log_each(path, "tile", add_snapshot, t);
}

void tiles_free(tile_snapshots *t)
{
    for (int i = 0; i < t->n; i++) {
        free(t->s[i].slots);
        free(t->s[i].unset);
    }
    free(t->s);
    memset(t, 0, sizeof *t);
}

/* The fields of slot k of a snapshot (tiles.h). */
static uint32_t slot_index(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k]; }
static uint32_t slot_bits(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 1]; }
static uint32_t slot_writer(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 2]; }
static uint32_t slot_source(const tile_snapshot *s, int k) { return s->slots[TILE_SLOT_FIELDS * k + 3]; }

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

static int fitting_slots(const tile_frame *f, long phases, const tile_snapshot *s)
{
    int n = 0;
    for (int k = 0; k < s->nslots; k++)
        n += slot_fits(f, phases, slot_index(s, k) / f->T, slot_index(s, k) % f->T, slot_bits(s, k));
    return n;
}

/* The input a snapshot's array holds elements of: the one whose tiles fit
 * the most of its slots, else the one with the most of its values. */
static const tile_spec *input_of(const lab_manifest *m, tile_input *cache, const char *dir, const tile_snapshot *s,
                                 long T, tile_frame *frame)
{
    int best = -1, best_fit = 0, best_values = 0;
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
        if (best < 0 || fit > best_fit || (fit == best_fit && values > best_values)) {
            best = q;
            best_fit = fit;
            best_values = values;
            *frame = f;
        }
    }
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

/* "the __syncthreads() at line 47" */
static char *barrier_words(const tile_snapshot *s, const char *student)
{
    if (student && strcmp(path_base(s->barrier_file), path_base(student)) == 0)
        return xasprintf("the __syncthreads() at line %d", s->barrier_line);
    return xstrdup("the first __syncthreads()");
}

static char *wrong_slot_sentence(const tile_frame *f, const tile_input *in, const tile_snapshot *s, long phases,
                                 int k, const char *student)
{
    uint32_t index = slot_index(s, k);
    long ph = s->phase < phases ? s->phase : 0;
    char *slot = slot_name(s, index), *got = held(f, in, s, ph, k), *extent = tile_extent(f, ph);
    char *want = wanted(f, ph, index);
    int w = (int)slot_writer(s, k);
    char *load = sanitize_quote_at(student, s->writer_file[w], s->writer_line[w]);
    char *barrier = barrier_words(s, student);
    char *text = xasprintf("after %s, %s of block (%ld, %ld) holds %s, but the %s-%ld tile (%s) puts %s there: "
                           "look at the %s at %s",
                           barrier, slot, s->block[0], s->block[1], got, f->q->channel ? "channel" : "phase", ph,
                           extent, want ? want : "another element", s->writer_load[w] ? "load" : "store", load);
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
 * slot no load covers is read as that. The lines that stored the others
 * are where to look (which slots they cover). */
static char *unset_slot_sentence(const tile_frame *f, const tile_snapshot *s, long phases, uint32_t index,
                                 const char *student)
{
    long ph = s->phase < phases ? s->phase : 0;
    char *slot = slot_name(s, index), *extent = tile_extent(f, ph), *want = wanted(f, ph, index);
    char *barrier = barrier_words(s, student);
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
                     tile_frame *f, const tile_spec **q)
{
    long T = tile_side(s);
    *q = T ? input_of(m, cache, dir, s, T, f) : NULL;
    return *q ? phase_count(f) : 0;
}

tiles_verdict tiles_judge(const lab_manifest *m, const tile_snapshots *t, const char *dataset_dir,
                          const char *student_file, int output_nan, char **sentence)
{
    *sentence = NULL;
    if (!m->ntiles || !t->n || !dataset_dir)
        return TILES_UNCHECKED;
    tile_input *cache = xcalloc((size_t)m->ntiles, sizeof *cache);
    int checked = 0, unset = 0;
    /* first a slot that holds a wrong element, in any snapshot */
    for (int n = 0; n < t->n && !*sentence; n++) {
        const tile_snapshot *s = &t->s[n];
        tile_frame f;
        const tile_spec *q;
        long phases = describe(m, cache, dataset_dir, s, &f, &q);
        if (!phases)
            continue;
        checked++;
        unset += s->nunset > 0;
        const tile_input *in = &cache[q - m->tiles];
        for (int k = 0; k < s->nslots && !*sentence; k++)
            if (blamable(in, slot_bits(s, k)) &&
                !slot_fits(&f, phases, slot_index(s, k) / f.T, slot_index(s, k) % f.T, slot_bits(s, k)))
                *sentence = wrong_slot_sentence(&f, in, s, phases, k, student_file);
    }
    if (*sentence) {
        inputs_free(cache, m->ntiles);
        return TILES_WRONG;
    }
    /* then, where the output has NaN, a slot nothing stored */
    for (int n = 0; n < t->n && !*sentence && output_nan && unset; n++) {
        const tile_snapshot *s = &t->s[n];
        tile_frame f;
        const tile_spec *q;
        long phases = describe(m, cache, dataset_dir, s, &f, &q);
        if (phases && s->nunset > 0)
            *sentence = unset_slot_sentence(&f, s, phases, s->unset[0], student_file);
    }
    inputs_free(cache, m->ntiles);
    /* right: every slot checked held what the tiling puts there, and none was left unstored */
    return *sentence ? TILES_UNSET : checked && !unset ? TILES_RIGHT : TILES_UNCHECKED;
}
