/*
 * import_wb.c - `gpulab import-wb DIR LAB`: a Teaching Kit lab folder
 * (template.cu, solution.cu, Dataset/<n>/input<k>.*, output.*) becomes a lab
 * of this kit, so check, grade and gradescope-package work on it.
 *
 * The folder is someone else's, so it is read like a submission: no links,
 * no special files, size limits, every data file through the kit's strict
 * readers, anything unexpected refused with its path. The Kit's solution.cu
 * is built and run on every dataset (build.c, wb.c) and must reproduce the
 * Kit's own expected output; its output, exact where the Kit's files are
 * rounded (two decimals, 8-bit images), becomes the lab's expected.tensor,
 * and the coarsest rounding of the Kit's files becomes the lab's atol, since
 * without the magnitudes the kit's generators store the bound cannot be
 * tighter than what the Kit's own answers said. The lab asks for the
 * techniques the solution's build shows (shared memory, a barrier, constant
 * memory: requirements.c). The new lab's files are written to a staging
 * folder and moved into the kit only when all of them are ready; then its
 * harness is built (make lab-harness), or the lab is taken out again.
 */
#define _GNU_SOURCE
#include "import_wb.h"
#include "backend.h"
#include "build.h"
#include "compare.h"
#include "kit.h"
#include "process.h"
#include "requirements.h"
#include "run.h"
#include "sandbox.h"
#include "util.h"
#include "wb.h"
#include "../runtime/dataset.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define IMPORT_SOURCE_MAX (1LL << 20)
#define IMPORT_DATA_MAX (256LL << 20)
#define IMPORT_MAX_DATASETS 1000
#define IMPORT_MAX_INPUTS 16
#define IMPORT_TIMEOUT_S 120
#define IMPORT_MAKE_TIMEOUT_S 600
/* The student's file in the imported lab: the Kit's own name for it. */
#define IMPORT_SOURCE "template.cu"

typedef struct {
    char *name;                 /* "0", "1", ... */
    int ninputs;
    char *inputs[IMPORT_MAX_INPUTS];  /* file names, input0.* first */
    char *output;               /* output.* */
} kit_dataset;

/* The staging folder and the reference's work folder, removed however the
 * import ends (die() exits). */
static char *stage_dir, *work_dir;

static void remove_scratch(void)
{
    if (stage_dir)
        remove_tree(stage_dir);
    if (work_dir)
        remove_work_dir(work_dir); /* its run folders' mounts too */
}

static int is_digits(const char *s)
{
    if (!*s || strlen(s) > 6)
        return 0;
    for (; *s; s++)
        if (*s < '0' || *s > '9')
            return 0;
    return 1;
}

static int data_extension(const char *ext)
{
    static const char *const ok[] = { "raw", "csv", "txt", "ppm", "pgm", "pbm", NULL };
    for (int i = 0; ok[i]; i++)
        if (strcmp(ext, ok[i]) == 0)
            return 1;
    return 0;
}

/* A lab id of this kit: lower-case letters, digits and '-', not taken. */
static void check_lab_id(const char *id)
{
    size_t n = strlen(id);
    int ok = n >= 1 && n <= 64 && id[0] != '-';
    for (const char *c = id; ok && *c; c++)
        ok = (*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-';
    if (!ok)
        die("import-wb: the lab's id '%s' must be 1 to 64 lower-case letters, digits and '-' (e.g. 06-kit-matmul)",
            id);
    static const char *const homes[] = { "labs", "skeletons", "solutions", "datasets" };
    for (size_t i = 0; i < sizeof homes / sizeof *homes; i++) {
        char *path = kit_path("%s/%s", homes[i], id);
        struct stat st;
        if (lstat(path, &st) == 0)
            die("import-wb: %s already exists: the kit has a lab named %s", path, id);
        free(path);
    }
}

/* A folder of the Kit's that must be a real one, not a link. */
static void check_folder(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        die("import-wb: %s: %s", path, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        die("import-wb: %s is %s, not a folder", path, S_ISLNK(st.st_mode) ? "a link" : "a file");
}

/* A file of the Kit's: regular, not a link, at most max bytes. */
static void check_file(const char *path, long long max)
{
    char *why = NULL;
    int rc = untrusted_check(path, max, &why);
    if (rc == 1)
        die("import-wb: %s is missing (a Kit lab folder has template.cu, solution.cu and Dataset/<n>/)", path);
    if (rc < 0)
        die("import-wb: %s", why);
}

static int by_number(const void *a, const void *b)
{
    long x = atol(((const kit_dataset *)a)->name), y = atol(((const kit_dataset *)b)->name);
    return (x > y) - (x < y);
}

/* A libwb flag file (wbImport_flag, the Kit's BfsQueue): one whole number
 * and nothing else. */
static int is_flag_file(const char *path)
{
    size_t len;
    char *why = NULL;
    char *text = untrusted_read(path, 64, 0, &len, &why);
    if (!text) {
        free(why);
        return 0;
    }
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    int ok = end != text && !*end && !errno && v >= -2147483647L && v <= 2147483647L;
    free(text);
    return ok;
}

/* One Dataset/<n>/: input0.* ... input<k-1>.* and one output.*, each
 * checked by the kit's readers; anything else is refused. */
static void scan_dataset(const char *dir, kit_dataset *d, double *resolution)
{
    DIR *dh = opendir(dir);
    if (!dh)
        die("import-wb: cannot open %s: %s", dir, strerror(errno));
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        const char *dot = strrchr(e->d_name, '.');
        int k = -1;
        char tail;
        char canonical[64] = "";
        if (dot && sscanf(e->d_name, "input%d%c", &k, &tail) == 2 && tail == '.' && k >= 0)
            snprintf(canonical, sizeof canonical, "input%d%s", k, dot);
        else if (dot && dot - e->d_name == 5 && strncmp(e->d_name, "input", 5) == 0)
            k = 0, snprintf(canonical, sizeof canonical, "input%.58s", dot); /* a lab of one input: input.raw */
        int is_input = dot && data_extension(dot + 1) && strcmp(canonical, e->d_name) == 0 &&
                       k < IMPORT_MAX_INPUTS;
        int is_output = dot && data_extension(dot + 1) && (size_t)(dot - e->d_name) == 6 &&
                        strncmp(e->d_name, "output", 6) == 0;
        if (!is_input && !is_output)
            die("import-wb: %s: not a Kit dataset file (input<k>.raw|ppm|pgm|pbm|csv|txt, input.*, or "
                "output.raw|ppm|pgm|pbm|csv|txt)", path);
        check_file(path, IMPORT_DATA_MAX);
        gl_error err;
        if (is_input) {
            if (d->inputs[k])
                die("import-wb: %s: a second input%d (with %s)", path, k, d->inputs[k]);
            gl_matrix m;
            /* A .txt input that is not a matrix is text (libwb's "Text" kind,
             * the Kit's TextHistogram), a .raw of one number a flag: their
             * size was checked, and the Kit's solution, run on them below,
             * must reproduce the output. */
            if (gl_read_libwb(path, &m, &err) == 0)
                gl_matrix_free(&m);
            else if (!ends_with(e->d_name, ".txt") && !(ends_with(e->d_name, ".raw") && is_flag_file(path)))
                die("import-wb: %s", err.msg);
            d->inputs[k] = xstrdup(e->d_name);
        } else {
            if (d->output)
                die("import-wb: %s: a second expected output (with %s)", path, d->output);
            gl_reference r;
            if (gl_read_libwb_expected(path, &r, &err))
                die("import-wb: %s", err.msg);
            if (r.resolution > *resolution)
                *resolution = r.resolution;
            gl_reference_free(&r);
            d->output = xstrdup(e->d_name);
        }
        free(path);
    }
    closedir(dh);
    while (d->ninputs < IMPORT_MAX_INPUTS && d->inputs[d->ninputs])
        d->ninputs++;
    for (int k = d->ninputs; k < IMPORT_MAX_INPUTS; k++)
        if (d->inputs[k])
            die("import-wb: %s/%s: the inputs must be input0, input1, ... with none missing", dir, d->inputs[k]);
    if (d->ninputs == 0 || !d->output)
        die("import-wb: %s: a Kit dataset has input0.* (and more inputs) and output.*; this one has %s", dir,
            d->ninputs == 0 ? "no input0" : "no output");
}

/* The Kit's generator for a lab without a Dataset folder. */
#define IMPORT_GENERATOR "dataset_generator.cpp"

/* A copy at to of the folder tree from, which a run wrote (the Kit's
 * generator): walked without following a link, each folder opened
 * O_NOFOLLOW, each file read through untrusted_read (regular, one name, at
 * most IMPORT_DATA_MAX bytes, its size looked at first); a link, or
 * anything else dies naming it. What the import reads afterwards is the
 * grader's own copy, whatever the run left behind. */
static void copy_generated(int from_fd, const char *from, const char *to, int depth)
{
    DIR *dh = fdopendir(from_fd);
    if (!dh)
        die("import-wb: cannot open %s: %s", from, strerror(errno));
    if (make_dirs(to) != 0)
        die("import-wb: cannot create %s: %s", to, strerror(errno));
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = xasprintf("%s/%s", from, e->d_name), *copy = xasprintf("%s/%s", to, e->d_name);
        struct stat st;
        if (fstatat(from_fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            die("import-wb: %s: %s", path, strerror(errno));
        if (S_ISDIR(st.st_mode)) {
            int fd = depth < 4 ? openat(from_fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) : -1;
            if (fd < 0)
                die("import-wb: %s: %s", path, depth < 4 ? strerror(errno) : "folders nested deeper than a Kit "
                                                                               "dataset's");
            copy_generated(fd, path, copy, depth + 1);
        } else if (S_ISREG(st.st_mode)) {
            char *why = NULL;
            size_t len;
            /* the folders above it were each checked to be one (the run
             * that made them has ended, every process of it) */
            char *data = untrusted_read(path, IMPORT_DATA_MAX, 0, &len, &why);
            if (!data)
                die("import-wb: the generator's %s", why);
            if (write_file(copy, data, len) != 0)
                die("import-wb: cannot write %s: %s", copy, strerror(errno));
            free(data);
        } else {
            die("import-wb: the generator made %s, %s, which the import does not follow or read: a Kit "
                "generator writes folders and files only", path, S_ISLNK(st.st_mode) ? "a link" : "not a file");
        }
        free(path);
        free(copy);
    }
    closedir(dh);
}

/* The one <name>/Dataset folder the generator made in its run folder (the
 * Kit's write <current folder>/<lab name>/Dataset/<n>/), or death saying
 * what it made instead. */
static char *generated_root(const char *run_dir)
{
    DIR *dh = opendir(run_dir);
    if (!dh)
        die("import-wb: cannot open %s: %s", run_dir, strerror(errno));
    char *found = NULL;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *dataset = xasprintf("%s/%s/Dataset", run_dir, e->d_name);
        struct stat st;
        /* <name> a folder, not a link to one elsewhere */
        if (fstatat(dirfd(dh), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            lstat(dataset, &st) != 0 || !S_ISDIR(st.st_mode)) {
            free(dataset);
            continue;
        }
        if (found)
            die("import-wb: the Kit's %s wrote more than one <name>/Dataset/ folder (%s and %s): which is the "
                "lab's?", IMPORT_GENERATOR, path_base(path_dirname(found)), e->d_name);
        found = dataset;
    }
    closedir(dh);
    if (!found)
        die("import-wb: the Kit's %s wrote no <name>/Dataset/ folder in its current folder", IMPORT_GENERATOR);
    return found;
}

/* A Kit folder without Dataset/ but with the Kit's dataset_generator.cpp:
 * the generator is built against the kit's wb.h (its wbPath_join,
 * wbDirectory_* and wbDataset_generate) and run as the solution is, in the
 * sandbox, in a run folder of its own (size-limited), with no arguments;
 * what it wrote there is then read like any Kit folder's Dataset/ (it is
 * the folder's code, so as untrusted as its files). Returns that folder. */
static char *generate_datasets(const backend *b, const char *generator, const char *work)
{
    fprintf(stderr, "import-wb: no Dataset folder: building and running the Kit's %s...\n", IMPORT_GENERATOR);
    char *gen_work = xasprintf("%s/generator", work);
    if (make_dirs(gen_work) != 0)
        die("import-wb: cannot create %s: %s", gen_work, strerror(errno));
    build_result br;
    build_wb_program(b, generator, gen_work, &br);
    if (!br.ok) {
        char *log = printable(br.log);
        die("import-wb: the Kit's %s does not build: %s\n%s", IMPORT_GENERATOR, br.message, log);
    }
    char *run_dir = run_dir_for(gen_work, "generate");
    if (make_dirs(run_dir) != 0)
        die("import-wb: cannot create %s: %s", run_dir, strerror(errno));
    sandbox_limit_run_dir(run_dir);
    char *unused = xasprintf("%s/solution.tensor", gen_work);
    proc_result p;
    wb_run_program(br.program, NULL, 0, unused, 0, IMPORT_TIMEOUT_S, run_dir, &p);
    char *problem = wb_run_problem(&p, IMPORT_TIMEOUT_S);
    if (problem) {
        char *said = printable(p.err_text);
        die("import-wb: the Kit's %s failed: %s\n%s", IMPORT_GENERATOR, problem, said);
    }
    proc_result_free(&p);
    build_result_free(&br);
    char *generated = generated_root(run_dir);
    char *name = path_dirname(generated);
    int fd = open(generated, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        die("import-wb: cannot open %s: %s", generated, strerror(errno));
    char *root = xasprintf("%s/Dataset", work);
    copy_generated(fd, generated, root, 0);
    /* the paths below are in the import's work folder: say what they are */
    fprintf(stderr, "import-wb: the generator wrote %s/Dataset/ (read from %s)\n", path_base(name), root);
    free(name);
    free(unused);
    free(run_dir);
    free(gen_work);
    return root;
}

static kit_dataset *scan_datasets(const char *root, int *n, double *resolution)
{
    check_folder(root);
    DIR *dh = opendir(root);
    if (!dh)
        die("import-wb: cannot open %s: %s", root, strerror(errno));
    kit_dataset *v = NULL;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *path = xasprintf("%s/%s", root, e->d_name);
        if (!is_digits(e->d_name))
            die("import-wb: %s: a Kit dataset folder is named by its number (Dataset/0, Dataset/1, ...)", path);
        check_folder(path);
        if (*n == IMPORT_MAX_DATASETS)
            die("import-wb: %s: more than %d datasets", root, IMPORT_MAX_DATASETS);
        v = xrealloc(v, (size_t)(*n + 1) * sizeof *v);
        memset(&v[*n], 0, sizeof *v);
        v[*n].name = xstrdup(e->d_name);
        scan_dataset(path, &v[*n], resolution);
        (*n)++;
        free(path);
    }
    closedir(dh);
    if (*n == 0)
        die("import-wb: %s has no datasets (Dataset/0/, ...)", root);
    qsort(v, (size_t)*n, sizeof *v, by_number);
    return v;
}

static void copy_into(const char *from, const char *to);

/* Runs the Kit's solution on dataset d; it must match the Kit's own
 * expected output; its output is left at solution_path, in run_dir. A Kit
 * folder is as untrusted as a submission: the solution runs in the sandbox,
 * in a folder of its own (run_dir, in the import's work folder) that holds
 * copies of the dataset's files, which its arguments name. */
static void run_reference(const char *program, const char *dataset_dir, const kit_dataset *d,
                          const char *run_dir, const char *solution_path)
{
    if (make_dirs(run_dir) != 0)
        die("import-wb: cannot create %s: %s", run_dir, strerror(errno));
    sandbox_limit_run_dir(run_dir);
    strbuf inputs;
    sb_init(&inputs);
    for (int k = 0; k <= d->ninputs; k++) {
        const char *name = k < d->ninputs ? d->inputs[k] : d->output;
        char *from = xasprintf("%s/%s", dataset_dir, name), *to = xasprintf("%s/%s", run_dir, name);
        copy_into(from, to);
        free(from);
        free(to);
        if (k < d->ninputs)
            sb_printf(&inputs, "%s%s", k ? "," : "", name);
    }
    char *expected = xasprintf("%s/%s", dataset_dir, d->output);
    char *args[] = { "-i", inputs.buf, "-e", (char *)d->output };
    proc_result p;
    wb_run_program(program, args, 4, solution_path, 0, IMPORT_TIMEOUT_S, run_dir, &p);
    char *problem = wb_run_problem(&p, IMPORT_TIMEOUT_S);
    if (problem) {
        char *said = printable(p.err_text);
        die("import-wb: the Kit's solution.cu failed on %s: %s\n%s", dataset_dir, problem, said);
    }
    tolerance_model tol = TOLERANCE_KIT_DEFAULT;
    compare_result cr;
    char *message = NULL;
    status_t st = compare_output_libwb(solution_path, expected, &tol, &cr, &message);
    if (st != ST_PASS)
        die("import-wb: the Kit's solution.cu does not reproduce %s: %s", expected, message);
    free(message);
    proc_result_free(&p);
    free(expected);
    sb_free(&inputs);
}

/* The reference's output as the lab's expected.tensor (values only). */
static void write_expected(const char *solution_path, const char *to)
{
    gl_matrix out;
    gl_reference ref;
    gl_error err;
    if (gl_read_output(solution_path, &out, &err) ||
        gl_reference_alloc(&ref, out.rows, out.cols, out.channels, 0, &err))
        die("import-wb: %s", err.msg);
    for (size_t i = 0; i < gl_matrix_count(&out); i++)
        ref.value[i] = out.data[i];
    if (gl_write_reference(to, &ref, &err))
        die("import-wb: %s", err.msg);
    gl_reference_free(&ref);
    gl_matrix_free(&out);
}

static void write_text_file(const char *path, const char *text)
{
    char *dir = path_dirname(path);
    if (make_dirs(dir) != 0 || write_file_atomic(path, text, strlen(text)) != 0)
        die("import-wb: cannot write %s: %s", path, strerror(errno));
    free(dir);
}

static void copy_into(const char *from, const char *to)
{
    char *dir = path_dirname(to);
    if (make_dirs(dir) != 0 || copy_file(from, to) != 0 || chmod(to, 0644) != 0)
        die("import-wb: cannot copy %s to %s: %s", from, to, strerror(errno));
    free(dir);
}

/* The techniques an imported lab asks for: those the Kit's solution shows
 * (requirements.c, from its build: the PTX, or the emulator's count of the
 * source), a point each; none with --no-requirements. */
static const requirement_kind lab_techniques[] = { REQ_SHARED_MEMORY, REQ_BARRIER, REQ_CONSTANT_MEMORY };
#define NTECHNIQUES (sizeof lab_techniques / sizeof *lab_techniques)

static void solution_techniques(const backend *b, const char *work, int shown[NTECHNIQUES])
{
    kernel_evidence e;
    memset(&e, 0, sizeof e);
    build_evidence(b, work, &e);
    for (size_t i = 0; i < NTECHNIQUES; i++)
        shown[i] = requirement_shown(&e, lab_techniques[i]);
}

static char *manifest_text(const char *id, const char *folder, const kit_dataset *v, int n, double atol,
                           const int shown[NTECHNIQUES])
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "id", id);
    char *title = xasprintf("Teaching Kit lab %s", path_base(folder));
    cJSON_AddStringToObject(root, "title", title);
    free(title);
    cJSON_AddStringToObject(root, "summary",
                            "Imported by gpulab import-wb: a whole libwb program (template.cu), run on the Kit's "
                            "datasets; expected outputs recomputed by the Kit's solution.cu.");
    cJSON_AddStringToObject(root, "source", IMPORT_SOURCE);
    cJSON_AddStringToObject(root, "entry_point", "main");
    cJSON_AddStringToObject(root, "program", "libwb");
    cJSON_AddStringToObject(root, "expected", "expected.tensor");
    cJSON_AddNumberToObject(root, "seed", 0);
    cJSON_AddNumberToObject(root, "timeout_s", 30);
    cJSON *tol = cJSON_AddObjectToObject(root, "tolerance");
    cJSON_AddNumberToObject(tol, "atol", atol);
    cJSON_AddNumberToObject(tol, "rtol", 0);
    cJSON_AddNumberToObject(tol, "sum_ulps", 2);
    cJSON_AddNumberToObject(tol, "fallback_rtol", 1e-5);
    cJSON *reqs = cJSON_AddArrayToObject(root, "requirements");
    for (size_t i = 0; i < NTECHNIQUES; i++) {
        if (!shown[i])
            continue;
        cJSON *q = cJSON_CreateObject();
        cJSON_AddStringToObject(q, "name", requirement_name(lab_techniques[i]));
        cJSON_AddNumberToObject(q, "points", 1);
        cJSON_AddItemToArray(reqs, q);
    }
    cJSON *ds = cJSON_AddArrayToObject(root, "datasets");
    for (int i = 0; i < n; i++) {
        cJSON *d = cJSON_CreateObject();
        cJSON_AddStringToObject(d, "name", v[i].name);
        cJSON_AddNumberToObject(d, "points", 1);
        cJSON_AddObjectToObject(d, "params");
        cJSON_AddItemToArray(ds, d);
    }
    char *json = cJSON_Print(root);
    cJSON_Delete(root);
    if (!json)
        die("out of memory");
    char *text = xasprintf("%s\n", json);
    cJSON_free(json);
    return text;
}

static const char lab_h_text[] =
    "/*\n"
    " * lab.h - a lab imported from the Teaching Kit (gpulab import-wb): the\n"
    " * student's file is a whole libwb program, its main() renamed for the\n"
    " * harness (grader/runtime/wb/wb_harness.c).\n"
    " */\n"
    "#ifndef LAB_H\n"
    "#define LAB_H\n"
    "int wb_program_main(int argc, char **argv);\n"
    "#endif\n";

static const char harness_c_text[] =
    "/*\n"
    " * harness.c - a lab imported from the Teaching Kit (gpulab import-wb): the\n"
    " * kit's one harness for whole libwb programs.\n"
    " */\n"
    "#include \"wb/wb_harness.c\"\n";

/* Where an imported lab lives in the kit. */
static const char *const lab_homes[] = { "labs", "skeletons", "solutions", "datasets" };
#define NHOMES (sizeof lab_homes / sizeof *lab_homes)

/* Takes the lab out of its first n homes again. */
static void remove_lab(const char *id, size_t n)
{
    for (size_t j = 0; j < n; j++) {
        char *done = kit_path("%s/%s", lab_homes[j], id);
        remove_tree(done);
        free(done);
    }
}

/* The new lab's harness, built for each backend the kit has by the kit's
 * Makefile (make lab-harness LAB=ID: the one home of how a harness is
 * compiled), so that check and grade work at once. Returns NULL, or why
 * not (malloc'd). */
static char *build_harness(const char *id)
{
    char *make = find_in_path("make");
    if (!make)
        return xstrdup("make is not on PATH");
    char *lab = xasprintf("LAB=%s", id);
    const char *argv[] = { make, "-C", kit_root(), "--no-print-directory", "-s", "lab-harness", lab, NULL };
    proc_spec spec = { argv, NULL, NULL, IMPORT_MAKE_TIMEOUT_S, 1 << 16, 0, 0, 0, 0, NULL, NULL };
    proc_result r;
    proc_run(&spec, &r);
    char *why = NULL;
    if (!(r.started && r.exited && r.exit_code == 0))
        why = xasprintf("make lab-harness LAB=%s failed%s:\n%s%s", id, r.timed_out ? " (timed out)" : "",
                        r.out_text, r.err_text);
    proc_result_free(&r);
    free(lab);
    free(make);
    return why;
}

int import_wb_lab(const char *folder, const char *id, const import_options *o)
{
    int requirements = !o->no_requirements;
    check_lab_id(id);
    check_folder(folder);
    char *template_cu = xasprintf("%s/template.cu", folder), *solution_cu = xasprintf("%s/solution.cu", folder);
    check_file(template_cu, IMPORT_SOURCE_MAX);
    check_file(solution_cu, IMPORT_SOURCE_MAX);
    char *dataset_root = xasprintf("%s/Dataset", folder), *generator = xasprintf("%s/%s", folder, IMPORT_GENERATOR);
    struct stat st;
    int generate = lstat(dataset_root, &st) != 0 && errno == ENOENT && lstat(generator, &st) == 0;
    if (generate)
        check_file(generator, IMPORT_SOURCE_MAX);
    else if (lstat(dataset_root, &st) != 0 && errno == ENOENT)
        die("import-wb: %s has no Dataset/ folder and no %s: a Kit lab folder needs one or the other (the "
            "Kit's generator writes the datasets)", folder, IMPORT_GENERATOR);
    int n;
    double resolution = 0;
    kit_dataset *v = generate ? NULL : scan_datasets(dataset_root, &n, &resolution);

    backend b;
    backend_choose(o->backend_name, &b);
    /* The Kit folder's solution.cu is built and run as a submission is:
     * in the sandbox (grade's), or not at all without --sandbox none. */
    sandbox_init(o->sandbox ? o->sandbox : "auto", 0);
    sandbox_hide(folder);
    char *work = make_temp_dir("gpulab-import");
    work_dir = work;
    atexit(remove_scratch);
    if (generate) {
        free(dataset_root);
        dataset_root = generate_datasets(&b, generator, work);
        v = scan_datasets(dataset_root, &n, &resolution);
    }
    build_result br;
    build_wb_program(&b, solution_cu, work, &br);
    if (!br.ok) {
        char *log = printable(br.log);
        die("import-wb: the Kit's solution.cu does not build: %s\n%s", br.message, log);
    }
    int shown[NTECHNIQUES] = { 0 };
    if (requirements)
        solution_techniques(&b, work, shown);
    char *stage = kit_path(".import-%s.tmp", id);
    remove_tree(stage);
    stage_dir = stage;
    for (int i = 0; i < n; i++) {
        char *dir = xasprintf("%s/%s", dataset_root, v[i].name);
        char *run_dir = run_dir_for(work, v[i].name);
        char *solution = xasprintf("%s/solution.tensor", run_dir);
        fprintf(stderr, "import-wb: running the Kit's solution on Dataset/%s...\n", v[i].name);
        run_reference(br.program, dir, &v[i], run_dir, solution);
        free(run_dir);
        for (int k = 0; k < v[i].ninputs; k++) {
            /* under the kit's name, input<k>.<ext>, however the Kit named it (input.raw) */
            char *from = xasprintf("%s/%s", dir, v[i].inputs[k]);
            char *to = xasprintf("%s/datasets/%s/%s/input%d%s", stage, id, v[i].name, k,
                                 strrchr(v[i].inputs[k], '.'));
            copy_into(from, to);
            free(from);
            free(to);
        }
        char *expected = xasprintf("%s/datasets/%s/%s/expected.tensor", stage, id, v[i].name);
        write_expected(solution, expected);
        free(expected);
        free(solution);
        free(dir);
    }
    /* The Kit's files said no more than this; nothing tighter is fair. */
    double atol = resolution > 1e-6 ? resolution : 1e-6;
    char *json = manifest_text(id, folder, v, n, atol, shown);
    char *path = xasprintf("%s/labs/%s/lab.json", stage, id);
    write_text_file(path, json);
    free(path);
    free(json);
    path = xasprintf("%s/labs/%s/lab.h", stage, id);
    write_text_file(path, lab_h_text);
    free(path);
    path = xasprintf("%s/labs/%s/harness.c", stage, id);
    write_text_file(path, harness_c_text);
    free(path);
    path = xasprintf("%s/skeletons/%s/%s", stage, id, IMPORT_SOURCE);
    copy_into(template_cu, path);
    free(path);
    path = xasprintf("%s/solutions/%s/%s", stage, id, IMPORT_SOURCE);
    copy_into(solution_cu, path);
    free(path);

    /* Everything is ready: into the kit, each home in one rename. */
    for (size_t i = 0; i < NHOMES; i++) {
        char *from = xasprintf("%s/%s/%s", stage, lab_homes[i], id);
        char *to = kit_path("%s/%s", lab_homes[i], id);
        char *parent = path_dirname(to);
        if (make_dirs(parent) != 0 || rename(from, to) != 0) {
            int saved = errno;
            remove_lab(id, i);
            die("import-wb: cannot move %s to %s: %s", from, to, strerror(saved));
        }
        free(parent);
        free(from);
        free(to);
    }
    remove_scratch();
    stage_dir = work_dir = NULL;
    fprintf(stderr, "import-wb: building the lab's harness...\n");
    char *problem = build_harness(id);
    if (problem) {
        remove_lab(id, NHOMES);
        die("import-wb: %s\nnothing was imported", problem);
    }
    strbuf asked;
    sb_init(&asked);
    for (size_t i = 0; i < NTECHNIQUES; i++)
        if (shown[i])
            sb_printf(&asked, "%s%s", asked.len ? ", " : "", requirement_name(lab_techniques[i]));
    printf("imported %s as %s: %d dataset%s, expected outputs from the Kit's solution.cu, atol %g (the Kit's "
           "files' rounding); requirements: %s%s\n"
           "next: ./gpulab check %s FILE.cu\n",
           folder, id, n, n == 1 ? "" : "s", atol, asked.len ? asked.buf : "none",
           asked.len ? " (what the Kit's solution shows; the \"requirements\" of lab.json)"
                     : requirements ? " (the Kit's solution shows no shared memory, barrier or constant memory)"
                                    : " (--no-requirements)",
           id);
    sb_free(&asked);
    for (int i = 0; i < n; i++) {
        free(v[i].name);
        free(v[i].output);
        for (int k = 0; k < v[i].ninputs; k++)
            free(v[i].inputs[k]);
    }
    free(v);
    build_result_free(&br);
    free(b.compiler);
    free(stage);
    free(work);
    free(dataset_root);
    free(generator);
    free(template_cu);
    free(solution_cu);
    return 0;
}
