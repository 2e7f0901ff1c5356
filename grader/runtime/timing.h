/*
 * timing.h - the harness's clock for the student's calls.
 *
 * CUDA events on the default stream bracket each call of the entry point, so
 * the time is the GPU's, not the host's guess. Between timed calls the L2
 * cache is flushed (a large memset), so no call finds its inputs already in
 * the cache the previous one warmed.
 *
 * Labs whose entry point takes host pointers (01, 05) spend part of the call
 * copying. lab_common.h routes the student's cudaMemcpy and cudaMemcpy2D
 * here; during a call an event is recorded after each copy to the device and
 * before the first copy back, and the time between the last of the former
 * and the first of the latter is the call's kernel time: the GPU work between
 * "inputs are there" and "the result leaves".
 */
#ifndef GPULAB_TIMING_H
#define GPULAB_TIMING_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Just before the call: flush the L2 cache when asked (not for a single
 * graded call, where it would only cost time), then start the clock. */
void timing_call_begin(int flush_l2);

/* Just after the call returns: stop the clock (the caller then synchronises
 * and checks for errors). */
void timing_call_stop(void);

/* After synchronising: the call's time and its kernel time in milliseconds
 * (the kernel time is the call's for labs that make no copies of their own;
 * -1 when the copies did not allow telling). Returns the first CUDA error. */
cudaError_t timing_call_result(double *call_ms, double *kernel_ms);

/* The student's copies, as lab_common.h routes them, with the line that
 * made each (a copy out of a guarded buffer is noted there: guard.h). */
cudaError_t lab_cuda_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, const char *file,
                            int line);
cudaError_t lab_cuda_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind, const char *file, int line);

#ifdef __cplusplus
}
#endif

#endif
