/*
 * bench.h - performance: honest kernel timings, with their baselines measured
 * in the same run on the same GPU.
 *
 * A lab program is run on the lab's performance dataset (lab.json's
 * "performance") with GPULAB_CALLS=N: the harness calls the entry point N
 * times, each on inputs scaled by a power of two of its own, poisoning the
 * output and flushing the L2 cache in between, and times each call with CUDA
 * events (harness_protocol.h, timing.h). The grader then checks every call's
 * output in its own process, so a program that replays an earlier result is
 * wrong, and reports the median of the timed calls as GFLOP/s (matrix
 * products) or GB/s (image filters), for passing runs on the GPU only.
 */
#ifndef GPULAB_BENCH_H
#define GPULAB_BENCH_H

#include "backend.h"
#include "manifest.h"
#include "result.h"

#define BENCH_DEFAULT_CALLS 6   /* one warm-up, five timed */

typedef struct {
    char *label;            /* "your file", "reference solution", "cuBLAS SGEMM", ... */
    char *source;           /* the .cu file measured */
    status_t status;
    char *message;          /* one line: what went wrong, or a note on the figure */
    int timed;              /* timed calls */
    int kernel_only;        /* the times are the kernel's, copies excluded */
    double median_ms, min_ms, max_ms;
    double rate;            /* GFLOP/s or GB/s; 0: no figure */
    char *reads;            /* what its kernels read, as a check counts it (counts_sentence), or NULL */
} bench_row;

/* Builds row->source for lab m (with `library` linked in, or NULL) in
 * workdir and measures it on dataset_dir, filling the rest of row. check:
 * compare every call's output with the dataset's expected output (every
 * program but the copy baseline). */
void bench_program(const lab_manifest *m, const backend *b, const char *library,
                   const char *dataset_dir, const char *workdir, int calls, int check, bench_row *row);

void bench_row_free(bench_row *row);

/* "GFLOP/s" or "GB/s" */
const char *bench_unit(const lab_manifest *m);

/* The performance stage of grading, for a lab whose manifest gives
 * performance points: the submission and the reference solution measured in
 * the same run; the points of the highest band the ratio of their rates
 * reaches. On the emulator nothing is measured and the points are left out
 * of the score and its maximum. */
void bench_grade(const lab_manifest *m, const backend *b, const char *file, const char *workdir,
                 submission_result *s);

/* gpulab bench LAB FILE.cu [options] | gpulab bench --ladder [options] */
int cmd_bench(int argc, char **argv);

#endif
