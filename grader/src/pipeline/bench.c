/*
 * bench.c - see bench.h. gpulab bench measures one file against the lab's
 * reference solution and baseline; gpulab bench --ladder measures the kit's
 * own ladder (every lab's reference solution, the stretch solutions under
 * solutions/stretch/, and the baselines) and draws it (plot.c).
 */
#define _GNU_SOURCE
#include "bench.h"
#include "build.h"
#include "compare.h"
#include "counts.h"
#include "datasets.h"
#include "kit.h"
#include "plot.h"
#include "run.h"
#include "sanitize.h"
#include "sandbox.h"
#include "options.h"
#include "util.h"
#include "../runtime/dataset.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A figure more than this many times its baseline's is not believed: the
 * times come from the student's process (bench.h), and no FP32 kernel beats
 * cuBLAS by half again, nor any filter a plain copy by a quarter. */
#define MAX_OVER_CUBLAS 1.5
#define MAX_OVER_COPY 1.25

/* The image labs' mask, for the picture's title (lab.h of labs 04 and 05). */
#define MASK_WIDTH_OF_LABS 5

const char *bench_unit(const lab_manifest *m)
{
    return m->perf.work == WORK_MATMUL ? "GFLOP/s" : "GB/s";
}

void bench_row_free(bench_row *row)
{
    free(row->reads);
    free(row->label);
    free(row->source);
    free(row->message);
    memset(row, 0, sizeof *row);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Call c's output, divided by the power of two its inputs were scaled by
 * (exact), compared with the dataset's expected output. A wrong call that
 * returned the very bytes of an earlier call is said to: most likely a
 * result kept and copied back. */
static status_t check_call(const lab_manifest *m, const run_result *run, const char *expected, int c,
                           char **message)
{
    char path[4096];
    harness_call_output_path(path, sizeof path, run->output_path, c);
    int e = harness_call_exponent(c);
    compare_result cmp;
    char *why = NULL;
    status_t st = compare_output_scaled(path, e, expected, &m->tolerance, NULL, m->ntiles > 0, &cmp, &why);
    if (st == ST_NO_OUTPUT) {
        *message = xasprintf("call %d: %s", c + 1, why);
        free(why);
        return st;
    }
    if (st == ST_PASS) {
        free(why);
        return st;
    }
    /* Replayed? The same bytes as an earlier call, whose inputs differed. */
    size_t len_c, len_q;
    char *bytes_c = read_file(path, &len_c);
    for (int q = 0; q < c && bytes_c; q++) {
        char earlier[4096];
        harness_call_output_path(earlier, sizeof earlier, run->output_path, q);
        char *bytes_q = read_file(earlier, &len_q);
        int same = bytes_q && len_q == len_c && memcmp(bytes_c, bytes_q, len_c) == 0;
        free(bytes_q);
        if (same) {
            *message = xasprintf("call %d returned exactly what call %d returned, though its inputs "
                                 "were different (scaled by 2^%d, against 2^%d): was a result kept from "
                                 "an earlier call and copied back?", c + 1, q + 1, e,
                                 harness_call_exponent(q));
            free(why);
            free(bytes_c);
            return ST_WRONG;
        }
    }
    free(bytes_c);
    *message = xasprintf("call %d (inputs scaled by 2^%d) is wrong: %s", c + 1, e, why);
    free(why);
    return st;
}

/* The figures from the harness's "@gpulab call" lines: every call must have
 * exactly one; the median, least and most of the timed ones (1 .. calls-1). */
static void collect_times(const lab_manifest *m, const backend *b, const run_result *run, int calls,
                          bench_row *row)
{
    double t[HARNESS_MAX_CALLS];
    int n = 0, kernel_only = 1;
    for (int c = 0; c < calls; c++)
        if (run->call_seen[c] != 1 || run->bad_call_lines) {
            row->message = xstrdup("the program's timing lines were missing or repeated (something "
                                   "printed its own): no figure");
            return;
        }
    /* Kernel times when every timed call has one; else whole calls for all,
     * so the figures stay comparable. */
    for (int c = 1; c < calls; c++)
        kernel_only = kernel_only && run->kernel_ms[c] >= 0;
    for (int c = 1; c < calls; c++)
        t[n++] = kernel_only ? run->kernel_ms[c] : run->event_ms[c];
    qsort(t, (size_t)n, sizeof t[0], cmp_double);
    row->timed = n;
    row->kernel_only = kernel_only;
    row->min_ms = t[0];
    row->max_ms = t[n - 1];
    row->median_ms = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
    if (b->kind == BACKEND_GPU && row->median_ms > 0)
        row->rate = m->perf.amount / (row->median_ms * 1e6); /* per ms -> G per s */
}

void bench_program(const lab_manifest *m, const backend *b, const char *library,
                   const char *dataset_dir, const char *workdir, int calls, int check, bench_row *row)
{
    const char *source = row->source;
    if (make_dirs(workdir) != 0)
        die("cannot create %s: %s", workdir, strerror(errno));
    build_result br;
    /* a timing build: the kernels as written, without the grading build's
     * shared-memory poison (build.h) */
    build_with_library(m, b, source, workdir, library, &br);
    if (!br.ok) {
        row->status = br.grader_fault ? ST_GRADER_ERROR : ST_COMPILE_ERROR;
        row->message = xstrdup(br.message ? br.message : "the build failed");
        build_result_free(&br);
        return;
    }
    char *run_dir = xasprintf("%s/run", workdir);
    char *calls_env = xasprintf("%s=%d", HARNESS_CALLS_ENV, calls);
    /* No TensorFloat-32 anywhere: the baseline is strict FP32, like the labs. */
    const char *env[] = { calls_env, "NVIDIA_TF32_OVERRIDE=0", NULL };
    /* The lab's limit is for one call on a small dataset; here there are many
     * calls on a large one, and its files to read. */
    double timeout = m->timeout_s * (calls + 4);
    run_result run;
    run_request q = { timeout, env, 0, source };
    run_program(br.program, dataset_dir, run_dir, &q, &run);
    row->status = run.status;
    row->message = run.message ? xstrdup(run.message) : NULL;
    if (row->status == ST_PASS && check) {
        char *expected = xasprintf("%s/%s", dataset_dir, m->expected);
        for (int c = 0; c < calls && row->status == ST_PASS; c++)
            row->status = check_call(m, &run, expected, c, &row->message);
        free(expected);
    }
    if (row->status == ST_PASS)
        collect_times(m, b, &run, calls, row);
    run_result_free(&run);
    remove_work_dir(run_dir);
    free(run_dir);
    free(calls_env);
    build_result_free(&br);
}

/* ---- one lab: the rows measured together ------------------------------------ */

typedef struct {
    const lab_manifest *m;
    bench_row rows[16];
    int nrows;
    int baseline;           /* the row of cuBLAS or the copy, or -1 */
    int reference;          /* the reference solution's row, or -1 */
    int basic;              /* lab 01's basic kernel on the same size, or -1 */
    double basic_rate;
} lab_bench;

static char *reference_path(const lab_manifest *m)
{
    return kit_path("solutions/%s/%s", m->id, m->source);
}

/* The baseline: cuBLAS through lab 03's harness, or a device-to-device copy
 * through lab 04's. Both harnesses read every lab's performance dataset of
 * their kind (matrices in input0/input1; an image in input0). */
static void measure_baseline(const lab_manifest *m, const backend *b, const char *dataset_dir,
                             const char *workdir, int calls, bench_row *row)
{
    int matmul = m->perf.work == WORK_MATMUL;
    lab_manifest host;
    manifest_load(matmul ? "03-arbitrary-matmul" : "04-conv-2batch", &host);
    host.perf = m->perf; /* the work of m's dataset, not of the host lab's */
    host.perf.bands = NULL;
    row->source = kit_path("grader/bench/%s", matmul ? "cublas_matmul.cu" : "device_copy.cu");
    row->label = xstrdup(matmul ? "cuBLAS SGEMM, FP32 (baseline)" : "device-to-device copy (baseline)");
    bench_program(&host, b, matmul ? "-lcublas" : NULL, dataset_dir, workdir, calls, matmul, row);
    manifest_free(&host);
}

/* The counted dataset: of the lab's own datasets, the one with the most
 * work up to COUNTED_WORK_MAX (multiply-adds, or output values). A timed
 * dataset's size under the emulator's counting build would take hours;
 * reads per unit of work hardly change with the size past a few tiles. */
#define COUNTED_WORK_MAX (1 << 20)
static int counted_dataset(const lab_manifest *m)
{
    int best = -1;
    double best_work = 0;
    for (int i = 0; i < m->ndatasets; i++) {
        double d[3];
        if (m->datasets[i].on_demand || manifest_work_dims(m->perf.work, &m->datasets[i], d, NULL) != 0)
            continue;
        double work = d[0] * d[1] * d[2];
        if (work <= COUNTED_WORK_MAX && work > best_work) {
            best = i;
            best_work = work;
        }
    }
    return best;
}

/* What file's kernels read, counted as a check counts them: the
 * emulator's checked build (counts.h) run on counted_dataset(), in work,
 * on the machine's CPU whatever the backend. The sentence, or NULL. */
static char *count_reads(const lab_manifest *m, const char *file, const char *work)
{
    int index = counted_dataset(m);
    backend emu;
    memset(&emu, 0, sizeof emu);
    if (index < 0 || !backend_emulator(&emu)) {
        free(emu.compiler);
        return NULL;
    }
    if (make_dirs(work) != 0)
        die("cannot create %s: %s", work, strerror(errno));
    sanitize_builds builds;
    sanitize_build(m, &emu, file, work, 0, NULL, &builds);
    char *sentence = NULL;
    if (sanitize_builds_complete(&builds)) {
        char *dir = dataset_dir(m, index);
        sanitize_pending *p = sanitize_start(&emu, &builds, dir, m->datasets[index].name, m->timeout_s, 0);
        dataset_result d;
        memset(&d, 0, sizeof d);
        d.name = m->datasets[index].name;
        d.status = ST_PASS;
        d.sanitizer = xcalloc(1, sizeof *d.sanitizer);
        sanitize_collect(p, file, d.sanitizer);
        submission_result s;
        memset(&s, 0, sizeof s);
        s.ndatasets = 1;
        s.datasets = &d;
        counts_summarise(m, &index, &s);
        sentence = counts_sentence(&s.reads);
        sanitize_result_free(d.sanitizer);
        free(d.sanitizer);
        free(dir);
    }
    sanitize_builds_free(&builds, 0);
    free(emu.compiler);
    return sentence;
}

static void bench_lab_rows(lab_bench *lb, const backend *b, const char *dataset_dir, const char *workroot,
                           int calls)
{
    const lab_manifest *m = lb->m;
    for (int i = 0; i < lb->nrows; i++) {
        char *work = xasprintf("%s/%s-%d", workroot, m->id, i);
        bench_program(m, b, NULL, dataset_dir, work, calls, 1, &lb->rows[i]);
        free(work);
        if (lb->rows[i].status == ST_PASS) {
            char *counting = xasprintf("%s/%s-%d-counts", workroot, m->id, i);
            lb->rows[i].reads = count_reads(m, lb->rows[i].source, counting);
            free(counting);
        }
    }
    if (b->kind != BACKEND_GPU)
        return;
    lb->baseline = lb->nrows;
    char *work = xasprintf("%s/%s-baseline", workroot, m->id);
    measure_baseline(m, b, dataset_dir, work, calls, &lb->rows[lb->nrows++]);
    free(work);
    /* A figure beyond what the hardware does in the same run is not believed. */
    const bench_row *base = &lb->rows[lb->baseline];
    double limit = base->rate * (m->perf.work == WORK_MATMUL ? MAX_OVER_CUBLAS : MAX_OVER_COPY);
    for (int i = 0; i < lb->baseline; i++)
        if (base->rate > 0 && lb->rows[i].rate > limit) {
            free(lb->rows[i].message);
            lb->rows[i].message = xasprintf("%.0f %s is more than %.2g times the baseline's: not "
                                            "believed (were the timing lines forged?)",
                                            lb->rows[i].rate, bench_unit(m), limit / base->rate);
            lb->rows[i].rate = 0;
        }
}

/* For labs 02 and 03: lab 01's basic kernel on a product of the same size,
 * timed in the same run, for the speedup tiling bought. */
static void measure_basic(lab_bench *lb, const backend *b, const char *workroot, int calls)
{
    const lab_manifest *m = lb->m;
    if (m->perf.work != WORK_MATMUL || strcmp(m->id, "01-basic-matmul") == 0 || b->kind != BACKEND_GPU)
        return;
    lab_manifest basic;
    manifest_load("01-basic-matmul", &basic);
    if (basic.perf.dataset < 0 || basic.perf.j != m->perf.j || basic.perf.k != m->perf.k ||
        basic.perf.l != m->perf.l) {
        manifest_free(&basic);
        return;
    }
    char *dir = dataset_dir(&basic, basic.perf.dataset);
    char *src = reference_path(&basic);
    char *work = xasprintf("%s/%s-basic", workroot, m->id);
    bench_row row;
    memset(&row, 0, sizeof row);
    row.source = src;
    bench_program(&basic, b, NULL, dir, work, calls, 1, &row);
    row.source = NULL;
    lb->basic_rate = row.rate;
    bench_row_free(&row);
    free(work);
    free(src);
    free(dir);
    manifest_free(&basic);
}

static void add_row(lab_bench *lb, const char *label, const char *source)
{
    if (lb->nrows >= (int)(sizeof lb->rows / sizeof lb->rows[0]) - 1)
        return;
    bench_row *r = &lb->rows[lb->nrows++];
    memset(r, 0, sizeof *r);
    r->label = xstrdup(label);
    r->source = xstrdup(source);
}

static void print_lab_table(FILE *f, const lab_bench *lb, const backend *b, const char *dataset_name,
                            int calls)
{
    const lab_manifest *m = lb->m;
    fprintf(f, "%s on %s, %s", m->id, dataset_name, b->device);
    if (b->kind == BACKEND_GPU)
        fprintf(f, " (driver %s, %s)", b->driver, b->arch);
    fprintf(f, "\n  %d calls each: 1 warm-up, %d timed (CUDA events, median; L2 flushed and output "
               "poisoned before each; every call's output checked)\n",
            calls, calls - 1);
    if (b->kind != BACKEND_GPU) {
        fprintf(f, "  The emulator runs on the CPU: its times are not GPU times, and no performance "
                   "figures are given. Every call was still checked:\n");
        for (int i = 0; i < lb->nrows; i++) {
            fprintf(f, "  %-44s %s%s%s\n", lb->rows[i].label, status_name(lb->rows[i].status),
                    lb->rows[i].message ? ": " : "", lb->rows[i].message ? lb->rows[i].message : "");
            if (lb->rows[i].reads)
                fprintf(f, "  %-44s global reads: %s\n", "", lb->rows[i].reads);
        }
        return;
    }
    const bench_row *base = lb->baseline >= 0 ? &lb->rows[lb->baseline] : NULL;
    const bench_row *ref = lb->reference >= 0 ? &lb->rows[lb->reference] : NULL;
    fprintf(f, "\n  %-44s %10s %19s %9s %9s %9s", "program", "ms", "min-max", bench_unit(m),
            "% base", "% ref");
    if (lb->basic_rate > 0)
        fprintf(f, " %9s", "x lab 01");
    fprintf(f, "\n");
    for (int i = 0; i < lb->nrows; i++) {
        const bench_row *r = &lb->rows[i];
        if (r->status != ST_PASS || r->timed == 0) {
            fprintf(f, "  %-44s %s: %s\n", r->label, status_name(r->status),
                    r->message ? r->message : "no figure");
            continue;
        }
        char range[40];
        snprintf(range, sizeof range, "%.3f-%.3f", r->min_ms, r->max_ms);
        fprintf(f, "  %-44s %10.3f %19s", r->label, r->median_ms, range);
        if (r->rate > 0) {
            fprintf(f, " %9.0f", r->rate);
            if (base && base->rate > 0)
                fprintf(f, " %8.0f%%", 100 * r->rate / base->rate);
            else
                fprintf(f, " %9s", "-");
            if (ref && ref->rate > 0)
                fprintf(f, " %8.0f%%", 100 * r->rate / ref->rate);
            else
                fprintf(f, " %9s", "-");
            if (lb->basic_rate > 0)
                fprintf(f, " %8.1fx", r->rate / lb->basic_rate);
        } else {
            fprintf(f, "  %s", r->message ? r->message : "no figure");
        }
        fprintf(f, "\n");
        if (r->rate > 0 && !r->kernel_only)
            fprintf(f, "  %-44s (whole call: the copies could not be told apart from the kernel)\n", "");
        else if (r->rate > 0 && r->message)
            fprintf(f, "  %-44s (%s)\n", "", r->message);
        if (r->reads)
            fprintf(f, "  %-44s global reads: %s\n", "", r->reads);
    }
    if (lb->basic_rate > 0)
        fprintf(f, "  x lab 01: speedup over lab 01's basic kernel (%.0f %s on the same size, same run)\n",
                lb->basic_rate, bench_unit(m));
    fprintf(f, "\n");
}

/* ---- performance points --------------------------------------------------------- */

/* A row's rate from its least time: performance points compare the best of
 * each program's timed calls (each after the L2 is flushed), as CS149's
 * grading does, which a busy moment of the GPU cannot lower for one side. */
static double best_rate(const lab_manifest *m, const bench_row *row)
{
    return row->rate > 0 && row->min_ms > 0 ? m->perf.amount / (row->min_ms * 1e6) : 0;
}

void bench_grade(const lab_manifest *m, const backend *b, const char *file, const char *workdir,
                 submission_result *s)
{
    const performance_spec *p = &m->perf;
    if (p->points <= 0 || p->dataset < 0)
        return;
    s->perf_asked = 1;
    s->perf_unit = bench_unit(m);
    s->perf_status = ST_GRADER_ERROR;
    if (b->kind != BACKEND_GPU) {
        s->perf_status = ST_COUNT; /* not measured */
        /* Not counted either way: the emulator's times say nothing of a GPU. */
        s->perf_message = xstrdup("not measured: the emulator's times are not GPU times (performance "
                                  "points are given on the GPU only, and are not in this score)");
        return;
    }
    char *ref = reference_path(m);
    char *dir = dataset_dir(m, p->dataset);
    if (!file_exists(ref)) {
        /* A kit without solutions (a Gradescope package): the figure, for
         * the leaderboard, but no points, and none in the maximum. */
        bench_row you;
        memset(&you, 0, sizeof you);
        you.source = xstrdup(file);
        char *work = xasprintf("%s/perf-submission", workdir);
        bench_program(m, b, NULL, dir, work, BENCH_DEFAULT_CALLS, 1, &you);
        s->perf_rate = you.rate;
        s->perf_status = you.status == ST_PASS && you.rate <= 0 ? ST_WRONG : you.status;
        if (you.rate > 0)
            s->perf_message = xasprintf("%.0f %s on %s; no performance points: the reference solution is "
                                        "not in this copy of the kit, so there is nothing to measure "
                                        "against", you.rate, s->perf_unit, m->datasets[p->dataset].name);
        else
            s->perf_message = xstrdup(you.message ? you.message : status_name(you.status));
        bench_row_free(&you);
        free(work);
        free(dir);
        free(ref);
        return;
    }
    s->perf_max_points = p->points;
    s->max_score += p->points;
    bench_row you, them;
    memset(&you, 0, sizeof you);
    memset(&them, 0, sizeof them);
    you.source = xstrdup(file);
    them.source = ref;
    char *work_you = xasprintf("%s/perf-submission", workdir);
    char *work_ref = xasprintf("%s/perf-reference", workdir);
    bench_program(m, b, NULL, dir, work_you, BENCH_DEFAULT_CALLS, 1, &you);
    bench_program(m, b, NULL, dir, work_ref, BENCH_DEFAULT_CALLS, 1, &them);
    you.rate = best_rate(m, &you);
    them.rate = best_rate(m, &them);
    s->perf_rate = you.rate;
    s->perf_reference_rate = them.rate;
    if (them.rate <= 0) {
        s->perf_message = xasprintf("the reference solution gave no figure (%s): no performance points "
                                    "can be given", them.message ? them.message : status_name(them.status));
    } else if (you.status != ST_PASS) {
        s->perf_status = you.status;
        s->perf_message = xasprintf("%s on %s", you.message ? you.message : status_name(you.status),
                                    m->datasets[p->dataset].name);
    } else if (you.rate <= 0) {
        s->perf_status = ST_WRONG;
        s->perf_message = xstrdup(you.message ? you.message : "no figure");
    } else if (you.rate > them.rate * (p->work == WORK_MATMUL ? MAX_OVER_CUBLAS * 10 : MAX_OVER_COPY * 5)) {
        /* Far beyond what the reference's kind of kernel could reach on this
         * GPU: the figure came from a forged line, not the kit's clock. */
        s->perf_status = ST_WRONG;
        s->perf_message = xasprintf("%.0f %s is not believed (%.0f times the reference solution's)",
                                    you.rate, s->perf_unit, you.rate / them.rate);
    } else {
        double fraction = you.rate / them.rate;
        s->perf_status = ST_PASS;
        for (int i = 0; i < p->nbands; i++)
            if (fraction >= p->bands[i].at_least)
                s->perf_points = p->bands[i].points;
        s->score += s->perf_points;
        s->perf_message = xasprintf("%.0f %s on %s, %.0f%% of the reference solution's %.0f (same run, "
                                    "best of %d calls each)", you.rate, s->perf_unit,
                                    m->datasets[p->dataset].name, 100 * fraction, them.rate, you.timed);
    }
    bench_row_free(&you);
    bench_row_free(&them);
    free(work_you);
    free(work_ref);
    free(dir);
}

/* ---- the command ----------------------------------------------------------------- */

typedef struct {
    const char *lab, *file, *backend, *dataset, *out, *calls_text;
    int calls, ladder, json;
} bench_options;

static void bench_usage(const char *why)
{
    fprintf(stderr, "gpulab bench: %s\n"
                    "usage: gpulab bench LAB FILE.cu [--calls N] [--dataset NAME] [--backend gpu|emu]\n"
                    "       gpulab bench --ladder [--calls N] [--out DIR] [--backend gpu|emu]\n", why);
    exit(2);
}

static const option_spec bench_options_table[] = {
    { "--ladder", OPT_FLAG, offsetof(bench_options, ladder), NULL, "the kit's performance ladder", 0 },
    { "--calls", OPT_VALUE, offsetof(bench_options, calls_text), "N", "calls (one warm-up), 2 to 64", 0 },
    { "--dataset", OPT_VALUE, offsetof(bench_options, dataset), "NAME", "the dataset measured", 0 },
    { "--backend", OPT_VALUE, offsetof(bench_options, backend), "gpu|emu", "where to run", 0 },
    { "--out", OPT_VALUE, offsetof(bench_options, out), "DIR", "where the ladder's table and SVG go", 0 },
};

static void parse_bench_options(int argc, char **argv, bench_options *o)
{
    memset(o, 0, sizeof *o);
    o->calls = BENCH_DEFAULT_CALLS;
    const char **words = xcalloc((size_t)argc + 1, sizeof *words), *bad = NULL;
    int nwords;
    if (options_parse(bench_options_table, sizeof bench_options_table / sizeof bench_options_table[0], o, argc,
                      argv, 0, words, &nwords, &bad) < 0)
        bench_usage(xasprintf("unknown option %s (or its value is missing)", bad));
    if (nwords > 2)
        bench_usage(xasprintf("one file at a time (%s is one too many)", words[2]));
    o->lab = nwords > 0 ? words[0] : NULL;
    o->file = nwords > 1 ? words[1] : NULL;
    free(words);
    if (o->calls_text) {
        char *end;
        long n = strtol(o->calls_text, &end, 10);
        if (*end || end == o->calls_text || n < 2 || n > HARNESS_MAX_CALLS)
            bench_usage("--calls takes a number from 2 (one warm-up, one timed) to 64");
        o->calls = (int)n;
    }
    if (!o->ladder && (!o->lab || !o->file))
        bench_usage("give a lab and a file, or --ladder");
    if (o->ladder && (o->lab || o->file))
        bench_usage("--ladder measures the kit's own solutions: give no lab or file");
}

/* The dataset measured: the lab's performance dataset on the GPU; on the
 * emulator, which would take hours over it, the largest public one. */
static int bench_dataset(const lab_manifest *m, const backend *b, const char *asked)
{
    if (asked) {
        int i = manifest_find_dataset(m, asked);
        if (i < 0)
            bench_usage(xasprintf("lab %s has no dataset '%s'", m->id, asked));
        return i;
    }
    if (b->kind == BACKEND_GPU && m->perf.dataset >= 0)
        return m->perf.dataset;
    int best = -1;
    size_t best_size = 0;
    for (int i = 0; i < m->ndatasets; i++) {
        if (m->datasets[i].on_demand)
            continue;
        char *dir = dataset_dir(m, i);
        char *exp = xasprintf("%s/%s", dir, m->expected);
        gl_reference ref;
        gl_error err;
        if (gl_read_expected(exp, &ref, &err) == 0) {
            size_t n = (size_t)ref.rows * ref.cols * ref.channels;
            if (best < 0 || n > best_size) {
                best = i;
                best_size = n;
            }
            gl_reference_free(&ref);
        }
        free(exp);
        free(dir);
    }
    return best;
}

static void add_stretch_rows(lab_bench *lb)
{
    char *dir = kit_path("solutions/stretch/%s", lb->m->id);
    DIR *d = opendir(dir);
    if (d) {
        char *names[8];
        int n = 0;
        struct dirent *e;
        while ((e = readdir(d)) != NULL && n < 8)
            if (ends_with(e->d_name, ".cu"))
                names[n++] = xstrdup(e->d_name);
        closedir(d);
        for (int i = 0; i < n; i++) {
            char *label = xasprintf("stretch: %s", names[i]);
            char *src = xasprintf("%s/%s", dir, names[i]);
            add_row(lb, label, src);
            free(label);
            free(src);
            free(names[i]);
        }
    }
    free(dir);
}

static void lab_bench_free(lab_bench *lb)
{
    for (int i = 0; i < lb->nrows; i++)
        bench_row_free(&lb->rows[i]);
}

static int bench_one(const bench_options *o, const backend *b)
{
    char *id = manifest_resolve(o->lab);
    lab_manifest m;
    manifest_load(id, &m);
    if (m.perf.dataset < 0)
        bench_usage(xasprintf("lab %s has no performance dataset (\"performance\" in its lab.json)", id));
    int index = bench_dataset(&m, b, o->dataset);
    char *dir = dataset_dir(&m, index);
    char *workroot = make_temp_dir("gpulab-bench");
    lab_bench lb = { .m = &m, .baseline = -1, .reference = -1, .basic = -1 };
    char *label = xasprintf("your file (%s)", path_base(o->file));
    add_row(&lb, label, o->file);
    free(label);
    char *ref = reference_path(&m);
    if (file_exists(ref)) {
        lb.reference = lb.nrows;
        add_row(&lb, "reference solution", ref);
    }
    free(ref);
    bench_lab_rows(&lb, b, dir, workroot, o->calls);
    measure_basic(&lb, b, workroot, o->calls);
    print_lab_table(stdout, &lb, b, m.datasets[index].name, o->calls);
    int rc = lb.rows[0].status == ST_PASS ? 0 : 1;
    lab_bench_free(&lb);
    remove_work_dir(workroot);
    free(workroot);
    free(dir);
    manifest_free(&m);
    free(id);
    return rc;
}

/* Every lab with a performance dataset: its reference solution, the stretch
 * solutions, its baseline; one table, a JSON file and a picture. */
static int bench_ladder(const bench_options *o, const backend *b)
{
    const char *out = o->out ? o->out : "build/bench";
    if (make_dirs(out) != 0)
        die("cannot create %s: %s", out, strerror(errno));
    int nids;
    char **ids = manifest_list_ids(&nids);
    char *workroot = make_temp_dir("gpulab-ladder");
    plot_series plots[2];
    memset(plots, 0, sizeof plots);
    struct { char *label; double rate; } baselines[2] = { { NULL, 0 }, { NULL, 0 } };
    double basic_rate = 0, basic_j = 0, basic_k = 0, basic_l = 0;
    strbuf table;
    sb_init(&table);
    int rc = 0;
    for (int i = 0; i < nids; i++) {
        lab_manifest m;
        manifest_load(ids[i], &m);
        if (m.perf.dataset < 0) {
            manifest_free(&m);
            continue;
        }
        int index = bench_dataset(&m, b, NULL);
        char *dir = dataset_dir(&m, index);
        lab_bench lb = { .m = &m, .baseline = -1, .reference = 0, .basic = -1 };
        char *ref = reference_path(&m);
        char *label = xasprintf("lab %.2s reference solution", m.id);
        add_row(&lb, label, ref);
        free(label);
        free(ref);
        add_stretch_rows(&lb);
        bench_lab_rows(&lb, b, dir, workroot, o->calls);
        /* Lab 01 comes first: its basic kernel is the later labs' yardstick. */
        if (basic_rate > 0 && m.perf.work == WORK_MATMUL && basic_j == m.perf.j && basic_k == m.perf.k &&
            basic_l == m.perf.l && strcmp(m.id, "01-basic-matmul") != 0)
            lb.basic_rate = basic_rate;
        char *text = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&text, &len);
        print_lab_table(mem, &lb, b, m.datasets[index].name, o->calls);
        fclose(mem);
        fputs(text, stdout);
        fflush(stdout);
        sb_puts(&table, text);
        free(text);
        plot_series *p = &plots[m.perf.work == WORK_MATMUL ? 0 : 1];
        for (int k = 0; k < lb.nrows; k++) {
            if (lb.rows[k].status != ST_PASS)
                rc = 1;
            if (k != lb.baseline)
                plot_add(p, lb.rows[k].label, lb.rows[k].rate, 0);
        }
        /* The group's baseline: the first lab's, drawn last, below the rungs. */
        if (lb.baseline >= 0 && !baselines[p - plots].label) {
            baselines[p - plots].label = xstrdup(lb.rows[lb.baseline].label);
            baselines[p - plots].rate = lb.rows[lb.baseline].rate;
        }
        if (strcmp(m.id, "01-basic-matmul") == 0 && lb.rows[0].rate > 0) {
            basic_rate = lb.rows[0].rate;
            basic_j = m.perf.j, basic_k = m.perf.k, basic_l = m.perf.l;
        }
        if (!p->title)
            p->title = m.perf.work == WORK_MATMUL
                           ? xasprintf("Matrix product, %.0f x %.0f times %.0f x %.0f (%s)", m.perf.j,
                                       m.perf.k, m.perf.k, m.perf.l, bench_unit(&m))
                           : xasprintf("%dx%d convolution, %.0f x %.0f image, %.0f channels (%s)",
                                       MASK_WIDTH_OF_LABS, MASK_WIDTH_OF_LABS, m.perf.j, m.perf.k,
                                       m.perf.l, bench_unit(&m));
        lab_bench_free(&lb);
        free(dir);
        manifest_free(&m);
    }
    for (int k = 0; k < 2; k++)
        if (baselines[k].label) {
            plot_add(&plots[k], baselines[k].label, baselines[k].rate, 1);
            free(baselines[k].label);
        }
    char *txt = xasprintf("%s/ladder.txt", out);
    if (write_file_atomic(txt, table.buf ? table.buf : "", table.len) != 0)
        die("cannot write %s: %s", txt, strerror(errno));
    if (b->kind == BACKEND_GPU) {
        char *svg = xasprintf("%s/ladder.svg", out);
        char *subtitle = xasprintf("%s, driver %s; median of %d timed calls; baselines measured in the "
                                   "same run", b->device, b->driver, o->calls - 1);
        if (plot_write_svg(svg, "The kit's performance ladder", subtitle, plots, 2) != 0)
            die("cannot write %s: %s", svg, strerror(errno));
        printf("gpulab: the ladder is in %s and %s\n", txt, svg);
        free(svg);
        free(subtitle);
    } else {
        printf("gpulab: no picture on the emulator (no performance figures); the checks are in %s\n", txt);
    }
    for (int k = 0; k < 2; k++)
        plot_series_free(&plots[k]);
    free(txt);
    sb_free(&table);
    remove_work_dir(workroot);
    free(workroot);
    for (int i = 0; i < nids; i++)
        free(ids[i]);
    free(ids);
    return rc;
}

int cmd_bench(int argc, char **argv)
{
    bench_options o;
    parse_bench_options(argc, argv, &o);
    backend b;
    backend_choose(o.backend, &b);
    int rc = o.ladder ? bench_ladder(&o, &b) : bench_one(&o, &b);
    free(b.compiler);
    return rc;
}
