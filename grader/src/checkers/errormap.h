/*
 * errormap.h - a picture of where an image lab's output is wrong.
 *
 * When a dataset of an image lab fails, the grader can draw the error map:
 * one pixel block per image position, black where every channel is within
 * its tolerance, and otherwise coloured by how far off it is, with a faint
 * grid at the tile boundaries so a reader sees at once whether the errors
 * follow the tiles. It also says in one sentence where the errors sit
 * relative to the tiles (along tile borders, at tile corners, at the image
 * border, in the last partial tile, in some rows of every tile, ...).
 *
 * The maps are PNG files. Each is drawn inside a 4-pixel mid-grey frame
 * (150, 150, 150), seen on a white page and on a dark one; the picture's
 * top-left pixel is at (4, 4) of the file. An error map has a key strip
 * under the picture (4 black pixel rows below it, then 10 rows): a swatch
 * of "right", the ramp of "wrong" from just outside the tolerance to 10^6
 * times it, a swatch of NaN and one of never written, 4 black pixels apart;
 * the file is at least as wide as the strip (122 pixels inside the frame),
 * black where the picture does not reach.
 *
 * Colours:
 *   dark grey (48, 48, 48)   within tolerance
 *   dark yellow .. orange .. red (255, 0, 0)   wrong; redder = larger error
 *                    relative to the tolerance (log scale: 1x dark yellow
 *                    (170, 150, 0), 10^6x and more saturated red)
 *   blue (40, 90, 255)       never written (still the kit's poison, GL_POISON_BITS)
 *   magenta (255, 0, 255)    NaN or infinity that the program computed
 *   grey-blue lines  tile boundaries (80, 80, 104), over correct pixels only
 *   dark teal / cyan the padding of a pitched output, intact / changed
 *                    (errormap_write_padded)
 *   black            nothing drawn: beside a picture narrower than its key
 *                    strip, and between the strip's swatches
 * A position shows its worst channel. The list with each colour's words is
 * errormap_colours (below).
 */
#ifndef GPULAB_ERRORMAP_H
#define GPULAB_ERRORMAP_H

#include "../runtime/dataset.h"

#include <stddef.h>

/*
 * The maps' colours, each with what it means: the one list that the
 * pictures are drawn with and that every key is made from (the text
 * report's "map key:" and "fault map key:" lines, the web pages' keys).
 * `maps` says on which maps a colour appears (ERRORMAP_KEY_* bits).
 */
enum {
    ERRORMAP_KEY_ERROR = 1,    /* an error map */
    ERRORMAP_KEY_PADDING = 2,  /* an error map of a pitched output whose padding changed */
    ERRORMAP_KEY_FAULT = 4     /* a fault map (or a race map: the same colours) */
};

typedef struct {
    unsigned maps;
    unsigned char rgb[3];
    int ramp;                  /* 1: a scale from rgb (t = 0) to red (t = 1): errormap_ramp_colour */
    const char *colour;        /* "dark grey" */
    const char *meaning;       /* "right" */
} errormap_colour;

extern const errormap_colour errormap_colours[];
extern const size_t errormap_ncolours;

/* The colour of a wrong element t of the way from just outside its
 * tolerance (0) to 10^6 times it or more (1). */
void errormap_ramp_colour(double t, unsigned char rgb[3]);

/* The key in words of the colours on the maps `maps` names (ERRORMAP_KEY_*
 * bits): "dark grey right; dark yellow to red wrong (...); ...". The
 * caller frees it. */
char *errormap_key_text(unsigned maps);

/*
 * Writes the error map of `got` against `want` to png_path (a PNG, framed
 * and keyed as above)
 * and sets *summary to a malloc'd sentence (the caller frees it).
 *
 *   got, want    the program's output and the expected output; rows, cols
 *                and channels must agree.
 *   tolerance    per-element tolerances (gl_reference_count(want) doubles,
 *                as the grader's compare stage computed them), or NULL: then
 *                2 * terms * 2^-24 * magnitude + 1e-6 where want carries
 *                magnitudes, 1e-5 * |value| + 1e-6 where it does not.
 *                An element is wrong when |got - want| > tolerance, or when
 *                got is NaN, infinite or never written.
 *   tile_width   the side of the output tile the lab's blocks compute (16
 *                for lab 04, 12 for lab 05); <= 0 means no tiles: no grid,
 *                and the summary speaks of the image only.
 *   halo         how far from a tile or image edge an element still counts
 *                as "at" that edge (the mask radius, 2, for the convolution
 *                labs); <= 0 means 1.
 *
 * Each element is drawn as an s x s block, s = the largest whole number
 * from 1 to 8 with s * max(rows, cols) <= 1024 (tiny images get big
 * enough to see).
 *
 * Returns 0 on success. On failure (shapes differ, the file cannot be
 * written, out of memory) returns -1 and *summary says why; no file, or a
 * partial one, is left. *summary is set in every case (NULL only if even
 * that message could not be allocated); the caller frees it.
 */
int errormap_write(const char *png_path, const gl_matrix *got, const gl_reference *want,
                   const double *tolerance, int tile_width, int halo, char **summary);

/*
 * The summary alone, without writing a picture (same arguments and rules);
 * returns a malloc'd sentence, or NULL when out of memory or the shapes
 * differ.
 */
char *errormap_summary(const gl_matrix *got, const gl_reference *want, const double *tolerance,
                       int tile_width, int halo);

/*
 * A small copy of the error map's picture for a terminal (same arguments and
 * colours, no grid, no frame): the image shrunk by one whole factor k, the
 * smallest that fits max_rows x max_cols, each pixel the worst position of
 * its k x k block (so no error vanishes). rgb holds max_rows * max_cols * 3
 * bytes; *rows and *cols get the size drawn. Returns 0, or -1 (the shapes
 * differ, out of memory).
 */
int errormap_thumbnail(const gl_matrix *got, const gl_reference *want, const double *tolerance,
                       int max_rows, int max_cols, unsigned char *rgb, int *rows, int *cols);

/*
 * The padding of a pitched output (lab 05): each of `rows` rows of the image
 * is followed by `pad` floats that must keep the harness's guard bits.
 * changed[y * pad + j] is 1 where padding float j of row y no longer does.
 */
typedef struct {
    int rows, pad;
    const unsigned char *changed;
} errormap_padding;

/*
 * The error map of a pitched output: like errormap_write() (same arguments,
 * same colours and grid for the image, same *summary, which speaks of the
 * image only), with the padding drawn to the right of each image row: map
 * column x < cols is image position x (its worst channel), map column
 * cols + j is padding float j of that row, dark teal (20, 70, 60) where it
 * still holds the guard bits and cyan (0, 255, 255) where it changed. The
 * scale s is chosen as in errormap_write() from max(rows, cols + pad).
 * padding->rows must equal got->rows.
 */
int errormap_write_padded(const char *png_path, const gl_matrix *got, const gl_reference *want,
                          const double *tolerance, int tile_width, int halo,
                          const errormap_padding *padding, char **summary);

/* ---- the fault map: which threads of a launch made invalid accesses -------- */

/*
 * The threads of one kernel launch that made an invalid memory access, as a
 * checker reported them (the sanitizer stage: the emulator's --check build,
 * or compute-sanitizer's memcheck on a GPU).
 */
typedef struct {
    char kernel[128];
    unsigned grid[3], block[3];  /* gridDim and blockDim (x, y, z) */
    int exact;                   /* 1: grid and block are the launch's own (the emulator
                                    reports them); 0: they are the smallest that hold every
                                    thread named (memcheck does not print a launch's size) */
    int incomplete;              /* the checker stopped before the launch's end: more
                                    threads may have faulted than are listed */
    size_t n, cap;
    unsigned (*at)[6];           /* each thread: block x, y, z, then thread x, y, z */
} fault_threads;

/* Adds a thread (duplicates are fine: fault_threads_finish drops them).
 * Returns 0, or -1 when out of memory or past a million threads. */
int fault_threads_add(fault_threads *f, const unsigned block[3], const unsigned thread[3]);

/* Sorts the threads (block by block, threads in threadIdx order), drops
 * duplicates, and where !exact sets grid and block to the smallest extents
 * that hold every thread. Can be called again after more adds. */
void fault_threads_finish(fault_threads *f);

void fault_threads_free(fault_threads *f);

/*
 * Writes the fault map of f (after fault_threads_finish) to png_path (a
 * PNG in the grey frame described above, no key strip): one
 * cell per thread of the launch, the grid of blocks laid out as in CUDA
 * (blockIdx.x to the right, blockIdx.y down), each block a rectangle of
 * blockDim.x x blockDim.y cells (threadIdx.x to the right, threadIdx.y down;
 * a 3D launch stacks its z slices downwards: blockIdx.z below blockIdx.y,
 * threadIdx.z below threadIdx.y). Cell (px, py), counted from the top left,
 * is thread (px % bx, py % by) of block (px / bx, py / by) for a 2D launch.
 * Colours: a thread that made an invalid access is loud orange
 * (255, 96, 0); any other thread is dark (28, 28, 36); block boundaries are
 * lines along the first pixel row and column of each block, grey-blue
 * (90, 90, 130) over threads that did not fault and dark orange (160, 56, 0)
 * over those that did (so the lines never hide a cell's centre when s > 1;
 * at s = 1 a line pixel is its cell). Each cell is an s x s block of
 * pixels, s the largest whole number from 1 to 8 with s * max(width,
 * height) <= 1024. Returns 0, or -1 (no file, or a partial one removed)
 * when the launch is empty, its map would be over 8192 cells either way, or
 * the file cannot be written.
 */
int errormap_write_faults(const char *png_path, const fault_threads *f);

#endif
