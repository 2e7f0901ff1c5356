/*
 * dataset.h - the one module that reads and writes the kit's data files.
 *
 * The generators, the harnesses and the grader all go through here, so a
 * file that one of them writes is always a file the others can read.
 *
 * Three formats (docs/formats.md has a complete example of each):
 *
 *   .raw     libwb's text matrix: a "rows cols" line, then rows*cols
 *            numbers. Read and written, so existing course datasets work.
 *   .ppm     binary PPM (P6, 3 channels) or PGM (P5, 1 channel), 8-bit;
 *            pixel values become floats in [0, 1]. Images a person can open.
 *   .tensor  the kit's lossless format: a few text header lines, then
 *            little-endian IEEE floats. Used for the harness's output
 *            (float32) and for expected outputs (float64 value plus the
 *            magnitude sum that the tolerance model needs).
 *
 * Every reader is strict: it rejects truncated files, bad headers,
 * non-numbers, too many or too few values and absurd dimensions, and says
 * where (file, line) and what it expected, in the caller's gl_error.
 */
#ifndef GPULAB_DATASET_H
#define GPULAB_DATASET_H

#include <stddef.h>

/* Largest accepted dimension and element count: far above every lab's
 * performance size (4096 x 4096 x 3), far below what would exhaust memory. */
#define GL_MAX_DIM 65536
/* A vector (one column) may be longer: the Kit's Histogram lab has one of
 * 500 000 values. */
#define GL_MAX_VECTOR (1 << 24)
#define GL_MAX_ELEMENTS ((size_t)1 << 28)

/* Every output element starts as this bit pattern, a quiet NaN with a payload
 * that no arithmetic produces (a GPU's NaN results are 0x7FFFFFFF; the CPU
 * emulator's shared-memory poison is 0xFFFFFFFF and keeps its bits through
 * CPU arithmetic). An element the student never writes can never pass, and
 * the grader can tell "never written" from a NaN the student computed. */
#define GL_POISON_BITS 0x7FDEAD00u

/* Fills n floats with GL_POISON_BITS. */
void gl_fill_poison(float *data, size_t n);

typedef struct {
    char msg[1024];
} gl_error;

/* Row-major float data: a matrix (channels == 1) or an interleaved image,
 * element (r, c, ch) at data[(r * cols + c) * channels + ch]. */
typedef struct {
    int rows, cols, channels;
    float *data;
} gl_matrix;

/* An expected output: exact values (computed in double precision) and, for
 * each element, the sum of the absolute values of the terms that were added
 * to make it (magnitude), with the number of terms. The tolerance of an
 * element grows with both; see grader/src/pipeline/compare.c. magnitude is NULL and
 * terms 0 when the file did not carry them (a libwb output.raw).
 * resolution: how finely the file states a value: 0 for the kit's files;
 * for libwb's forms (gl_read_libwb_expected), one step (1/maxval) of an 8-bit
 * image, one unit of the last decimal of a text file written in fixed point (the
 * Teaching Kit's "%.2f"); the tolerance grows by it (tolerance.h). */
typedef struct {
    int rows, cols, channels;
    int terms;
    double *value;
    double *magnitude;
    double resolution;
} gl_reference;

size_t gl_matrix_count(const gl_matrix *m);
size_t gl_reference_count(const gl_reference *r);

/* Allocates data for rows x cols x channels; returns -1 (with err) when the
 * dimensions are out of range or memory runs out. */
int gl_matrix_alloc(gl_matrix *m, int rows, int cols, int channels, gl_error *err);
int gl_reference_alloc(gl_reference *r, int rows, int cols, int channels,
                       int with_magnitude, gl_error *err);
void gl_matrix_free(gl_matrix *m);
void gl_reference_free(gl_reference *r);

/* libwb .raw text */
int gl_read_raw(const char *path, gl_matrix *out, gl_error *err);
int gl_write_raw(const char *path, const gl_matrix *m, gl_error *err);

/* PPM (3 channels) / PGM (1 channel), maxval 255 */
int gl_read_ppm(const char *path, gl_matrix *out, gl_error *err);
int gl_write_ppm(const char *path, const gl_matrix *m, gl_error *err);

/* .tensor: float32 values (harness output) */
int gl_read_output(const char *path, gl_matrix *out, gl_error *err);
/* The same, from a file already in memory (buf, len bytes; name for messages):
 * for a reader that read it itself, with a cap (the grader). */
int gl_parse_output(const char *name, const char *buf, size_t len, gl_matrix *out, gl_error *err);
/* A .tensor header is at most GL_TENSOR_HEADER_LINES lines of fewer than
 * GL_TENSOR_LINE_MAX bytes: an output of n floats is at most
 * GL_TENSOR_HEADER_MAX + 4 * n bytes. */
#define GL_TENSOR_HEADER_LINES 16
#define GL_TENSOR_LINE_MAX 256
#define GL_TENSOR_HEADER_MAX (GL_TENSOR_HEADER_LINES * GL_TENSOR_LINE_MAX)
int gl_write_output(const char *path, const gl_matrix *m, gl_error *err);

/* .tensor: float64 values and magnitudes (expected output) */
int gl_read_reference(const char *path, gl_reference *out, gl_error *err);
int gl_write_reference(const char *path, const gl_reference *r, gl_error *err);

/* Reads a matrix from whichever format the file name's ending says
 * (.raw, .ppm, .pgm, .tensor). */
int gl_read_matrix(const char *path, gl_matrix *out, gl_error *err);

/* An expected output: a .tensor reference, or a libwb .raw (values only). */
int gl_read_expected(const char *path, gl_reference *out, gl_error *err);

/* libwb's own forms (wb.h, gpulab wb): a .raw, .csv or .txt text matrix
 * whose header may also be a vector's length alone ("n": read as n x 1),
 * with commas allowed between a .csv's values; a .ppm/.pgm image. */
/* A libwb image file by its name: .ppm, .pgm, or .pbm (the Kit's name for a
 * P5 gray image in one lab). */
int gl_is_libwb_image(const char *path);
int gl_read_libwb(const char *path, gl_matrix *out, gl_error *err);
/* An expected output in those forms (or a .tensor reference), with its
 * resolution (gl_reference). */
int gl_read_libwb_expected(const char *path, gl_reference *out, gl_error *err);

/* Checks dimensions against the limits above; fills err naming `what`. */
int gl_check_dims(int rows, int cols, int channels, const char *what, gl_error *err);

#endif
