/*
 * main.c - gpulab's command line: list, start, check, grade, datasets, help.
 *
 * A submission's path through the grader (docs/architecture.md):
 *     build.c -> run.c -> compare.c -> report.c, strung together by grade.c.
 */
#define _GNU_SOURCE
#include "backend.h"
#include "datasets.h"
#include "grade.h"
#include "kit.h"
#include "manifest.h"
#include "report.h"
#include "tools.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
    "      --no-sanitize                 skip the sanitizer stage (compute-sanitizer on the GPU)\n"
    "      --keep                        keep the work directory, for debugging\n"
    "  gpulab grade LAB FILE.cu... [--backend gpu|emu] [--format text|json] [--out FILE] [--timeout S]\n"
    "                                    grade submissions (exit 0 when all were graded)\n"
    "  gpulab datasets LAB [--seed S] [--out DIR] [--all]\n"
    "                                    regenerate the lab's datasets (--all: on-demand ones too)\n"
    "  gpulab inspect FILE...            validate data files (.raw, .ppm, .pgm, .tensor)\n"
    "  gpulab convert IN OUT             convert a matrix between those formats\n"
    "  gpulab compare LAB OUTPUT EXPECTED [--format text|json]\n"
    "                                    compare an output file under the lab's tolerance\n"
    "  gpulab explain-sanitizer REPORT [SOURCE]\n"
    "                                    turn a compute-sanitizer report into the kit's findings\n"
    "  gpulab help                       this text\n"
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
    printf("Fill in its //@@ TODO regions in order, then check your work with:\n");
    printf("    %s/gpulab check %s %s\n", kit_root(), m.id, to);
    printf("The lab's walkthrough: %s/docs/labs/%s.md\n", kit_root(), m.id);
    free(from);
    free(to);
    manifest_free(&m);
    free(id);
    return 0;
}

typedef struct {
    const char *backend, *format, *out, *dataset;
    double timeout_s;
    int keep;
    int no_sanitize;
    int nfiles;
    char **files;
    const char *lab;
} cli_options;

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
    grade_options go = { .dataset = -1, .timeout_s = o.timeout_s, .keep = o.keep, .no_sanitize = o.no_sanitize };
    if (o.dataset) {
        go.dataset = manifest_find_dataset(&m, o.dataset);
        if (go.dataset < 0)
            usage_error("lab has no dataset '%s' (see datasets/ or the lab's lab.json)", o.dataset);
    }
    backend b;
    backend_choose(o.backend, &b);
    int json = o.format && strcmp(o.format, "json") == 0;
    int color = !json && !o.out && report_want_color(STDOUT_FILENO);

    int rc = 0;
    strbuf text;
    sb_init(&text);
    cJSON *subs = cJSON_CreateArray();
    for (int i = 0; i < o.nfiles; i++) {
        submission_result s;
        grade_submission(&m, &b, o.files[i], &go, &s);
        if (any_grader_error(&s))
            rc = 2;
        else if (!grading && !all_pass(&s) && rc == 0)
            rc = 1;
        if (json) {
            cJSON_AddItemToArray(subs, report_json(&s));
        } else {
            report_text(&text, &s, color);
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
    const char *cmd = argv[1];
    if (strcmp(cmd, "list") == 0)
        return cmd_list();
    if (strcmp(cmd, "start") == 0)
        return cmd_start(argc - 2, argv + 2);
    if (strcmp(cmd, "check") == 0)
        return cmd_check_or_grade(argc - 2, argv + 2, 0);
    if (strcmp(cmd, "grade") == 0)
        return cmd_check_or_grade(argc - 2, argv + 2, 1);
    if (strcmp(cmd, "datasets") == 0)
        return cmd_datasets(argc - 2, argv + 2);
    if (strcmp(cmd, "inspect") == 0)
        return cmd_inspect(argc - 2, argv + 2);
    if (strcmp(cmd, "convert") == 0)
        return cmd_convert(argc - 2, argv + 2);
    if (strcmp(cmd, "compare") == 0)
        return cmd_compare(argc - 2, argv + 2);
    if (strcmp(cmd, "explain-sanitizer") == 0)
        return cmd_explain_sanitizer(argc - 2, argv + 2);
    usage_error("unknown command '%s'", cmd);
}
