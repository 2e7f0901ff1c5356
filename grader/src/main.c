/*
 * main.c - gpulab's command line: list, start, check, grade, datasets, wb, import-wb, help.
 *
 * A submission's path through the grader (docs/architecture.md):
 *     build.c -> run.c -> compare.c -> report.c, strung together by grade.c.
 */
#define _GNU_SOURCE
#include "adjust.h"
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
#include "options.h"
#include "package.h"
#include "report.h"
#include "sandbox.h"
#include "similar.h"
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

static const char usage_head[] =
    "gpulab " GPULAB_VERSION " - CUDA C teaching labs: build, run, compare, report\n"
    "\n"
    "usage:\n";
static const char usage_tail[] =
    "\n"
    "LAB is a lab's id (01-basic-matmul) or its number (1). Exit status of check:\n"
    "0 every dataset and requirement passed, 1 some did not, 2 usage or grader error.\n";

static void usage_error(const char *fmt, const char *arg) __attribute__((noreturn));
static void usage_error(const char *fmt, const char *arg)
{
    fputs("gpulab: ", stderr);
    fprintf(stderr, fmt, arg);
    fputs("\nrun 'gpulab help' for usage\n", stderr);
    exit(2);
}

static int cmd_list(int argc, char **argv)
{
    if (argc > 0)
        usage_error("list takes no arguments (got '%s')", argv[0]);
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
    char *from = manifest_skeleton_path(&m);
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

/* check's command line (check_options). */
typedef struct {
    const char *backend, *format, *dataset, *html, *timeout, *checkers, *maps;
    int keep, no_sanitize, verbose;
    /* from the words above, by parse_options */
    double timeout_s;
    int checkers_kind;
    const char **words;     /* the lab, then the files */
    int nfiles;
    const char **files;
    const char *lab;
} cli_options;

static const option_spec check_options[] = {
    { "--dataset", OPT_VALUE, offsetof(cli_options, dataset), "NAME|N", "only this dataset (on-demand ones too)", 0 },
    { "--backend", OPT_VALUE, offsetof(cli_options, backend), "gpu|emu",
      "where to run (default: the GPU if usable, else the emulator)", 0 },
    { "--format", OPT_VALUE, offsetof(cli_options, format), "text|json", "report format (default text)", 0 },
    { "--timeout", OPT_VALUE, offsetof(cli_options, timeout), "SECONDS",
      "per-dataset time limit (default: the lab's)", 0 },
    { "--no-sanitize", OPT_FLAG, offsetof(cli_options, no_sanitize), NULL,
      "skip the sanitizer stage (the checkers) and the repair\nsearch: the checkers' points are not checked, and a file\nthat passes all else exits 3", 0 },
    { "--checkers", OPT_VALUE, offsetof(cli_options, checkers), "emulator|compute-sanitizer",
      "on a GPU, whose checkers look for races, out-of-bounds\naccesses and barriers (default: the emulator's race and\n"
      "bounds builds, on the CPU; compute-sanitizer where the\nemulator cannot build the file)", 0 },
    { "--maps", OPT_VALUE, offsetof(cli_options, maps), "DIR",
      "where image labs' error maps go (default ./gpulab-errormaps)", 0 },
    { "--html", OPT_VALUE, offsetof(cli_options, html), "FILE",
      "the report as a web page too (- : on standard output, instead\nof the text report)", 0 },
    { "--keep", OPT_FLAG, offsetof(cli_options, keep), NULL, "keep the work directory, for debugging", 0 },
    { "--verbose", OPT_FLAG, offsetof(cli_options, verbose), NULL,
      "every failing dataset's details (default: datasets that fail\nthe same way are folded into one block)", 0 },
};
#define COUNT(table) (sizeof(table) / sizeof((table)[0]))

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

/* A command's words by its table; a word that is no option of it, or an
 * option without its value, is a usage error. positional: argc + 1
 * entries. Returns where "--" is (argc without one) when stop_at_dashdash. */
static int parse_or_die(const option_spec *table, size_t n, void *args, int argc, char **argv, int stop_at_dashdash,
                        const char **positional, int *npositional)
{
    const char *bad = NULL;
    int at = options_parse(table, n, args, argc, argv, stop_at_dashdash, positional, npositional, &bad);
    if (at < 0)
        usage_error("unknown or incomplete option '%s'", bad);
    return at;
}

/* A command of the form LAB THING...: its options by table into args; the
 * lab and the rest (pointers into *words, which the caller frees). Returns
 * where "--" is, as parse_or_die. */
static int parse_lab_command(const option_spec *table, size_t n, void *args, int argc, char **argv,
                             int stop_at_dashdash, const char ***words, const char **lab, const char ***rest,
                             int *nrest)
{
    int nwords;
    *words = xcalloc((size_t)argc + 1, sizeof **words);
    int at = parse_or_die(table, n, args, argc, argv, stop_at_dashdash, *words, &nwords);
    *lab = nwords > 0 ? (*words)[0] : NULL;
    *rest = *words + (nwords > 0);
    *nrest = nwords > 0 ? nwords - 1 : 0;
    return at;
}

static void parse_options(int argc, char **argv, cli_options *o)
{
    memset(o, 0, sizeof *o);
    parse_lab_command(check_options, COUNT(check_options), o, argc, argv, 0, &o->words, &o->lab, &o->files,
                      &o->nfiles);
    if (o->timeout && options_seconds(o->timeout, &o->timeout_s) != 0)
        usage_error("--timeout %s: expected seconds, more than 0 and at most 86400 (a day)", o->timeout);
    o->checkers_kind = o->checkers ? checkers_option(o->checkers) : CHECKERS_DEFAULT;
    if (!o->lab || o->nfiles == 0)
        usage_error("expected a lab and %s", "a file");
    if (o->nfiles > 1)
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

/* check's exit status for a graded file: 0 when every dataset and
 * requirement passed, 1 when one did not, 3 when every one that was checked
 * passed but some were not checked (--no-sanitize): never 0 for a score
 * short of full marks. */
static int check_status(const submission_result *s)
{
    int unchecked = 0;
    for (int i = 0; i < s->ndatasets; i++)
        if (s->datasets[i].status != ST_PASS)
            return 1;
    for (int i = 0; i < s->nrequirements; i++) {
        if (s->requirements[i].status == ST_NOT_CHECKED)
            unchecked = 1;
        else if (s->requirements[i].status != ST_PASS)
            return 1;
    }
    return unchecked ? 3 : 0;
}

static void emit(const char *text)
{
    fputs(text, stdout);
    fflush(stdout);
}

static int cmd_check(int argc, char **argv)
{
    cli_options o;
    parse_options(argc, argv, &o);
    char *id = manifest_resolve(o.lab);
    lab_manifest m;
    manifest_load(id, &m);
    grade_options go = { .dataset = -1, .timeout_s = o.timeout_s, .keep = o.keep, .no_sanitize = o.no_sanitize,
                         .checkers = o.checkers_kind, .maps_dir = o.maps };
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
    int color = !json && report_want_color(STDOUT_FILENO);

    submission_result s;
    /* a student's own file reached through a link: the build reads the
     * file itself (build.c never follows a link) */
    struct stat st;
    char *real = lstat(o.files[0], &st) == 0 && S_ISLNK(st.st_mode) ? realpath(o.files[0], NULL) : NULL;
    grade_submission(&m, &b, real ? real : o.files[0], &go, &s);
    free(real);
    int rc = any_grader_error(&s) ? 2 : check_status(&s);
    if (o.html) {
        cJSON *rec = report_json(&s);
        char *page = html_student_page(rec, m.source);
        if (write_output(o.html, page, strlen(page)) != 0)
            die("cannot write %s: %s", o.html, strerror(errno));
        free(page);
        cJSON_Delete(rec);
    }
    if (json) {
        cJSON *doc = report_json(&s);
        char *printed = cJSON_Print(doc);
        emit(printed);
        emit("\n");
        free(printed);
        cJSON_Delete(doc);
    } else if (!html_stdout) {
        strbuf text;
        sb_init(&text);
        report_text(&text, &s, color, o.verbose);
        if (text.len)
            emit(text.buf);
        sb_free(&text);
    }
    submission_result_free(&s);
    free(b.compiler);
    manifest_free(&m);
    free(id);
    free(o.words);
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
    const char *seed_file;
    const char *sandbox, *html, *feedback_dir, *timeout, *jobs, *parallel, *checkers, *shard;
    const char *adjustments, *late_penalty;
    int keep, verbose, no_sanitize, leaderboard;
    option_list regrade;
    const char **words;     /* the lab, then the submissions */
    int ninputs;
    const char **inputs;
    /* what grade_args_check reads from the text above */
    double timeout_s;
    int njobs, nparallel, checkers_kind, fmt, shard_k, shard_n;
    adjust_options adjust;
} grade_args;

#define G(field) offsetof(grade_args, field)
static const option_spec grade_options_table[] = {
    { "--jobs", OPT_VALUE, G(jobs), "N", "builds at once (default: the cores grade may use)", 0 },
    { "--parallel", OPT_VALUE, G(parallel), "N",
      "submissions built and graded at once, spread over the GPUs\n(default: 8 per GPU; 1 on the emulator)", 0 },
    { "--records", OPT_VALUE, G(records), "DIR",
      "one record per submission (default gpulab-records/LAB);\na re-run skips what is already graded", 0 },
    { "--format", OPT_VALUE, G(format), "text|json|gradescope",
      "report format (gradescope: results.json, one submission)", 0 },
    { "--out", OPT_VALUE, G(out), "FILE", "the report (- for standard output)", 0 },
    { "--csv", OPT_VALUE, G(csv), "FILE", "a CSV gradebook (- for standard output)", 0 },
    { "--junit", OPT_VALUE, G(junit), "FILE", "JUnit XML (- for standard output)", 0 },
    { "--html", OPT_VALUE, G(html), "FILE",
      "the class page: the summary and a row per student (- : standard\noutput)", 0 },
    { "--feedback-dir", OPT_VALUE, G(feedback_dir), "DIR",
      "one feedback page per student, DIR/ID.html (linked from --html)", 0 },
    { "--leaderboard", OPT_FLAG, G(leaderboard), NULL,
      "the class page ranks the measured performance figures, by id\n(opt-in; performance points on a GPU)", 0 },
    { "--seed", OPT_VALUE, G(seed), "S", "hidden datasets regenerated from seed S", 1 },
    { "--secret", OPT_VALUE, G(secret), "K", "hidden datasets from a secret and each submission's id", 1 },
    { "--secret-file", OPT_VALUE, G(secret_file), "F", "the secret, from a file only you can read", 0 },
    { "--seed-file", OPT_VALUE, G(seed_file), "F", "the seed S, from a file (gpulab slurm gives its tasks one)", 0 },
    { "--sandbox", OPT_VALUE, G(sandbox), "auto|unshare|uid|none",
      "isolation of builds and runs (default auto: namespaces, as root\nor as any user; as root where they are "
      "refused, a user per\nsubmission (uid); without any, grade stops, exit 3, unless\n--sandbox none is given)", 0 },
    { "--regrade", OPT_LIST, G(regrade), "ID", "grade this submission again (its record is removed first)", 0 },
    { "--shard", OPT_VALUE, G(shard), "K/N",
      "grade only shard K of N (0 <= K < N): the class split by a hash of\neach submission's id, each submission "
      "in exactly one shard", 0 },
    { "--dataset", OPT_VALUE, G(dataset), "NAME|N", "only this dataset (on-demand ones too)", 0 },
    { "--backend", OPT_VALUE, G(backend), "gpu|emu", "where to run (default: the GPU if usable, else the emulator)",
      0 },
    { "--timeout", OPT_VALUE, G(timeout), "SECONDS", "per-dataset time limit (default: the lab's)", 0 },
    { "--no-sanitize", OPT_FLAG, G(no_sanitize), NULL, "skip the sanitizer stage (the checkers) and the repair search",
      0 },
    { "--checkers", OPT_VALUE, G(checkers), "emulator|compute-sanitizer", "as for check", 0 },
    { "--keep", OPT_FLAG, G(keep), NULL, "keep the work directories, for debugging", 0 },
    { "--verbose", OPT_FLAG, G(verbose), NULL, "every failing dataset's details", 0 },
    { "--adjustments", OPT_VALUE, G(adjustments), "FILE",
      "late days, points and comments for the gradebook, pages and\nGradescope: a CSV id,late_days,points,comment "
      "(ids as the\nLMS writes them); applied to the exports, never the records", 0 },
    { "--late-penalty", OPT_VALUE, G(late_penalty), "PCT", "percent of the score taken per late day (default 0)", 0 },
};
#undef G

/* What gpulab slurm's array tasks do with grade's options: given to each
 * task's grade as they are (all but these), as an absolute path (the tasks
 * may start elsewhere), set by slurm itself, or refused with why_not. */
enum { TASK_PASS, TASK_PATH, TASK_SLURM, TASK_NO };
static const struct task_rule {
    const char *name;
    int task;
    const char *why_not;
} task_rules[] = {
    { "--backend", TASK_SLURM, NULL },
    { "--records", TASK_SLURM, NULL },
    { "--shard", TASK_NO, "each array task grades its own shard" },
    { "--secret-file", TASK_PATH, NULL },
    { "--seed-file", TASK_PATH, NULL },
    { "--seed", TASK_SLURM, NULL }, /* into a file of the records folder: task_command */
    { "--secret", TASK_NO,
      "it would be in every task's command line (scontrol show job); put it in a file only you can read, "
      "on the shared folder, and give --secret-file FILE" },
    { "--format", TASK_NO,
      "each task's report goes to its log as text; after the job, gpulab export LAB RECORDS makes the "
      "class's files from the records" },
    { "--out", TASK_NO, "each task's report goes to its log (RECORDS/slurm/JOB_TASK.log)" },
    { "--csv", TASK_NO, "the gradebook is the whole class's: after the job, gpulab export LAB RECORDS --csv FILE" },
    { "--junit", TASK_NO, "after the job, gpulab export LAB RECORDS --junit FILE" },
    { "--html", TASK_NO,
      "the class page is the whole class's: after the job, gpulab export LAB RECORDS --html FILE" },
    { "--feedback-dir", TASK_NO, "after the job, gpulab export LAB RECORDS --feedback-dir DIR" },
    { "--leaderboard", TASK_NO, "after the job, gpulab export LAB RECORDS --html FILE --leaderboard" },
    { "--adjustments", TASK_NO, "after the job, gpulab export LAB RECORDS --csv FILE --adjustments FILE" },
    { "--late-penalty", TASK_NO, "after the job, gpulab export LAB RECORDS --csv FILE --late-penalty PCT" },
    { "--regrade", TASK_NO,
      "remove that record first (gpulab grade LAB DIR --regrade ID on one machine), then submit again" },
};

static const struct task_rule *task_rule_of(const char *name)
{
    for (size_t i = 0; i < COUNT(task_rules); i++)
        if (strcmp(task_rules[i].name, name) == 0)
            return &task_rules[i];
    return NULL;
}

static int task_of(const option_spec *o)
{
    const struct task_rule *r = task_rule_of(o->name);
    return r ? r->task : TASK_PASS;
}

/* grade's command line into a: the options by the table, then the lab and
 * the submissions. */
static void grade_args_parse(int argc, char **argv, grade_args *a)
{
    memset(a, 0, sizeof *a);
    parse_lab_command(grade_options_table, COUNT(grade_options_table), a, argc, argv, 0, &a->words, &a->lab,
                      &a->inputs, &a->ninputs);
}

static void grade_args_free(grade_args *a)
{
    free(a->words);
    free(a->regrade.v);
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

/* --adjustments and --late-penalty (grade's and export's), checked. */
static void adjust_args_check(const char *file, const char *percent, adjust_options *o)
{
    o->file = file;
    o->late_penalty = percent ? adjust_parse_percent(percent) : 0;
    if (o->late_penalty < 0)
        usage_error("--late-penalty %s: expected a percent of the score per late day, 0 to 100", percent);
    if (file && !file_exists(file))
        usage_error("--adjustments %s: no such file", file);
}

/* grade's options read and checked, each error said with the option. */
static void grade_args_check(grade_args *a)
{
    if (!a->lab || a->ninputs == 0)
        usage_error("expected a lab and %s", "one or more submissions (folders or files)");
    if (a->timeout && options_seconds(a->timeout, &a->timeout_s) != 0)
        usage_error("--timeout %s: expected seconds, more than 0 and at most 86400 (a day)", a->timeout);
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
    if ((a->seed != NULL) + (a->seed_file != NULL) + (a->secret != NULL) + (a->secret_file != NULL) > 1)
        usage_error("%s: choose one of --seed, --seed-file, --secret and --secret-file", "hidden datasets");
    for (int i = 0; i < a->ninputs; i++)
        if (!file_exists(a->inputs[i]) && !dir_exists(a->inputs[i]))
            usage_error("%s: no such file or folder", a->inputs[i]);
    if (!a->sandbox)
        a->sandbox = "auto";
    adjust_args_check(a->adjustments, a->late_penalty, &a->adjust);
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

/* --regrade ID: that student's record goes, so the batch grades them again. */
static void remove_regraded_records(const grade_args *a, const char *records_dir)
{
    for (int i = 0; i < a->regrade.n; i++) {
        for (const char *c = a->regrade.v[i]; *c; c++)
            if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
                  *c == '_' || *c == '.') || a->regrade.v[i][0] == '.')
                usage_error("--regrade %s: not a submission id (the ids are the records' file names)",
                            a->regrade.v[i]);
        char *path = xasprintf("%s/%s.json", records_dir, a->regrade.v[i]);
        if (unlink(path) == 0)
            fprintf(stderr, "gpulab: --regrade %s: its record is removed; it is graded again\n", a->regrade.v[i]);
        else if (errno == ENOENT)
            fprintf(stderr, "gpulab: --regrade %s: no record %s, so it is graded anyway\n", a->regrade.v[i], path);
        else
            die("--regrade %s: cannot remove %s: %s", a->regrade.v[i], path, strerror(errno));
        free(path);
    }
}

/* The batch's report into text: the table and summary (text), or the
 * class's JSON document or Gradescope's results.json, the summary then on
 * standard error. */
static void class_report(const grade_args *a, const lab_manifest *m, const backend *b, cJSON *recs,
                         const batch_summary *sum, const char *records_dir, strbuf *text)
{
    if (a->fmt == 0) {
        sb_printf(text, "%-24s %-10s %s\n", "submission", "score", "status");
        const cJSON *rec;
        cJSON_ArrayForEach(rec, recs) {
            const cJSON *rid = cJSON_GetObjectItemCaseSensitive(rec, "id");
            char pts[48];
            snprintf(pts, sizeof pts, "%g/%g", cJSON_GetObjectItemCaseSensitive(rec, "score")->valuedouble,
                     cJSON_GetObjectItemCaseSensitive(rec, "max_score")->valuedouble);
            sb_printf(text, "%-24s %-10s %s\n", rid->valuestring, pts, export_status(rec));
        }
        char *summary = export_summary(recs);
        sb_printf(text, "\n%s", summary);
        free(summary);
        sb_printf(text, "\n%d submissions of %s: %d graded, %d already graded; %.1f s on %s; records in %s; "
                  "sandbox: %s\n", sum->total, m->id, sum->graded, sum->skipped, sum->seconds, b->device,
                  records_dir, sandbox_mode());
    } else {
        cJSON *doc;
        if (a->fmt == 1) {
            doc = cJSON_CreateObject();
            cJSON_AddStringToObject(doc, "lab", m->id);
            cJSON_AddStringToObject(doc, "backend", b->name);
            cJSON_AddStringToObject(doc, "device", b->device);
            cJSON_AddStringToObject(doc, "grader_version", GPULAB_VERSION);
            cJSON_AddStringToObject(doc, "sandbox", sandbox_mode());
            cJSON_AddItemReferenceToObject(doc, "submissions", recs);
        } else {
            adjust_records(recs, &a->adjust);
            doc = export_gradescope(cJSON_GetArrayItem(recs, 0));
        }
        char *printed = cJSON_Print(doc);
        sb_puts(text, printed);
        sb_puts(text, "\n");
        free(printed);
        cJSON_Delete(doc);
        if (a->fmt == 1) {
            char *summary = export_summary(recs);
            fputs(summary, stderr);
            free(summary);
        }
        fprintf(stderr, "gpulab: %d submissions of %s: %d graded, %d already graded, in %.1f s; records in %s; "
                "sandbox: %s\n", sum->total, m->id, sum->graded, sum->skipped, sum->seconds, records_dir,
                sandbox_mode());
    }
}

/* --csv, --junit, --html and --feedback-dir: from every record in the
 * folder, so that grading one student (or a regrade) never shrinks the
 * class's gradebook to one row. */
static void class_files(const grade_args *a, const lab_manifest *m, const char *records_dir, int in_batch)
{
    if (!(a->csv || a->junit || a->html || a->feedback_dir))
        return;
    cJSON *all = export_load_records(records_dir, m->id);
    adjust_records(all, &a->adjust);
    int nall = cJSON_GetArraySize(all);
    if (nall != in_batch)
        fprintf(stderr, "gpulab: the gradebook holds every record in %s: %d submissions (%d in this batch)\n",
                records_dir, nall, in_batch);
    if (a->csv) {
        char *t = export_csv(all, m->source);
        write_or_die(a->csv, t);
        free(t);
    }
    if (a->junit) {
        char *t = export_junit(m->id, all);
        write_or_die(a->junit, t);
        free(t);
    }
    html_write_reports(all, m->id, m->source, a->html, a->feedback_dir, a->leaderboard);
    cJSON_Delete(all);
}

/* --format gradescope is one student's upload. Given a class (a folder of
 * students' folders, or several submissions), it would grade the class as
 * one submission and leave a phantom record among the class's: refused
 * before anything is written, the records left as they were. */
static void refuse_gradescope_class(const grade_args *a, const batch_entry *e, int n)
{
    int folders = 0;
    for (int i = 0; i < n; i++)
        folders += e[i].student_folder;
    if (n > 1 && (folders > 0 || a->ninputs > 1))
        die("--format gradescope makes one submission's results.json, and %s holds %d submissions%s; nothing "
            "was written. For a class: gpulab grade %s %s --csv FILE (or gpulab export LAB RECORDS)",
            a->ninputs > 1 ? "the command line" : path_base(a->inputs[0]), n,
            folders ? xasprintf(" (%d of them students' folders)", folders) : "", a->lab,
            a->ninputs > 1 ? "..." : path_base(a->inputs[0]));
}

/* --secret-file's and --seed-file's value: the file's first line (malloc'd);
 * dies naming the file when it cannot be read or the line is empty. */
static char *first_line_of(const char *path, const char *what)
{
    char *text = read_file(path, NULL);
    if (!text)
        die("cannot read %s: %s", path, strerror(errno));
    text[strcspn(text, "\r\n")] = '\0';
    if (!*text)
        die("%s: %s is empty", path, what);
    return text;
}

static int cmd_grade(int argc, char **argv)
{
    grade_args a;
    grade_args_parse(argc, argv, &a);
    grade_args_check(&a);

    char *id = manifest_resolve(a.lab);
    lab_manifest m;
    manifest_load(id, &m);
    if (!a.late_penalty) /* the lab's own, where it has one (lab.json's late_penalty) */
        a.adjust.late_penalty = m.late_penalty;
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
    const char *secret_in_argv = a.secret ? "--secret" : a.seed ? "--seed" : NULL;
    char *secret_text = a.secret_file ? first_line_of(a.secret_file, "the secret") : NULL;
    char *seed_text = a.seed_file ? first_line_of(a.seed_file, "the seed") : NULL;
    if (secret_text)
        a.secret = secret_text;
    if (seed_text)
        a.seed = seed_text;
    if (a.seed) {
        bo.use_seed = 1;
        bo.seed = parse_seed(a.seed);
    }
    bo.secret = a.secret;
    char *records_dir = records_folder(&a, &m);
    bo.records_dir = records_dir;
    bo.grader_version = GPULAB_VERSION;
    bo.jobs = a.njobs > 0 ? a.njobs : usable_cores();
    bo.progress = isatty(STDERR_FILENO) && !getenv("GPULAB_NO_PROGRESS");

    int nentries;
    batch_entry *entries = batch_collect(&m, a.inputs, a.ninputs, &nentries);
    if (a.fmt == 2)
        refuse_gradescope_class(&a, entries, nentries);
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
    remove_regraded_records(&a, records_dir); /* only once nothing more can refuse the run */
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
    /* without a pid namespace a run reads every command line of the
     * machine: gpulab blanks its own, not its parents' (timeout, a script) */
    if (secret_in_argv && sandbox_uid_mode())
        usage_error("%s: in the uid mode (no pid namespace) a submission sees every command line of the machine, "
                    "a parent's such as timeout's too, so the value would reach it; give it in a file only you can "
                    "read (chmod 600 FILE): --secret-file FILE or --seed-file FILE", secret_in_argv);
    for (int i = 0; i < a.ninputs; i++) /* no run sees the class's files */
        sandbox_hide(a.inputs[i]);
    if (a.secret_file)
        sandbox_hide(a.secret_file);
    if (a.seed_file)
        sandbox_hide(a.seed_file);

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

    class_report(&a, &m, &b, recs, &sum, records_dir, &g.text);
    if (a.out)
        write_or_die(a.out, g.text.buf ? g.text.buf : "");
    else if (g.text.len) {
        fputs(g.text.buf, stdout);
        fflush(stdout);
    }
    class_files(&a, &m, records_dir, cJSON_GetArraySize(recs));
    sb_free(&g.text);
    cJSON_Delete(recs);
    batch_entries_free(entries, nentries);
    free(records_dir);
    free(secret_text);
    free(seed_text);
    free(b.compiler);
    manifest_free(&m);
    free(id);
    grade_args_free(&a);
    return sum.grader_errors ? 2 : 0;
}

/* ---- slurm: a class as an array job (slurm.c) ------------------------------------------ */

/* The grade command each task runs: the class and the options that decide
 * its records, paths made absolute (a task may start in another folder),
 * the shard left for the task to add. */
static char **task_command(grade_args *a, const lab_manifest *m, const char *backend, const char *records)
{
    size_t most = 8 + (size_t)a->ninputs + 2 * COUNT(grade_options_table);
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
    for (size_t i = 0; i < COUNT(grade_options_table); i++) {
        const option_spec *o = &grade_options_table[i];
        int task = task_of(o);
        if ((task != TASK_PASS && task != TASK_PATH) || !options_given(o, a))
            continue;
        argv[k++] = xstrdup(o->name);
        if (o->kind == OPT_VALUE)
            argv[k++] = task == TASK_PATH ? path_absolute(options_value(o, a)) : xstrdup(options_value(o, a));
    }
    if (a->seed) {
        /* never on a task's command line, which scontrol show job and ps on
         * the nodes show: in a file of the records folder only its owner
         * reads, as --secret-file */
        char *dir = xasprintf("%s/slurm", records), *file = xasprintf("%s/seed", dir);
        if (make_private_dirs(dir) != 0 || write_private_file(file, a->seed, strlen(a->seed)) != 0)
            die("cannot write %s: %s", file, strerror(errno));
        argv[k++] = xstrdup("--seed-file");
        argv[k++] = file;
        free(dir);
    }
    argv[k] = NULL;
    return argv;
}

/* grade's options that a Slurm job does not take, refused with why. */
static void refuse_task_options(grade_args *a)
{
    for (size_t i = 0; i < COUNT(grade_options_table); i++) {
        const option_spec *o = &grade_options_table[i];
        const struct task_rule *r = task_rule_of(o->name);
        if (r && r->task == TASK_NO && options_given(o, a))
            usage_error("%s", xasprintf("slurm: %s: %s", o->name, r->why_not));
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
        static const char *const the_kits[] = { "--array", "-a", "--wrap", NULL };
        if (options_word_names(o, the_kits))
            usage_error("slurm: %s: the array (--tasks N) and the batch script are gpulab's", o);
    }
}

/* gpulab slurm LAB DIR... --tasks N [--wait] [grade's options] [-- SBATCH OPTIONS]:
 * slurm's own options out, grade's through grade's table, sbatch's as
 * they are. */
/* slurm's command line: grade's, first (so grade's table's offsets hold),
 * and slurm's own options. */
typedef struct {
    grade_args g;
    const char *tasks;
    int wait;
} slurm_args;

static const option_spec slurm_own_options[] = {
    { "--tasks", OPT_VALUE, offsetof(slurm_args, tasks), "N", "the array's size", 0 },
    { "--wait", OPT_FLAG, offsetof(slurm_args, wait), NULL,
      "wait for the job, then print the class summary (exit 1 when\na submission still has no record)", 0 },
};

/* slurm's own options, then grade's: one table. */
static const option_spec *slurm_options(size_t *n)
{
    static option_spec table[COUNT(slurm_own_options) + COUNT(grade_options_table)];
    if (!table[0].name) {
        memcpy(table, slurm_own_options, sizeof slurm_own_options);
        memcpy(table + COUNT(slurm_own_options), grade_options_table, sizeof grade_options_table);
    }
    *n = COUNT(table);
    return table;
}

static int cmd_slurm(int argc, char **argv)
{
    slurm_args sa;
    memset(&sa, 0, sizeof sa);
    size_t nopts;
    const option_spec *opts = slurm_options(&nopts);
    int dash = parse_lab_command(opts, nopts, &sa, argc, argv, 1, &sa.g.words, &sa.g.lab, &sa.g.inputs,
                                 &sa.g.ninputs);
    grade_args a = sa.g;
    const char *tasks = sa.tasks;
    int wait = sa.wait;
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
    char *partition = NULL;
    if (!a.backend && slurm_partition_has_gpus(argv + dash + (dash < argc), argc - dash - (dash < argc),
                                               &partition) == 0) {
        backend = "emu"; /* a GPU job would only be refused there */
        fprintf(stderr, "gpulab: slurm: partition %s has no GPUs (sinfo): grading on the emulator; --backend gpu "
                        "asks for GPUs anyway\n", partition ? partition : "?");
    }
    free(partition);

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
    grade_args_free(&a);
    return rc;
}

/* gpulab export LAB RECORDS_DIR [--csv FILE] [--junit FILE]: the exports again. */
typedef struct {
    const char *csv, *junit, *html, *feedback_dir, *adjustments, *late_penalty;
    int summary, leaderboard;
} export_args;

static const option_spec export_options[] = {
    { "--csv", OPT_VALUE, offsetof(export_args, csv), "FILE", "the gradebook (- for standard output)", 0 },
    { "--junit", OPT_VALUE, offsetof(export_args, junit), "FILE", "JUnit XML (- for standard output)", 0 },
    { "--summary", OPT_FLAG, offsetof(export_args, summary), NULL, "the class summary", 0 },
    { "--html", OPT_VALUE, offsetof(export_args, html), "FILE", "the class page, as for grade", 0 },
    { "--feedback-dir", OPT_VALUE, offsetof(export_args, feedback_dir), "DIR",
      "one feedback page per student, as for grade", 0 },
    { "--leaderboard", OPT_FLAG, offsetof(export_args, leaderboard), NULL, "as for grade", 0 },
    { "--adjustments", OPT_VALUE, offsetof(export_args, adjustments), "FILE",
      "late days, points and comments, as for grade", 0 },
    { "--late-penalty", OPT_VALUE, offsetof(export_args, late_penalty), "PCT", "as for grade", 0 },
};

static int cmd_export(int argc, char **argv)
{
    export_args ea;
    memset(&ea, 0, sizeof ea);
    const char **words = xcalloc((size_t)argc + 1, sizeof *words);
    int nwords;
    parse_or_die(export_options, COUNT(export_options), &ea, argc, argv, 0, words, &nwords);
    if (nwords != 2)
        usage_error("usage: gpulab export LAB RECORDS_DIR [--csv FILE] [--junit FILE] [--summary] [--html FILE] "
                    "[--feedback-dir DIR]%s", "");
    const char *lab = words[0], *dir = words[1], *csv = ea.csv, *junit = ea.junit, *html = ea.html,
               *feedback_dir = ea.feedback_dir;
    int summary = ea.summary;
    adjust_options adjust;
    adjust_args_check(ea.adjustments, ea.late_penalty, &adjust);
    char *id = manifest_resolve(lab);
    cJSON *recs = export_load_records(dir, id);
    lab_manifest em;
    manifest_load(id, &em);
    if (!ea.late_penalty) /* the lab's own, where it has one */
        adjust.late_penalty = em.late_penalty;
    adjust_records(recs, &adjust);
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
    html_write_reports(recs, id, em.source, html, feedback_dir, ea.leaderboard);
    manifest_free(&em);
    cJSON_Delete(recs);
    free(id);
    free(words);
    return 0;
}

/* gpulab similar LAB DIR_OR_FILE... [--format text|json] [--html FILE] [--out FILE] (similar.c) */
typedef struct {
    const char *format, *html, *out;
} similar_args;

static const option_spec similar_options[] = {
    { "--format", OPT_VALUE, offsetof(similar_args, format), "text|json",
      "the report: text (the top pairs) or JSON (every pair, highest\nscore first)", 0 },
    { "--html", OPT_VALUE, offsetof(similar_args, html), "FILE",
      "a page with the top pairs side by side, their matching regions\nmarked (- for standard output)", 0 },
    { "--out", OPT_VALUE, offsetof(similar_args, out), "FILE", "the report (- for standard output)", 0 },
};

static int cmd_similar(int argc, char **argv)
{
    similar_args sa;
    memset(&sa, 0, sizeof sa);
    const char **words, *lab, **inputs;
    int ninputs;
    parse_lab_command(similar_options, COUNT(similar_options), &sa, argc, argv, 0, &words, &lab, &inputs, &ninputs);
    if (!lab || ninputs == 0)
        usage_error("expected a lab and %s", "a class: a folder of students' folders or files, or the files");
    const char *format = sa.format ? sa.format : "text";
    if (strcmp(format, "text") != 0 && strcmp(format, "json") != 0)
        usage_error("--format %s: expected text or json", format);
    if (sa.html && strcmp(sa.html, "-") == 0 && (!sa.out || strcmp(sa.out, "-") == 0))
        usage_error("%s", "--html -: standard output already has the report; give --out FILE");
    for (int i = 0; i < ninputs; i++)
        if (!file_exists(inputs[i]) && !dir_exists(inputs[i]))
            usage_error("%s: no such file or folder", inputs[i]);
    char *id = manifest_resolve(lab);
    lab_manifest m;
    manifest_load(id, &m);
    int n;
    batch_entry *entries = batch_collect(&m, inputs, ninputs, &n);
    similar_job j = { &m, entries, n, strcmp(format, "json") == 0, sa.out, sa.html };
    int rc = similar_run(&j);
    batch_entries_free(entries, n);
    manifest_free(&m);
    free(id);
    free(words);
    return rc;
}

static const option_spec import_wb_options[] = {
    { "--all", OPT_FLAG, offsetof(import_options, all), NULL,
      "the one word is the root of a copy of the Kit: import every lab\nfolder under it (kit-<name>), check "
      "the Kit's solution in each,\nand print a table", 0 },
    { "--backend", OPT_VALUE, offsetof(import_options, backend_name), "gpu|emu", "where the solution runs", 0 },
    { "--sandbox", OPT_VALUE, offsetof(import_options, sandbox), "auto|unshare|uid|none", "as for grade", 0 },
    { "--no-requirements", OPT_FLAG, offsetof(import_options, no_requirements), NULL,
      "ask for none of the requirements the solution shows", 0 },
};

static int cmd_import_wb(int argc, char **argv)
{
    import_options o;
    memset(&o, 0, sizeof o);
    const char **words = xcalloc((size_t)argc + 1, sizeof *words);
    int nwords;
    parse_or_die(import_wb_options, COUNT(import_wb_options), &o, argc, argv, 0, words, &nwords);
    if (nwords != (o.all ? 1 : 2))
        usage_error("usage: gpulab import-wb DIR LAB [options], or gpulab import-wb --all KIT_ROOT [options]%s", "");
    if (o.backend_name && strcmp(o.backend_name, "gpu") != 0 && strcmp(o.backend_name, "emu") != 0)
        usage_error("--backend %s: expected gpu or emu", o.backend_name);
    int rc = o.all ? import_wb_all(words[0], &o) : import_wb_lab(words[0], words[1], &o);
    free(words);
    return rc;
}

static int cmd_help(int argc, char **argv);

/* Every command of gpulab, in the order `gpulab help` gives them. The
 * options of the commands whose tables live beside them are theirs. */
static const command_spec commands[] = {
    { "list", "", "the labs and their titles", NULL, 0, cmd_list },
    { "start", "LAB [DIR]", "copy the lab's skeleton into DIR (default .)", NULL, 0, cmd_start },
    { "check", "LAB FILE.cu [options]", "check your file on the lab's public datasets", check_options,
      COUNT(check_options), cmd_check },
    { "bench", "LAB FILE.cu [--calls N] [--dataset NAME] [--backend gpu|emu]",
      "time your file on the lab's performance dataset, next to\nthe reference solution and cuBLAS or a copy "
      "(same run);\ngpulab bench --ladder [--out DIR]: the kit's performance ladder:\ntable and SVG (make bench)",
      NULL, 0, cmd_bench },
    { "grade", "LAB DIR_OR_FILE... [options]",
      "grade a class: a folder of student folders or files, or files\n(exit 0 when all were graded)",
      grade_options_table, COUNT(grade_options_table), cmd_grade },
    { "slurm", "LAB DIR_OR_FILE... --tasks N [--wait] [grade's options] [-- SBATCH OPTIONS]",
      "grade a class on a Slurm cluster: one array job of N tasks,\ntask K running grade --shard K/N into the "
      "shared --records\nfolder (again: only what has no record is graded); --backend\ngpu (default, where sinfo "
      "shows GPUs in the partition; else emu):\n--gres=gpu:1 and 8 CPUs a task; emu: 2 CPUs a task\n(SBATCH OPTIONS, each as --option=VALUE, override "
      "them, and add\n--partition, --time, ...)", NULL, 0, cmd_slurm },
    { "export", "LAB RECORDS_DIR [options]", "the gradebook, JUnit XML and web pages again, from the records",
      export_options, COUNT(export_options), cmd_export },
    { "similar", "LAB DIR_OR_FILE... [--format text|json] [--html FILE] [--out FILE]",
      "pairs of submissions ranked by how alike the students' own code\nis (the skeleton's lines left out; names, "
      "literals, comments\nand layout do not count): winnowed fingerprints, as MOSS", similar_options,
      COUNT(similar_options), cmd_similar },
    { "gradescope-package", "LAB OUT.zip [--seed S | --secret-file F] [--backend emu|gpu]",
      "the Gradescope autograder zip for a lab", NULL, 0, cmd_gradescope_package },
    { "datasets", "LAB [--seed S] [--out DIR] [--all]",
      "regenerate the lab's datasets (--all: on-demand ones too)", NULL, 0, cmd_datasets },
    { "inspect", "FILE...", "validate data files (.raw, .ppm, .pgm, .tensor)", NULL, 0, cmd_inspect },
    { "convert", "IN OUT", "convert a matrix between those formats", NULL, 0, cmd_convert },
    { "compare", "LAB OUTPUT EXPECTED [--format text|json]", "compare an output file under the lab's tolerance",
      NULL, 0, cmd_compare },
    { "explain-sanitizer", "REPORT [SOURCE]", "turn a compute-sanitizer report into the kit's findings", NULL, 0,
      cmd_explain_sanitizer },
    { "wb", "FILE.cu [--backend gpu|emu] [--libwb-tolerance] [--timeout SECONDS] [--keep] [--sandbox MODE] -- ARGS",
      "build and run a Teaching Kit (libwb) program with its own\narguments (-i in0,in1 -e expected -o out -t "
      "type); exit 0 when\nwbSolution's output is correct under the kit's tolerance;\n--libwb-tolerance: judge "
      "by libwb's rule instead (|difference| <= 0.2)", NULL, 0, cmd_wb },
    { "import-wb", "DIR LAB [options] | --all KIT_ROOT [options]",
      "make a Teaching Kit lab folder (template.cu, solution.cu,\nDataset/<n>/, or the Kit's "
      "dataset_generator.cpp, run in the\nsandbox) a lab of this kit named LAB, its harness built;\nit asks for the shared memory, barriers and constant memory\nthe Kit's solution "
      "shows, a point each (--no-requirements: none)", import_wb_options, COUNT(import_wb_options), cmd_import_wb },
    { "help", "", "this text", NULL, 0, cmd_help },
};

static const command_spec *command_named(const char *name)
{
    for (size_t i = 0; i < COUNT(commands); i++)
        if (strcmp(commands[i].name, name) == 0)
            return &commands[i];
    return NULL;
}

static void usage(FILE *out)
{
    fputs(usage_head, out);
    for (size_t i = 0; i < COUNT(commands); i++)
        options_help(out, &commands[i], 0);
    fputs(usage_tail, out);
}

static int cmd_help(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    usage(stdout);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *name = argv[1];
    if (options_want_help(1, argv + 1)) /* gpulab --help, gpulab -h */
        return cmd_help(0, NULL);
    if (options_want_version(name)) {
        printf("gpulab %s\n", GPULAB_VERSION);
        return 0;
    }
    const command_spec *c = command_named(name);
    if (!c)
        usage_error("unknown command '%s'", name);
    /* after "--" the arguments are a program's own (gpulab wb) */
    if (options_want_help(argc - 2, argv + 2)) {
        options_help(stdout, c, 1);
        return 0;
    }
    kit_locate(argv[0]);
    build_init();
    return c->run(argc - 2, argv + 2);
}
