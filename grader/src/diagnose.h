/*
 * diagnose.h - failure analysis: from the pattern of a wrong output, one
 * sentence that says where to look (never what the fix is).
 *
 * Called by the compare stage while the output and the reference are both in
 * memory. Patterns, most telling first: nothing written; some elements never
 * written, and where; NaN; every element scaled by one factor; the transpose
 * of the answer; all zeros; errors only in the last partial tile or only past
 * a multiple of a tile width.
 */
#ifndef GPULAB_DIAGNOSE_H
#define GPULAB_DIAGNOSE_H

#include "../runtime/dataset.h"
#include "result.h"

/* bad[i] is 1 where element i is outside its tolerance. Returns a malloc'd
 * sentence, or NULL when no pattern stands out. */
char *diagnose_output(const gl_matrix *got, const gl_reference *want, const unsigned char *bad,
                      const compare_result *r);

/* Across datasets: a sentence when a lab fails exactly on the datasets larger
 * than one tile (a synchronisation or phase-loop mistake), else NULL.
 * sizes[i] is dataset i's largest dimension; failed[i] whether it failed. */
char *diagnose_across_datasets(const int *sizes, const int *failed, int n, int tile);

#endif
