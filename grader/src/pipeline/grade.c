/*
 * grade.c - see grade.h. The stages live in build.c, run.c and compare.c;
 * this file only strings them together and awards points.
 */
#define _GNU_SOURCE
#include "grade.h"
#include "bench.h"
#include "build.h"
#include "build_cause.h"
#include "compare.h"
#include "datasets.h"
#include "diagnose.h"
#include "guards.h"
#include "launches.h"
#include "repair.h"
#include "requirements.h"
#include "run.h"
#include "counts.h"
#include "sanitize.h"
#include "tiles.h"
#include "sandbox.h"
#include "source.h"
#include "stages.h"
#include "util.h"

#include <ctype.h>
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
    free(s->cause);
    free(s->source_cause);
    free(s->repair.sentence);
    free(s->tile_contents);
    free(s->file);
    free(s->lab);
    free(s->build_log);
    free(s->build_message);
    free(s->checkers_fallback);
    free(s->notes);
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

/* What every dataset of one submission's grading shares, passed down the
 * run and compare stages as one: the lab, the backend, the program built,
 * the time limit and where things are. */
typedef struct {
    const lab_manifest *m;
    const backend *b;
    const char *program;        /* the graded build's program */
    const char *workdir;        /* the submission's work directory */
    const char *student_file;   /* the file as the student named it */
    const char *datasets_root;  /* grade_options' (NULL: the kit's) */
    const char *maps_dir;       /* grade_options' (NULL: the default) */
    double timeout_s;           /* the lab's time limit: a dataset's, or the largest's (limit_for) */
    double largest_bytes;       /* > 0: limits scaled by input (limit_for): the largest dataset's input */
    kernel_evidence *evidence;  /* what the runs showed of the kernels */
    stage_times *stages;        /* where the time goes: the submission's (stages.h) */
} grading;

/* The input bytes of the lab's dataset lab_index (its folder's input
 * files), from root (NULL: the kit's datasets). */
static double lab_input_bytes(const lab_manifest *m, int lab_index, const char *root)
{
    char *dir = resolve_dataset_dir(m, lab_index, root);
    double bytes = dataset_input_bytes(dir);
    free(dir);
    return bytes;
}

/* A dataset's time limit, at least DATASET_LIMIT_FLOOR_S: on the emulator,
 * the lab's limit is its largest dataset's, and a smaller one has the
 * share of it that its input is of the largest's. The emulator's limit
 * counts the run's work (run.c, work_limit), and a right kernel's work
 * grows with its data (a matrix product's faster than its input), so one
 * fast enough for the largest dataset is for the others; but a loop that
 * never ends on a 1 x 1 image costs seconds, not twice the lab's limit in
 * work (a minute of processor time for lab 04). A limit given with
 * --timeout, and a GPU's (on the clock, where its start-up and the GPU's
 * other work count), are every dataset's. */
#define DATASET_LIMIT_FLOOR_S 2.0
static double dataset_limit(const grading *g, int lab_index)
{
    if (g->largest_bytes <= 0)
        return g->timeout_s;
    double limit = g->timeout_s * lab_input_bytes(g->m, lab_index, g->datasets_root) / g->largest_bytes;
    if (limit > g->timeout_s)
        limit = g->timeout_s;
    return limit > DATASET_LIMIT_FLOOR_S ? limit : DATASET_LIMIT_FLOOR_S;
}

/* The limit of a run of the n datasets lab_index[0..n): one dataset's
 * limit for all of them (series_stage), the largest of theirs. */
static double limit_for(const grading *g, const int *lab_index, int n)
{
    double limit = 0;
    for (int i = 0; i < n; i++) {
        double l = dataset_limit(g, lab_index[i]);
        limit = l > limit ? l : limit;
    }
    return limit;
}

/* A run's request: the limit of the datasets it runs (limit_for), and on
 * the emulator its launch log (in the run's own limited folder, env) and
 * where it is stuck at the end. */
static run_request request_for(const grading *g, const int *lab_index, int n, const char *const *env)
{
    int emu = g->b->kind == BACKEND_EMU;
    run_request q = { limit_for(g, lab_index, n), emu ? env : NULL, emu, g->student_file };
    return q;
}

static void judge_run(const grading *g, const run_result *r, const char *dir, dataset_result *d);

static void grade_dataset(const grading *g, int index, dataset_result *d)
{
    char *dir = resolve_dataset_dir(g->m, index, g->datasets_root);
    char *run_dir = run_dir_for(g->workdir, d->name);
    /* The emulator logs what each launch did, in the run's own limited folder. */
    char *emu_log = run_log_for(g->workdir, d->name);
    char *emu_env = xasprintf("GPULAB_EMU_LOG=%s", emu_log);
    const char *env[] = { emu_env, NULL };
    run_request q = request_for(g, &index, 1, env);
    run_result run;
    double started = stage_clock();
    run_program(g->program, dir, run_dir, &q, &run);
    stage_add(g->stages, started, "run %s", d->name);
    if (g->b->kind == BACKEND_EMU)
        evidence_from_emu_log(emu_log, g->evidence);
    judge_run(g, &run, dir, d);
    if (g->b->kind == BACKEND_EMU) /* the launch and the copies, for launch_and_copies() */
        launches_read_emu_log(emu_log, g->student_file, &d->launch, &d->copy);
    free(emu_log);
    free(emu_env);
    run_result_free(&run);
    free(run_dir);
    free(dir);
}

/* The statuses, the comparison and the points of one dataset's run. */
static void judge_run(const grading *g, const run_result *r, const char *dir, dataset_result *d)
{
    const lab_manifest *m = g->m;
    const char *student_file = g->student_file, *workdir = g->workdir;
    const run_result run = *r;
    d->wall_s = run.proc.wall_s;
    d->call_ms = run.call_ms;
    d->program_stdout = xstrdup(run.proc.out_text);
    /* the emulator's lines name the build folder's copies of the student's
     * file: they name the student's own */
    d->program_stderr = build_student_named(run.proc.err_text, workdir, student_file);
    d->status = run.status;
    d->message = run.message ? build_student_named(run.message, workdir, student_file) : NULL;
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
        double started = stage_clock();
        char *expected = xasprintf("%s/%s", dir, m->expected);
        char *map_path = map_path_for(m, g->maps_dir, student_file, d->name);
        errormap_request req = { map_path, m->errormap_tile, m->errormap_halo };
        d->status = compare_output(run.output_path, expected, &m->tolerance, req.path ? &req : NULL,
                                   m->ntiles > 0, &d->cmp, &d->message);
        if (run_st != ST_PASS) {
            free(d->message);
            d->message = run_message;
            d->status = run_st;
        }
        free(map_path);
        free(expected);
        /* the comparison's own diagnosis and map, each a stage of its own */
        stage_add_seconds(g->stages, stage_clock() - started - d->cmp.diagnose_s - d->cmp.map_s, "compare");
        stage_add_seconds(g->stages, d->cmp.diagnose_s, "diagnosis");
        stage_add_seconds(g->stages, d->cmp.map_s, "maps");
    }
    /* A right output counts only if a kernel of the submission ran: the
     * value its kernels stored (build_kernel_token), which no line the
     * program prints can give without one. */
    unsigned block[3];
    int kernel_ran = build_kernel_ran(workdir, run.kernel_tokens, block);
    evidence_from_kernel_token(block, g->evidence);
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

/* A dataset a series ran out of time on with the whole limit to itself
 * (or, never_ready, before it: in its start-up): the run's verdict. */
static void judge_timeout(const grading *g, const run_result *r, double limit_s, dataset_result *d)
{
    d->status = r->status;
    d->message = build_student_named(r->message, g->workdir, g->student_file);
    d->wall_s = limit_s;
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
static int series_stage(const grading *g, const int *index, submission_result *s, int *done, int *alone)
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
            dirs[j] = resolve_dataset_dir(g->m, index[pending[j]], g->datasets_root);
        /* A folder and a launch log of its own per series: nothing of an
         * earlier series is read twice. */
        char *series_dir = xasprintf("%s/series-%d", g->workdir, series);
        char *emu_log = run_log_in(series_dir);
        char *emu_env = xasprintf("GPULAB_EMU_LOG=%s", emu_log);
        const char *env[] = { emu_env, NULL };
        int *lab_index = xcalloc((size_t)np, sizeof(int));
        for (int j = 0; j < np; j++)
            lab_index[j] = index[pending[j]];
        run_request q = request_for(g, lab_index, np, env);
        free(lab_index);
        double started = stage_clock();
        int timed_out = run_series(g->program, (const char *const *)dirs, np, series_dir, &q, runs);
        stage_add(g->stages, started, "run series-%d", series);
        if (g->b->kind == BACKEND_EMU)
            evidence_from_emu_log(emu_log, g->evidence);
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
                judge_run(g, &runs[j], dirs[j], &s->datasets[i]);
                if (s->datasets[i].status == ST_PASS) {
                    done[i] = 1;
                } else {
                    forget_dataset(&s->datasets[i]);
                    alone[i] = 1;
                }
            }
        }
        int k = stop >= 0 ? pending[stop] : -1;
        if (timed_out && stop == 0) {
            judge_timeout(g, &runs[stop], q.timeout_s, &s->datasets[k]);
            done[k] = 1;
            timeouts++;
        }
        for (int j = 0; j < np; j++) {
            run_result_free(&runs[j]);
            free(dirs[j]);
            dirs[j] = NULL;
        }
        free(series_dir);
        free(emu_log);
        free(emu_env);
        if (stop < 0)
            break;
        if (timed_out && stop == 0) {
            start = k + 1;
        } else if (timed_out) {
            start = k;
        } else {
            alone[k] = 1; /* the process ended in it */
            start = k + 1;
        }
    }
    free(runs);
    free(dirs);
    free(pending);
    return timeouts;
}

/* The dataset with the least input (its folder's input files), of the n
 * the submission is graded on: the probe run alone first (grade_built). */
static int smallest_dataset(const grading *g, const int *index, int n)
{
    int best = 0;
    double best_bytes = -1;
    for (int i = 0; i < n; i++) {
        double bytes = lab_input_bytes(g->m, index[i], g->datasets_root);
        if (best_bytes < 0 || bytes < best_bytes) {
            best = i;
            best_bytes = bytes;
        }
    }
    return best;
}

/* " at line N (`...`)" inserted into a hint after the words `where`, when
 * there is room. */
static void insert_line(compare_result *c, const char *where, const char *file, int line, const char *more);

/* A diagnosis that every pass of a loop used the first pass's tile (every
 * channel from channel 0, every phase the same tile of M) where the load
 * is under a test that picks one pass (`if (k == 0)`): the hint's advice,
 * from its last ": look at" on, becomes that test. */
static void one_pass_load(compare_result *c, const char *file)
{
    char test[160];
    int loop = 0, line = source_load_in_one_pass(file, test, sizeof test, &loop);
    char *look = line > 0 ? strstr(c->hint, ": look at ") : NULL;
    for (char *p = look; p && (p = strstr(p + 1, ": look at ")) != NULL;)
        look = p;
    if (!look)
        return;
    char *ql = sanitize_quote(file, loop);
    char *text = xasprintf("%.*s: the tile is loaded only where the test at line %d (`%s`) holds, in one pass of the "
                           "loop at %s, and every other pass reuses that pass's tile: load it on every pass (take "
                           "the test out)",
                           (int)(look - c->hint), c->hint, line, test, ql);
    snprintf(c->hint, sizeof c->hint, "%s", text);
    free(text);
    free(ql);
}

/* The sum off by one amount everywhere, where the kernel stores a number
 * other than 0 into a tile (`ds_M[ty][tx] = 1.0f;`, the padding past the
 * matrix): the sum multiplies those slots and adds them in, so the offset
 * is theirs, not the accumulator's start. The hint's advice, from "the sum
 * starts from", becomes that store. */
static void padding_constant(compare_result *c, const char *file)
{
    char value[32];
    int line = source_tile_store_of_constant(file, value, sizeof value);
    char *from = line > 0 ? strstr(c->hint, ": the sum starts from ") : NULL;
    if (!from)
        return;
    char *q = sanitize_quote(file, line);
    char *text = xasprintf("%.*s: %s stores %s into a tile's slot, and the sum multiplies such slots and adds them "
                           "in like the matrix's own elements: a slot past the matrix must hold 0, which adds "
                           "nothing, so the offset is those slots' products; store 0 there",
                           (int)(from - c->hint), c->hint, q, value);
    snprintf(c->hint, sizeof c->hint, "%s", text);
    free(text);
    free(q);
}

/* A loop the diagnosis says covers too little whose body breaks out of it:
 * the break, not its start or bound, is what ends it early. Where `where`
 * stands in the hint, it becomes the break's line with the loop's; else
 * the loop's line is inserted as usual. */
static void loop_or_its_break(compare_result *c, const char *where, const char *file, int loop, const char *more)
{
    char stmt[160];
    int brk = loop > 0 ? source_loop_break(file, loop, stmt, sizeof stmt) : 0;
    char *at = brk > 0 ? strstr(c->hint, where) : NULL;
    if (!at) {
        insert_line(c, where, file, loop, more);
        return;
    }
    char *qb = sanitize_quote(file, brk), *ql = sanitize_quote(file, loop);
    char *text = xasprintf("%.*slook at the break at %s: it ends the loop at %s early, where its test holds, and the "
                           "terms after it are never added%s",
                           (int)(at - c->hint), c->hint, qb, ql, at + strlen(where));
    snprintf(c->hint, sizeof c->hint, "%s", text);
    free(text);
    free(qb);
    free(ql);
}

static void insert_line(compare_result *c, const char *where, const char *file, int line, const char *more)
{
    char *at = strstr(c->hint, where);
    if (!at || line <= 0)
        return;
    char *q = sanitize_quote(file, line);
    char *added = xasprintf(" at %s%s", q, more);
    size_t cut = (size_t)(at - c->hint) + strlen(where), n = strlen(c->hint), k = strlen(added);
    if (n + k < sizeof c->hint) {
        memmove(c->hint + cut + k, c->hint + cut, n - cut + 1);
        memcpy(c->hint + cut, added, k);
    }
    free(added);
    free(q);
}

/* Only the last phase's terms, and no reset of the sum inside a loop: the
 * sum lies after the loop over phases (its closing brace too early), so
 * the loop loads every phase's tiles, each over the last, and the sum adds
 * the last phase's once. The numbers' words are kept; what they point at
 * is the brace, not a reset that the source does not have. */
static void sum_after_loop(compare_result *c, const char *file, int sum_line, int loop_line, int close_line)
{
    char *at = strstr(c->hint, DIAGNOSE_SUM_RESET_SENTENCE);
    if (!at)
        return;
    char *sum = sanitize_quote(file, sum_line);
    char *text = xasprintf("%.*sthe sum at %s runs after the loop over phases (line %d), whose closing brace is at "
                           "line %d: the loop loads every phase's tiles, each over the last, and the sum adds the "
                           "last phase's alone; the brace at line %d belongs after the sum (and after "
                           "the barrier that ends the phase, where there is one)",
                           (int)(at - c->hint), c->hint, sum, loop_line, close_line, close_line);
    snprintf(c->hint, sizeof c->hint, "%s", text);
    free(text);
    free(sum);
}

/* A mistake that a dataset's inputs reproduce is named from numbers alone,
 * without a line: the kit's own view of the source adds it where it shows
 * one. For a mask-index mistake (mask flipped, transposed), the line where
 * the __constant__ mask is read in the sum (source_mask_read_line); for
 * the sum restarted in every phase, the line that sets it to 0 again (for
 * one carried from output to output, the line that first sets it), and
 * for a phase's dot product a term short, its loop (source_accumulator);
 * for a sum kept in an integer, the accumulator's declaration (where the
 * source shows no integer one and every such sum is 0, the numbers alone
 * cannot tell it from a sum never accumulated: the pattern's sentence
 * stays); for one input copied twice, the copy into the other input's
 * buffer (the one the launch passes in its place); for a sum assigned
 * where it should be added to, the assignment in the loop; for an input
 * window read at the wrong offsets, the sum's line; for an output stored
 * transposed or shifted, the kernel's store into its output; for the same
 * tile of an input in every phase, the kernel's first read of that input. */
static void point_mistakes_at_lines(const char *file, int tiled, submission_result *s)
{
    int line = -1, count = 0, reset = -1, loop = -1, decl = -1, copy = -1;
    for (int i = 0; i < s->ndatasets; i++) {
        compare_result *c = &s->datasets[i].cmp;
        int isum = strcmp(c->mistake, DIAGNOSE_INT_SUM) == 0 || strcmp(c->mistake, DIAGNOSE_INT_SUM_ZERO) == 0;
        if (isum && decl < 0)
            decl = source_accumulator_integer(file);
        if (isum && decl > 0)
            insert_line(c, DIAGNOSE_INT_SUM_WHERE, file, decl, "");
        else if (isum && strcmp(c->mistake, DIAGNOSE_INT_SUM_ZERO) == 0) {
            snprintf(c->hint, sizeof c->hint, "%s", diagnose_all_zero(tiled));
            c->hint_named = 0;
            c->mistake[0] = '\0';
        }
        if (strcmp(c->mistake, DIAGNOSE_INDEX_SWAP) == 0 && !tiled)
            insert_line(c, DIAGNOSE_INDEX_SWAP_WHERE, file, source_sum_line(file), "");
        if (strcmp(c->mistake, DIAGNOSE_M_TWICE) == 0 || strcmp(c->mistake, DIAGNOSE_N_TWICE) == 0) {
            /* M twice: N's buffer (the launch's second argument) got M */
            if (copy < 0)
                copy = source_copy_into_argument(file, strcmp(c->mistake, DIAGNOSE_M_TWICE) == 0 ? 1 : 0);
            insert_line(c, DIAGNOSE_COPY_WHERE, file, copy, "");
        }
        int mask = strcmp(c->mistake, "mask flipped") == 0 || strcmp(c->mistake, "mask transposed") == 0;
        int missing = strcmp(c->mistake, DIAGNOSE_FIRST_TERM_MISSING) == 0 ||
                      strcmp(c->mistake, DIAGNOSE_LAST_TERM_MISSING) == 0;
        int reset_each = strcmp(c->mistake, DIAGNOSE_SUM_RESET) == 0 ||
                         strcmp(c->mistake, DIAGNOSE_SUM_RESET_ROW) == 0 ||
                         strcmp(c->mistake, DIAGNOSE_SUM_RESET_COLUMN) == 0;
        int sum = missing || reset_each || strcmp(c->mistake, DIAGNOSE_TERM_SKIPPED) == 0;
        if (mask && line < 0)
            line = source_mask_read_line(file, &count);
        if (mask)
            insert_line(c, DIAGNOSE_MASK_WHERE, file, line,
                        count > 1 ? ", the first line that reads the mask" : "");
        if (strcmp(c->mistake, DIAGNOSE_SUM_ASSIGNED) == 0) {
            char name[64];
            int at = source_assigned_sum(file, name, sizeof name);
            /* `=+` typed for `+=`: an assignment of the term with a plus sign */
            int eq_plus = at > 0 && source_line_has_text(file, at, "=+");
            char *more = at > 0 ? xasprintf(", which sets %s to one term inside the loop where it should add "
                                            "the term to it%s", name,
                                            eq_plus ? " (`=+` is `= +`, an assignment of the term with a plus "
                                                      "sign: write `+=`)"
                                                    : "")
                                : NULL;
            insert_line(c, DIAGNOSE_SUM_ASSIGNED_WHERE, file, at, more ? more : "");
            free(more);
            /* ... which says the `+=` itself */
            char *plain = eq_plus ? strstr(c->hint, " (`+=`, not `=`)") : NULL;
            if (plain)
                memmove(plain, plain + strlen(" (`+=`, not `=`)"), strlen(plain + strlen(" (`+=`, not `=`)")) + 1);
        }
        /* a part of the mask (or its first rows, which a short copy leaves as well): the loop over it */
        if (strcmp(c->mistake, DIAGNOSE_MASK_PART_COLUMNS) == 0 || strcmp(c->mistake, DIAGNOSE_MASK_PART_ROWS) == 0 ||
            strcmp(c->mistake, DIAGNOSE_MASK_PART_COPIED) == 0)
            loop_or_its_break(c, DIAGNOSE_MASK_PART_WHERE, file,
                              source_mask_loop(file, strcmp(c->mistake, DIAGNOSE_MASK_PART_COLUMNS) == 0), "");
        /* every channel (or phase) from the first one's tile: a load under a
         * test that picks one pass of its loop */
        if (!strcmp(c->mistake, "every channel from channel 0") || !strcmp(c->mistake, DIAGNOSE_SAME_TILE_M) ||
            !strcmp(c->mistake, DIAGNOSE_SAME_TILE_N))
            one_pass_load(c, file);
        if (strcmp(c->mistake, DIAGNOSE_WINDOW) == 0)
            insert_line(c, DIAGNOSE_WINDOW_WHERE, file, source_sum_line(file), "");
        if (strcmp(c->mistake, DIAGNOSE_OUTPUT_TRANSPOSED) == 0) {
            /* a tile read with the thread's x in its row subscript: the
             * read, not the store, takes each value from the mirror */
            char tile[64], fixed[256];
            int read = source_tile_read_axes_exchanged(file, tile, sizeof tile, fixed, sizeof fixed);
            char *where = strstr(c->hint, DIAGNOSE_OUTPUT_TRANSPOSED_WHERE);
            if (read > 0 && where) {
                char *q = sanitize_quote(file, read);
                char *words = xasprintf("%.*sthe read of the tile %s at %s has the thread's x in its row "
                                        "subscript and its y in its column one, where a tile's rows go with y: "
                                        "write `%s` (the output's store is right)",
                                        (int)(where - c->hint), c->hint, tile, q, fixed);
                snprintf(c->hint, sizeof c->hint, "%s", words);
                free(words);
                free(q);
            } else
                insert_line(c, DIAGNOSE_OUTPUT_TRANSPOSED_WHERE, file, source_output_store_line(file), "");
        }
        if (strcmp(c->mistake, DIAGNOSE_OUTPUT_SHIFTED) == 0)
            insert_line(c, DIAGNOSE_OUTPUT_SHIFTED_WHERE, file, source_output_store_line(file), "");
        if (strcmp(c->mistake, DIAGNOSE_SUM_OFFSET) == 0)
            padding_constant(c, file);
        if (strcmp(c->mistake, DIAGNOSE_BLOCKS_TRANSPOSED) == 0)
            insert_line(c, DIAGNOSE_BLOCKS_TRANSPOSED_WHERE, file, source_output_store_line(file), "");
        if (strstr(c->hint, DIAGNOSE_SIGN_WHERE))
            insert_line(c, DIAGNOSE_SIGN_WHERE, file, source_subtracting_line(file), "");
        if (strcmp(c->mistake, DIAGNOSE_OUTPUT_CLAMPED) == 0) {
            int cut = source_value_cut_line(file);
            insert_line(c, DIAGNOSE_OUTPUT_CLAMPED_WHERE, file, cut > 0 ? cut : source_output_store_line(file),
                        cut > 0 ? ", which cuts it: store the sum itself" : "");
        }
        if (strcmp(c->mistake, DIAGNOSE_OUTPUT_ROUNDED) == 0) {
            int round = source_value_rounding_line(file);
            insert_line(c, DIAGNOSE_OUTPUT_ROUNDED_WHERE, file, round > 0 ? round : source_output_store_line(file),
                        round > 0 ? ", which rounds it: store the sum itself" : "");
        }
        if (strcmp(c->mistake, DIAGNOSE_SAME_TILE_M) == 0 || strcmp(c->mistake, DIAGNOSE_SAME_TILE_N) == 0)
            insert_line(c, strcmp(c->mistake, DIAGNOSE_SAME_TILE_M) == 0 ? DIAGNOSE_SAME_TILE_WHERE " M"
                                                                         : DIAGNOSE_SAME_TILE_WHERE " N",
                        file, source_input_read_line(file, strcmp(c->mistake, DIAGNOSE_SAME_TILE_M) == 0 ? 0 : 1),
                        "");
        if (strcmp(c->mistake, DIAGNOSE_SUM_CARRIED) == 0)
            insert_line(c, DIAGNOSE_SUM_RESET_WHERE, file, source_accumulator_start(file), "");
        if (sum && reset < 0)
            source_accumulator(file, &reset, &loop);
        int after_loop = 0, loop_at = 0, close_at = 0;
        if (sum && reset_each && reset <= 0 && strcmp(c->mistake, DIAGNOSE_SUM_RESET) == 0)
            after_loop = source_sum_after_barrier_loop(file, &loop_at, &close_at);
        if (missing)
            loop_or_its_break(c, DIAGNOSE_TERM_MISSING_WHERE, file, loop, "");
        else if (after_loop > 0)
            sum_after_loop(c, file, after_loop, loop_at, close_at);
        else if (sum && reset_each)
            insert_line(c, DIAGNOSE_SUM_RESET_WHERE, file, reset, "");
        else if (sum)
            insert_line(c, DIAGNOSE_TERM_SKIPPED_WHERE, file, loop, "");
    }
}

static const launch_shape *launch_of(const dataset_result *d);

/* Wrong elements that are exactly the gaps between runs of rows or
 * columns (diagnose_gaps): against what one block of the run's launch
 * writes (launches_block_tile), the blocks step one tile apart and some of
 * each block's threads store nothing (the test before the store), or each
 * block writes its tile and the blocks step further apart (the index line
 * whose block step is the gaps' step). The hint's advice becomes that
 * line; where neither shows, it stays as it is. */
static void gaps_at_their_line(const lab_manifest *m, const char *file, const char *header, dataset_result *d)
{
    compare_result *c = &d->cmp;
    const launch_shape *l = launch_of(d);
    char *where = strstr(c->hint, DIAGNOSE_GAPS_WHERE);
    int a = c->gap_step[1] ? 1 : 0, tile[2] = { 0, 0 };
    if (!where || !l)
        return;
    launches_block_tile(l, m->perf.work == WORK_IMAGE, m->errormap_halo, tile);
    int per_block = tile[a ? 0 : 1]; /* tile[0] is x: columns */
    const char *unit = a ? "columns" : "rows";
    char *text = NULL;
    if (per_block == c->gap_step[a]) {
        int store = source_output_store_line(file), in_else = 0;
        char test[256];
        int at = store > 0 ? source_test_around(file, store, test, sizeof test, &in_else) : 0;
        char *q = sanitize_quote(file, at > 0 ? at : store);
        if (store > 0)
            text = xasprintf("each block covers %d %s of the output, one tile, and the blocks step one tile apart, "
                             "but only its first %d %s are stored: look at %s %s, which keeps the block's last %d %s "
                             "of threads from it",
                             per_block, unit, c->gap_run[a], unit, at > 0 ? "the test before the store at" : "the store at",
                             q, c->gap_step[a] - c->gap_run[a], unit);
        free(q);
    } else if (per_block == c->gap_run[a]) {
        int at = source_block_step_line(file, header, a ? 'x' : 'y', c->gap_step[a]);
        char *q = at > 0 ? sanitize_quote(file, at) : NULL;
        if (q)
            text = xasprintf(DIAGNOSE_GAPS_WHERE " at %s, which starts the blocks' tiles %d %s apart where each "
                             "block writes %d: step by what one block writes",
                             q, c->gap_step[a], unit, c->gap_run[a]);
        free(q);
    }
    if (!text)
        return;
    char *joined = xasprintf("%.*s%s", (int)(where - c->hint), c->hint, text);
    snprintf(c->hint, sizeof c->hint, "%s", joined);
    /* the step's line is the cause; a test before the store is where to
     * look, as other evidence may say better (a load that reads the
     * output, whose rows then go unwritten) */
    c->hint_named = per_block != c->gap_step[a];
    free(joined);
    free(text);
}

static void point_input_mistakes_at_their_line(const lab_manifest *m, const char *file, int tiled,
                                               submission_result *s)
{
    char *header = xasprintf("%s/lab.h", m->dir);
    for (int i = 0; i < s->ndatasets; i++)
        if (!strcmp(s->datasets[i].cmp.mistake, DIAGNOSE_GAPS))
            gaps_at_their_line(m, file, header, &s->datasets[i]);
    free(header);
    point_mistakes_at_lines(file, tiled, s);
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

/* Whether any dataset's params say what kind of input it is. */
static int any_kind(const int *kind, int n)
{
    for (int i = 0; i < n; i++)
        if (kind[i])
            return 1;
    return 0;
}

/* The limit of the checkers' run of a dataset that ran out of time on a
 * GPU: a barrier some threads never reach stops the emulator's run in its
 * first block; a loop that never ends costs no more than this. */
#define CHECKED_HANG_S 5.0

/* The most input a dataset chosen for its size alone may have: the
 * checkers' runs are slow. */
#define CHECKED_INPUT_BYTES_MAX (4 << 20)

/* For a lab whose datasets name no sizes (one imported from the Teaching
 * Kit): the dataset with the most input not yet taken that the checkers
 * can look at, up to CHECKED_INPUT_BYTES_MAX, into *chosen. A partial last
 * block shows in the larger inputs (a reduction's extra blocks writing past
 * its output), which the smallest, chosen first, may not have; the output
 * says nothing of the size there (a reduction's is one number). Returns 1,
 * or 0 for none. */
static int choose_largest(const lab_manifest *m, const submission_result *s, const int *index,
                          const char *datasets_root, const int *taken, int *chosen)
{
    int best = -1;
    double best_bytes = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        if (taken[i] || (d->status != ST_PASS && !checkable_failure(d->status)))
            continue;
        double bytes = lab_input_bytes(m, index[i], datasets_root);
        if (bytes <= CHECKED_INPUT_BYTES_MAX && (best < 0 || bytes > best_bytes)) {
            best = i;
            best_bytes = bytes;
        }
    }
    if (best < 0)
        return 0;
    *chosen = best;
    return 1;
}

/* The datasets the checkers look at, at most MAX_CHECKED, into chosen:
 * first the smallest failure that ran to its end, whose findings may
 * explain it; then, one at a time, the dataset that adds the most kinds of
 * input not yet looked at (gray and colour, square and ragged), ties going
 * to a pass (a hazard there means right by luck), then to one larger than
 * a tile (races between phases show only there), then to the smallest;
 * at least two when there are two; where no dataset's params say its kind,
 * the largest too (choose_largest); where none of those faulted and a
 * dataset did, the smallest that did. Returns the count. */
static int choose_checked(const lab_manifest *m, const submission_result *s, const int *index,
                          const char *datasets_root, int hangs, int chosen[MAX_CHECKED])
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
    if (nchosen < MAX_CHECKED && !any_kind(kind, n))
        nchosen += choose_largest(m, s, index, datasets_root, taken, chosen + nchosen);
    /* a dataset whose run faulted (an illegal address, a crash), where none
     * of those chosen did: its checked run names the access and the test
     * that let it through, which a wrong output's run may never make */
    int faulted = 0, fault = -1;
    for (int k = 0; k < nchosen; k++)
        faulted |= s->datasets[chosen[k]].status == ST_CUDA_ERROR || s->datasets[chosen[k]].status == ST_CRASH;
    for (int i = 0; !faulted && nchosen < MAX_CHECKED && i < n; i++)
        if (!taken[i] && (s->datasets[i].status == ST_CUDA_ERROR || s->datasets[i].status == ST_CRASH) &&
            (fault < 0 || elements[i] < elements[fault]))
            fault = i;
    if (fault >= 0) {
        chosen[nchosen++] = fault;
        taken[fault] = 1;
    }
    /* On a GPU, where nothing ran to its end: the smallest dataset that ran
     * out of time, whose run the emulator's checks end at once where a
     * barrier some threads never reach is what hung (a GPU's block waits
     * there for ever), with a short limit of its own (CHECKED_HANG_S) */
    int hung = -1;
    for (int i = 0; hangs && nchosen == 0 && i < n; i++)
        if (s->datasets[i].status == ST_TIMEOUT && (hung < 0 || elements[i] < elements[hung]))
            hung = i;
    if (hung >= 0)
        chosen[nchosen++] = hung;
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

/* A dataset that passed but whose checkers found something matched by
 * luck: `unsafe`, no points. */
static void unsafe_if_found(submission_result *s, dataset_result *d)
{
    if (d->status != ST_PASS || d->sanitizer->nfindings == 0)
        return;
    d->status = ST_UNSAFE;
    s->score -= d->points;
    d->points = 0;
    free(d->message);
    d->message = xasprintf("the output matched, but only by luck: %s", d->sanitizer->findings[0].message);
}

/* A dataset that passed and whose only findings are reads of device
 * memory nothing stored: when the checked build, run again with that
 * memory filled two ways, gets the output right both times, the values
 * read never reached the output (a scan's extra slots), and the findings
 * become notes (sanitize_unset_reaches_output). A read whose value does
 * reach it (a sum into memory nothing zeroed) stays a finding: `unsafe`. */
static void unset_reads_that_matter(const lab_manifest *m, const int *index, int i, double timeout_s,
                                    const grade_options *opt, const sanitize_builds *builds, submission_result *s)
{
    dataset_result *d = &s->datasets[i];
    sanitize_result *r = d->sanitizer;
    if (d->status != ST_PASS || !r || r->nfindings == 0)
        return;
    for (int k = 0; k < r->nfindings; k++)
        if (strcmp(r->findings[k].kind, "uninitialised") != 0)
            return;
    double started = stage_clock();
    char *dir = resolve_dataset_dir(m, index[i], opt->datasets_root);
    if (!sanitize_unset_reaches_output(builds, m, dir, d->name, timeout_s, s->file))
        sanitize_unset_to_notes(r);
    free(dir);
    stage_add(&s->stages, started, "unset reruns %s", d->name);
}

/* Every dataset that passed but chosen's nchosen, whatever its size,
 * under the emulator's bounds check and its check of memory nothing
 * stored (sanitize_series): a read past an array's end that only some
 * shapes or sizes make is never a pass. The large datasets are in it too
 * (lab 02's width-0512, 6.6 MB of input, costs some seconds of CPU
 * there): a limit on the input's size let a bounds mistake that shows only
 * on the largest sizes score, and a limit on the time taken would make a
 * file's verdict depend on the machine's load (docs/performance.md). Only a finding
 * is kept (as the dataset's checkers' result): the full checks' datasets
 * stay the ones the report and the requirements read. */
static void check_every_pass(const lab_manifest *m, const int *index, double timeout_s, const grade_options *opt,
                             const sanitize_builds *builds, series_checks what, const int *chosen, int nchosen,
                             submission_result *s)
{
    int n = 0;
    int *which = xcalloc((size_t)s->ndatasets + 1, sizeof(int));
    char **dirs = xcalloc((size_t)s->ndatasets + 1, sizeof *dirs);
    for (int i = 0; i < s->ndatasets; i++) {
        int taken = 0;
        for (int k = 0; k < nchosen; k++)
            taken |= chosen[k] == i;
        if (s->datasets[i].status != ST_PASS || taken)
            continue;
        which[n] = i;
        dirs[n++] = resolve_dataset_dir(m, index[i], opt->datasets_root);
    }
    sanitize_result *found = xcalloc((size_t)n + 1, sizeof *found);
    sanitize_series(builds, what, (const char *const *)dirs, n, timeout_s, s->file, found);
    for (int k = 0; k < n; k++) {
        dataset_result *d = &s->datasets[which[k]];
        /* the race series checks what the bounds series did and more: its
         * findings replace the bounds series' notes */
        if (found[k].nfindings > 0 || (found[k].notes && !d->sanitizer)) {
            if (d->sanitizer)
                sanitize_result_free(d->sanitizer);
            else
                d->sanitizer = xcalloc(1, sizeof *d->sanitizer);
            *d->sanitizer = found[k];
            unset_reads_that_matter(m, index, which[k], timeout_s, opt, builds, s);
            unsafe_if_found(s, d);
        } else {
            sanitize_result_free(&found[k]);
        }
        free(dirs[k]);
    }
    free(found);
    free(dirs);
    free(which);
}

/* The sanitizer stage, on the datasets choose_checked() picks, then the
 * bounds check on every other dataset that passed (check_every_pass). A
 * dataset that ended in a fault with no output to compare gets a fault map
 * instead of an error map: which threads made invalid accesses. */
static void sanitize_stage(const lab_manifest *m, const backend *b, const char *workdir, const int *index,
                           double timeout_s, const grade_options *opt, sanitize_prebuild *pre,
                           submission_result *s)
{
    int chosen[MAX_CHECKED];
    int nchosen = choose_checked(m, s, index, opt->datasets_root, b->kind == BACKEND_GPU, chosen);
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
    double started = stage_clock();
    sanitize_build(m, checker, s->file, workdir, want_faults, pre, &builds);
    stage_add(&s->stages, started, "checkers build");
    if (checker != b && !sanitize_builds_complete(&builds)) {
        /* a file nvcc builds and the emulator does not: compute-sanitizer,
         * and the record says why */
        s->checkers_fallback = xstrdup(sanitize_builds_problem(&builds));
        sanitize_builds_free(&builds, 0);
        checker = b;
        started = stage_clock();
        sanitize_build(m, checker, s->file, workdir, want_faults, NULL, &builds);
        stage_add(&s->stages, started, "checkers build");
    }
    snprintf(s->checkers, sizeof s->checkers, "%s",
             checker->kind == BACKEND_EMU ? "emulator" : "compute-sanitizer");
    s->source_facts_known = sanitize_source_facts(&builds, &s->source_shared_accumulations);
    /* On a GPU machine every chosen dataset's checkers start at once (three
     * compute-sanitizer processes each, mostly instrumenting on the CPU, or
     * the emulator's one: a GPU machine's cores have room). An emulator-only
     * machine runs as many datasets at once as it may use cores: each is one
     * process of one worker thread. */
    sanitize_pending *pending[MAX_CHECKED] = { 0 };
    double began[MAX_CHECKED] = { 0 };
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
            began[j] = stage_clock();
            pending[j] = sanitize_start(checker, &builds, dir, dj->name,
                                        dj->status == ST_TIMEOUT && timeout_s > CHECKED_HANG_S ? CHECKED_HANG_S
                                                                                               : timeout_s,
                                        want);
            free(dir);
        }
        /* while the first full checks run (children of the grader), the
         * series of every other dataset that passed: on a GPU machine's
         * cores it costs next to no time more */
        if (k == 0 && checker->kind == BACKEND_EMU) {
            started = stage_clock();
            check_every_pass(m, index, timeout_s, opt, &builds, SERIES_BOUNDS, chosen, nchosen, s);
            stage_add(&s->stages, started, "bounds series");
        }
        d->sanitizer = xcalloc(1, sizeof *d->sanitizer);
        snprintf(d->sanitizer->lab_header, sizeof d->sanitizer->lab_header, "%s/lab.h", m->dir);
        sanitize_collect(pending[k], s->file, d->sanitizer);
        pending[k] = NULL;
        /* from its start: the chosen datasets' runs overlap each other
         * and the bounds series */
        started = stage_add(&s->stages, began[k], "checkers %s", d->name);
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
        stage_add(&s->stages, started, "maps");
        if (checker->kind == BACKEND_EMU)
            unset_reads_that_matter(m, index, chosen[k], timeout_s, opt, &builds, s);
        unsafe_if_found(s, d);
    }
    /* A race the full checks found is the file's, not one dataset's: the
     * other datasets that passed may have passed by luck (a GPU's warps
     * often keep the order a missing barrier should), so they run again
     * under the race check, in one series, the large grids' edge blocks
     * only. Only a file that races pays it. */
    int raced = 0;
    for (int k = 0; k < nchosen; k++)
        raced |= sanitize_has_race(s->datasets[chosen[k]].sanitizer);
    if (raced && checker->kind == BACKEND_EMU) {
        started = stage_clock();
        check_every_pass(m, index, timeout_s, opt, &builds, SERIES_RACES, chosen, nchosen, s);
        stage_add(&s->stages, started, "race series");
    }
    /* the checkers' notes (a buffer never freed, ...), each once */
    for (int i = 0; i < s->ndatasets; i++) {
        const sanitize_result *r = s->datasets[i].sanitizer;
        for (const char *p = r ? r->notes : NULL; p && *p;) {
            const char *end = strchr(p, '\n');
            char *line = xasprintf("%.*s", (int)(end ? end - p : (long)strlen(p)), p);
            sanitize_note_add(&s->notes, line);
            free(line);
            p = end ? end + 1 : p + strlen(p);
        }
    }
    sanitize_builds_free(&builds, opt->keep);
    free(emu.compiler);
}

/* What the shared tiles held on the datasets the checkers ran whose output
 * was wrong, against the lab's "tiles" (tiles.h): the first slot that holds
 * what the tiling puts nowhere near it names the load to look at. Of the
 * datasets that have one, the first whose sentence names the test that
 * decided (the most specific), else the first. A dataset that passed is
 * never asked: a right output is not explained by its tiles. */
static void tile_contents(const lab_manifest *m, const int *index, const char *datasets_root, submission_result *s)
{
    int right = 0, best_by_test = 0;
    for (int i = 0; i < s->ndatasets && !best_by_test; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status != ST_WRONG || !d->sanitizer || !d->sanitizer->tiles.n)
            continue;
        char *dir = resolve_dataset_dir(m, index[i], datasets_root);
        char *sentence = NULL;
        int by_test = 0;
        tiles_verdict v = tiles_judge(m, &d->sanitizer->tiles, dir, s->file, d->cmp.nonfinite > 0, &sentence,
                                      &by_test);
        free(dir);
        if ((v == TILES_WRONG || v == TILES_UNSET) && (!s->tile_contents || by_test)) {
            free(s->tile_contents);
            /* the launch whose block does not fit the tile, at its line */
            const launch_shape *l = launch_of(d);
            int block_line = l && strstr(sentence, TILES_BLOCK_WHERE) ? source_launch_block_line(s->file, l->line) : 0;
            char *q = block_line > 0 ? sanitize_quote(s->file, block_line) : NULL;
            /* a block whose side a #define gives: where that size is chosen */
            char name[64], *def_words = xstrdup("");
            int def = 0;
            for (int k = 0; k < 3 && block_line > 0 && !def; k++)
                if (l->block[k] > 1)
                    def = source_name_defined_as(s->file, block_line, (long)l->block[k], name, sizeof name);
            if (def > 0) {
                char *qd = sanitize_quote(s->file, def);
                free(def_words);
                def_words = xasprintf(", whose side is %s, set at %s", name, qd);
                free(qd);
            }
            s->tile_contents = xasprintf("%s: %s%s%s%s", d->name, sentence, q ? " at " : "", q ? q : "", def_words);
            free(def_words);
            free(q);
            s->tile_unset = v == TILES_UNSET;
            best_by_test = by_test;
        }
        right += v == TILES_RIGHT;
        free(sentence);
    }
    s->tiles_right = !s->tile_contents && right > 0;
}

/* A tile the numbers show transposed, where every slot of the tiles held
 * the element its own place takes (tiles_in_place: a transposed store
 * fails that): the read in the sum is transposed, not the store; said
 * with the sum's line. */
static void transposed_read_not_store(const lab_manifest *m, const int *index, const char *datasets_root,
                                      const char *file, submission_result *s)
{
    int in_place = 0;
    for (int i = 0; i < s->ndatasets && !in_place; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status != ST_WRONG || !d->sanitizer || !d->sanitizer->tiles.n)
            continue;
        char *dir = resolve_dataset_dir(m, index[i], datasets_root);
        in_place = tiles_in_place(m, &d->sanitizer->tiles, dir);
        free(dir);
    }
    if (!in_place)
        return;
    int line = source_sum_line(file);
    char *q = line > 0 ? sanitize_quote(file, line) : NULL;
    for (int i = 0; i < s->ndatasets; i++) {
        compare_result *c = &s->datasets[i].cmp;
        char *at = strstr(c->hint, DIAGNOSE_TILE_STORED_TRANSPOSED);
        if (!at)
            continue;
        const char *tile = at + strlen(DIAGNOSE_TILE_STORED_TRANSPOSED); /* "N's tile" */
        char *words = xasprintf("%.*s" DIAGNOSE_TILE_READ_TRANSPOSED "%.1s's tile%s%s", (int)(at - c->hint), c->hint,
                                tile, q ? ", at " : "", q ? q : "");
        snprintf(c->hint, sizeof c->hint, "%s", words);
        free(words);
    }
    free(q);
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
    s->hint = diagnose_across_datasets(sizes, failed, n, 16, m->ntiles > 0, m->perf.work == WORK_IMAGE);
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
    s->hint = diagnose_across_kinds(square, elements, fails, ran, m->perf.work == WORK_IMAGE, m->ntiles > 0);
    free(square);
    free(fails);
    free(elements);
}

/* The output's rows and columns of dataset spec d, from its params; 0 or -1. */
static int output_size(const lab_manifest *m, const dataset_spec *d, int out[2])
{
    double dims[3];
    if (manifest_work_dims(m->perf.work, d, dims, NULL) != 0)
        return -1;
    out[0] = (int)dims[0];                                       /* j, or the height */
    out[1] = (int)(m->perf.work == WORK_IMAGE ? dims[1] : dims[2]); /* l, or the width */
    return 0;
}

/* A "never written" sentence whose grid advice is beside the point: the
 * launch covered the whole output, so the threads that own those elements
 * ran and skipped their store. */
static void drop_grid_advice(compare_result *c, int line)
{
    char *at = strstr(c->hint, DIAGNOSE_GRID_ADVICE);
    if (!at)
        return;
    char *instead = xasprintf("the grid of the launch at line %d covers the whole output, so the threads that "
                              "own them ran but skipped the store: look at the test before it", line);
    char *rest = xstrdup(at + strlen(DIAGNOSE_GRID_ADVICE));
    *at = '\0';
    char *hint = xasprintf("%s%s%s", c->hint, instead, rest);
    snprintf(c->hint, sizeof c->hint, "%s", hint);
    free(hint);
    free(rest);
    free(instead);
}

/* A dataset's launch as the emulator logged it: its graded run's (on the
 * emulator), else its checkers' run's (on a GPU, the only log); NULL. */
static const launch_shape *launch_of(const dataset_result *d)
{
    const sanitize_result *z = d->sanitizer;
    return d->launch.known ? &d->launch : z && z->launch.known ? &z->launch : NULL;
}

/* The same for a copy that disagrees with its buffer. */
static const copy_record *copy_of(const dataset_result *d)
{
    const sanitize_result *z = d->sanitizer;
    return d->copy.known ? &d->copy : z && z->copy.known ? &z->copy : NULL;
}

/* The name of the dataset's size (height, width, j, k, l) whose value is v,
 * other than `not`; NULL if none or several. */
static const char *size_named(const dataset_spec *d, int v, const char *not)
{
    static const char *const sizes[] = { "height", "width", "j", "k", "l" };
    const char *found = NULL;
    for (int p = 0; p < d->nparams; p++)
        for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++) {
            if (strcmp(d->keys[p], sizes[s]) != 0 || atoi(d->values[p]) != v || (not && strcmp(not, sizes[s]) == 0))
                continue;
            if (found)
                return NULL;
            found = sizes[s];
        }
    return found;
}

/* A launch that covers the output, and an output whose wrong elements are
 * all NaN (nothing stored them) and fill the columns (or rows) from X on,
 * X the value of another of the dataset's sizes (the height where the
 * width belongs): the threads that own them ran and a test bounded them by
 * that size; its line (guards_unstored_region) is the cause, and whatever
 * read them later (the copy back's unset read) only its symptom. */
static char *unstored_region(const dataset_spec *spec, const dataset_result *d, const int out[2], const char *file)
{
    const compare_result *c = &d->cmp;
    int r0 = c->unwritten_from[0], c0 = c->unwritten_from[1];
    size_t pixels = (size_t)out[0] * (size_t)out[1];
    /* NaN (device memory nothing stored, copied back) or the harness's
     * never-written mark, every wrong element */
    if (c->mismatches == 0 || pixels == 0 || (c->nonfinite != c->mismatches && c->poisoned != c->mismatches))
        return NULL;
    size_t ch = c->elements / pixels;
    /* the region exactly: as many wrong elements as it holds, its lines
     * each (nearly) all wrong (launches_unwritten_corner) */
    int column = c0 > 0 && c0 < out[1] && c->mismatches == (size_t)out[0] * (size_t)(out[1] - c0) * ch;
    int row = r0 > 0 && r0 < out[0] && c->mismatches == (size_t)(out[0] - r0) * (size_t)out[1] * ch;
    if (column == row)
        return NULL;
    const char *right = size_named(spec, column ? out[1] : out[0], NULL);
    const char *size = right ? size_named(spec, column ? c0 : r0, right) : NULL;
    return size ? guards_unstored_region(file, spec->name, column, column ? c0 : r0, column ? out[1] : out[0],
                                         size, right)
                : NULL;
}

/* A grid of more than one block in a dimension the kernel never reads
 * (blockIdx.z, or y where it reads only x): the blocks along it compute
 * what the first of them does and store the same elements, which the
 * checkers see as a race between blocks. Said at the grid's dim3 line:
 * the grid is the mistake, unless its blocks in y are just what the
 * output's rows (out[0]) need, one block of them too few: then the grid
 * is right and the kernel places no block by blockIdx.y (a row computed
 * from blockDim.y, the same in every block, say), and the rows past the
 * first block's are never reached. */
static char *unread_grid_dimension(const launch_shape *l, const int out[2], const char *file)
{
    static const char axis[3] = { 'x', 'y', 'z' };
    for (int k = 2; k >= 1; k--) {
        if (l->grid[k] <= 1 || source_reads_builtin(file, "blockIdx", axis[k]))
            continue;
        int line = source_launch_dim3_line(file, l->line, 0);
        char *q = sanitize_quote(file, line > 0 ? line : l->line);
        unsigned rows = out && out[0] > 0 ? (unsigned)out[0] : 0, b = l->block[k];
        int needed = k == 1 && rows > b && b > 0 && l->grid[k] * b >= rows && (l->grid[k] - 1) * b < rows;
        char *w;
        if (needed) {
            /* where it reads the block's size instead: its line */
            int dim = source_reads_builtin(file, "blockDim", axis[k]);
            char *qd = dim > 0 ? sanitize_quote(file, dim) : NULL;
            /* no block size read there: the row is made from the thread's
             * index (and perhaps another axis's block), at the line that
             * reads threadIdx on this axis */
            int own = qd ? 0 : source_reads_builtin(file, "threadIdx", axis[k]);
            char *qt = own > 0 ? sanitize_quote(file, own) : NULL;
            char *instead = qd ? xasprintf(" (%s reads blockDim.%c, the block's size, the same in every block, "
                                           "where blockIdx.%c belongs)", qd, axis[k], axis[k])
                          : qt ? xasprintf(" at %s", qt)
                               : xstrdup("");
            free(qt);
            /* the rows themselves only where the row is the block's size
             * (the same in every block); another index (blockIdx.x
             * copied) gives each column of blocks rows of its own */
            char *which = qd ? xasprintf("the rows the blocks of %c = 0 do (%u to %u), and store them again (a race "
                                         "between blocks), while rows %u to %u of the output are never reached",
                                         axis[k], 0u, b - 1, b, rows - 1)
                             : xasprintf("what the column's block of %c = 0 does, and stores it again (a race "
                                         "between blocks), while the rows the others were for are never reached",
                                         axis[k]);
            w = xasprintf("kernel %s never reads blockIdx.%c, so every block of a column computes %s: the grid at "
                          "%s has the %u blocks in %c those rows need; it is the kernel that must place each block "
                          "by blockIdx.%c, where it computes its row%s",
                          l->kernel, axis[k], which, q, l->grid[k], axis[k], axis[k], instead);
            free(which);
            free(qd);
            free(instead);
        } else
            w = xasprintf("the grid at %s has %u blocks in %c, but kernel %s never reads blockIdx.%c: those "
                          "blocks each compute what the blocks of %c = 0 do and store the same elements again (more "
                          "work, and a race between blocks); give the grid 1 block in %c",
                          q, l->grid[k], axis[k], l->kernel, axis[k], axis[k], axis[k]);
        free(q);
        return w;
    }
    return NULL;
}

/* A block with more than one thread along an axis whose threadIdx (and
 * blockIdx) the kernel never reads: the threads that differ only there do the same
 * work and store the same elements (a race), and the block is that many
 * times larger than its work. */
static char *unread_block_dimension(const launch_shape *l, const char *file)
{
    static const char axis[3] = { 'x', 'y', 'z' };
    for (int k = 2; k >= 0; k--) {
        /* a kernel that reads blockIdx on that axis places its blocks by it
         * and left the thread's part out: the index's own reading says so */
        if (l->block[k] <= 1 || source_reads_builtin(file, "threadIdx", axis[k]) ||
            source_reads_builtin(file, "blockIdx", axis[k]))
            continue;
        int line = source_launch_dim3_line(file, l->line, 1);
        char *q = sanitize_quote(file, line > 0 ? line : l->line);
        char *w = xasprintf("the block at %s has %u threads in %c, but kernel %s never reads threadIdx.%c: the "
                            "threads that differ only in %c each do what those of %c = 0 do and store the same "
                            "elements again (a race); give the block 1 thread in %c",
                            q, l->block[k], axis[k], l->kernel, axis[k], axis[k], axis[k], axis[k]);
        free(q);
        return w;
    }
    return NULL;
}

/* An output whose wrong elements are the ones nothing stored, all but a
 * top-left corner (columns from c0 on, rows from r0 on, both, or every
 * element): the emulator's checked run of that dataset says which test
 * kept its threads from the store (guards_kept_from_store). NaN or the
 * harness's mark says nothing stored them; on a GPU, where memory nothing
 * stored often holds 0, the checkers' read of it does. */
static char *kept_from_store(const dataset_result *d, const int out[2], const char *file)
{
    const compare_result *c = &d->cmp;
    const sanitize_result *r = d->sanitizer;
    if (c->mismatches == 0 || out[0] <= 0 || out[1] <= 0)
        return NULL;
    int unset = c->nonfinite == c->mismatches || c->poisoned == c->mismatches;
    for (int k = 0; r && k < r->nfindings && !unset; k++)
        unset = strcmp(r->findings[k].kind, "uninitialised") == 0;
    /* a frame b wide (the border kept out): its head and its tail at once;
     * where no checked run of this dataset holds the record of its tests,
     * the if the output's store stands in, which keeps out that frame */
    int b = c->unwritten_frame;
    if (unset && b > 0) {
        char *w = r && r->tiles.nends ? guards_kept_from_store(&r->tiles, file, d->name, out[0], out[1], out[0] - b,
                                                               out[1] - b, b, b)
                                      : NULL;
        char test[256];
        int in_else = 0, store = w ? 0 : source_output_store_line(file);
        int at = store > 0 ? source_test_around(file, store, test, sizeof test, &in_else) : 0;
        /* only a test that can keep out a border: a lower bound (`>=`,
         * `>`) or an upper one taken in (`height - MASK_RADIUS`); a frame
         * of NaN under `y < height && x < width` came from elsewhere (the
         * tile's ghost slots never stored, read by the border's sums) */
        int border_test = strstr(test, ">=") || strstr(test, "> ") || strstr(test, " - ");
        if (!w && at > 0 && !in_else && strncmp(test, "if", 2) == 0 && border_test) {
            char *qt = sanitize_quote(file, at);
            w = xasprintf("on %s the output's border, %d wide on every side, is never stored, and nothing inside "
                          "it is wrong: the store at line %d stands under the test at %s, which keeps out those "
                          "elements; the output has its border as much as its inside: test only that the element "
                          "lies inside the output",
                          d->name, b, store, qt);
            free(qt);
        }
        return w;
    }
    if (!r || !r->tiles.nends)
        return NULL;
    int r0 = c->unwritten_from[0], c0 = c->unwritten_from[1], r1 = c->unwritten_to[0], c1 = c->unwritten_to[1];
    int head = (r0 < 0 || c0 < 0) && r1 >= 0 && c1 >= 0 && (r1 > 0 || c1 > 0);
    if (!unset || ((r0 < 0 || c0 < 0) && !head))
        return NULL;
    size_t pixels = (size_t)out[0] * (size_t)out[1], ch = c->elements / pixels;
    size_t region = head ? (pixels - (size_t)(out[0] - r1) * (size_t)(out[1] - c1)) * ch
                         : (pixels - (size_t)r0 * (size_t)c0) * ch;
    /* the region, give or take the elements whose right value is what the
     * memory held (0 on a GPU) */
    if (c->mismatches > region || c->mismatches * 10 < region * 9)
        return NULL;
    return head ? guards_kept_from_store(&r->tiles, file, d->name, out[0], out[1], -1, -1, r1, c1)
                : guards_kept_from_store(&r->tiles, file, d->name, out[0], out[1], r0, c0, -1, -1);
}

/* A CUDA call that failed on a pointer it takes as device memory (the
 * message "... from cudaFree(d_P) at FILE:67 ..." or a cudaMemcpy's, by its
 * kind), which the file allocates with cudaMallocHost or cudaHostAlloc:
 * pinned host memory. The allocation is the cause. */
static char *host_memory_as_device(const char *file, const submission_result *s)
{
    static const char *const calls[] = { "cudaMemcpy", "cudaFree", "cudaMemset", NULL };
    for (int i = 0; i < s->ndatasets; i++) {
        const char *msg = s->datasets[i].status == ST_CUDA_ERROR ? s->datasets[i].message : NULL;
        for (int c = 0; msg && calls[c]; c++) {
            char pat[32];
            snprintf(pat, sizeof pat, "from %s(", calls[c]);
            const char *at = strstr(msg, pat), *colon = at ? strstr(at, ") at ") : NULL;
            const char *lp = colon ? strrchr(colon, ':') : NULL;
            int line = lp ? atoi(lp + 1) : 0;
            if (line <= 0)
                continue;
            /* the arguments taken as device memory */
            int device[2] = { 1, 0 };
            if (c == 0) {
                device[0] = strstr(at, "HostToDevice") || strstr(at, "DeviceToDevice");
                device[1] = strstr(at, "DeviceToHost") || strstr(at, "DeviceToDevice");
            }
            for (int k = 0; k < 2; k++) {
                char name[64], call[32];
                if (!device[k] || !source_call_argument_name(file, line, calls[c], k, name, sizeof name))
                    continue;
                int alloc = source_allocation_of(file, name, call, sizeof call);
                if (alloc <= 0 || (strcmp(call, "cudaMallocHost") != 0 && strcmp(call, "cudaHostAlloc") != 0))
                    continue;
                char *q = sanitize_quote(file, alloc);
                char *w = xasprintf("%s allocates %s with %s, which gives pinned memory on the host, not on the "
                                    "device, and the %s at line %d takes %s as device memory; allocate it with "
                                    "cudaMalloc",
                                    q, name, call, calls[c], line, name);
                free(q);
                return w;
            }
        }
    }
    return NULL;
}

/* Defects the source shows that the kernel's evidence shows only the
 * effects of, read before it (the tiles' readings, the kit's record of the
 * launch): a shared array under a second name, whose stores overwrite each
 * other; a host descriptor's member given the wrong value, where the
 * member the value was named for, or the object it was named for, is
 * never set. */
static void defects_before_the_tiles(const lab_manifest *m, const char *file, submission_result *s)
{
    int failed = 0;
    for (int i = 0; i < s->ndatasets; i++)
        failed |= s->datasets[i].status != ST_PASS && s->datasets[i].status != ST_COMPILE_ERROR;
    int line = 0;
    /* declarations whose effects the tiles, the launch record and the
     * copies only show: a lab constant defined again, a struct started in
     * another order than its fields, a size in a narrow type */
    /* a local read before anything sets it: what the checkers then find
     * (every thread at one tile slot, a race) follows from it, so it is
     * the cause, ahead of them */
    int read_at = 0;
    char unset[64];
    /* (an accumulator so declared has its own sentence: source_defects) */
    line = failed && !s->cause && !source_accumulator_unset(file, unset, sizeof unset)
               ? source_local_read_unset(file, unset, sizeof unset, &read_at)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qr = sanitize_quote(file, read_at);
        s->cause_fixed_there = 1;
        s->cause = xasprintf("%s declares %s with no value (in a declaration of several names, `= ...` "
                                    "gives a value to the one name it follows), and %s reads it before anything "
                                    "sets it: %s holds whatever was in that register, so everything made from it "
                                    "is wrong: give %s its value where it is declared",
                                    q, unset, qr, unset, unset);
        free(qr);
        free(q);
    }
    /* an allocation into a function's own copy of the caller's pointer */
    char copy_func[64], copy_param[64], copy_arg[128];
    int copy_alloc = 0, copy_call = 0;
    line = failed && !s->cause ? source_allocation_into_copy(file, copy_func, sizeof copy_func, copy_param,
                                                             sizeof copy_param, &copy_alloc, copy_arg,
                                                             sizeof copy_arg, &copy_call)
                               : 0;
    if (line > 0) {
        char *qa = sanitize_quote(file, copy_alloc), *qc = sanitize_quote(file, copy_call);
        s->cause = xasprintf("%s allocates into %s, %s's own copy of the pointer it is given (a parameter is passed "
                             "by value): the call at %s hands it the value of %s, and %s itself never changes, so "
                             "it stays what it was (NULL, or unset) and the program uses no buffer through it; "
                             "give %s a pointer to the pointer (`float **`, called with `&%s`, allocating into "
                             "`*%s`), or have it return the new pointer",
                             qa, copy_param, copy_func, qc, copy_arg, copy_arg, copy_func, copy_arg, copy_param);
        s->cause_fixed_there = 1;
        free(qc);
        free(qa);
    }
    /* a statement that does nothing: a function named and not called
     * (`__syncthreads;`), a comparison whose value goes nowhere */
    int effect = 0;
    char stmt[160];
    line = failed && !s->cause ? source_statement_without_effect(file, &effect, stmt, sizeof stmt) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        if (effect == EFFECT_NOT_CALLED)
            s->cause = xasprintf("%s names %s without calling it: with no `()` the statement only takes the "
                                 "function's address and throws it away, so nothing runs there; write `%s();`",
                                 q, stmt, stmt);
        else {
            /* the statement as the assignment it was meant to be */
            char *eq = strstr(stmt, "==");
            char *meant = eq ? xasprintf("%.*s=%s;", (int)(eq - stmt), stmt, eq + 2) : NULL;
            s->cause = xasprintf("%s compares (`==`) and throws the result away: the statement does nothing; "
                                 "where it was to set a value, write `=`%s%s%s",
                                 q, meant ? ": `" : "", meant ? meant : "", meant ? "`" : "");
            free(meant);
        }
        s->cause_fixed_there = 1; /* what makes up for it elsewhere (another barrier) leaves it */
        free(q);
    }
    /* `kernel<<<...>>>(d_in_img, d_in_img)`, d_out_img declared beside it */
    char twice_kernel[64], twice_arg[64], twice_p1[64], twice_p2[64], twice_sibling[64];
    int sibling_line = 0;
    line = failed && !s->cause ? source_launch_argument_twice(file, twice_kernel, twice_arg, twice_p1, twice_p2,
                                                              twice_sibling, sizeof twice_arg, &sibling_line)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qs = sanitize_quote(file, sibling_line);
        s->cause = xasprintf("the launch at %s passes %s twice, as %s's `%s` and as its `%s`, and %s, declared "
                             "at %s, goes to no argument: pass %s as `%s`",
                             q, twice_arg, twice_kernel, twice_p1, twice_p2, twice_sibling, qs, twice_sibling,
                             strstr(twice_sibling, twice_p1) ? twice_p1 : twice_p2);
        s->cause_fixed_there = 1;
        free(q);
        free(qs);
    }
    /* `for (int i = -MASK_RADIUS; ...)` over `N_ds[threadIdx.y + i]` */
    char neg_counter[64], neg_start[64];
    int neg_read = 0;
    line = failed && !s->cause ? source_loop_starts_negative(file, neg_counter, sizeof neg_counter, neg_start,
                                                             sizeof neg_start, &neg_read)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qr = sanitize_quote(file, neg_read);
        s->cause = xasprintf("the loop at %s starts %s at %s, and %s adds %s to a thread's coordinate: for the "
                             "first threads the subscript is below 0, before the array's start (the tile already "
                             "begins at the window's first element, so its subscripts run from 0); start the loop "
                             "at 0 and give it as many passes",
                             q, neg_counter, neg_start, qr, neg_counter);
        s->cause_fixed_there = 1;
        free(q);
        free(qr);
    }
    /* `Pvalue += fmaf(a, b, Pvalue);`: a sum that adds itself each pass */
    char self_name[64], self_value[200];
    line = failed && !s->cause ? source_sum_adds_itself(file, self_name, sizeof self_name, self_value,
                                                        sizeof self_value)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s adds `%s` to %s, and that value reads %s again: each pass adds the whole sum to "
                             "itself besides the new term, so it doubles every pass (and overflows to infinity on "
                             "the larger datasets); either `+=` a value without %s, or `=` one that has it, not "
                             "both",
                             q, self_value, self_name, self_name, self_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `dim3 dimGrid = (A, B);`: a comma expression, B alone */
    char comma_name[64], comma_last[128];
    line = failed && !s->cause ? source_dim3_comma_init(file, comma_name, sizeof comma_name, comma_last,
                                                        sizeof comma_last)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s initialises %s with `= (...)`: those brackets hold a comma expression, whose value "
                             "is its last operand alone (%s), so %s is %s x 1 x 1; give the counts as the dim3's own "
                             "arguments, `dim3 %s(...)`, without the `=`",
                             q, comma_name, comma_last, comma_name, comma_last, comma_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `int dimGrid = ...;` launched as a grid of a 2D kernel: 1 in y */
    char scalar_name[64];
    int scalar_launch = 0, scalar_block = 0;
    line = failed && !s->cause ? source_launch_scalar_dim(file, scalar_name, sizeof scalar_name, &scalar_launch,
                                                          &scalar_block)
                               : 0;
    if (line > 0 && source_reads_builtin(file, scalar_block ? "threadIdx" : "blockIdx", 'y')) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s declares %s an integer, and the launch at line %d gives it as the %s: a number there "
                             "is that many %s in x and 1 in y, but the kernel reads %s.y, so every %s has y = 0; "
                             "declare it a dim3 with its count in both, `dim3 %s(n, n)`",
                             q, scalar_name, scalar_launch, scalar_block ? "block" : "grid",
                             scalar_block ? "threads" : "blocks", scalar_block ? "threadIdx" : "blockIdx",
                             scalar_block ? "thread" : "block", scalar_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `dim3 dimGrid(width / blockDim.x, ...)` in the host's code */
    char host_builtin[32];
    line = failed && !s->cause ? source_builtin_in_host(file, host_builtin, sizeof host_builtin) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s reads %s in the host's code: threadIdx, blockIdx, blockDim and gridDim have a "
                             "launch's values only inside a kernel (nvcc compiles the host's read, but what it "
                             "reads is no launch's %s); use the value the launch is given there (TILE_WIDTH, or "
                             "the dim3 you declare)",
                             q, host_builtin, host_builtin);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `<<<dimGrid.x, dimBlock>>>`: one member of the dim3 given for all of it */
    line = failed && !s->cause ? source_launch_dim_member(file, scalar_name, sizeof scalar_name, &scalar_block) : 0;
    if (line > 0 && source_reads_builtin(file, scalar_block ? "threadIdx" : "blockIdx", 'y')) {
        char *q = sanitize_quote(file, line);
        char whole[64];
        snprintf(whole, sizeof whole, "%.*s", (int)strcspn(scalar_name, "."), scalar_name);
        s->cause = xasprintf("the launch at %s gives %s as the %s: one count, that many %s in x and 1 in y, but "
                             "the kernel reads %s.y, so every %s has y = 0; pass the whole dim3, %s",
                             q, scalar_name, scalar_block ? "block" : "grid", scalar_block ? "threads" : "blocks",
                             scalar_block ? "threadIdx" : "blockIdx", scalar_block ? "thread" : "block", whole);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `unsigned short bytes = width * width * sizeof(float);` */
    char narrow_name[64], narrow_type[32], narrow_call[32];
    long narrow_most = 0;
    int narrow_call_line = 0;
    line = failed && !s->cause ? source_size_in_narrow_type(file, narrow_name, sizeof narrow_name, narrow_type,
                                                            sizeof narrow_type, &narrow_most, narrow_call,
                                                            sizeof narrow_call, &narrow_call_line)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s declares %s `%s`, which holds at most %ld, and the %s at line %d takes it as a "
                             "size in bytes: a larger size wraps round to a small one, so the buffers are too small "
                             "for the larger datasets (and the kernel runs past their ends); declare %s size_t",
                             q, narrow_name, narrow_type, narrow_most, narrow_call, narrow_call_line, narrow_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `unsigned char Row = blockIdx.y * blockDim.y + threadIdx.y;` */
    line = failed && !s->cause ? source_index_in_narrow_type(file, narrow_name, sizeof narrow_name, narrow_type,
                                                             sizeof narrow_type, &narrow_most)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s declares %s `%s`, which holds at most %ld: any value of %s past that wraps "
                             "round to a small one (a larger dataset's index, a later batch's), so the kernel "
                             "reads and stores other elements than it means; declare %s int",
                             q, narrow_name, narrow_type, narrow_most, narrow_name, narrow_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `bytes = width * width * sizeof(double)` for `float *d_M` */
    char other_buffer[64], other_type[32], other_sized[32];
    int other_alloc = 0;
    line = failed && !s->cause ? source_size_of_other_type(file, other_buffer, sizeof other_buffer, other_type,
                                                           sizeof other_type, other_sized, sizeof other_sized,
                                                           &other_alloc)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s counts the bytes of %s's buffer with sizeof(%s), but %s holds %s (the cudaMalloc at "
                             "line %d): the buffer, and the copies that use that size, are another size than the "
                             "data; count with sizeof(%s)",
                             q, other_buffer, other_sized, other_buffer, other_type, other_alloc, other_type);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `Image_t d_in_img = {in->width, in->height, in->channels, in->pitch, ...}` */
    char init_object[64], init_field[64], init_given[400], init_order[256];
    char *struct_header = xasprintf("%s/lab.h", m->dir);
    line = failed && !s->cause ? source_initializer_out_of_order(file, struct_header, init_object, sizeof init_object,
                                                                 init_field, sizeof init_field, init_given,
                                                                 sizeof init_given, init_order, sizeof init_order)
                               : 0;
    free(struct_header);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s starts %s with a brace initializer, which fills the fields in their declared order "
                             "(%s), so %s, other fields' values; follow that order, or name each field (`.%s = "
                             "...`)",
                             q, init_object, init_order, init_given, init_field);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `#define MASK_WIDTH 3` where lab.h defines 5 */
    char redefined[64];
    long mine = 0, theirs = 0;
    char *lab_header_path = xasprintf("%s/lab.h", m->dir);
    line = failed && !s->cause ? source_redefines_header_number(file, lab_header_path, redefined, sizeof redefined,
                                                                &mine, &theirs)
                               : 0;
    free(lab_header_path);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s defines %s as %ld, where the lab's lab.h defines it as %ld: the harness, the "
                             "datasets and the expected outputs are made with %ld, so every use of %s in this file "
                             "disagrees with them; delete this definition (and any #undef of %s before it)",
                             q, redefined, mine, theirs, theirs, redefined, redefined);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `float (*ds_N)[TILE_WIDTH] = ds_M;`: one tile under two names */
    char alias[64], shared[64];
    int alias_store = 0, shared_store = 0;
    line = failed && !s->cause ? source_alias_of_shared(file, alias, sizeof alias, shared, sizeof shared,
                                                        &alias_store, &shared_store)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s makes %s another name for %s, not an array of its own: the store through %s at line "
                             "%d and the one into %s at line %d write the same memory, so one overwrites the other "
                             "and what is read from both is one tile; declare %s a __shared__ array of its own",
                             q, alias, shared, alias, alias_store, shared, shared_store, alias);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `d_in_img.width = in_pitch_bytes / ...` beside `d_out_img.pitch =
     * out_pitch_bytes / ...`: the value went into another member */
    char mobject[64], mmember[64], mother[64];
    int sibling_set = 0;
    line = failed && !s->cause
               ? source_member_set_from_other(file, mobject, sizeof mobject, mmember, sizeof mmember, mother,
                                              sizeof mother, &sibling_set)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qs = sanitize_quote(file, sibling_set);
        s->cause = xasprintf("%s sets %s.%s from a value named for the %s, as %s sets the other's %s, and no line "
                             "sets %s.%s: the value went into the wrong member, so %s.%s keeps what it held before "
                             "and %s.%s is wrong; set %s.%s there",
                             q, mobject, mmember, mother, qs, mother, mobject, mother, mobject, mother, mobject, mmember,
                             mobject, mother);
        s->cause_fixed_there = 1;
        free(q);
        free(qs);
    }
    /* `d_in_img.pitch = out_pitch_bytes / ...`, d_in_img.pitch set before
     * and d_out_img.pitch never: the line meant for the other object */
    int first_set = 0;
    line = failed && !s->cause
               ? source_member_set_for_other_object(file, mobject, sizeof mobject, mmember, sizeof mmember, mother,
                                                    sizeof mother, &first_set)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s sets %s.%s a second time (line %d set it first), from a value named for %s, and no "
                             "line sets %s.%s: that line was meant for %s, whose %s keeps what it held before; set "
                             "%s.%s there",
                             q, mobject, mmember, first_set, mother, mother, mmember, mother, mmember, mother,
                             mmember);
        s->cause_fixed_there = 1;
        free(q);
    }
}

/* Defects the source shows by itself, named only where a dataset failed
 * (they are what made it so, or the run would not show them): a copy
 * given the address of a pointer where the pointer belongs (a cause, as a
 * wrong copy the run's record shows is), and, for a wrong output, an
 * accumulator the sum adds to that nothing set (it starts from whatever
 * the register held), and a kernel's array stored before a barrier and
 * read after it that is not __shared__ (each thread has its own copy, so
 * the slots other threads stored are never there). */
static long gcd_of(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* A `#define NAME NUMBER` of the file (NUMBER at least 2) such that the
 * datasets that pass are exactly those whose every output side NUMBER
 * divides, with at least one of each (`#define TILE_WIDTH 24`: width 96
 * passes, 32, 64, 128 fail): the kernel and its grid cover whole tiles of
 * it only. Said as s->cause at the define, with what every size is a
 * multiple of. */
static void size_divides_passing(const char *file, submission_result *s)
{
    char names[32][48];
    long values[32];
    int lines[32], nd = source_number_defines(file, names, values, lines, 32);
    for (int d = 0; d < nd && !s->cause; d++) {
        long v = values[d], all = 0;
        if (v < 2)
            continue;
        int passes = 0, fails = 0, fits = 1;
        strbuf pass_sizes = { 0 }, fail_sizes = { 0 };
        for (int i = 0; i < s->ndatasets && fits; i++) {
            const dataset_result *r = &s->datasets[i];
            if (!r->cmp.compared && r->status != ST_PASS) {
                fits = 0; /* a failure the comparison never saw */
                break;
            }
            if (!r->cmp.compared)
                continue;
            long a = r->cmp.want_shape[0], b = r->cmp.want_shape[1];
            int divides = a % v == 0 && b % v == 0;
            all = gcd_of(gcd_of(all, a), b);
            if (divides != (r->status == ST_PASS)) {
                fits = 0;
                break;
            }
            strbuf *sb = divides ? &pass_sizes : &fail_sizes;
            int *count = divides ? &passes : &fails;
            if (*count < 6)
                sb_printf(sb, a == b ? "%s%ld" : "%s%ld x %ld", *count ? ", " : "", a, b);
            (*count)++;
        }
        if (fits && passes > 0 && fails > 0 && all % v != 0 && all > 1) {
            char *q = sanitize_quote(file, lines[d]);
            s->cause = xasprintf("%s makes %s %ld, and the datasets that pass are those whose sizes %ld divides (%s), "
                                 "the ones that fail those it does not (%s%s): the kernel and its grid cover whole "
                                 "tiles of %s only; every dataset's size is a multiple of %ld, so give %s a value "
                                 "that divides %ld",
                                 q, names[d], v, v, pass_sizes.buf, fail_sizes.buf, fails > 6 ? ", ..." : "",
                                 names[d], all, names[d], all);
            s->cause_fixed_there = 1;
            free(q);
        }
        sb_free(&pass_sizes);
        sb_free(&fail_sizes);
    }
}

static int lines_named(const char *text, int *lines, int n, int max);

/* A pitched output whose padding the harness found changed (its message:
 * "the padding of out was overwritten: ... now 0 ..."), where the host
 * code fills that image as a whole (`memset(out->data, 0, ...)`): that
 * call wrote the padding, which only the harness may write. Whether it
 * was said. */
static int padding_filled(const char *file, submission_result *s)
{
    const char *msg = NULL, *marker = "the padding of ";
    for (int i = 0; i < s->ndatasets && !msg; i++)
        if (s->datasets[i].status == ST_WRONG && s->datasets[i].message &&
            strstr(s->datasets[i].message, " was overwritten: "))
            msg = strstr(s->datasets[i].message, marker);
    if (!msg)
        return 0;
    char name[64] = "", call[32];
    sscanf(msg + strlen(marker), "%63[A-Za-z0-9_]", name);
    int copy = 0, line = name[0] ? source_host_fill_of(file, name, call, sizeof call, &copy) : 0;
    if (line <= 0)
        return 0;
    char *q = sanitize_quote(file, line);
    char *then = copy > 0 ? xasprintf(" (the cudaMemcpy2D at line %d writes each row's pixels and leaves the padding "
                                      "alone)", copy)
                          : xstrdup("");
    s->source_cause = xasprintf("%s fills %s with %s as one block of memory, padding included: the padding floats "
                                "after each row's pixels must keep what the harness put there, and %s changes "
                                "them; write only the pixels of each row%s",
                                q, name, call, call, then);
    free(then);
    free(q);
    return 1;
}

static void source_defects(const lab_manifest *m, const char *file, submission_result *s)
{
    int wrong = 0, failed = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        wrong |= s->datasets[i].status == ST_WRONG;
        failed |= s->datasets[i].status != ST_PASS && s->datasets[i].status != ST_COMPILE_ERROR;
    }
    char name[64], call[32];
    int from = 0, decl = 0;
    /* a symbol the runtime does not know (cudaErrorInvalidSymbol, on both
     * backends): a local of the same name hides the file's variable */
    int invalid_symbol = 0;
    for (int i = 0; i < s->ndatasets; i++)
        invalid_symbol |= s->datasets[i].status == ST_CUDA_ERROR && s->datasets[i].message &&
                          strstr(s->datasets[i].message, "cudaErrorInvalidSymbol");
    int copy = 0, global = 0;
    int hidden = invalid_symbol && !s->cause ? source_symbol_hidden(file, name, sizeof name, &copy, &global) : 0;
    if (hidden > 0) {
        char *q = sanitize_quote(file, hidden);
        s->cause = xasprintf("%s declares a local %s, which hides the __constant__ (or __device__) %s of line %d: "
                             "the symbol copy at line %d is given the local array, which is no device "
                             "symbol (cudaErrorInvalidSymbol), and the kernel's %s never gets the values; delete "
                             "the local declaration",
                             q, name, name, global, copy, name);
        free(q);
    }
    /* a size the launch passed, made a loop's counter in the kernel */
    int read = 0;
    if (failed && !s->cause)
        s->cause = host_memory_as_device(file, s);
    int line = 0;
    char stmt[96];
    /* a loop's counter stepped in its body as well as by its header */
    int loop_at = 0;
    line = failed && !s->cause ? source_loop_counter_stepped_in_body(file, name, sizeof name, &loop_at) : 0;
    /* (not where the step is another loop's header's: that loop's own
     * counter never moves, the statement slip below) */
    char own[64], step[64];
    if (line > 0 && source_for_steps_another(file, line, own, step, sizeof own)) {
        line = 0;
    } else if (line > 0) {
        char *q = sanitize_quote(file, line), *ql = sanitize_quote(file, loop_at);
        s->cause = xasprintf("%s changes %s, the counter of the loop at %s, whose header steps it too: each pass "
                             "moves it twice (or more), so passes are skipped and what the body computes from %s "
                             "after that line is another pass's; leave the counter to the loop's header (write %s, "
                             "not a `++` or an assignment of it, in the body)",
                             q, name, ql, name, name);
        s->cause_fixed_there = 1;
        free(q);
        free(ql);
    }
    /* `for (; i < TILE_WIDTH; ++i)` in the phase loop, i set once before it */
    int outer_at = 0, counter_set = 0;
    line = failed && !s->cause ? source_loop_counter_not_restarted(file, name, sizeof name, &outer_at, &counter_set)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qs = sanitize_quote(file, counter_set);
        /* set in the outer loop's own header (`for (int i = 0, j = 0; ...)`) */
        char *where = counter_set == outer_at ? xasprintf("the start of the loop around it, %s,", qs)
                                              : xasprintf("%s, before the loop at line %d,", qs, outer_at);
        s->cause = xasprintf("the loop at %s gives %s no start, and only %s sets it: from that loop's second pass "
                             "on, %s starts where the last pass left it, so this loop runs fewer times or none; "
                             "start it in the header, `%s = 0` (or declare it there)",
                             q, name, where, name, name);
        free(where);
        s->cause_fixed_there = 1;
        free(q);
        free(qs);
    }
    /* `A[E] + k` where another read is `A[E + k]`: a bracket closed early */
    char read_text[256], term[64];
    int sibling = 0;
    line = failed && !s->cause
               ? source_term_outside_subscript(file, read_text, sizeof read_text, term, sizeof term, &sibling)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qs = sanitize_quote(file, sibling);
        s->cause = xasprintf("%s adds %s to the value it reads (`%s`), where %s adds it to the index: the "
                             "bracket closes too early; move `+ %s` inside it",
                             q, term, read_text, qs, term);
        s->cause_fixed_there = 1;
        free(q);
        free(qs);
    }
    /* a return before the launch, under a test, where the failing
     * datasets' runs launched nothing (and some other dataset's did) */
    int unlaunched = 0, launched = 0, test_at = 0, launch_at = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status == ST_WRONG && !launch_of(d))
            unlaunched++;
        launched |= launch_of(d) != NULL;
    }
    line = failed && !s->cause && unlaunched && launched
               ? source_return_before_launch(file, &test_at, &launch_at)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qtl = test_at != line ? sanitize_quote(file, test_at) : NULL;
        char *qt = qtl ? xasprintf("the test at %s", qtl) : xstrdup("its test");
        free(qtl);
        s->cause = xasprintf("%s leaves the function before the launch at line %d where %s holds: the "
                             "datasets that fail launched no kernel (the kit's record of their runs has none), so "
                             "their output was never computed; take the test and its return out",
                             q, launch_at, qt);
        s->cause_fixed_there = 1;
        free(q);
        free(qt);
    }
    /* a count kept in a bool: 1 for every count from 1 on */
    int count_use = 0;
    line = failed && !s->cause ? source_bool_holding_count(file, name, sizeof name, &count_use) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s declares %s bool, which holds only 0 or 1, and line %d uses it as a count: every "
                             "count from 1 on becomes 1; declare it int",
                             q, name, count_use);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `int row_i = row_o - MASK_WIDTH / 2.0;`: a fraction truncated */
    char frac[64];
    double fraction = 0;
    char *lab_h = xasprintf("%s/lab.h", m->dir);
    line = failed && !s->cause
               ? source_int_from_fraction(file, lab_h, name, sizeof name, frac, sizeof frac, &fraction)
               : 0;
    free(lab_h);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s computes the int %s with `%s`, which is %g, not a whole number: the expression is "
                             "worked out in floating point and the int keeps it truncated toward 0 (7.5 becomes 7, "
                             "-0.5 becomes 0), so %s is off by one for some threads; compute it in whole numbers "
                             "(an integer literal, or the lab's named constant)",
                             q, name, frac, fraction, name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `cudaMallocPitch(&d_in, &pitch, pitch, rows)`: a value read from the
     * variable the same call sets */
    char rcall[64], rname[64];
    line = failed && !s->cause ? source_call_reads_its_output(file, rcall, sizeof rcall, rname, sizeof rname) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the %s at %s is given %s as a value to read and &%s as where to write its result: it "
                             "reads the value %s held before the call, not the one the call sets; pass the value "
                             "meant there%s",
                             rcall, q, rname, rname, rname,
                             strcmp(rcall, "cudaMallocPitch") == 0 ? " (cudaMallocPitch's third argument is the width "
                                                                     "of a row in bytes)"
                                                                   : "");
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `by << 4 + ty`: C shifts by the sum */
    char meant[192];
    line = failed && !s->cause ? source_shift_of_sum(file, stmt, sizeof stmt, meant, sizeof meant) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s writes `%s`, which C reads as a shift by the sum after it: + and - bind more "
                             "tightly than << and >>; put the shift in brackets, `%s` (or multiply instead of "
                             "shifting)",
                             q, stmt, meant);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `TILE_WIDTH^2`: exclusive or, not a power */
    line = failed && !s->cause ? source_xor_as_power(file, stmt, sizeof stmt) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s writes `%s`, but `^` in C is exclusive or, not a power (and it binds more loosely "
                             "than + and *): write the product out (`x * x`)",
                             q, stmt);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `Width >> TILE_WIDTH`: a shift by 16 bits, not a division by 16;
     * ahead of the launch record's words on a count that came to 0 at that
     * very line (`dim3 dimGrid(..., (j + TILE_WIDTH - 1) >> TILE_WIDTH)`),
     * which say what the count came to, not why */
    char by[64];
    long bits = 0;
    line = failed ? source_shift_by_size(file, stmt, sizeof stmt, by, sizeof by, &bits) : 0;
    int cause_line = 0;
    if (line > 0 && s->cause)
        lines_named(s->cause, &cause_line, 0, 1);
    if (line > 0 && (!s->cause || cause_line == line)) {
        char *q = sanitize_quote(file, line);
        free(s->cause);
        int right = strstr(stmt, ">>") != NULL;
        s->cause = xasprintf("%s writes `%s`, a shift by %s = %ld bits: it %s by 2 to the power %ld, not by %ld; "
                             "%s by %s with `%s`",
                             q, stmt, by, bits, right ? "divides" : "multiplies", bits, bits,
                             right ? "divide" : "multiply", by, right ? "/" : "*");
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a kernel's parameters in another order than the skeleton's: the
     * launch, in the skeleton's order, gives each the other's name */
    char *skeleton = manifest_skeleton_path(m), kernel[64], have[256], want[256];
    line = failed && !s->cause ? source_parameters_reordered(file, skeleton, kernel, sizeof kernel, have, want,
                                                             sizeof have)
                               : 0;
    free(skeleton);
    /* a launch's arguments, each named for another's parameter */
    if (failed && !s->cause && line <= 0)
        s->cause = launch_arguments_misplaced(file, 0);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s declares %s's parameters as (%s), where the skeleton has (%s): the launch passes "
                             "its arguments in the skeleton's order, so inside the kernel each of them has another's "
                             "name; declare them in the skeleton's order",
                             q, kernel, have, want);
        s->cause_fixed_there = 1; /* a launch reordered to match would make the kernel wrong against the lab */
        free(q);
    }
    /* a number passed where the host has the value's variable */
    char lit[64], lparam[64];
    line = failed && !s->cause
               ? source_launch_literal_for_name(file, kernel, sizeof kernel, lit, sizeof lit, lparam, sizeof lparam)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the launch at %s passes %s for %s's parameter %s, where this function has %s itself: "
                             "the kernel computes with %s = %s for every input; pass %s",
                             q, lit, kernel, lparam, lparam, lparam, lit, lparam);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `(k + TILE_WIDTH - 1) / k`: a round-up by one size divided by another */
    char rby[64], rdiv[64];
    int divisor_wrong = -1;
    char *lab_header = xasprintf("%s/lab.h", m->dir);
    line = failed && !s->cause
               ? source_round_up_mismatch(file, lab_header, rby, sizeof rby, rdiv, sizeof rdiv, &divisor_wrong)
               : 0;
    free(lab_header);
    if (line > 0 && divisor_wrong >= 0) {
        char *q = sanitize_quote(file, line);
        const char *size = divisor_wrong ? rby : rdiv;
        s->cause = xasprintf("%s rounds up by %s (`+ %s - 1`) but divides by %s: a count of whole %s's, rounded up, "
                             "is `(... + %s - 1) / %s`; %s %s",
                             q, rby, rby, rdiv, size, size, size, divisor_wrong ? "divide by" : "round up by", size);
        s->cause_fixed_there = s->cause_says_the_edit = 1;
        free(q);
    }
    /* the entry point's output, never copied back into */
    char out_name[64];
    int out_launch = 0;
    line = failed && !s->cause ? source_output_never_filled(file, out_name, sizeof out_name, &out_launch) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("no call of the file copies the result into %s, the output (%s): the kernel launched at "
                             "line %d writes its device buffer, and nothing brings that back, so the caller reads %s "
                             "as it was; after the launch, copy the device result into %s (a cudaMemcpy, or a "
                             "cudaMemcpy2D for a pitched buffer, with cudaMemcpyDeviceToHost)",
                             out_name, q, out_launch, out_name, out_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* the output's value cast to an integer at its store */
    char cast_type[16];
    line = failed && !s->cause ? source_store_cast_to_integer(file, cast_type, sizeof cast_type) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s casts the value it stores to %s: the output is float, and the cast cuts each value "
                             "toward 0 to a whole number before it is stored, so every fraction is lost; store the "
                             "value as it is, without the cast",
                             q, cast_type);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a tile's ghost test on one flat value of both coordinates */
    char flat[128], flat_bound[128];
    line = failed && !s->cause ? source_flat_ghost_test(file, flat, sizeof flat, flat_bound, sizeof flat_bound) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the test at %s bounds one value made of both coordinates, `%s`, by the whole count, "
                             "`%s`: it keeps that value inside, not each coordinate, so a halo element left or right "
                             "of the data in a row inside it (its column below 0 or past the row's end) passes, and "
                             "the load takes the neighbouring row's element where 0 belongs; test each coordinate "
                             "against its own bounds",
                             q, flat, flat_bound);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a size #defined to a number that divides exactly the passing
     * datasets' sizes: whole tiles (or blocks) of it cover those alone */
    if (failed && !s->cause)
        size_divides_passing(file, s);
    /* a kernel's local declared `static`, not `__shared__`: one variable of
     * the whole grid's, which every block's threads store into at once */
    char slocal[64];
    line = !s->cause ? source_kernel_static_local(file, slocal, sizeof slocal) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        /* an array is a tile meant for the block; a scalar (a sum) is a
         * value of each thread's own, which __shared__ would not give */
        const char *at = strstr(q, slocal);
        int array = at && at[strlen(slocal) + strspn(at + strlen(slocal), " ")] == '[';
        if (array)
            s->cause = xasprintf("%s declares %s `static`, not `__shared__`: a static local of a kernel is one "
                                 "variable in global memory for the whole grid, not a block's tile, so the threads of "
                                 "every block store into the same elements at once (a race between blocks, which a "
                                 "__syncthreads() does not order); declare it `__shared__`",
                                 q, slocal);
        else
            s->cause = xasprintf("%s declares %s `static`: a static local of a kernel is one variable in global "
                                 "memory for the whole grid, so every thread of every block works on the same %s at "
                                 "once (a race no barrier orders), and its initialiser runs once, not per thread; a "
                                 "value of each thread's own is a plain local: drop `static` (not `__shared__`, "
                                 "which would make it one variable for each block's threads)",
                                 q, slocal, slocal);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a phase count divided by another size than a phase steps by */
    char pdiv[128], pstep[64];
    int ploop = 0;
    line = failed && !s->cause ? source_phase_count_divisor(file, pdiv, sizeof pdiv, pstep, sizeof pstep, &ploop) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s divides by `%s`, but each phase of the loop at line %d covers %s (its body steps by "
                             "the phase times %s): the count is in other units than the phases; divide by %s (and "
                             "round up by %s - 1)",
                             q, pdiv, ploop, pstep, pstep, pstep, pstep);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a symbol copy that does not fit the symbol: its declaration is too
     * small (the emulator's "cudaMemcpyToSymbol(Mc, 100 bytes at offset 0):
     * the symbol has 16 bytes", the kit's own words, in the run's message) */
    for (int i = 0; i < s->ndatasets && failed && !s->cause; i++) {
        const char *msg = s->datasets[i].message;
        char sym[64];
        size_t count = 0, offset = 0, has = 0;
        int parsed = 0;
        for (const char *at = msg ? strstr(msg, "cudaMemcpyToSymbol(") : NULL; at && !parsed;
             at = strstr(at + 1, "cudaMemcpyToSymbol("))
            parsed = sscanf(at, "cudaMemcpyToSymbol(%63[A-Za-z0-9_], %zu bytes at offset %zu): the symbol has %zu bytes",
                            sym, &count, &offset, &has) == 4;
        if (!parsed || count + offset <= has)
            continue;
        int decl = source_declaration_of(file, sym, NULL);
        if (decl <= 0)
            continue;
        /* the copy alone fits: its offset is what takes it past the end,
         * and an offset written as a copy's kind (`cudaMemcpyToSymbol(Mc,
         * mask, size, cudaMemcpyHostToDevice)`) is the arguments' order */
        char size_arg[96], fourth[96];
        int copy = offset > 0 && count <= has ? source_symbol_copy_line(file, sym, size_arg, sizeof size_arg) : 0;
        if (copy > 0 && source_call_argument(file, copy, "cudaMemcpyToSymbol", 3, fourth, sizeof fourth) &&
            !strncmp(fourth, "cudaMemcpy", 10)) {
            char *qc = sanitize_quote(file, copy);
            s->cause = xasprintf("%s gives cudaMemcpyToSymbol `%s` as its fourth argument, which is the offset in "
                                 "bytes into %s (the copy's kind comes fifth): its value, %zu, starts the copy %zu "
                                 "byte%s in, and %zu bytes from there do not fit %s's %zu, so the runtime refuses "
                                 "it; leave the fourth argument out (its default is 0, and the kind's is "
                                 "cudaMemcpyHostToDevice), or write 0 before the kind",
                                 qc, fourth, sym, offset, offset, offset == 1 ? "" : "s", count, sym, has);
            s->cause_fixed_there = 1;
            free(qc);
            continue;
        }
        /* the count made of another type's size than the symbol's
         * elements (`sizeof(double)` for a float array): the count is
         * the mistake, not the declaration */
        char used[32], declared[32];
        copy = source_symbol_copy_line(file, sym, size_arg, sizeof size_arg);
        if (copy > 0 && source_sizeof_other_type(file, copy, decl, sym, used, sizeof used, declared, sizeof declared)) {
            char *qc = sanitize_quote(file, copy);
            s->cause = xasprintf("%s counts its bytes with sizeof(%s), but %s's elements are %s (its declaration at "
                                 "line %d): the count comes to %zu bytes where %s has %zu, so the runtime refuses the "
                                 "copy and %s keeps nothing of the data; count with sizeof(%s)",
                                 qc, used, sym, declared, decl, count, sym, has, sym, declared);
            s->cause_fixed_there = 1;
            free(qc);
            continue;
        }
        /* the declaration as the skeleton has it: the count is what is wrong */
        char *skeleton = manifest_skeleton_path(m);
        int as_given = copy > 0 && skeleton && source_line_also_in(file, decl, skeleton);
        free(skeleton);
        if (as_given && count > has) {
            char *qc = sanitize_quote(file, copy), *qd = sanitize_quote(file, decl);
            s->cause = xasprintf("%s copies %zu bytes (`%s`) into %s, which %s declares with %zu bytes, as the skeleton "
                                 "does: the count is more than %s holds (and more than the data it copies), so the "
                                 "runtime refuses the copy; count %s's own bytes (`sizeof(%s)`)",
                                 qc, count, size_arg, sym, qd, has, sym, sym, sym);
            s->cause_fixed_there = 1;
            free(qc);
            free(qd);
            continue;
        }
        char *q = sanitize_quote(file, decl);
        /* what it holds, in floats, and as a square where it is one (a
         * mask's width by its width) */
        size_t floats = count / sizeof(float), side = 0;
        while ((side + 1) * (side + 1) <= floats)
            side++;
        char *shape = count % sizeof(float) || offset ? xstrdup("")
                      : side > 1 && side * side == floats ? xasprintf(" (%zu bytes: %zu floats, %zu x %zu)", count,
                                                                      floats, side, side)
                                                          : xasprintf(" (%zu bytes: %zu floats)", count, floats);
        s->cause = xasprintf("%s declares %s with %zu bytes, and the cudaMemcpyToSymbol copies %zu bytes into it%s: the "
                             "copy does not fit, the runtime refuses it, and the kernel's reads of %s past its %zu "
                             "bytes would miss too; declare %s as large as what it holds%s",
                             q, sym, has, count, offset ? " (after an offset)" : "", sym, has, sym, shape);
        free(shape);
        s->cause_fixed_there = s->cause_blames_declaration = 1;
        free(q);
    }
    /* a store of one element per pass kept to one pass by its test
     * (`if (... && k == in.channels - 1) out.data[... + k] = acc;`) */
    char pass_term[160], pass_counter[64];
    int pass_loop = 0, pass_store = 0;
    line = failed && !s->cause ? source_store_in_one_pass(file, pass_term, sizeof pass_term, pass_counter,
                                                          sizeof pass_counter, &pass_loop, &pass_store)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the test at %s lets the store at line %d run only where `%s`, in one pass of the loop "
                             "at line %d over %s, and that store's index reads %s, so each pass stores its own "
                             "elements: the other passes' elements are never stored; take `%s` out of the test",
                             q, pass_store, pass_term, pass_loop, pass_counter, pass_counter, pass_term);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `if (ph == n)` inside `for (ph = 0; ph < n; ...)`: never holds (after the
     * one-pass reading: a store whose index reads the counter is one pass's) */
    char at_term[128], at_counter[48], at_bound[128];
    int at_loop = 0, at_guarded = 0;
    line = failed && !s->cause ? source_test_at_loop_bound(file, at_term, sizeof at_term, at_counter,
                                                           sizeof at_counter, at_bound, sizeof at_bound, &at_loop,
                                                           &at_guarded)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the test at %s holds only where `%s`, but the loop at line %d runs only while %s < %s: "
                             "inside it %s never reaches %s, so what the test guards (line %d) never runs; test the "
                             "loop's last pass, %s == %s - 1, or move the guarded statement after the loop's closing "
                             "brace, without the test",
                             q, at_term, at_loop, at_counter, at_bound, at_counter, at_bound, at_guarded, at_counter,
                             at_bound);
        s->cause_fixed_there = s->cause_says_the_edit = 1;
        free(q);
    }
    /* `destY = dest / w; ... dest = ...;`: set after the lines that read it */
    char late_name[64];
    int late_reads[4], nlate = 0;
    line = failed && !s->cause ? source_assignment_too_late(file, late_name, sizeof late_name, late_reads, 4, &nlate)
                               : 0;
    if (line > 0 && nlate > 0) {
        char *q = sanitize_quote(file, line);
        strbuf at = { 0 };
        for (int i = 0; i < nlate; i++)
            sb_printf(&at, "%s%d", i == 0 ? "" : i == nlate - 1 ? " and " : ", ", late_reads[i]);
        s->cause = xasprintf("%s sets %s, and nothing reads that value: line%s %s, above it, read%s %s before it is "
                             "set, so %s the value it had before; set %s before line %d",
                             q, late_name, nlate > 1 ? "s" : "", at.buf, nlate > 1 ? "" : "s", late_name,
                             nlate > 1 ? "they use" : "it uses", late_name, late_reads[0]);
        s->cause_fixed_there = 1;
        free(at.buf);
        free(q);
    }
    /* `ds_M[ty][i + 1] * ds_N[i][tx]`: one product's factors a step apart */
    char apart_term[160], apart_a[64], apart_b[64], apart_counter[32];
    long apart_ao = 0, apart_bo = 0;
    line = failed && !s->cause ? source_product_steps_apart(file, apart_term, sizeof apart_term, apart_a,
                                                            sizeof apart_a, apart_b, sizeof apart_b, &apart_ao,
                                                            &apart_bo, apart_counter, sizeof apart_counter)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        char at_a[48], at_b[48];
        snprintf(at_a, sizeof at_a, apart_ao ? "%s %c %ld" : "%s", apart_counter, apart_ao < 0 ? '-' : '+',
                 apart_ao < 0 ? -apart_ao : apart_ao);
        snprintf(at_b, sizeof at_b, apart_bo ? "%s %c %ld" : "%s", apart_counter, apart_bo < 0 ? '-' : '+',
                 apart_bo < 0 ? -apart_bo : apart_bo);
        s->cause = xasprintf("the term `%s` at %s multiplies %s's element %s by %s's element %s: the two factors of "
                             "one product of the sum step together along it (the same %s in both), so one of them "
                             "reads the wrong element; give both the same offset of %s",
                             apart_term, q, apart_a, at_a, apart_b, at_b, apart_counter, apart_counter);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `if (Mc[i][j] > 0.0f) acc += Mc[i][j] * ...`: terms left out by value */
    char term_test[160], term_read[96];
    line = failed && !s->cause ? source_sum_term_tested(file, term_test, sizeof term_test, term_read,
                                                        sizeof term_read)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the test at %s adds a term to the sum only where `%s`: the terms whose %s fails it "
                             "are left out, where the sum needs every term whatever its value; take the test out",
                             q, term_test, term_read);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `ph < TILE_WIDTH / Width`: a defined size divided by a variable */
    char over_const[64], over_size[64];
    long over_value = 0;
    char *over_header = xasprintf("%s/lab.h", m->dir);
    line = failed && !s->cause ? source_constant_over_size(file, over_header, over_const, sizeof over_const, over_size,
                                                           sizeof over_size, &over_value)
                               : 0;
    free(over_header);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s divides %s (%ld) by %s, the wrong way round: in integer arithmetic that is 0 "
                             "whenever %s is more than %ld, so whatever counts with it (phases, tiles, blocks) "
                             "counts none; write %s / %s (rounded up, (%s + %s - 1) / %s, where %s need not be a "
                             "multiple of %s)",
                             q, over_const, over_value, over_size, over_size, over_value, over_size, over_const,
                             over_size, over_const, over_const, over_size, over_const);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `while (Row < Width && Col < Width)` for an if */
    char wtest[160];
    line = failed && !s->cause ? source_while_never_changes(file, wtest, sizeof wtest) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the loop at %s repeats while `%s` holds, and its body changes nothing that test reads: "
                             "once it holds, it holds for ever, so the threads that enter never leave; where a test "
                             "was meant, write `if`",
                             q, wtest);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `for (int ph = 0; ph < n; )`: a loop whose header has no step */
    char fcounter[64];
    line = failed && !s->cause ? source_for_never_steps(file, fcounter, sizeof fcounter) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the loop at %s has no step after its second `;`, and its body changes nothing its test "
                             "reads: %s never moves on, so the loop never ends (the run's time runs out wherever its "
                             "threads wait); write the step (`++%s`) in the header",
                             q, fcounter[0] ? fcounter : "its counter", fcounter[0] ? fcounter : "i");
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `int bx = blockIdx.y`: a name of one axis for another's coordinate */
    char axis_name[16], axis_builtin[32];
    line = failed && !s->cause
               ? source_axis_name_swapped(file, axis_name, sizeof axis_name, axis_builtin, sizeof axis_builtin)
               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        /* a coordinate of an axis the launch's block (or grid) has one of:
         * 0 for every thread, not another axis's values */
        const char *dot = strrchr(axis_builtin, '.');
        int axis = dot && dot[1] >= 'x' && dot[1] <= 'z' ? dot[1] - 'x' : -1, flat = 0;
        for (int i = 0; axis >= 0 && i < s->ndatasets && !flat; i++) {
            const launch_shape *l = launch_of(&s->datasets[i]);
            if (l && l->known)
                flat = !strncmp(axis_builtin, "threadIdx", 9) ? l->block[axis] == 1
                       : !strncmp(axis_builtin, "blockIdx", 8) ? l->grid[axis] == 1
                                                               : 0;
        }
        if (flat)
            s->cause = xasprintf("%s sets %s to %s, which is 0 for every thread (the launch gives the %s 1 in %c), "
                                 "so every index built from %s stays at its first value; give %s its own axis's "
                                 "coordinate",
                                 q, axis_name, axis_builtin, !strncmp(axis_builtin, "threadIdx", 9) ? "block" : "grid",
                                 'x' + axis, axis_name, axis_name);
        else
            s->cause = xasprintf("%s sets %s to %s: the name says one axis and the coordinate is another's, so every "
                                 "index built from %s runs along the other axis of the grid; give %s its own axis's "
                                 "coordinate",
                                 q, axis_name, axis_builtin, axis_name, axis_name);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* `ds_N[ty][tx] += N[...]`, and no plain store of ds_N */
    char added[64];
    line = failed && !s->cause ? source_shared_added_never_stored(file, added, sizeof added) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s adds into %s (a compound `op=`), and no line stores %s with a plain `=`: shared "
                             "memory starts with whatever it held (NaN, here), and each pass adds to what the last "
                             "left; store the value with `=`",
                             q, added, added);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a loop's bound set only after the loop */
    int bound_loop = 0;
    line = failed && !s->cause ? source_bound_set_after_loop(file, name, sizeof name, &bound_loop) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *ql = sanitize_quote(file, bound_loop);
        s->cause = xasprintf("%s sets %s after the loop at %s, whose test reads it: the loop runs with the value %s "
                             "was declared with, and the value set later comes too late; move that line before the "
                             "loop",
                             q, name, ql, name);
        s->cause_fixed_there = 1;
        free(q);
        free(ql);
    }
    /* `for (...; ++k, ++M)` where the body reads M[Row * Width + k] */
    int indexed = 0;
    line = failed && !s->cause ? source_pointer_parameter_stepped(file, name, sizeof name, &indexed) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s steps %s, a pointer the kernel was given, while line %d indexes %s as well: every "
                             "step moves where each later index starts, so the reads land further on than the index "
                             "says (the step and the index count the same thing twice); leave the pointer where the "
                             "launch put it and let the index do the counting",
                             q, name, indexed, name);
        s->cause_fixed_there = 1;
        free(q);
    }
    int counter = failed && !s->cause ? source_parameter_assigned(file, name, sizeof name, &read) : 0;
    if (counter > 0) {
        char *q = sanitize_quote(file, counter);
        s->cause = xasprintf("the loop at %s counts with %s, a parameter of the kernel: the loop overwrites the "
                             "value the launch passed, so line %d reads the loop's count instead of it%s; give the "
                             "loop a variable of its own (`for (int i = 0; ...`)",
                             q, name, read, read < counter ? " from the next pass of the loop around them on" : "");
        free(q);
    }
    /* a loop's bound that only some threads set: the others' own copy
     * keeps its first value (the divergent barrier in that loop follows) */
    int set = 0, test = 0;
    int bound = failed && !s->cause ? source_bound_set_by_some_threads(file, name, sizeof name, &set, &test) : 0;
    if (bound > 0) {
        char *q = sanitize_quote(file, test);
        s->cause = xasprintf("%s is each thread's own variable, and only the threads that pass the test at %s set it "
                             "(line %d): every other thread keeps the value it started with, so the loop at line %d "
                             "runs a different number of times in them, and their barriers are not the others'; set "
                             "it in every thread (drop the test), or declare it __shared__ and add a "
                             "__syncthreads() after the test",
                             name, q, set, bound);
        s->cause_fixed_there = 1; /* an edit of the loop would only make up for it */
        free(q);
    }
    line = failed && !s->cause ? source_copy_of_pointer_address(file, call, sizeof call, name, sizeof name,
                                                                    &from, &decl)
                                   : 0;
    if (line > 0) {
        /* a copy, at a line of the student's: ahead of what follows from it */
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the %s at %s copies %s &%s, the address of the pointer %s (declared at line %d), "
                             "not the data it points to: it %s the pointer's own bytes and whatever lies after "
                             "them in host memory: pass %s",
                             call, q, from ? "from" : "into", name, name, decl,
                             from ? "reads" : "overwrites", name);
        free(q);
    }
    line = failed && !s->cause ? source_sizeof_pointer(file, call, sizeof call, name, sizeof name, &decl) : 0;
    if (line > 0) {
        /* the size of the pointer, not of what it points to */
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the %s at %s is given sizeof(%s), but %s is a pointer (declared at line %d): that is the "
                             "pointer's own %zu bytes, not the size of the data: give it the number of elements times "
                             "sizeof(float) (or the type the data is)",
                             call, q, name, name, decl, sizeof(void *));
        free(q);
    }
    char member[64];
    line = failed && !s->cause ? source_copy_of_struct(file, call, sizeof call, name, sizeof name, member,
                                                       sizeof member, &from)
                               : 0;
    if (line > 0) {
        /* `in` for `in->data`: the struct's own bytes, then whatever follows it */
        char *q = sanitize_quote(file, line);
        char *pass = member[0] ? xasprintf("%s->%s", name, member) : xasprintf("the member of %s that points to the "
                                                                            "data", name);
        s->cause = xasprintf("the %s at %s copies %s `%s`, which points to a struct (the file uses `%s->...`), not "
                             "to the data: it %s the struct's own bytes and whatever lies after them in host memory: "
                             "pass %s",
                             call, q, from ? "from" : "into", name, name, from ? "reads" : "overwrites", pass);
        free(pass);
        free(q);
    }
    char header[160];
    line = failed ? source_integer_ceil(file, header, sizeof header) : 0;
    if (line > 0) {
        /* where a grid too small was computed: ahead of the launch's
         * record, which says what it did (a grid of 0 x 0 blocks) */
        char *q = sanitize_quote(file, line);
        char *then = s->cause ? xasprintf(" (%s)", s->cause) : xstrdup("");
        char *cause = xasprintf("%s takes ceil(%s), but both sides of that `/` are integers: the division rounds "
                                "down before ceil sees it, so ceil rounds nothing up: divide in integers rounding up, "
                                "(a + b - 1) / b, or make one side a float%s",
                                q, header, then);
        free(s->cause);
        s->cause = cause;
        free(then);
        free(q);
    }
    source_macro_use macro;
    line = failed ? source_macro_regrouped(file, &macro) : 0;
    if (line > 0) {
        /* a value pasted as text, regrouped where it is used: what made the
         * grid or the loop's count wrong, ahead of the launch's record */
        char *q = sanitize_quote(file, line);
        char *then = s->cause ? xasprintf(" (%s)", s->cause) : xstrdup("");
        char *grouped = macro.grouped[0] ? xasprintf(", that is %s", macro.grouped) : xstrdup("");
        char *other = macro.other_line ? xasprintf(" (and so at line %d)", macro.other_line) : xstrdup("");
        char *cause = xasprintf("the #define at %s has no parentheses around its value: the preprocessor pastes the "
                                "text, so `%s` at line %d reads as `%s`%s%s: write `#define %s (%s)` (or the value "
                                "itself)%s",
                                q, macro.use, macro.use_line, macro.pasted, grouped, other, macro.name, macro.body,
                                then);
        free(s->cause);
        s->cause = cause;
        free(other);
        free(grouped);
        free(then);
        free(q);
    }
    source_macro_arg marg;
    line = failed && !s->cause ? source_macro_argument_regrouped(file, &marg) : 0;
    if (line > 0) {
        /* an argument pasted without parentheses, regrouped in the body */
        char *q = sanitize_quote(file, line);
        if (marg.whole)
            s->cause = xasprintf("the macro %s at %s has no parentheses around its body, which the preprocessor "
                                 "pastes as text: `%s` at line %d reads as `%s`, so the operator beside the use "
                                 "takes only the body's first (or last) operand; put the body (and its parameters) "
                                 "in parentheses: `%s`",
                                 marg.name, q, marg.use, marg.use_line, marg.pasted, marg.fixed);
        else
            s->cause = xasprintf("the macro %s at %s pastes its argument %s as text, with no parentheses around it: "
                                 "`%s` at line %d reads as `%s`, so the operators beside %s in the body take part of "
                                 "`%s` only; put the body's parameters (and the body) in parentheses: `%s`",
                                 marg.name, q, marg.param, marg.use, marg.use_line, marg.pasted, marg.param, marg.arg,
                                 marg.fixed);
        s->cause_fixed_there = 1;
        free(q);
    }
    char kept_array[64];
    int kept_store = 0, kept_loop = 0, kept_other = 0;
    /* (only where the run's evidence says nothing: a checker's finding,
     * a tile slot or a reproduced mistake names its line better) */
    int evidence = s->tile_contents != NULL;
    for (int i = 0; i < s->ndatasets && !evidence; i++)
        evidence = (s->datasets[i].sanitizer && s->datasets[i].sanitizer->nfindings > 0) || s->datasets[i].cmp.hint_named;
    line = failed && !s->cause && !evidence ? source_load_without_else_in_loop(file, kept_array, sizeof kept_array,
                                                                               &kept_store, &kept_loop, &kept_other)
                                            : 0;
    if (line > 0) {
        /* a tile's load with no else, in a loop: where its test fails,
         * the slot keeps an earlier pass's element */
        char *qs = sanitize_quote(file, kept_store), *qt = sanitize_quote(file, line), *ql = sanitize_quote(file, kept_loop);
        char *other = kept_other ? xasprintf(" (and the load at line %d the same)", kept_other) : xstrdup("");
        s->cause = xasprintf("the load at %s stores into %s only where the test at %s holds, and the test has no "
                             "else: in a pass of the loop at %s where it fails (a tile past the edge of the data), "
                             "the slot keeps what it held before, an earlier pass's element (or nothing, in the "
                             "first), and the kernel reads that again as this pass's; give the test an else that "
                             "stores 0 into the same slot%s",
                             qs, kept_array, qt, ql, other);
        s->cause_fixed_there = 1;
        free(other);
        free(ql);
        free(qt);
        free(qs);
    }
    line = failed && !s->cause ? source_empty_body(file, header, sizeof header) : 0;
    if (line > 0) {
        /* `if (...);`: the test controls the empty statement, and what was
         * meant to be under it runs for every thread (a store past the
         * output's end, where the checkers see only the store) */
        int loop = strncmp(header, "for", 3) == 0;
        char *next = sanitize_quote(file, line + 1);
        s->cause = xasprintf("the `;` right after `%s` at line %d ends the %s there: it %s an empty statement, so "
                             "the statement after it, at %s, %s: take the `;` out",
                             header, line, loop ? "loop" : "if", loop ? "repeats" : "controls", next,
                             loop ? "runs once, after the loop, not on each pass"
                                  : "runs for every thread whatever the test says");
        free(next);
    }
    /* `fmaf(a, b, Pvalue);`: the maths library changes none of its
     * arguments, and the value it returns goes nowhere */
    line = wrong && !s->cause ? source_discarded_result(file, name, sizeof name) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("%s calls %s and throws away what it returns: %s changes none of its arguments, so "
                             "the statement does nothing; assign its value where it belongs (`x = %s(...);`)",
                             q, name, name, name);
        free(q);
    }
    /* the output stored inside the loop that adds the sum, before the
     * terms are added: each pass stores what the sum was before it, and
     * the last pass's terms never reach the output */
    int loop = 0, sum = 0, before_loop = 0;
    line = wrong && !s->cause ? source_store_before_sum(file, &loop, &sum, &before_loop) : 0;
    if (line > 0 && before_loop) {
        char *q = sanitize_quote(file, line), *ql = sanitize_quote(file, loop);
        s->cause = xasprintf("the store at %s comes before the loop at %s, whose sum at line %d adds the terms: it "
                             "stores the sum before any term is added, and nothing stores it after; move the store "
                             "after the loop's closing brace",
                             q, ql, sum);
        s->cause_fixed_there = 1;
        free(q);
        free(ql);
    } else if (line > 0) {
        char *q = sanitize_quote(file, line), *ql = sanitize_quote(file, loop);
        s->cause = xasprintf("the store at %s is inside the loop at %s and comes before the sum at line %d in it: "
                             "each pass stores the sum as it was before that pass's terms, so the output misses the "
                             "last pass's terms; move the store after the loop's closing brace",
                             q, ql, sum);
        s->cause_fixed_there = 1; /* an extra pass of the loop would only make up for it */
        free(q);
        free(ql);
    }
    /* `out.data[row_o * out.pitch + col_o * out.channels] = acc;` in the loop over k */
    char miss_counter[64];
    int miss_loop = 0, miss_read = 0;
    line = failed && !s->cause ? source_store_misses_counter(file, miss_counter, sizeof miss_counter, &miss_loop,
                                                             &miss_read)
                               : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the store at %s is inside the loop at line %d over %s, and its index does not read %s: "
                             "every pass stores to the same elements, so the last pass's values stay there and the "
                             "elements of the other passes are never stored; put %s in the store's index, as the "
                             "read at line %d has it",
                             q, miss_loop, miss_counter, miss_counter, miss_counter, miss_read);
        s->cause_fixed_there = 1;
        free(q);
    }
    /* a tile read in the sum whose subscripts no thread coordinate reaches:
     * every thread of a block adds the same terms */
    int sum_at = wrong && !s->cause ? source_sum_line(file) : 0;
    char sum_read[96];
    int every = 0;
    line = sum_at > 0 ? source_sum_read_thread_free(file, sum_at, sum_read, sizeof sum_read, &every) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->cause = xasprintf("the sum at %s reads %s, whose subscripts vary with no thread coordinate: every thread "
                             "of a block reads the same elements there%s; add the thread's place in the tile "
                             "(threadIdx, or the locals made from it) to those subscripts",
                             q, sum_read, every ? ", so each block's outputs all get one value" : "");
        free(q);
    }
    /* a count of elements added to a byte address: the host made the
     * stride elements, the kernel steps bytes by it */
    int set_at = 0;
    char unit[32];
    line = wrong && !s->cause ? source_byte_step_in_elements(file, name, sizeof name, &set_at, unit, sizeof unit) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line), *qs = sanitize_quote(file, set_at);
        s->cause = xasprintf("%s adds a multiple of %s to a char * (a step in bytes), but %s makes it a count of "
                             "%ss (bytes / sizeof(%s)): each row is stepped 1/sizeof(%s) of its pitch; index the "
                             "%s * itself by it, without the char * cast (or keep the cast and step by the pitch "
                             "in bytes)",
                             q, name, qs, unit, unit, unit, unit);
        s->cause_fixed_there = 1; /* the host's count made bytes would only suit this one line */
        free(q);
        free(qs);
    }
    int slip = 0, scaled = 0;
    char fix[160];
    line = failed && !s->cause ? source_statement_slip(file, &slip, header, sizeof header, name, sizeof name, fix,
                                                       sizeof fix, &scaled)
                               : 0;
    if (line > 0 && slip == SLIP_STEP_SCALED) {
        char *q = sanitize_quote(file, line), *qs = sanitize_quote(file, scaled);
        /* a bound that counts steps of that size (numPhases, in tiles):
         * stepping by 1 is the one fix; a bound in elements takes either */
        char counter[64], bound[128];
        int counts = source_enclosing_loop(file, line + 1, counter, bound, sizeof bound) == line &&
                     !strcmp(counter, name) && source_count_of(file, line, bound, header);
        s->cause = xasprintf("the loop at %s steps %s by %s (%s = 0, %s, 2 x %s, ...), and %s multiplies %s by %s "
                             "again: each pass goes %s times too far; step %s by 1 (%s++)%s",
                             q, name, header, name, header, header, qs, name, header, header, name, name,
                             counts ? ", as its bound counts passes, not elements" : " or use it unscaled");
        free(q);
        free(qs);
    }
    if (line > 0 && slip == SLIP_LOOP_STEP && source_for_steps_another(file, line, own, step, sizeof own))
        /* its own counter, named: the one to step */
        s->cause = xasprintf("the loop at line %d (`%s`) steps %s, which its test does not read, and not its own "
                             "counter %s: %s never changes from one pass to the next, so the loop never ends or never "
                             "runs as meant (and %s moves each pass); step %s there (`++%s`)",
                             line, header, name, own, own, name, own, own);
    else if (line > 0 && slip == SLIP_LOOP_STEP)
        s->cause = xasprintf("the loop at line %d (`%s`) steps %s, which its test does not read: what the test reads "
                             "never changes from one pass to the next, so the loop never ends or never runs as "
                             "meant: step the variable the test compares",
                             line, header, name);
    else if (line > 0 && slip == SLIP_ASSIGN_TEST)
        s->cause = xasprintf("the test at line %d (`%s`) assigns with `=` where a comparison belongs (`==`): it "
                             "stores the value and then tests it, true whenever it is not 0",
                             line, header);
    else if (line > 0 && slip == SLIP_COMMA_TEST)
        s->cause = xasprintf("the test at line %d (`%s`) joins its conditions with a comma: the comma operator "
                             "works out `%s`, throws its value away and tests only what follows the comma, so "
                             "`%s` no longer holds any thread back: join the conditions with `&&`",
                             line, header, name, name);
    else if (line > 0 && slip == SLIP_BARE_CLAUSE)
        s->cause = xasprintf("the test at line %d (`%s`) tests %s alone: a number alone in a test only asks whether "
                             "it is not 0, so %s is never compared with its bound and the test lets through every "
                             "thread whose %s is past it (and keeps out those where it is 0): write `%s`",
                             line, header, name, name, name, fix);
    else if (line > 0 && slip == SLIP_BITWISE_CLAUSE)
        s->cause = xasprintf("the test at line %d (`%s`) compares `%s`, a bitwise OR of the two indices, with the "
                             "bound: the OR mixes their bits and can reach the bound when both are inside (16 | 1 "
                             "is 17), so threads whose element exists do nothing; compare each index with its "
                             "bound: `%s`",
                             line, header, name, fix);
    else if (line > 0 && slip == SLIP_CHAINED_TEST)
        s->cause = xasprintf("the test at line %d (`%s`) chains two comparisons, `%s`: C works out the first one, "
                             "a 0 or a 1, and compares that with what follows, so the clause holds for values far "
                             "outside its range (as a bounds test it holds for every one once the bound is above "
                             "1): write `%s`",
                             line, header, name, fix);
    if (!wrong)
        return;
    if (padding_filled(file, s))
        return;
    /* a symbol of another element type than what is copied into it */
    char sym[64], sym_type[32], src[64], src_type[32];
    int copy_at = 0;
    line = source_symbol_element_type_mismatch(file, sym, sizeof sym, sym_type, src, sizeof src, src_type,
                                               sizeof src_type, &copy_at);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->source_cause = xasprintf("%s declares %s of `%s`, but the cudaMemcpyToSymbol at line %d copies %s into "
                                    "it, and %s holds `%s`s: the copy moves bytes, not values, so each element of "
                                    "%s is a %s's bits read as `%s`: declare %s of `%s`",
                                    q, sym, sym_type, copy_at, src, src, src_type, sym, src_type, sym_type, sym,
                                    src_type);
        free(q);
        return;
    }
    /* `Pvalue *= M[...] * N[...]` from `Pvalue = 0`: every output 0 */
    int zero_at = 0;
    line = source_product_from_zero(file, name, sizeof name, &zero_at);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->source_cause = xasprintf("%s multiplies %s by each term (`*=`), and %s starts at 0 (line %d): a product "
                                    "that starts at 0 stays 0, so every value it gives is 0: add each term to it "
                                    "(`+=`)",
                                    q, name, name, zero_at);
        free(q);
        return;
    }
    line = source_accumulator_unset(file, name, sizeof name);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->source_cause = xasprintf("%s declares the accumulator %s without an initial value, and nothing "
                                    "sets it before the sum adds to it at line %d: each sum starts from whatever "
                                    "%s held (a different garbage value per thread, or 0 by chance), so the "
                                    "output is off by it: start %s at 0 where it is declared",
                                    q, name, source_sum_line(file), name, name);
        free(q);
        return;
    }
    int outer = 0, use = 0;
    line = source_shadowed_declaration(file, name, sizeof name, &outer, &use);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->source_cause = xasprintf("%s declares %s again, inside a block of the kernel, hiding the %s declared "
                                    "at line %d: what that block does to %s goes to its own %s, which is gone "
                                    "when the block ends, and line %d uses the outer one, which it never "
                                    "touched: drop the declaration at line %d (keep one %s, declared at line %d)",
                                    q, name, name, outer, name, name, use, line, name, outer);
        free(q);
        return;
    }
    line = source_private_tile(file, name, sizeof name);
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        s->source_cause = xasprintf("%s declares %s without __shared__: it is an array of each thread's own, "
                                    "yet the kernel stores into it before a __syncthreads() and reads it after "
                                    "at other threads' positions, so each thread sees only the slots it stored "
                                    "itself and garbage in the rest: declare it __shared__ (one tile for the "
                                    "block)", q, name);
        free(q);
    }
}

/* Whether d's run (the harness's guard past the output), or the checkers
 * on it, found an access past an array's end. */
static int went_past_an_end(const dataset_result *d)
{
    if (d->status == ST_CUDA_ERROR && d->message && strstr(d->message, "past the end"))
        return 1;
    for (int k = 0; d->sanitizer && k < d->sanitizer->nfindings; k++)
        if (!strcmp(d->sanitizer->findings[k].kind, "out-of-bounds"))
            return 1;
    return 0;
}

/* The guard's record of a buffer that the kernel wrote past, and that the
 * program's own copy out of reads farther than the buffer holds (guard.c's
 * report_too_small): the cudaMalloc was given too few bytes. That is the
 * cause, said at the allocation's line; the bounds test the checkers name
 * let through a write that stays within the buffer the program uses. */
static void allocation_too_small_leads(const char *file, submission_result *s)
{
    for (int i = 0; i < s->ndatasets && !s->cause; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status != ST_CUDA_ERROR || !d->message || !strstr(d->message, "the buffer is smaller than the program uses it"))
            continue;
        const char *rest = NULL, *m = d->message;
        size_t size = 0, copied = 0;
        const char *sz = strstr(m, "past the end of the ");
        int made = location_after(m, "-byte buffer allocated at ", NULL, 0, &rest);
        int copy = made ? location_after(rest, "the copy at ", NULL, 0, &rest) : 0;
        if (!made || !copy || !sz || sscanf(sz, "past the end of the %zu-byte", &size) != 1 ||
            sscanf(strchr(rest, ' ') ? strchr(rest, ' ') : "", " reads %zu bytes", &copied) != 1)
            continue;
        char *q = sanitize_quote(file, made);
        /* sizeof of a pointer: the 8 bytes of the address, not the buffer */
        int of_pointer = size == sizeof(void *) && strstr(q, "sizeof");
        s->cause = xasprintf("%s allocates %zu bytes, but the copy at line %d reads %zu bytes out of that buffer, and "
                             "the kernel writes past its end within them: the allocation is too small, not an index "
                             "too large%s; give that allocation the buffer's whole size (%zu bytes on %s)",
                             q, size, copy, copied,
                             of_pointer ? " (8 bytes is what sizeof gives for a pointer, the address, not for what it "
                                          "points to)"
                                        : "",
                             copied, d->name);
        s->cause_fixed_there = 1;
        free(q);
    }
}

/* A run that died of host code touching device memory (the emulator's
 * seal, the kit's own evidence: run.c's crash message) names the host's
 * line and the buffer: that is the cause, said as the crash said it, and a
 * repair at that line (`free(M)` for `free(d_M)`, which frees the caller's
 * input instead) is no edit to offer. */
/* A store into global memory that races with itself, where a name of its
 * index reads the thread's coordinate along an axis and yet, computed from
 * the source for the launch the kit saw, keeps one value along it in a
 * block (`blockIdx.y * (blockDim.y + threadIdx.y)`, 0 in the first row of
 * blocks): that name's assignment is the cause, the race its symptom; the
 * finding says so first. */
static void collapsed_index_leads(const lab_manifest *m, const char *file, submission_result *s)
{
    char *header = xasprintf("%s/lab.h", m->dir);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        const launch_shape *l = launch_of(d);
        for (int k = 0; l && d->sanitizer && k < d->sanitizer->nfindings; k++) {
            finding *f = &d->sanitizer->findings[k];
            if (strcmp(f->kind, "race") != 0 || f->line != f->line2 || !strstr(f->message, "races with itself") ||
                !strstr(f->message, "global memory") || strcmp(path_base(f->file), path_base(file)) != 0)
                continue;
            long grid[3] = { l->grid[0], l->grid[1], l->grid[2] }, threads[3] = { l->block[0], l->block[1],
                                                                                  l->block[2] };
            long block[3] = { 0, 0, 0 }, value = 0;
            char name[64], axis = 0;
            int set = source_index_collapse(file, header, f->line, grid, threads, name, sizeof name, block, &value,
                                            &axis);
            if (set <= 0)
                continue;
            char *q = sanitize_quote(file, set);
            char *msg = xasprintf("%s, set at %s, reads threadIdx.%c, yet it is %ld for every thread of block "
                                  "(%ld, %ld) along it: threads that differ only in threadIdx.%c get one %s, and so "
                                  "store to one element (the race check saw the store at line %d race with itself): "
                                  "look at how line %d combines threadIdx.%c with the rest",
                                  name, q, axis, value, block[0], block[1], axis, name, f->line, set, axis);
            free(q);
            free(f->message);
            f->message = msg;
        }
    }
    free(header);
}

/* A race whose barrier stands after the read it was to keep after the
 * stores (sanitize.c's BARRIER_AFTER_READ_ADVICE): the barrier to move is
 * the cause, and a repair that adds one elsewhere only orders this run's
 * threads by chance (the emulator's schedule). */
static void misplaced_barrier_leads(submission_result *s)
{
    for (int i = 0; i < s->ndatasets && !s->cause; i++) {
        const sanitize_result *z = s->datasets[i].sanitizer;
        for (int k = 0; z && k < z->nfindings && !s->cause; k++)
            if (!strcmp(z->findings[k].kind, "race") && strstr(z->findings[k].message, BARRIER_AFTER_READ_ADVICE)) {
                s->cause = xstrdup(z->findings[k].message);
                s->cause_fixed_there = s->cause_says_the_edit = 1;
            }
    }
}

static void host_access_leads(submission_result *s)
{
    static const char crashed[] = "the program crashed: ", host[] = "host code at line ";
    for (int i = 0; i < s->ndatasets && !s->cause; i++) {
        const dataset_result *d = &s->datasets[i];
        const char *said = NULL;
        if (d->status == ST_CRASH && d->message && !strncmp(d->message, crashed, strlen(crashed)) &&
            !strncmp(d->message + strlen(crashed), host, strlen(host)))
            said = d->message + strlen(crashed);
        /* on a GPU, whose run only crashed: the checkers' race build's
         * finding of the same seal */
        for (int k = 0; !said && d->sanitizer && k < d->sanitizer->nfindings; k++)
            if (!strcmp(d->sanitizer->findings[k].kind, "host-access"))
                said = d->sanitizer->findings[k].message;
        if (!said)
            continue;
        s->cause = xstrdup(said);
        s->cause_fixed_there = s->cause_says_the_edit = 1;
    }
}

/* A full repair that makes up for the mistake rather than undoing it: an
 * edit of a loop's test whose bound is a name the file sets only where a
 * test holds (`if (k > TILE_WIDTH) numPhases = ...`, declared 0): `ph <=
 * numPhases`, or `ph < k`, runs the passes the name left out. Or a loop's
 * `<` made `<=` where its bound is a count that rounds down (`ph <
 * numPhases` with numPhases = k / TILE_WIDTH): the extra pass covers the
 * partial tile the count left out, and runs a pass too many where the
 * size is a multiple. The name's assignment is the cause, said at its
 * line. */
/* A symbol's declaration blamed for a copy into it that does not fit
 * (grade.c's reading of the emulator's refusal), where one edit of a
 * cudaMemcpyToSymbol's own line makes every dataset right (`sizeof(Mc)`
 * for `sizeof(Mc) * sizeof(float)`): the copy's size was wrong, not the
 * declaration, and the repair leads, the cause said after it without its
 * advice. */
static void copy_size_repaired(const char *file, submission_result *s)
{
    if (!s->cause || !s->cause_blames_declaration || !repair_strong(&s->repair) ||
        !source_line_has_word(file, s->repair.line, "cudaMemcpyToSymbol"))
        return;
    s->cause_fixed_there = 0;
}

static void repair_made_up_for(const char *file, submission_result *s)
{
    const repair_result *r = &s->repair;
    if (s->cause || !repair_strong(r))
        return;
    /* each name the edit takes out, set only under a test */
    for (const char *p = r->from; *p; p++) {
        if (!source_is_identifier_char(*p) || (p > r->from && source_is_identifier_char(p[-1])) ||
            isdigit((unsigned char)*p))
            continue;
        size_t n = 0;
        while (source_is_identifier_char(p[n]))
            n++;
        char bound[64], init[32];
        if (n >= sizeof bound)
            continue;
        snprintf(bound, sizeof bound, "%.*s", (int)n, p);
        int test = 0, under = source_set_only_under_test(file, bound, &test, init, sizeof init);
        if (under <= 0 || under == r->line)
            continue;
        /* set only where a test holds: elsewhere it keeps its first value */
        char *qs = sanitize_quote(file, under);
        char *qtest = test != under ? sanitize_quote(file, test) : NULL;
        char *qt = qtest ? xasprintf("the test at %s", qtest) : xstrdup("its test");
        free(qtest);
        s->cause = xasprintf("%s sets %s only where %s holds: elsewhere it keeps %s, the value it was declared "
                             "with, which line %d uses; set it in every case (no test); writing `%s` for `%s` at line %d "
                             "only makes up for it",
                             qs, bound, qt, init, r->line, r->to, r->from, r->line);
        s->cause_fixed_there = 1;
        free(qs);
        free(qt);
        return;
    }
    /* a local set once and read only where the edit replaces it
     * (`numPhases = gridDim.x;` read by the phase loop alone, `k` there
     * mending it): the value it was set to is what is wrong, the edit
     * only works round it */
    char once[128];
    int set = !strcmp(r->kind, "name") ? source_local_used_once(file, r->from, r->line, once, sizeof once) : 0;
    char cond[256], fixed[256];
    if (set > 0 && source_ternary_binds_sum(file, set, cond, fixed, sizeof cond)) {
        /* the value is a conditional whose condition took the whole sum */
        char *q = sanitize_quote(file, set);
        int cn = (int)strcspn(cond, "?");
        while (cn > 0 && cond[cn - 1] == ' ')
            cn--;
        s->cause = xasprintf("%s sets %s to `%s`, which C reads as `(%.*s) ?...`: `?:` binds looser than the "
                             "arithmetic before it, so the whole of it is the condition and %s is only ever the "
                             "conditional's values; put the conditional in parentheses: `%s`",
                             q, r->from, cond, cn, cond, r->from, fixed);
        s->cause_fixed_there = 1;
        free(q);
        return;
    }
    if (set > 0) {
        char *q = sanitize_quote(file, set);
        s->cause = xasprintf("%s sets %s to `%s`, and only line %d reads it: with `%s` in its place there, every "
                             "dataset comes out right, so the value line %d gives %s is what is wrong; make it "
                             "what line %d needs (`%s` at line %d only works round it)",
                             q, r->from, once, r->line, r->to, set, r->from, r->line, r->to, r->line);
        s->cause_fixed_there = 1;
        free(q);
        return;
    }
    if (strcmp(r->kind, "operator") != 0)
        return;
    /* `<` made `<=` (a pass more), or `<=` made `<` (a pass fewer) */
    const char *lt = strstr(r->from, " < "), *le = strstr(r->to, " <= ");
    int more = lt && le && lt - r->from == le - r->to && strcmp(lt + 3, le + 4) == 0;
    const char *fle = strstr(r->from, " <= "), *tlt = strstr(r->to, " < ");
    int fewer = !more && fle && tlt && fle - r->from == tlt - r->to && strcmp(fle + 4, tlt + 3) == 0;
    if (!more && !fewer)
        return;
    char bound[64], value[96];
    snprintf(bound, sizeof bound, "%s", more ? lt + 3 : fle + 4);
    for (const char *c = bound; *c; c++)
        if (!source_is_identifier_char(*c))
            return; /* a count kept in a name: the name's assignment says how it was made */
    int line = more ? source_count_rounded_down(file, bound, value, sizeof value) : 0;
    if (line > 0) {
        char *q = sanitize_quote(file, line);
        /* `(k - 1) / TILE_WIDTH`: a round-up of the other form, its `+ 1` left off */
        int minus_one = strstr(value, "- 1)") != NULL;
        s->cause = minus_one ? xasprintf("%s counts %s as `%s`, the round-up `%s + 1` without its `+ 1`: it comes "
                                         "to one tile fewer than the data has (none at all for a size within one "
                                         "tile); write `%s + 1`; writing `%s` for `%s` at line %d only makes up "
                                         "for it",
                                         q, bound, value, value, value, r->to, r->from, r->line)
                             : xasprintf("%s counts %s as `%s`, which rounds down and leaves out a last partial "
                                         "tile: round up (add the divisor less 1 first); writing `%s` for `%s` at "
                                         "line %d only makes up for it",
                                         q, bound, value, r->to, r->from, r->line);
        s->cause_fixed_there = 1;
        free(q);
        return;
    }
    /* a count one less (or one more) than it is named for: `... - 1` */
    line = source_count_off_by_one(file, bound, more ? -1 : 1, value, sizeof value);
    if (line <= 0 || line == r->line)
        return;
    char *q = sanitize_quote(file, line);
    s->cause = xasprintf("%s sets %s to `%s`, one %s than the count it is named for, so the loop at line %d runs "
                         "one pass too %s; take out the `%s 1`; writing `%s` for `%s` at line %d only makes up "
                         "for it",
                         q, bound, value, more ? "less" : "more", r->line, more ? "few" : "many", more ? "-" : "+",
                         r->to, r->from, r->line);
    s->cause_fixed_there = 1;
    free(q);
}

/* Whether a full repair only makes part of a test constant: the edit makes
 * an operand of the test's condition the same as the other (`width %
 * BLOCK_WIDTH` made `BLOCK_WIDTH % BLOCK_WIDTH`, always 0), so that part
 * comes out the same for every dataset, whatever it was to test. That
 * part `T op T` into same (n bytes). */
static int repair_only_fixes_test(const char *file, const repair_result *r, char *same, size_t n)
{
    if (!repair_strong(r) || !r->to[0] || !source_line_has_word(file, r->line, "if"))
        return 0;
    /* the statement with the edit made, blanks squeezed */
    const char *at = strstr(r->context, r->from);
    if (!at || strlen(r->context) - strlen(r->from) + strlen(r->to) >= 512)
        return 0;
    char edited[512], squeezed[512];
    snprintf(edited, sizeof edited, "%.*s%s%s", (int)(at - r->context), r->context, r->to, at + strlen(r->from));
    size_t o = 0;
    for (const char *c = edited; *c && o + 1 < sizeof squeezed; c++)
        if (*c != ' ' && *c != '\t')
            squeezed[o++] = *c;
    squeezed[o] = '\0';
    /* `T op T` for the edit's token T: an operand against itself */
    static const char *const ops[] = { "%", "-", "!=", "==", "<", ">", "^", NULL };
    size_t tl = strlen(r->to);
    for (const char *p = strstr(squeezed, r->to); p; p = strstr(p + 1, r->to)) {
        if (p > squeezed && source_is_identifier_char(p[-1]))
            continue;
        for (int k = 0; ops[k]; k++) {
            size_t ol = strlen(ops[k]);
            const char *q = p + tl;
            if (strncmp(q, ops[k], ol) == 0 && strncmp(q + ol, r->to, tl) == 0 &&
                !source_is_identifier_char(q[ol + tl]) && q[ol] != '=') {
                snprintf(same, n, "%s %s %s", r->to, ops[k], r->to);
                return 1;
            }
        }
    }
    return 0;
}

/* A full repair that only makes part of a test constant (above): the
 * test, or that part of it, is the mistake, not the name the edit
 * replaced. Said at the test's line, with the edit as the evidence; where
 * another reading already names that line as the cause, the edit is added
 * to it as evidence, not offered as a fix. */
static void repair_turns_test_off(const char *file, submission_result *s)
{
    const repair_result *r = &s->repair;
    char same[300], jump[16];
    /* an edit of the test of an early exit (`if (Mc[i][j] == 0.0f) break;`)
     * that makes every dataset right: it changes where the exit runs, and
     * the exit is what loses the work */
    /* (not where the edit joins the test's clauses the other way, `&&` for
     * `||` or back: a bounds exit, `if (Row >= Width || Col >= Width)
     * return;`, written with the wrong join; the exit is needed, the join
     * is the mistake, and the repair's own sentence says so) */
    int join = (strstr(r->from, "&&") && strstr(r->to, "||") && !strstr(r->from, "||")) ||
               (strstr(r->from, "||") && strstr(r->to, "&&") && !strstr(r->from, "&&"));
    int exit_at = !s->cause && !join && repair_strong(r) ? source_if_guards_jump(file, r->line, jump, sizeof jump)
                                                         : 0;
    if (exit_at > 0 && !repair_only_fixes_test(file, r, same, sizeof same)) {
        char *q = sanitize_quote(file, r->line), *qj = exit_at != r->line ? sanitize_quote(file, exit_at) : NULL;
        char *where = qj ? xasprintf(" at %s", qj) : xstrdup("");
        s->cause = xasprintf("the %s%s, under the test at %s, ends the work early where the test holds: the edit "
                             "that makes every dataset right, `%s` for `%s`, only changes where that test holds; take "
                             "the test and its %s out",
                             jump, where, q, r->to, r->from, jump);
        s->cause_fixed_there = 1;
        free(q);
        free(qj);
        free(where);
        return;
    }
    if (!repair_only_fixes_test(file, r, same, sizeof same))
        return;
    if (s->cause) {
        char at[32];
        snprintf(at, sizeof at, "line %d", r->line);
        if (s->cause_fixed_there && strstr(s->cause, at)) {
            char *more = xasprintf("%s (the edit that makes every dataset right, `%s` for `%s`, only makes `%s` "
                                   "the same for every dataset)",
                                   s->cause, r->to, r->from, same);
            free(s->cause);
            s->cause = more;
        }
        return;
    }
    char *q = sanitize_quote(file, r->line);
    s->cause = xasprintf("the test at %s is what fails the datasets: the edit that makes every dataset right, `%s` for "
                         "`%s`, only makes `%s` the same for every dataset, whatever the test was to tell apart; take "
                         "that condition out of the test (and, where the test guards an early return, the test and "
                         "the return)",
                         q, r->to, r->from, same);
    s->cause_fixed_there = 1;
    free(q);
}

/* The kit's own record of a failing run (launch_of, copy_of) against the
 * output: a copy whose pitch, width or count disagrees with its buffer, a
 * launch whose grid and block look swapped, a grid that leaves whole tiles
 * never launched (the wrong elements exactly). The first found is the
 * submission's cause, the fix-this-first line; and where the launch covers
 * the output, a "never written" sentence's advice to look at the grid goes. */
static void launch_and_copies(const lab_manifest *m, const int *index, submission_result *s)
{
    int image = m->perf.work == WORK_IMAGE;
    char *cause = NULL;
    /* swapped only where swapping fits every launch the kit saw */
    int swap_fits = 1;
    for (int i = 0; i < s->ndatasets; i++) {
        const launch_shape *l = launch_of(&s->datasets[i]);
        int out[2];
        if (l && !output_size(m, &m->datasets[index[i]], out))
            swap_fits = swap_fits && launches_swap_fits(l, out);
    }
    for (int i = 0; i < s->ndatasets; i++) {
        dataset_result *d = &s->datasets[i];
        const launch_shape *l = launch_of(d);
        const copy_record *c = copy_of(d);
        int out[2];
        if (d->status == ST_PASS || d->status == ST_COMPILE_ERROR || output_size(m, &m->datasets[index[i]], out))
            continue;
        int at_definition = 0;
        char *limit = l && d->status == ST_CUDA_ERROR ? launches_limit(l, s->file, &at_definition) : NULL;
        if (limit) {
            /* the error's name alone (cudaErrorInvalidValue) says no cause */
            char *message = xasprintf("%s; %s", d->message ? d->message : "CUDA error", limit);
            free(d->message);
            d->message = message;
        }
        if (!cause && limit) {
            cause = limit;
            s->cause_fixed_there = at_definition;
        }
        else
            free(limit);
        if (!cause && c)
            cause = launches_copy_sentence(c, s->file);
        if (!cause && l && !image && swap_fits)
            cause = launches_swapped(l, out, s->file);
        if (!cause && l && d->cmp.compared && d->cmp.shape_ok)
            cause = launches_uncovered(l, out, image, m->errormap_halo, d->cmp.unwritten_from, s->file);
        if (!cause && l)
            cause = launches_counted_in_threads(l, out, image, m->errormap_halo, s->file);
        if (!cause && l)
            cause = launches_flat_block(l, s->file);
        if (!cause && l && !image)
            cause = launches_block_unlike_tiles(l, s->file);
        /* whole blocks past the output, and a run that went past an
         * array's end (the harness's guard, the checkers' bounds finding) */
        if (!cause && l && !image && went_past_an_end(d))
            cause = launches_oversized(l, out, s->file);
        if (!cause && l)
            cause = unread_grid_dimension(l, out, s->file);
        if (!cause && l)
            cause = unread_block_dimension(l, s->file);
        if (!cause && l && d->cmp.compared && d->cmp.shape_ok && launches_cover(l, out, image, m->errormap_halo))
            cause = unstored_region(&m->datasets[index[i]], d, out, s->file);
        /* (a dataset the checkers did not run has no launch record: its
         * border kept out is read from the source alone) */
        if (!cause && d->cmp.compared && d->cmp.shape_ok && (l ? launches_cover(l, out, image, m->errormap_halo)
                                                                : d->cmp.unwritten_frame > 0))
            cause = kept_from_store(d, out, s->file);
        if (!c && l && l->line > 0 && d->cmp.compared && launches_cover(l, out, image, m->errormap_halo))
            drop_grid_advice(&d->cmp, l->line);
    }
    /* a defect named before (defects_before_the_tiles),
     * is what the record's sentence would only show the effect of */
    if (s->cause)
        free(cause);
    else
        s->cause = cause;
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
    /* a block whose size the host computes from the data (min(l, 16)):
     * smaller than the tiles only on some datasets, which the token's run
     * need not be; a failing run's own launch record shows it */
    for (int i = 0; i < s->ndatasets && unset && !s->hint; i++) {
        const dataset_result *d = &s->datasets[i];
        const launch_shape *l = launch_of(d);
        if (d->status != ST_WRONG || d->cmp.nonfinite == 0 || !l || l->line <= 0)
            continue;
        char *said = diagnose_block_smaller_than_tiles(l->shared_bytes, l->block[0], l->block[1], l->kernel);
        int made = said ? source_launch_dim3_line(s->file, l->line, 1) : 0;
        if (said && made > 0 && made != l->line) {
            char *q = sanitize_quote(s->file, made);
            s->hint = xasprintf("%s: %s; the block is made at %s, for this dataset's sizes", d->name, said, q);
            free(q);
            free(said);
        } else if (said) {
            s->hint = xasprintf("%s: %s", d->name, said);
            free(said);
        }
    }
    s->hint_leads = s->hint != NULL;
    /* the launch that runs those blocks, where the kit's record of a run has its line */
    for (int i = 0; i < s->ndatasets && s->hint; i++) {
        const launch_shape *l = launch_of(&s->datasets[i]);
        if (!l || l->line <= 0 || strcmp(l->kernel, e->shared_kernel) != 0)
            continue;
        char *q = sanitize_quote(s->file, l->line);
        char *hint = xasprintf("%s; see the launch at %s", s->hint, q);
        free(s->hint);
        s->hint = hint;
        free(q);
        break;
    }
}

/* The lines a sentence of the kit's names ("line 22", "lines 45 and 47"),
 * added to lines (at most max in all). */
static int lines_named(const char *text, int *lines, int n, int max)
{
    for (const char *p = text; p && (p = strstr(p, "line")) != NULL && n < max;) {
        p += 4;
        p += *p == 's';
        while (*p == ' ' && n < max) {
            char *end;
            long v = strtol(p + 1, &end, 10);
            if (end == p + 1 || v <= 0 || v > 1000000)
                break;
            lines[n++] = (int)v;
            p = end;
            if (strncmp(p, ",", 1) == 0 || strncmp(p, " and", 4) == 0)
                p += *p == ',' ? 1 : 4;
        }
    }
    return n;
}

/* The repair search (repair.h) on the datasets that failed, smallest
 * first, its repairs preferred at the lines the kit's other evidence
 * names: the checkers' findings, the launch and copy of a failing run,
 * and the lines the diagnoses' sentences point at. */
static void repair_search(const grading *g, const int *index, int keep, submission_result *s)
{
    /* a launch or a copy the kit's own record of the run shows wrong is
     * searched too: where its shape or size was made wrong at another line
     * (a grid computed from the wrong size), the repair names that line */
    if (!repair_wanted(s))
        return;
    enum { MAX_LINES = 256 };
    int n = s->ndatasets, nf = 0, nlines = 0;
    int *failed = xcalloc((size_t)n, sizeof(int)), *at = xcalloc((size_t)n, sizeof(int));
    int *lines = xcalloc(MAX_LINES, sizeof(int));
    char **dirs = xcalloc((size_t)n, sizeof *dirs);
    const char *sentences[] = { s->cause, s->source_cause, s->tile_contents, s->hint };
    for (size_t k = 0; k < sizeof sentences / sizeof *sentences; k++)
        nlines = lines_named(sentences[k], lines, nlines, MAX_LINES);
    for (int i = 0; i < n; i++) {
        const dataset_result *d = &s->datasets[i];
        dirs[i] = resolve_dataset_dir(g->m, index[i], g->datasets_root);
        if (!repair_failed(d->status))
            continue;
        failed[nf] = index[i];
        at[nf++] = i;
        const sanitize_result *z = d->sanitizer;
        for (int k = 0; z && k < z->nfindings && nlines + 2 <= MAX_LINES; k++) {
            lines[nlines++] = z->findings[k].line;
            lines[nlines++] = z->findings[k].line2;
            nlines = lines_named(z->findings[k].message, lines, nlines, MAX_LINES);
        }
        if (nlines + 2 <= MAX_LINES) {
            lines[nlines++] = d->launch.known ? d->launch.line : 0;
            lines[nlines++] = d->copy.known ? d->copy.line : 0;
        }
        nlines = lines_named(d->cmp.compared ? d->cmp.hint : NULL, lines, nlines, MAX_LINES);
        nlines = lines_named(d->message, lines, nlines, MAX_LINES);
    }
    /* the failing datasets, smallest first */
    int *order = xcalloc((size_t)n + 1, sizeof(int));
    for (int k = 0; k < nf; k++) {
        int pos = smallest_dataset(g, failed + k, nf - k) + k, lab_index = failed[pos], where = at[pos];
        failed[pos] = failed[k], at[pos] = at[k];
        failed[k] = lab_index, at[k] = where;
        order[k] = where;
    }
    repair_stage(g->m, g->b, g->student_file, (const char *const *)dirs, order, nf, lines, nlines, g->timeout_s,
                 keep, s);
    free(order);
    for (int i = 0; i < n; i++)
        free(dirs[i]);
    free(dirs);
    free(lines);
    free(at);
    free(failed);
}

void grade_build(const lab_manifest *m, const backend *b, const char *file, const grade_options *opt,
                 const char *workdir, build_result *r, sanitize_prebuild *pre)
{
    sanitize_prebuild_init(pre);
    backend emu;
    memset(&emu, 0, sizeof emu);
    const backend *checker = opt->no_sanitize ? NULL : checkers_backend(b, opt, &emu);
    if (checker && checker->kind == BACKEND_EMU)
        sanitize_prebuild_start(m, checker, file, b->kind != BACKEND_EMU, pre);
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
    stage_add_seconds(&s->stages, br.seconds - br.token_s, "build");
    stage_add_seconds(&s->stages, br.token_s, "token");
    s->built = br.ok;
    s->build_log = xstrdup(br.log);
    kernel_evidence evidence;
    memset(&evidence, 0, sizeof evidence);
    if (br.ok)
        build_evidence(b, workdir, &evidence);
    if (br.ok && br.message) /* a note: a removed call run as its replacement */
        s->build_message = xstrdup(br.message);
    if (!br.ok) {
        s->build_message = xstrdup(br.message);
        /* only where the compiler read the file and refused it: a file the
         * build would not read (too big, not a plain file) is read by no one */
        if (!br.grader_fault && br.log && strstr(br.log, ": error:"))
            s->cause = compile_error_cause(file, br.log, m);
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
        grading g = { m, b, br.program, workdir, file, opt->datasets_root, opt->maps_dir, timeout, 0, &evidence,
                      &s->stages };
        /* limits by input on the emulator (dataset_limit), unless given:
         * the largest of the lab's graded datasets, whichever are graded now */
        for (int i = 0; i < m->ndatasets && b->kind == BACKEND_EMU && opt->timeout_s <= 0; i++) {
            if (m->datasets[i].on_demand)
                continue;
            double bytes = lab_input_bytes(m, i, opt->datasets_root);
            g.largest_bytes = bytes > g.largest_bytes ? bytes : g.largest_bytes;
        }
        /* On the emulator the smallest dataset runs alone first, a probe:
         * there a process starts in a few milliseconds and a run costs its
         * work. When it fails, each dataset runs alone, once: a wrong
         * file's datasets mostly all fail, and in a series each failure
         * would run again alone, its work paid twice (docs/performance.md).
         * When it passes, the rest run in a series. Either way a verdict
         * other than a pass comes from a run alone. On a GPU each process
         * is a CUDA context (a few tenths of a second): the series first. */
        int probe = -1;
        if (s->ndatasets > 1 && b->kind == BACKEND_EMU) {
            probe = smallest_dataset(&g, index, s->ndatasets);
            grade_dataset(&g, index[probe], &s->datasets[probe]);
            done[probe] = 1;
            timeouts += s->datasets[probe].status == ST_TIMEOUT;
        }
        if (s->ndatasets > 1 && (probe < 0 || s->datasets[probe].status == ST_PASS))
            timeouts += series_stage(&g, index, s, done, alone);
        for (int i = 0; i < s->ndatasets; i++) {
            if (!done[i] && timeouts >= MAX_TIMEOUTS) {
                /* An endless loop costs a submission twice the limit, not
                 * once per dataset: a class's batch is not held up by it. */
                dataset_result *d = &s->datasets[i];
                d->status = ST_TIMEOUT;
                d->message = xasprintf("not run: the program had already run out of time %d times; "
                                       "fix the loop that never ends first", timeouts);
                d->call_ms = -1;
            } else if (!done[i]) {
                grade_dataset(&g, index[i], &s->datasets[i]);
                timeouts += s->datasets[i].status == ST_TIMEOUT;
            }
            s->score += s->datasets[i].points;
        }
        free(alone);
        free(done);
        double started = stage_clock();
        remove_stale_maps(m, opt->maps_dir, s);
        started = stage_add(&s->stages, started, "maps");
        point_input_mistakes_at_their_line(m, file, m->ntiles > 0, s);
        stage_add(&s->stages, started, "diagnosis");
        if (!opt->no_sanitize)
            sanitize_stage(m, b, workdir, index, timeout, opt, pre, s);
        started = stage_clock();
        defects_before_the_tiles(m, file, s);
        collapsed_index_leads(m, file, s);
        tile_contents(m, index, opt->datasets_root, s);
        transposed_read_not_store(m, index, opt->datasets_root, file, s);
        counts_summarise(m, index, s);
        allocation_too_small_leads(file, s);
        launch_and_copies(m, index, s); /* a line of the kit's own record of the run, first */
        block_against_tiles(m, &evidence, s); /* the more specific of the two, first */
        across_datasets(m, index, s);
        source_defects(m, file, s);
        started = stage_add(&s->stages, started, "diagnosis");
        if (!opt->no_sanitize) {
            repair_search(&g, index, opt->keep, s);
            host_access_leads(s);
            misplaced_barrier_leads(s);
            repair_made_up_for(file, s);
            repair_turns_test_off(file, s);
            copy_size_repaired(file, s);
        }
        started = stage_clock();
        /* Performance points (opt-in per lab), for a whole-lab grading. */
        if (opt->dataset < 0) {
            bench_grade(m, b, file, workdir, s);
            if (s->perf_asked)
                stage_add(&s->stages, started, "performance");
        }
    }
    double started = stage_clock();
    requirements_judge(m, &evidence, s);
    stage_add(&s->stages, started, "requirements");
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
