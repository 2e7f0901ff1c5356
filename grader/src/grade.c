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
#include "sanitize.h"
#include "sandbox.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* After this many datasets run alone have timed out, the rest of a
 * submission's are not run: an endless loop costs a submission three times
 * the lab's time limit (the series, then two datasets), not once per
 * dataset. */
#define MAX_TIMEOUTS 2

const char *status_name(status_t s)
{
    static const char *const names[ST_COUNT] = {
        "pass", "wrong", "compile_error", "timeout", "crash", "cuda_error", "no_output", "grader_error",
        "requirement_failed", "unsafe", "refused",
    };
    return s < ST_COUNT ? names[s] : "grader_error";
}

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

static void judge_run(const lab_manifest *m, const run_result *r, const char *dir, double timeout_s,
                      dataset_result *d, const char *student_file, const char *maps_dir, const char *workdir);

static void grade_dataset(const lab_manifest *m, const backend *b, const char *program,
                          const char *workdir, int index, double timeout_s, dataset_result *d,
                          kernel_evidence *evidence, const char *datasets_root,
                          const char *student_file, const char *maps_dir)
{
    char *dir = resolve_dataset_dir(m, index, datasets_root);
    char *run_dir = xasprintf("%s/run-%s", workdir, d->name);
    /* The emulator logs what each launch did, outside the run directory. */
    char *emu_log = xasprintf("%s/emu-%s.log", workdir, d->name);
    char *emu_env = xasprintf("GPULAB_EMU_LOG=%s", emu_log);
    const char *env[] = { emu_env, NULL };
    run_result run;
    run_program(program, dir, run_dir, timeout_s, b->kind == BACKEND_EMU ? env : NULL, &run);
    if (b->kind == BACKEND_EMU)
        evidence_from_emu_log(emu_log, evidence);
    free(emu_log);
    free(emu_env);
    judge_run(m, &run, dir, timeout_s, d, student_file, maps_dir, workdir);
    run_result_free(&run);
    free(run_dir);
    free(dir);
}

/* The statuses, the comparison and the points of one dataset's run. */
static void judge_run(const lab_manifest *m, const run_result *r, const char *dir, double timeout_s,
                      dataset_result *d, const char *student_file, const char *maps_dir, const char *workdir)
{
    const run_result run = *r;
    d->wall_s = run.proc.wall_s;
    d->call_ms = run.call_ms;
    d->program_stdout = xstrdup(run.proc.out_text);
    d->program_stderr = xstrdup(run.proc.err_text);
    d->status = run_status(&run, timeout_s, &d->message);
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
    if (d->status == ST_PASS && !build_kernel_ran(workdir, run.kernel_tokens)) {
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

/* Every dataset in one process (run_series): one process start and one CUDA
 * context for all of them, the grader's main cost on a GPU. Only passes are
 * kept: a dataset that did anything else in the series, or never ran, is
 * run again on its own (grade_dataset), so its verdict never depends on what
 * an earlier dataset left behind in the process (a static variable, a
 * leaked buffer). done[i] is set for the datasets kept. */
static void series_stage(const lab_manifest *m, const backend *b, const char *program, const char *workdir,
                         const int *index, double timeout_s, kernel_evidence *evidence,
                         const char *datasets_root, const char *student_file, const char *maps_dir,
                         submission_result *s, int *done)
{
    int n = s->ndatasets;
    char **dirs = xcalloc((size_t)n, sizeof *dirs);
    for (int i = 0; i < n; i++)
        dirs[i] = resolve_dataset_dir(m, index[i], datasets_root);
    char *series_dir = xasprintf("%s/series", workdir);
    char *emu_log = xasprintf("%s/emu-series.log", workdir);
    char *emu_env = xasprintf("GPULAB_EMU_LOG=%s", emu_log);
    const char *env[] = { emu_env, NULL };
    run_result *runs = xcalloc((size_t)n, sizeof *runs);
    /* One dataset's limit for the whole series: a slow or stuck program
     * loses only that before its datasets are run one by one. */
    run_series(program, (const char *const *)dirs, n, series_dir, timeout_s, b->kind == BACKEND_EMU ? env : NULL,
               runs);
    if (b->kind == BACKEND_EMU)
        evidence_from_emu_log(emu_log, evidence);
    for (int i = 0; i < n; i++) {
        if (!runs[i].proc.started || runs[i].proc.exit_code != 0)
            continue;
        judge_run(m, &runs[i], dirs[i], timeout_s, &s->datasets[i], student_file, maps_dir, workdir);
        if (s->datasets[i].status == ST_PASS)
            done[i] = 1;
        else
            forget_dataset(&s->datasets[i]);
    }
    for (int i = 0; i < n; i++) {
        run_result_free(&runs[i]);
        free(dirs[i]);
    }
    free(runs);
    free(dirs);
    free(series_dir);
    free(emu_log);
    free(emu_env);
}

/* The emulator's two checking builds (race, check) at once, one in a child
 * process: each is a compile and a link of its own, and they are half of
 * the sanitizer stage's time on two cores. The child's build leaves the
 * program at its usual path; only whether it built comes back. */
static void build_checking_variants(const lab_manifest *m, const backend *b, const char *file,
                                    const char *workdir, build_result *race, build_result *check)
{
    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid == 0) {
        build_result r;
        build_emu_variant(m, b, file, workdir, "check", &r);
        _exit(r.ok ? 0 : 1);
    }
    build_emu_variant(m, b, file, workdir, "race", race);
    int status;
    if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        check->ok = 1;
        check->program = build_program_path(workdir, "check");
    } else if (pid < 0) {
        build_emu_variant(m, b, file, workdir, "check", check); /* no fork: one after the other */
    }
}

/* The sanitizer stage: checkers are slow, so they run on at most two
 * datasets: the smallest that passed and are larger than one tile (16), where
 * races between phases can show; failing that, the smallest that passed; and
 * when nothing passed, the smallest failure, whose findings may explain it.
 * A dataset that ended in a fault with no output to compare gets a fault map
 * instead of an error map: which threads made invalid accesses. */
static void sanitize_stage(const lab_manifest *m, const backend *b, const char *program,
                           const char *workdir, const int *index, double timeout_s,
                           const char *datasets_root, const char *maps_dir, submission_result *s)
{
    /* On the emulator the checks are builds of their own. */
    build_result race, check;
    memset(&race, 0, sizeof race);
    memset(&check, 0, sizeof check);
    if (b->kind == BACKEND_EMU)
        build_checking_variants(m, b, s->file, workdir, &race, &check);
    int chosen[2] = { -1, -1 }, nchosen = 0;
    for (int pass = 0; pass < 3 && nchosen < 2; pass++) {
        for (;;) {
            int best = -1;
            for (int i = 0; i < s->ndatasets; i++) {
                const dataset_result *d = &s->datasets[i];
                const compare_result *c = &d->cmp;
                if (!c->compared || i == chosen[0] || i == chosen[1])
                    continue;
                int large = c->want_shape[0] > 16 || c->want_shape[1] > 16;
                int ok = pass == 0 ? d->status == ST_PASS && large
                       : pass == 1 ? d->status == ST_PASS
                                   : nchosen == 0;
                if (ok && (best < 0 || c->elements < s->datasets[best].cmp.elements))
                    best = i;
            }
            if (best < 0 || nchosen == 2)
                break;
            chosen[nchosen++] = best;
            if (pass == 2)
                break;
        }
    }
    /* Nothing compared at all (every run crashed or hit a CUDA error): the
     * checkers may say why, so look at the first such dataset. */
    for (int i = 0; i < s->ndatasets && nchosen == 0; i++)
        if (s->datasets[i].status == ST_CRASH || s->datasets[i].status == ST_CUDA_ERROR)
            chosen[nchosen++] = i;
    for (int k = 0; k < nchosen; k++) {
        dataset_result *d = &s->datasets[chosen[k]];
        char *dir = resolve_dataset_dir(m, index[chosen[k]], datasets_root);
        char *san_dir = xasprintf("%s/sanitize-%s", workdir, d->name);
        d->sanitizer = xcalloc(1, sizeof *d->sanitizer);
        char *fault_map = d->cmp.compared ? NULL : map_path_for(m, maps_dir, s->file, d->name);
        if (b->kind == BACKEND_EMU)
            sanitize_run_emu(race.ok ? race.program : NULL, check.ok ? check.program : NULL, dir, san_dir,
                             timeout_s, s->file, fault_map != NULL, d->sanitizer);
        else
            sanitize_run(b, program, dir, san_dir, timeout_s, s->file,
                         m->errormap_tile > 0 && d->status == ST_PASS, d->sanitizer);
        if (fault_map)
            sanitize_draw_fault_map(d->sanitizer, fault_map);
        free(fault_map);
        /* An image that came out right by luck has no error to draw: its
         * race map shows which threads raced instead. */
        if (d->status == ST_PASS && d->sanitizer->races.n > 0) {
            char *race_map = map_path_for(m, maps_dir, s->file, d->name);
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
        free(san_dir);
        free(dir);
    }
    build_result_free(&race);
    build_result_free(&check);
}

/* A failure pattern that only shows across datasets. 16 is the tile width
 * the labs suggest; the datasets' sizes straddle it. */
static void across_datasets(submission_result *s)
{
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
}

void grade_built(const lab_manifest *m, const backend *b, const char *file,
                 const grade_options *opt, const char *workdir, const build_result *built,
                 submission_result *s)
{
    memset(s, 0, sizeof *s);
    s->file = xstrdup(file);
    s->lab = xstrdup(m->id);
    snprintf(s->backend, sizeof s->backend, "%s", b->name);
    snprintf(s->device, sizeof s->device, "%s", b->device);
    snprintf(s->driver, sizeof s->driver, "%s", b->driver);
    snprintf(s->arch, sizeof s->arch, "%s", b->arch);

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
    if (br.ok && b->kind == BACKEND_GPU) {
        char *keep = build_keep_dir(workdir);
        evidence_from_ptx_dir(keep, &evidence);
        free(keep);
    } else if (br.ok) {
        char *facts = build_facts_path(workdir);
        evidence_from_emu_facts(facts, &evidence);
        free(facts);
    }
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
        /* Only timeouts of datasets run alone count: the series has one
         * dataset's limit for all of them, so on a busy machine it can run
         * out of time without anything being wrong. */
        int timeouts = 0;
        if (s->ndatasets > 1)
            series_stage(m, b, br.program, workdir, index, timeout, &evidence, opt->datasets_root, file,
                         opt->maps_dir, s, done);
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
        free(done);
        remove_stale_maps(m, opt->maps_dir, s);
        if (!opt->no_sanitize)
            sanitize_stage(m, b, br.program, workdir, index, timeout, opt->datasets_root, opt->maps_dir, s);
        across_datasets(s);
        /* Performance points (opt-in per lab), for a whole-lab grading. */
        if (opt->dataset < 0)
            bench_grade(m, b, file, workdir, s);
    }
    requirements_judge(m, &evidence, s);
    free(index);
}

void grade_submission(const lab_manifest *m, const backend *b, const char *file,
                      const grade_options *opt, submission_result *s)
{
    char *workdir = make_temp_dir("gpulab");
    build_result br;
    build_submission(m, b, file, workdir, &br);
    grade_built(m, b, file, opt, workdir, &br, s);
    build_result_free(&br);
    if (opt->keep)
        fprintf(stderr, "gpulab: kept the work directory %s\n", workdir);
    else
        remove_work_dir(workdir);
    free(workdir);
}
