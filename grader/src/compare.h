/*
 * compare.h - the compare stage: the program's output against the expected
 * output, element by element, in the grader's own process.
 */
#ifndef GPULAB_COMPARE_H
#define GPULAB_COMPARE_H

#include "manifest.h"
#include "result.h"

/* Returns ST_PASS, ST_WRONG, ST_NO_OUTPUT (missing or unreadable output) or
 * ST_GRADER_ERROR (unreadable expected output); *message gets one line. */
status_t compare_output(const char *output_path, const char *expected_path,
                        const tolerance_model *tol, compare_result *r, char **message);

/* The tolerance of one element under the model (exposed for the tests' sake
 * through `gpulab compare`). */
double compare_tolerance(const tolerance_model *tol, double expected, double magnitude, int terms,
                         int have_magnitude);

#endif
