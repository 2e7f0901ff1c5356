/*
 * process.h - running a child program under the grader's control.
 *
 * The child gets its own session and process group (no controlling terminal;
 * standard input from /dev/null; no descriptor of the grader's but its
 * output pipes), a working directory, optional extra
 * environment variables, no core dumps and a cap on the size of files it
 * writes. Its stdout and stderr are captured up to a cap (the rest is read
 * and counted, so the child never blocks on a full pipe). A time limit, on
 * the wall clock or on the run's work (cpu_limit_s), kills the whole group; when the child ends, anything it left running is
 * killed too, in its group or not: the calling process is a child
 * subreaper, so a daemon the run started (setsid() and a double fork)
 * becomes its child, and every process descended from the run is killed and
 * reaped before proc_run() returns. The caller's other children are left
 * alone.
 *
 * A lab program's start-up (CUDA's context: seconds on a loaded GPU) can be
 * left out of its limit: with startup_s set, the child gets a pipe on file
 * descriptor 3 (named in the variable ready_env) and the limit starts when a byte
 * arrives there or the pipe closes; a program not ready within startup_s is
 * stopped as out of time.
 */
#ifndef GPULAB_PROCESS_H
#define GPULAB_PROCESS_H

#include <stddef.h>

typedef struct {
    const char *const *argv;     /* argv[0] is the program's path */
    const char *cwd;             /* NULL: the grader's own */
    const char *const *env_add;  /* "NAME=value" strings added to the environment, NULL-terminated, or NULL */
    double timeout_s;
    size_t capture_cap;          /* bytes kept of each of stdout and stderr; past it,
                                    only whole lines that begin with keep_lines */
    long long file_size_cap;     /* RLIMIT_FSIZE in bytes; 0: none */
    int build;                   /* a compiler, not a lab program: in the sandbox, a
                                    compiler's devices and memory limit (sandbox.h) */
    double startup_s;            /* 0: timeout_s counts from the start. Else a lab
                                    program's start-up limit: timeout_s counts from
                                    when it says it is ready (on the descriptor
                                    ready_env names); one not ready within
                                    startup_s is stopped (never_ready) */
    double cpu_limit_s;          /* 0: timeout_s is on the wall clock. Else the limit
                                    is on the run's work: it is stopped once its
                                    processes have used cpu_limit_s of processor
                                    time after its start-up, or, past timeout_s on
                                    the clock, once it has stopped working (almost
                                    no processor time and no thread that runs or
                                    waits for a processor: it waits on something),
                                    or at 10 x timeout_s on a machine too busy to
                                    give it any: its verdict does not depend on
                                    what else the machine runs */
    const char *ready_env;       /* with startup_s: the variable that names the ready
                                    descriptor (a lab program's: run.h) */
    const char *keep_lines;      /* past capture_cap, the whole lines that begin with
                                    this are still kept (16 KB more: a lab harness's
                                    own, run.h); NULL: none */
} proc_spec;

typedef struct {
    int started;        /* 0: could not be started (see out_text for why) */
    int exited;         /* normal exit; exit_code valid */
    int exit_code;
    int signaled;       /* killed by a signal; signal_number valid */
    int signal_number;
    int timed_out;      /* the grader killed it at the time limit */
    int never_ready;    /* with startup_s: timed out before it said it was ready */
    char *over_limit;   /* the grader stopped it for what it kept on disk (uid mode): why, or NULL */
    double startup_s;   /* with startup_s: seconds from start to ready */
    double wall_s;      /* from the start, start-up included */
    char *out_text;     /* captured stdout (NUL-terminated) */
    char *err_text;     /* captured stderr */
    size_t out_dropped, err_dropped; /* bytes past the cap */
} proc_result;

void proc_run(const proc_spec *spec, proc_result *r);
/* The same for a student's program: inside the sandbox when one is on
 * (sandbox.h), else exactly proc_run(). */
void proc_run_sandboxed(const proc_spec *spec, proc_result *r);
/* proc_run_sandboxed(), and stuck_signal sent to the run a moment before its
 * time limit (a tenth of it, 0.5 s at most), for the program to say where it
 * is stuck (the emulator's SIGUSR1); the limit stays the same, and a program
 * the signal ends has run out of time. */
void proc_run_sandboxed_asking(const proc_spec *spec, int stuck_signal, proc_result *r);
void proc_result_free(proc_result *r);

/* "Segmentation fault (SIGSEGV)" and the like. */
const char *signal_description(int sig);

#endif
