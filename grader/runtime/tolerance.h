/*
 * tolerance.h - the one home of the rule that says whether an output element
 * is close enough to its expected value. The grader's compare stage
 * (grader/src/pipeline/compare.c) and wbSolution (grader/runtime/wb/) both judge
 * with it; docs/tolerance.md explains it.
 */
#ifndef GPULAB_TOLERANCE_H
#define GPULAB_TOLERANCE_H

#include "dataset.h"

#include <stddef.h>

/* Per element, an output passes when
 *   |got - expected| <= atol + rtol * |expected| + sum_ulps * terms * 2^-24 * magnitude
 *                       + the expected file's resolution
 * where terms and magnitude come from the reference file. A reference
 * without magnitudes (a libwb output.raw) uses
 *   atol + max(rtol, fallback_rtol) * |expected| + resolution.
 * The resolution is what the expected file cannot say: 0 for numbers, one
 * 8-bit step for a PPM/PGM image (dataset.h, gl_reference).
 * libwb set: libwb's own rule instead, |got - expected| <= 0.2, for
 * comparing a verdict with the Teaching Kit's (gpulab wb --libwb-tolerance). */
typedef struct {
    double atol, rtol, sum_ulps, fallback_rtol;
    int libwb;
} tolerance_model;

/* The tolerance of the kit's own labs (labs/<id>/lab.json), used where no
 * manifest names one: a Teaching Kit program's wbSolution. */
#define TOLERANCE_KIT_DEFAULT { 1e-6, 0, 2, 1e-5, 0 }
/* libwb's wbSolution: an absolute difference of at most this passes. */
#define TOLERANCE_LIBWB_ABS 0.2

/* The bound for element i of ref under the model. */
double tolerance_bound(const tolerance_model *tol, const gl_reference *ref, size_t i);

#endif
