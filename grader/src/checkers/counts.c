/*
 * counts.c - see counts.h.
 */
#define _GNU_SOURCE
#include "counts.h"
#include "emu_log.h"
#include "json.h"
#include "findings.h"
#include "source.h"
#include "util.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A checker run's log: a line per launch. */

static unsigned long long count_of(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) && v->valuedouble > 0 ? (unsigned long long)v->valuedouble : 0;
}

/* "FILE:LINE" into file and line; 0 when it names no line. */
static int where_line(const cJSON *o, char *file, size_t cap)
{
    const cJSON *where = cJSON_GetObjectItemCaseSensitive(o, "where");
    file[0] = 0;
    if (!cJSON_IsString(where))
        return 0;
    const char *colon = strrchr(where->valuestring, ':');
    if (!colon || atoi(colon + 1) <= 0)
        return 0;
    snprintf(file, cap, "%.*s", (int)(colon - where->valuestring), where->valuestring);
    return atoi(colon + 1);
}

/* The lines that read global memory most, of a launch's "global_load_lines"
 * (largest first), each with the size of the buffer it read. */
static void top_lines(const cJSON *counts, access_counts *c)
{
    const cJSON *lines = cJSON_GetObjectItemCaseSensitive(counts, "global_load_lines"), *l;
    const int cap = (int)(sizeof c->lines / sizeof c->lines[0]);
    c->nlines = 0;
    if (!cJSON_IsArray(lines))
        lines = NULL;
    cJSON_ArrayForEach(l, lines) {
        if (c->nlines == cap)
            break;
        int line = where_line(l, c->lines[c->nlines].file, sizeof c->lines[0].file);
        if (line <= 0)
            continue;
        c->lines[c->nlines].line = line;
        c->lines[c->nlines].loads = count_of(l, "loads");
        c->lines[c->nlines].buffer_bytes = count_of(l, "buffer_bytes");
        c->nlines++;
    }
    c->line_file[0] = 0;
    c->line = 0;
    c->line_loads = 0;
    if (c->nlines > 0) {
        snprintf(c->line_file, sizeof c->line_file, "%s", c->lines[0].file);
        c->line = c->lines[0].line;
        c->line_loads = c->lines[0].loads;
    }
}

/* A launch's "global_load_buffers" added to c's, by buffer size. */
static void add_buffers(const cJSON *counts, access_counts *c)
{
    const cJSON *buffers = cJSON_GetObjectItemCaseSensitive(counts, "global_load_buffers"), *b;
    const int cap = (int)(sizeof c->buffers / sizeof c->buffers[0]);
    if (!cJSON_IsArray(buffers))
        return;
    c->buffers_known = 1;
    cJSON_ArrayForEach(b, buffers) {
        unsigned long long size = count_of(b, "buffer_bytes");
        int k = 0;
        while (k < c->nbuffers && c->buffers[k].buffer_bytes != size)
            k++;
        if (k == cap)
            continue;
        if (k == c->nbuffers)
            c->buffers[c->nbuffers++].buffer_bytes = size;
        c->buffers[k].loads += count_of(b, "loads");
        c->buffers[k].load_bytes += count_of(b, "load_bytes");
    }
}

/* A launch line's three numbers at key ("grid", "block"), 0s where absent. */
static void triple(const cJSON *o, const char *key, unsigned v[3])
{
    if (json_triple(o, key, v) != 0)
        v[0] = v[1] = v[2] = 0;
}

/* One launch line: its counts added; it becomes the launch c describes
 * when it read more global memory than the one before. */
static void add_launch(const cJSON *o, access_counts *c)
{
    const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "counts");
    if (!cJSON_IsObject(k))
        return;
    unsigned grid[3], block[3];
    triple(o, "grid", grid);
    triple(o, "block", block);
    unsigned long long loads = count_of(k, "global_load_bytes");
    if (!c->known || loads > c->kernel_load_bytes) {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(o, "kernel");
        snprintf(c->kernel, sizeof c->kernel, "%s", cJSON_IsString(name) ? name->valuestring : "?");
        memcpy(c->block, block, sizeof c->block);
        c->kernel_load_bytes = loads;
        c->shared_bytes = (long)(count_of(o, "shared_static_bytes") + count_of(o, "shared_dynamic_bytes"));
        top_lines(k, c);
    }
    add_buffers(k, c);
    c->known = 1;
    c->launches++;
    c->threads += (unsigned long long)grid[0] * grid[1] * grid[2] * block[0] * block[1] * block[2];
    c->global_loads += count_of(k, "global_loads");
    c->global_load_bytes += loads;
    c->global_stores += count_of(k, "global_stores");
    c->global_store_bytes += count_of(k, "global_store_bytes");
    c->shared_loads += count_of(k, "shared_loads");
    c->shared_load_bytes += count_of(k, "shared_load_bytes");
    c->shared_stores += count_of(k, "shared_stores");
    c->shared_store_bytes += count_of(k, "shared_store_bytes");
}

/* emu_log_each's callback: a "launch" line into the counts (arg). */
static void add_launch_line(const cJSON *o, void *arg)
{
    add_launch(o, arg);
}

void counts_read_emu_log(const char *path, access_counts *c)
{
    memset(c, 0, sizeof *c);
    emu_log_each(path, "launch", add_launch_line, c);
}

/* ---- what a tiled kernel reads ---------------------------------------------------- */

/* The input elements that tiles of `tile` outputs along a line of n
 * outputs read, each tile its outputs and `halo` more on each side, inside
 * the line: a tile of 1 with halo 0 is one read per output. */
static double line_reads(double n, double tile, double halo)
{
    double sum = 0;
    for (double x0 = 0; x0 < n; x0 += tile) {
        double lo = x0 - halo < 0 ? 0 : x0 - halo, hi = x0 + tile + halo > n ? n : x0 + tile + halo;
        sum += hi - lo;
    }
    return sum;
}

/* A matrix product's reads when each block computes a t x t tile of P and
 * reads each element of its rows of M and columns of N once: M (j x k) once
 * per column of tiles, N (k x l) once per row of tiles. t = 1 is lab 01's
 * kernel: 2 j k l. */
static double matmul_reads(const double d[3], double t)
{
    return ceil(d[2] / t) * d[0] * d[1] + ceil(d[0] / t) * d[1] * d[2];
}

/* The tile of a matmul launch: T x T tiles of M and N in its shared memory
 * (2 T^2 floats), no wider than its block (a block computes one tile of P
 * with one thread an element, or more elements a thread: a register-tiled
 * kernel's tiles are wider than its block, and it reads less than this). */
static int matmul_tile(const access_counts *c)
{
    int t = (int)floor(sqrt((double)c->shared_bytes / sizeof(float) / 2));
    int wide = (int)(c->block[0] > c->block[1] ? c->block[0] : c->block[1]);
    return t < wide ? t : wide;
}

/* The output tile of a convolution launch with a halo of h: blocks the size
 * of the output tile whose shared tile holds the tile and its halo (lab
 * 04), else blocks the size of the input tile (lab 05: the output tile is
 * h smaller on each side), else a square tile from the shared memory alone. */
void counts_image_tile(long shared_bytes, const unsigned block[3], int h, int t[2])
{
    double floats = (double)shared_bytes / sizeof(float);
    int bx = (int)block[0], by = (int)block[1];
    if (floats >= (double)(bx + 2 * h) * (by + 2 * h)) {
        t[0] = bx, t[1] = by;
    } else if (bx > 2 * h && by > 2 * h && floats >= (double)bx * by) {
        t[0] = bx - 2 * h, t[1] = by - 2 * h;
    } else {
        t[0] = t[1] = (int)floor(sqrt(floats)) - 2 * h;
    }
    if (t[0] < 1 || t[1] < 1 || floats < 1)
        t[0] = t[1] = 0;
}

static void image_tile(const access_counts *c, int h, int t[2])
{
    counts_image_tile(c->shared_bytes, c->block, h, t);
}

/* The dataset of s whose counts the report quotes: of those the checkers
 * counted, one that passed before one that did not (a kernel that computes
 * nothing reads nothing), then the one with the most work (where tiling
 * saves the most). */
static int counted_dataset(const lab_manifest *m, const int *index, const submission_result *s, double dims[3])
{
    int best = -1, best_pass = 0;
    double best_work = -1;
    for (int i = 0; i < s->ndatasets; i++) {
        const struct sanitize_result_s *z = s->datasets[i].sanitizer;
        double d[3];
        if (!z || !z->counts.known || manifest_work_dims(m->perf.work, &m->datasets[index[i]], d, NULL) != 0)
            continue;
        int pass = s->datasets[i].status == ST_PASS;
        if (pass > best_pass || (pass == best_pass && d[0] * d[1] * d[2] > best_work)) {
            best_pass = pass;
            best_work = d[0] * d[1] * d[2];
            best = i;
            memcpy(dims, d, sizeof d);
        }
    }
    return best;
}

/* The reads of the data the lab tiles (M and N, the image) only: a buffer
 * smaller than the smallest of them (a mask kept in global memory) is not
 * what the tiles are for, and [constant_memory] judges where the mask
 * lives; its reads go to other_reads, and the line the report names is the
 * one that read a tiled buffer most. Logs without buffers count all. */
static void tiled_reads_only(access_summary *a, const double d[3])
{
    if (!a->c.buffers_known)
        return;
    double smallest = a->matmul ? fmin(d[0] * d[1], d[1] * d[2]) : d[0] * d[1] * d[2];
    unsigned long long bytes = (unsigned long long)(smallest * sizeof(float));
    double tiled = 0, other = 0;
    for (int b = 0; b < a->c.nbuffers; b++) {
        if (a->c.buffers[b].buffer_bytes >= bytes)
            tiled += (double)a->c.buffers[b].load_bytes / sizeof(float);
        else
            other += (double)a->c.buffers[b].load_bytes / sizeof(float);
    }
    a->reads = tiled;
    a->other_reads = other;
    a->c.line = 0;
    a->c.line_file[0] = 0;
    a->c.line_loads = 0;
    for (int k = 0; k < a->c.nlines; k++)
        if (a->c.lines[k].buffer_bytes >= bytes) {
            snprintf(a->c.line_file, sizeof a->c.line_file, "%s", a->c.lines[k].file);
            a->c.line = a->c.lines[k].line;
            a->c.line_loads = a->c.lines[k].loads;
            break;
        }
}

void counts_summarise(const lab_manifest *m, const int *index, submission_result *s)
{
    access_summary *a = &s->reads;
    memset(a, 0, sizeof *a);
    double d[3] = { 0, 0, 0 };
    int i = counted_dataset(m, index, s, d);
    if (i < 0)
        return;
    a->known = 1;
    a->dataset = s->datasets[i].name;
    a->passed = s->datasets[i].status == ST_PASS;
    a->c = s->datasets[i].sanitizer->counts;
    a->reads = (double)a->c.global_load_bytes / sizeof(float);
    a->matmul = m->perf.work == WORK_MATMUL;
    a->channels = a->matmul ? 1 : d[2];
    tiled_reads_only(a, d);
    if (a->matmul) {
        /* j x k times k x l: j k l multiply-adds */
        a->work = d[0] * d[1] * d[2];
        a->naive = matmul_reads(d, 1);
        int t = matmul_tile(&a->c);
        if (t >= 2) {
            a->tile[0] = a->tile[1] = t;
            a->expected = matmul_reads(d, t);
        }
    } else {
        /* height x width x channels output values; the halo from the mask */
        int h = m->errormap_halo;
        a->work = d[0] * d[1] * d[2];
        a->naive = d[2] * line_reads(d[0], 1, h) * line_reads(d[1], 1, h);
        image_tile(&a->c, h, a->tile);
        if (a->tile[0] > 0)
            a->expected = d[2] * line_reads(d[1], a->tile[0], h) * line_reads(d[0], a->tile[1], h);
    }
}

/* 0.125, 2.0, 24.3: three figures below 1, one decimal above */
static char *figure(double v)
{
    return v < 1 ? xasprintf("%.3g", v) : xasprintf("%.1f", v);
}

char *counts_sentence(const access_summary *a)
{
    if (!a->known || a->work <= 0)
        return NULL;
    char *per = figure(a->reads / a->work), *naive = figure(a->naive / a->work);
    const char *unit = a->matmul ? "multiply-add" : "output value";
    char *base = a->matmul ? xasprintf("lab 01's kernel: %s", naive)
                           : xasprintf("without tiles: %s, one per mask tap inside the image", naive);
    double reuse = a->reads > 0 ? a->naive / a->reads : 0;
    char *use = reuse >= 1.5 ? xasprintf("yours reuse each element they read %.1f times", reuse)
                             : xstrdup(a->reads > 0 ? "yours read global memory for every use (no reuse)"
                                                    : "yours read no global memory");
    char *out = xasprintf("%s per %s on %s (%s); %s", per, unit, a->dataset, base, use);
    free(per);
    free(naive);
    free(base);
    free(use);
    return out;
}

int counts_from_record(const cJSON *g, access_summary *a)
{
    memset(a, 0, sizeof *a);
    const cJSON *dataset = cJSON_GetObjectItemCaseSensitive(g, "dataset");
    const cJSON *unit = cJSON_GetObjectItemCaseSensitive(g, "unit");
    const cJSON *work = cJSON_GetObjectItemCaseSensitive(g, "work");
    const cJSON *per = cJSON_GetObjectItemCaseSensitive(g, "per_work");
    const cJSON *untiled = cJSON_GetObjectItemCaseSensitive(g, "untiled_per_work");
    if (!cJSON_IsObject(g) || !cJSON_IsString(dataset) || !cJSON_IsString(unit) || !cJSON_IsNumber(work) ||
        !cJSON_IsNumber(per) || !cJSON_IsNumber(untiled) || work->valuedouble <= 0)
        return -1;
    a->known = 1;
    a->dataset = dataset->valuestring;
    a->matmul = strcmp(unit->valuestring, "multiply-add") == 0;
    a->work = work->valuedouble;
    a->reads = per->valuedouble * a->work;
    a->naive = untiled->valuedouble * a->work;
    return 0;
}

char *counts_figure(const access_summary *a)
{
    if (!a->known || a->work <= 0)
        return NULL;
    char *per = figure(a->reads / a->work);
    char *out = xasprintf("%s per %s", per, a->matmul ? "multiply-add" : "output value");
    free(per);
    return out;
}

/* "16 x 16 tiles (2048 bytes of shared memory, 16 x 16 blocks)" */
static char *tile_words(const access_summary *a)
{
    const unsigned *b = a->c.block;
    char *blk = b[1] > 1 ? xasprintf("%u x %u", b[0], b[1]) : xasprintf("%u", b[0]);
    char *out = xasprintf("%d x %d %s (%ld bytes of shared memory, blocks of %s)", a->tile[0], a->tile[1],
                          a->matmul ? "tiles of M and N" : "output tiles", a->c.shared_bytes, blk);
    free(blk);
    return out;
}

/* "; not counted: ..." for the reads of buffers smaller than the tiled
 * data, or "". */
static char *left_out(const access_summary *a)
{
    if (a->other_reads <= 0)
        return xstrdup("");
    return xasprintf(" (not counted: %.0f reads of a smaller buffer, such as a mask in global memory, which "
                     "[constant_memory] judges)", a->other_reads);
}

/* The failing message: measured and expected, and the line to look at. */
static char *not_reused(const access_summary *a, const char *student)
{
    const char *unit = a->matmul ? "multiply-add" : "output value";
    char *got = figure(a->reads / a->work), *want = figure(a->expected / a->work), *tile = tile_words(a);
    char *where = a->c.line > 0 ? sanitize_quote_at(student, a->c.line_file, a->c.line) : NULL;
    char *line = where ? xasprintf("; %s reads global memory %llu times: read the tile in shared memory there",
                                   where, a->c.line_loads)
                       : xstrdup("");
    char *other = left_out(a);
    char *msg = xasprintf("kernel %s read %.0f floats from global memory on %s, %s per %s%s; with its %s a tiled "
                          "kernel reads %.0f (%s per %s), and at most %.1f times that is allowed%s",
                          a->c.kernel, a->reads, a->dataset, got, unit, other, tile, a->expected, want, unit,
                          COUNTS_MARGIN, line);
    free(other);
    free(got);
    free(want);
    free(tile);
    free(where);
    free(line);
    return msg;
}

void counts_judge(const requirement_spec *q, const submission_result *s, int static_shared, int static_reuse,
                  requirement_result *r)
{
    const access_summary *a = &s->reads;
    r->name = q->name;
    r->max_points = q->points;
    int met = 0;
    if (!a->known) {
        r->message = xstrdup("could not be checked: the checkers counted no launch of yours (they ran on no "
                             "dataset to its end, or could not build the file)");
    } else if (!a->passed) {
        r->consequential = 1;
        r->message = xasprintf("not earned: the counts are from %s, which did not pass, and no dataset the "
                               "checkers ran did; these points are for a kernel that computes the result reading "
                               "each element from global memory once per tile",
                               a->dataset);
    } else if (a->expected <= 0) {
        r->message = xasprintf("kernel %s has no shared tile to read from (%ld bytes of shared memory): this lab "
                               "reads each element from global memory once per tile, not once per use",
                               a->c.kernel, a->c.shared_bytes);
    } else if (a->reads > a->expected * COUNTS_MARGIN) {
        r->message = not_reused(a, s->file);
    } else if (static_shared == 0) {
        r->message = xstrdup("not met: the source declares no __shared__ memory (the run's log claimed otherwise)");
    } else if (static_reuse == 0) {
        /* the log's counts are the run's to write: the kit's reading of the
         * source must show the reuse too */
        r->message = xstrdup("not met: no loop of the source accumulates values read from a __shared__ array "
                             "without reading global memory in that loop (the run's log claimed reuse)");
    } else {
        met = 1;
        char *got = figure(a->reads / a->work), *tile = tile_words(a), *other = left_out(a);
        r->message = xasprintf("kernel %s read %s floats from global memory per %s on %s, within what its %s "
                               "read (%.0f in all, at most %.0f)%s",
                               a->c.kernel, got, a->matmul ? "multiply-add" : "output value", a->dataset, tile,
                               a->reads, a->expected * COUNTS_MARGIN, other);
        free(got);
        free(other);
        free(tile);
    }
    r->status = met ? ST_PASS : ST_REQUIREMENT_FAILED;
    r->points = met ? q->points : 0;
}
