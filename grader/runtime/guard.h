/*
 * guard.h - guard zones around device and host buffers.
 *
 * A GPU does not notice a kernel that writes a little past the end of a
 * buffer: the write lands in memory the allocator rounded up, and the answer
 * may even come out right. The kit notices. Every cudaMalloc and
 * cudaMallocPitch in a lab program (the student's and the harness's) goes
 * through lab_cuda_malloc() and friends (lab_common.h routes the calls here),
 * which put guard bytes before and after the block. cudaFree checks the block
 * it frees and the harness checks every guard once the output is written; a
 * changed guard ends the run with a memory error naming the buffer and the
 * line that allocated it (after the output is written, so the grader can
 * still show where it is wrong). Guards hold 3.4e38 as floats, so a
 * read past either end swamps whatever it is added to.
 */
#ifndef GPULAB_GUARD_H
#define GPULAB_GUARD_H

#include <stddef.h>
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif

cudaError_t lab_cuda_malloc(void **ptr, size_t size, const char *file, int line);
cudaError_t lab_cuda_malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t height,
                                  const char *file, int line);
cudaError_t lab_cuda_free(void *ptr, const char *file, int line);

/* Names a guarded device buffer for reports ("P", "the input image"). */
void guard_name(const void *device_ptr, const char *name);

/* From now on, no guards: the repair search's candidate runs (harness_main.c,
 * --series-mutants), where a read past an array must fault in the
 * emulator's own guards instead of reading 3.4e38 that a zero cancels. */
void guard_disable(void);

/* A copy out of device memory at device_ptr that reads reach bytes from
 * there (cudaMemcpy's count; a 2D copy's rows to the last one's width), at
 * file:line: where it starts in a guarded buffer, the farthest byte the
 * program reads of it is kept, so that writes past the buffer's end that
 * stay within it are named an allocation too small (guard.c). */
void guard_note_copy_out(const void *device_ptr, size_t reach, const char *file, int line);

/* Checks every live device guard, recording the first damage found. */
void guard_check_all(void);

/* The first damage found so far (by cudaFree, guard_check_all or
 * guard_host_check), as a sentence, or NULL. */
const char *guard_failure(void);

/* A host buffer of `bytes` with guards; guard_host_check() verifies them
 * (recording damage like guard_check_all). */
void *guard_host_alloc(size_t bytes, const char *name);
void guard_host_check(const void *ptr);

/* Says that the host buffer at ptr (from guard_host_alloc) is an image of
 * `rows` rows, pitch bytes apart, row_bytes of pixels each: on the
 * emulator, a student's copy of it with another pitch or width is then
 * named at its line (the emulator's log); on a GPU it does nothing. */
void guard_host_rows(const void *ptr, size_t pitch, size_t row_bytes, size_t rows);

#ifdef __cplusplus
}
#endif

#endif
