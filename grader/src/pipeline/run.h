/*
 * run.h - the run stage: the lab program on one dataset, in a fresh
 * directory holding only the dataset's inputs, under a time limit.
 */
#ifndef GPULAB_RUN_H
#define GPULAB_RUN_H

#include "backend.h"
#include "process.h"
#include "result.h"
#include "../runtime/harness_protocol.h"

/* The largest file a run may write (its file-size limit), and so the most
 * the grader reads of one: no lab writes more; a runaway program stops here. */
#define RUN_OUTPUT_MAX_BYTES (2LL << 30)

/* The most of a dataset's standard output (and of its errors) a record
 * keeps: a run whose capture is full printed at least this much (an output
 * flood, export.c says). */
#define RUN_CAPTURE_CAP (64 * 1024)

/* A lab program's start-up limit: the time before the kit's first dataset
 * (CUDA's context: seconds on a GPU other runs are using; the program's own
 * constructors) is not part of the time limit, which starts when the
 * program says it is ready (process.h); one not ready by then is stopped. */
#define RUN_STARTUP_S 20.0

/* What the process runner (process.h, which knows nothing of the harness)
 * is told of a lab program: the variable that names the descriptor it says
 * it is ready on, and its harness's own lines ("@gpulab", harness.h), kept
 * past the capture cap so that a student's flood cannot hide the verdict
 * or the kernel token. */
#define LAB_READY_ENV HARNESS_READY_FD_ENV
#define LAB_KEPT_LINES "@gpulab\t"

/* What a run is given besides its program and folder. */
typedef struct {
    double timeout_s;            /* its time limit (a series': the whole series') */
    const char *const *env_add;  /* "NAME=value" added to its environment, NULL-terminated, or NULL */
    /* the program is the emulator's, which says where its kernel's threads
     * are when asked a moment before the time runs out ("gpulab-emu: stuck
     * FILE:LINE ..." on its standard error; process.h) */
    int where_stuck;
    const char *student_file;    /* the file whose lines the verdict's message quotes, or NULL */
} run_request;

typedef struct {
    /* The verdict the run alone decides (run_verdict, the one place a
     * finished run becomes a status): ST_PASS means "it ran to the end, go
     * and compare"; anything else is final, with message one line (names
     * as the emulator printed them: build_student_named makes them the
     * student's). */
    status_t status;
    char *message;
    proc_result proc;
    char *run_dir;
    char *output_path;      /* where the harness was told to write */
    double call_ms;         /* from the harness's time_ms line; -1 if none */
    char *cuda_error;       /* the harness's description of a CUDA error, or NULL */
    char *harness_wrong;    /* the harness's own "wrong" finding, or NULL */
    char *memory_error;     /* the harness's memory-error finding, or NULL */
    char *kernel_tokens;    /* the harness's kernel_token values, one per line, or NULL (build_kernel_ran) */
    int nkernel_tokens;
    /* "@gpulab call" lines, by call (harness_protocol.h); untrusted figures */
    int call_seen[HARNESS_MAX_CALLS];      /* how many lines named the call */
    double event_ms[HARNESS_MAX_CALLS];    /* the whole call, CUDA events */
    double kernel_ms[HARNESS_MAX_CALLS];   /* its kernel, -1 if not told apart */
    int bad_call_lines;                    /* lines naming no valid call */
} run_result;

/* Copies the dataset's inputs (its files named input*) into run_dir and runs
 * the program there as q says; r gets the run and its verdict. */
void run_program(const char *program, const char *dataset_dir, const char *run_dir, const run_request *q,
                 run_result *r);

/* Every dataset in one process, one after another (PROGRAM --series, see
 * grader/runtime/harness_main.c), in series_dir: dataset i's inputs in
 * series_dir/d<i>, its output series_dir/out-<i>.tensor. results[i] gets
 * dataset i's part of the outputs, its exit status and the harness's wall
 * time, as run_program() would; results[i].proc.started is 0 for a dataset
 * the series did not finish (the process ended or ran out of time first).
 * Returns nonzero when the process ran out of time (timeout_s for the whole
 * series): the first dataset not finished is the one it was on; its
 * results[i].proc.err_text holds what the series printed on its standard
 * error from that dataset's start on (started stays 0), and its verdict is
 * the timeout's, where it was stuck. */
int run_series(const char *program, const char *const *dataset_dirs, int n, const char *series_dir,
               const run_request *q, run_result *results);
/* One dataset once per candidate edit of a schemata build (PROGRAM
 * --series-mutants, harness_main.c: entry i with candidate ids[i] live, 0
 * the program as written), in series_dir: the inputs once in series_dir/d,
 * entry i's output series_dir/out-<i>.tensor; each entry has each_s of the
 * clock (the harness's alarm), the whole series q->timeout_s. results and
 * the return as run_series(): an entry whose candidate crashed or hung
 * ended the process, results[i].proc.started 0 from it on. */
int run_mutants(const char *program, const char *dataset_dir, const int *ids, int n, double each_s,
                const char *series_dir, const run_request *q, run_result *results);
/* run_series()'s return when the time ran out before the program was ready
 * (its start-up limit, RUN_STARTUP_S): 1 | RUN_NEVER_READY. */
#define RUN_NEVER_READY 2

/* The message of a run that ran out of time (malloc'd): where its kernel
 * was stuck when the emulator's lines in err_text say so, quoting
 * student_file's line; never_ready: it ran out of its start-up limit,
 * before the first dataset. err_text and student_file may be NULL. */
char *run_timeout_message(double timeout_s, int never_ready, const char *err_text, const char *student_file);

/* A dataset's run folder in a work directory, WORKDIR/run-DATASET, and
 * (emulator) its launch log, inside the run folder (malloc'd): the log is
 * the run's to write, so it lives in the run's size-limited space, never
 * on the grader's disk. The checkers' runs are named the same in folders of
 * their own (sanitize.c). run_log_in() is the log of any run folder (a
 * series' too). */
#define RUN_EMU_LOG_NAME "gpulab-emu.log"
char *run_dir_for(const char *workdir, const char *dataset);
char *run_log_for(const char *workdir, const char *dataset);
char *run_log_in(const char *run_dir);

/* A fresh run directory holding only the dataset's inputs. */
void run_prepare_dir(const char *dataset_dir, const char *run_dir);

void run_result_free(run_result *r);

#endif
