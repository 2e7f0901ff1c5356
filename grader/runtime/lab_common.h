/*
 * lab_common.h - what every lab's lab.h shares: the CUDA error check.
 *
 * Wrap every CUDA runtime call you make in CUDA_CHECK(...). If the call
 * fails, the kit reports the error, the call, and your file and line, and
 * the run ends with the status cuda_error: you see the first thing that went
 * wrong instead of a wrong answer much later.
 *
 *     CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));
 *     MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);
 *     CUDA_CHECK(cudaGetLastError());   // a bad launch configuration shows here
 */
#ifndef GPULAB_LAB_COMMON_H
#define GPULAB_LAB_COMMON_H

#include <cuda_runtime_api.h>
#include "guard.h"
#include "timing.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Defined by the kit's harness: reports the failed call and ends the run. */
void lab_cuda_fail(cudaError_t err, const char *call, const char *file, int line);

#ifdef __cplusplus
}
#endif

#define CUDA_CHECK(call)                                                   \
    do {                                                                   \
        cudaError_t lab_check_err_ = (call);                               \
        if (lab_check_err_ != cudaSuccess)                                 \
            lab_cuda_fail(lab_check_err_, #call, __FILE__, __LINE__);      \
    } while (0)

/*
 * The kit watches device memory for you: cudaMalloc, cudaMallocPitch and
 * cudaFree go through the kit's guard zones (guard.h), which catch a kernel
 * that writes past either end of a buffer, something a GPU does not notice.
 * You call them exactly as you would call CUDA's.
 */
#define cudaMalloc(ptr, size) lab_cuda_malloc((void **)(ptr), (size), __FILE__, __LINE__)
#define cudaMallocPitch(ptr, pitch, width, height) \
    lab_cuda_malloc_pitch((void **)(ptr), (pitch), (width), (height), __FILE__, __LINE__)
#define cudaFree(ptr) lab_cuda_free((void *)(ptr), __FILE__, __LINE__)

/*
 * Your copies go through the kit's clock (timing.h): when your entry point
 * copies its own inputs and results, gpulab bench times the kernel between
 * the last copy in and the first copy out, as well as the whole call.
 */
#define cudaMemcpy(dst, src, count, kind) lab_cuda_memcpy((dst), (src), (count), (kind), __FILE__, __LINE__)
#define cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind) \
    lab_cuda_memcpy_2d((dst), (dpitch), (src), (spitch), (width), (height), (kind), __FILE__, __LINE__)

#endif
