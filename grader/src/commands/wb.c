/*
 * wb.c - `gpulab wb`: a Teaching Kit program run the way the Kit's binaries
 * run, on the kit's stages: build (build.c, build_wb_program: the program
 * against grader/runtime/wb/wb.h), run (process.c: the program with the
 * user's libwb arguments, in grade's sandbox, in a folder of its own with
 * copies of the files they name, a time limit, its output captured), compare
 * (compare.c, compare_output_libwb) and a verdict of a few lines.
 *
 * wbSolution judges in the program's own process and prints the Kit's
 * familiar verdict; that process is the student's, so the grader does not
 * take its word: wbSolution also leaves what it was given in the work folder
 * (WB_ENV_SOLUTION), and the exit status comes from the grader's own
 * comparison of that file with the -e file, under the same rule
 * (grader/runtime/tolerance.c).
 */
#define _GNU_SOURCE
#include "wb.h"
#include "backend.h"
#include "build.h"
#include "compare.h"
#include "process.h"
#include "run.h"
#include "sandbox.h"
#include "options.h"
#include "util.h"
#include "../runtime/wb/wb_runtime.h"

#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WB_DEFAULT_TIMEOUT_S 60
/* What a Kit program prints (its timers and logs) is small; this much of
 * each of stdout and stderr is shown. */
#define WB_CAPTURE_CAP (1024 * 1024)
#define WB_SOLUTION_FILE "solution.tensor"

typedef struct {
    const char *file;
    const char *backend;
    const char *sandbox;    /* --sandbox, as given (default auto) */
    const char *timeout;    /* --timeout, as given */
    int libwb_tolerance;
    double timeout_s;
    int keep;
    int nargs;
    char **args;        /* the program's own arguments, after -- */
} wb_options;

static void wb_usage(const char *why, const char *arg) __attribute__((noreturn));
static void wb_usage(const char *why, const char *arg)
{
    fprintf(stderr, "gpulab wb: ");
    fprintf(stderr, why, arg);
    fprintf(stderr, "\nusage: gpulab wb FILE.cu [--backend gpu|emu] [--libwb-tolerance] [--timeout S] [--keep] "
                    "-- ARGS\n");
    exit(2);
}

static const option_spec wb_options_table[] = {
    { "--backend", OPT_VALUE, offsetof(wb_options, backend), "gpu|emu", "where to run", 0 },
    { "--timeout", OPT_VALUE, offsetof(wb_options, timeout), "SECONDS", "the run's time limit (default 60)", 0 },
    { "--libwb-tolerance", OPT_FLAG, offsetof(wb_options, libwb_tolerance), NULL, "judge by libwb's rule", 0 },
    { "--keep", OPT_FLAG, offsetof(wb_options, keep), NULL, "keep the work directory", 0 },
    { "--sandbox", OPT_VALUE, offsetof(wb_options, sandbox), "auto|unshare|uid|none",
      "isolation of the build and the run, as for grade (default auto)", 0 },
};

static void parse_wb_options(int argc, char **argv, wb_options *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_s = WB_DEFAULT_TIMEOUT_S;
    const char **words = xcalloc((size_t)argc + 1, sizeof *words), *bad = NULL;
    int nwords;
    int dash = options_parse(wb_options_table, sizeof wb_options_table / sizeof wb_options_table[0], o, argc, argv,
                             1, words, &nwords, &bad);
    if (dash < 0)
        wb_usage("unknown option '%s', or its value is missing (the program's own arguments go after --)", bad);
    if (nwords > 1)
        wb_usage("one program at a time; '%s' is a second one (its arguments go after --)", words[1]);
    o->file = nwords > 0 ? words[0] : NULL;
    free(words);
    if (o->backend && strcmp(o->backend, "gpu") != 0 && strcmp(o->backend, "emu") != 0)
        wb_usage("--backend is gpu or emu, not '%s'", o->backend);
    if (o->timeout && options_seconds(o->timeout, &o->timeout_s) != 0)
        wb_usage("--timeout %s: expected seconds, more than 0 and at most 86400 (a day)", o->timeout);
    if (!o->file)
        wb_usage("which program?%s", "");
    if (!file_exists(o->file))
        wb_usage("no such file: %s", o->file);
    if (dash < argc) {
        o->nargs = argc - dash - 1;
        o->args = argv + dash + 1;
    }
}

/* The -e file among the program's arguments (libwb's form), or NULL. */
static const char *expected_argument(const wb_options *o)
{
    const char *found = NULL;
    for (int i = 0; i + 1 < o->nargs; i++)
        if (strcmp(o->args[i], "-e") == 0)
            found = o->args[++i];
    return found;
}

/* The names a sandboxed run's files have in its folder, and the paths the
 * user gave for them: what the program prints names the user's files. */
typedef struct {
    char **copy, **given;
    int n;
} file_names;

static char *with_given_names(char *text, const file_names *names)
{
    for (int i = 0; names && i < names->n; i++) {
        strbuf sb;
        sb_init(&sb);
        const char *at = text, *hit;
        size_t k = strlen(names->copy[i]);
        while ((hit = strstr(at, names->copy[i])) != NULL) {
            sb_append(&sb, at, (size_t)(hit - at));
            sb_puts(&sb, names->given[i]);
            at = hit + k;
        }
        sb_puts(&sb, at);
        free(text);
        text = sb_detach(&sb);
        if (!text)
            text = xstrdup("");
    }
    return text;
}

static void show_output(const proc_result *p, const file_names *names)
{
    char *out = with_given_names(printable(p->out_text), names);
    char *err = with_given_names(printable(p->err_text), names);
    fputs(out, stdout);
    if (p->out_dropped)
        printf("[gpulab wb: %zu more bytes of the program's output not shown]\n", p->out_dropped);
    fflush(stdout);
    fputs(err, stderr);
    if (p->err_dropped)
        fprintf(stderr, "[gpulab wb: %zu more bytes of the program's errors not shown]\n", p->err_dropped);
    free(out);
    free(err);
}

char *wb_run_problem(const proc_result *p, double timeout_s)
{
    if (!p->started)
        return xasprintf("the program could not be started: %s", p->out_text);
    if (p->timed_out)
        return run_timeout_message(timeout_s, 0, NULL, NULL);
    if (p->signaled)
        return xasprintf("the program crashed: %s", signal_description(p->signal_number));
    if (p->exit_code == WB_EXIT_ERROR)
        return xstrdup("the program stopped at a libwb call it could not go past (the line above says which)");
    if (p->exit_code != 0)
        return xasprintf("the program ended with exit status %d (a wbCheck that failed returns -1 from main)",
                         p->exit_code);
    return NULL;
}

void wb_run_program(const char *program, char *const *args, int nargs, const char *solution_path,
                    int libwb_tolerance, double timeout_s, const char *cwd, proc_result *p)
{
    char *keep_env = xasprintf("%s=%s", WB_ENV_SOLUTION, solution_path);
    char *tol_env = xasprintf("%s=%s", WB_ENV_TOLERANCE, libwb_tolerance ? "libwb" : "kit");
    const char *env[] = { keep_env, tol_env, NULL };
    const char **argv = xcalloc((size_t)nargs + 2, sizeof *argv);
    argv[0] = program;
    for (int i = 0; i < nargs; i++)
        argv[i + 1] = args[i];
    /* By default the user's own folder: the arguments name files relative to it. */
    proc_spec spec = { argv, cwd, env, timeout_s, WB_CAPTURE_CAP, RUN_OUTPUT_MAX_BYTES, 0, 0, 0, NULL, LAB_KEPT_LINES };
    proc_run_sandboxed(&spec, p);
    free(argv);
    free(keep_env);
    free(tol_env);
}

/* The grader's own verdict on what wbSolution was given. Returns 0 when
 * correct, 1 when not. */
static int judge(const wb_options *o, const char *solution, const char *expected, const char *problem)
{
    const char *rule = o->libwb_tolerance ? "libwb's tolerance (0.2)" : "the kit's tolerance";
    char *why = NULL;
    int present = untrusted_check(solution, RUN_OUTPUT_MAX_BYTES, &why);
    if (present != 0) {
        if (present < 0)
            printf("gpulab wb: NOT correct: the grader did not read the solution: %s\n", why);
        else
            printf("gpulab wb: NOT correct: the program never called wbSolution%s%s\n", problem ? "; " : "",
                   problem ? problem : "");
        free(why);
        return 1;
    }
    if (!expected) {
        printf("gpulab wb: NOT correct: no -e EXPECTED among the program's arguments, nothing to compare with\n");
        return 1;
    }
    tolerance_model tol = TOLERANCE_KIT_DEFAULT;
    tol.libwb = o->libwb_tolerance;
    compare_result cr;
    char *message = NULL;
    status_t st = compare_output_libwb(solution, expected, &tol, &cr, &message);
    int correct = st == ST_PASS && !problem;
    if (st == ST_GRADER_ERROR)
        printf("gpulab wb: NOT correct: %s\n", message);
    else
        printf("gpulab wb: %s under %s: %s\n", st == ST_PASS ? "correct" : "NOT correct", rule, message);
    if (st != ST_PASS && cr.hint[0])
        printf("gpulab wb: %s\n", cr.hint);
    if (problem)
        printf("gpulab wb: NOT correct: %s\n", problem);
    free(message);
    return correct ? 0 : 1;
}

/* In the sandbox the program sees its own run folder only: the files its
 * libwb arguments name (-i's inputs, -e) are copied into run_dir and the
 * arguments rewritten to their copies; -o names a file there, copied out
 * to where the user asked once the run is over (*out_from, *out_to).
 * Returns the new arguments (strings malloc'd, freed by free_arguments). */
static char **sandboxed_arguments(const wb_options *o, const char *run_dir, char **out_from, const char **out_to,
                                  file_names *names)
{
    char **v = xcalloc((size_t)o->nargs + 1, sizeof *v);
    *out_from = NULL;
    *out_to = NULL;
    for (int i = 0; i < o->nargs; i++) {
        const char *a = o->args[i];
        int names_file = i + 1 < o->nargs && (strcmp(a, "-i") == 0 || strcmp(a, "-e") == 0 || strcmp(a, "-o") == 0);
        v[i] = xstrdup(a);
        if (!names_file)
            continue;
        const char *value = o->args[++i];
        strbuf copies;
        sb_init(&copies);
        char *list = xstrdup(value);
        int k = 0;
        for (char *save = NULL, *f = strtok_r(list, ",", &save); f; f = strtok_r(NULL, ",", &save), k++) {
            char *name = xasprintf("%c%d-%s", a[1], k, path_base(f));
            char *to = xasprintf("%s/%s", run_dir, name);
            if (a[1] != 'o' && copy_file(f, to) != 0)
                wb_usage("cannot read %s (the program runs in a folder of its own, with copies of the files its "
                         "arguments name)", xasprintf("%s: %s", f, strerror(errno)));
            if (a[1] == 'o') {
                *out_from = xstrdup(to);
                *out_to = value;
            }
            sb_printf(&copies, "%s%s", k ? "," : "", name);
            names->copy = xrealloc(names->copy, (size_t)(names->n + 1) * sizeof *names->copy);
            names->given = xrealloc(names->given, (size_t)(names->n + 1) * sizeof *names->given);
            names->copy[names->n] = name;
            names->given[names->n++] = xstrdup(f);
            free(to);
        }
        free(list);
        v[i] = sb_detach(&copies);
    }
    return v;
}

/* -o's file, written by the program in its run folder, where the user asked
 * for it: read without following links and capped, written without
 * following any either. */
static void copy_out(const char *from, const char *to)
{
    size_t len;
    char *why = NULL;
    char *data = untrusted_read(from, RUN_OUTPUT_MAX_BYTES, 0, &len, &why);
    if (!data)
        fprintf(stderr, "gpulab wb: the program wrote no -o file: %s\n", why ? why : "?");
    else if (write_output(to, data, len) != 0)
        fprintf(stderr, "gpulab wb: cannot write %s: %s\n", to, strerror(errno));
    free(data);
    free(why);
}

static void free_arguments(char **v, int n)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

int cmd_wb(int argc, char **argv)
{
    wb_options o;
    parse_wb_options(argc, argv, &o);
    backend b;
    backend_choose(o.backend, &b);
    /* a Kit program is as untrusted as a submission (an instructor may run a
     * student's): built and run in grade's sandbox */
    sandbox_init(o.sandbox ? o.sandbox : "auto", o.keep);
    char *workdir = make_temp_dir("gpulab-wb");
    build_result br;
    build_wb_program(&b, o.file, workdir, &br);
    int rc;
    if (!br.ok) {
        char *log = printable(br.log);
        fputs(log, stderr);
        free(log);
        fprintf(stderr, "gpulab wb: %s\n", br.message);
        rc = br.grader_fault ? 2 : 1;
        goto done;
    }
    if (br.message) /* a removed call, run as its replacement (build.h) */
        fprintf(stderr, "gpulab wb: note: %s\n", br.message);
    /* sandboxed, the run has a folder of its own holding copies of its
     * files; else it runs in the user's folder, as the Kit's binaries do */
    char *run_dir = sandbox_active() ? run_dir_for(workdir, "run") : NULL;
    char *out_from = NULL;
    const char *out_to = NULL;
    char **args = o.args;
    file_names names = { NULL, NULL, 0 };
    if (run_dir) {
        if (make_dirs(run_dir) != 0)
            die("cannot create %s: %s", run_dir, strerror(errno));
        sandbox_limit_run_dir(run_dir);
        args = sandboxed_arguments(&o, run_dir, &out_from, &out_to, &names);
    }
    char *solution = xasprintf("%s/%s", run_dir ? run_dir : workdir, WB_SOLUTION_FILE);
    proc_result p;
    wb_run_program(br.program, args, o.nargs, solution, o.libwb_tolerance, o.timeout_s, run_dir, &p);
    if (out_from)
        copy_out(out_from, out_to);
    show_output(&p, &names);
    char *problem = wb_run_problem(&p, o.timeout_s);
    rc = judge(&o, solution, expected_argument(&o), problem);
    free(problem);
    proc_result_free(&p);
    free(solution);
    if (args != o.args)
        free_arguments(args, o.nargs);
    free(out_from);
    free(run_dir);
    free_arguments(names.copy, names.n);
    free_arguments(names.given, names.n);
done:
    build_result_free(&br);
    if (o.keep)
        fprintf(stderr, "gpulab wb: work directory kept: %s\n", workdir);
    else
        remove_tree(workdir);
    free(workdir);
    free(b.compiler);
    return rc;
}
