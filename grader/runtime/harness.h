/*
 * harness.h - the parts every lab's harness main() shares.
 *
 * A lab program is the student's file linked with the lab's harness. The
 * harness owns main(): it reads the dataset, allocates and poisons the
 * output, calls the student's entry point, synchronises, checks for CUDA
 * errors and writes the output file for the grader, which compares it in its
 * own process after this one has ended.
 *
 * Usage of every lab program:  PROGRAM DATASET_DIR OUTPUT_FILE
 *                         or:  PROGRAM --series DIR1 OUT1 DIR2 OUT2 ...
 * (harness_main.c; docs/formats.md)
 *
 * Machine-readable lines go to standard output, fields separated by tabs:
 *     @gpulab  time_ms  NAME  VALUE                       a timing (informational, never trusted)
 *     @gpulab  call  C  CALL_MS  KERNEL_MS   call C's CUDA-event times (harness_protocol.h)
 *     @gpulab  kernel_token  HEX    what the submission's kernels stored in the build's token
 *                                   variable during the call (grading builds; see emucc --kernel-token)
 *     @gpulab  cuda_error  NAME  CALL  FILE  LINE  MESSAGE
 *     @gpulab  wrong  MESSAGE           the harness itself saw a wrong result
 *                                       (e.g. lab 05's padding was overwritten)
 *     @gpulab  memory_error  MESSAGE    a write past the end of a buffer
 * Exit status: 0 done, 2 usage, 3 CUDA error, 4 unreadable dataset or
 * unwritable output (the kit's fault, not the student's), 5 wrong (as the
 * harness saw it), 6 memory error.
 */
#ifndef GPULAB_HARNESS_H
#define GPULAB_HARNESS_H

#include <stddef.h>
#include <cuda_runtime_api.h>
#include "dataset.h"
#include "harness_protocol.h"


typedef struct {
    const char *dataset_dir;
    const char *output_path;
    double t_start;
    int calls;          /* calls of the entry point: 1, or GPULAB_CALLS (gpulab bench) */
    int call;           /* the call in progress, 0 .. calls - 1 */
    int kept_call;      /* the last call whose output was written, or -1 */
} harness_ctx;

/* Parses argv; on misuse prints usage and exits HARNESS_EXIT_USAGE. */
void harness_begin(harness_ctx *h, int argc, char **argv);

/* Reads DATASET_DIR/name (any format dataset.h knows); exits on error. */
void harness_load(const harness_ctx *h, const char *name, gl_matrix *m);

/* The image labs' inputs: the image (input0.ppm, or input0.pgm for one
 * channel, whichever the dataset has) and the mask_width x mask_width mask
 * (input1.raw); exits on a missing file or a mask of another size. */
void harness_load_image_and_mask(const harness_ctx *h, gl_matrix *image, gl_matrix *mask, int mask_width);

/* A host output matrix, poisoned. */
void harness_alloc_output(gl_matrix *m, int rows, int cols, int channels);

/* Device buffers for labs whose entry point takes device pointers. */
float *harness_device_upload(const gl_matrix *m);
void harness_device_download(gl_matrix *m, const float *device);
void harness_device_free(float *device);

/*
 * Repeated calls (gpulab bench; harness_protocol.h). A lab's main() calls the
 * entry point in a loop,
 *     for (h.call = 0; h.call < h.calls; h.call++) { ... }
 * giving each call this call's inputs, a freshly poisoned output, and
 * keeping each call's output with harness_keep_output().
 */

/* This call's values of an input: the dataset's, times this call's scale (a
 * power of two; 1 for call 0, when m's own data is returned). */
const float *harness_call_input(const harness_ctx *h, const gl_matrix *m);

/* An unfilled device buffer of count floats, named for reports; filling one
 * from the host; poisoning one. */
float *harness_device_alloc(size_t count, const char *name);
void harness_device_fill(float *device, const float *host, size_t count);
void harness_device_poison(float *device, size_t count);

/* Writes this call's output where the grader expects it. */
void harness_keep_output(harness_ctx *h, const gl_matrix *out);

/* Starts the clock just before the call into the student's code. */
void harness_call_begin(harness_ctx *h);
/* Synchronises, checks cudaGetLastError, reports the call's time; on a CUDA
 * error reports it and exits HARNESS_EXIT_CUDA. */
void harness_call_end(harness_ctx *h);

/* Checks a CUDA call the harness itself makes. */
void harness_check(cudaError_t err, const char *call, const char *file, int line);
#define HARNESS_CHECK(call) harness_check((call), #call, __FILE__, __LINE__)

/* Writes the output where the grader asked (unless harness_keep_output
 * already wrote the last call's), then checks every guard zone:
 * exits HARNESS_EXIT_MEMORY on damage, HARNESS_EXIT_WRONG after a
 * harness_note_wrong(), else 0. */
void harness_finish(const harness_ctx *h, const gl_matrix *out) __attribute__((noreturn));

/* Like harness_fail_wrong(), but reported by harness_finish() after the
 * output is written, so the grader can still draw where it is wrong. */
void harness_note_wrong(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Each lab's harness.c defines lab_main(), the body for one dataset; the
 * runtime's main() (harness_main.c) calls it once, or, given
 *     PROGRAM --series DIR1 OUT1 DIR2 OUT2 ...
 * once per dataset in one process, so the CUDA context and the process are
 * set up once for all of a submission's datasets (the grader's speed). A
 * dataset's run then ends in harness_exit(): a dataset that ended well (or
 * wrong, as the harness saw it) goes on to the next; any other end ends the
 * process, and the grader runs the rest one process each, as it runs every
 * dataset that did not pass in the series.
 */
int lab_main(int argc, char **argv);
/* Creates the CUDA context and tells the grader the program is ready
 * (HARNESS_READY_FD_ENV, harness_protocol.h); main() calls it first. */
void harness_ready(void);
void harness_exit(int code) __attribute__((noreturn));

/* Forgets the last dataset's state (noted results, scaled inputs) before the
 * next one of a series. */
void harness_reset(void);

/* Exits HARNESS_EXIT_DATASET with a message naming the dataset. */
void harness_dataset_error(const harness_ctx *h, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 2, 3)));

/* The harness found the result wrong by itself (a guard value changed, say):
 * reports it and exits HARNESS_EXIT_WRONG. */
void harness_fail_wrong(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
