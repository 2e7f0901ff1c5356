/*
 * harness_main.c - main() of every lab program; see harness.h.
 *
 *     PROGRAM DATASET_DIR OUTPUT_FILE                 one dataset
 *     PROGRAM --series DIR1 OUT1 [DIR2 OUT2 ...]      several, one after another
 *     PROGRAM --series-mutants LIMIT_MS DIR K1 OUT1 [K2 OUT2 ...]
 *                                                     one dataset, once per candidate
 *                                                     edit of a schemata build
 *
 * In a series, each dataset is framed by lines on both outputs,
 *     @gpulab  dataset  K
 *     @gpulab  dataset_end  K  EXIT_STATUS  WALL_MS
 * so the grader can cut the outputs into each dataset's part. A dataset that
 * ends in anything but HARNESS_EXIT_OK or HARNESS_EXIT_WRONG (a CUDA error
 * may leave the context unusable; a damaged guard zone, an unreadable
 * dataset) ends the process with that status; the grader runs the datasets
 * after it one process each.
 *
 * --series-mutants is the repair search's series (grader/src/pipeline/
 * repair.c): the same dataset again and again, entry i with the schemata
 * build's candidate edit K_i live (gpulab_emu_mutant = K_i; 0 is the
 * program as written) and its output in OUT_i, each entry framed as above.
 * Each entry runs in a child process of its own, forked from this one
 * before it has run anything of the lab (no launch, no emulator worker
 * started), with LIMIT_MS of processor time (ITIMER_PROF): a candidate
 * that faults, crashes or never ends ends its child alone, and its end
 * line carries the child's exit status, or 128 + the signal that ended it.
 * A fork costs far less than the process the grader would otherwise start
 * again after each (a third of a wrong file's candidates end in a CUDA
 * error). Only a build that has gpulab_emu_mutant (every emulator build
 * does: emu_schemata.h) takes the mode.
 */
#define _POSIX_C_SOURCE 200809L
#include "guard.h"
#include "harness.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The candidate edit that is live in a schemata build (emucc --schemata):
 * the emulator's runtime defines it; a GPU build has none (weak: its
 * address is NULL). */
extern int gpulab_emu_mutant __attribute__((weak));

/* The emulator's checked build's: a dataset of a series begins, so that
 * each dataset's findings are its own (race.c); absent elsewhere. */
extern void gpulab_emu_dataset_begin(void) __attribute__((weak));

static jmp_buf dataset_over;
static int in_series;
static int dataset_status;

void harness_exit(int code)
{
    fflush(stdout);
    fflush(stderr);
    if (in_series && (code == HARNESS_EXIT_OK || code == HARNESS_EXIT_WRONG)) {
        dataset_status = code;
        longjmp(dataset_over, 1);
    }
    exit(code);
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

static void frame(const char *fmt, int k, int status, double ms)
{
    for (int i = 0; i < 2; i++) {
        FILE *f = i ? stderr : stdout;
        fprintf(f, fmt, k, status, ms);
        fflush(f);
    }
}

/* One entry of a series: lab_main() on DIR with OUT, framed as entry k. */
static void series_entry(int k, char *program, char *dir, char *out)
{
    volatile double t0 = now_ms();
    frame("@gpulab\tdataset\t%d\n", k, 0, 0);
    if (gpulab_emu_dataset_begin)
        gpulab_emu_dataset_begin();
    if (setjmp(dataset_over) == 0) {
        char *args[] = { program, dir, out, NULL };
        lab_main(3, args);
        dataset_status = HARNESS_EXIT_OK; /* a lab_main() that returned: harness_finish() not reached */
        frame("@gpulab\tdataset_end\t%d\t%d\t%.3f\n", k, HARNESS_EXIT_USAGE, now_ms() - t0);
        exit(HARNESS_EXIT_USAGE);
    }
    frame("@gpulab\tdataset_end\t%d\t%d\t%.3f\n", k, dataset_status, now_ms() - t0);
    harness_reset();
}

/* The processor time an entry of --series-mutants has: ms from now. A
 * loop that never ends spends it, and SIGPROF's default ends the child
 * (one that sleeps instead is held by the series' own limit). */
static void entry_alarm(long ms)
{
    struct itimerval t = { { 0, 0 }, { ms / 1000, (ms % 1000) * 1000 } };
    setitimer(ITIMER_PROF, &t, NULL);
}

/* Entry k of --series-mutants: candidate id on DIR, in a child. */
static void mutant_entry(int k, long id, long limit_ms, char *program, char *dir, char *out)
{
    double t0 = now_ms();
    frame("@gpulab\tdataset\t%d\n", k, 0, 0);
    pid_t pid = fork();
    if (pid == 0) {
        gpulab_emu_mutant = (int)id;
        /* the emulator's guards of a candidate run (256 MiB) fault on a read
         * past an array; the harness's would hand it 3.4e38 instead, which a
         * zero cancels: a candidate could mend the output by reading there */
        if (id > 0)
            guard_disable();
        entry_alarm(limit_ms);
        char *args[] = { program, dir, out, NULL };
        lab_main(3, args);
        fflush(stdout);
        fflush(stderr);
        _exit(HARNESS_EXIT_USAGE); /* a lab_main() that returned: harness_finish() not reached */
    }
    int status = 0, code = HARNESS_EXIT_USAGE;
    pid_t w = pid;
    while (pid > 0 && (w = waitpid(pid, &status, 0)) < 0 && errno == EINTR)
        ;
    if (pid > 0 && w == pid)
        code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    frame("@gpulab\tdataset_end\t%d\t%d\t%.3f\n", k, code, now_ms() - t0);
}

static int series_mutants(int argc, char **argv)
{
    char *end = NULL;
    long limit_ms = argc >= 4 ? strtol(argv[2], &end, 10) : 0;
    if (argc < 6 || (argc - 4) % 2 != 0 || !end || *end || limit_ms <= 0) {
        fprintf(stderr, "usage: %s --series-mutants LIMIT_MS DATASET_DIR K OUTPUT_FILE [K OUTPUT_FILE]...\n",
                argv[0]);
        return HARNESS_EXIT_USAGE;
    }
    if (!&gpulab_emu_mutant) {
        fprintf(stderr, "%s: --series-mutants: this build has no candidate edits (emucc --schemata)\n", argv[0]);
        return HARNESS_EXIT_USAGE;
    }
    for (int k = 0; 4 + 2 * k < argc; k++) {
        long id = strtol(argv[4 + 2 * k], &end, 10);
        if (*end || id < 0 || id > 1000000) {
            fprintf(stderr, "%s: --series-mutants: not a candidate's number: %s\n", argv[0], argv[4 + 2 * k]);
            return HARNESS_EXIT_USAGE;
        }
        mutant_entry(k, id, limit_ms, argv[0], argv[3], argv[5 + 2 * k]);
    }
    return HARNESS_EXIT_OK;
}

int main(int argc, char **argv)
{
    harness_ready();
    /* a candidate edit live from the start (GPULAB_EMU_MUTANT: the repair
     * search's runs of a mending candidate on every dataset): no guard
     * zones, as in mutant_entry() */
    if (&gpulab_emu_mutant && gpulab_emu_mutant > 0)
        guard_disable();
    if (argc >= 2 && strcmp(argv[1], "--series-mutants") == 0)
        return series_mutants(argc, argv);
    if (argc < 2 || strcmp(argv[1], "--series") != 0)
        return lab_main(argc, argv);
    if (argc < 4 || (argc - 2) % 2 != 0) {
        fprintf(stderr, "usage: %s --series DATASET_DIR OUTPUT_FILE [DATASET_DIR OUTPUT_FILE]...\n", argv[0]);
        return HARNESS_EXIT_USAGE;
    }
    in_series = 1;
    for (int k = 0; 2 + 2 * k < argc; k++)
        series_entry(k, argv[0], argv[2 + 2 * k], argv[3 + 2 * k]);
    return HARNESS_EXIT_OK;
}
