/*
 * generate.c - lab 04's datasets (lab 05 builds the same ones): an 8-bit
 * image made procedurally, a MASK_WIDTH x MASK_WIDTH mask, and the exact
 * convolution with ghost cells = 0, computed in double precision with each
 * element's magnitude (the sum of |mask * pixel| over its 25 terms).
 *
 * Parameters:
 *   height=H width=W channels=1|3
 *   pattern=noise|gradient|checker|lines|mix    (default mix)
 *   mask=random|box|asymmetric|edge             (default random)
 *
 * The patterns are chosen so that a wrong halo shows: sharp edges and
 * one-pixel lines sit on tile borders, checker cells do not divide the tile
 * width, and every channel differs from the others. The image is written as
 * PPM/PGM and read back, so the expected output is computed from exactly the
 * floats the harness will hand to the student's code.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include "generate.h"

#ifndef MASK_WIDTH
#define MASK_WIDTH 5
#endif
#define GEN_MASK_RADIUS (MASK_WIDTH / 2)

static double clamp01(double v)
{
    return v < 0 ? 0 : v > 1 ? 1 : v;
}

/* One pixel of a pattern, in [0, 1]. */
static double pattern_value(gen_ctx *g, const char *pattern, int y, int x, int c, int height,
                            int width)
{
    if (strcmp(pattern, "noise") == 0)
        return gl_rng_float(&g->rng, 0.0f, 1.0f);
    if (strcmp(pattern, "gradient") == 0) {
        /* a different direction per channel, wrapping once so there is one
         * sharp step as well */
        double fx = (double)x / width, fy = (double)y / height;
        double v = c == 0 ? fx : c == 1 ? fy : 0.5 * (fx + fy);
        return fmod(v * 1.5 + 0.1 * c, 1.0);
    }
    if (strcmp(pattern, "checker") == 0) {
        int cell = 3 + c; /* 3, 4, 5: never a divisor of a 12 or 16 tile's phase */
        return ((y / cell + x / cell) % 2) ? 0.9 : 0.1;
    }
    if (strcmp(pattern, "lines") == 0) {
        /* dark background; one-pixel lines every 7th row and 5th column,
         * a diagonal, and a vertical step edge */
        double v = 0.05;
        if (y % 7 == 3 - c % 2)
            v = 0.8;
        if (x % 5 == 1 + c)
            v = 1.0;
        if (x == y)
            v = 0.6;
        if (x >= width / 2 + c)
            v += 0.15;
        return clamp01(v);
    }
    if (strcmp(pattern, "mix") == 0) {
        /* noise everywhere, lines in the left half, checker cells in the
         * right half, and a bright frame one pixel in from the border */
        double v = 0.3 * gl_rng_float(&g->rng, 0.0f, 1.0f);
        if (x < width / 2) {
            if (y % 6 == c || x % 9 == 2 * c)
                v += 0.6;
        } else if (((y / 5) + (x / (3 + c))) % 2) {
            v += 0.5;
        }
        if (y == 1 || x == 1 || y == height - 2 || x == width - 2)
            v = 1.0;
        return clamp01(v);
    }
    gen_fail("pattern=%s: expected noise, gradient, checker, lines or mix", pattern);
    return 0;
}

static void make_mask(gen_ctx *g, const char *kind, gl_matrix *m)
{
    for (int i = 0; i < MASK_WIDTH; i++) {
        for (int j = 0; j < MASK_WIDTH; j++) {
            float v = 0.0f;
            if (strcmp(kind, "random") == 0)
                v = gl_rng_float(&g->rng, -1.0f, 1.0f);
            else if (strcmp(kind, "box") == 0)
                v = 1.0f / (MASK_WIDTH * MASK_WIDTH);
            else if (strcmp(kind, "asymmetric") == 0)
                /* rises along rows and columns at different rates; one
                 * strong negative weight off the centre lines */
                v = (i == 0 && j == MASK_WIDTH - 2) ? -0.5f : 0.02f * (MASK_WIDTH * i + j + 1);
            else if (strcmp(kind, "edge") == 0) {
                /* a horizontal derivative, smoothed vertically: flipping it
                 * negates the result, transposing it turns it sideways */
                static const float smooth[5] = { 1, 2, 4, 2, 1 };
                v = (float)(j - GEN_MASK_RADIUS) * smooth[i % 5] / 16.0f;
            } else
                gen_fail("mask=%s: expected random, box, asymmetric or edge", kind);
            m->data[i * MASK_WIDTH + j] = v;
        }
    }
}

/* Writes the matrix under name and reads it back: the values the harness
 * will see. */
static void write_and_reload(gen_ctx *g, const char *name, gl_matrix *m, int as_image)
{
    char path[4096];
    gl_error err;
    if (as_image)
        gen_write_ppm(g, name, m);
    else
        gen_write_raw(g, name, m);
    snprintf(path, sizeof path, "%s/%s", g->out_dir, name);
    gl_matrix_free(m);
    if (gl_read_matrix(path, m, &err))
        gen_fail("reading back what was just written: %s", err.msg);
}

int lab_generate(gen_ctx *g)
{
    int height = gen_int(g, "height", 1, GL_MAX_DIM);
    int width = gen_int(g, "width", 1, GL_MAX_DIM);
    int channels = gen_int(g, "channels", 1, 3);
    const char *pattern = gen_str(g, "pattern", "mix");
    const char *mask_kind = gen_str(g, "mask", "random");
    gl_matrix I, M;
    gl_reference P;
    gl_error err;

    if (channels == 2)
        gen_fail("channels=2: PPM/PGM images have 1 or 3 channels");
    if (gl_matrix_alloc(&I, height, width, channels, &err) ||
        gl_matrix_alloc(&M, MASK_WIDTH, MASK_WIDTH, 1, &err) ||
        gl_reference_alloc(&P, height, width, channels, 1, &err))
        gen_fail("%s", err.msg);

    for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++)
            for (int c = 0; c < channels; c++)
                I.data[((size_t)y * width + x) * channels + c] =
                    (float)pattern_value(g, pattern, y, x, c, height, width);
    make_mask(g, mask_kind, &M);

    write_and_reload(g, channels == 3 ? "input0.ppm" : "input0.pgm", &I, 1);
    write_and_reload(g, "input1.raw", &M, 0);

    P.terms = MASK_WIDTH * MASK_WIDTH;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            for (int c = 0; c < channels; c++) {
                double sum = 0, mag = 0;
                for (int i = 0; i < MASK_WIDTH; i++) {
                    int sy = y + i - GEN_MASK_RADIUS;
                    if (sy < 0 || sy >= height)
                        continue; /* ghost row: the term is 0 */
                    for (int j = 0; j < MASK_WIDTH; j++) {
                        int sx = x + j - GEN_MASK_RADIUS;
                        if (sx < 0 || sx >= width)
                            continue;
                        double t = (double)M.data[i * MASK_WIDTH + j] *
                                   I.data[((size_t)sy * width + sx) * channels + c];
                        sum += t;
                        mag += fabs(t);
                    }
                }
                size_t e = ((size_t)y * width + x) * channels + c;
                P.value[e] = sum;
                P.magnitude[e] = mag;
            }
        }
    }
    gen_write_reference(g, "expected.tensor", &P);
    gl_matrix_free(&I);
    gl_matrix_free(&M);
    gl_reference_free(&P);
    return 0;
}
