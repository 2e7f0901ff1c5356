/*
 * diagnose.c - see diagnose.h.
 */
#define _GNU_SOURCE
#include "diagnose.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static const int tile_widths[] = { 32, 16, 8 };

/* The smallest row and column that hold a bad element, and whether any bad
 * element lies before them in the other direction. */
typedef struct {
    int min_row, min_col, max_row, max_col;
    size_t count;
} bad_box;

static bad_box box_of(const gl_matrix *g, const unsigned char *bad)
{
    bad_box b = { g->rows, g->cols, -1, -1, 0 };
    size_t n = gl_matrix_count(g);
    for (size_t i = 0; i < n; i++) {
        if (!bad[i])
            continue;
        size_t pixel = i / (size_t)g->channels;
        int r = (int)(pixel / (size_t)g->cols), c = (int)(pixel % (size_t)g->cols);
        if (r < b.min_row)
            b.min_row = r;
        if (c < b.min_col)
            b.min_col = c;
        if (r > b.max_row)
            b.max_row = r;
        if (c > b.max_col)
            b.max_col = c;
        b.count++;
    }
    return b;
}

/* Errors confined to the rows and columns past the last whole tile, for the
 * largest tile width that shows it (the tightest description). */
static char *tile_band(const gl_matrix *g, const bad_box *b)
{
    for (size_t t = 0; t < sizeof tile_widths / sizeof *tile_widths; t++) {
        int T = tile_widths[t];
        int row0 = g->rows / T * T, col0 = g->cols / T * T;
        int rows_partial = row0 > 0 && row0 < g->rows, cols_partial = col0 > 0 && col0 < g->cols;
        int in_rows = rows_partial && b->min_row >= row0;
        int in_cols = cols_partial && b->min_col >= col0;
        if (in_rows && in_cols)
            return xasprintf("all the wrong elements are in the corner tile (rows %d and up, columns "
                             "%d and up, past the last whole tile of %d): look at the bounds tests "
                             "for a tile that is partial both ways", row0, col0, T);
        if (in_rows)
            return xasprintf("all the wrong elements are in rows %d and up, past the last whole tile "
                             "of %d: look at how rows that do not fill a tile are loaded and tested",
                             row0, T);
        if (in_cols)
            return xasprintf("all the wrong elements are in columns %d and up, past the last whole "
                             "tile of %d: look at how columns that do not fill a tile are loaded and "
                             "tested", col0, T);
    }
    return NULL;
}

/* The L-shaped band of rows and columns past the last whole tile. */
static char *partial_band(const gl_matrix *g, const unsigned char *bad)
{
    for (size_t t = 0; t < sizeof tile_widths / sizeof *tile_widths; t++) {
        int T = tile_widths[t];
        int row0 = g->rows / T * T, col0 = g->cols / T * T;
        if (row0 == 0 || col0 == 0 || (row0 == g->rows && col0 == g->cols))
            continue;
        size_t n = gl_matrix_count(g);
        int inside = 1;
        for (size_t i = 0; i < n && inside; i++) {
            size_t pixel = i / (size_t)g->channels;
            int r = (int)(pixel / (size_t)g->cols), c = (int)(pixel % (size_t)g->cols);
            if (bad[i] && r < row0 && c < col0)
                inside = 0;
        }
        if (inside)
            return xasprintf("all the wrong elements are in the last partial tiles (rows from %d or "
                             "columns from %d, with tiles of %d): look at the bounds tests for the "
                             "part that does not fill a whole tile", row0, col0, T);
    }
    return NULL;
}

const char *diagnose_all_zero(int tiled)
{
    return tiled ? "every element is 0: the sums are never accumulated into what is written, the loop over "
                   "phases never runs (look at its count), or the inputs never reached the device"
                 : "every element is 0: the sums are never accumulated into what is written, the loop of the "
                   "dot product never runs (look at its count), or the inputs never reached the device";
}

char *diagnose_output(const gl_matrix *got, const gl_reference *want, const unsigned char *bad,
                      const compare_result *r, int tiled)
{
    size_t n = gl_matrix_count(got);
    if (r->mismatches == 0)
        return NULL;
    if (r->poisoned == n)
        return xstrdup("no element was written: check that the kernel is launched, that it writes the "
                       "output, and that the result is copied back to where the harness reads it");
    bad_box b = box_of(got, bad);
    if (r->poisoned > 0 && r->poisoned == r->mismatches) {
        return xasprintf("%zu %s never written, in rows %d to %d and columns %d to %d: "
                         DIAGNOSE_GRID_ADVICE, r->poisoned, plural(r->poisoned, "element was", "elements were"),
                         b.min_row, b.max_row, b.min_col, b.max_col);
    }
    if (r->nonfinite > 0) {
        /* Infinite and NaN say different things. A sum that reached +-inf
         * from inputs of ordinary size took in a huge value: in this kit,
         * the guard zone around every device buffer reads as 3.4e38. A NaN
         * is what the kit leaves in memory nothing stored: shared memory
         * (filled with NaN before the call) and fresh device memory. */
        size_t inf = 0, nan = 0;
        for (size_t i = 0; i < n; i++) {
            if (!bad[i])
                continue;
            if (isinf(got->data[i]))
                inf++;
            else if (isnan(got->data[i]))
                nan++;
        }
        if (inf > 0 && inf * 2 >= r->nonfinite)
            return xasprintf("%zu %s infinite: a sum took in values of about 3.4e38, which is "
                             "what the kit's guard zone around every device buffer holds, so something "
                             "was read outside an array: look at the bounds tests of the loads", inf,
                             plural(inf, "element is", "elements are"));
        /* a lab without shared tiles has no tile slot and no barrier to blame */
        if (!tiled)
            return xasprintf("%zu %s NaN or infinite: a value was read that nothing stored: device memory "
                             "no copy filled (a copy's size or a buffer freed before the read), or a read "
                             "outside an array (a bounds test)", r->nonfinite,
                             plural(r->nonfinite, "element is", "elements are"));
        return xasprintf("%zu %s NaN or infinite: a value was read that nothing stored: a "
                         "tile slot no thread filled (past the edge of the data, where it should hold "
                         "0), one read before the __syncthreads() that waits for the loads, or a read "
                         "outside an array (a bounds test)", r->nonfinite,
                         plural(r->nonfinite, "element is", "elements are"));
    }

    /* One factor for everything? */
    double ratio = 0;
    int scaled = 1, zeros = 1, transposed = got->rows == got->cols && got->channels == 1;
    size_t used = 0;
    for (size_t i = 0; i < n; i++) {
        double g = got->data[i], w = want->value[i];
        if (g != 0)
            zeros = 0;
        if (fabs(w) > 1e-3 * (want->magnitude ? want->magnitude[i] : fabs(w)) && fabs(w) > 0) {
            double q = g / w;
            if (used == 0)
                ratio = q;
            else if (fabs(q - ratio) > 1e-3 * fabs(ratio))
                scaled = 0;
            used++;
        }
        if (transposed) {
            size_t r_ = i / (size_t)got->cols, c_ = i % (size_t)got->cols;
            double wt = want->value[c_ * (size_t)got->cols + r_];
            double tol = 1e-4 * (want->magnitude ? want->magnitude[c_ * (size_t)got->cols + r_] : fabs(wt)) + 1e-6;
            if (fabs(g - wt) > tol)
                transposed = 0;
        }
    }
    if (zeros)
        return xstrdup(diagnose_all_zero(tiled));
    if (transposed && b.count > 0)
        return xstrdup("the output is the transpose of the expected one: somewhere a row index and a "
                       "column index are swapped (Row/Col, tx/ty, or x/y)");
    if (scaled && used > 1 && fabs(ratio + 1) <= 1e-3)
        return xstrdup("every element is the expected value times -1, its sign flipped: each term is taken away "
                       "from the sum instead of added to it (a `-=` where `+=` belongs, or a term subtracted): "
                       DIAGNOSE_SIGN_WHERE);
    if (scaled && used > 1 && fabs(ratio - 1) > 1e-3)
        return xasprintf("every element is the expected value times %.4g: look for a sum counted more "
                         "or fewer times than it should be (the %s loop's count, or a reset of the "
                         "running sum)", ratio, tiled ? "phase" : "summing");
    if (!tiled)
        return NULL; /* the bands past the last whole tile speak of tiles */
    char *band = tile_band(got, &b);
    return band ? band : partial_band(got, bad);
}

/* One side's gaps: the lines (rows or columns) of which every element is
 * wrong, all[0..n), exactly those past the first run of every step (two
 * gaps at least, step at most 64): 1 with step and run. */
static int side_gaps(const unsigned char *all, int n, int *step, int *run)
{
    for (int p = 2; p <= 64 && p < n; p++)
        for (int w = 1; w < p; w++) {
            if (n < p + w + 1)
                continue; /* one gap alone: its step is not known */
            int ok = 1;
            for (int i = 0; i < n && ok; i++)
                ok = all[i] == (i % p >= w);
            if (ok) {
                *step = p;
                *run = w;
                return 1;
            }
        }
    return 0;
}

int diagnose_gaps(const gl_matrix *got, const unsigned char *bad, int step[2], int run[2], char **text)
{
    int rows = got->rows, cols = got->cols, ch = got->channels;
    *text = NULL;
    step[0] = step[1] = run[0] = run[1] = 0;
    if (rows < 1 || cols < 1 || ch < 1)
        return 0;
    unsigned char *row_all = xcalloc((size_t)rows, 1), *col_all = xcalloc((size_t)cols, 1);
    for (int r = 0; r < rows; r++) {
        row_all[r] = 1;
        for (int c = 0; c < cols && row_all[r]; c++)
            for (int k = 0; k < ch && row_all[r]; k++)
                row_all[r] = bad[((size_t)r * cols + c) * ch + k] != 0;
    }
    for (int c = 0; c < cols; c++) {
        col_all[c] = 1;
        for (int r = 0; r < rows && col_all[c]; r++)
            for (int k = 0; k < ch && col_all[c]; k++)
                col_all[c] = bad[((size_t)r * cols + c) * ch + k] != 0;
    }
    int found = side_gaps(row_all, rows, &step[0], &run[0]);
    found |= side_gaps(col_all, cols, &step[1], &run[1]);
    /* runs of one are no tiles (a right corner of each tile, the rest
     * wrong: a race, not a gap), and the runs hold values (an output of
     * zeros is right only where the expected is 0) */
    found = found && (!step[0] || run[0] >= 2) && (!step[1] || run[1] >= 2);
    size_t written = 0;
    for (size_t i = 0, n = gl_matrix_count(got); found && i < n && written < 3; i++)
        written += !bad[i] && got->data[i] != 0.0f;
    found = found && written >= 3; /* as a hypothesis needs three agreeing elements */
    /* every wrong element in a gap, and every element of a gap wrong and
     * as nothing wrote it: the harness's mark, NaN (memory nothing
     * stored, on the emulator) or 0 (often, on a GPU) */
    for (size_t i = 0, n = gl_matrix_count(got); found && i < n; i++) {
        int r = (int)(i / ch / (size_t)cols), c = (int)(i / ch % (size_t)cols);
        int gap = (step[0] && r % step[0] >= run[0]) || (step[1] && c % step[1] >= run[1]);
        found = (bad[i] != 0) == gap && (!gap || isnan(got->data[i]) || got->data[i] == 0.0f);
    }
    free(row_all);
    free(col_all);
    if (!found)
        return 0;
    char *sides[2] = { NULL, NULL };
    for (int a = 0; a < 2; a++)
        if (step[a] && run[a] == step[a] - 1)
            sides[a] = xasprintf("%s %d of every %d", a ? "column" : "row", run[a], step[a]);
        else if (step[a])
            sides[a] = xasprintf("%s %d to %d of every %d", a ? "columns" : "rows", run[a], step[a] - 1, step[a]);
    int a = step[1] ? 1 : 0, gap = step[a] - run[a];
    const char *unit = a ? "column" : "row";
    *text = xasprintf("the wrong elements are exactly %s%s%s: the outputs are written in runs of %d %ss, one every "
                      "%d, so the %d %s%s between two runs %s written by no thread: " DIAGNOSE_GAPS_WHERE,
                      sides[0] ? sides[0] : sides[1], sides[0] && sides[1] ? " and " : "",
                      sides[0] && sides[1] ? sides[1] : "", run[a], unit, step[a], gap, unit, gap == 1 ? "" : "s",
                      gap == 1 ? "is" : "are");
    free(sides[0]);
    free(sides[1]);
    return 1;
}

char *diagnose_across_datasets(const int *sizes, const int *failed, int n, int tile, int tiled, int image)
{
    int small_ok = 0, small_fail = 0, large_ok = 0, large_fail = 0;
    for (int i = 0; i < n; i++) {
        int large = sizes[i] > tile;
        if (large)
            failed[i] ? large_fail++ : large_ok++;
        else
            failed[i] ? small_fail++ : small_ok++;
    }
    if (large_fail > 0 && large_ok == 0 && small_ok > 0 && small_fail == 0 && tiled && image)
        /* an image's tiles have no phases: a second tile is a second block */
        return xasprintf("every dataset larger than one tile (%d) fails and every smaller one passes: look at what "
                         "changes past the first block (each position computed from blockIdx: a block's offset "
                         "must be the width of the tile it computes), and the grid", tile);
    if (large_fail > 0 && large_ok == 0 && small_ok > 0 && small_fail == 0)
        return tiled ? xasprintf("every dataset larger than one tile (%d) fails and every smaller one passes: "
                                 "look at what happens between phases (the barriers, and the phase loop)", tile)
                     /* no tiles, no phases: what a larger size adds is blocks */
                     : xasprintf("every dataset larger than one block (%d) fails and every smaller one passes: "
                                 "look at what changes past the first block (the row and column from blockIdx "
                                 "and blockDim, and the grid)", tile);
    return NULL;
}

char *diagnose_across_kinds(const int *square, const double *elements, const int *failed, int n, int image,
                            int tiled)
{
    int square_ok = 0, square_fail = 0, ragged_ok = 0, ragged_fail = 0, one_ok = 0, more_ok = 0, more = 0;
    for (int i = 0; i < n; i++) {
        if (square[i])
            failed[i] ? square_fail++ : square_ok++;
        else
            failed[i] ? ragged_fail++ : ragged_ok++;
        if (elements[i] <= 1)
            one_ok += !failed[i];
        else
            more_ok += !failed[i], more++;
    }
    if (one_ok > 0 && more >= 2 && more_ok == 0)
        return xstrdup(image ? "only the 1 x 1 image passes: there every term but the mask's centre falls "
                               "outside the image and counts 0, so the centre is right and what goes wrong is "
                               "the neighbours: look at how they are indexed (the tile's offsets, the mask's "
                               "indices, a row's length or pitch)"
                     : tiled ? "only the 1 x 1 x 1 product passes: one element needs no row or column but the "
                               "first and no tile but the first; look at the row and column indices of the "
                               "loads and of the store, and at the tile and phase offsets"
                             : "only the 1 x 1 product passes: one element needs no row or column but the first; "
                               "look at the row and column indices of the reads of M and N and of the store");
    if (square_ok > 0 && square_fail == 0 && ragged_fail >= 2 && ragged_ok == 0)
        return xstrdup("every dataset whose sizes are all equal passes and every one whose sizes differ "
                       "fails: somewhere one size is used for another (width for height, j for l or k, a "
                       "row's length for a column's); look at each index and bounds test for the size it "
                       "should use");
    return NULL;
}

/* ---- with the dataset's inputs ---------------------------------------------
 *
 * Some mistakes leave no mark on the output's pattern of errors, only on its
 * values: a tile stored transposed, the same tile loaded in every phase, a
 * mask applied flipped. With the inputs at hand, each such mistake is a
 * hypothesis that can be computed: a sample of the wrong elements is
 * recomputed as the mistaken kernel would have computed them, and a
 * hypothesis that reproduces (nearly) all of them is reported, with the
 * count, as what the output is: a statement about the numbers, never a guess
 * from the source. */

#define SAMPLE_MAX 2048
#define UNIT_ROUNDOFF_F32 5.9604644775390625e-08 /* 2^-24 */

/* Reads DIR/NAME.{raw,ppm,pgm}, whichever exists; 0 on success. */
static int read_input(const char *dir, const char *name, gl_matrix *m)
{
    static const char *const ext[] = { "raw", "ppm", "pgm" };
    for (size_t i = 0; i < sizeof ext / sizeof *ext; i++) {
        char *path = xasprintf("%s/%s.%s", dir, name, ext[i]);
        gl_error err;
        int ok = file_exists(path) && gl_read_matrix(path, m, &err) == 0;
        free(path);
        if (ok)
            return 0;
    }
    return -1;
}

int diagnose_read_input(const char *dir, const char *name, gl_matrix *m)
{
    return read_input(dir, name, m);
}

/* The sampled wrong elements: up to SAMPLE_MAX, evenly spread. */
static size_t sample_bad(const gl_matrix *got, const unsigned char *bad, size_t *out)
{
    size_t n = gl_matrix_count(got), nbad = 0;
    for (size_t i = 0; i < n; i++)
        nbad += bad[i] != 0;
    size_t step = nbad > SAMPLE_MAX ? (nbad + SAMPLE_MAX - 1) / SAMPLE_MAX : 1, k = 0, seen = 0;
    for (size_t i = 0; i < n && k < SAMPLE_MAX; i++)
        if (bad[i] && seen++ % step == 0)
            out[k++] = i;
    return k;
}

/* A float32 sum of `terms` products whose absolute values add up to mag may
 * differ from the exact sum by about terms * u * mag; four times that. */
/* How far a float sum of that many terms, of that total magnitude, may
 * stray from the exact one. */
static double sum_tolerance(double mag, int terms)
{
    return 4.0 * terms * UNIT_ROUNDOFF_F32 * mag + 1e-6;
}

static int agrees(float got, double value, double mag, int terms)
{
    return isfinite(got) && fabs((double)got - value) <= sum_tolerance(mag, terms);
}

typedef struct {
    size_t matched;
    char *text;         /* the sentence, for the best hypothesis so far */
    const char *label;  /* its mistake in a few words, for a gradebook */
} best_fit;

/* A hypothesis is named only where several wrong elements agree with it:
 * one element (a 1 x 1 product, a lone wrong corner) fits too many. */
#define AGREEING_MIN 3

/* Keeps the hypothesis that explains the most sampled elements, if it explains
 * at least 4 in 5 of them, and at least AGREEING_MIN. */
static void consider(best_fit *b, size_t matched, size_t sampled, char *text, const char *label)
{
    if (matched * 5 >= sampled * 4 && matched >= AGREEING_MIN && matched > b->matched) {
        free(b->text);
        b->text = text;
        b->label = label;
        b->matched = matched;
    } else {
        free(text);
    }
}

/* Whether a hypothesis that matched `matched` sampled elements so far, with
 * `left` still to check, can no longer be kept by consider(): its check
 * stops there, with the same verdict. Most hypotheses miss at once, so a
 * wrong file's diagnosis costs a fraction of checking every sample of each
 * (on lab 02's 512-wide product, most of a wrong check's CPU time). */
static int hopeless(size_t matched, size_t left, size_t sampled, const best_fit *b)
{
    size_t most = matched + left;
    return most * 5 < sampled * 4 || most <= b->matched;
}

enum {
    MM_M_TRANSPOSED, MM_N_TRANSPOSED, MM_M_SAME_TILE, MM_N_SAME_TILE, MM_LAST_PHASE_SKIPPED,
    MM_ONLY_LAST_PHASE,     /* the sum reset in every phase: only the last phase's terms */
    MM_FIRST_PHASE_SKIPPED, /* the phases counted from 1 */
    MM_LAST_WHOLE_PHASE_SKIPPED, /* one phase too few where k is a whole number of tiles */
    MM_TERM_SKIPPED,        /* the dot product of a phase stops one term short */
    MM_M_WHOLE_TRANSPOSED,  /* M read as its transpose (a square M) */
    MM_N_WHOLE_TRANSPOSED,
    MM_INT_SUM,             /* the sum kept in an integer: each += truncated toward 0 */
    MM_M_TWICE,             /* M where N belongs too: M x M (M copied into N's buffer) */
    MM_N_TWICE,             /* N where M belongs too: N x N */
    MM_M_ROW_IS_COL,        /* M read at row Col: M(c, kk) */
    MM_N_COL_IS_ROW,        /* N read at column Row: N(kk, r) */
    MM_LAST_TERM,           /* the sum assigned, not added: the last term alone */
    MM_FIRST_TERM_MISSING,  /* the dot product's loop starts at 1: every sum lacks its first term */
    MM_LAST_TERM_MISSING,   /* the loop stops one short of k: every sum lacks its last term */
    MM_COUNT
};

/* M's element (r, kk) as the mistaken kernel sees it (tiles of T). */
static double mm_m(const gl_matrix *M, int kind, int T, int r, int kk)
{
    int j = M->rows, k = M->cols;
    if (kind == MM_M_WHOLE_TRANSPOSED)
        return M->data[(size_t)kk * k + r];
    if (kind == MM_M_TRANSPOSED) {
        int rb = r / T * T, kb = kk / T * T;
        int rr = rb + (kk - kb), cc = kb + (r - rb);
        return rr < j && cc < k ? M->data[(size_t)rr * k + cc] : 0.0;
    }
    if (kind == MM_M_SAME_TILE)
        return kk % T < k ? M->data[(size_t)r * k + kk % T] : 0.0;
    return M->data[(size_t)r * k + kk];
}

static double mm_n(const gl_matrix *N, int kind, int T, int kk, int c)
{
    int k = N->rows, l = N->cols;
    if (kind == MM_M_TWICE || kind == MM_N_TWICE)
        return 0; /* mm_twice's */
    if (kind == MM_N_WHOLE_TRANSPOSED)
        return N->data[(size_t)c * l + kk];
    if (kind == MM_N_TRANSPOSED) {
        int kb = kk / T * T, cb = c / T * T;
        int rr = kb + (c - cb), cc = cb + (kk - kb);
        return rr < k && cc < l ? N->data[(size_t)rr * l + cc] : 0.0;
    }
    if (kind == MM_N_SAME_TILE)
        return kk % T < k ? N->data[(size_t)(kk % T) * l + c] : 0.0;
    return N->data[(size_t)kk * l + c];
}

/* The mistakes a kernel without tiles can make: none of tiles or phases. */
static int untiled_kind(int kind)
{
    return kind == MM_M_WHOLE_TRANSPOSED || kind == MM_N_WHOLE_TRANSPOSED || kind == MM_INT_SUM ||
           kind == MM_M_TWICE || kind == MM_N_TWICE || kind == MM_M_ROW_IS_COL || kind == MM_N_COL_IS_ROW ||
           kind == MM_LAST_TERM || kind == MM_FIRST_TERM_MISSING || kind == MM_LAST_TERM_MISSING;
}

static void matmul_hypotheses(const gl_matrix *got, const gl_matrix *M, const gl_matrix *N,
                              const size_t *idx, size_t ns, int tiled, best_fit *best)
{
    static const int tiles[] = { 16, 32, 8 };
    int k = M->cols;
    for (size_t t = 0; t < sizeof tiles / sizeof *tiles; t++) {
        int T = tiles[t];
        if (k <= T && T != 16)
            continue;
        int phases = (k + T - 1) / T;
        for (int kind = 0; kind < MM_COUNT; kind++) {
            int kmin = 0, kmax = k;
            if (!tiled && !untiled_kind(kind))
                continue; /* a lab without tiles: no tile, no phase to blame */
            if (kind == MM_LAST_PHASE_SKIPPED) {
                if (k % T == 0 || k < T)
                    continue;
                kmax = k / T * T;
            }
            if ((kind == MM_ONLY_LAST_PHASE || kind == MM_FIRST_PHASE_SKIPPED) && phases < 2)
                continue;
            if (kind == MM_LAST_WHOLE_PHASE_SKIPPED && (phases < 2 || k % T != 0))
                continue;
            if ((kind == MM_TERM_SKIPPED && k < T) || (kind == MM_M_WHOLE_TRANSPOSED && M->rows != k) ||
                (kind == MM_N_WHOLE_TRANSPOSED && N->cols != k))
                continue;
            if ((kind == MM_M_WHOLE_TRANSPOSED || kind == MM_N_WHOLE_TRANSPOSED || kind == MM_INT_SUM ||
                 kind == MM_M_TWICE || kind == MM_N_TWICE) && t > 0)
                continue; /* no tiles in it: once is enough */
            if ((kind == MM_M_TWICE || kind == MM_N_TWICE) && (M->rows != k || N->cols != k))
                continue; /* M x M and N x N need square inputs */
            if ((kind == MM_M_ROW_IS_COL || kind == MM_N_COL_IS_ROW) && (t > 0 || M->rows != N->cols))
                continue; /* a row index for a column one needs as many of each */
            if ((kind == MM_LAST_TERM || kind == MM_FIRST_TERM_MISSING || kind == MM_LAST_TERM_MISSING) &&
                (t > 0 || k < 2))
                continue; /* no tiles in it; of one term, the term is the sum */
            kmin = kind == MM_ONLY_LAST_PHASE ? (phases - 1) * T : kind == MM_FIRST_PHASE_SKIPPED ? T
                 : kind == MM_LAST_TERM ? k - 1 : kind == MM_FIRST_TERM_MISSING ? 1 : 0;
            kmax = kind == MM_LAST_WHOLE_PHASE_SKIPPED ? k - T : kind == MM_LAST_TERM_MISSING ? k - 1 : kmax;
            if ((kind == MM_M_SAME_TILE || kind == MM_N_SAME_TILE) && k <= T)
                continue; /* one phase: the same tile is the right one */
            size_t matched = 0, nonzero = 0;
            for (size_t s = 0; s < ns && !hopeless(matched, ns - s, ns, best); s++) {
                int r = (int)(idx[s] / (size_t)got->cols), c = (int)(idx[s] % (size_t)got->cols);
                double sum = 0, mag = 0;
                for (int kk = kmin; kk < kmax; kk++) {
                    if (kind == MM_TERM_SKIPPED && kk % T == T - 1)
                        continue;
                    double p = kind == MM_M_ROW_IS_COL ? M->data[(size_t)c * k + kk] * N->data[(size_t)kk * N->cols + c]
                             : kind == MM_N_COL_IS_ROW ? M->data[(size_t)r * k + kk] * N->data[(size_t)kk * N->cols + r]
                             : kind == MM_M_TWICE   ? M->data[(size_t)r * k + kk] * M->data[(size_t)kk * k + c]
                             : kind == MM_N_TWICE   ? N->data[(size_t)r * k + kk] * N->data[(size_t)kk * k + c]
                                                    : mm_m(M, kind, T, r, kk) * mm_n(N, kind, T, kk, c);
                    /* an integer's += adds in float and truncates toward 0 */
                    sum = kind == MM_INT_SUM ? trunc((double)((float)sum + (float)p)) : sum + p;
                    mag += fabs(p);
                }
                /* a truncated sum is a whole number: stored as a float it is exact */
                matched += kind == MM_INT_SUM ? (double)got->data[idx[s]] == sum
                                              : agrees(got->data[idx[s]], sum, mag, k);
                nonzero += sum != 0;
            }
            char *text;
            const char *label;
            switch (kind) {
            case MM_M_TRANSPOSED:
            case MM_N_TRANSPOSED:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if each "
                                 "%d x %d tile of %s is " DIAGNOSE_TILE_STORED_TRANSPOSED "%s's tile",
                                 matched, ns, T, T, kind == MM_M_TRANSPOSED ? "M" : "N",
                                 kind == MM_M_TRANSPOSED ? "M" : "N");
                label = kind == MM_M_TRANSPOSED ? "tiles of M stored transposed" : "tiles of N stored transposed";
                break;
            case MM_M_SAME_TILE:
            case MM_N_SAME_TILE:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if every "
                                 "phase loads the same tile of %s (its first, %s 0 to %d) instead of the "
                                 "phase's own: " DIAGNOSE_SAME_TILE_WHERE " %s",
                                 matched, ns, kind == MM_M_SAME_TILE ? "M" : "N",
                                 kind == MM_M_SAME_TILE ? "columns" : "rows", T - 1,
                                 kind == MM_M_SAME_TILE ? "M" : "N");
                label = kind == MM_M_SAME_TILE ? DIAGNOSE_SAME_TILE_M : DIAGNOSE_SAME_TILE_N;
                break;
            case MM_ONLY_LAST_PHASE:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly the last phase's terms "
                                 "alone (k from %d to %d of %d, tiles of %d): " DIAGNOSE_SUM_RESET_SENTENCE " "
                                 "every phase: " DIAGNOSE_SUM_RESET_WHERE ", which belongs before the "
                                 "loop over phases", matched, ns, kmin, k - 1, k, T);
                label = DIAGNOSE_SUM_RESET;
                break;
            case MM_FIRST_PHASE_SKIPPED:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the first "
                                 "phase (the first %d terms of each dot product, tiles of %d) is left out: look "
                                 "at where the loop over phases starts (0)", matched, ns, T, T);
                label = "the first phase left out";
                break;
            case MM_LAST_WHOLE_PHASE_SKIPPED:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the last "
                                 "phase (the last %d terms of each dot product, tiles of %d) is left out: look "
                                 "at the number of phases the loop runs", matched, ns, T, T);
                label = "the last phase left out";
                break;
            case MM_TERM_SKIPPED:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if each "
                                 "phase's partial dot product leaves out its last term (%d of the tile's %d): "
                                 DIAGNOSE_TERM_SKIPPED_WHERE, matched, ns, T - 1, T);
                label = DIAGNOSE_TERM_SKIPPED;
                break;
            case MM_M_WHOLE_TRANSPOSED:
            case MM_N_WHOLE_TRANSPOSED:
                if (!tiled) {
                    /* no tiles: the read in the sum is the one place M is
                     * read, so its line is the cause (grade.c adds it) */
                    text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get with %s "
                                     "transposed: the sum reads %s where %s belongs (its row and column "
                                     "indices swapped): " DIAGNOSE_INDEX_SWAP_WHERE,
                                     matched, ns, kind == MM_M_WHOLE_TRANSPOSED ? "M" : "N",
                                     kind == MM_M_WHOLE_TRANSPOSED ? "M(k, Row)" : "N(Col, k)",
                                     kind == MM_M_WHOLE_TRANSPOSED ? "M(Row, k)" : "N(k, Col)");
                    label = DIAGNOSE_INDEX_SWAP;
                    break;
                }
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get with %s "
                                 "transposed (its row and column swapped where it is read from global "
                                 "memory): look at the index of the read of %s", matched, ns,
                                 kind == MM_M_WHOLE_TRANSPOSED ? "M" : "N", kind == MM_M_WHOLE_TRANSPOSED ? "M" : "N");
                label = kind == MM_M_WHOLE_TRANSPOSED ? "M read transposed" : "N read transposed";
                break;
            case MM_M_ROW_IS_COL:
            case MM_N_COL_IS_ROW:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if %s is read "
                                 "at %s (the output's %s) where its %s belongs: " DIAGNOSE_INDEX_SWAP_WHERE,
                                 matched, ns, kind == MM_M_ROW_IS_COL ? "M" : "N",
                                 kind == MM_M_ROW_IS_COL ? "row Col" : "column Row",
                                 kind == MM_M_ROW_IS_COL ? "column" : "row",
                                 kind == MM_M_ROW_IS_COL ? "row Row" : "column Col");
                label = DIAGNOSE_INDEX_SWAP;
                break;
            case MM_INT_SUM:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what a sum kept in an "
                                 "integer gives (each += truncated toward 0%s): " DIAGNOSE_INT_SUM_WHERE
                                 ", which must be float", matched, ns,
                                 nonzero ? "" : "; every partial sum here is below 1 in size, so all are 0");
                label = DIAGNOSE_INT_SUM;
                break;
            case MM_LAST_TERM:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly the last term of each dot "
                                 "product alone (M(Row, %d) x N(%d, Col)): each term replaces the sum instead of "
                                 "being added to it: " DIAGNOSE_SUM_ASSIGNED_WHERE " (`+=`, not `=`)",
                                 matched, ns, k - 1, k - 1);
                label = DIAGNOSE_SUM_ASSIGNED;
                break;
            case MM_FIRST_TERM_MISSING:
            case MM_LAST_TERM_MISSING:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly each dot product without "
                                 "its %s term (M(Row, %d) x N(%d, Col)): the loop that sums runs over k = %d to %d "
                                 "where it must run over 0 to %d: " DIAGNOSE_TERM_MISSING_WHERE,
                                 matched, ns, kind == MM_FIRST_TERM_MISSING ? "first" : "last",
                                 kind == MM_FIRST_TERM_MISSING ? 0 : k - 1, kind == MM_FIRST_TERM_MISSING ? 0 : k - 1,
                                 kmin, kmax - 1, k - 1);
                label = kind == MM_FIRST_TERM_MISSING ? DIAGNOSE_FIRST_TERM_MISSING : DIAGNOSE_LAST_TERM_MISSING;
                break;
            case MM_M_TWICE:
            case MM_N_TWICE:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly %s x %s: the kernel "
                                 "multiplies %s by itself, so %s reached the device in %s's place: "
                                 DIAGNOSE_COPY_WHERE, matched, ns, kind == MM_M_TWICE ? "M" : "N",
                                 kind == MM_M_TWICE ? "M" : "N", kind == MM_M_TWICE ? "M" : "N",
                                 kind == MM_M_TWICE ? "M" : "N", kind == MM_M_TWICE ? "N" : "M");
                label = kind == MM_M_TWICE ? DIAGNOSE_M_TWICE : DIAGNOSE_N_TWICE;
                break;
            default:
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the "
                                 "last %d terms of each dot product (past the last whole tile of %d, in a "
                                 "partial last phase) are left out: look at the number of phases (round "
                                 "up) and the loads of the last one", matched, ns, k - kmax, T);
                label = "the partial last phase left out";
                break;
            }
            /* an integer sum that is 0 everywhere is also what a sum
             * never accumulated gives: only the source's declaration
             * tells them apart (grade.c drops it where that is float) */
            consider(best, matched, ns, text, kind == MM_INT_SUM && !nonzero ? DIAGNOSE_INT_SUM_ZERO : label);
        }
    }
}

/* The dot product with each input read at any two of the output's row
 * (Row), its column (Col), the running index (k), and the thread's row
 * and column in its block (threadIdx.y and threadIdx.x: Row and Col less
 * the block's offset, for blocks of 16, 32 or 8), summed over k: M(a, b)
 * x N(d, e). The right one is M(Row, k) x N(k, Col); every other pair
 * that stays inside both inputs is a hypothesis: an index copied from
 * the other read (N(Row, k), M's subscript written again for N), a read
 * at a coordinate of the output it does not have, a coordinate in the
 * running index's place, a thread's place in its block for its place in
 * the grid. matmul_hypotheses's named kinds come first and keep their
 * words where one says the same. A kernel without tiles only: with
 * tiles, the reads go through the tiles' indices. */
enum { IX_ROW, IX_COL, IX_K, IX_TY, IX_TX, IX_COUNT };

static void matmul_index_maps(const gl_matrix *got, const gl_matrix *M, const gl_matrix *N, const size_t *idx,
                              size_t ns, best_fit *best)
{
    static const char *const name[] = { "Row", "Col", "k", "threadIdx.y", "threadIdx.x" };
    static const int blocks[] = { 16, 32, 8 };
    int k = M->cols;
    for (size_t bw = 0; bw < sizeof blocks / sizeof *blocks; bw++) {
        int B = blocks[bw];
        int extent[IX_COUNT] = { got->rows, got->cols, k, B < got->rows ? B : got->rows,
                                 B < got->cols ? B : got->cols };
        for (int map = 0; map < IX_COUNT * IX_COUNT * IX_COUNT * IX_COUNT; map++) {
            int ma = map / 125, mb = map / 25 % 5, na = map / 5 % 5, nb = map % 5;
            int in_block = ma >= IX_TY || mb >= IX_TY || na >= IX_TY || nb >= IX_TY;
            if (bw > 0 && !in_block)
                continue; /* no block in it: once is enough */
            if (ma == IX_ROW && mb == IX_K && na == IX_K && nb == IX_COL)
                continue; /* the right one */
            if (extent[ma] > M->rows || extent[mb] > M->cols || extent[na] > N->rows || extent[nb] > N->cols)
                continue; /* it would read outside an input: another kind of mistake */
            /* a thread's place in its block only where the output is
             * wider than a block: else it is the place in the grid */
            if ((ma == IX_TY || mb == IX_TY || na == IX_TY || nb == IX_TY) && got->rows <= B)
                continue;
            if ((ma == IX_TX || mb == IX_TX || na == IX_TX || nb == IX_TX) && got->cols <= B)
                continue;
            size_t matched = 0;
            for (size_t s = 0; s < ns && !hopeless(matched, ns - s, ns, best); s++) {
                int r = (int)(idx[s] / (size_t)got->cols), c = (int)(idx[s] % (size_t)got->cols);
                int at[IX_COUNT] = { r, c, 0, r % B, c % B };
                double sum = 0, mag = 0;
                for (at[IX_K] = 0; at[IX_K] < k; at[IX_K]++) {
                    double p = (double)M->data[(size_t)at[ma] * M->cols + at[mb]] *
                               N->data[(size_t)at[na] * N->cols + at[nb]];
                    sum += p;
                    mag += fabs(p);
                }
                matched += agrees(got->data[idx[s]], sum, mag, k);
            }
            if (hopeless(matched, 0, ns, best))
                continue;
            int m_right = ma == IX_ROW && mb == IX_K, n_right = na == IX_K && nb == IX_COL;
            int row_read = ma == IX_ROW || mb == IX_ROW || na == IX_ROW || nb == IX_ROW;
            int col_read = ma == IX_COL || mb == IX_COL || na == IX_COL || nb == IX_COL;
            char *reads = m_right ? xasprintf("N(%s, %s) where N(k, Col) belongs", name[na], name[nb])
                        : n_right ? xasprintf("M(%s, %s) where M(Row, k) belongs", name[ma], name[mb])
                                  : xasprintf("M(%s, %s) x N(%s, %s) where M(Row, k) x N(k, Col) belongs", name[ma],
                                              name[mb], name[na], name[nb]);
            char *block = in_block ? xasprintf(" (threadIdx is the thread's place in its block of %d: the block's "
                                               "offset, blockIdx times the block's size, is left out)", B)
                                   : xstrdup("");
            const char *unread = in_block ? ""
                               : !row_read && !col_read ? " (neither the output's row nor its column enters a read)"
                               : !col_read ? " (the output's column enters no read: a row's elements are all one value)"
                               : !row_read ? " (the output's row enters no read: a column's elements are all one value)"
                                           : "";
            char *text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the sum reads "
                                   "%s%s%s: " DIAGNOSE_INDEX_SWAP_WHERE, matched, ns, reads, unread, block);
            free(reads);
            free(block);
            consider(best, matched, ns, text, DIAGNOSE_INDEX_SWAP);
        }
    }
}

enum {
    CV_FLIPPED, CV_TRANSPOSED, CV_CHANNEL0,
    CV_NO_COL_OFFSET, /* the input read at (y + i, x): the column's offset left out (its tile's `tx` alone) */
    CV_NO_ROW_OFFSET, /* at (y, x + j): the row's left out */
    CV_WINDOW_ROWS,  /* the input read at (y + i, x + i): both offsets the mask's row */
    CV_WINDOW_COLS,  /* at (y + j, x + j): both the mask's column */
    CV_LAST_TERM,    /* the sum assigned, not added: the mask's last term alone */
    CV_LAST_ROW,     /* the sum reset for each mask row: the last row's terms alone */
    CV_LAST_COL,     /* the same for each mask column */
    CV_WINDOW_PART,  /* the loops over the mask cover rows [r0, r1) and columns [c0, c1) of it */
    CV_PREFIX
};

/* A part of the mask, rows [r0, r1) and columns [c0, c1), as one int (CV_WINDOW_PART's `prefix`). */
#define CV_PART(r0, r1, c0, c1) ((r0) | (r1) << 8 | (c0) << 16 | (c1) << 24)
#define CV_PART_R0(p) ((p) & 0xff)
#define CV_PART_R1(p) ((p) >> 8 & 0xff)
#define CV_PART_C0(p) ((p) >> 16 & 0xff)
#define CV_PART_C1(p) ((p) >> 24 & 0xff)

/* The convolution of the image with the mask as the mistaken kernel applies
 * it, at (y, x, c); `prefix` counts the mask values that arrived (CV_PREFIX). */
static void conv_at(const gl_matrix *img, const gl_matrix *mask, int kind, int prefix, int y, int x, int c,
                    double *sum, double *mag)
{
    int m = mask->rows, rad = m / 2;
    *sum = *mag = 0;
    for (int i = 0; i < m; i++)
        for (int j = 0; j < m; j++) {
            int di = kind == CV_WINDOW_COLS ? j : kind == CV_NO_ROW_OFFSET ? 0 : i,
                dj = kind == CV_WINDOW_ROWS ? i : kind == CV_NO_COL_OFFSET ? 0 : j;
            int yy = y + di - rad, xx = x + dj - rad;
            if ((kind == CV_LAST_TERM && (i != m - 1 || j != m - 1)) || (kind == CV_LAST_ROW && i != m - 1) ||
                (kind == CV_LAST_COL && j != m - 1))
                continue;
            if (kind == CV_WINDOW_PART && (i < CV_PART_R0(prefix) || i >= CV_PART_R1(prefix) ||
                                           j < CV_PART_C0(prefix) || j >= CV_PART_C1(prefix)))
                continue;
            if (yy < 0 || yy >= img->rows || xx < 0 || xx >= img->cols)
                continue;
            double w;
            if (kind == CV_FLIPPED)
                w = mask->data[(size_t)(m - 1 - i) * m + (m - 1 - j)];
            else if (kind == CV_TRANSPOSED)
                w = mask->data[(size_t)j * m + i];
            else if (kind == CV_PREFIX)
                w = i * m + j < prefix ? mask->data[(size_t)i * m + j] : 0.0;
            else
                w = mask->data[(size_t)i * m + j];
            int cc = kind == CV_CHANNEL0 ? 0 : c;
            double p = w * img->data[((size_t)yy * img->cols + xx) * img->channels + cc];
            *sum += p;
            *mag += fabs(p);
        }
}

static void conv_hypotheses(const gl_matrix *got, const gl_matrix *img, const gl_matrix *mask,
                            const size_t *idx, size_t ns, best_fit *best)
{
    int m = mask->rows, C = got->channels;
    /* the parts of the mask a loop's wrong start or bound leaves, the
     * largest first (the fewest rows and columns left out that explain
     * the output); its first rows alone are the first values of the mask
     * alone, which CV_PREFIX says with both of its causes */
    int parts[32 * 32], nparts = 0;
    for (int area = m * m - 1; area >= 1 && m < 32; area--)
        for (int r0 = 0; r0 < m; r0++)
            for (int r1 = r0 + 1; r1 <= m; r1++)
                for (int c0 = 0; c0 < m; c0++)
                    for (int c1 = c0 + 1; c1 <= m; c1++)
                        if ((r1 - r0) * (c1 - c0) == area && (r0 == 0 || r1 == m) && (c0 == 0 || c1 == m) &&
                            !(r0 == 0 && c0 == 0 && c1 == m) && nparts < 32 * 32)
                            parts[nparts++] = CV_PART(r0, r1, c0, c1);
    for (int kind = CV_FLIPPED; kind <= CV_PREFIX; kind++) {
        int first = kind == CV_PREFIX ? 1 : 0, last = kind == CV_PREFIX ? m * m - 1 : 0;
        if (kind == CV_WINDOW_PART)
            last = nparts - 1;
        if (kind == CV_CHANNEL0 && C == 1)
            continue;
        for (int at = first; at <= last; at++) {
            int prefix = kind == CV_WINDOW_PART ? parts[at] : at;
            /* an element that is 0 where the mistake would make it 0 tells
             * nothing: a 0 has many causes (an output never written, a mask
             * never copied), so it is neither for the mistake nor against
             * it (a one-row image's last mask row lies outside it: its
             * last term alone is 0 everywhere; a mask whose rows each sum
             * to 0 gives 0 for any input read along a row) */
            size_t matched = 0, telling = 0;
            for (size_t s = 0; s < ns && !hopeless(matched, ns - s, telling + (ns - s), best); s++) {
                size_t pixel = idx[s] / (size_t)C;
                int y = (int)(pixel / (size_t)got->cols), x = (int)(pixel % (size_t)got->cols);
                int c = (int)(idx[s] % (size_t)C);
                double sum, mag;
                conv_at(img, mask, kind, prefix, y, x, c, &sum, &mag);
                if (got->data[idx[s]] == 0 && agrees(0.0f, sum, mag, m * m))
                    continue;
                telling++;
                matched += agrees(got->data[idx[s]], sum, mag, m * m);
            }
            char *text;
            const char *label;
            if (kind == CV_FLIPPED) {
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get with the "
                                 "mask flipped, mask[%d - i][%d - j] instead of mask[i][j] (a convolution, "
                                 "not the lab's formula): look at the mask indices " DIAGNOSE_MASK_WHERE,
                                 matched, telling, m - 1, m - 1);
                label = "mask flipped";
            } else if (kind == CV_TRANSPOSED) {
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get with the "
                                 "mask transposed, mask[j][i] instead of mask[i][j] (i runs down the rows, "
                                 "with y; j along a row, with x): look at the order of the mask's indices "
                                 DIAGNOSE_MASK_WHERE, matched, telling);
                label = "mask transposed";
            } else if (kind == CV_NO_COL_OFFSET || kind == CV_NO_ROW_OFFSET) {
                int col = kind == CV_NO_COL_OFFSET;
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the input "
                                 "is read at %s %s - %d, the same for every %s of the mask, instead of row y + i - %d "
                                 "and column x + j - %d: the input's %s index leaves out the mask's %s index (`+ %s`): "
                                 DIAGNOSE_WINDOW_WHERE,
                                 matched, telling, col ? "column" : "row", col ? "x" : "y", m / 2,
                                 col ? "column" : "row", m / 2, m / 2, col ? "column" : "row", col ? "column" : "row",
                                 col ? "j" : "i");
                label = DIAGNOSE_WINDOW;
            } else if (kind == CV_WINDOW_ROWS || kind == CV_WINDOW_COLS) {
                int rows = kind == CV_WINDOW_ROWS;
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the input "
                                 "is read at row y %s - %d and column x %s - %d, both offsets from the mask's "
                                 "%s index %s, instead of row y + i - %d and column x + j - %d: the %s offset of "
                                 "the input's read must use %s, as the mask's %s does: " DIAGNOSE_WINDOW_WHERE,
                                 matched, telling, rows ? "+ i" : "+ j", m / 2, rows ? "+ i" : "+ j", m / 2,
                                 rows ? "row" : "column", rows ? "i" : "j", m / 2, m / 2,
                                 rows ? "column" : "row", rows ? "j" : "i", rows ? "column" : "row");
                label = DIAGNOSE_WINDOW;
            } else if (kind == CV_LAST_TERM) {
                text = xasprintf("%zu of the %zu wrong elements checked are exactly the mask's last term "
                                 "alone (mask[%d][%d] times its input): each term replaces the sum instead of "
                                 "being added to it: " DIAGNOSE_SUM_ASSIGNED_WHERE " (`+=`, not `=`)",
                                 matched, telling, m - 1, m - 1);
                label = DIAGNOSE_SUM_ASSIGNED;
            } else if (kind == CV_LAST_ROW || kind == CV_LAST_COL) {
                int row = kind == CV_LAST_ROW;
                text = xasprintf("%zu of the %zu wrong elements checked are exactly the mask's last %s alone (the "
                                 "%d terms of mask %s %d): the sum starts again at each pass of the loop over the "
                                 "mask's %ss, so only the last pass's terms remain: " DIAGNOSE_SUM_RESET_WHERE
                                 ", which belongs before that loop",
                                 matched, telling, row ? "row" : "column", m, row ? "row" : "column", m - 1,
                                 row ? "row" : "column");
                label = row ? DIAGNOSE_SUM_RESET_ROW : DIAGNOSE_SUM_RESET_COLUMN;
            } else if (kind == CV_CHANNEL0) {
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if every "
                                 "channel is computed from channel 0 of the input: look at the channel "
                                 "term of the input index", matched, telling);
                label = "every channel from channel 0";
            } else if (kind == CV_WINDOW_PART) {
                int r0 = CV_PART_R0(prefix), r1 = CV_PART_R1(prefix), c0 = CV_PART_C0(prefix),
                    c1 = CV_PART_C1(prefix);
                char rows[48], cols[48];
                snprintf(rows, sizeof rows, r1 - r0 == m ? "every row" : r1 - r0 == 1 ? "row %d" : "rows %d to %d",
                         r0, r1 - 1);
                snprintf(cols, sizeof cols,
                         c1 - c0 == m ? "every column" : c1 - c0 == 1 ? "column %d" : "columns %d to %d", c0, c1 - 1);
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if the sum "
                                 "covers only %s and %s of the %d x %d mask: " DIAGNOSE_MASK_PART_WHERE " over the "
                                 "mask's %s",
                                 matched, telling, rows, cols, m, m, c1 - c0 < m ? "columns" : "rows");
                label = c1 - c0 < m ? DIAGNOSE_MASK_PART_COLUMNS : DIAGNOSE_MASK_PART_ROWS;
            } else {
                /* whole rows: the same numbers as a loop over the rows that stops early */
                char *rows = prefix % m ? xstrdup("")
                                        : xasprintf("; the same numbers come from a sum over only the mask's first "
                                                    "%d %s: if the copy is right, " DIAGNOSE_MASK_PART_WHERE
                                                    " over the mask's rows",
                                                    prefix / m, prefix / m == 1 ? "row" : "rows");
                text = xasprintf("%zu of the %zu wrong elements checked are exactly what you get if only "
                                 "the first %d of the mask's %d values reached constant memory and the "
                                 "rest read as 0: look at the size given to the copy into constant memory "
                                 "(it counts bytes)%s", matched, telling, prefix, m * m, rows);
                free(rows);
                label = DIAGNOSE_MASK_PART_COPIED;
            }
            consider(best, matched, telling, text, label);
        }
    }
}

/* Every wrong element the right value of another element a few rows and
 * columns away, the same offset for all: the values are right and stored
 * at the wrong place (an output index with a halo's offset added). An
 * element whose source lies outside the output tells nothing (it was
 * never written, or written from nothing). The offsets are tried from
 * the nearest. */
static void shifted_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx, size_t ns,
                               best_fit *best)
{
    enum { MOST = 4 };
    size_t C = (size_t)got->channels, cols = (size_t)got->cols;
    int terms = want->terms > 0 ? want->terms : 1;
    for (int d = 1; d <= MOST; d++)
        for (int dy = -d; dy <= d; dy++)
            for (int dx = -d; dx <= d; dx++) {
                if ((dy < 0 ? -dy : dy) != d && (dx < 0 ? -dx : dx) != d)
                    continue; /* the ring at distance d only */
                size_t matched = 0, telling = 0;
                for (size_t s = 0; s < ns && !hopeless(matched, ns - s, telling + (ns - s), best); s++) {
                    size_t pixel = idx[s] / C, c = idx[s] % C;
                    long y = (long)(pixel / cols) - dy, x = (long)(pixel % cols) - dx;
                    if (y < 0 || x < 0 || y >= got->rows || x >= (long)cols)
                        continue;
                    size_t from = ((size_t)y * cols + (size_t)x) * C + c;
                    double mag = want->magnitude ? want->magnitude[from] : fabs(want->value[from]);
                    if (want->value[from] == want->value[idx[s]])
                        continue; /* the same value either way: no evidence */
                    telling++;
                    matched += agrees(got->data[idx[s]], want->value[from], mag, terms);
                }
                consider(best, matched, telling,
                         xasprintf("%zu of the %zu wrong elements checked are exactly the right value of the "
                                   "element %d %s %s and %d %s %s: every value is right but stored %s: "
                                   DIAGNOSE_OUTPUT_SHIFTED_WHERE, matched, telling, dy < 0 ? -dy : dy,
                                   (dy < 0 ? -dy : dy) == 1 ? "row" : "rows", dy >= 0 ? "above" : "below",
                                   dx < 0 ? -dx : dx, (dx < 0 ? -dx : dx) == 1 ? "column" : "columns",
                                   dx >= 0 ? "to the left" : "to the right",
                                   dy && dx ? "that far down and across" : dy ? "that far down or up"
                                                                          : "that far across"),
                         DIAGNOSE_OUTPUT_SHIFTED);
            }
}

/* Every wrong element the right value plus the same amount: the sum
 * started from that, not from 0 (an accumulator set to something else, or
 * to what was in memory). A sum's start is in every element's sum, so
 * nearly all of the output must be wrong: a few elements, or a region
 * (the last partial tile), off by one amount is a pattern of where, which
 * diagnose_pattern's words fit better. */
static void offset_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx, size_t ns,
                              const compare_result *r, best_fit *best)
{
    if ((double)r->mismatches < 0.95 * (double)gl_matrix_count(got))
        return;
    int terms = want->terms > 0 ? want->terms : 1;
    double d = (double)got->data[idx[0]] - want->value[idx[0]];
    if (!isfinite(d) || d == 0)
        return;
    size_t matched = 0;
    for (size_t s = 0; s < ns; s++) {
        double mag = (want->magnitude ? want->magnitude[idx[s]] : fabs(want->value[idx[s]])) + fabs(d);
        matched += agrees(got->data[idx[s]], want->value[idx[s]] + d, mag, terms);
    }
    consider(best, matched, ns,
             xasprintf("%zu of the %zu wrong elements checked are the right value plus the same %.7g: the "
                       "sum starts from %.7g instead of 0: look at where the accumulator is first set",
                       matched, ns, d, d),
             DIAGNOSE_SUM_OFFSET);
}

/* Every wrong element the running sum of the right ones along one index of
 * the output (channel c's output the sum of channels 0..c's, or element i
 * of a row the sum of the row's elements up to i, or of a column's): the
 * accumulator carried from one output to the next, never set back to 0.
 * The index is tried as the output's channels, columns and rows. */
static void carried_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx, size_t ns,
                               best_fit *best)
{
    static const char *const names[3] = { "channel", "column", "row" };
    static const char *const plurals[3] = { "channels", "columns", "rows" };
    size_t C = (size_t)got->channels, cols = (size_t)got->cols;
    size_t stride[3] = { 1, C, C * cols }, count[3] = { C, cols, (size_t)got->rows };
    int terms = want->terms > 0 ? want->terms : 1;
    for (int a = 0; a < 3; a++) {
        if (count[a] < 2)
            continue;
        size_t matched = 0;
        for (size_t s = 0; s < ns && !hopeless(matched, ns - s, ns, best); s++) {
            size_t pos = idx[s] / stride[a] % count[a], first = idx[s] - pos * stride[a];
            double sum = 0, mag = 0;
            for (size_t t = 0; t <= pos; t++) {
                size_t e = first + t * stride[a];
                sum += want->value[e];
                mag += want->magnitude ? want->magnitude[e] : fabs(want->value[e]);
            }
            /* an element that is its own right value too is no evidence,
             * nor one whose running sum the tolerance of so long a sum
             * cannot tell from its right value (long rows of values that
             * cancel: any small output would "agree") */
            int n = terms * (int)(pos + 1);
            matched += pos > 0 && fabs(sum - want->value[idx[s]]) > sum_tolerance(mag, n) &&
                       agrees(got->data[idx[s]], sum, mag, n);
        }
        consider(best, matched, ns,
                 xasprintf("%zu of the %zu wrong elements checked are exactly the running sum of the right "
                           "values over the output's %s: %s %s's output is the sum of %s 0..%s's, so the "
                           "sum goes on from one %s to the next instead of starting again at 0: "
                           DIAGNOSE_SUM_RESET_WHERE ", which belongs inside the loop over the %s, "
                           "before each %s's sum",
                           matched, ns, plurals[a], names[a], a ? "i" : "c", plurals[a], a ? "i" : "c",
                           names[a], plurals[a], names[a]),
                 DIAGNOSE_SUM_CARRIED);
    }
}

/* Every wrong element the right value of the transposed position (row and
 * column swapped, each channel its own): the output stored transposed. */
static void transposed_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx, size_t ns,
                                  best_fit *best)
{
    size_t C = (size_t)got->channels, cols = (size_t)got->cols;
    if (got->rows != got->cols || got->rows < 2)
        return;
    int terms = want->terms > 0 ? want->terms : 1;
    size_t matched = 0;
    for (size_t s = 0; s < ns && !hopeless(matched, ns - s, ns, best); s++) {
        size_t pixel = idx[s] / C, ch = idx[s] % C, r = pixel / cols, c = pixel % cols;
        size_t t = (c * cols + r) * C + ch;
        double mag = want->magnitude ? want->magnitude[t] : fabs(want->value[t]);
        /* an element on the diagonal, or equal to its mirror, is no evidence */
        matched += t != idx[s] && agrees(got->data[idx[s]], want->value[t], mag, terms);
    }
    consider(best, matched, ns,
             xasprintf("%zu of the %zu wrong elements checked are exactly the right value of the transposed "
                       "position (element (r, c) holds what belongs at (c, r)): each result is right and "
                       "stored at the other index: " DIAGNOSE_OUTPUT_TRANSPOSED_WHERE " (the row times the "
                       "row's length, plus the column)", matched, ns),
             DIAGNOSE_OUTPUT_TRANSPOSED);
}

/* Every wrong element the right value of its own place in the mirrored
 * block (block (i, j) of the output holds block (j, i), each element at its
 * own place inside the block; blocks of T x T, T 8, 16 or 32): each block
 * computed right and stored where the other's belongs, the store's block
 * offsets exchanged. */
static void blocks_transposed_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx,
                                         size_t ns, best_fit *best)
{
    size_t C = (size_t)got->channels, rows = (size_t)got->rows, cols = (size_t)got->cols;
    int terms = want->terms > 0 ? want->terms : 1;
    for (size_t T = 8; T <= 32; T *= 2) {
        if (rows <= T || cols <= T)
            continue;
        size_t matched = 0;
        for (size_t s = 0; s < ns && !hopeless(matched, ns - s, ns, best); s++) {
            size_t pixel = idx[s] / C, ch = idx[s] % C, r = pixel / cols, c = pixel % cols;
            size_t r2 = c / T * T + r % T, c2 = r / T * T + c % T;
            if (r2 >= rows || c2 >= cols || r / T == c / T)
                continue; /* a block on the diagonal is its own mirror: no evidence */
            size_t t = (r2 * cols + c2) * C + ch;
            double mag = want->magnitude ? want->magnitude[t] : fabs(want->value[t]);
            matched += agrees(got->data[idx[s]], want->value[t], mag, terms);
        }
        consider(best, matched, ns,
                 xasprintf("%zu of the %zu wrong elements checked are exactly the right value of their own place "
                           "in the mirrored block (the output's %zu x %zu block (i, j) holds block (j, i), each "
                           "element where it belongs inside the block): each block's results are right and stored "
                           "in the other block's place, its row and column offsets exchanged: "
                           DIAGNOSE_BLOCKS_TRANSPOSED_WHERE " (a row goes with blockIdx.y, a column with "
                           "blockIdx.x)",
                           matched, ns, T, T),
                 DIAGNOSE_BLOCKS_TRANSPOSED);
    }
}

/* The value most of vals[0..n) hold exactly, and how many hold it. */
static float most_held(const float *vals, size_t n, size_t *count)
{
    float best = 0;
    *count = 0;
    for (size_t i = 0; i < n; i++) {
        size_t c = 0;
        for (size_t j = 0; j < n; j++)
            c += vals[j] == vals[i];
        if (c > *count) {
            *count = c;
            best = vals[i];
        }
    }
    return best;
}

/* Every wrong element the right value cut to a range [lo, hi] (or cut at
 * one end only): right values below lo came out exactly lo, those above hi
 * exactly hi, and every right value inside the range is right. The ends are
 * read from the output: the value most of the too-low elements hold, and
 * most of the too-high ones. An end no element reaches is not claimed. */
static void clamped_hypothesis(const gl_matrix *got, const gl_reference *want, const unsigned char *bad,
                               const size_t *idx, size_t ns, best_fit *best)
{
    float *low = xcalloc(ns, sizeof *low), *high = xcalloc(ns, sizeof *high);
    size_t nlow = 0, nhigh = 0, at_lo = 0, at_hi = 0;
    for (size_t s = 0; s < ns; s++) {
        float g = got->data[idx[s]];
        if (!isfinite(g))
            continue;
        if ((double)g > want->value[idx[s]])
            low[nlow++] = g; /* raised to the low end? */
        else if ((double)g < want->value[idx[s]])
            high[nhigh++] = g; /* cut down to the high end? */
    }
    float lo = most_held(low, nlow, &at_lo), hi = most_held(high, nhigh, &at_hi);
    int has_lo = at_lo >= AGREEING_MIN, has_hi = at_hi >= AGREEING_MIN;
    free(low);
    free(high);
    if ((!has_lo && !has_hi) || (has_lo && has_hi && !(lo < hi)))
        return;
    /* the values inside the range must be seen right: an output of one
     * value everywhere (all 0) cuts nothing, it computes nothing */
    size_t inside = 0, n = gl_matrix_count(got);
    for (size_t i = 0; i < n && inside < AGREEING_MIN; i++) {
        double w = want->value[i];
        inside += !bad[i] && (!has_lo || w > (double)lo) && (!has_hi || w < (double)hi);
    }
    if (inside < AGREEING_MIN)
        return;
    size_t matched = 0;
    for (size_t s = 0; s < ns; s++) {
        float g = got->data[idx[s]];
        double w = want->value[idx[s]];
        matched += (has_lo && g == lo && w < (double)lo) || (has_hi && g == hi && w > (double)hi);
    }
    char range[256];
    if (has_lo && has_hi)
        snprintf(range, sizeof range, "cut to the range [%.7g, %.7g]: every right value below %.7g came out %.7g "
                 "and every one above %.7g came out %.7g", lo, hi, lo, lo, hi, hi);
    else if (has_lo)
        snprintf(range, sizeof range, "raised to at least %.7g: every right value below %.7g came out %.7g", lo, lo,
                 lo);
    else
        snprintf(range, sizeof range, "cut to at most %.7g: every right value above %.7g came out %.7g", hi, hi, hi);
    consider(best, matched, ns,
             xasprintf("%zu of the %zu wrong elements checked are exactly the right value %s, and the values "
                       "inside are right: the sums are right and something cuts them before they are stored (a "
                       "min, a max or a test on the value), which the lab does not ask for: "
                       DIAGNOSE_OUTPUT_CLAMPED_WHERE, matched, ns, range),
             DIAGNOSE_OUTPUT_CLAMPED);
}

/* Every wrong element the right value rounded to a whole number, one
 * way throughout (to the nearest, toward 0, down or up): the sums are
 * right, and something on the way to the store (rintf, floorf, an int in
 * between) drops their fractions. Only a right value with a fraction
 * tells: a whole one is its own rounding. */
static void rounded_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx, size_t ns,
                               best_fit *best)
{
    static const char *const ways[] = { "to the nearest whole number", "toward 0 to a whole number",
                                        "down to a whole number", "up to a whole number" };
    int terms = want->terms > 0 ? want->terms : 1;
    size_t matched[4] = { 0 }, telling = 0;
    for (size_t s = 0; s < ns; s++) {
        double w = want->value[idx[s]], mag = want->magnitude ? want->magnitude[idx[s]] : fabs(w);
        double tol = sum_tolerance(mag, terms);
        if (fabs(w - nearbyint(w)) <= tol || fabs(w - nearbyint(w)) >= 0.5 - tol || fabs(w) < 1)
            continue; /* whole, or halfway: no evidence of the way; below 1 some way rounds to 0,
                         which an output of zeros agrees with */
        telling++;
        const double r[4] = { nearbyint(w), trunc(w), floor(w), ceil(w) };
        for (int k = 0; k < 4; k++)
            matched[k] += isfinite(got->data[idx[s]]) && (double)got->data[idx[s]] == r[k];
    }
    int way = 0;
    for (int k = 1; k < 4; k++)
        way = matched[k] > matched[way] ? k : way;
    consider(best, matched[way], telling,
             xasprintf("%zu of the %zu wrong elements checked are exactly the right value rounded %s: the sums are "
                       "right, and their fractions are dropped before they are stored: " DIAGNOSE_OUTPUT_ROUNDED_WHERE,
                       matched[way], telling, ways[way]),
             DIAGNOSE_OUTPUT_ROUNDED);
}

/* Every wrong element the right value negated: each term was taken away
 * from the sum, not added to it. */
static void negated_hypothesis(const gl_matrix *got, const gl_reference *want, const size_t *idx, size_t ns,
                               best_fit *best)
{
    int terms = want->terms > 0 ? want->terms : 1;
    size_t matched = 0, telling = 0;
    for (size_t s = 0; s < ns && !hopeless(matched, ns - s, ns, best); s++) {
        double w = want->value[idx[s]], mag = want->magnitude ? want->magnitude[idx[s]] : fabs(w);
        if (fabs(w) <= sum_tolerance(mag, terms))
            continue; /* 0 is its own negation: no evidence */
        telling++;
        matched += agrees(got->data[idx[s]], -w, mag, terms);
    }
    consider(best, matched, telling,
             xasprintf("%zu of the %zu wrong elements checked are exactly the right value times -1, its sign "
                       "flipped: each term is taken away from the sum instead of added to it (a `-=` where `+=` "
                       "belongs, or a term subtracted): " DIAGNOSE_SIGN_WHERE, matched, telling),
             DIAGNOSE_SUM_NEGATED);
}

char *diagnose_inputs(const char *dataset_dir, const gl_matrix *got, const gl_reference *want,
                      const unsigned char *bad, const compare_result *r, int tiled, const char **label)
{
    *label = NULL;
    if (!dataset_dir || r->mismatches == 0 || r->poisoned == gl_matrix_count(got))
        return NULL;
    gl_matrix a = { 0 }, b = { 0 };
    int inputs = read_input(dataset_dir, "input0", &a) == 0 && read_input(dataset_dir, "input1", &b) == 0;
    size_t *idx = xcalloc(SAMPLE_MAX, sizeof *idx);
    size_t ns = sample_bad(got, bad, idx);
    best_fit best = { 0, NULL, NULL };
    if (ns > 1)
        transposed_hypothesis(got, want, idx, ns, &best);
    if (ns > 1)
        blocks_transposed_hypothesis(got, want, idx, ns, &best);
    if (inputs && ns > 0 && a.channels == 1 && b.channels == 1 && got->channels == 1 && a.rows == got->rows &&
        b.cols == got->cols && a.cols == b.rows)
    {
        matmul_hypotheses(got, &a, &b, idx, ns, tiled, &best);
        if (!tiled)
            matmul_index_maps(got, &a, &b, idx, ns, &best);
    } else if (inputs && ns > 0 && a.rows == got->rows && a.cols == got->cols && a.channels == got->channels &&
             b.channels == 1 && b.rows == b.cols && b.rows % 2 == 1 && b.rows <= 15)
        conv_hypotheses(got, &a, &b, idx, ns, &best);
    if (ns > 1)
        shifted_hypothesis(got, want, idx, ns, &best);
    if (ns > 1)
        offset_hypothesis(got, want, idx, ns, r, &best);
    if (ns > 1)
        carried_hypothesis(got, want, idx, ns, &best);
    if (ns > 1)
        clamped_hypothesis(got, want, bad, idx, ns, &best);
    if (ns > 1)
        negated_hypothesis(got, want, idx, ns, &best);
    if (ns > 1)
        rounded_hypothesis(got, want, idx, ns, &best);
    free(idx);
    gl_matrix_free(&a);
    gl_matrix_free(&b);
    *label = best.label;
    return best.text;
}

/* ---- the padding of a pitched output -------------------------------------- */

char *diagnose_padding(const errormap_padding *p, int row_floats)
{
    size_t changed = 0, total = (size_t)p->rows * (size_t)p->pad;
    int row_lo = -1, row_hi = -1, rows_hit = 0, j_lo = p->pad, j_hi = -1;
    for (int y = 0; y < p->rows; y++) {
        int hit = 0;
        for (int j = 0; j < p->pad; j++) {
            if (!p->changed[(size_t)y * p->pad + j])
                continue;
            changed++;
            hit = 1;
            j_lo = j < j_lo ? j : j_lo;
            j_hi = j > j_hi ? j : j_hi;
        }
        if (hit) {
            row_lo = row_lo < 0 ? y : row_lo;
            row_hi = y;
            rows_hit++;
        }
    }
    if (changed == 0)
        return NULL;
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "in padding: %zu of %zu padding floats changed, rows %d..%d", changed, total, row_lo,
              row_hi);
    if (rows_hit < row_hi - row_lo + 1)
        sb_printf(&sb, " (%d of those rows)", rows_hit);
    if (changed == total)
        sb_puts(&sb, ", every padding float of every row");
    else if (j_lo == j_hi)
        sb_printf(&sb, ", padding float %d of a row (column %d)", j_lo, row_floats + j_lo);
    else
        sb_printf(&sb, ", padding floats %d..%d of a row (columns %d..%d)", j_lo, j_hi, row_floats + j_lo,
                  row_floats + j_hi);
    sb_printf(&sb, "; only the first %d of the %d floats of each row of out are the image's: look at "
                   "what writes whole rows of out",
              row_floats, row_floats + p->pad);
    return sb_detach(&sb);
}

/* ---- the threads that made invalid accesses -------------------------------- */

/* "row 9" or "rows 9 to 15" */
static void span_words(strbuf *sb, const char *one, const char *many, unsigned lo, unsigned hi)
{
    if (lo == hi)
        sb_printf(sb, "%s %u", one, lo);
    else
        sb_printf(sb, "%s %u to %u", many, lo, hi);
}

/* "= 9" or "= 9..15" */
static void span_range(strbuf *sb, unsigned lo, unsigned hi)
{
    if (lo == hi)
        sb_printf(sb, "= %u", lo);
    else
        sb_printf(sb, "= %u..%u", lo, hi);
}

/* Which threads of a block fault: pos[t] counts the faulting blocks in which
 * thread t (linear index, x fastest) faults. */
static void thread_pattern(strbuf *sb, const fault_threads *f, const size_t *pos)
{
    unsigned bx = f->block[0], by = f->block[1], bz = f->block[2];
    size_t T = (size_t)bx * by * bz, ns = 0;
    unsigned lo[3] = { bx, by, bz }, hi[3] = { 0, 0, 0 };
    for (size_t t = 0; t < T; t++) {
        if (!pos[t])
            continue;
        unsigned c[3] = { (unsigned)(t % bx), (unsigned)(t / bx % by), (unsigned)(t / ((size_t)bx * by)) };
        ns++;
        for (int d = 0; d < 3; d++) {
            lo[d] = c[d] < lo[d] ? c[d] : lo[d];
            hi[d] = c[d] > hi[d] ? c[d] : hi[d];
        }
    }
    size_t box = (size_t)(hi[0] - lo[0] + 1) * (hi[1] - lo[1] + 1) * (hi[2] - lo[2] + 1);
    int full[3] = { lo[0] == 0 && hi[0] == bx - 1, lo[1] == 0 && hi[1] == by - 1, lo[2] == 0 && hi[2] == bz - 1 };
    if (ns == T) {
        sb_puts(sb, "every thread");
    } else if (ns == box && by == 1 && bz == 1) {
        sb_puts(sb, "the threads with threadIdx.x ");
        span_range(sb, lo[0], hi[0]);
    } else if (ns == box && full[0] && full[2]) {
        sb_puts(sb, "the threads in ");
        span_words(sb, "row", "rows", lo[1], hi[1]);
        sb_puts(sb, " (threadIdx.y ");
        span_range(sb, lo[1], hi[1]);
        sb_puts(sb, ")");
    } else if (ns == box && full[1] && full[2]) {
        sb_puts(sb, "the threads in ");
        span_words(sb, "column", "columns", lo[0], hi[0]);
        sb_puts(sb, " (threadIdx.x ");
        span_range(sb, lo[0], hi[0]);
        sb_puts(sb, ")");
    } else {
        if (ns == box)
            sb_puts(sb, "the threads with threadIdx.x ");
        else
            sb_printf(sb, "%zu threads within threadIdx.x ", ns);
        span_range(sb, lo[0], hi[0]);
        sb_puts(sb, ", threadIdx.y ");
        span_range(sb, lo[1], hi[1]);
        if (bz > 1) {
            sb_puts(sb, ", threadIdx.z ");
            span_range(sb, lo[2], hi[2]);
        }
    }
}

/* Which blocks fault: nb of them, every one, or those at the grid's far
 * edges (where a bounds test matters). */
static void block_pattern(strbuf *sb, const fault_threads *f, size_t nb)
{
    size_t B = (size_t)f->grid[0] * f->grid[1] * f->grid[2];
    int last_col = f->grid[0] > 1, last_row = f->grid[1] > 1, edge = 1;
    for (size_t i = 0; i < f->n; i++) {
        int c = f->at[i][0] == f->grid[0] - 1, r = f->at[i][1] == f->grid[1] - 1;
        last_col = last_col && c;
        last_row = last_row && r;
        edge = edge && (c || r);
    }
    if (B == 1)
        sb_puts(sb, f->exact ? "the launch's only block" : "block (0,0,0), the only one it named");
    else if (nb == B && f->exact)
        sb_puts(sb, "every block");
    else if (nb == B)
        sb_printf(sb, "each of the %zu blocks it named", nb);
    else if (nb == 1)
        sb_printf(sb, "block (%u,%u,%u) only", f->at[0][0], f->at[0][1], f->at[0][2]);
    else if (last_col)
        sb_printf(sb, "the blocks of the last column of the grid (blockIdx.x = %u)", f->grid[0] - 1);
    else if (last_row)
        sb_printf(sb, "the blocks of the last row of the grid (blockIdx.y = %u)", f->grid[1] - 1);
    else if (edge && f->grid[0] > 1 && f->grid[1] > 1)
        sb_puts(sb, "the blocks of the grid's last column and last row");
    else
        sb_printf(sb, "%zu of the %zu blocks", nb, B);
}

/* The sentence of a fault map or a race map: how many threads did `what`,
 * which ones in a block and in which blocks; `checker` named where the
 * launch's size is only implied by the threads it named. */
static char *diagnose_threads(const fault_threads *f, const char *what, const char *checker,
                              const char *more)
{
    if (f->n == 0)
        return NULL;
    size_t T = (size_t)f->block[0] * f->block[1] * f->block[2];
    size_t total = T * f->grid[0] * f->grid[1] * f->grid[2];
    if (T == 0 || T > 65536)
        return xasprintf("%zu threads of %s %s.", f->n, f->kernel, what);
    /* f is sorted block by block (fault_threads_finish) */
    size_t *pos = xcalloc(T, sizeof *pos);
    size_t nb = 0;
    for (size_t i = 0; i < f->n; i++) {
        const unsigned *t = f->at[i];
        if (i == 0 || memcmp(t, f->at[i - 1], 3 * sizeof *t) != 0)
            nb++;
        if (t[3] < f->block[0] && t[4] < f->block[1] && t[5] < f->block[2])
            pos[((size_t)t[5] * f->block[1] + t[4]) * f->block[0] + t[3]]++;
    }
    int same = 1;
    for (size_t t = 0; t < T; t++)
        same = same && (pos[t] == 0 || pos[t] == nb);
    strbuf sb;
    sb_init(&sb);
    if (f->exact)
        sb_printf(&sb, "%zu of the %zu threads of %s %s: ", f->n, total, f->kernel, what);
    else
        sb_printf(&sb, "%s named %zu threads of %s that %s: ", checker, f->n, f->kernel, what);
    thread_pattern(&sb, f, pos);
    if (same) {
        sb_puts(&sb, " of ");
        block_pattern(&sb, f, nb);
    } else {
        sb_puts(&sb, " (not the same threads in each block), in ");
        block_pattern(&sb, f, nb);
    }
    if (f->incomplete)
        sb_printf(&sb, "; the checker stopped before the launch's end, so more threads may have %s", more);
    if (!f->exact)
        sb_printf(&sb, "; %s does not report the launch's size, so the map spans the largest indices it "
                       "named (gridDim at least (%u,%u,%u), blockDim at least (%u,%u,%u))",
                  checker, f->grid[0], f->grid[1], f->grid[2], f->block[0], f->block[1], f->block[2]);
    sb_puts(&sb, ".");
    free(pos);
    return sb_detach(&sb);
}

char *diagnose_faults(const fault_threads *f)
{
    return diagnose_threads(f, "made an invalid memory access", "memcheck", "faulted");
}

char *diagnose_races(const fault_threads *f)
{
    return diagnose_threads(f, "took part in a shared-memory race (one wrote an element another read, "
                               "with no barrier between them)", "racecheck", "raced");
}

/* ---- the launch's shape against the tiles --------------------------------- */

char *diagnose_block_smaller_than_tiles(long shared_bytes, unsigned bx, unsigned by, const char *kernel)
{
    if (shared_bytes <= 0 || shared_bytes % 8 != 0 || bx == 0 || by == 0)
        return NULL;
    long t = (long)(sqrt((double)(shared_bytes / 8)) + 0.5);
    if (t * t * 8 != shared_bytes || (long)bx * by >= t * t)
        return NULL;
    return xasprintf("kernel %s keeps two tiles of %ld x %ld floats in shared memory (%ld bytes) but runs in "
                     "blocks of %u x %u threads: one load per thread fills only %u x %u of each tile, and the "
                     "rest is read although nothing stored it (NaN); launch blocks of TILE_WIDTH x TILE_WIDTH "
                     "threads (dim3 dimBlock(TILE_WIDTH, TILE_WIDTH)), the size of a tile",
                     kernel, t, t, shared_bytes, bx, by, bx, by);
}
