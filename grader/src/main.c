/*
 * main.c - gpulab's command line: list, start, check, grade, datasets, wb, import-wb, help.
 *
 * A submission's path through the grader (docs/architecture.md):
 *     build.c -> run.c -> compare.c -> report.c, strung together by grade.c.
 */
#define _GNU_SOURCE
#include "backend.h"
#include "batch.h"
#include "bench.h"
#include "build.h"
#include "datasets.h"
#include "export.h"
#include "html.h"
#include "grade.h"
#include "import_wb.h"
#include "kit.h"
#include "manifest.h"
#include "report.h"
#include "sandbox.h"
#include "slurm.h"
#include "tools.h"
#include "util.h"
#include "wb.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GPULAB_VERSION "0.1.0"

static const char usage_text[] =
    "gpulab " GPULAB_VERSION " - CUDA C teaching labs: build, run, compare, report\n"
    "\n"
    "usage:\n"
    "  gpulab list                       the labs and their titles\n"
    "  gpulab start LAB [DIR]            copy the lab's skeleton into DIR (default .)\n"
    "  gpulab check LAB FILE.cu [options]\n"
    "                                    check your file on the lab's public datasets\n"
    "      --dataset NAME|N              only this dataset (on-demand ones too)\n"
    "      --backend gpu|emu             where to run (default: the GPU if usable, else the emulator)\n"
    "      --format text|json            report format (default text)\n"
    "      --timeout SECONDS             per-dataset time limit (default: the lab's)\n"
    "      --no-sanitize                 skip the sanitizer stage (the checkers)\n"
    "      --checkers emulator|compute-sanitizer\n"
    "                                    on a GPU, whose checkers look for races, out-of-bounds\n"
    "                                    accesses and barriers (default: the emulator's race and\n"
    "                                    bounds builds, on the CPU; compute-sanitizer where the\n"
    "                                    emulator cannot build the file)\n"
    "      --maps DIR                    where image labs' error maps go (default ./gpulab-errormaps)\n"
    "      --html FILE                   the report as a web page too (- : on standard output, instead\n"
    "                                    of the text report)\n"
    "      --keep                        keep the work directory, for debugging\n"
    "      --verbose                     every failing dataset's details (default: datasets that fail\n"
    "                                    the same way are folded into one block)\n"
    "  gpulab bench LAB FILE.cu [--calls N] [--dataset NAME] [--backend gpu|emu]\n"
    "                                    time your file on the lab's performance dataset, next to\n"
    "                                    the reference solution and cuBLAS or a copy (same run)\n"
    "  gpulab bench --ladder [--out DIR] the kit's performance ladder: table and SVG (make bench)\n"
    "  gpulab grade LAB DIR_OR_FILE... [options]\n"
    "                                    grade a class: a folder of student folders or files, or files\n"
    "                                    (exit 0 when all were graded)\n"
    "      --jobs N                      builds at once (default: the cores grade may use)\n"
    "      --parallel N                  submissions built and graded at once, spread over the GPUs\n"
    "                                    (default: 8 per GPU; 1 on the emulator)\n"
    "      --records DIR                 one record per submission (default gpulab-records/LAB);\n"
    "                                    a re-run skips what is already graded\n"
    "      --format text|json|gradescope report format (gradescope: results.json, one submission)\n"
    "      --out FILE  --csv FILE  --junit FILE  (- for standard output)\n"
    "                                    the report, a CSV gradebook, JUnit XML\n"
    "      --html FILE                   the class page: the summary and a row per student (- : standard\n"
    "                                    output)\n"
    "      --feedback-dir DIR            one feedback page per student, DIR/ID.html (linked from --html)\n"
    "      --seed S | --secret K | --secret-file F\n"
    "                                    hidden datasets: regenerated from seed S, or from a secret\n"
    "                                    and each submission's id\n"
    "      --sandbox auto|unshare|uid|none\n"
    "                                    isolation of builds and runs (default auto: namespaces, as root\n"
    "                                    or as any user; as root where they are refused, a user per\n"
    "                                    submission (uid); without any, grade stops, exit 3, unless\n"
    "                                    --sandbox none is given)\n"
    "      --regrade ID                  grade this submission again (its record is removed first)\n"
    "      --shard K/N                   grade only shard K of N (0 <= K < N): the class split by a hash of\n"
    "                                    each submission's id, each submission in exactly one shard\n"
    "      --dataset NAME, --backend, --timeout, --no-sanitize, --checkers, --keep, --verbose as for check\n"
    "  gpulab slurm LAB DIR_OR_FILE... --tasks N [--wait] [grade's options] [-- SBATCH OPTIONS]\n"
    "                                    grade a class on a Slurm cluster: one array job of N tasks,\n"
    "                                    task K running grade --shard K/N into the shared --records\n"
    "                                    folder (again: only what has no record is graded)\n"
    "      --tasks N                     the array's size\n"
    "      --backend gpu|emu             gpu (default): --gres=gpu:1 and 8 CPUs a task; emu: 2 CPUs\n"
    "                                    a task (SBATCH OPTIONS, each as --option=VALUE, override them,\n"
    "                                    and add --partition, --time, ...)\n"
    "      --wait                        wait for the job, then print the class summary (exit 1 when\n"
    "                                    a submission still has no record)\n"
    "      --records, --dataset, --timeout, --seed, --secret-file, --no-sanitize, ... as for grade\n"
    "  gpulab export LAB RECORDS_DIR [--csv FILE] [--junit FILE] [--summary] [--html FILE]\n"
    "                               [--feedback-dir DIR]\n"
    "                                    the gradebook and JUnit XML again, from the records (- for\n"
    "                                    standard output); --summary: the class summary; --html and\n"
    "                                    --feedback-dir: the web pages, as for grade\n"
    "  gpulab gradescope-package LAB OUT.zip [--seed S | --secret-file F] [--backend emu|gpu]\n"
    "                                    the Gradescope autograder zip for a lab\n"
    "  gpulab datasets LAB [--seed S] [--out DIR] [--all]\n"
    "                                    regenerate the lab's datasets (--all: on-demand ones too)\n"
    "  gpulab inspect FILE...            validate data files (.raw, .ppm, .pgm, .tensor)\n"
    "  gpulab convert IN OUT             convert a matrix between those formats\n"
    "  gpulab compare LAB OUTPUT EXPECTED [--format text|json]\n"
    "                                    compare an output file under the lab's tolerance\n"
    "  gpulab explain-sanitizer REPORT [SOURCE]\n"
    "                                    turn a compute-sanitizer report into the kit's findings\n"
    "  gpulab wb FILE.cu [options] -- ARGS\n"
    "                                    build and run a Teaching Kit (libwb) program with its own\n"
    "                                    arguments (-i in0,in1 -e expected -o out -t type); exit 0 when\n"
    "                                    wbSolution's output is correct under the kit's tolerance\n"
    "      --backend gpu|emu             where to run (default: the GPU if usable, else the emulator)\n"
    "      --libwb-tolerance             judge by libwb's rule instead (|difference| <= 0.2)\n"
    "      --timeout SECONDS             time limit of the run (default 60)\n"
    "      --keep                        keep the work directory, for debugging\n"
    "  gpulab import-wb DIR LAB [--backend gpu|emu] [--no-requirements] [--sandbox auto|unshare|uid|none]\n"
    "                                    make a Teaching Kit lab folder (template.cu, solution.cu,\n"
    "                                    Dataset/<n>/, or the Kit's dataset_generator.cpp, run in the\n"
    "                                    sandbox) a lab of this kit named LAB, its harness built;\n"
    "                                    it asks for the shared memory, barriers and constant memory\n"
    "                                    the Kit's solution shows, a point each\n"
    "      --no-requirements             ask for none of them (lab.json's \"requirements\" can be edited)\n"
    "  gpulab help                       this text\n"
    "\n"
    "LAB is a lab's id (01-basic-matmul) or its number (1). Exit status of check:\n"
    "0 every dataset and requirement passed, 1 some did not, 2 usage or grader error.\n";

/* gpulab CMD --help: that command's part of the usage text. */
static int command_help(const char *cmd)
{
    char *head = xasprintf("  gpulab %s", cmd);
    const char *at = usage_text;
    while ((at = strstr(at, head)) != NULL && at[strlen(head)] != ' ' && at[strlen(head)] != '\n')
        at += strlen(head);
    free(head);
    if (!at) {
        fprintf(stderr, "gpulab: unknown command '%s'\n%s", cmd, usage_text);
        return 2;
    }
    const char *end = strstr(at + 1, "\n  gpulab ");
    const char *tail = strstr(at, "\n\n");
    if (!end || (tail && tail < end))
        end = tail;
    printf("usage:\n%.*s\n", (int)(end ? end - at : (long)strlen(at)), at);
    return 0;
}

static void usage_error(const char *fmt, const char *arg) __attribute__((noreturn));
static void usage_error(const char *fmt, const char *arg)
{
    fputs("gpulab: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nrun 'gpulab help' for usage\n", stderr);
    exit(2);
}

static int cmd_list(void)
{
    int n;
    char **ids = manifest_list_ids(&n);
    for (int i = 0; i < n; i++) {
        lab_manifest m;
        manifest_load(ids[i], &m);
        printf("%-22s %s\n", m.id, m.title);
        manifest_free(&m);
        free(ids[i]);
    }
    free(ids);
    return 0;
}

static int cmd_start(int argc, char **argv)
{
    if (argc < 1 || argc > 2)
        usage_error("usage: gpulab start LAB [DIR]%s", "");
    char *id = manifest_resolve(argv[0]);
    lab_manifest m;
    manifest_load(id, &m);
    const char *dir = argc == 2 ? argv[1] : ".";
    if (make_dirs(dir) != 0)
        die("cannot create %s: %s", dir, strerror(errno));
    char *from = kit_path("skeletons/%s/%s", m.id, m.source);
    char *to = xasprintf("%s/%s", dir, m.source);
    if (file_exists(to) || dir_exists(to))
        die("%s already exists; not overwriting your work (rename or delete it first)", to);
    if (copy_file(from, to) != 0)
        die("cannot copy %s to %s: %s", from, to, strerror(errno));
    printf("Created %s, the skeleton of lab %s (%s).\n", to, m.id, m.title);
    printf("Fill in its //@@ %sregions in order, then check your work with:\n", m.libwb_program ? "" : "TODO ");
    printf("    %s/gpulab check %s %s\n", kit_root(), m.id, to);
    /* a lab imported from the Teaching Kit has no walkthrough of the kit's */
    char *walkthrough = kit_path("docs/labs/%s.md", m.id);
    if (file_exists(walkthrough))
        printf("The lab's walkthrough: %s\n", walkthrough);
    free(walkthrough);
    free(from);
    free(to);
    manifest_free(&m);
    free(id);
    return 0;
}

typedef struct {
    const char *backend, *format, *out, *dataset, *html;
    double timeout_s;
    int keep;
    int no_sanitize;
    int checkers;
    int verbose;
    const char *maps;
    int nfiles;
    char **files;
    const char *lab;
} cli_options;

/* --checkers KIND. */
static int checkers_option(const char *kind)
{
    if (strcmp(kind, "compute-sanitizer") == 0)
        return CHECKERS_COMPUTE_SANITIZER;
    if (strcmp(kind, "emulator") != 0)
        usage_error("--checkers %s: expected emulator or compute-sanitizer", kind);
    return CHECKERS_EMULATOR;
}

/* compute-sanitizer needs a GPU; no checkers are chosen with them off. */
static void checkers_fit_backend(const grade_options *go, const backend *b)
{
    if (go->checkers != CHECKERS_DEFAULT && go->no_sanitize)
        usage_error("%s", "--checkers and --no-sanitize: choose one");
    if (go->checkers == CHECKERS_COMPUTE_SANITIZER && b->kind != BACKEND_GPU)
        usage_error("%s", "--checkers compute-sanitizer needs the GPU backend (this run is on the emulator)");
}

static void parse_options(int argc, char **argv, cli_options *o, int allow_many, int allow_out,
                          int allow_dataset)
{
    memset(o, 0, sizeof *o);
    o->files = xcalloc((size_t)argc + 1, sizeof(char *));
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--backend") == 0 && has_value)
            o->backend = argv[++i];
        else if (strcmp(a, "--format") == 0 && has_value)
            o->format = argv[++i];
        else if (strcmp(a, "--out") == 0 && has_value && allow_out)
            o->out = argv[++i];
        else if (strcmp(a, "--dataset") == 0 && has_value && allow_dataset)
            o->dataset = argv[++i];
        else if (strcmp(a, "--timeout") == 0 && has_value) {
            char *end;
            o->timeout_s = strtod(argv[++i], &end);
            if (*end || !(o->timeout_s > 0))
                usage_error("--timeout %s: expected a positive number of seconds", argv[i]);
        } else if (strcmp(a, "--keep") == 0)
            o->keep = 1;
        else if (strcmp(a, "--no-sanitize") == 0)
            o->no_sanitize = 1;
        else if (strcmp(a, "--checkers") == 0 && has_value)
            o->checkers = checkers_option(argv[++i]);
        else if (strcmp(a, "--verbose") == 0)
            o->verbose = 1;
        else if (strcmp(a, "--maps") == 0 && has_value)
            o->maps = argv[++i];
        else if (strcmp(a, "--html") == 0 && has_value)
            o->html = argv[++i];
        else if (a[0] == '-' && a[1] != '\0')
            usage_error("unknown or incomplete option '%s'", a);
        else if (!o->lab)
            o->lab = a;
        else
            o->files[o->nfiles++] = argv[i];
    }
    if (!o->lab || o->nfiles == 0)
        usage_error("expected a lab and %s", allow_many ? "one or more files" : "a file");
    if (!allow_many && o->nfiles > 1)
        usage_error("check takes one file (got more, starting with '%s'); use grade for several",
                    o->files[1]);
    if (o->format && strcmp(o->format, "text") != 0 && strcmp(o->format, "json") != 0)
        usage_error("--format %s: expected text or json", o->format);
    for (int i = 0; i < o->nfiles; i++)
        if (!file_exists(o->files[i]))
            usage_error("%s: no such file", o->files[i]);
}

static int any_grader_error(const submission_result *s)
{
    for (int i = 0; i < s->ndatasets; i++)
        if (s->datasets[i].status == ST_GRADER_ERROR)
            return 1;
    return 0;
}

static int all_pass(const submission_result *s)
{
    for (int i = 0; i < s->ndatasets; i++)
        if (s->datasets[i].status != ST_PASS)
            return 0;
    for (int i = 0; i < s->nrequirements; i++)
        if (s->requirements[i].status != ST_PASS)
            return 0;
    return 1;
}

/* Writes the report to --out (atomically) or to stdout. */
static void emit(const cli_options *o, const char *text)
{
    if (o->out) {
        if (write_file_atomic(o->out, text, strlen(text)) != 0)
            die("cannot write %s: %s", o->out, strerror(errno));
    } else {
        fputs(text, stdout);
        fflush(stdout);
    }
}

static int cmd_check_or_grade(int argc, char **argv, int grading)
{
    cli_options o;
    parse_options(argc, argv, &o, grading, grading, !grading);
    char *id = manifest_resolve(o.lab);
    lab_manifest m;
    manifest_load(id, &m);
    grade_options go = { .dataset = -1, .timeout_s = o.timeout_s, .keep = o.keep, .no_sanitize = o.no_sanitize,
                         .checkers = o.checkers, .maps_dir = o.maps };
    if (o.dataset) {
        go.dataset = manifest_find_dataset(&m, o.dataset);
        if (go.dataset < 0)
            usage_error("lab has no dataset '%s' (see datasets/ or the lab's lab.json)", o.dataset);
    }
    backend b;
    backend_choose(o.backend, &b);
    checkers_fit_backend(&go, &b);
    int json = o.format && strcmp(o.format, "json") == 0;
    int html_stdout = o.html && strcmp(o.html, "-") == 0;
    if (html_stdout && json)
        usage_error("--html - and --format json both want standard output%s", "");
    int color = !json && !o.out && report_want_color(STDOUT_FILENO);

    int rc = 0;
    strbuf text;
    sb_init(&text);
    cJSON *subs = cJSON_CreateArray();
    for (int i = 0; i < o.nfiles; i++) {
        submission_result s;
        /* a student's own file reached through a link: the build reads the
         * file itself (build.c never follows a link) */
        struct stat st;
        char *real = lstat(o.files[i], &st) == 0 && S_ISLNK(st.st_mode) ? realpath(o.files[i], NULL) : NULL;
        grade_submission(&m, &b, real ? real : o.files[i], &go, &s);
        free(real);
        if (any_grader_error(&s))
            rc = 2;
        else if (!grading && !all_pass(&s) && rc == 0)
            rc = 1;
        if (o.html) {
            cJSON *rec = report_json(&s);
            char *page = html_student_page(rec, m.source);
            if (write_output(o.html, page, strlen(page)) != 0)
                die("cannot write %s: %s", o.html, strerror(errno));
            free(page);
            cJSON_Delete(rec);
        }
        if (json) {
            cJSON_AddItemToArray(subs, report_json(&s));
        } else if (!html_stdout) {
            report_text(&text, &s, color, o.verbose);
            if (o.nfiles > 1)
                sb_puts(&text, "\n");
            if (!o.out) { /* stream each report as soon as it is ready */
                emit(&o, text.buf);
                sb_free(&text);
            }
        }
        submission_result_free(&s);
    }
    if (json) {
        cJSON *doc;
        if (grading) {
            doc = cJSON_CreateObject();
            cJSON_AddStringToObject(doc, "lab", m.id);
            cJSON_AddStringToObject(doc, "backend", b.name);
            cJSON_AddStringToObject(doc, "device", b.device);
            cJSON_AddStringToObject(doc, "grader_version", GPULAB_VERSION);
            cJSON_AddItemToObject(doc, "submissions", subs);
        } else {
            doc = cJSON_DetachItemFromArray(subs, 0);
            cJSON_Delete(subs);
        }
        char *printed = cJSON_Print(doc);
        sb_puts(&text, printed);
        sb_puts(&text, "\n");
        free(printed);
        cJSON_Delete(doc);
    } else {
        cJSON_Delete(subs);
    }
    if (text.len)
        emit(&o, text.buf);
    sb_free(&text);
    free(b.compiler);
    manifest_free(&m);
    free(id);
    free(o.files);
    return rc;
}

/* ---- grade: a class at a time (batch.c), with exports (export.c) ------------------ */

typedef struct {
    int format;         /* 0 text, 1 json, 2 gradescope */
    int color;
    int stream;         /* text reports go to stdout as each is ready */
    strbuf text;
} grade_output;

static void on_graded(const cJSON *rec, const char *report, void *ctx)
{
    grade_output *g = ctx;
    if (g->format != 0)
        return;
    if (report) {
        sb_puts(&g->text, report);
    } else {
        const cJSON *score = cJSON_GetObjectItemCaseSensitive(rec, "score");
        const cJSON *max = cJSON_GetObjectItemCaseSensitive(rec, "max_score");
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(rec, "id");
        const cJSON *at = cJSON_GetObjectItemCaseSensitive(rec, "graded_at");
        sb_printf(&g->text, "%s  already graded (%s): score %g/%g, %s\n",
                  cJSON_IsString(id) ? id->valuestring : "?", cJSON_IsString(at) ? at->valuestring : "?",
                  cJSON_IsNumber(score) ? score->valuedouble : 0, cJSON_IsNumber(max) ? max->valuedouble : 0,
                  export_status(rec));
    }
    sb_puts(&g->text, "\n");
    if (g->stream) {
        fputs(g->text.buf, stdout);
        fflush(stdout);
        sb_free(&g->text);
    }
}

static void write_or_die(const char *path, const char *text)
{
    if (write_output(path, text, strlen(text)) != 0)
        die("cannot write %s: %s", path, strerror(errno));
}

static unsigned long long parse_seed(const char *text)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    if (errno || *end || end == text || text[0] == '-' || v > (1ULL << 53))
        usage_error("--seed %s: expected a whole number below 2^53", text);
    return v;
}

/* Submissions graded at once. On a GPU, by default GRADE_PER_GPU per GPU
 * the runs may use (several checks share a GPU well: docs/performance.md);
 * but one per GPU when performance points are measured, which need the GPU
 * to themselves. On the emulator one: its runs use every core already. */
#define GRADE_PER_GPU 8
static int grading_workers(const lab_manifest *m, const backend *b, const batch_options *o, int asked)
{
    int timed = b->kind == BACKEND_GPU && m->perf.points > 0 && o->go.dataset < 0;
    int most = b->kind == BACKEND_GPU ? (timed ? b->ngpus : GRADE_PER_GPU * b->ngpus) : 1;
    if (asked > 0 && timed && asked > b->ngpus) {
        fprintf(stderr, "gpulab: --parallel %d: this lab's performance points are timed with the GPU to itself, "
                        "so %d at a time (one per GPU)\n", asked, b->ngpus);
        return b->ngpus;
    }
    return asked > 0 ? asked : most;
}

/* ---- grade's options: one table, read by grade and by slurm ------------------------ */

typedef struct {
    const char *lab, *backend, *format, *out, *dataset, *records, *csv, *junit, *seed, *secret, *secret_file;
    const char *sandbox, *html, *feedback_dir, *timeout, *jobs, *parallel, *checkers, *shard;
    int keep, verbose, no_sanitize;
    int ninputs, nregrade;
    char **inputs;
    const char **regrade;
    /* what grade_args_check reads from the text above */
    double timeout_s;
    int njobs, nparallel, checkers_kind, fmt, shard_k, shard_n;
} grade_args;

enum { ARG_VALUE, ARG_FLAG, ARG_LIST };

/* What gpulab slurm's array tasks do with each of grade's options. */
enum {
    TASK_PASS,  /* each task's grade gets it as it is */
    TASK_PATH,  /* ... as an absolute path (the tasks may start elsewhere) */
    TASK_SLURM, /* slurm sets it itself */
    TASK_NO     /* refused, with why_not */
};

static const struct grade_option {
    const char *name;
    int kind;
    size_t at;              /* its field in grade_args: a const char *, an int (ARG_FLAG) */
    int task;
    const char *why_not;    /* TASK_NO: why a Slurm job does not take it, and what to do */
} grade_option_table[] = {
    { "--backend", ARG_VALUE, offsetof(grade_args, backend), TASK_SLURM, NULL },
    { "--records", ARG_VALUE, offsetof(grade_args, records), TASK_SLURM, NULL },
    { "--shard", ARG_VALUE, offsetof(grade_args, shard), TASK_NO, "each array task grades its own shard" },
    { "--dataset", ARG_VALUE, offsetof(grade_args, dataset), TASK_PASS, NULL },
    { "--timeout", ARG_VALUE, offsetof(grade_args, timeout), TASK_PASS, NULL },
    { "--jobs", ARG_VALUE, offsetof(grade_args, jobs), TASK_PASS, NULL },
    { "--parallel", ARG_VALUE, offsetof(grade_args, parallel), TASK_PASS, NULL },
    { "--checkers", ARG_VALUE, offsetof(grade_args, checkers), TASK_PASS, NULL },
    { "--no-sanitize", ARG_FLAG, offsetof(grade_args, no_sanitize), TASK_PASS, NULL },
    { "--keep", ARG_FLAG, offsetof(grade_args, keep), TASK_PASS, NULL },
    { "--verbose", ARG_FLAG, offsetof(grade_args, verbose), TASK_PASS, NULL },
    { "--sandbox", ARG_VALUE, offsetof(grade_args, sandbox), TASK_PASS, NULL },
    { "--seed", ARG_VALUE, offsetof(grade_args, seed), TASK_PASS, NULL },
    { "--secret-file", ARG_VALUE, offsetof(grade_args, secret_file), TASK_PATH, NULL },
    { "--secret", ARG_VALUE, offsetof(grade_args, secret), TASK_NO,
      "it would be in every task's command line (scontrol show job); put it in a file only you can read, "
      "on the shared folder, and give --secret-file FILE" },
    { "--format", ARG_VALUE, offsetof(grade_args, format), TASK_NO,
      "each task's report goes to its log as text; after the job, gpulab export LAB RECORDS makes the "
      "class's files from the records" },
    { "--out", ARG_VALUE, offsetof(grade_args, out), TASK_NO,
      "each task's report goes to its log (RECORDS/slurm/JOB_TASK.log)" },
    { "--csv", ARG_VALUE, offsetof(grade_args, csv), TASK_NO,
      "the gradebook is the whole class's: after the job, gpulab export LAB RECORDS --csv FILE" },
    { "--junit", ARG_VALUE, offsetof(grade_args, junit), TASK_NO,
      "after the job, gpulab export LAB RECORDS --junit FILE" },
    { "--html", ARG_VALUE, offsetof(grade_args, html), TASK_NO,
      "the class page is the whole class's: after the job, gpulab export LAB RECORDS --html FILE" },
    { "--feedback-dir", ARG_VALUE, offsetof(grade_args, feedback_dir), TASK_NO,
      "after the job, gpulab export LAB RECORDS --feedback-dir DIR" },
    { "--regrade", ARG_LIST, 0, TASK_NO,
      "remove that record first (gpulab grade LAB DIR --regrade ID on one machine), then submit again" },
};

static const struct grade_option *grade_option_named(const char *name)
{
    for (size_t i = 0; i < sizeof grade_option_table / sizeof grade_option_table[0]; i++)
        if (strcmp(grade_option_table[i].name, name) == 0)
            return &grade_option_table[i];
    return NULL;
}

static const char **grade_arg_value(grade_args *a, const struct grade_option *o)
{
    return (const char **)(void *)((char *)a + o->at);
}

static int *grade_arg_flag(grade_args *a, const struct grade_option *o)
{
    return (int *)(void *)((char *)a + o->at);
}

/* Whether the command line gave option o. */
static int grade_arg_given(grade_args *a, const struct grade_option *o)
{
    if (o->kind == ARG_LIST)
        return a->nregrade > 0;
    return o->kind == ARG_FLAG ? *grade_arg_flag(a, o) : *grade_arg_value(a, o) != NULL;
}

/* Options whose value chooses the hidden datasets: the grader keeps a copy
 * and blanks the command line's, which /proc shows every process of the
 * machine (a run in the uid mode, another user) while grading goes on. */
static int value_is_secret(const char *name)
{
    return strcmp(name, "--secret") == 0 || strcmp(name, "--seed") == 0;
}

/* grade's command line into a: the options by the table, then the lab and
 * the submissions. */
static void grade_args_parse(int argc, char **argv, grade_args *a)
{
    memset(a, 0, sizeof *a);
    a->inputs = xcalloc((size_t)argc + 1, sizeof(char *));
    a->regrade = xcalloc((size_t)argc + 1, sizeof(char *));
    for (int i = 0; i < argc; i++) {
        const struct grade_option *o = grade_option_named(argv[i]);
        if (o && o->kind == ARG_FLAG)
            *grade_arg_flag(a, o) = 1;
        else if (o && i + 1 < argc && o->kind == ARG_LIST)
            a->regrade[a->nregrade++] = argv[++i];
        else if (o && i + 1 < argc && value_is_secret(o->name)) {
            *grade_arg_value(a, o) = xstrdup(argv[++i]);
            memset(argv[i], '*', strlen(argv[i]));
        } else if (o && i + 1 < argc)
            *grade_arg_value(a, o) = argv[++i];
        else if (argv[i][0] == '-' && argv[i][1] != '\0')
            usage_error("unknown or incomplete option '%s'", argv[i]);
        else if (!a->lab)
            a->lab = argv[i];
        else
            a->inputs[a->ninputs++] = argv[i];
    }
}

/* A whole number from lo to hi, or -1. */
static int parse_count(const char *text, int lo, int hi)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    if (errno || !(*text >= '0' && *text <= '9') || *end || v < lo || v > hi)
        return -1;
    return (int)v;
}

/* --shard K/N: 0 <= K < N. */
static void parse_shard(grade_args *a)
{
    const char *slash = strchr(a->shard, '/');
    char *k = slash ? xasprintf("%.*s", (int)(slash - a->shard), a->shard) : NULL;
    a->shard_n = slash ? parse_count(slash + 1, 1, 100000) : -1;
    a->shard_k = k && a->shard_n > 0 ? parse_count(k, 0, a->shard_n - 1) : -1;
    free(k);
    if (a->shard_n < 0 || a->shard_k < 0)
        usage_error("--shard %s: expected K/N, this task's shard K of N (0 <= K < N, N at most 100000): "
                    "every submission falls to exactly one of the N", a->shard);
}

/* Standard output takes one file: the report (no --out, or --out -) or one
 * of the others given as "-", never two mixed together. */
static void one_standard_output(const grade_args *a)
{
    const char *names[4] = { "the report", "--html -", "--csv -", "--junit -" };
    int wants[4] = { !a->out || strcmp(a->out, "-") == 0, a->html && strcmp(a->html, "-") == 0,
                     a->csv && strcmp(a->csv, "-") == 0, a->junit && strcmp(a->junit, "-") == 0 };
    int first = -1;
    for (int k = 1; k < 4; k++)
        if (wants[k] && first < 0)
            first = k;
    for (int k = 0; k < 4 && first > 0; k++)
        if (wants[k] && k != first)
            usage_error("%s", xasprintf("%s: standard output already has %s; send one of them elsewhere "
                                        "(--out FILE for the report)", names[first], names[k]));
}

/* grade's options read and checked, each error said with the option. */
static void grade_args_check(grade_args *a)
{
    if (!a->lab || a->ninputs == 0)
        usage_error("expected a lab and %s", "one or more submissions (folders or files)");
    if (a->timeout) {
        char *end;
        a->timeout_s = strtod(a->timeout, &end);
        if (*end || !(a->timeout_s > 0))
            usage_error("--timeout %s: expected a positive number of seconds", a->timeout);
    }
    if (a->jobs && (a->njobs = parse_count(a->jobs, 1, 1024)) < 0)
        usage_error("--jobs %s: expected a number of builds at once, 1 or more", a->jobs);
    if (a->parallel && (a->nparallel = parse_count(a->parallel, 1, 256)) < 0)
        usage_error("--parallel %s: expected a number of submissions graded at once, 1 or more", a->parallel);
    a->checkers_kind = a->checkers ? checkers_option(a->checkers) : CHECKERS_DEFAULT;
    const char *format = a->format ? a->format : "text";
    a->fmt = strcmp(format, "text") == 0 ? 0 : strcmp(format, "json") == 0 ? 1
           : strcmp(format, "gradescope") == 0 ? 2 : -1;
    if (a->fmt < 0)
        usage_error("--format %s: expected text, json or gradescope", format);
    if (a->shard)
        parse_shard(a);
    if (a->shard && a->fmt == 2)
        usage_error("%s", "--shard and --format gradescope: Gradescope's results.json is one submission's");
    one_standard_output(a);
    if ((a->seed != NULL) + (a->secret != NULL) + (a->secret_file != NULL) > 1)
        usage_error("%s: choose one of --seed, --secret and --secret-file", "hidden datasets");
    for (int i = 0; i < a->ninputs; i++)
        if (!file_exists(a->inputs[i]) && !dir_exists(a->inputs[i]))
            usage_error("%s: no such file or folder", a->inputs[i]);
    if (!a->sandbox)
        a->sandbox = "auto";
}

/* --records, or the default: gpulab-records/LAB (malloc'd). */
static char *records_folder(const grade_args *a, const lab_manifest *m)
{
    return a->records ? xstrdup(a->records) : xasprintf("gpulab-records/%s", m->id);
}

/* A class with nothing in it. */
static void die_no_submissions(const grade_args *a, const lab_manifest *m) __attribute__((noreturn));
static void die_no_submissions(const grade_args *a, const lab_manifest *m)
{
    die("found no submission in %s%s (expected folders holding %s, or .cu files)", a->inputs[0],
        a->ninputs > 1 ? " and the rest" : "", m->source);
}

static int cmd_grade(int argc, char **argv)
{
    grade_args a;
    grade_args_parse(argc, argv, &a);
    grade_args_check(&a);

    char *id = manifest_resolve(a.lab);
    lab_manifest m;
    manifest_load(id, &m);
    batch_options bo;
    memset(&bo, 0, sizeof bo);
    bo.go.dataset = -1;
    bo.go.timeout_s = a.timeout_s;
    bo.go.keep = a.keep;
    bo.go.no_sanitize = a.no_sanitize;
    bo.go.checkers = a.checkers_kind;
    if (a.dataset) {
        bo.go.dataset = manifest_find_dataset(&m, a.dataset);
        if (bo.go.dataset < 0)
            usage_error("lab has no dataset '%s' (see datasets/ or the lab's lab.json)", a.dataset);
    }
    char *secret_text = NULL;
    if (a.secret_file) {
        secret_text = read_file(a.secret_file, NULL);
        if (!secret_text)
            die("cannot read %s: %s", a.secret_file, strerror(errno));
        secret_text[strcspn(secret_text, "\r\n")] = '\0';
        if (!*secret_text)
            die("%s: the secret is empty", a.secret_file);
        a.secret = secret_text;
    }
    if (a.seed) {
        bo.use_seed = 1;
        bo.seed = parse_seed(a.seed);
    }
    bo.secret = a.secret;
    char *records_dir = records_folder(&a, &m);
    bo.records_dir = records_dir;
    /* --regrade ID: that student's record goes, so the batch grades them again */
    for (int i = 0; i < a.nregrade; i++) {
        for (const char *c = a.regrade[i]; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
                  *c == '_' || *c == '.') || a.regrade[i][0] == '.')
                usage_error("--regrade %s: not a submission id (the ids are the records' file names)", a.regrade[i]);
        char *path = xasprintf("%s/%s.json", records_dir, a.regrade[i]);
        if (unlink(path) == 0)
            fprintf(stderr, "gpulab: --regrade %s: its record is removed; it is graded again\n", a.regrade[i]);
        else if (errno == ENOENT)
            fprintf(stderr, "gpulab: --regrade %s: no record %s, so it is graded anyway\n", a.regrade[i], path);
        else
            die("--regrade %s: cannot remove %s: %s", a.regrade[i], path, strerror(errno));
        free(path);
    }
    bo.grader_version = GPULAB_VERSION;
    bo.jobs = a.njobs > 0 ? a.njobs : usable_cores();
    bo.progress = isatty(STDERR_FILENO) && !getenv("GPULAB_NO_PROGRESS");

    int nentries;
    batch_entry *entries = batch_collect(&m, a.inputs, a.ninputs, &nentries);
    if (a.fmt == 2 && a.ninputs == 1 && dir_exists(a.inputs[0]) && nentries != 1) {
        /* Gradescope: the folder is one student's upload. Several .cu files
         * and none named as the lab asks (or none at all) is theirs to fix:
         * a record that tells them so, not a failure of the grader. */
        char *why = nentries == 0 ? xasprintf("your upload has no %s (and no other .cu file): upload %s", m.source,
                                              m.source)
                                  : xasprintf("your upload has %d .cu files and none is named %s: name the one "
                                              "to grade %s (or upload only that one)", nentries, m.source,
                                              m.source);
        batch_entries_free(entries, nentries);
        entries = xcalloc(1, sizeof *entries);
        entries[0].id = xstrdup("submission");
        entries[0].problem = why;
        nentries = 1;
    }
    if (nentries == 0)
        die_no_submissions(&a, &m);
    if (a.fmt == 2 && nentries != 1)
        die("--format gradescope makes one submission's results.json, and there are %d", nentries);
    if (a.shard) { /* this task's share of the class: the ids decide (batch_shard_of) */
        int whole = nentries;
        nentries = batch_keep_shard(entries, nentries, a.shard_k, a.shard_n);
        fprintf(stderr, "gpulab: shard %d/%d: %d of the class's %d submissions\n", a.shard_k, a.shard_n, nentries,
                whole);
    }

    backend b;
    backend_choose(a.backend, &b);
    checkers_fit_backend(&bo.go, &b);
    sandbox_init(a.sandbox, a.keep);
    for (int i = 0; i < a.ninputs; i++) /* no run sees the class's files */
        sandbox_hide(a.inputs[i]);
    if (a.secret_file)
        sandbox_hide(a.secret_file);

    grade_output g;
    memset(&g, 0, sizeof g);
    sb_init(&g.text);
    g.format = a.fmt;
    g.color = a.fmt == 0 && !a.out && report_want_color(STDOUT_FILENO);
    g.stream = a.fmt == 0 && !a.out;
    bo.text_reports = a.fmt == 0;
    bo.color = g.color;
    bo.verbose = a.verbose;
    bo.parallel = grading_workers(&m, &b, &bo, a.nparallel);
    batch_summary sum;
    cJSON *recs = batch_run(&m, &b, entries, nentries, &bo, on_graded, &g, &sum);

    if (a.fmt == 0) {
        sb_printf(&g.text, "%-24s %-10s %s\n", "submission", "score", "status");
        const cJSON *rec;
        cJSON_ArrayForEach(rec, recs) {
            const cJSON *rid = cJSON_GetObjectItemCaseSensitive(rec, "id");
            char pts[48];
            snprintf(pts, sizeof pts, "%g/%g", cJSON_GetObjectItemCaseSensitive(rec, "score")->valuedouble,
                     cJSON_GetObjectItemCaseSensitive(rec, "max_score")->valuedouble);
            sb_printf(&g.text, "%-24s %-10s %s\n", rid->valuestring, pts, export_status(rec));
        }
        char *summary = export_summary(recs);
        sb_printf(&g.text, "\n%s", summary);
        free(summary);
        sb_printf(&g.text, "\n%d submissions of %s: %d graded, %d already graded; %.1f s on %s; records in %s; "
                  "sandbox: %s\n", sum.total, m.id, sum.graded, sum.skipped, sum.seconds, b.device, records_dir,
                  sandbox_mode());
    } else {
        cJSON *doc;
        if (a.fmt == 1) {
            doc = cJSON_CreateObject();
            cJSON_AddStringToObject(doc, "lab", m.id);
            cJSON_AddStringToObject(doc, "backend", b.name);
            cJSON_AddStringToObject(doc, "device", b.device);
            cJSON_AddStringToObject(doc, "grader_version", GPULAB_VERSION);
            cJSON_AddStringToObject(doc, "sandbox", sandbox_mode());
            cJSON_AddItemReferenceToObject(doc, "submissions", recs);
        } else {
            doc = export_gradescope(cJSON_GetArrayItem(recs, 0));
        }
        char *printed = cJSON_Print(doc);
        sb_puts(&g.text, printed);
        sb_puts(&g.text, "\n");
        free(printed);
        cJSON_Delete(doc);
        if (a.fmt == 1) {
            char *summary = export_summary(recs);
            fputs(summary, stderr);
            free(summary);
        }
        fprintf(stderr, "gpulab: %d submissions of %s: %d graded, %d already graded, in %.1f s; records in %s; "
                "sandbox: %s\n", sum.total, m.id, sum.graded, sum.skipped, sum.seconds, records_dir, sandbox_mode());
    }
    if (a.out)
        write_or_die(a.out, g.text.buf ? g.text.buf : "");
    else if (g.text.len) {
        fputs(g.text.buf, stdout);
        fflush(stdout);
    }
    if (a.csv || a.junit || a.html || a.feedback_dir) {
        /* The gradebook is the whole records folder's, so grading one
         * student (or a regrade) never shrinks the class's to one row. */
        cJSON *all = export_load_records(records_dir, m.id);
        int nall = cJSON_GetArraySize(all);
        if (nall != cJSON_GetArraySize(recs))
            fprintf(stderr, "gpulab: the gradebook holds every record in %s: %d submissions (%d in this batch)\n",
                    records_dir, nall, cJSON_GetArraySize(recs));
        if (a.csv) {
            char *t = export_csv(all, m.source);
            write_or_die(a.csv, t);
            free(t);
        }
        if (a.junit) {
            char *t = export_junit(m.id, all);
            write_or_die(a.junit, t);
            free(t);
        }
        html_write_reports(all, m.id, m.source, a.html, a.feedback_dir);
        cJSON_Delete(all);
    }
    sb_free(&g.text);
    cJSON_Delete(recs);
    batch_entries_free(entries, nentries);
    free(records_dir);
    free(secret_text);
    free(b.compiler);
    manifest_free(&m);
    free(id);
    free(a.inputs);
    free(a.regrade);
    return sum.grader_errors ? 2 : 0;
}

/* ---- slurm: a class as an array job (slurm.c) ------------------------------------------ */

/* The grade command each task runs: the class and the options that decide
 * its records, paths made absolute (a task may start in another folder),
 * the shard left for the task to add. */
static char **task_command(grade_args *a, const lab_manifest *m, const char *backend, const char *records)
{
    size_t most = 8 + (size_t)a->ninputs + 2 * (sizeof grade_option_table / sizeof grade_option_table[0]);
    char **argv = xcalloc(most, sizeof *argv);
    int k = 0;
    argv[k++] = kit_path("gpulab");
    if (!is_executable(argv[0]))
        die("the tasks would run %s, which is not an executable here: build the kit (make) in a folder every "
            "node sees", argv[0]);
    argv[k++] = xstrdup("grade");
    argv[k++] = xstrdup(m->id);
    for (int i = 0; i < a->ninputs; i++)
        argv[k++] = path_absolute(a->inputs[i]);
    argv[k++] = xstrdup("--records");
    argv[k++] = xstrdup(records);
    argv[k++] = xstrdup("--backend");
    argv[k++] = xstrdup(backend);
    for (size_t i = 0; i < sizeof grade_option_table / sizeof grade_option_table[0]; i++) {
        const struct grade_option *o = &grade_option_table[i];
        if ((o->task != TASK_PASS && o->task != TASK_PATH) || !grade_arg_given(a, o))
            continue;
        argv[k++] = xstrdup(o->name);
        if (o->kind == ARG_VALUE)
            argv[k++] = o->task == TASK_PATH ? path_absolute(*grade_arg_value(a, o)) : xstrdup(*grade_arg_value(a, o));
    }
    argv[k] = NULL;
    return argv;
}

/* grade's options that a Slurm job does not take, refused with why. */
static void refuse_task_options(grade_args *a)
{
    for (size_t i = 0; i < sizeof grade_option_table / sizeof grade_option_table[0]; i++) {
        const struct grade_option *o = &grade_option_table[i];
        if (o->task == TASK_NO && grade_arg_given(a, o))
            usage_error("%s", xasprintf("slurm: %s: %s", o->name, o->why_not));
    }
}

/* The options after "--", sbatch's: each one an option (a word that is not
 * would be taken for the batch script), and none that would change the
 * array or the script, which are the kit's. */
static void check_sbatch_options(char **opts, int n)
{
    for (int i = 0; i < n; i++) {
        const char *o = opts[i];
        if (o[0] != '-')
            usage_error("slurm: after --, sbatch's options, each starting with -: '%s' is not one (give a value "
                        "as --option=VALUE)", o);
        if (strncmp(o, "--array", 7) == 0 || (o[1] == 'a' && o[0] == '-') || strncmp(o, "--wrap", 6) == 0)
            usage_error("slurm: %s: the array (--tasks N) and the batch script are gpulab's", o);
    }
}

/* gpulab slurm LAB DIR... --tasks N [--wait] [grade's options] [-- SBATCH OPTIONS]:
 * slurm's own options out, grade's through grade's table, sbatch's as
 * they are. */
static int cmd_slurm(int argc, char **argv)
{
    int dash = 0;
    while (dash < argc && strcmp(argv[dash], "--") != 0)
        dash++;
    const char *tasks = NULL;
    int wait = 0, nrest = 0;
    char **rest = xcalloc((size_t)dash + 1, sizeof *rest);
    for (int i = 0; i < dash; i++) {
        const struct grade_option *o = grade_option_named(argv[i]);
        if (strcmp(argv[i], "--tasks") == 0 && i + 1 < dash)
            tasks = argv[++i];
        else if (strcmp(argv[i], "--wait") == 0)
            wait = 1;
        else {
            rest[nrest++] = argv[i];
            if (o && o->kind != ARG_FLAG && i + 1 < dash)
                rest[nrest++] = argv[++i];
        }
    }
    grade_args a;
    grade_args_parse(nrest, rest, &a);
    grade_args_check(&a);
    refuse_task_options(&a);
    check_sbatch_options(argv + dash + (dash < argc), argc - dash - (dash < argc));
    int ntasks = tasks ? parse_count(tasks, 1, 100000) : -1;
    if (ntasks < 0)
        usage_error("slurm: --tasks %s: expected how many array tasks share the class (1 or more)",
                    tasks ? tasks : "N is missing;");
    const char *backend = a.backend ? a.backend : "gpu";
    if (strcmp(backend, "gpu") != 0 && strcmp(backend, "emu") != 0)
        usage_error("slurm: --backend %s: expected gpu or emu", backend);

    char *id = manifest_resolve(a.lab);
    lab_manifest m;
    manifest_load(id, &m);
    int nentries;
    batch_entry *entries = batch_collect(&m, a.inputs, a.ninputs, &nentries); /* an id clash stops it here */
    if (nentries == 0)
        die_no_submissions(&a, &m);
    char *given = records_folder(&a, &m);
    char *records = path_absolute(given);
    free(given);
    char **task_argv = task_command(&a, &m, backend, records);
    slurm_job j = { &m, ntasks, wait, strcmp(backend, "gpu") == 0, records, task_argv,
                    argv + dash + (dash < argc), argc - dash - (dash < argc), entries, nentries };
    int rc = slurm_run(&j);
    for (int i = 0; task_argv[i]; i++)
        free(task_argv[i]);
    free(task_argv);
    free(records);
    batch_entries_free(entries, nentries);
    manifest_free(&m);
    free(id);
    free(rest);
    free(a.inputs);
    free(a.regrade);
    return rc;
}

/* gpulab export LAB RECORDS_DIR [--csv FILE] [--junit FILE]: the exports again. */
static int cmd_export(int argc, char **argv)
{
    const char *lab = NULL, *dir = NULL, *csv = NULL, *junit = NULL, *html = NULL, *feedback_dir = NULL;
    int summary = 0;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--summary") == 0)
            summary = 1;
        else if (strcmp(argv[i], "--csv") == 0 && i + 1 < argc)
            csv = argv[++i];
        else if (strcmp(argv[i], "--junit") == 0 && i + 1 < argc)
            junit = argv[++i];
        else if (strcmp(argv[i], "--html") == 0 && i + 1 < argc)
            html = argv[++i];
        else if (strcmp(argv[i], "--feedback-dir") == 0 && i + 1 < argc)
            feedback_dir = argv[++i];
        else if (argv[i][0] != '-' && !lab)
            lab = argv[i];
        else if (argv[i][0] != '-' && !dir)
            dir = argv[i];
        else
            usage_error("export: unexpected argument '%s'", argv[i]);
    }
    if (!lab || !dir)
        usage_error("usage: gpulab export LAB RECORDS_DIR [--csv FILE] [--junit FILE] [--summary] [--html FILE] "
                    "[--feedback-dir DIR]%s", "");
    char *id = manifest_resolve(lab);
    cJSON *recs = export_load_records(dir, id);
    lab_manifest em;
    manifest_load(id, &em);
    char *t = export_csv(recs, em.source);
    if (csv)
        write_or_die(csv, t);
    else if (!junit && !summary && !html && !feedback_dir)
        fputs(t, stdout);
    free(t);
    if (summary) {
        t = export_summary(recs);
        fputs(t, stdout);
        free(t);
    }
    if (junit) {
        t = export_junit(id, recs);
        write_or_die(junit, t);
        free(t);
    }
    html_write_reports(recs, id, em.source, html, feedback_dir);
    manifest_free(&em);
    cJSON_Delete(recs);
    free(id);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "help") == 0 || strcmp(argv[1], "--help") == 0 ||
        strcmp(argv[1], "-h") == 0) {
        fputs(usage_text, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("gpulab %s\n", GPULAB_VERSION);
        return 0;
    }
    kit_locate(argv[0]);
    build_init();
    const char *cmd = argv[1];
    /* after "--" the arguments are a program's own (gpulab wb) */
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return command_help(cmd);
    if (strcmp(cmd, "list") == 0)
        return cmd_list();
    if (strcmp(cmd, "start") == 0)
        return cmd_start(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0)
        return cmd_check_or_grade(argc - 2, argv + 2, 0);
    if (strcmp(cmd, "bench") == 0)
        return cmd_bench(argc - 2, argv + 2);
    if (strcmp(cmd, "grade") == 0)
        return cmd_grade(argc - 2, argv + 2);
    if (strcmp(cmd, "slurm") == 0)
        return cmd_slurm(argc - 2, argv + 2);
    if (strcmp(cmd, "export") == 0)
        return cmd_export(argc - 2, argv + 2);
    if (strcmp(cmd, "gradescope-package") == 0)
        return cmd_gradescope_package(argc - 2, argv + 2);
    if (strcmp(cmd, "datasets") == 0)
        return cmd_datasets(argc - 2, argv + 2);
    if (strcmp(cmd, "inspect") == 0)
        return cmd_inspect(argc - 2, argv + 2);
    if (strcmp(cmd, "convert") == 0)
        return cmd_convert(argc - 2, argv + 2);
    if (strcmp(cmd, "compare") == 0)
        return cmd_compare(argc - 2, argv + 2);
    if (strcmp(cmd, "import-wb") == 0)
        return cmd_import_wb(argc - 2, argv + 2);
    if (strcmp(cmd, "wb") == 0)
        return cmd_wb(argc - 2, argv + 2);
    if (strcmp(cmd, "explain-sanitizer") == 0)
        return cmd_explain_sanitizer(argc - 2, argv + 2);
    usage_error("unknown command '%s'", cmd);
}
