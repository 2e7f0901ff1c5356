/*
 * lab.h - lab 02, tiled matrix multiplication: the interface between your
 * file and the kit. Do not change it; the kit compiles your file against its
 * own copy.
 */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime_api.h>
#include "lab_common.h"   /* CUDA_CHECK(call) */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * P = M x N for width x width row-major matrices. M, N and P are DEVICE
 * pointers: the kit has already allocated them and copied M and N to the
 * GPU, and copies P back after your function returns. Your function only
 * launches the tiled kernel.
 *
 * width is a multiple of 32, so a TILE_WIDTH of 8, 16 or 32 divides it.
 * Your file defines TILE_WIDTH itself (16 unless you have a reason).
 */
void tiled_matmul(const float *M, const float *N, float *P, int width);

#ifdef __cplusplus
}
#endif

#endif
