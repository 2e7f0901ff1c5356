/*
 * lab.h - lab 03, tiled matrix multiplication of any size: the interface
 * between your file and the kit. Do not change it; the kit compiles your
 * file against its own copy.
 */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime_api.h>
#include "lab_common.h"   /* CUDA_CHECK(call) */

#ifdef __cplusplus
extern "C" {
#endif

/*
 * P = M x N, all row-major: M is j x k, N is k x l, P is j x l. Any
 * j, k, l >= 1; none of them need be a multiple of your TILE_WIDTH.
 * M, N and P are DEVICE pointers: the kit has already allocated them and
 * copied M and N to the GPU, and copies P back after your function returns.
 * Your function only launches the tiled kernel.
 */
void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l);

#ifdef __cplusplus
}
#endif

#endif
