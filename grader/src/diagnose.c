/*
 * diagnose.c - see diagnose.h.
 */
#define _GNU_SOURCE
#include "diagnose.h"
#include "util.h"

#include <math.h>
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

char *diagnose_output(const gl_matrix *got, const gl_reference *want, const unsigned char *bad,
                      const compare_result *r)
{
    size_t n = gl_matrix_count(got);
    if (r->mismatches == 0)
        return NULL;
    if (r->poisoned == n)
        return xstrdup("no element was written: check that the kernel is launched, that it writes the "
                       "output, and that the result is copied back to where the harness reads it");
    bad_box b = box_of(got, bad);
    if (r->poisoned > 0 && r->poisoned == r->mismatches) {
        return xasprintf("%zu elements were never written, in rows %d to %d and columns %d to %d: "
                         "check that the grid covers the whole output (round the block count up)",
                         r->poisoned, b.min_row, b.max_row, b.min_col, b.max_col);
    }
    if (r->nonfinite > 0)
        return xasprintf("%zu elements are NaN or infinite: a value was read before anything was "
                         "stored there (shared memory is not initialised), or read from outside an "
                         "array", r->nonfinite);

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
        return xstrdup("every element is 0: the sums are never accumulated into what is written, or "
                       "the inputs never reached the device");
    if (transposed && b.count > 0)
        return xstrdup("the output is the transpose of the expected one: somewhere a row index and a "
                       "column index are swapped (Row/Col, tx/ty, or x/y)");
    if (scaled && used > 1 && fabs(ratio - 1) > 1e-3)
        return xasprintf("every element is the expected value times %.4g: look for a sum counted more "
                         "or fewer times than it should be (the phase loop's count, or a reset of the "
                         "running sum)", ratio);
    char *band = tile_band(got, &b);
    return band ? band : partial_band(got, bad);
}

char *diagnose_across_datasets(const int *sizes, const int *failed, int n, int tile)
{
    int small_ok = 0, small_fail = 0, large_ok = 0, large_fail = 0;
    for (int i = 0; i < n; i++) {
        int large = sizes[i] > tile;
        if (large)
            failed[i] ? large_fail++ : large_ok++;
        else
            failed[i] ? small_fail++ : small_ok++;
    }
    if (large_fail > 0 && large_ok == 0 && small_ok > 0 && small_fail == 0)
        return xasprintf("every dataset larger than one tile (%d) fails and every smaller one passes: "
                         "look at what happens between phases (the barriers, and the phase loop)", tile);
    return NULL;
}
