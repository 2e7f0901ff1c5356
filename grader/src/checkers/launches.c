/*
 * launches.c - see launches.h.
 */
#define _GNU_SOURCE
#include "launches.h"
#include "counts.h"
#include "emu_log.h"
#include "findings.h"
#include "json.h"
#include "source.h"
#include "util.h"

#include <cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* "FILE:LINE" of the student's file: its line, else 0. */
static int student_line(const cJSON *o, const char *student_file)
{
    const char *where = json_str(o, "where", NULL);
    const char *colon = where ? strrchr(where, ':') : NULL;
    if (!colon || !student_file)
        return 0;
    char *file = xasprintf("%.*s", (int)(colon - where), where);
    int same = strcmp(path_base(file), path_base(student_file)) == 0;
    free(file);
    int line = atoi(colon + 1);
    return same && line > 0 ? line : 0;
}

static void read_launch(const cJSON *o, int line, launch_shape *l)
{
    long shared = (long)(json_num(o, "shared_static_bytes") + json_num(o, "shared_dynamic_bytes"));
    unsigned grid[3], block[3];
    if (json_triple(o, "grid", grid) != 0 || json_triple(o, "block", block) != 0)
        return;
    if (l->known && shared <= l->shared_bytes)
        return; /* the tiled kernel: the one with the most shared memory, the first of those */
    l->known = 1;
    l->line = line;
    snprintf(l->kernel, sizeof l->kernel, "%s", json_str(o, "kernel", "?"));
    memcpy(l->grid, grid, sizeof grid);
    memcpy(l->block, block, sizeof block);
    l->shared_bytes = shared;
}

static void read_copy(const cJSON *o, int line, copy_record *c)
{
    if (c->known)
        return;
    c->known = 1;
    c->line = line;
    snprintf(c->call, sizeof c->call, "%s", json_str(o, "call", "?"));
    snprintf(c->what, sizeof c->what, "%s", json_str(o, "what", ""));
    snprintf(c->argument, sizeof c->argument, "%s", json_str(o, "argument", ""));
    snprintf(c->name, sizeof c->name, "%s", json_str(o, "name", ""));
    c->given = (unsigned long long)json_num(o, "given");
    c->expected = (unsigned long long)json_num(o, "expected");
    c->row_bytes = (unsigned long long)json_num(o, "row_bytes");
}

/* What launches_read_emu_log gathers, for emu_log_each's callback. */
typedef struct {
    const char *student_file;
    launch_shape *launch;
    copy_record *copy;
} launch_reading;

static void read_line(const cJSON *o, void *arg)
{
    launch_reading *r = arg;
    const char *ev = json_str(o, "event", "");
    int at = student_line(o, r->student_file);
    if (at && strcmp(ev, "launch") == 0)
        read_launch(o, at, r->launch);
    else if (at && strcmp(ev, "copy") == 0)
        read_copy(o, at, r->copy);
}

void launches_read_emu_log(const char *path, const char *student_file, launch_shape *l, copy_record *c)
{
    memset(l, 0, sizeof *l);
    memset(c, 0, sizeof *c);
    launch_reading r = { student_file, l, c };
    emu_log_each(path, NULL, read_line, &r);
}

/* ---- the wrong elements' shape -------------------------------------------------- */

/* The first of the trailing lines (rows or columns) of n whose wrong
 * elements are at least 9 in 10 of each: n when the last is not. */
static int first_of_bad_tail(const size_t *bad, int n, size_t per_line)
{
    int k = n;
    while (k > 0 && bad[k - 1] * 10 >= per_line * 9)
        k--;
    return k;
}

/* The first of the leading lines of n that are not at least 9 in 10 wrong:
 * 0 when the first is not. */
static int end_of_bad_head(const size_t *bad, int n, size_t per_line)
{
    int k = 0;
    while (k < n && bad[k] * 10 >= per_line * 9)
        k++;
    return k;
}

void launches_unwritten_head(const gl_matrix *got, const unsigned char *bad, int head[2])
{
    head[0] = head[1] = -1;
    int rows = got->rows, cols = got->cols;
    size_t ch = (size_t)got->channels;
    if (rows < 1 || cols < 1 || ch < 1)
        return;
    size_t *row_bad = xcalloc((size_t)rows, sizeof *row_bad), *col_bad = xcalloc((size_t)cols, sizeof *col_bad);
    size_t n = gl_matrix_count(got);
    for (size_t i = 0; i < n; i++)
        if (bad[i]) {
            size_t pixel = i / ch;
            row_bad[pixel / (size_t)cols]++;
            col_bad[pixel % (size_t)cols]++;
        }
    int r1 = end_of_bad_head(row_bad, rows, (size_t)cols * ch);
    int c1 = end_of_bad_head(col_bad, cols, (size_t)rows * ch);
    /* a head short of the whole output, and nothing wrong past it */
    int clean = (r1 > 0 || c1 > 0) && r1 < rows && c1 < cols;
    for (size_t i = 0; i < n && clean; i++) {
        size_t pixel = i / ch;
        if (bad[i] && (int)(pixel / (size_t)cols) >= r1 && (int)(pixel % (size_t)cols) >= c1)
            clean = 0;
    }
    if (clean) {
        head[0] = r1;
        head[1] = c1;
    }
    free(row_bad);
    free(col_bad);
}

int launches_unwritten_frame(const gl_matrix *got, const unsigned char *bad)
{
    int rows = got->rows, cols = got->cols;
    size_t ch = (size_t)got->channels, n = gl_matrix_count(got);
    if (rows < 3 || cols < 3 || ch < 1)
        return 0;
    /* the width: how far the wrong run at the top of the middle column goes */
    int b = 0;
    size_t mid = (size_t)cols / 2;
    while (b < rows && bad[((size_t)b * (size_t)cols + mid) * ch])
        b++;
    if (b < 1 || 2 * b >= rows || 2 * b >= cols)
        return 0;
    size_t in_frame = 0, bad_in_frame = 0;
    for (size_t i = 0; i < n; i++) {
        size_t pixel = i / ch;
        int r = (int)(pixel / (size_t)cols), c = (int)(pixel % (size_t)cols);
        int frame = r < b || c < b || r >= rows - b || c >= cols - b;
        if (bad[i] && !frame)
            return 0;
        in_frame += frame;
        bad_in_frame += frame && bad[i];
    }
    return bad_in_frame * 10 >= in_frame * 9 ? b : 0;
}

void launches_unwritten_corner(const gl_matrix *got, const unsigned char *bad, int corner[2])
{
    corner[0] = corner[1] = -1;
    int rows = got->rows, cols = got->cols;
    size_t ch = (size_t)got->channels;
    if (rows < 1 || cols < 1 || ch < 1)
        return;
    size_t *row_bad = xcalloc((size_t)rows, sizeof *row_bad), *col_bad = xcalloc((size_t)cols, sizeof *col_bad);
    size_t n = gl_matrix_count(got);
    for (size_t i = 0; i < n; i++)
        if (bad[i]) {
            size_t pixel = i / ch;
            row_bad[pixel / (size_t)cols]++;
            col_bad[pixel % (size_t)cols]++;
        }
    int r0 = first_of_bad_tail(row_bad, rows, (size_t)cols * ch);
    int c0 = first_of_bad_tail(col_bad, cols, (size_t)rows * ch);
    int clean = r0 < rows || c0 < cols;
    /* nothing wrong in the top-left r0 x c0 */
    for (size_t i = 0; i < n && clean; i++) {
        size_t pixel = i / ch;
        if (bad[i] && (int)(pixel / (size_t)cols) < r0 && (int)(pixel % (size_t)cols) < c0)
            clean = 0;
    }
    if (clean) {
        corner[0] = r0;
        corner[1] = c0;
    }
    free(row_bad);
    free(col_bad);
}

/* ---- sentences -------------------------------------------------------------------- */

/* "a x b" of a grid or block (x first, as CUDA writes it), with its z
 * where that is not 1 (a z of 0 is the whole shape's mistake). */
static char *dims(const unsigned v[3])
{
    return v[2] != 1 ? xasprintf("%u x %u x %u", v[0], v[1], v[2]) : xasprintf("%u x %u", v[0], v[1]);
}

static const char *argument_words(const char *arg)
{
    return strcmp(arg, "spitch") == 0 ? "source pitch (spitch)"
           : strcmp(arg, "dpitch") == 0 ? "destination pitch (dpitch)"
                                        : arg;
}

/* What the copy's argument should have agreed with, and what went wrong. */
static char *copy_claim(const copy_record *c)
{
    const char *moved = strcmp(c->argument, "spitch") == 0 ? "read from" : "written to";
    if (strcmp(c->what, "pitches_swapped") == 0)
        return xasprintf("its two pitches are swapped: the source pitch (spitch) is %llu bytes, the destination's "
                         "row spacing, and the destination pitch (dpitch) %llu bytes, the source's, so every "
                         "row after the first is read from and written to the wrong place: the destination's "
                         "pitch comes first, after the destination",
                         c->given, c->row_bytes);
    if (strcmp(c->what, "host_pitch") == 0) {
        /* the image's own pitch member, which counts floats (`in->data`: `in->pitch`) */
        size_t n = strlen(c->name), d = n > 4 && !strcmp(c->name + n - 4, "data") ? n - 4 : 0;
        char *give = d > 0 && (c->name[d - 1] == '.' || c->name[d - 1] == '>')
                         ? xasprintf(": give it that pitch in bytes, `(size_t)%.*spitch * sizeof(float)`", (int)d,
                                     c->name)
                         : xstrdup("");
        char *w = xasprintf("its %s is %llu bytes, but the rows of the host image %s are %llu bytes apart (its own "
                            "pitch: %llu bytes of pixels and %llu of padding), so every row after the first is %s "
                            "the wrong place%s",
                            argument_words(c->argument), c->given, c->name, c->expected, c->row_bytes,
                            c->expected - c->row_bytes, moved, give);
        free(give);
        return w;
    }
    if (strcmp(c->what, "device_pitch") == 0)
        return xasprintf("its %s is %llu bytes, but cudaMallocPitch gave that device buffer a pitch of %llu "
                         "bytes, so every row after the first is %s the wrong place: give it the pitch "
                         "cudaMallocPitch returned for that buffer",
                         argument_words(c->argument), c->given, c->expected, moved);
    if (strcmp(c->what, "extent_swapped") == 0)
        return xasprintf("its width and its height are given the other way round: the width is %llu byte%s and the "
                         "height %llu rows, where the host image %s has %llu row%s of %llu bytes of pixels: the width "
                         "in bytes comes first, then the number of rows",
                         c->given, c->given == 1 ? "" : "s", c->expected, c->name, c->row_bytes,
                         c->row_bytes == 1 ? "" : "s", c->expected);
    if (strcmp(c->what, "host_width") == 0)
        return xasprintf("its width is %llu bytes, but a row of the host image %s holds %llu bytes of pixels, "
                         "so the copy %s",
                         c->given, c->name, c->expected,
                         c->given > c->expected ? "also moves each row's padding" : "leaves part of each row out");
    if (strcmp(c->what, "device_width") == 0)
        return xasprintf("its width is %llu bytes, but a row of the pitched device buffer holds %llu bytes of "
                         "pixels (the width given to cudaMallocPitch), so the copy %s",
                         c->given, c->expected,
                         c->given > c->expected ? "also moves each row's padding" : "leaves part of each row out");
    if (strcmp(c->what, "pitched_1d") == 0)
        return xasprintf("it copies %llu bytes in one block, but %s%s has rows %llu bytes apart with %llu bytes "
                         "of pixels each (a pitched image), so the rows land at the wrong places: a pitched image "
                         "is copied row by row, with cudaMemcpy2D",
                         c->given, c->name[0] ? "the host image " : "the pitched device buffer", c->name,
                         c->expected, c->row_bytes);
    /* a count of elements given as bytes moves a quarter of a float
     * buffer: said as such, whatever the dataset's size */
    const char *share = c->given * 4 == c->expected ? " (a quarter of it: the count of its elements, not of their "
                                                      "bytes)"
                        : c->given * 2 == c->expected ? " (half of it)"
                                                      : "";
    if (strcmp(c->what, "short_into") == 0)
        return xasprintf("it copies %llu byte%s into a device buffer of %llu%s, and nothing fills the rest before "
                         "the kernel runs, which then reads memory nothing stored (the count is in bytes: elements "
                         "times sizeof(float))",
                         c->given, c->given == 1 ? "" : "s", c->expected, share);
    if (strcmp(c->what, "short_back") == 0)
        return xasprintf("it copies back %llu byte%s of a device buffer of %llu%s, so the rest of the result never "
                         "reaches the host (the count is in bytes: elements times sizeof(float))",
                         c->given, c->given == 1 ? "" : "s", c->expected, share);
    return NULL;
}

/* The position (from 0) of the copy's argument named in the record, -1
 * where the call has none of that name. */
static int copy_argument_position(const copy_record *c)
{
    int two_d = strncmp(c->call, "cudaMemcpy2D", 12) == 0;
    if (strcmp(c->argument, "dpitch") == 0)
        return two_d ? 1 : -1;
    if (strcmp(c->argument, "spitch") == 0)
        return two_d ? 3 : -1;
    if (strcmp(c->argument, "width") == 0)
        return two_d ? 4 : -1;
    if (strcmp(c->argument, "count") == 0)
        return two_d ? -1 : 2;
    return -1;
}

/* Where the wrong argument's value was made, when the argument is a
 * variable that keeps its declaration's value, declared on another line:
 * "; that width is row_bytes, set at line 81 (`...`)". Where
 * another copy takes the same variable in the same place, both are wrong
 * alike and the declaration is the one place to fix; else the variable
 * may be the wrong one to pass, and the sentence only says where its
 * value comes from. NULL where the source shows nothing of the kind. */
static char *copy_argument_origin(const copy_record *c, const char *student_file)
{
    int k = copy_argument_position(c);
    char name[64], init[160];
    int other = 0;
    int decl = k >= 0 ? source_argument_set_once(student_file, c->line, c->call, k, name, sizeof name, init,
                                                 sizeof init, &other)
                      : 0;
    if (decl <= 0 || !init[0])
        return NULL;
    const char *what = strcmp(c->argument, "count") == 0 ? "count" : strcmp(c->argument, "width") == 0 ? "width"
                                                                                                          : "pitch";
    char *q = sanitize_quote(student_file, decl);
    char *s = other > 0 ? xasprintf("; that %s is %s, set at %s, which the %s at line %d takes as its %s too: fix "
                                    "it at line %d (%llu bytes on this dataset)",
                                    what, name, q, c->call, other, what, decl, c->expected)
                        : xasprintf("; that %s is %s, set at %s", what, name, q);
    free(q);
    return s;
}

char *launches_copy_sentence(const copy_record *c, const char *student_file)
{
    if (!c->known || c->line <= 0)
        return NULL;
    char *claim = copy_claim(c);
    if (!claim)
        return NULL;
    char *q = sanitize_quote(student_file, c->line);
    char *origin = copy_argument_origin(c, student_file);
    char *s = xasprintf("the %s at %s: %s%s", c->call, q, claim, origin ? origin : "");
    free(origin);
    free(q);
    free(claim);
    return s;
}

/* T of a kernel that keeps two T x T tiles of floats in its shared memory
 * (lab 02's ds_M and ds_N), else 0. */
static int two_tiles(long shared_bytes)
{
    int t = (int)floor(sqrt((double)shared_bytes / (2.0 * sizeof(float))) + 0.5);
    return t >= 2 && (long)(2 * t * t * sizeof(float)) == shared_bytes ? t : 0;
}

char *launches_limit(const launch_shape *l, const char *student_file, int *at_definition)
{
    *at_definition = 0;
    if (!l->known || l->line <= 0)
        return NULL;
    static const char axis[3] = { 'x', 'y', 'z' };
    static const unsigned block_max[3] = { 1024, 1024, 64 };
    static const unsigned long long grid_max[3] = { 2147483647ull, 65535, 65535 };
    unsigned long long threads = (unsigned long long)l->block[0] * l->block[1] * l->block[2];
    char *b = dims(l->block), *g = dims(l->grid);
    char *broken = NULL;
    int zero = -1, made = 0; /* 0: a grid's dimension is 0, 1: a block's */
    for (int k = 0; k < 3 && !broken; k++)
        if (l->block[k] == 0 || l->grid[k] == 0) {
            zero = l->block[k] == 0;
            broken = l->block[k] == 0
                         ? xasprintf("blocks of %s threads: every dimension of the grid and the block must be at "
                                     "least 1", b)
                         : xasprintf("a grid of %s blocks: every dimension of the grid and the block must be at "
                                     "least 1", g);
        }
    if (!broken && threads > 1024)
        broken = xasprintf("blocks of %s = %llu threads: at most 1024 a block", b, threads);
    for (int k = 0; k < 3 && !broken; k++)
        if (l->block[k] > block_max[k])
            broken = xasprintf("blocks of %s: at most %u threads in %c", b, block_max[k], axis[k]);
    for (int k = 0; k < 3 && !broken; k++)
        if (l->grid[k] > grid_max[k])
            broken = xasprintf("a grid of %s blocks: at most %llu blocks in %c", g, grid_max[k], axis[k]);
    /* the third <<< >>> argument is the dynamic shared memory of each
     * block, in bytes: with the kernel's own, at most 48 KiB unless
     * cudaFuncSetAttribute raised the kernel's limit */
    if (!broken && l->shared_bytes > 49152)
        broken = xasprintf("%ld bytes of shared memory a block (the kernel's __shared__ arrays and the launch's "
                           "third <<< >>> argument, the dynamic shared memory in bytes): at most 49152 (48 KiB) a "
                           "block; a kernel that declares no extern __shared__ array uses none of the dynamic part",
                           l->shared_bytes);
    char *s = NULL;
    /* a block within the hardware's limit and past the kernel's own
     * `__launch_bounds__`: the bound, at its line, is what refuses it */
    long bound = 0;
    int bound_line = !broken ? source_launch_bounds_of(student_file, l->kernel, &bound) : 0;
    if (bound_line > 0 && threads > (unsigned long long)bound) {
        char *qd = sanitize_quote(student_file, bound_line);
        s = xasprintf("%s gives %s `__launch_bounds__(%ld)`, at most %ld threads a block, but the launch at line %d "
                      "gives it blocks of %s = %llu threads: a GPU refuses the launch and the kernel never runs; make "
                      "the bound at least the block's %llu threads, or take it out",
                      qd, l->kernel, bound, bound, l->line, b, threads, threads);
        *at_definition = 1;
        free(qd);
        free(b);
        free(g);
        return s;
    }
    /* a block too large whose side a #define (or a constant) gives: that
     * definition is where the value is chosen */
    int over = !broken ? 0 : threads > 1024 ? 1 : l->block[0] > block_max[0] || l->block[1] > block_max[1];
    int block_line = over ? source_launch_block_line(student_file, l->line) : 0;
    char name[64];
    int def = 0;
    for (int k = 0; k < 3 && block_line > 0 && !def; k++)
        if (l->block[k] > 1)
            def = source_name_defined_as(student_file, block_line, (long)l->block[k], name, sizeof name);
    /* ... or a #define of the file whose expression another one's number
     * sizes (`BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)`, O_TILE_WIDTH
     * 32): that number is where the size was chosen */
    char via[64] = "", via_text[128] = "";
    if (!def && block_line > 0)
        def = source_name_defined_through(student_file, block_line, name, sizeof name, via, sizeof via, via_text,
                                          sizeof via_text);
    /* what the block asks for, said of the block (a grid that also came
     * to 0 follows from the same definition) */
    char *too_many = over ? xasprintf(threads > 1024 ? "blocks of %s = %llu threads: at most 1024 a block"
                                                     : "blocks of %s: more threads in one dimension than a block has",
                                      b, threads)
                          : NULL;
    /* a dimension of the block the kernel never reads (threadIdx.z of a
     * 2D kernel) that takes it past the limit: that dimension is the
     * mistake, not the size the others share */
    int unread = -1;
    for (int k = 2; k >= 0 && over && threads > 1024 && block_line > 0 && unread < 0; k--)
        if (l->block[k] > 1 && threads / l->block[k] <= 1024 && !source_reads_builtin(student_file, "threadIdx", axis[k]))
            unread = k;
    if (unread >= 0) {
        char *qb = sanitize_quote(student_file, block_line);
        s = xasprintf("the block at %s has %u threads in %c, and kernel %s never reads threadIdx.%c: that "
                      "dimension makes blocks of %s = %llu threads, at most 1024 a block, so the launch at line %d "
                      "fails with a launch-configuration error and the kernel never runs; give the block 1 thread "
                      "in %c (leave its %s argument out)",
                      qb, l->block[unread], axis[unread], l->kernel, axis[unread], b, threads, l->line,
                      axis[unread], unread == 2 ? "third" : unread == 1 ? "second" : "first");
        *at_definition = 1;
        free(qb);
    } else if (def > 0) {
        char *qd = sanitize_quote(student_file, def), *qb = sanitize_quote(student_file, block_line);
        int square = l->block[0] == l->block[1] && l->block[2] == 1;
        if (via[0])
            s = xasprintf("%s makes %s %u (%s is `%s`), so the block at %s asks for %s: the launch at line %d fails "
                          "with a launch-configuration error and the kernel never runs; make %s smaller (%s)",
                          qd, via, l->block[0] > 1 ? l->block[0] : l->block[1], via, via_text, qb, too_many, l->line,
                          name, square ? "so that a square block is at most 32 x 32 = 1024 threads"
                                       : "a block has at most 1024 threads");
        else
        s = xasprintf("%s makes %s %u, so the block at %s asks for %s: the launch at line %d fails with a "
                      "launch-configuration error and the kernel never runs; make %s smaller (%s)",
                      qd, name, l->block[0] > 1 ? l->block[0] : l->block[1], qb, too_many, l->line, name,
                      square ? "at most 32: a square block of 32 x 32 is 1024 threads" : "a block has at most 1024 "
                                                                                          "threads");
        *at_definition = 1;
        free(qd);
        free(qb);
    } else if (block_line > 0 && block_line != l->line) {
        /* a block too large whose dim3 no #define sizes: sized by the
         * data (`dim3 dimBlock(width, width)`), it outgrows the limit */
        char *qb = sanitize_quote(student_file, block_line);
        s = xasprintf("the block at %s comes to %s for this dataset: the launch at line %d asks for %s (a "
                      "launch-configuration error: the kernel never runs); a block is a fixed number of threads, "
                      "at most 1024, whatever the data's size: give it a constant size within that (the tile's, "
                      "say) and let the grid count the blocks",
                      qb, b, l->line, too_many);
        *at_definition = 1;
        free(qb);
    } else if (broken && zero == 0 && (made = source_launch_dim3_line(student_file, l->line, 0)) > 0 &&
               made != l->line) {
        /* a grid counted 0 for this dataset: the dim3 that counts it is the
         * cause (a block's 0 is written, not counted: a repair says it) */
        char *qm = sanitize_quote(student_file, made);
        /* x and y counted, z given as 0: no count to round, a 0 to make 1 */
        if (l->grid[2] == 0 && l->grid[0] > 0 && l->grid[1] > 0)
            s = xasprintf("the grid at %s comes to %s for this dataset: its z is 0, so the launch at line %d asks "
                          "for %s (a launch-configuration error: the kernel never runs); give the dim3's third "
                          "argument 1, or leave it out (a dim3's z is 1 when not given)",
                          qm, g, l->line, broken);
        else
            s = xasprintf("the grid at %s comes to %s for this dataset: the launch at line %d asks for %s (a "
                          "launch-configuration error: the kernel never runs); count at least one in each "
                          "dimension, rounding up (`(n + size - 1) / size`)",
                          qm, g, l->line, broken);
        *at_definition = 1;
        free(qm);
    } else if (broken) {
        char *q = sanitize_quote(student_file, l->line);
        s = xasprintf("the launch at %s asks for %s (a launch-configuration error: the kernel never runs)", q,
                      broken);
        free(q);
    }
    free(too_many);
    free(broken);
    free(b);
    free(g);
    return s;
}

int launches_swap_fits(const launch_shape *l, const int out[2])
{
    int t = two_tiles(l->shared_bytes);
    if (!l->known || t == 0 || out[0] < 1 || out[1] < 1)
        return 0;
    unsigned gx = (unsigned)((out[1] + t - 1) / t), gy = (unsigned)((out[0] + t - 1) / t);
    int grid_is_tile = l->grid[0] == (unsigned)t && l->grid[1] == (unsigned)t && l->grid[2] == 1;
    int block_is_grid = l->block[0] == gx && l->block[1] == gy && l->block[2] == 1;
    return grid_is_tile && block_is_grid;
}

char *launches_swapped(const launch_shape *l, const int out[2], const char *student_file)
{
    int t = two_tiles(l->shared_bytes);
    if (l->line <= 0 || !launches_swap_fits(l, out))
        return NULL;
    unsigned gx = (unsigned)((out[1] + t - 1) / t), gy = (unsigned)((out[0] + t - 1) / t);
    if (gx == (unsigned)t && gy == (unsigned)t)
        return NULL;
    char *q = sanitize_quote(student_file, l->line);
    char *g = dims(l->grid), *b = dims(l->block);
    char *s = xasprintf("the launch at %s runs a grid of %s blocks of %s threads each, but kernel %s keeps "
                        "%d x %d tiles in shared memory, which need blocks of %d x %d threads, and the "
                        "%d x %d output needs %u x %u of them: the grid and the block look swapped "
                        "(<<<grid, block>>>: the grid comes first)",
                        q, g, b, l->kernel, t, t, t, t, out[0], out[1], gx, gy);
    free(g);
    free(b);
    free(q);
    return s;
}

void launches_block_tile(const launch_shape *l, int image, int h, int tile[2])
{
    if (image) {
        counts_image_tile(l->shared_bytes, l->block, h, tile);
        return;
    }
    int t = (int)floor(sqrt((double)l->shared_bytes / (2.0 * sizeof(float))));
    tile[0] = (int)l->block[0] > t ? (int)l->block[0] : t;
    tile[1] = (int)l->block[1] > t ? (int)l->block[1] : t;
}

/* The rows and columns l's grid covers (tile: each block's), capped at out. */
static void covered(const launch_shape *l, const int tile[2], const int out[2], long cov[2])
{
    cov[0] = (long)l->grid[1] * tile[1];
    cov[1] = (long)l->grid[0] * tile[0];
    cov[0] = cov[0] < out[0] ? cov[0] : out[0];
    cov[1] = cov[1] < out[1] ? cov[1] : out[1];
}

int launches_cover(const launch_shape *l, const int out[2], int image, int h)
{
    int tile[2];
    long cov[2];
    if (!l->known)
        return 0;
    launches_block_tile(l, image, h, tile);
    if (tile[0] < 1 || tile[1] < 1)
        return 0;
    covered(l, tile, out, cov);
    return cov[0] == out[0] && cov[1] == out[1];
}

/* "output columns 0..23 of 29" of a covered extent, or "all 29 output columns". */
static char *extent(long cov, int n, const char *what)
{
    return cov < n ? xasprintf("output %s 0..%ld of %d", what, cov - 1, n) : xasprintf("all %d output %s", n, what);
}

/* Why a grid falls short, read from the shapes alone (tile: each block's
 * output, x first; cov: rows and columns covered): its x and y swapped,
 * where x counts the rows' tiles and y the columns' (the swap covers out);
 * or a block flat in one dimension where the grid was counted for square
 * ones (grid[d] of the other side's tiles would cover that side). The
 * sentence at the dim3 line that declares the wrong one, or NULL. */
static char *shape_cause(const launch_shape *l, const int tile[2], const int out[2], const long cov[2],
                         const char *student_file)
{
    char *g = dims(l->grid), *b = dims(l->block), *s = NULL;
    int swapped = (long)l->grid[0] * tile[0] < out[1] || (long)l->grid[1] * tile[1] < out[0];
    swapped = swapped && (long)l->grid[1] * tile[0] >= out[1] && (long)l->grid[0] * tile[1] >= out[0] &&
              l->grid[0] != l->grid[1];
    if (swapped) {
        char *q = sanitize_quote(student_file, source_launch_dim3_line(student_file, l->line, 0));
        char *cols = extent(cov[1], out[1], "columns"), *rows = extent(cov[0], out[0], "rows");
        s = xasprintf("the grid at %s has its x and y swapped: its x (%u) counts the tiles down the %d output "
                      "row%s and its y (%u) those across the %d column%s, but x runs across the columns, so "
                      "the %s grid covers %s and %s (the rest are the wrong elements): x must count the "
                      "columns' tiles and y the rows'",
                      q, l->grid[0], out[0], out[0] == 1 ? "" : "s", l->grid[1], out[1], out[1] == 1 ? "" : "s", g,
                      cols, rows);
        free(rows);
        free(cols);
        free(q);
    }
    /* d: the block's flat dimension (0 x, 1 y); its side of the output is out[1 - d] */
    for (int d = 0; d < 2 && !s; d++) {
        int o = 1 - d;
        if (l->block[d] >= l->block[o] || tile[d] >= tile[o] || cov[o] >= out[o] ||
            (long)l->grid[d] * tile[o] < out[o])
            continue;
        char *q = sanitize_quote(student_file, source_launch_dim3_line(student_file, l->line, 1));
        char *reach = l->block[d] == 1 ? xstrdup("is always 0") : xasprintf("only reaches %u", l->block[d] - 1);
        s = xasprintf("the block at %s is %s threads: threadIdx.%c %s, so each block computes %d x %d "
                      "output elements, and the grid of %s blocks, counted for %d x %d blocks, covers only "
                      "output %s 0..%ld of %d (the rest are the wrong elements): the block needs %d threads "
                      "in %c too",
                      q, b, d ? 'y' : 'x', reach, tile[0], tile[1], g, tile[o], tile[o],
                      d ? "rows" : "columns", cov[o] - 1, out[o], tile[o], d ? 'y' : 'x');
        free(reach);
        free(q);
    }
    free(g);
    free(b);
    return s;
}

/* A grid set member by member (`dim3 dimGrid; dimGrid.x = ...;`) that
 * falls short on one side: the line that sets that side's member, or
 * the member no line sets (it stays 1), or the other member set twice
 * where this one belongs (a copy-paste's `dimGrid.x` twice). The advice,
 * or NULL where no line sets a member. */
static char *member_sets(const launch_shape *l, const long cov[2], const int out[2], long need_x, long need_y,
                         const char *student_file)
{
    char name[64];
    int xs[4], ys[4];
    int nx = source_launch_dim3_sets(student_file, l->line, 0, 'x', xs, 4, name, sizeof name);
    int ny = source_launch_dim3_sets(student_file, l->line, 0, 'y', ys, 4, name, sizeof name);
    if (nx + ny == 0 || !name[0])
        return NULL;
    /* the short side: y where the rows fall short, else x */
    int short_y = cov[0] < out[0];
    char axis = short_y ? 'y' : 'x', other = short_y ? 'x' : 'y';
    int n_axis = short_y ? ny : nx, n_other = short_y ? nx : ny;
    const int *lines_axis = short_y ? ys : xs, *lines_other = short_y ? xs : ys;
    unsigned have = short_y ? l->grid[1] : l->grid[0];
    long need = short_y ? need_y : need_x;
    const char *side = short_y ? "down" : "across";
    char *s;
    if (n_axis == 0 && n_other >= 2) {
        char *q = sanitize_quote(student_file, lines_other[n_other - 1]);
        s = xasprintf("%s sets %s.%c a second time (line %d set it already), and no line sets %s.%c, which stays 1 "
                      "(a dim3 starts at 1 in each dimension): %u block%s %s where %ld are needed; that line must "
                      "set %s.%c",
                      q, name, other, lines_other[n_other - 2], name, axis, have, have == 1 ? "" : "s", side, need,
                      name, axis);
        free(q);
    } else if (n_axis == 0) {
        s = xasprintf("no line sets %s.%c, which stays 1 (a dim3 starts at 1 in each dimension): %u block%s %s where "
                      "%ld are needed; set it, before the launch at line %d, to the count of blocks that covers the "
                      "output, rounded up",
                      name, axis, have, have == 1 ? "" : "s", side, need, l->line);
    } else {
        char *q = sanitize_quote(student_file, lines_axis[n_axis - 1]);
        s = xasprintf("count %s.%c at %s (%u block%s %s where %ld are needed), which the launch at line %d uses: it "
                      "must cover the whole output, rounded up to whole blocks",
                      name, axis, q, have, have == 1 ? "" : "s", side, need, l->line);
        free(q);
    }
    return s;
}

/* Where the grid's count along axis (0 x, 1 y) was made, where its dim3
 * takes a lone name there: "; its x, tiles, is set at line 89 (`...`),
 * from n, set at line 88 (`...`)", or "". */
static char *count_origins(const launch_shape *l, int axis, const char *student_file)
{
    int lines[3];
    char names[3][48];
    int n = source_launch_count_origins(student_file, l->line, 0, axis, lines, names, 3);
    if (n <= 0)
        return xstrdup("");
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < n; i++) {
        char *q = sanitize_quote(student_file, lines[i]);
        if (i == 0)
            sb_printf(&sb, "; its %c, %s, is set at %s", "xy"[axis], names[i], q);
        else
            sb_printf(&sb, ", from %s, set at %s", names[i], q);
        free(q);
    }
    return sb_detach(&sb);
}

/* A block whose dim3 was never given a size (`dim3 dimBlock;`, no member
 * set after it): one thread a block, where the grid was counted for
 * blocks of many. The sentence, or NULL. */
static char *block_unsized(const launch_shape *l, const int tile[2], const int out[2], const long cov[2],
                           const char *student_file)
{
    char name[64];
    int xs[4], ys[4];
    if (l->block[0] != 1 || l->block[1] != 1)
        return NULL;
    int nx = source_launch_dim3_sets(student_file, l->line, 1, 'x', xs, 4, name, sizeof name);
    int ny = source_launch_dim3_sets(student_file, l->line, 1, 'y', ys, 4, name, sizeof name);
    int decl = source_launch_dim3_unsized(student_file, l->line, 1);
    if (nx + ny > 0 || !name[0] || decl <= 0)
        return NULL;
    char *q = sanitize_quote(student_file, decl), *g = dims(l->grid);
    char *cols = extent(cov[1], out[1], "columns"), *rows = extent(cov[0], out[0], "rows");
    char *s = xasprintf("%s declares %s with no size, and no line sets its members: a dim3 starts at 1 in each "
                        "dimension, so every block of the launch at line %d is one thread and computes %d x %d "
                        "output element%s, and the grid of %s blocks covers %s and %s (the rest are the wrong "
                        "elements): give %s the block's size where it is declared",
                        q, name, l->line, tile[0], tile[1], tile[0] * tile[1] == 1 ? "" : "s", g, cols, rows, name);
    free(rows);
    free(cols);
    free(g);
    free(q);
    return s;
}

char *launches_uncovered(const launch_shape *l, const int out[2], int image, int h, const int corner[2],
                         const char *student_file)
{
    int tile[2];
    long cov[2];
    if (!l->known || l->line <= 0 || corner[0] < 0)
        return NULL;
    launches_block_tile(l, image, h, tile);
    if (tile[0] < 1 || tile[1] < 1)
        return NULL;
    covered(l, tile, out, cov);
    /* the grid falls short, and the wrong elements are exactly what it leaves */
    if ((cov[0] == out[0] && cov[1] == out[1]) || cov[0] != corner[0] || cov[1] != corner[1] || cov[0] < 1 ||
        cov[1] < 1)
        return NULL;
    char *shape = shape_cause(l, tile, out, cov, student_file);
    if (!shape)
        shape = block_unsized(l, tile, out, cov, student_file);
    if (shape)
        return shape;
    char *g = dims(l->grid), *cols = extent(cov[1], out[1], "columns"), *rows = extent(cov[0], out[0], "rows");
    char *right = cov[1] < out[1] ? xasprintf("right of column %ld", cov[1] - 1) : xstrdup("");
    char *below = cov[0] < out[0] ? xasprintf("below row %ld", cov[0] - 1) : xstrdup("");
    /* the blocks each side has against those it needs: where the grid is
     * its own dim3, that line is where it was counted (the launch only
     * passes it on) */
    long need_x = ((long)out[1] + tile[0] - 1) / tile[0], need_y = ((long)out[0] + tile[1] - 1) / tile[1];
    char *sx = cov[1] < out[1] ? xasprintf("%u block%s across where %ld are needed", l->grid[0],
                                           l->grid[0] == 1 ? "" : "s", need_x)
                               : xstrdup("");
    char *sy = cov[0] < out[0] ? xasprintf("%u block%s down where %ld are needed", l->grid[1],
                                           l->grid[1] == 1 ? "" : "s", need_y)
                               : xstrdup("");
    int grid_line = source_launch_dim3_line(student_file, l->line, 0);
    char *q = sanitize_quote(student_file, l->line);
    char *where = member_sets(l, cov, out, need_x, need_y, student_file);
    if (where) {
        /* the grid set member by member: the member of the short side said */
    } else if (grid_line > 0 && grid_line != l->line) {
        char *qg = sanitize_quote(student_file, grid_line), *from = count_origins(l, cov[1] < out[1] ? 0 : 1,
                                                                                   student_file);
        where = xasprintf("count the grid at %s (%s%s%s), which the launch at line %d uses%s: it must cover the whole "
                          "output, rounded up to whole blocks",
                          qg, sx, sx[0] && sy[0] ? ", " : "", sy, l->line, from);
        free(from);
        free(qg);
    } else {
        where = xasprintf("see the launch at %s (%s%s%s)", q, sx, sx[0] && sy[0] ? ", " : "", sy);
    }
    char *s = xasprintf("the grid of %s blocks (%d x %d output elements each) covers %s and %s: the "
                        "tiles %s%s%s were never launched, and they are the wrong elements; %s",
                        g, tile[0], tile[1], cols, rows, right, right[0] && below[0] ? " and " : "", below, where);
    free(where);
    free(sx);
    free(sy);
    free(q);
    free(below);
    free(right);
    free(rows);
    free(cols);
    free(g);
    return s;
}

char *launches_block_unlike_tiles(const launch_shape *l, const char *student_file)
{
    if (!l->known || l->line <= 0 || l->shared_bytes <= 0 || l->shared_bytes % 8 != 0 || l->block[2] != 1)
        return NULL;
    long t = (long)(sqrt((double)(l->shared_bytes / 8)) + 0.5);
    if (t * t * 8 != l->shared_bytes || ((long)l->block[0] <= t && (long)l->block[1] <= t))
        return NULL;
    /* wider (or taller) than the tile in one direction, not in both: the
     * tile is the kernel's, the block's shape the launch's mistake */
    if ((long)l->block[0] > t && (long)l->block[1] > t)
        return NULL;
    char *b = dims(l->block);
    int made = source_launch_dim3_line(student_file, l->line, 1);
    char *q = sanitize_quote(student_file, made > 0 ? made : l->line);
    int wide = (long)l->block[0] > t;
    char *s = xasprintf("the block at %s is %s threads, but kernel %s keeps two tiles of %ld x %ld floats in shared "
                        "memory (%ld bytes), which its threads fill and read at their place in the block: the %s "
                        "past the tile's %ld fall outside it (into the next %s, or past its end), and the tile's %s "
                        "from %u on are filled by no thread; launch blocks of the tile's shape, %ld x %ld "
                        "(dim3 dimBlock(TILE_WIDTH, TILE_WIDTH))",
                        q, b, l->kernel, t, t, l->shared_bytes, wide ? "columns of threads" : "rows of threads", t,
                        wide ? "row" : "column", wide ? "rows" : "columns", wide ? l->block[1] : l->block[0], t, t);
    free(q);
    free(b);
    return s;
}

char *launches_oversized(const launch_shape *l, const int out[2], const char *student_file)
{
    int tile[2];
    if (!l->known || l->line <= 0)
        return NULL;
    launches_block_tile(l, 0, 0, tile);
    if (tile[0] < 1 || tile[1] < 1)
        return NULL;
    long need_x = ((long)out[1] + tile[0] - 1) / tile[0], need_y = ((long)out[0] + tile[1] - 1) / tile[1];
    if ((long)l->grid[0] <= need_x && (long)l->grid[1] <= need_y)
        return NULL;
    char *g = dims(l->grid);
    int grid_line = source_launch_dim3_line(student_file, l->line, 0);
    char *q = sanitize_quote(student_file, grid_line > 0 ? grid_line : l->line);
    char *s = xasprintf("the grid at %s has %s blocks where %ld x %ld cover the %d x %d output (%d x %d elements "
                        "a block): the blocks past its last tile have no elements to compute, and the kernel "
                        "reads and writes past the arrays' ends in them; count the blocks as the output's tiles%s",
                        q, g, need_x, need_y, out[0], out[1], tile[0], tile[1],
                        out[0] % tile[1] == 0 && out[1] % tile[0] == 0 ? " (the sizes are whole tiles here: "
                                                                         "nothing to round up)"
                                                                       : ", rounded up");
    free(q);
    free(g);
    return s;
}

char *launches_flat_block(const launch_shape *l, const char *student_file)
{
    if (!l->known || l->line <= 0 || l->block[1] != 1 || l->block[2] != 1 || l->block[0] < 2 ||
        !source_reads_builtin(student_file, "threadIdx", 'y'))
        return NULL;
    char *b = dims(l->block);
    char *q = sanitize_quote(student_file, source_launch_dim3_line(student_file, l->line, 1));
    char *s = xasprintf("the block at %s is %s threads, flat: threadIdx.y is always 0 and threadIdx.x reaches %u, "
                        "but the kernel reads threadIdx.y, as a two-dimensional block's threads do: give the block "
                        "its y too (its rows and its columns of threads)",
                        q, b, l->block[0] - 1);
    free(q);
    free(b);
    return s;
}

char *launches_counted_in_threads(const launch_shape *l, const int out[2], int image, int h,
                                  const char *student_file)
{
    int tile[2];
    if (!l->known || l->line <= 0)
        return NULL;
    launches_block_tile(l, image, h, tile);
    /* d: 0 x (the columns, out[1]), 1 y (the rows, out[0]) */
    for (int d = 0; d < 2; d++) {
        long side = out[1 - d];
        if (tile[d] < 2 || side < 2 || (long)l->grid[d] < side)
            continue;
        long need = (side + tile[d] - 1) / tile[d];
        char *g = dims(l->grid), *b = dims(l->block);
        char *q = sanitize_quote(student_file, source_launch_dim3_line(student_file, l->line, 0));
        char *s = xasprintf("the grid at %s is %s blocks of %s threads: its %c (%u) is as many blocks as the "
                            "output has %s (%ld), where each block already covers %d of them, so %ld times too "
                            "many blocks run, and those past the output read and write past the arrays: a "
                            "grid counts blocks, not threads (%ld blocks, the %s rounded up to whole blocks)",
                            q, g, b, d ? 'y' : 'x', l->grid[d], d ? "rows" : "columns", side, tile[d],
                            (long)l->grid[d] / need, need, d ? "rows" : "columns");
        free(q);
        free(b);
        free(g);
        return s;
    }
    return NULL;
}
