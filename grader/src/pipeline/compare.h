/*
 * compare.h - the compare stage: the program's output against the expected
 * output, element by element, in the grader's own process.
 */
#ifndef GPULAB_COMPARE_H
#define GPULAB_COMPARE_H

#include "manifest.h"
#include "result.h"

/* Where and how to draw an error map for a wrong output (image labs). */
typedef struct {
    const char *path;   /* the PNG to write */
    int tile_width, halo;
} errormap_request;

/* An element's place in words, the one form every report writes it in:
 * "row R, column C", then ", channel K" when the output has more than one
 * channel (an RGB image); counted from 0. */
void compare_place(char *buf, size_t len, const mismatch *w, int channels);

/* Returns ST_PASS, ST_WRONG, ST_NO_OUTPUT (missing or unreadable output) or
 * ST_GRADER_ERROR (unreadable expected output); *message gets one line.
 * map (or NULL): when the output is wrong, draw its error map there; then
 * r->error_map holds the path and r->hint the map's sentence. tiled: the
 * lab's kernels keep shared tiles (its lab.json has "tiles"), which the
 * diagnosis may then blame (diagnose_output). */
status_t compare_output(const char *output_path, const char *expected_path,
                        const tolerance_model *tol, const errormap_request *map, int tiled,
                        compare_result *r, char **message);

/* The same for an output computed from inputs scaled by 2^exponent (gpulab
 * bench's repeated calls, harness_protocol.h): each element is divided by
 * that power of two (exactly) before it is compared. */
status_t compare_output_scaled(const char *output_path, int exponent, const char *expected_path,
                               const tolerance_model *tol, const errormap_request *map, int tiled,
                               compare_result *r, char **message);

/* The same for a Teaching Kit program's output (gpulab wb): the expected
 * file in libwb's forms (gl_read_libwb_expected: a .raw/.csv matrix or
 * vector, an 8-bit .ppm/.pgm image), no error map. */
status_t compare_output_libwb(const char *output_path, const char *expected_path, const tolerance_model *tol,
                              compare_result *r, char **message);

/* The comparison alone, for the repair search's many runs (repair.h): no
 * diagnosis, no map, no message. *bad (malloc'd, *elements long, NULL when
 * the shapes differ or nothing was read) marks the elements that fail
 * under tol; a pitched output whose padding changed is ST_WRONG. ST_PASS,
 * ST_WRONG, ST_NO_OUTPUT (no output file, or not one the grader reads), or
 * ST_GRADER_ERROR (the expected file). */
status_t compare_elements(const char *output_path, const char *expected_path, const tolerance_model *tol,
                          unsigned char **bad, size_t *elements, size_t *mismatches);

#endif
