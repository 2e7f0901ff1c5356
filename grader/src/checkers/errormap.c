/*
 * errormap.c - see errormap.h.
 *
 * Self-contained (only dataset.h and libpng), so a test can build it alone.
 */
#include "errormap.h"

#include <math.h>
#include <png.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define UNIT_ROUNDOFF 5.9604644775390625e-08 /* 2^-24 */

enum { ST_OK = 0, ST_WRONG = 1, ST_NAN = 2, ST_POISON = 3 };

/* Per image position: the worst channel's state and its error/tolerance. */
typedef struct {
    unsigned char state;
    float ratio;
} cell;

static char *vfmt(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap2);
    va_end(ap2);
    if (n < 0)
        return NULL;
    char *s = malloc((size_t)n + 1);
    if (s)
        vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

static char *fmt(const char *f, ...)
{
    va_list ap;
    va_start(ap, f);
    char *s = vfmt(f, ap);
    va_end(ap);
    return s;
}

/* A growing string; on allocation failure it stays NULL and later appends
 * do nothing. */
typedef struct {
    char *s;
    size_t len, cap;
    int failed;
} sbuf;

static void sb_add(sbuf *b, const char *f, ...)
{
    if (b->failed)
        return;
    va_list ap;
    va_start(ap, f);
    char *piece = vfmt(f, ap);
    va_end(ap);
    if (!piece) {
        b->failed = 1;
        return;
    }
    size_t n = strlen(piece);
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 256) + n;
        char *s = realloc(b->s, cap);
        if (!s) {
            free(piece);
            b->failed = 1;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, piece, n + 1);
    b->len += n;
    free(piece);
}

static char *sb_take(sbuf *b)
{
    if (b->failed) {
        free(b->s);
        return NULL;
    }
    return b->s ? b->s : fmt("%s", "");
}

static int shapes_agree(const gl_matrix *got, const gl_reference *want)
{
    return got->rows == want->rows && got->cols == want->cols && got->channels == want->channels &&
           got->data && want->value;
}

static double tolerance_of(const gl_reference *want, const double *tol, size_t e)
{
    if (tol)
        return tol[e];
    if (want->magnitude)
        return 2.0 * (want->terms > 0 ? want->terms : 1) * UNIT_ROUNDOFF * want->magnitude[e] + 1e-6;
    return 1e-5 * fabs(want->value[e]) + 1e-6;
}

/* Classifies every position; chan_bad (channels entries) counts wrong
 * elements per channel, counts[state] wrong elements per kind. */
static cell *classify(const gl_matrix *got, const gl_reference *want, const double *tol,
                      size_t *chan_bad, size_t counts[4])
{
    size_t npos = (size_t)got->rows * got->cols;
    cell *cells = calloc(npos ? npos : 1, sizeof *cells);
    if (!cells)
        return NULL;
    memset(counts, 0, 4 * sizeof counts[0]);
    for (int c = 0; c < got->channels; c++)
        chan_bad[c] = 0;
    for (size_t p = 0; p < npos; p++) {
        for (int c = 0; c < got->channels; c++) {
            size_t e = p * got->channels + c;
            float g = got->data[e];
            uint32_t bits;
            memcpy(&bits, &g, sizeof bits);
            int st;
            float ratio = 0;
            if (bits == GL_POISON_BITS)
                st = ST_POISON;
            else if (!isfinite(g))
                st = ST_NAN;
            else {
                double err = fabs((double)g - want->value[e]);
                double t = tolerance_of(want, tol, e);
                st = err > t ? ST_WRONG : ST_OK;
                if (st == ST_WRONG)
                    ratio = t > 0 ? (float)(err / t) : (float)INFINITY;
            }
            if (st != ST_OK) {
                counts[st]++;
                chan_bad[c]++;
            }
            if (st > cells[p].state || (st == ST_WRONG && cells[p].state == ST_WRONG && ratio > cells[p].ratio)) {
                cells[p].state = (unsigned char)st;
                cells[p].ratio = ratio;
            }
        }
    }
    return cells;
}

/* ---- the sentence -------------------------------------------------------- */

typedef struct {
    int rows, cols, T, h;
} geom;

static int near_image_edge(const geom *g, int y, int x)
{
    return y < g->h || y >= g->rows - g->h || x < g->h || x >= g->cols - g->h;
}

static int near_tile_row_edge(const geom *g, int y)
{
    return g->T > 0 && (y % g->T < g->h || y % g->T >= g->T - g->h);
}

static int near_tile_col_edge(const geom *g, int x)
{
    return g->T > 0 && (x % g->T < g->h || x % g->T >= g->T - g->h);
}

static int in_partial_tile(const geom *g, int y, int x)
{
    if (g->T <= 0)
        return 0;
    return (g->cols % g->T && x >= g->cols / g->T * g->T) || (g->rows % g->T && y >= g->rows / g->T * g->T);
}

enum { P_IMAGE_EDGE, P_PARTIAL, P_CORNER, P_TILE_EDGE, NPRED };

static void join_words(sbuf *b, const char *const *words, int n)
{
    for (int i = 0; i < n; i++)
        sb_add(b, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", words[i]);
}

static char *summarize(const cell *cells, const gl_matrix *got, const size_t *chan_bad,
                       const size_t counts[4], int tile_width, int halo)
{
    geom g = { got->rows, got->cols, tile_width > 0 ? tile_width : 0, halo > 0 ? halo : 1 };
    size_t npos = (size_t)g.rows * g.cols;
    size_t elements = npos * got->channels;
    size_t wrong = counts[ST_WRONG] + counts[ST_NAN] + counts[ST_POISON];
    sbuf b = { 0 };

    if (wrong == 0)
        return elements == 1 ? fmt("The one element is within tolerance.")
                             : fmt("All %zu elements are within tolerance.", elements);
    if (counts[ST_POISON] == elements)
        return elements == 1 ? fmt("The one element was never written: the output still holds the kit's poison "
                                   "value.")
                             : fmt("None of the %zu elements was written: the output still holds the kit's poison "
                                   "value everywhere.", elements);

    /* how many bad positions satisfy each predicate, and how many positions
     * do at all */
    size_t nbad = 0, hit[NPRED] = { 0 }, all[NPRED] = { 0 };
    size_t edge_hits[4] = { 0 };     /* image edge: top, bottom, left, right */
    size_t tedge_hits[4] = { 0 };    /* tile edge: top, bottom, left, right */
    int miny = -1, maxy = -1, minx = -1, maxx = -1, ty_lo = g.T, ty_hi = -1, tx_lo = g.T, tx_hi = -1;
    int first_y = -1, first_x = -1;
    for (int y = 0; y < g.rows; y++) {
        for (int x = 0; x < g.cols; x++) {
            int pred[NPRED];
            pred[P_IMAGE_EDGE] = near_image_edge(&g, y, x);
            pred[P_PARTIAL] = in_partial_tile(&g, y, x);
            pred[P_CORNER] = near_tile_row_edge(&g, y) && near_tile_col_edge(&g, x);
            pred[P_TILE_EDGE] = near_tile_row_edge(&g, y) || near_tile_col_edge(&g, x);
            for (int k = 0; k < NPRED; k++)
                all[k] += pred[k];
            if (cells[(size_t)y * g.cols + x].state == ST_OK)
                continue;
            nbad++;
            for (int k = 0; k < NPRED; k++)
                hit[k] += pred[k];
            if (first_y < 0) {
                first_y = y;
                first_x = x;
                miny = maxy = y;
                minx = maxx = x;
            }
            miny = y < miny ? y : miny;
            maxy = y > maxy ? y : maxy;
            minx = x < minx ? x : minx;
            maxx = x > maxx ? x : maxx;
            edge_hits[0] += y < g.h;
            edge_hits[1] += y >= g.rows - g.h;
            edge_hits[2] += x < g.h;
            edge_hits[3] += x >= g.cols - g.h;
            if (g.T > 0) {
                int ty = y % g.T, tx = x % g.T;
                tedge_hits[0] += ty < g.h;
                tedge_hits[1] += ty >= g.T - g.h;
                tedge_hits[2] += tx < g.h;
                tedge_hits[3] += tx >= g.T - g.h;
                ty_lo = ty < ty_lo ? ty : ty_lo;
                ty_hi = ty > ty_hi ? ty : ty_hi;
                tx_lo = tx < tx_lo ? tx : tx_lo;
                tx_hi = tx > tx_hi ? tx : tx_hi;
            }
        }
    }

    sb_add(&b, "%zu of %zu element%s %s wrong", wrong, elements, elements == 1 ? "" : "s", wrong == 1 ? "is" : "are");
    if (counts[ST_POISON] || counts[ST_NAN]) {
        sb_add(&b, " (");
        if (counts[ST_POISON])
            sb_add(&b, "%zu never written%s", counts[ST_POISON], counts[ST_NAN] ? ", " : "");
        if (counts[ST_NAN])
            sb_add(&b, "%zu NaN or infinite", counts[ST_NAN]);
        sb_add(&b, ")");
    }
    sb_add(&b, ", ");

    /* A predicate describes the errors when (nearly) all of them satisfy it
     * and it singles out a minority of the image. */
#define CONFINED(k) (hit[k] * 100 >= nbad * 95 && all[k] * 10 <= npos * 6)
    static const char *const side[4] = { "top", "bottom", "left", "right" };
    const char *words[4];
    int n;
    int tiles_y = g.T > 0 ? (g.rows + g.T - 1) / g.T : 1, tiles_x = g.T > 0 ? (g.cols + g.T - 1) / g.T : 1;
    int several_tiles = g.T > 0 && (maxy / g.T > miny / g.T || maxx / g.T > minx / g.T);

    if (npos == 1) {
        sb_add(&b, "at the image's one pixel"); /* a 1 x 1 image has no "where" */
    } else if (nbad * 10 >= npos * 9) {
        sb_add(&b, "almost everywhere in the image");
    } else if (CONFINED(P_IMAGE_EDGE)) {
        n = 0;
        for (int k = 0; k < 4; k++)
            if (edge_hits[k] * 10 >= nbad)
                words[n++] = side[k];
        sb_add(&b, "at the image border (within %d of its ", g.h);
        join_words(&b, words, n);
        sb_add(&b, " edge%s)", n > 1 ? "s" : "");
    } else if (CONFINED(P_PARTIAL)) {
        int in_col = g.cols % g.T && minx >= g.cols / g.T * g.T;
        int in_row = g.rows % g.T && miny >= g.rows / g.T * g.T;
        if (in_col && !in_row)
            sb_add(&b, "in the last, partial column of tiles (columns %d to %d)", g.cols / g.T * g.T, g.cols - 1);
        else if (in_row && !in_col)
            sb_add(&b, "in the last, partial row of tiles (rows %d to %d)", g.rows / g.T * g.T, g.rows - 1);
        else
            sb_add(&b, "in the last, partial tiles at the right and bottom of the image");
    } else if (CONFINED(P_CORNER) && several_tiles) {
        sb_add(&b, "at the corners of the %d x %d tiles (within %d of two tile edges at once, where the "
                   "halos of neighbouring tiles meet)", g.T, g.T, g.h);
    } else if (CONFINED(P_TILE_EDGE) && several_tiles) {
        n = 0;
        for (int k = 0; k < 4; k++)
            if (tedge_hits[k] * 10 >= nbad)
                words[n++] = side[k];
        sb_add(&b, "along tile borders (within %d of the ", g.h);
        join_words(&b, words, n);
        sb_add(&b, " edge%s of the %d x %d tiles)", n > 1 ? "s" : "", g.T, g.T);
    } else if (g.T > 0 && several_tiles && (ty_hi - ty_lo + 1 < g.T || tx_hi - tx_lo + 1 < g.T) &&
               (tiles_y > 1 || tiles_x > 1)) {
        sb_add(&b, "in the same part of every tile they touch: ");
        if (ty_hi - ty_lo + 1 < g.T)
            sb_add(&b, "rows %d to %d", ty_lo, ty_hi);
        if (ty_hi - ty_lo + 1 < g.T && tx_hi - tx_lo + 1 < g.T)
            sb_add(&b, " and ");
        if (tx_hi - tx_lo + 1 < g.T)
            sb_add(&b, "columns %d to %d", tx_lo, tx_hi);
        sb_add(&b, " of the %d x %d tile", g.T, g.T);
    } else if (nbad * 2 >= npos) {
        sb_add(&b, "across most of the image");
    } else if (nbad == 1) {
        sb_add(&b, "all at one position");
    } else {
        sb_add(&b, "in rows %d to %d and columns %d to %d, not following the tiles", miny, maxy, minx, maxx);
    }
#undef CONFINED

    /* channels that are entirely right */
    if (got->channels > 1) {
        int nright = 0;
        for (int c = 0; c < got->channels; c++)
            nright += chan_bad[c] == 0;
        if (nright > 0) {
            sb_add(&b, ", only in channel%s", got->channels - nright > 1 ? "s" : "");
            int k = 0;
            for (int c = 0; c < got->channels; c++)
                if (chan_bad[c])
                    sb_add(&b, "%s%d", k++ ? (k == got->channels - nright ? " and " : ", ") : " ", c);
            sb_add(&b, " (counting from 0)");
        }
    }
    /* report.c (hint_diagnosis) finds where a diagnosis joined after this
     * sentence begins by these words: keep them */
    sb_add(&b, "; the first is at row %d, column %d.", first_y, first_x);
    return sb_take(&b);
}

char *errormap_summary(const gl_matrix *got, const gl_reference *want, const double *tolerance,
                       int tile_width, int halo)
{
    if (!shapes_agree(got, want))
        return NULL;
    size_t counts[4];
    size_t *chan_bad = calloc((size_t)got->channels, sizeof *chan_bad);
    if (!chan_bad)
        return NULL;
    cell *cells = classify(got, want, tolerance, chan_bad, counts);
    char *s = cells ? summarize(cells, got, chan_bad, counts, tile_width, halo) : NULL;
    free(cells);
    free(chan_bad);
    return s;
}

/* ---- the picture ----------------------------------------------------------- */

/* Every map is framed the same way (errormap.h): a grey frame that shows on a
 * white page and on a dark one, the picture inside it, and for the error
 * maps a key strip under the picture. */
#define FRAME 4
#define KEY_GAP 4
#define KEY_HEIGHT 10
#define SWATCH 10
#define RAMP 80
#define KEY_WIDTH (SWATCH + KEY_GAP + RAMP + KEY_GAP + SWATCH + KEY_GAP + SWATCH)

static void set_rgb(unsigned char rgb[3], int r, int g, int b)
{
    rgb[0] = (unsigned char)r;
    rgb[1] = (unsigned char)g;
    rgb[2] = (unsigned char)b;
}

/* The maps' colours (errormap.h), in the order of the keys. The pixel code
 * below takes each colour from here by its index, so a picture and its
 * keys cannot disagree. */
enum { K_RIGHT, K_WRONG, K_NAN, K_POISON, K_GRID, K_PAD_OK, K_PAD_CHANGED, K_FILLER, K_FAULT, K_NO_FAULT,
       K_BLOCK, K_BLOCK_FAULT, K_FRAME };

const errormap_colour errormap_colours[] = {
    [K_RIGHT] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING, { 48, 48, 48 }, 0, "dark grey", "right" },
    [K_WRONG] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING, { 170, 150, 0 }, 1, "dark yellow to red",
                  "wrong (redder is further off, 1 to 10^6 times the tolerance)" },
    [K_NAN] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING, { 255, 0, 255 }, 0, "magenta", "NaN or infinite" },
    [K_POISON] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING, { 40, 90, 255 }, 0, "blue", "never written" },
    [K_GRID] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING, { 80, 80, 104 }, 0, "grey-blue lines", "the tiles" },
    [K_PAD_OK] = { ERRORMAP_KEY_PADDING, { 20, 70, 60 }, 0, "dark teal",
                   "padding intact (the columns right of each row)" },
    [K_PAD_CHANGED] = { ERRORMAP_KEY_PADDING, { 0, 255, 255 }, 0, "cyan", "padding changed" },
    [K_FILLER] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING, { 0, 0, 0 }, 0, "black",
                   "nothing drawn (beside a picture narrower than its key strip)" },
    [K_FAULT] = { ERRORMAP_KEY_FAULT, { 255, 96, 0 }, 0, "orange", "a thread that made an invalid access" },
    [K_NO_FAULT] = { ERRORMAP_KEY_FAULT, { 28, 28, 36 }, 0, "dark", "a thread that did not" },
    [K_BLOCK] = { ERRORMAP_KEY_FAULT, { 90, 90, 130 }, 0, "grey-blue lines", "the blocks" },
    [K_BLOCK_FAULT] = { ERRORMAP_KEY_FAULT, { 160, 56, 0 }, 0, "dark orange lines",
                        "the blocks, through a thread that made an invalid access" },
    [K_FRAME] = { ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING | ERRORMAP_KEY_FAULT, { 150, 150, 150 }, 0,
                  "mid grey", "the frame" },
};
const size_t errormap_ncolours = sizeof errormap_colours / sizeof *errormap_colours;

static void set_key(unsigned char rgb[3], int k)
{
    memcpy(rgb, errormap_colours[k].rgb, 3);
}

char *errormap_key_text(unsigned maps)
{
    size_t len = 1;
    for (size_t i = 0; i < errormap_ncolours; i++)
        if (errormap_colours[i].maps & maps)
            len += strlen(errormap_colours[i].colour) + strlen(errormap_colours[i].meaning) + 3;
    char *text = malloc(len);
    if (!text)
        return NULL;
    text[0] = '\0';
    for (size_t i = 0, n = 0; i < errormap_ncolours; i++)
        if (errormap_colours[i].maps & maps) {
            size_t at = strlen(text);
            snprintf(text + at, len - at, "%s%s %s", n++ ? "; " : "", errormap_colours[i].colour,
                     errormap_colours[i].meaning);
        }
    return text;
}

/* A wrong element's colour: t from 0 (just outside its tolerance) to 1
 * (10^6 times it or more) runs dark yellow -> orange -> saturated red, so the
 * worst errors stay loud on any page and never turn white. */
void errormap_ramp_colour(double t, unsigned char rgb[3])
{
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    if (t < 0.5) {
        double u = t * 2;
        set_rgb(rgb, (int)(170 + 85 * u), (int)(150 - 10 * u), 0);
    } else {
        double u = (t - 0.5) * 2;
        set_rgb(rgb, 255, (int)(140 - 140 * u), 0);
    }
}

static void colour_of(const cell *c, unsigned char rgb[3])
{
    switch (c->state) {
    case ST_OK:
        set_key(rgb, K_RIGHT);
        return;
    case ST_POISON:
        set_key(rgb, K_POISON);
        return;
    case ST_NAN:
        set_key(rgb, K_NAN);
        return;
    }
    errormap_ramp_colour(c->ratio > 1 ? log10((double)c->ratio) / 6.0 : 0, rgb);
}

/* The colour of padding float j of row y (errormap_write_padded). */
static void padding_colour(const errormap_padding *p, int y, int j, unsigned char rgb[3])
{
    set_key(rgb, p->changed[(size_t)y * p->pad + j] ? K_PAD_CHANGED : K_PAD_OK);
}

/* The largest whole scale from 1 to 8 that keeps the picture within 1024
 * pixels each way. */
static int scale_for(int rows, int cols)
{
    int big = rows > cols ? rows : cols;
    int s = 1;
    while (s < 8 && (s + 1) * big <= 1024)
        s++;
    return s;
}

/* Draws pixel (px, py) of the picture inside the frame. */
typedef void (*pixel_fn)(const void *ctx, size_t px, size_t py, unsigned char rgb[3]);

/* The key strip's pixel at x from its left end: right, the ramp of wrong,
 * NaN, never written, KEY_GAP black pixels apart (errormap.h). */
static void key_pixel(size_t x, unsigned char rgb[3])
{
    const size_t ramp = SWATCH + KEY_GAP, nan = ramp + RAMP + KEY_GAP, poison = nan + SWATCH + KEY_GAP;
    set_key(rgb, K_FILLER);
    if (x < SWATCH)
        set_key(rgb, K_RIGHT);
    else if (x >= ramp && x < ramp + RAMP)
        errormap_ramp_colour((double)(x - ramp) / (RAMP - 1), rgb);
    else if (x >= nan && x < nan + SWATCH)
        set_key(rgb, K_NAN);
    else if (x >= poison && x < poison + SWATCH)
        set_key(rgb, K_POISON);
}

/* libpng reports errors by longjmp from its error callback; the message is
 * not printed (the caller says what failed). */
static void png_fail(png_structp png, png_const_charp msg)
{
    (void)msg;
    png_longjmp(png, 1);
}

static void png_quiet(png_structp png, png_const_charp msg)
{
    (void)png;
    (void)msg;
}

/*
 * Writes a PNG at path: the W x H picture that fn draws, framed, with the
 * key strip under it when with_key. Returns 0, or -1 with no file left.
 */
static int write_framed_png(const char *path, size_t W, size_t H, pixel_fn fn, const void *ctx, int with_key)
{
    size_t inner_w = with_key && W < KEY_WIDTH ? KEY_WIDTH : W;
    size_t inner_h = H + (with_key ? KEY_GAP + KEY_HEIGHT : 0);
    size_t CW = inner_w + 2 * FRAME, CH = inner_h + 2 * FRAME;
    if (CW > 0x7fffffff / 3 || CH > 0x7fffffff)
        return -1;
    FILE *f = fopen(path, "wb");
    if (!f)
        return -1;
    unsigned char *volatile line = malloc(CW * 3);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, png_fail, png_quiet);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!line || !png || !info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(png ? &png : NULL, info ? &info : NULL);
        free(line);
        fclose(f);
        remove(path);
        return -1;
    }
    png_init_io(png, f);
    png_set_IHDR(png, info, (png_uint_32)CW, (png_uint_32)CH, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (size_t y = 0; y < CH; y++) {
        for (size_t x = 0; x < CW; x++) {
            unsigned char *rgb = line + x * 3;
            if (x < FRAME || y < FRAME || x >= CW - FRAME || y >= CH - FRAME)
                set_key(rgb, K_FRAME); /* mid grey, seen on white and on black */
            else if (x - FRAME < W && y - FRAME < H)
                fn(ctx, x - FRAME, y - FRAME, rgb);
            else if (with_key && y - FRAME >= H + KEY_GAP)
                key_pixel(x - FRAME, rgb);
            else
                set_key(rgb, K_FILLER);
        }
        png_write_row(png, line);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    free(line);
    if (fclose(f) != 0) {
        remove(path);
        return -1;
    }
    return 0;
}

/* The picture of an error map: the image's cells, then (pad, or NULL) the
 * padding columns of each row, each an s x s block. */
typedef struct {
    const cell *cells;
    int rows, cols, T, s;
    const errormap_padding *pad;
} error_picture;

static void error_pixel(const void *ctx, size_t px, size_t py, unsigned char rgb[3])
{
    const error_picture *p = ctx;
    int s = p->s, y = (int)(py / (size_t)s), x = (int)(px / (size_t)s);
    if (x >= p->cols) {
        padding_colour(p->pad, y, x - p->cols, rgb);
        return;
    }
    const cell *c = &p->cells[(size_t)y * p->cols + x];
    colour_of(c, rgb);
    int hline = p->T > 0 && py > 0 && py % ((size_t)p->T * s) == 0;
    int vline = p->T > 0 && px > 0 && px % ((size_t)p->T * s) == 0;
    if ((hline || vline) && c->state == ST_OK)
        set_key(rgb, K_GRID); /* faint, over correct pixels only */
}

static int write_picture(const char *path, const cell *cells, int rows, int cols, int T,
                         const errormap_padding *pad)
{
    int extra = pad ? pad->pad : 0;
    error_picture p = { cells, rows, cols, T, scale_for(rows, cols + extra), pad };
    return write_framed_png(path, (size_t)(cols + extra) * p.s, (size_t)rows * p.s, error_pixel, &p, 1);
}

/* errormap_write() and errormap_write_padded(): pad is NULL for the first. */
static int write_map(const char *png_path, const gl_matrix *got, const gl_reference *want,
                     const double *tolerance, int tile_width, int halo, const errormap_padding *pad,
                     char **summary)
{
    *summary = NULL;
    if (!shapes_agree(got, want)) {
        *summary = fmt("no error map: the output is %d x %d x %d, the expected output %d x %d x %d",
                       got->rows, got->cols, got->channels, want->rows, want->cols, want->channels);
        return -1;
    }
    size_t counts[4];
    size_t *chan_bad = calloc((size_t)got->channels, sizeof *chan_bad);
    cell *cells = chan_bad ? classify(got, want, tolerance, chan_bad, counts) : NULL;
    if (!cells) {
        free(chan_bad);
        *summary = fmt("no error map: out of memory");
        return -1;
    }
    int rc = 0;
    if (write_picture(png_path, cells, got->rows, got->cols, tile_width, pad) != 0) {
        *summary = fmt("no error map: cannot write %s", png_path);
        rc = -1;
    } else {
        *summary = summarize(cells, got, chan_bad, counts, tile_width, halo);
        if (!*summary) {
            *summary = fmt("no error map summary: out of memory");
            rc = -1;
        }
    }
    free(cells);
    free(chan_bad);
    return rc;
}

int errormap_write(const char *png_path, const gl_matrix *got, const gl_reference *want,
                   const double *tolerance, int tile_width, int halo, char **summary)
{
    return write_map(png_path, got, want, tolerance, tile_width, halo, NULL, summary);
}

int errormap_write_padded(const char *png_path, const gl_matrix *got, const gl_reference *want,
                          const double *tolerance, int tile_width, int halo,
                          const errormap_padding *padding, char **summary)
{
    if (!padding || padding->rows != got->rows || padding->pad < 1 || !padding->changed) {
        *summary = fmt("no error map: the padding does not fit the %d-row output", got->rows);
        return -1;
    }
    return write_map(png_path, got, want, tolerance, tile_width, halo, padding, summary);
}

int errormap_thumbnail(const gl_matrix *got, const gl_reference *want, const double *tolerance,
                       int max_rows, int max_cols, unsigned char *rgb, int *rows, int *cols)
{
    *rows = *cols = 0;
    if (!shapes_agree(got, want) || max_rows < 1 || max_cols < 1 || got->rows < 1 || got->cols < 1)
        return -1;
    size_t counts[4];
    size_t *chan_bad = calloc((size_t)got->channels, sizeof *chan_bad);
    cell *cells = chan_bad ? classify(got, want, tolerance, chan_bad, counts) : NULL;
    free(chan_bad);
    if (!cells)
        return -1;
    /* one factor for both sides keeps the image's shape */
    int k = (got->rows + max_rows - 1) / max_rows, kc = (got->cols + max_cols - 1) / max_cols;
    k = kc > k ? kc : k;
    *rows = (got->rows + k - 1) / k;
    *cols = (got->cols + k - 1) / k;
    for (int ty = 0; ty < *rows; ty++)
        for (int tx = 0; tx < *cols; tx++) {
            /* the worst cell of the k x k block: an error never vanishes */
            cell worst = { ST_OK, 0 };
            for (int y = ty * k; y < (ty + 1) * k && y < got->rows; y++)
                for (int x = tx * k; x < (tx + 1) * k && x < got->cols; x++) {
                    const cell *c = &cells[(size_t)y * got->cols + x];
                    if (c->state > worst.state || (c->state == worst.state && c->ratio > worst.ratio))
                        worst = *c;
                }
            colour_of(&worst, rgb + ((size_t)ty * *cols + tx) * 3);
        }
    free(cells);
    return 0;
}

/* ---- the fault map ------------------------------------------------------------ */

#define FAULT_THREADS_MAX ((size_t)1 << 20)
#define FAULT_MAP_MAX 8192

int fault_threads_add(fault_threads *f, const unsigned block[3], const unsigned thread[3])
{
    if (f->n == f->cap) {
        size_t cap = f->cap ? f->cap * 2 : 256;
        if (cap > FAULT_THREADS_MAX)
            return -1;
        void *grown = realloc(f->at, cap * sizeof *f->at);
        if (!grown)
            return -1;
        f->at = grown;
        f->cap = cap;
    }
    unsigned *t = f->at[f->n++];
    for (int d = 0; d < 3; d++) {
        t[d] = block[d];
        t[3 + d] = thread[d];
    }
    return 0;
}

/* Block z, y, x, then thread z, y, x: the order a reader scans the map. */
static int fault_order(const void *pa, const void *pb)
{
    static const int key[6] = { 2, 1, 0, 5, 4, 3 };
    const unsigned *a = pa, *b = pb;
    for (int k = 0; k < 6; k++)
        if (a[key[k]] != b[key[k]])
            return a[key[k]] < b[key[k]] ? -1 : 1;
    return 0;
}

void fault_threads_finish(fault_threads *f)
{
    if (f->n == 0)
        return;
    qsort(f->at, f->n, sizeof *f->at, fault_order);
    size_t kept = 1;
    for (size_t i = 1; i < f->n; i++)
        if (fault_order(f->at[i], f->at[kept - 1]) != 0)
            memmove(f->at[kept++], f->at[i], sizeof *f->at);
    f->n = kept;
    if (f->exact)
        return;
    /* memcheck names threads, not the launch's size: the smallest grid and
     * blocks that hold every thread it named */
    for (int d = 0; d < 3; d++)
        f->grid[d] = f->block[d] = 1;
    for (size_t i = 0; i < f->n; i++)
        for (int d = 0; d < 3; d++) {
            if (f->at[i][d] + 1 > f->grid[d])
                f->grid[d] = f->at[i][d] + 1;
            if (f->at[i][3 + d] + 1 > f->block[d])
                f->block[d] = f->at[i][3 + d] + 1;
        }
}

void fault_threads_free(fault_threads *f)
{
    free(f->at);
    memset(f, 0, sizeof *f);
}

/* The map's width and height in cells (threads), or 0 when too large. */
static void fault_map_size(const fault_threads *f, size_t *w, size_t *h)
{
    *w = (size_t)f->grid[0] * f->block[0];
    *h = (size_t)f->grid[1] * f->grid[2] * f->block[1] * f->block[2];
    if (*w > FAULT_MAP_MAX || *h > FAULT_MAP_MAX)
        *w = *h = 0;
}

/* Marks each faulting thread's cell (see errormap_write_faults). */
static unsigned char *fault_cells(const fault_threads *f, size_t w, size_t h)
{
    unsigned char *hit = calloc(w * h, 1);
    if (!hit)
        return NULL;
    for (size_t i = 0; i < f->n; i++) {
        const unsigned *t = f->at[i];
        int inside = 1;
        for (int d = 0; d < 3; d++)
            inside = inside && t[d] < f->grid[d] && t[3 + d] < f->block[d];
        if (!inside)
            continue;
        size_t px = (size_t)t[0] * f->block[0] + t[3];
        size_t py = (((size_t)t[2] * f->grid[1] + t[1]) * f->block[2] + t[5]) * f->block[1] + t[4];
        hit[py * w + px] = 1;
    }
    return hit;
}

/* The picture of a fault map: one s x s cell per thread (errormap.h). */
typedef struct {
    const unsigned char *hit;
    size_t w, bw, bh;
    int s;
} fault_picture;

static void fault_pixel(const void *ctx, size_t px, size_t py, unsigned char rgb[3])
{
    const fault_picture *p = ctx;
    int boundary = (px > 0 && px % p->bw == 0) || (py > 0 && py % p->bh == 0);
    int faulted = p->hit[(py / p->s) * p->w + px / p->s];
    set_key(rgb, faulted && boundary ? K_BLOCK_FAULT : faulted ? K_FAULT : boundary ? K_BLOCK : K_NO_FAULT);
}

int errormap_write_faults(const char *png_path, const fault_threads *f)
{
    size_t w, h;
    fault_map_size(f, &w, &h);
    if (f->n == 0 || w == 0 || h == 0)
        return -1;
    unsigned char *hit = fault_cells(f, w, h);
    if (!hit)
        return -1;
    int s = scale_for((int)h, (int)w);
    fault_picture p = { hit, w, (size_t)f->block[0] * s, (size_t)f->block[1] * f->block[2] * s, s };
    int rc = write_framed_png(png_path, w * (size_t)s, h * (size_t)s, fault_pixel, &p, 0);
    free(hit);
    return rc;
}
