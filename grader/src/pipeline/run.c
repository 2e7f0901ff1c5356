/*
 * run.c - see run.h.
 */
#define _GNU_SOURCE
#include "run.h"
#include "findings.h"
#include "sandbox.h"
#include "source.h"
#include "util.h"
#include "../runtime/harness_protocol.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CAPTURE_CAP RUN_CAPTURE_CAP

/* A run's own folder: size-limited where runs are isolated. */
static void run_verdict(run_result *r, const run_request *q);

static void make_run_dir(const char *dir)
{
    if (make_dirs(dir) != 0)
        die("cannot create %s: %s", dir, strerror(errno));
    sandbox_limit_run_dir(dir);
}

/* The dataset's inputs are its files named input*: nothing else (in
 * particular no expected output) goes where the student's program runs. */
static void copy_inputs(const char *dataset_dir, const char *run_dir)
{
    DIR *d = opendir(dataset_dir);
    if (!d)
        die("cannot open dataset %s: %s", dataset_dir, strerror(errno));
    int copied = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "input", 5) != 0)
            continue;
        char *from = xasprintf("%s/%s", dataset_dir, e->d_name);
        char *to = xasprintf("%s/%s", run_dir, e->d_name);
        /* A dataset folder may come from anyone (a course's own, a download):
         * a link (to a root-only file, to a device) is refused, never copied. */
        char *why = NULL;
        size_t len;
        char *data = untrusted_read(from, RUN_OUTPUT_MAX_BYTES, 0, &len, &why);
        if (!data)
            die("dataset %s: %s; a dataset's input files must be regular files", dataset_dir, why);
        if (write_file(to, data, len) != 0)
            die("cannot copy %s to %s: %s", from, to, strerror(errno));
        free(data);
        copied++;
        free(from);
        free(to);
    }
    closedir(d);
    if (!copied)
        die("dataset %s has no input files (input*)", dataset_dir);
}

char *run_dir_for(const char *workdir, const char *dataset)
{
    return xasprintf("%s/run-%s", workdir, dataset);
}

char *run_log_in(const char *run_dir)
{
    return xasprintf("%s/" RUN_EMU_LOG_NAME, run_dir);
}

char *run_log_for(const char *workdir, const char *dataset)
{
    char *dir = run_dir_for(workdir, dataset);
    char *log = run_log_in(dir);
    free(dir);
    return log;
}

void run_prepare_dir(const char *dataset_dir, const char *run_dir)
{
    make_run_dir(run_dir);
    copy_inputs(dataset_dir, run_dir);
}

/* "@gpulab call C CALL_MS KERNEL_MS": one per call, each call once. */
static void parse_call_line(run_result *r, const char *call, const char *event_ms, const char *kernel_ms)
{
    char *end1, *end2, *end3;
    long c = strtol(call, &end1, 10);
    double e = strtod(event_ms, &end2), k = strtod(kernel_ms, &end3);
    if (*end1 || *end2 || *end3 || c < 0 || c >= HARNESS_MAX_CALLS || !(e >= 0)) {
        r->bad_call_lines++;
        return;
    }
    r->call_seen[c]++;
    r->event_ms[c] = e;
    r->kernel_ms[c] = k;
}

/* Reads the harness's "@gpulab<TAB>..." lines out of the captured stdout. */
static void parse_harness_lines(run_result *r)
{
    r->call_ms = -1;
    for (const char *line = r->proc.out_text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        if (n > 8 && strncmp(line, "@gpulab\t", 8) == 0) {
            char *copy = xasprintf("%.*s", (int)n, line);
            char *fields[8] = { 0 };
            int k = 0;
            for (char *save = NULL, *f = strtok_r(copy + 8, "\t", &save); f && k < 8;
                 f = strtok_r(NULL, "\t", &save))
                fields[k++] = f;
            if (k == 3 && strcmp(fields[0], "time_ms") == 0 && strcmp(fields[1], "call") == 0)
                r->call_ms = strtod(fields[2], NULL);
            else if (k == 6 && strcmp(fields[0], "cuda_error") == 0 && !r->cuda_error)
                r->cuda_error = xasprintf("%s from %s at %s:%s (%s)", fields[1], fields[2], fields[3],
                                          fields[4], fields[5]);
            else if (k == 2 && strcmp(fields[0], "wrong") == 0 && !r->harness_wrong)
                r->harness_wrong = xstrdup(fields[1]);
            else if (k == 2 && strcmp(fields[0], "memory_error") == 0 && !r->memory_error)
                r->memory_error = xstrdup(fields[1]);
            else if (k == 4 && strcmp(fields[0], "call") == 0)
                parse_call_line(r, fields[1], fields[2], fields[3]);
            else if (k == 2 && strcmp(fields[0], "kernel_token") == 0 && strlen(fields[1]) <= 16 &&
                     r->nkernel_tokens++ < HARNESS_MAX_CALLS) {
                char *more = xasprintf("%s%s\n", r->kernel_tokens ? r->kernel_tokens : "", fields[1]);
                free(r->kernel_tokens);
                r->kernel_tokens = more;
            }
            free(copy);
        }
        line = end ? end + 1 : line + n;
    }
}

/* The emulator's program (the one that says where it is stuck) is limited
 * by its work, not by the clock (process.h, cpu_limit_s): the work of
 * WORK_PROCESSORS processors for the lab's time limit. A graded run then
 * gets the same verdict on a busy machine as on an idle one, and on a
 * laptop of 2 cores as on a server of 16. A GPU's program keeps the clock:
 * its work is on the GPU, where processor time does not see it. */
#define WORK_PROCESSORS 2.0
static double work_limit(const run_request *q)
{
    return q->where_stuck ? WORK_PROCESSORS * q->timeout_s : 0;
}

void run_program(const char *program, const char *dataset_dir, const char *run_dir, const run_request *q,
                 run_result *r)
{
    memset(r, 0, sizeof *r);
    run_prepare_dir(dataset_dir, run_dir);
    r->run_dir = xstrdup(run_dir);
    r->output_path = xasprintf("%s/output.tensor", run_dir);
    const char *argv[] = { program, ".", "output.tensor", NULL };
    proc_spec spec = { argv, run_dir, q->env_add, q->timeout_s, CAPTURE_CAP, RUN_OUTPUT_MAX_BYTES, 0,
                       RUN_STARTUP_S, work_limit(q), LAB_READY_ENV, LAB_KEPT_LINES };
    proc_run_sandboxed_asking(&spec, q->where_stuck ? SIGUSR1 : 0, &r->proc);
    parse_harness_lines(r);
    run_verdict(r, q);
}

/* Dataset k's part of a series' output: the text between its two frame
 * lines, NULL when it has no end line; *status and *ms from the end line. */
static char *series_part(const char *text, int k, int *status, double *ms)
{
    char start[64], end[64];
    snprintf(start, sizeof start, "@gpulab\tdataset\t%d\n", k);
    snprintf(end, sizeof end, "@gpulab\tdataset_end\t%d\t", k);
    const char *a = NULL, *b = NULL;
    for (const char *line = text; line && *line;) {
        if (!a && strncmp(line, start, strlen(start)) == 0)
            a = line + strlen(start);
        else if (a && strncmp(line, end, strlen(end)) == 0) {
            b = line;
            break;
        }
        const char *nl = strchr(line, '\n');
        line = nl ? nl + 1 : NULL;
    }
    if (!a || !b || sscanf(b + strlen(end), "%d\t%lf", status, ms) != 2)
        return NULL;
    return xasprintf("%.*s", (int)(b - a), a);
}

/* The process of a series (argv, in series_dir) run and cut into its n
 * entries' results, entry i's output at series_dir/outputs[i]; returns as
 * run_series(). */
static int run_framed(const char *const *argv, const char *series_dir, char *const *outputs, int n,
                      const run_request *q, run_result *results)
{
    proc_spec spec = { argv, series_dir, q->env_add, q->timeout_s, CAPTURE_CAP * (size_t)n, RUN_OUTPUT_MAX_BYTES,
                       0, RUN_STARTUP_S, work_limit(q), LAB_READY_ENV, LAB_KEPT_LINES };
    proc_result p;
    proc_run_sandboxed_asking(&spec, q->where_stuck ? SIGUSR1 : 0, &p);
    for (int i = 0; i < n; i++) {
        int out_status, err_status;
        double out_ms, err_ms;
        char *out = p.started ? series_part(p.out_text, i, &out_status, &out_ms) : NULL;
        char *err = p.started ? series_part(p.err_text, i, &err_status, &err_ms) : NULL;
        if (!out || !err || out_status != err_status) {
            free(out);
            free(err);
            /* not finished in the series: what it printed on its standard
             * error until the end (where it was stuck, for one), kept */
            char start[64];
            snprintf(start, sizeof start, "@gpulab\tdataset\t%d\n", i);
            const char *from = p.started && p.err_text ? strstr(p.err_text, start) : NULL;
            int first_unfinished = i == 0 || results[i - 1].proc.started;
            if (from && !results[i].proc.err_text && first_unfinished)
                results[i].proc.err_text = xstrdup(from + strlen(start));
            if (first_unfinished && p.started && p.timed_out) {
                /* the dataset the series ran out of time on */
                results[i].status = ST_TIMEOUT;
                results[i].message = run_timeout_message(q->timeout_s, p.never_ready, results[i].proc.err_text,
                                                         q->student_file);
            }
            continue;
        }
        run_result *r = &results[i];
        r->proc.started = r->proc.exited = 1;
        r->proc.exit_code = out_status;
        r->proc.wall_s = out_ms / 1e3;
        r->proc.out_text = out;
        r->proc.err_text = err;
        r->run_dir = xstrdup(series_dir);
        r->output_path = xasprintf("%s/%s", series_dir, outputs[i]);
        parse_harness_lines(r);
        run_verdict(r, q);
    }
    int timed_out = p.started && p.timed_out ? 1 | (p.never_ready ? RUN_NEVER_READY : 0) : 0;
    proc_result_free(&p);
    return timed_out;
}

int run_series(const char *program, const char *const *dataset_dirs, int n, const char *series_dir,
               const run_request *q, run_result *results)
{
    memset(results, 0, (size_t)n * sizeof *results);
    make_run_dir(series_dir); /* one limit for the whole series */
    const char **argv = xcalloc((size_t)(2 * n + 3), sizeof *argv);
    char **names = xcalloc((size_t)(2 * n), sizeof *names);
    char **outputs = xcalloc((size_t)n, sizeof *outputs);
    argv[0] = program;
    argv[1] = "--series";
    for (int i = 0; i < n; i++) {
        names[2 * i] = xasprintf("d%d", i);
        names[2 * i + 1] = xasprintf("out-%d.tensor", i);
        outputs[i] = names[2 * i + 1];
        char *dir = xasprintf("%s/%s", series_dir, names[2 * i]);
        if (make_dirs(dir) != 0)
            die("cannot create %s: %s", dir, strerror(errno));
        copy_inputs(dataset_dirs[i], dir);
        free(dir);
        argv[2 + 2 * i] = names[2 * i];
        argv[3 + 2 * i] = names[2 * i + 1];
    }
    int timed_out = run_framed(argv, series_dir, outputs, n, q, results);
    for (int i = 0; i < 2 * n; i++)
        free(names[i]);
    free(names);
    free(outputs);
    free(argv);
    return timed_out;
}

int run_mutants(const char *program, const char *dataset_dir, const int *ids, int n, double each_s,
                const char *series_dir, const run_request *q, run_result *results)
{
    memset(results, 0, (size_t)n * sizeof *results);
    make_run_dir(series_dir);
    char *inputs = xasprintf("%s/d", series_dir);
    if (make_dirs(inputs) != 0)
        die("cannot create %s: %s", inputs, strerror(errno));
    copy_inputs(dataset_dir, inputs);
    free(inputs);
    const char **argv = xcalloc((size_t)(2 * n + 5), sizeof *argv);
    char **names = xcalloc((size_t)(2 * n + 1), sizeof *names);
    char **outputs = xcalloc((size_t)n, sizeof *outputs);
    names[2 * n] = xasprintf("%ld", (long)(each_s * 1000) > 0 ? (long)(each_s * 1000) : 1);
    argv[0] = program;
    argv[1] = "--series-mutants";
    argv[2] = names[2 * n];
    argv[3] = "d";
    for (int i = 0; i < n; i++) {
        names[2 * i] = xasprintf("%d", ids[i]);
        names[2 * i + 1] = xasprintf("out-%d.tensor", i);
        outputs[i] = names[2 * i + 1];
        argv[4 + 2 * i] = names[2 * i];
        argv[5 + 2 * i] = names[2 * i + 1];
    }
    int timed_out = run_framed(argv, series_dir, outputs, n, q, results);
    for (int i = 0; i < 2 * n + 1; i++)
        free(names[i]);
    free(names);
    free(outputs);
    free(argv);
    return timed_out;
}

/* The last non-empty line of a text, for a one-line message. */
static char *last_line(const char *text)
{
    const char *end = text + strlen(text);
    while (end > text && (end[-1] == '\n' || end[-1] == '\r' || end[-1] == ' '))
        end--;
    const char *start = end;
    while (start > text && start[-1] != '\n')
        start--;
    return xasprintf("%.*s", (int)(end - start > 300 ? 300 : end - start), start);
}

/* The two sentences of a timeout where the emulator did not say where. */
static char *plain_timeout_message(double timeout_s, int never_ready)
{
    if (never_ready)
        return xasprintf("was not ready for its first dataset within %g s and was stopped: the time before it "
                         "(CUDA's start-up, and the program's own constructors and static initialisers) is not "
                         "part of the time limit, but has a limit of its own; look for a constructor or a "
                         "global object's initialiser that never ends", RUN_STARTUP_S);
    return xasprintf("did not finish within %g s and was stopped: look for a loop that never ends, or a "
                     "__syncthreads() that some threads of a block never reach", timeout_s);
}

/* The first of the emulator's lines in err_text whose category is category
 * and whose CUDA error is error (any, for NULL) and that names a kernel,
 * into *d (without its message);
 * in_cu: and a place in a .cu file, the student's (the build's copies keep
 * its lines), not the emulator's own code; msg (msgsz bytes, or NULL) gets
 * the line's message. 0, or -1 when there is none. */
/* Whether the emulator's line names a place in a .cu file: the student's
 * (the build's copies keep its lines), not the emulator's own code. */
static int in_cu_file(const emu_diag *d)
{
    size_t n = strlen(d->file);
    return d->line > 0 && n > 3 && strcmp(d->file + n - 3, ".cu") == 0;
}

static int emu_kernel_line(const char *err_text, const char *category, const char *error, int in_cu, emu_diag *d,
                           char *msg, size_t msgsz)
{
    static const char prefix[] = "gpulab-emu: ";
    for (const char *p = err_text ? strstr(err_text, prefix) : NULL; p; p = strstr(p + 1, prefix)) {
        size_t n = strcspn(p, "\n") - (sizeof prefix - 1);
        char *line = xasprintf("%.*s", (int)n, p + sizeof prefix - 1);
        int ours = emu_diag_parse(line, d) == 0 && (!category || strcmp(d->category, category) == 0) &&
                   (!error || strcmp(d->error, error) == 0) && d->kernel[0] && (!in_cu || in_cu_file(d));
        if (ours && msg)
            snprintf(msg, msgsz, "%s", d->message);
        free(line);
        d->message = "";
        if (ours)
            return 0;
    }
    return -1;
}

/* A grid of this many blocks or more is far larger than any lab's data
 * (the largest, 4096 x 4096 elements, needs 65536 blocks of 16 x 16): a
 * launch of one that runs out of time is named for its grid, not for a
 * loop (the emulator runs some hundred million threads a second), once
 * its blocks were seen to finish: more of them had started than any lab
 * needs. A loop that never ends holds up its worker's first blocks. */
#define HUGE_GRID_BLOCKS (1ull << 20)
#define BLOCKS_SEEN_TO_FINISH 65536ull

/* The timeout of a launch over a grid far too large, from the stuck line's
 * message ("...; the launch at FILE:LINE had started N of its M blocks of
 * (x,y,z) threads", the emulator's own count): NULL for any other. */
static char *huge_grid_message(double timeout_s, const emu_diag *d, const char *msg, const char *student_file)
{
    const char *at = strstr(msg, "; the launch at "), *had = at ? strstr(at, " had started ") : NULL;
    unsigned long long started, blocks;
    unsigned bx, by, bz;
    if (!had || sscanf(had, " had started %llu of its %llu blocks of (%u,%u,%u) threads", &started, &blocks, &bx,
                       &by, &bz) != 5 || blocks < HUGE_GRID_BLOCKS || started < BLOCKS_SEEN_TO_FINISH)
        return NULL;
    at += strlen("; the launch at ");
    const char *colon = had;
    while (colon > at && colon[-1] != ':')
        colon--;
    int line = colon > at ? atoi(colon) : 0;
    char *file = colon > at ? xasprintf("%.*s", (int)(colon - 1 - at), at) : xstrdup("");
    char *where = line > 0 && student_file ? sanitize_quote_at(student_file, file, line) : xstrdup("its launch");
    unsigned long long threads = blocks * ((unsigned long long)bx * by * bz);
    char *out = xasprintf("did not finish within %g s and was stopped: kernel %s was launched at %s over a grid of %s "
                          "= %llu blocks of (%u,%u,%u) threads, %llu threads in all, and had started %llu of "
                          "those blocks when the time ran out: the grid is far larger than the data, so size it from "
                          "the output (one thread per element, rounded up to whole blocks)",
                          timeout_s, d->kernel, where, d->grid[0] ? d->grid : "?", blocks, bx, by, bz, threads,
                          started);
    free(file);
    free(where);
    return out;
}

char *run_timeout_message(double timeout_s, int never_ready, const char *err_text, const char *student_file)
{
    if (never_ready)
        return plain_timeout_message(timeout_s, 1);
    emu_diag d;
    char said[1024];
    if (emu_kernel_line(err_text, "stuck", NULL, 0, &d, said, sizeof said) != 0)
        return plain_timeout_message(timeout_s, 0);
    char *grid = huge_grid_message(timeout_s, &d, said, student_file);
    if (grid)
        return grid;
    const char *thread = d.thread, *block = d.block, *kernel = d.kernel;
    /* a line of the student's file, not of the emulator's own code */
    char *at = in_cu_file(&d) && student_file ? sanitize_quote(student_file, d.line) : NULL;
    /* a counter too narrow for its bound wraps round before reaching it */
    char name[64], type[32], *advice = NULL;
    long most = 0;
    int loop = at ? source_narrow_loop_counter(student_file, d.line, name, sizeof name, type, sizeof type, &most) : 0;
    if (loop > 0)
        advice = xasprintf("the loop at line %d counts with %s, declared `%s`, which holds at most %ld and then "
                           "wraps round: a bound above %ld is never reached, so the loop never ends; declare %s "
                           "an int",
                           loop, name, type, most, most, name);
    char *msg = xasprintf("did not finish within %g s and was stopped: when its time ran out, thread %s of block %s "
                          "of kernel %s was still running%s%s: %s",
                          timeout_s, thread, block, kernel, at ? " at " : "", at ? at : "",
                          advice ? advice : "look there for a loop that never ends");
    free(advice);
    free(at);
    return msg;
}

/* The emulator's own line for the fault behind a CUDA error, "gpulab-emu:
 * KIND FILE:LINE kernel K block (x,y,z) thread (x,y,z): TEXT (cudaErrorX)",
 * gives the kernel's line, which the error's line (the call that returned
 * it, after the launch) is not: the message names both. NULL when err_text
 * has no such line for this error in a .cu file. */
static char *cuda_error_at_kernel_line(const char *cuda_error, const char *err_text)
{
    char name[64], said[512];
    emu_diag d;
    if (!cuda_error || sscanf(cuda_error, "%63s", name) != 1 ||
        emu_kernel_line(err_text, NULL, name, 1, &d, said, sizeof said) != 0)
        return NULL;
    char kind[32];
    snprintf(kind, sizeof kind, "%s", d.category);
    for (char *k = kind; *k; k++)
        *k = *k == '-' ? ' ' : *k;
    /* cuda_error: "NAME from CALL at FILE:LINE (DESCRIPTION)" */
    const char *from = strstr(cuda_error, " from ");
    const char *desc = strrchr(cuda_error, '(');
    char *call = !from ? xstrdup("")
                 : desc && desc > from + 6 ? xasprintf("; then returned by %.*s", (int)(desc - from - 7), from + 6)
                                           : xasprintf("; then returned by %s", from + 6);
    /* an invalid launch's line is the launch's, not one inside the kernel */
    int launch = strcmp(d.category, "invalid-launch") == 0 || strcmp(d.category, "host-pointer") == 0;
    /* ... and its reason, the emulator's words up to the error's name (a
     * block larger than the kernel's __launch_bounds__, a dimension of 0,
     * an argument that is host memory) */
    char *why = NULL;
    if (launch) {
        const char *err = strstr(said, " (cudaError");
        size_t n = err ? (size_t)(err - said) : strlen(said);
        why = n ? xasprintf(": %.*s", (int)n, said) : NULL;
    }
    char *msg = xasprintf("CUDA error %s %s %s %s at %s (%s, as the emulator saw it%s)%s", name, desc ? desc : "",
                          launch ? "at the launch of kernel" : "in kernel", d.kernel, d.location, kind,
                          why ? why : "", call);
    free(why);
    free(call);
    return msg;
}

/* The emulator's reason for a CUDA error a host call returned, from its
 * line "gpulab-emu: invalid-memcpy -: TEXT (cudaErrorX)" (a copy, a set or
 * an allocation the emulator refused, with the sizes it saw; the set's
 * and the allocation's lines say invalid-memset, invalid-malloc): TEXT, malloc'd; NULL when
 * err_text has no such line for this error. The student's process wrote
 * err_text: only a line of that exact form, cut at its length, is taken. */
static char *cuda_error_reason(const char *cuda_error, const char *err_text)
{
    char name[64];
    if (!cuda_error || !err_text || sscanf(cuda_error, "%63s", name) != 1)
        return NULL;
    static const char *const kinds[] = { "gpulab-emu: invalid-memcpy -: ", "gpulab-emu: invalid-memset -: ",
                                         "gpulab-emu: invalid-malloc -: " };
    for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++)
        for (const char *p = strstr(err_text, kinds[k]); p; p = strstr(p + 1, kinds[k])) {
            if (p != err_text && p[-1] != '\n')
                continue;
            const char *text = p + strlen(kinds[k]), *end = strchr(text, '\n');
            size_t n = end ? (size_t)(end - text) : strlen(text), nl = strlen(name);
            /* "... (cudaErrorX)" at its end */
            if (n < nl + 3 || n > 600 || text[n - 1] != ')' || strncmp(text + n - nl - 1, name, nl) != 0 ||
                text[n - nl - 2] != '(')
                continue;
            n -= nl + 2;
            while (n > 0 && text[n - 1] == ' ')
                n--;
            return xasprintf("%.*s", (int)n, text);
        }
    return NULL;
}

/* A crash the emulator named as host code that touched device memory: the
 * words of its "gpulab-emu: host-access" line (emu_host_access_words), the
 * first of that exact form in err_text, which the student's process wrote.
 * NULL when there is none. */
static char *host_access_crash(const char *err_text, const char *student_file)
{
    static const char prefix[] = "gpulab-emu: host-access ";
    for (const char *p = err_text ? strstr(err_text, prefix) : NULL; p; p = strstr(p + 1, prefix)) {
        if (p != err_text && p[-1] != '\n')
            continue;
        size_t n = strcspn(p, "\n");
        if (n > 2000)
            continue;
        char *line = xasprintf("%.*s", (int)n, p + strlen("gpulab-emu: "));
        char *out = emu_host_access_words(line, student_file);
        free(line);
        if (out)
            return out;
    }
    return NULL;
}

/* The status the run alone decides, and its message. */
static status_t run_status(const run_result *r, const run_request *q, char **message)
{
    const proc_result *p = &r->proc;
    if (!p->started) {
        *message = xasprintf("the lab program could not be started: %s", p->out_text);
        return ST_GRADER_ERROR;
    }
    if (p->timed_out) {
        *message = run_timeout_message(q->timeout_s, p->never_ready, p->err_text, q->student_file);
        return ST_TIMEOUT;
    }
    if (p->over_limit) {
        *message = xasprintf("the program was stopped: %s", p->over_limit);
        return ST_CRASH;
    }
    if (p->signaled) {
        char *host = q->student_file ? host_access_crash(p->err_text, q->student_file) : NULL;
        *message = host ? xasprintf("the program crashed: %s", host)
                        : xasprintf("the program crashed: %s", signal_description(p->signal_number));
        free(host);
        return ST_CRASH;
    }
    if (p->exit_code == 0)
        return ST_PASS;
    if (p->exit_code == HARNESS_EXIT_CUDA && r->cuda_error) {
        *message = cuda_error_at_kernel_line(r->cuda_error, p->err_text);
        if (!*message) {
            char *why = cuda_error_reason(r->cuda_error, p->err_text);
            *message = why ? xasprintf("CUDA error %s: %s", r->cuda_error, why) : xasprintf("CUDA error %s", r->cuda_error);
            free(why);
        }
        return ST_CUDA_ERROR;
    }
    if (p->exit_code == HARNESS_EXIT_WRONG && r->harness_wrong) {
        *message = xstrdup(r->harness_wrong);
        return ST_WRONG;
    }
    if (p->exit_code == HARNESS_EXIT_MEMORY && r->memory_error) {
        *message = xasprintf("memory error: %s", r->memory_error);
        return ST_CUDA_ERROR;
    }
    if (p->exit_code == HARNESS_EXIT_DATASET || p->exit_code == HARNESS_EXIT_USAGE) {
        /* The harness's own statuses for a kit failure, but the student's
         * code shares its process and can exit with any status and print
         * anything: it is the program's failure, never grader_error (which
         * would blame the kit and stop a class's batch). A dataset the kit
         * cannot read fails in the grader's own process instead. */
        char *why = last_line(p->err_text);
        *message = xasprintf("the program exited with status %d, which the kit's harness uses when it cannot "
                             "read the dataset or write the output (it said: %s); counted against the program, "
                             "which can exit with any status: does your code call exit()?",
                             p->exit_code, why);
        free(why);
        return ST_CRASH;
    }
    *message = xasprintf("the program exited with status %d before the harness could write its output",
                         p->exit_code);
    return ST_CRASH;
}

/* The one place a finished run becomes its status and message (run.h). */
static void run_verdict(run_result *r, const run_request *q)
{
    free(r->message);
    r->message = NULL;
    r->status = run_status(r, q, &r->message);
}

void run_result_free(run_result *r)
{
    proc_result_free(&r->proc);
    free(r->run_dir);
    free(r->output_path);
    free(r->cuda_error);
    free(r->harness_wrong);
    free(r->memory_error);
    free(r->kernel_tokens);
    free(r->message);
    memset(r, 0, sizeof *r);
}
