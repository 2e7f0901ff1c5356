/*
 * lab.h - lab 04, 2D convolution with two-batch tile loading: the interface
 * between your file and the kit. Do not change it; the kit compiles your
 * file against its own copy.
 */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime_api.h>
#include "lab_common.h"   /* CUDA_CHECK(call) */

/* The convolution mask is MASK_WIDTH x MASK_WIDTH; the output pixel sits
 * over its centre, MASK_RADIUS elements from each edge. */
#define MASK_WIDTH 5
#define MASK_RADIUS (MASK_WIDTH / 2)

#ifdef __cplusplus
extern "C" {
#endif

/*
 * P = I convolved with mask, one channel at a time.
 *
 * I and P are DEVICE pointers to height x width images with `channels`
 * interleaved channels: element (y, x, c) is at (y * width + x) * channels + c.
 * mask is a HOST pointer to MASK_WIDTH x MASK_WIDTH floats, row-major; copy
 * it into __constant__ memory before the launch. Outside the image the input
 * counts as 0 (ghost cells):
 *
 *   P[y][x][c] = sum over i, j of mask[i][j] * I[y + i - MASK_RADIUS][x + j - MASK_RADIUS][c]
 */
void conv_2batch(const float *I, float *P, int height, int width, int channels,
                 const float *mask);

#ifdef __cplusplus
}
#endif

#endif
