/*
 * harness_protocol.h - how a lab program tells the grader how its run ended:
 * its exit status. One home for both sides: the harness (harness.h, which
 * needs CUDA's headers) and the grader's run stage (run.c, which must not).
 * The "@gpulab" lines that go with them are described in harness.h.
 */
#ifndef GPULAB_HARNESS_PROTOCOL_H
#define GPULAB_HARNESS_PROTOCOL_H

#include <stdio.h>
#include <string.h>

enum {
    HARNESS_EXIT_OK = 0,
    HARNESS_EXIT_USAGE = 2,
    HARNESS_EXIT_CUDA = 3,     /* a CUDA error ("@gpulab cuda_error") */
    HARNESS_EXIT_DATASET = 4,  /* unreadable dataset or unwritable output: the kit's fault */
    HARNESS_EXIT_WRONG = 5,    /* the harness saw a wrong result itself ("@gpulab wrong") */
    HARNESS_EXIT_MEMORY = 6    /* a guard zone was written ("@gpulab memory_error") */
};

/*
 * Start-up. A process's start (CUDA's context above all: seconds on a GPU
 * other runs are using) is the machine's cost, not the program's, so the
 * grader's time limit starts when the program is ready. With
 * GPULAB_READY_FD=N in its environment the harness, once the CUDA context
 * exists and before the first dataset, writes one byte to file descriptor N
 * and closes it. The grader gives start-up a limit of its own (process.h);
 * a program that writes the byte earlier only starts its own clock sooner.
 */
#define HARNESS_READY_FD_ENV "GPULAB_READY_FD"

/*
 * Repeated calls (gpulab bench). With GPULAB_CALLS=N in its environment the
 * harness calls the entry point N times instead of once: call 0 warms up,
 * calls 1..N-1 are timed. Each call's inputs are the dataset's scaled by its
 * own power of two, 2^harness_call_exponent(call), so each call has its own
 * right answer (the dataset's expected output times the same power, exactly:
 * scaling by a power of two commutes with every float rounding), and a
 * program that replays the result of an earlier call is wrong. Call c's
 * output goes to harness_call_output_path(OUTPUT_FILE, c): OUTPUT_FILE itself
 * for call 0. For each call the harness prints
 *     @gpulab  call  C  CALL_MS  KERNEL_MS
 * (CUDA-event times; KERNEL_MS is -1 when it could not be told apart).
 */
#define HARNESS_CALLS_ENV "GPULAB_CALLS"
#define HARNESS_MAX_CALLS 64

static inline int harness_call_exponent(int call)
{
    /* 0, 1, -1, 2, -2, ...: distinct, and small enough never to overflow */
    return call % 2 ? (call + 1) / 2 : -(call / 2);
}

/* "DIR/output.tensor" -> "DIR/output-call3.tensor" (call 0: unchanged). */
static inline void harness_call_output_path(char *buf, size_t size, const char *output_path,
                                            int call)
{
    size_t n = strlen(output_path);
    size_t stem = n >= 7 && strcmp(output_path + n - 7, ".tensor") == 0 ? n - 7 : n;
    if (call == 0)
        snprintf(buf, size, "%s", output_path);
    else
        snprintf(buf, size, "%.*s-call%d.tensor", (int)stem, output_path, call);
}

/*
 * Lab 05's pitched output, padding included. Each row of lab 05's host output
 * image is followed by padding floats that the student's code must leave
 * alone; the harness fills them with OUTPUT_GUARD_BITS (a NaN distinct from
 * GL_POISON_BITS and from the input's padding) before the call. After the
 * call it writes the whole pitched image, height rows of out->pitch floats
 * ("shape HEIGHT PITCH", one channel), to harness_padded_output_path(), and
 * the grader checks in its own process that every padding float still holds
 * these bits (grader/src/pipeline/compare.c).
 */
#define OUTPUT_GUARD_BITS 0x7FC0BEEFu
/* The most padding floats a row has (lab 05's harness gives 1 to 5): the
 * grader reads no more of the padded output than its rows with this much. */
#define HARNESS_PADDING_MAX 64

/* "DIR/output.tensor" -> "DIR/output-padded.tensor"; returns 0, or -1 when
 * the path does not fit in size bytes. */
static inline int harness_padded_output_path(char *buf, size_t size, const char *output_path)
{
    size_t n = strlen(output_path);
    size_t stem = n >= 7 && strcmp(output_path + n - 7, ".tensor") == 0 ? n - 7 : n;
    int k = snprintf(buf, size, "%.*s-padded.tensor", (int)stem, output_path);
    return k >= 0 && (size_t)k < size ? 0 : -1;
}

#endif
