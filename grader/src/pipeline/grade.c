/*
 * grade.c - see grade.h. The stages live in build.c, run.c and compare.c;
 * this file only strings them together and awards points.
 */
#define _GNU_SOURCE
#include "grade.h"
#include "bench.h"
#include "build.h"
#include "compare.h"
#include "datasets.h"
#include "diagnose.h"
#include "requirements.h"
#include "run.h"
#include "counts.h"
#include "sanitize.h"
#include "sandbox.h"
#include "source.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* After this many timeouts of datasets that had the whole limit to
 * themselves (series_stage), the rest of a submission's datasets are not
 * run: an endless loop costs a submission twice the lab's time limit, not
 * once per dataset. */
#define MAX_TIMEOUTS 2

void submission_result_free(submission_result *s)
{
    for (int i = 0; i < s->ndatasets; i++) {
        free(s->datasets[i].message);
        free(s->datasets[i].program_stdout);
        free(s->datasets[i].program_stderr);
        if (s->datasets[i].sanitizer) {
            sanitize_result_free(s->datasets[i].sanitizer);
            free(s->datasets[i].sanitizer);
        }
    }
    free(s->datasets);
    for (int i = 0; i < s->nrequirements; i++)
        free(s->requirements[i].message);
    free(s->requirements);
    free(s->hint);
    free(s->file);
    free(s->lab);
    free(s->build_log);
    free(s->build_message);
    free(s->checkers_fallback);
    free(s->perf_message);
    memset(s, 0, sizeof *s);
}

/* Dataset `index`'s directory: the kit's, or under datasets_root when the
 * datasets were regenerated (hidden datasets, see grade.h). */
static char *resolve_dataset_dir(const lab_manifest *m, int index, const char *datasets_root)
{
    return datasets_root ? xasprintf("%s/%s", datasets_root, m->datasets[index].name)
                         : dataset_dir(m, index);
}

/* The folder of an image lab's maps: MAPS/<lab> (MAPS: --maps, default
 * gpulab-errormaps). */
static char *maps_folder(const lab_manifest *m, const char *maps_dir)
{
    return xasprintf("%s/%s", maps_dir ? maps_dir : "gpulab-errormaps", m->id);
}

/* The name of a dataset's map in that folder: <file>-<dataset>.<ext>
 * (<file>: the student's file name without its extension). */
static char *map_name(const char *folder, const char *student_file, const char *dataset, const char *ext)
{
    char *stem = xstrdup(path_base(student_file));
    char *dot = strrchr(stem, '.');
    if (dot)
        *dot = '\0';
    char *path = xasprintf("%s/%s-%s.%s", folder, stem, dataset, ext);
    free(stem);
    return path;
}

/* Where an image lab's map of a dataset goes: MAPS/<lab>/<file>-<dataset>.png,
 * its folder made; NULL for a lab without maps or when the folder cannot be
 * made. */
static char *map_path_for(const lab_manifest *m, const char *maps_dir, const char *student_file,
                          const char *dataset)
{
    if (m->errormap_tile <= 0)
        return NULL;
    char *folder = maps_folder(m, maps_dir);
    char *path = make_dirs(folder) == 0 ? map_name(folder, student_file, dataset, "png") : NULL;
    free(folder);
    return path;
}

/* The first of the emulator's lines in err_text whose category is category
 * and whose CUDA error is error (any, for NULL) and that names a kernel,
 * into *d (without its message);
 * in_cu: and a place in a .cu file, the student's (the build's copies keep
 * its lines), not the emulator's own code. 0, or -1 when there is none. */
static int emu_kernel_line(const char *err_text, const char *category, const char *error, int in_cu, emu_diag *d,
                           char *msg, size_t msgsz)
{
    static const char prefix[] = "gpulab-emu: ";
    for (const char *p = err_text ? strstr(err_text, prefix) : NULL; p; p = strstr(p + 1, prefix)) {
        size_t n = strcspn(p, "\n") - (sizeof prefix - 1);
        char *line = xasprintf("%.*s", (int)n, p + sizeof prefix - 1);
        int ours = sanitize_emu_diag(line, d) == 0 && (!category || strcmp(d->category, category) == 0) &&
                   (!error || strcmp(d->error, error) == 0) && d->kernel[0] && (!in_cu || (d->line > 0 && strlen(d->file) > 3 &&
                                               strcmp(d->file + strlen(d->file) - 3, ".cu") == 0));
        if (ours && msg)
            snprintf(msg, msgsz, "%s", d->message);
        free(line);
        d->message = "";
        if (ours)
            return 0;
    }
    return -1;
}

/* The message of a run that ran out of time: where its kernel was stuck
 * when the emulator says so ("gpulab-emu: stuck FILE:LINE kernel K block
 * (x,y,z) thread (x,y,z): ..." on its standard error, run_program()'s
 * where_stuck), quoting the student's line; else run_timeout_message().
 * never_ready: it ran out of its start-up limit (run.h). */
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
    char *where = line > 0 ? sanitize_quote_at(student_file, file, line) : xstrdup("its launch");
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

static char *timeout_message(double timeout_s, int never_ready, const char *err_text, const char *student_file)
{
    if (never_ready)
        return run_timeout_message(timeout_s, 1);
    emu_diag d;
    char said[1024];
    if (emu_kernel_line(err_text, "stuck", NULL, 0, &d, said, sizeof said) != 0)
        return run_timeout_message(timeout_s, 0);
    char *grid = huge_grid_message(timeout_s, &d, said, student_file);
    if (grid)
        return grid;
    const char *thread = d.thread, *block = d.block, *kernel = d.kernel;
    /* a line of the student's file, not of the emulator's own code */
    size_t nf = strlen(d.file);
    int theirs = d.line > 0 && nf > 3 && strcmp(d.file + nf - 3, ".cu") == 0;
    char *at = theirs ? sanitize_quote(student_file, d.line) : NULL;
    char *msg = xasprintf("did not finish within %g s and was stopped: when its time ran out, thread %s of block %s "
                          "of kernel %s was still running%s%s: look there for a loop that never ends",
                          timeout_s, thread, block, kernel, at ? " at " : "", at ? at : "");
    free(at);
    return msg;
}

/* A map on disk must picture this run: each graded dataset that got no error
 * map now (it passed, or ended without an output to draw) loses the one an
 * earlier check left, and the .ppm maps of kits before PNG go too. The
 * sanitizer stage, after this, draws its fault and race maps afresh. */
static void remove_stale_maps(const lab_manifest *m, const char *maps_dir, const submission_result *s)
{
    if (m->errormap_tile <= 0)
        return;
    char *folder = maps_folder(m, maps_dir);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        char *png = map_name(folder, s->file, d->name, "png");
        char *ppm = map_name(folder, s->file, d->name, "ppm");
        if (!d->cmp.error_map[0])
            unlink(png);
        unlink(ppm);
        free(png);
        free(ppm);
    }
    free(folder);
}

static void judge_run(const lab_manifest *m, const run_result *r, const char *dir, double timeout_s,
                      dataset_result *d, const char *student_file, const char *maps_dir, const char *workdir,
                      kernel_evidence *evidence);

static void grade_dataset(const lab_manifest *m, const backend *b, const char *program,
                          const char *workdir, int index, double timeout_s, dataset_result *d,
                          kernel_evidence *evidence, const char *datasets_root,
                          const char *student_file, const char *maps_dir)
{
    char *dir = resolve_dataset_dir(m, index, datasets_root);
    char *run_dir = run_dir_for(workdir, d->name);
    /* The emulator logs what each launch did, in the run's own limited folder. */
    char *emu_log = run_log_for(workdir, d->name);
    char *emu_env = xasprintf("GPULAB_EMU_LOG=%s", emu_log);
    const char *env[] = { emu_env, NULL };
    run_result run;
    run_program(program, dir, run_dir, timeout_s, b->kind == BACKEND_EMU ? env : NULL, b->kind == BACKEND_EMU,
                &run);
    if (b->kind == BACKEND_EMU)
        evidence_from_emu_log(emu_log, evidence);
    free(emu_log);
    free(emu_env);
    judge_run(m, &run, dir, timeout_s, d, student_file, maps_dir, workdir, evidence);
    run_result_free(&run);
    free(run_dir);
    free(dir);
}

/* The emulator's own line for the fault behind a CUDA error, "gpulab-emu:
 * KIND FILE:LINE kernel K block (x,y,z) thread (x,y,z): TEXT (cudaErrorX)",
 * gives the kernel's line, which the error's line (the call that returned
 * it, after the launch) is not: the message names both. NULL when err_text
 * has no such line for this error in a .cu file. */
static char *cuda_error_at_kernel_line(const char *cuda_error, const char *err_text)
{
    char name[64];
    emu_diag d;
    if (!cuda_error || sscanf(cuda_error, "%63s", name) != 1 || emu_kernel_line(err_text, NULL, name, 1, &d, NULL, 0) != 0)
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
    int launch = strcmp(d.category, "invalid-launch") == 0;
    char *msg = xasprintf("CUDA error %s %s %s %s at %s (%s, as the emulator saw it)%s", name, desc ? desc : "",
                          launch ? "at the launch of kernel" : "in kernel", d.kernel, d.location, kind, call);
    free(call);
    return msg;
}

/* The statuses, the comparison and the points of one dataset's run. */
static void judge_run(const lab_manifest *m, const run_result *r, const char *dir, double timeout_s,
                      dataset_result *d, const char *student_file, const char *maps_dir, const char *workdir,
                      kernel_evidence *evidence)
{
    const run_result run = *r;
    d->wall_s = run.proc.wall_s;
    d->call_ms = run.call_ms;
    d->program_stdout = xstrdup(run.proc.out_text);
    /* the emulator's lines name the build folder's copies of the student's
     * file: they name the student's own */
    d->program_stderr = build_student_named(run.proc.err_text, workdir, student_file);
    d->status = run_status(&run, timeout_s, &d->message);
    if (d->status == ST_CUDA_ERROR && run.cuda_error) {
        char *at_kernel = cuda_error_at_kernel_line(run.cuda_error, d->program_stderr);
        if (at_kernel) {
            free(d->message);
            d->message = at_kernel;
        }
    }
    if (d->status == ST_TIMEOUT) {
        free(d->message);
        d->message = timeout_message(timeout_s, run.proc.never_ready, run.proc.err_text, student_file);
    }
    /* A memory error or a wrong result the harness saw is final, but the
     * harness wrote the output first: compare it anyway for the hint and the
     * error map, keeping the run's status and message. */
    int compare_too = d->status == ST_PASS || ((run.memory_error || run.harness_wrong) &&
                                               file_exists(run.output_path));
    status_t run_st = d->status;
    char *run_message = d->status == ST_PASS ? NULL : d->message;
    if (compare_too) {
        /* The program has ended and its whole process group is gone: only
         * now does the grader look at what it wrote. */
        char *expected = xasprintf("%s/%s", dir, m->expected);
        char *map_path = map_path_for(m, maps_dir, student_file, d->name);
        errormap_request req = { map_path, m->errormap_tile, m->errormap_halo };
        d->status = compare_output(run.output_path, expected, &m->tolerance, req.path ? &req : NULL,
                                   &d->cmp, &d->message);
        if (run_st != ST_PASS) {
            free(d->message);
            d->message = run_message;
            d->status = run_st;
        }
        free(map_path);
        free(expected);
    }
    /* A right output counts only if a kernel of the submission ran: the
     * value its kernels stored (build_kernel_token), which no line the
     * program prints can give without one. */
    unsigned block[3];
    int kernel_ran = build_kernel_ran(workdir, run.kernel_tokens, block);
    evidence_from_kernel_token(block, evidence);
    if (d->status == ST_PASS && !kernel_ran) {
        d->status = ST_REQUIREMENT_FAILED;
        free(d->message);
        d->message = xstrdup("the output is right, but no kernel of yours ran: the lab's result must be "
                             "computed on the GPU by a kernel your code launches (kernel<<<grid, block>>>(...)), "
                             "not by a loop on the host");
    }
    if (d->status == ST_PASS)
        d->points = d->max_points;
}

/* Back to the state before the dataset was judged (keeping its name and
 * points), its error map removed: the dataset is run again on its own. */
static void forget_dataset(dataset_result *d)
{
    if (d->cmp.error_map[0])
        remove(d->cmp.error_map);
    free(d->message);
    free(d->program_stdout);
    free(d->program_stderr);
    const char *name = d->name;
    double max_points = d->max_points;
    memset(d, 0, sizeof *d);
    d->name = name;
    d->max_points = max_points;
    d->call_ms = -1;
}

/* A dataset that ran out of time with the whole limit to itself (or, never_ready,
 * before it: in its start-up). */
static void judge_timeout(dataset_result *d, double timeout_s, int never_ready, const char *err_text,
                          const char *student_file)
{
    d->status = ST_TIMEOUT;
    d->message = timeout_message(timeout_s, never_ready, err_text, student_file);
    d->wall_s = timeout_s;
    d->program_stdout = xstrdup("");
    d->program_stderr = xstrdup("");
}

/* The datasets in series of processes (run_series): one process start and
 * one CUDA context for many datasets, the grader's main cost on a GPU. A
 * series has one dataset's limit for all of its datasets. When it runs out
 * of time on dataset k and k was its first, k had a fresh process and the
 * whole limit to itself, as alone: k gets `timeout`, which counts, and the
 * next series starts after k. When k was not the first, earlier datasets
 * used part of its time: the next series starts at k, which then has the
 * whole limit. So a program that never ends costs twice the limit (two
 * series, two timeouts) before the rest is skipped, not once per dataset.
 * Only passes are kept: a dataset that did anything else in a series is run
 * again on its own (alone[i] set), so its verdict never depends on what an
 * earlier dataset left behind in the process (a static variable, a leaked
 * buffer); so is one that ended the process (a crash). done[i] is set for
 * the datasets judged here. Returns the timeouts counted. */
static int series_stage(const lab_manifest *m, const backend *b, const char *program, const char *workdir,
                        const int *index, double timeout_s, kernel_evidence *evidence,
                        const char *datasets_root, const char *student_file, const char *maps_dir,
                        submission_result *s, int *done, int *alone)
{
    int n = s->ndatasets, timeouts = 0, start = 0;
    int *pending = xcalloc((size_t)n + 1, sizeof(int));
    char **dirs = xcalloc((size_t)n + 1, sizeof *dirs);
    run_result *runs = xcalloc((size_t)n + 1, sizeof *runs);
    for (int series = 1; timeouts < MAX_TIMEOUTS; series++) {
        int np = 0;
        for (int i = start; i < n; i++)
            if (!done[i] && !alone[i])
                pending[np++] = i;
        if (np <= 1) {
            if (np == 1)
                alone[pending[0]] = 1; /* a series of one is a run alone */
            break;
        }
        for (int j = 0; j < np; j++)
            dirs[j] = resolve_dataset_dir(m, index[pending[j]], datasets_root);
        /* A folder and a launch log of its own per series: nothing of an
         * earlier series is read twice. */
        char *series_dir = xasprintf("%s/series-%d", workdir, series);
        char *emu_log = run_log_in(series_dir);
        char *emu_env = xasprintf("GPULAB_EMU_LOG=%s", emu_log);
        const char *env[] = { emu_env, NULL };
        int timed_out = run_series(program, (const char *const *)dirs, np, series_dir, timeout_s,
                                   b->kind == BACKEND_EMU ? env : NULL, b->kind == BACKEND_EMU, runs);
        if (b->kind == BACKEND_EMU)
            evidence_from_emu_log(emu_log, evidence);
        /* stop: where the series ended, the first dataset it did not finish;
         * what the process says it did after that is not believed */
        int stop = -1;
        for (int j = 0; j < np && stop < 0; j++) {
            int i = pending[j];
            if (!runs[j].proc.started) {
                stop = j;
            } else if (runs[j].proc.exit_code != 0) {
                alone[i] = 1;
            } else {
                judge_run(m, &runs[j], dirs[j], timeout_s, &s->datasets[i], student_file, maps_dir, workdir,
                          evidence);
                if (s->datasets[i].status == ST_PASS) {
                    done[i] = 1;
                } else {
                    forget_dataset(&s->datasets[i]);
                    alone[i] = 1;
                }
            }
        }
        /* what the series printed from the dataset it ended in on: where it was stuck */
        char *stuck = stop >= 0 && runs[stop].proc.err_text ? xstrdup(runs[stop].proc.err_text) : NULL;
        for (int j = 0; j < np; j++) {
            run_result_free(&runs[j]);
            free(dirs[j]);
            dirs[j] = NULL;
        }
        free(series_dir);
        free(emu_log);
        free(emu_env);
        if (stop < 0) {
            free(stuck);
            break;
        }
        int k = pending[stop];
        if (timed_out && stop == 0) {
            judge_timeout(&s->datasets[k], timeout_s, timed_out & RUN_NEVER_READY, stuck, student_file);
            done[k] = 1;
            timeouts++;
            start = k + 1;
        } else if (timed_out) {
            start = k;
        } else {
            alone[k] = 1; /* the process ended in it */
            start = k + 1;
        }
        free(stuck);
    }
    free(runs);
    free(dirs);
    free(pending);
    return timeouts;
}

/* A mask-index mistake that a dataset's inputs reproduce (mask flipped,
 * transposed) is named from numbers alone, without a line: the kit's own
 * view of the source adds the line where the __constant__ mask is read in
 * the sum, when it finds one (source_mask_read_line). */
static void point_mask_mistakes_at_their_line(const char *file, submission_result *s)
{
    static const char where[] = DIAGNOSE_MASK_WHERE;
    int line = -1, count = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        compare_result *c = &s->datasets[i].cmp;
        if (strcmp(c->mistake, "mask flipped") != 0 && strcmp(c->mistake, "mask transposed") != 0)
            continue;
        char *at = strstr(c->hint, where);
        if (!at)
            continue;
        if (line < 0)
            line = source_mask_read_line(file, &count);
        if (line == 0)
            return;
        char *q = sanitize_quote(file, line);
        char *added = xasprintf(" at %s%s", q, count > 1 ? ", the first line that reads the mask" : "");
        size_t cut = (size_t)(at - c->hint) + strlen(where), n = strlen(c->hint), k = strlen(added);
        if (n + k < sizeof c->hint) { /* room for it: inserted after DIAGNOSE_MASK_WHERE */
            memmove(c->hint + cut + k, c->hint + cut, n - cut + 1);
            memcpy(c->hint + cut, added, k);
        }
        free(added);
        free(q);
    }
}

/* The checkers look at this many datasets at most: they are slow. */
#define MAX_CHECKED 3

/* The kinds of input a dataset is, from its params in lab.json: gray
 * (channels 1) or colour, square (all its sizes equal: height and width, or
 * j, k and l) or ragged. A mistake can show on one kind only: a race
 * between channels needs colour, a missing bounds check a ragged size. */
enum { KIND_GRAY = 1, KIND_COLOUR = 2, KIND_SQUARE = 4, KIND_RAGGED = 8 };

static int input_kind(const dataset_spec *d, double *elements, long *side)
{
    static const char *const sizes[] = { "height", "width", "j", "k", "l", NULL };
    int kind = 0, square = 1;
    long first = -1;
    *elements = 1;
    *side = 0;
    for (int p = 0; p < d->nparams; p++) {
        char *end;
        long v = strtol(d->values[p], &end, 10);
        if (end == d->values[p] || *end || v < 0)
            continue;
        if (strcmp(d->keys[p], "channels") == 0) {
            kind |= v == 1 ? KIND_GRAY : KIND_COLOUR;
            *elements *= (double)v;
        }
        for (int k = 0; sizes[k]; k++)
            if (strcmp(d->keys[p], sizes[k]) == 0) {
                *elements *= (double)v;
                *side = v > *side ? v : *side;
                square = square && (first < 0 || v == first);
                first = first < 0 ? v : first;
            }
    }
    if (first >= 0)
        kind |= square ? KIND_SQUARE : KIND_RAGGED;
    return kind;
}

/* A failure the checkers can look at: the program ran to its end (or to its
 * fault). A timeout would cost ten times the limit under them. */
static int checkable_failure(status_t st)
{
    return st == ST_WRONG || st == ST_CRASH || st == ST_CUDA_ERROR || st == ST_NO_OUTPUT;
}

/* The datasets the checkers look at, at most MAX_CHECKED, into chosen:
 * first the smallest failure that ran to its end, whose findings may
 * explain it; then, one at a time, the dataset that adds the most kinds of
 * input not yet looked at (gray and colour, square and ragged), ties going
 * to a pass (a hazard there means right by luck), then to one larger than
 * a tile (races between phases show only there), then to the smallest;
 * at least two when there are two. Returns the count. */
static int choose_checked(const lab_manifest *m, const submission_result *s, const int *index,
                          int chosen[MAX_CHECKED])
{
    int n = s->ndatasets, nchosen = 0, covered = 0;
    long tile = m->errormap_tile > 0 ? m->errormap_tile : 16;
    int *kind = xcalloc((size_t)n + 1, sizeof(int));
    int *taken = xcalloc((size_t)n + 1, sizeof(int));
    int *large = xcalloc((size_t)n + 1, sizeof(int));
    double *elements = xcalloc((size_t)n + 1, sizeof(double));
    for (int i = 0; i < n; i++) {
        long side;
        kind[i] = input_kind(&m->datasets[index[i]], &elements[i], &side);
        const compare_result *c = &s->datasets[i].cmp;
        if (c->compared) {
            elements[i] = (double)c->elements;
            side = c->want_shape[0] > c->want_shape[1] ? c->want_shape[0] : c->want_shape[1];
        }
        large[i] = side > tile;
    }
    int first = -1;
    for (int i = 0; i < n; i++)
        if (checkable_failure(s->datasets[i].status) && (first < 0 || elements[i] < elements[first]))
            first = i;
    if (first >= 0) {
        chosen[nchosen++] = first;
        taken[first] = 1;
        covered |= kind[first];
    }
    while (nchosen < MAX_CHECKED) {
        int best = -1, best_new = 0;
        for (int i = 0; i < n; i++) {
            const dataset_result *d = &s->datasets[i];
            if (taken[i] || (d->status != ST_PASS && !checkable_failure(d->status)))
                continue;
            int fresh = __builtin_popcount((unsigned)(kind[i] & ~covered));
            int better = best < 0 || fresh > best_new;
            if (!better && fresh == best_new) {
                int pass = d->status == ST_PASS, best_pass = s->datasets[best].status == ST_PASS;
                better = pass != best_pass ? pass
                       : large[i] != large[best] ? large[i]
                       : elements[i] < elements[best];
            }
            if (better) {
                best = i;
                best_new = fresh;
            }
        }
        if (best < 0 || (best_new == 0 && nchosen >= 2))
            break;
        chosen[nchosen++] = best;
        taken[best] = 1;
        covered |= kind[best];
    }
    free(kind);
    free(taken);
    free(large);
    free(elements);
    return nchosen;
}

/* Whose checkers look at a submission graded on b: on the emulator its
 * own; on a GPU the emulator's too, unless --checkers compute-sanitizer
 * asks for NVIDIA's tools or the emulator is not built. The emulator's race
 * and bounds builds run on the machine's cores, not its GPU: their verdict
 * does not depend on what else the GPU runs; they see races in global
 * memory and between blocks, which racecheck does not, and a wrapped
 * shared-memory index, which a GPU's 32-bit shared addresses hide from
 * memcheck; and they cost a fraction of compute-sanitizer's start-up
 * (docs/performance.md). Their race check is the emulator's own detector,
 * which gives the same verdict with any compiler (emulator.md). Fills *emu
 * when it is chosen. */
static const backend *checkers_backend(const backend *b, const grade_options *opt, backend *emu)
{
    if (b->kind == BACKEND_EMU || opt->checkers == CHECKERS_COMPUTE_SANITIZER || !backend_emulator(emu))
        return b;
    return emu;
}

/* The sanitizer stage, on the datasets choose_checked() picks. A dataset
 * that ended in a fault with no output to compare gets a fault map instead
 * of an error map: which threads made invalid accesses. */
static void sanitize_stage(const lab_manifest *m, const backend *b, const char *workdir, const int *index,
                           double timeout_s, const grade_options *opt, sanitize_prebuild *pre,
                           submission_result *s)
{
    int chosen[MAX_CHECKED];
    int nchosen = choose_checked(m, s, index, chosen);
    if (nchosen == 0)
        return;
    char *fault_maps[MAX_CHECKED];
    int want_faults = 0;
    for (int k = 0; k < nchosen; k++) {
        const dataset_result *d = &s->datasets[chosen[k]];
        fault_maps[k] = d->cmp.compared ? NULL : map_path_for(m, opt->maps_dir, s->file, d->name);
        want_faults = want_faults || fault_maps[k];
    }
    backend emu;
    memset(&emu, 0, sizeof emu);
    const backend *checker = checkers_backend(b, opt, &emu);
    sanitize_builds builds;
    sanitize_build(m, checker, s->file, workdir, want_faults, pre, &builds);
    if (checker != b && !sanitize_builds_complete(&builds)) {
        /* a file nvcc builds and the emulator does not: compute-sanitizer,
         * and the record says why */
        s->checkers_fallback = xstrdup(sanitize_builds_problem(&builds));
        sanitize_builds_free(&builds, 0);
        checker = b;
        sanitize_build(m, checker, s->file, workdir, want_faults, NULL, &builds);
    }
    snprintf(s->checkers, sizeof s->checkers, "%s",
             checker->kind == BACKEND_EMU ? "emulator" : "compute-sanitizer");
    /* On a GPU machine every chosen dataset's checkers start at once (three
     * compute-sanitizer processes each, mostly instrumenting on the CPU, or
     * the emulator's one: a GPU machine's cores have room). An emulator-only
     * machine runs as many datasets at once as it may use cores: each is one
     * process of one worker thread. */
    sanitize_pending *pending[MAX_CHECKED] = { 0 };
    int cores = usable_cores();
    int at_once = b->kind == BACKEND_GPU ? nchosen : cores < nchosen ? cores : nchosen;
    for (int k = 0; k < nchosen; k++) {
        dataset_result *d = &s->datasets[chosen[k]];
        for (int j = k; j < nchosen && j < k + at_once; j++) {
            if (pending[j])
                continue;
            const dataset_result *dj = &s->datasets[chosen[j]];
            char *dir = resolve_dataset_dir(m, index[chosen[j]], opt->datasets_root);
            int want = checker->kind == BACKEND_EMU ? fault_maps[j] != NULL
                                                    : m->errormap_tile > 0 && dj->status == ST_PASS;
            pending[j] = sanitize_start(checker, &builds, dir, dj->name, timeout_s, want);
            free(dir);
        }
        d->sanitizer = xcalloc(1, sizeof *d->sanitizer);
        sanitize_collect(pending[k], s->file, d->sanitizer);
        pending[k] = NULL;
        char *fault_map = fault_maps[k];
        if (fault_map)
            sanitize_draw_fault_map(d->sanitizer, fault_map);
        free(fault_map);
        /* An image that came out right by luck has no error to draw: its
         * race map shows which threads raced instead, on the GPU itself. */
        if (b->kind == BACKEND_GPU && checker != b && m->errormap_tile > 0 && d->status == ST_PASS &&
            sanitize_has_race(d->sanitizer)) {
            char *dir = resolve_dataset_dir(m, index[chosen[k]], opt->datasets_root);
            sanitize_races_on_gpu(m, b, workdir, dir, d->name, timeout_s, d->sanitizer);
            free(dir);
        }
        if (d->status == ST_PASS && d->sanitizer->races.n > 0) {
            char *race_map = map_path_for(m, opt->maps_dir, s->file, d->name);
            if (race_map)
                sanitize_draw_race_map(d->sanitizer, race_map);
            free(race_map);
        }
        if (d->status == ST_PASS && d->sanitizer->nfindings > 0) {
            d->status = ST_UNSAFE;
            s->score -= d->points;
            d->points = 0;
            free(d->message);
            d->message = xasprintf("the output matched, but only by luck: %s",
                                   d->sanitizer->findings[0].message);
        }
    }
    sanitize_builds_free(&builds, opt->keep);
    free(emu.compiler);
}

/* A failure pattern that only shows across datasets. 16 is the tile width
 * the labs suggest; the datasets' sizes straddle it. */
static void across_datasets(const lab_manifest *m, const int *index, submission_result *s)
{
    if (s->hint)
        return;
    int *sizes = xcalloc((size_t)s->ndatasets + 1, sizeof(int));
    int *failed = xcalloc((size_t)s->ndatasets + 1, sizeof(int));
    int n = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        const compare_result *c = &s->datasets[i].cmp;
        if (!c->compared && s->datasets[i].status != ST_PASS) {
            n = 0; /* a failure the comparison never saw: the pattern is not known */
            break;
        }
        if (!c->compared)
            continue;
        sizes[n] = c->want_shape[0] > c->want_shape[1] ? c->want_shape[0] : c->want_shape[1];
        failed[n] = s->datasets[i].status != ST_PASS;
        n++;
    }
    s->hint = diagnose_across_datasets(sizes, failed, n, 16);
    free(sizes);
    free(failed);
    if (s->hint || s->ndatasets < 3)
        return;
    /* by kind of input: square or ragged, one element or more */
    int *square = xcalloc((size_t)s->ndatasets, sizeof(int));
    int *fails = xcalloc((size_t)s->ndatasets, sizeof(int));
    double *elements = xcalloc((size_t)s->ndatasets, sizeof(double));
    int ran = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        status_t st = s->datasets[i].status;
        if (st == ST_TIMEOUT || st == ST_COMPILE_ERROR || st == ST_GRADER_ERROR)
            continue; /* says nothing about the kind of input */
        long side;
        int kind = input_kind(&m->datasets[index[i]], &elements[ran], &side);
        square[ran] = (kind & KIND_SQUARE) != 0;
        fails[ran] = st != ST_PASS;
        ran++;
    }
    s->hint = diagnose_across_kinds(square, elements, fails, ran, m->perf.work == WORK_IMAGE);
    free(square);
    free(fails);
    free(elements);
}

/* A matrix lab's blocks smaller than its tiles (the block the kernel stored
 * with the kernel token, on both backends): said as the submission's hint when a dataset came out
 * with NaN, the mark of tile slots no thread stored (the kit poisons shared
 * memory with NaN); a kernel that loads a bigger tile on purpose, several
 * elements a thread, and fails for another reason is not blamed for it. */
static void block_against_tiles(const lab_manifest *m, const kernel_evidence *e, submission_result *s)
{
    if (m->perf.work != WORK_MATMUL)
        return;
    int unset = 0;
    for (int i = 0; i < s->ndatasets; i++)
        unset += s->datasets[i].status == ST_WRONG && s->datasets[i].cmp.nonfinite > 0;
    if (unset)
        s->hint = diagnose_block_smaller_than_tiles(e->shared_bytes, e->token_block[0], e->token_block[1],
                                                    e->shared_kernel);
    s->hint_leads = s->hint != NULL;
}

void grade_build(const lab_manifest *m, const backend *b, const char *file, const grade_options *opt,
                 const char *workdir, build_result *r, sanitize_prebuild *pre)
{
    sanitize_prebuild_init(pre);
    backend emu;
    memset(&emu, 0, sizeof emu);
    const backend *checker = opt->no_sanitize ? NULL : checkers_backend(b, opt, &emu);
    if (checker && checker->kind == BACKEND_EMU)
        sanitize_prebuild_start(m, checker, file, pre);
    free(emu.compiler);
    double started = monotonic_s();
    build_submission(m, b, file, workdir, r);
    sanitize_prebuild_allow(pre, monotonic_s() - started);
}

void grade_built(const lab_manifest *m, const backend *b, const char *file,
                 const grade_options *opt, const char *workdir, const build_result *built,
                 sanitize_prebuild *pre, submission_result *s)
{
    memset(s, 0, sizeof *s);
    s->file = xstrdup(file);
    s->lab = xstrdup(m->id);
    snprintf(s->backend, sizeof s->backend, "%s", b->name);
    snprintf(s->device, sizeof s->device, "%s", b->device);
    snprintf(s->driver, sizeof s->driver, "%s", b->driver);
    snprintf(s->arch, sizeof s->arch, "%s", b->arch);
    s->checkers_skipped = opt->no_sanitize;

    for (int i = 0; i < m->ndatasets; i++)
        if (opt->dataset == i || (opt->dataset < 0 && !m->datasets[i].on_demand))
            s->ndatasets++;
    s->datasets = xcalloc((size_t)s->ndatasets, sizeof *s->datasets);
    int k = 0;
    int *index = xcalloc((size_t)s->ndatasets, sizeof(int));
    for (int i = 0; i < m->ndatasets; i++)
        if (opt->dataset == i || (opt->dataset < 0 && !m->datasets[i].on_demand)) {
            index[k] = i;
            s->datasets[k].name = m->datasets[i].name;
            s->datasets[k].max_points = m->datasets[i].points;
            s->datasets[k].call_ms = -1;
            s->max_score += m->datasets[i].points;
            k++;
        }

    const build_result br = *built;
    s->built = br.ok;
    s->build_log = xstrdup(br.log);
    kernel_evidence evidence;
    memset(&evidence, 0, sizeof evidence);
    if (br.ok)
        build_evidence(b, workdir, &evidence);
    if (!br.ok) {
        s->build_message = xstrdup(br.message);
        for (int i = 0; i < s->ndatasets; i++) {
            s->datasets[i].status = br.grader_fault ? ST_GRADER_ERROR : ST_COMPILE_ERROR;
            s->datasets[i].message = xstrdup(br.message);
        }
        remove_stale_maps(m, opt->maps_dir, s);
    } else {
        double timeout = opt->timeout_s > 0 ? opt->timeout_s : m->timeout_s;
        int *done = xcalloc((size_t)s->ndatasets + 1, sizeof(int));
        int *alone = xcalloc((size_t)s->ndatasets + 1, sizeof(int));
        int timeouts = 0;
        if (s->ndatasets > 1)
            timeouts = series_stage(m, b, br.program, workdir, index, timeout, &evidence, opt->datasets_root,
                                    file, opt->maps_dir, s, done, alone);
        for (int i = 0; i < s->ndatasets; i++) {
            if (!done[i] && timeouts >= MAX_TIMEOUTS) {
                /* An endless loop costs a submission twice the limit, not
                 * once per dataset: a class's batch is not held up by it. */
                dataset_result *d = &s->datasets[i];
                d->status = ST_TIMEOUT;
                d->message = xasprintf("not run: the program had already run out of time %d times (%g s each); "
                                       "fix the loop that never ends first", timeouts, timeout);
                d->call_ms = -1;
            } else if (!done[i]) {
                grade_dataset(m, b, br.program, workdir, index[i], timeout, &s->datasets[i], &evidence,
                              opt->datasets_root, file, opt->maps_dir);
                timeouts += s->datasets[i].status == ST_TIMEOUT;
            }
            s->score += s->datasets[i].points;
        }
        free(alone);
        free(done);
        remove_stale_maps(m, opt->maps_dir, s);
        point_mask_mistakes_at_their_line(file, s);
        if (!opt->no_sanitize)
            sanitize_stage(m, b, workdir, index, timeout, opt, pre, s);
        counts_summarise(m, index, s);
        block_against_tiles(m, &evidence, s); /* the more specific of the two, first */
        across_datasets(m, index, s);
        /* Performance points (opt-in per lab), for a whole-lab grading. */
        if (opt->dataset < 0)
            bench_grade(m, b, file, workdir, s);
    }
    requirements_judge(m, &evidence, s);
    if (pre)
        sanitize_prebuild_free(pre, opt->keep);
    free(index);
}

void grade_submission(const lab_manifest *m, const backend *b, const char *file,
                      const grade_options *opt, submission_result *s)
{
    char *workdir = make_temp_dir("gpulab");
    build_result br;
    sanitize_prebuild pre;
    grade_build(m, b, file, opt, workdir, &br, &pre);
    grade_built(m, b, file, opt, workdir, &br, &pre, s);
    build_result_free(&br);
    if (opt->keep)
        fprintf(stderr, "gpulab: kept the work directory %s\n", workdir);
    else
        remove_work_dir(workdir);
    free(workdir);
}
