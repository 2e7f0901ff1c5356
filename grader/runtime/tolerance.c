/*
 * tolerance.c - see tolerance.h.
 *
 * Why the bound has this shape: a float32 sum of k products, in any order,
 * with or without fused multiply-adds, differs from the exact sum by at most
 * about k * u * sum(|a*b|), where u = 2^-24 is float32's unit roundoff
 * (Higham, "Accuracy and Stability of Numerical Algorithms", ch. 3). The
 * generators store the exact value (double precision) and the magnitude
 * sum(|a*b|) of every element, with k, so each element gets the bound its own
 * arithmetic allows: tight where the terms are small, loose where they are
 * large. A correct kernel always passes; an error of one wrong term, a missed
 * halo pixel or a wrong tile does not. sum_ulps (2 by default) leaves a factor
 * of two of headroom; atol and rtol are there for labs that need them.
 */
#include "tolerance.h"

#include <math.h>

#define UNIT_ROUNDOFF 5.9604644775390625e-08 /* 2^-24 */

double tolerance_bound(const tolerance_model *tol, const gl_reference *ref, size_t i)
{
    if (tol->libwb)
        return TOLERANCE_LIBWB_ABS;
    double expected = ref->value[i];
    if (!ref->magnitude) {
        double rtol = tol->rtol > tol->fallback_rtol ? tol->rtol : tol->fallback_rtol;
        return tol->atol + rtol * fabs(expected) + ref->resolution;
    }
    return tol->atol + tol->rtol * fabs(expected) +
           tol->sum_ulps * (double)ref->terms * UNIT_ROUNDOFF * ref->magnitude[i] + ref->resolution;
}
