/*
 * lab.h - lab 01, basic matrix multiplication: the interface between your
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
 * P = M x N for width x width row-major matrices. M, N and P are HOST
 * pointers: your function allocates device memory, copies M and N there,
 * launches the kernel, copies P back and frees the device memory.
 * Any width >= 1.
 */
void basic_matmul(const float *M, const float *N, float *P, int width);

#ifdef __cplusplus
}
#endif

#endif
