/*
 * batch.c - see batch.h.
 *
 * The pipeline: up to `jobs` forked workers each build one submission
 * (build_submission() into a private work directory) and leave what the
 * build said in <workdir>/build.json; the grader itself runs the built
 * submissions one at a time, in the entries' order (one GPU, or the
 * emulator), then writes the record with write_file_atomic(). With
 * --parallel N, N worker processes each build and grade one submission at a
 * time, spread over the GPUs, and write its record; the grader reads them
 * back and reports in the entries' order. Killing the grader loses at most
 * the submissions being built or run: every record on disk is whole, and a
 * re-run reuses it.
 */
#define _GNU_SOURCE
#include "batch.h"
#include "json.h"
#include "build.h"
#include "datasets.h"
#include "export.h"
#include "kit.h"
#include "report.h"
#include "requirements.h"
#include "sandbox.h"
#include "sha256.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- finding the submissions ------------------------------------------------ */

char *batch_clean_id(const char *raw)
{
    char *id = xstrdup(*raw ? raw : "submission");
    for (char *c = id; *c; c++)
        if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
              *c == '-' || *c == '_' || *c == '.'))
            *c = '_';
    if (id[0] == '.')
        id[0] = '_';
    return id;
}

static int by_string(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The sorted names in a directory, without hidden ones, which are named on
 * standard error so that no submission vanishes unseen. */
static char **list_dir(const char *dir, int *n)
{
    DIR *d = opendir(dir);
    if (!d)
        die("cannot open %s: %s", dir, strerror(errno));
    char **names = NULL;
    int k = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (e->d_name[0] == '.') {
            fprintf(stderr, "gpulab: skipped %s/%s: a hidden name (rename it without the leading dot to grade it)\n",
                    dir, e->d_name);
            continue;
        }
        names = xrealloc(names, (size_t)(k + 1) * sizeof *names);
        names[k++] = xstrdup(e->d_name);
    }
    closedir(d);
    if (k)
        qsort(names, (size_t)k, sizeof *names, by_string);
    *n = k;
    return names;
}

typedef struct {
    batch_entry *v;
    int n;
} entries;

static void add_entry(entries *es, const char *raw_id, char *path, char *problem)
{
    es->v = xrealloc(es->v, (size_t)(es->n + 1) * sizeof *es->v);
    es->v[es->n].id = batch_clean_id(raw_id);
    es->v[es->n].name = xstrdup(raw_id);
    es->v[es->n].clash = NULL;
    es->v[es->n].path = path;
    es->v[es->n].problem = problem;
    es->v[es->n].misnamed = 0;
    es->v[es->n].student_folder = 0;
    es->n++;
}

/* ---- ids that clash ---------------------------------------------------------- */

/* Ids are file names in the records directory and rows of the gradebook: two
 * submissions with one id ("s1001 smith" and "s1001_smith") would take each
 * other's marks. Neither may stop the class either (a student chooses their
 * folder's name), so both are graded, under distinct ids, and flagged. */

static int id_used(const entries *es, const char *id, int except)
{
    for (int i = 0; i < es->n; i++)
        if (i != except && strcmp(es->v[i].id, id) == 0)
            return 1;
    return 0;
}

/* A name as it can be shown on one line: no control characters. */
static char *shown_name(const char *name)
{
    char *p = printable(name);
    char *s = str_replace_all(p, "\n", "\\n");
    free(p);
    p = str_replace_all(s, "\t", "\\t");
    free(s);
    return p;
}

/* The one member of a clash whose name already is the id keeps it (the
 * student who named the folder as asked); -1 when none or several do. */
static int clash_keeper(const entries *es, const int *group, int k)
{
    int keeper = -1;
    for (int j = 0; j < k; j++)
        if (strcmp(es->v[group[j]].name, es->v[group[j]].id) == 0) {
            if (keeper >= 0)
                return -1;
            keeper = group[j];
        }
    return keeper;
}

/* The first of id-2, id-3, ... that no entry has. */
static char *free_id(const entries *es, const char *id)
{
    for (int k = 2;; k++) {
        char *cand = xasprintf("%s-%d", id, k);
        if (!id_used(es, cand, -1))
            return cand;
        free(cand);
    }
}

/* Gives every member of the group (entries sharing es->v[group[0]].id) but
 * its keeper an id of its own, and says so in each member's `clash`. */
static void separate_group(entries *es, const int *group, int k)
{
    char *base = xstrdup(es->v[group[0]].id);
    int keeper = clash_keeper(es, group, k);
    strbuf names;
    sb_init(&names);
    for (int j = 0; j < k; j++) {
        char *shown = shown_name(es->v[group[j]].name);
        sb_printf(&names, "%s'%s'", j == 0 ? "" : j == k - 1 ? " and " : ", ", shown);
        free(shown);
        if (group[j] != keeper) {
            char *id = free_id(es, base);
            free(es->v[group[j]].id);
            es->v[group[j]].id = id;
        }
    }
    for (int j = 0; j < k; j++) {
        batch_entry *e = &es->v[group[j]];
        e->clash = xasprintf("id clash: %s would all be %s; this one is graded as %s", names.buf, base, e->id);
    }
    fprintf(stderr, "gpulab: %s would all be graded as '%s': each is graded under an id of its own "
                    "(see their records' id_clash); rename the folders and grade again\n", names.buf, base);
    sb_free(&names);
    free(base);
}

static void separate_clashing_ids(entries *es)
{
    int *group = xcalloc((size_t)es->n + 1, sizeof *group);
    for (int i = 0; i < es->n; i++) {
        if (es->v[i].clash || !id_used(es, es->v[i].id, i))
            continue;
        int k = 0;
        for (int j = i; j < es->n; j++)
            if (strcmp(es->v[j].id, es->v[i].id) == 0)
                group[k++] = j;
        separate_group(es, group, k);
    }
    free(group);
}

/* Whether a path a student controls is a symbolic link (graded as its
 * target, it could hand in the reference solution or a classmate's folder). */
static int is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

static char *refused_link(const char *path)
{
    return xasprintf("refused: %s is a symbolic link; hand in the file itself", path);
}

/* A file name that is the lab's as the Teaching Kit names it: a lab
 * imported from the Kit (its source is template.cu) takes solution.cu too,
 * the name of the Kit's finished file, which students hand in as well. */
static int kit_file_name(const lab_manifest *m, const char *name)
{
    return m->libwb_program && (strcmp(name, "template.cu") == 0 || strcmp(name, "solution.cu") == 0);
}

/* DIR/<the lab's file>: m->source, or for a Kit lab its other Kit name
 * where only that one is there (malloc'd; m->source's when neither is). */
static char *lab_file_in(const lab_manifest *m, const char *dir)
{
    char *src = xasprintf("%s/%s", dir, m->source);
    if (file_exists(src) || is_link(src) || !m->libwb_program)
        return src;
    char *other = xasprintf("%s/solution.cu", dir);
    if (file_exists(other) || is_link(other)) {
        free(src);
        return other;
    }
    free(other);
    return src;
}

/* A student's folder: the lab's source file, else its only .cu file. */
static void add_folder(entries *es, const lab_manifest *m, const char *dir, const char *id)
{
    char *src = lab_file_in(m, dir);
    if (is_link(src)) {
        add_entry(es, id, NULL, refused_link(src));
        free(src);
        return;
    }
    if (file_exists(src)) {
        add_entry(es, id, src, NULL);
        return;
    }
    free(src);
    int n;
    char **names = list_dir(dir, &n);
    char *only = NULL;
    int count = 0;
    for (int i = 0; i < n; i++) {
        char *p = xasprintf("%s/%s", dir, names[i]);
        if (ends_with(names[i], ".cu") && is_link(p)) {
            count = -1000; /* refused below */
            free(only);
            only = p;
        } else if (ends_with(names[i], ".cu") && file_exists(p)) {
            count++;
            free(only);
            only = p;
        } else {
            free(p);
        }
        free(names[i]);
    }
    free(names);
    if (count < 0) {
        add_entry(es, id, NULL, refused_link(only));
        free(only);
    } else if (count == 1) {
        add_entry(es, id, only, NULL);
        es->v[es->n - 1].misnamed = !kit_file_name(m, path_base(only));
    } else {
        free(only);
        add_entry(es, id, NULL,
                  count == 0 ? xasprintf("the folder %s has no %s (and no other .cu file)", dir, m->source)
                             : xasprintf("the folder %s has no %s but %d other .cu files: which one is it?",
                                         dir, m->source, count));
    }
}

static char *stem(const char *path)
{
    const char *base = path_base(path);
    const char *dot = strrchr(base, '.');
    return xasprintf("%.*s", (int)(dot && dot != base ? dot - base : (long)strlen(base)), base);
}

static char *parent_name(const char *path)
{
    char *copy = xstrdup(path);
    char *slash = strrchr(copy, '/');
    char *name;
    if (!slash) {
        char cwd[4096];
        name = xstrdup(getcwd(cwd, sizeof cwd) ? path_base(cwd) : "submission");
    } else {
        *slash = '\0';
        name = xstrdup(*copy ? path_base(copy) : "submission");
    }
    free(copy);
    return name;
}

batch_entry *batch_collect(const lab_manifest *m, const char *const *args, int nargs, int *n)
{
    entries es = { NULL, 0 };
    char *source_stem = stem(m->source);
    for (int a = 0; a < nargs; a++) {
        const char *arg = args[a];
        char *arg_parent = path_dirname(arg);
        int linked = is_link(arg) || (strcmp(arg_parent, ".") != 0 && is_link(arg_parent));
        free(arg_parent);
        if (linked && file_exists(arg)) { /* a glob such as class/alice/lab.cu through a link */
            char *s = stem(arg);
            if (strcmp(s, source_stem) == 0 || kit_file_name(m, path_base(arg))) {
                free(s);
                s = parent_name(arg);
            }
            add_entry(&es, s, NULL, refused_link(arg));
            free(s);
        } else if (file_exists(arg)) {
            char *s = stem(arg);
            if (strcmp(s, source_stem) == 0 || kit_file_name(m, path_base(arg))) { /* alice/basic_matmul.cu is alice's */
                free(s);
                s = parent_name(arg);
            }
            add_entry(&es, s, xstrdup(arg), NULL);
            free(s);
        } else if (dir_exists(arg)) {
            char *trimmed = xstrdup(arg);
            size_t len = strlen(trimmed);
            while (len > 1 && trimmed[len - 1] == '/')
                trimmed[--len] = '\0';
            char *src = lab_file_in(m, trimmed);
            if (file_exists(src)) { /* the folder is one student's (a Gradescope upload) */
                char real[4096];
                const char *name = realpath(trimmed, real) ? path_base(real) : path_base(trimmed);
                if (is_link(src)) {
                    add_entry(&es, name, NULL, refused_link(src));
                    free(src);
                } else {
                    add_entry(&es, name, src, NULL);
                }
            } else {
                free(src);
                int k;
                char **names = list_dir(trimmed, &k);
                for (int i = 0; i < k; i++) {
                    char *p = xasprintf("%s/%s", trimmed, names[i]);
                    if (is_link(p)) {
                        char *s = ends_with(names[i], ".cu") ? stem(names[i]) : xstrdup(names[i]);
                        add_entry(&es, s, NULL, refused_link(p));
                        free(s);
                    } else if (dir_exists(p)) {
                        add_folder(&es, m, p, names[i]);
                        es.v[es.n - 1].student_folder = 1;
                    } else if (ends_with(names[i], ".cu") && file_exists(p)) {
                        char *s = stem(names[i]);
                        add_entry(&es, s, xstrdup(p), NULL);
                        free(s);
                    }
                    free(p);
                    free(names[i]);
                }
                free(names);
            }
            free(trimmed);
        } else {
            die("%s: no such file or folder", arg);
        }
    }
    free(source_stem);
    separate_clashing_ids(&es);
    *n = es.n;
    return es.v;
}

void batch_entries_free(batch_entry *e, int n)
{
    for (int i = 0; i < n; i++) {
        free(e[i].id);
        free(e[i].name);
        free(e[i].clash);
        free(e[i].path);
        free(e[i].problem);
    }
    free(e);
}

/* The first 52 bits of a finished sha256: exact in JSON numbers and in any
 * spreadsheet. */
static unsigned long long first_52_bits(sha256_ctx *c)
{
    char hex[65];
    sha256_final_hex(c, hex);
    char first[14];
    memcpy(first, hex, 13);
    first[13] = '\0';
    return strtoull(first, NULL, 16);
}

unsigned long long batch_secret_seed(const char *secret, const char *id)
{
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, "gpulab-secret-seed 1", 21);
    sha256_update(&c, secret, strlen(secret) + 1);
    sha256_update(&c, id, strlen(id));
    return first_52_bits(&c);
}

int batch_shard_of(const char *id, int nshards)
{
    sha256_ctx c;
    sha256_init(&c);
    sha256_update(&c, "gpulab-shard 1", 15);
    sha256_update(&c, id, strlen(id));
    return (int)(first_52_bits(&c) % (unsigned long long)nshards);
}

int batch_keep_shard(batch_entry *e, int n, int k, int nshards)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        if (batch_shard_of(e[i].id, nshards) == k) {
            e[kept++] = e[i];
            continue;
        }
        free(e[i].id);
        free(e[i].path);
        free(e[i].problem);
    }
    return kept;
}

/* ---- datasets: which, where, their hashes ---------------------------------- */

static int selected(const grade_options *go, const lab_manifest *m, int i)
{
    return go->dataset == i || (go->dataset < 0 && !m->datasets[i].on_demand);
}

typedef struct {
    int have;
    unsigned long long seed;
    char *root;             /* <hidden>/<seed>, or NULL: the kit's datasets */
    char (*hash)[65];       /* per manifest dataset ("" when not selected) */
    char all[65];           /* over the selected datasets' names and hashes */
} dataset_set;

static char *hidden_base; /* private directory of regenerated datasets */

static void hash_set(const lab_manifest *m, const grade_options *go, dataset_set *ds)
{
    sha256_ctx all;
    sha256_init(&all);
    ds->hash = xcalloc((size_t)m->ndatasets + 1, sizeof *ds->hash);
    for (int i = 0; i < m->ndatasets; i++) {
        if (!selected(go, m, i))
            continue;
        char *dir = ds->root ? xasprintf("%s/%s", ds->root, m->datasets[i].name) : dataset_dir(m, i);
        if (sha256_dir_hex(dir, ds->hash[i]) != 0)
            die("cannot read the dataset %s", dir);
        sha256_update(&all, m->datasets[i].name, strlen(m->datasets[i].name) + 1);
        sha256_update(&all, ds->hash[i], 64);
        free(dir);
    }
    sha256_final_hex(&all, ds->all);
}

/* The datasets for one seed, generated once into the private directory. */
static void seeded_set(const lab_manifest *m, const grade_options *go, unsigned long long seed,
                       dataset_set *ds)
{
    if (ds->have && ds->root && ds->seed == seed)
        return;
    if (ds->have) {
        remove_tree(ds->root);
        free(ds->root);
        free(ds->hash);
    }
    memset(ds, 0, sizeof *ds);
    if (!hidden_base) {
        hidden_base = make_temp_dir("gpulab-hidden");
        chmod(hidden_base, 0700);
        sandbox_hide(hidden_base);
    }
    ds->root = xasprintf("%s/%llu", hidden_base, seed);
    for (int i = 0; i < m->ndatasets; i++) {
        if (!selected(go, m, i))
            continue;
        char *why = NULL;
        if (dataset_generate(m, i, seed, ds->root, &why) != 0)
            die("%s", why);
    }
    ds->seed = seed;
    ds->have = 1;
    hash_set(m, go, ds);
}

/* ---- records ---------------------------------------------------------------- */

static char *record_path(const batch_options *o, const batch_entry *e)
{
    return xasprintf("%s/%s.json", o->records_dir, e->id);
}

static int same(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

static int same_or_none(const char *a, const char *b)
{
    return (!a && !b) || same(a, b);
}

/* The record already on disk, if it was made from the same submission, by the
 * same grader, on the same backend and datasets, with the same options. */
static cJSON *reusable_record(const batch_options *o, const batch_entry *e, const char *sub_sha,
                              const char *grader_sha, const char *backend_name, const char *datasets_sha,
                              const char *options_key)
{
    char *path = record_path(o, e);
    char *text = read_file(path, NULL);
    free(path);
    if (!text)
        return NULL;
    cJSON *rec = cJSON_Parse(text);
    free(text);
    if (!rec)
        return NULL;
    /* A record the kit failed to make (a full disk, a killed build) says
     * nothing about the submission: it is always graded again. */
    int kit_failed = 0;
    const cJSON *ds;
    cJSON_ArrayForEach(ds, cJSON_GetObjectItemCaseSensitive(rec, "datasets"))
        kit_failed |= same(json_str(ds, "status", NULL), "grader_error");
    if (!kit_failed && same(json_str(rec, "submission_sha256", NULL), sub_sha) &&
        same(json_str(rec, "grader_version", NULL), o->grader_version) &&
        same(json_str(rec, "grader_sha256", NULL), grader_sha) && same(json_str(rec, "backend", NULL), backend_name) &&
        same(json_str(rec, "datasets_sha256", NULL), datasets_sha) && same(json_str(rec, "options", NULL), options_key) &&
        same_or_none(json_str(rec, "id_clash", NULL), e->clash))
        return rec;
    cJSON_Delete(rec);
    return NULL;
}

/* A record for a folder with nothing to grade: every dataset a compile error. */
static void missing_result(const lab_manifest *m, const backend *b, const batch_entry *e,
                           const grade_options *go, submission_result *s)
{
    memset(s, 0, sizeof *s);
    s->file = xstrdup(e->path ? e->path : e->id);
    s->lab = xstrdup(m->id);
    snprintf(s->backend, sizeof s->backend, "%s", b->name);
    snprintf(s->device, sizeof s->device, "%s", b->device);
    snprintf(s->driver, sizeof s->driver, "%s", b->driver);
    snprintf(s->arch, sizeof s->arch, "%s", b->arch);
    s->build_log = xstrdup("");
    s->build_message = xstrdup(e->problem);
    s->checkers_skipped = go->no_sanitize;
    for (int i = 0; i < m->ndatasets; i++)
        if (selected(go, m, i))
            s->ndatasets++;
    s->datasets = xcalloc((size_t)s->ndatasets + 1, sizeof *s->datasets);
    for (int i = 0, k = 0; i < m->ndatasets; i++)
        if (selected(go, m, i)) {
            s->datasets[k].name = m->datasets[i].name;
            s->datasets[k].max_points = m->datasets[i].points;
            s->datasets[k].status = strncmp(e->problem, "refused:", 8) == 0 ? ST_REFUSED : ST_COMPILE_ERROR;
            s->datasets[k].message = xstrdup(e->problem);
            s->datasets[k].call_ms = -1;
            s->max_score += m->datasets[i].points;
            k++;
        }
    kernel_evidence ev;
    memset(&ev, 0, sizeof ev);
    requirements_judge(m, &ev, s);
}

static void utc_now(char *buf, size_t len)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* report_json()'s record, plus who and what was graded. */
static cJSON *make_record(const lab_manifest *m, const batch_options *o, const batch_entry *e,
                          const submission_result *s, const char *sub_sha, const char *grader_sha,
                          const dataset_set *ds, const char *options_key, double seconds)
{
    cJSON *rec = report_json(s);
    cJSON *front = cJSON_CreateObject(); /* the identifying keys first, for people reading the file */
    cJSON_AddStringToObject(front, "id", e->id);
    cJSON_AddStringToObject(front, "submission_sha256", sub_sha);
    cJSON_AddStringToObject(front, "grader_version", o->grader_version);
    cJSON_AddStringToObject(front, "grader_sha256", grader_sha);
    for (cJSON *it = rec->child; it;) {
        cJSON *next = it->next;
        cJSON_AddItemToObject(front, it->string, cJSON_DetachItemViaPointer(rec, it));
        it = next;
    }
    cJSON_Delete(rec);
    rec = front;
    cJSON_AddStringToObject(rec, "status", "graded");
    if (ds->root) {
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", ds->seed);
        cJSON_AddStringToObject(rec, "seed", seed);
        cJSON_AddStringToObject(rec, "seed_from", o->secret ? "secret" : "seed");
    } else {
        char seed[32];
        snprintf(seed, sizeof seed, "%llu", m->seed);
        cJSON_AddStringToObject(rec, "seed", seed);
        cJSON_AddStringToObject(rec, "seed_from", "public");
    }
    cJSON_AddBoolToObject(rec, "hidden_datasets", ds->root != NULL);
    json_fix_utf8(rec);
    cJSON_AddStringToObject(rec, "datasets_sha256", ds->all);
    cJSON_AddStringToObject(rec, "options", options_key);
    cJSON_AddStringToObject(rec, "sandbox", sandbox_mode());
    /* graded, but the folder's only .cu file is not named as the lab asks */
    cJSON_AddBoolToObject(rec, "misnamed", e->misnamed);
    /* another entry's name made the same id: both graded, both flagged */
    if (e->clash)
        cJSON_AddStringToObject(rec, "id_clash", e->clash);
    char when[32];
    utc_now(when, sizeof when);
    cJSON_AddStringToObject(rec, "graded_at", when);
    cJSON_AddNumberToObject(rec, "grading_s", seconds);
    /* each dataset's hash and whether the student could have seen it */
    cJSON *arr = cJSON_GetObjectItemCaseSensitive(rec, "datasets");
    cJSON *d;
    cJSON_ArrayForEach(d, arr) {
        const char *name = json_str(d, "name", NULL);
        int idx = name ? manifest_find_dataset(m, name) : -1;
        cJSON_AddStringToObject(d, "sha256", idx >= 0 ? ds->hash[idx] : "");
        cJSON_AddBoolToObject(d, "hidden", ds->root != NULL);
    }
    return rec;
}

/* ---- builds in other processes ---------------------------------------------- */

/* The build stage's outcome, the checkers' builds' folders included (they
 * finished in the build's process: pre was waited for). */
static void write_build_json(const char *workdir, const build_result *br, const sanitize_prebuild *pre)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", br->ok);
    cJSON_AddBoolToObject(o, "grader_fault", br->grader_fault);
    cJSON_AddStringToObject(o, "program", br->program ? br->program : "");
    cJSON_AddStringToObject(o, "log", br->log ? br->log : "");
    if (br->message)
        cJSON_AddStringToObject(o, "message", br->message);
    cJSON_AddNumberToObject(o, "seconds", br->seconds);
    cJSON_AddNumberToObject(o, "token_s", br->token_s);
    cJSON *checkers = cJSON_AddArrayToObject(o, "checkers");
    for (int i = 0; i < SAN_FOLDERS; i++) {
        cJSON *c = cJSON_CreateObject();
        if (pre->builds.folder[i])
            cJSON_AddStringToObject(c, "folder", pre->builds.folder[i]);
        if (pre->builds.problem[i])
            cJSON_AddStringToObject(c, "problem", pre->builds.problem[i]);
        cJSON_AddItemToArray(checkers, c);
    }
    char *text = cJSON_PrintUnformatted(o);
    char *path = xasprintf("%s/build.json", workdir);
    if (write_file_atomic(path, text, strlen(text)) != 0)
        _exit(3);
    free(path);
    free(text);
    cJSON_Delete(o);
}

static void read_build_json(const char *workdir, build_result *br, sanitize_prebuild *pre)
{
    memset(br, 0, sizeof *br);
    sanitize_prebuild_init(pre);
    char *path = xasprintf("%s/build.json", workdir);
    char *text = read_file(path, NULL);
    free(path);
    cJSON *o = text ? cJSON_Parse(text) : NULL;
    free(text);
    if (!o) {
        br->grader_fault = 1;
        br->log = xstrdup("");
        br->message = xstrdup("the build process ended without saying what happened (killed?)");
        return;
    }
    br->ok = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "ok"));
    br->grader_fault = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "grader_fault"));
    const char *prog = json_str(o, "program", NULL);
    br->program = prog && *prog ? xstrdup(prog) : NULL;
    br->log = xstrdup(json_str(o, "log", NULL));
    br->message = json_str(o, "message", NULL) ? xstrdup(json_str(o, "message", NULL)) : NULL;
    br->seconds = json_num(o, "seconds");
    br->token_s = json_num(o, "token_s");
    const cJSON *checkers = cJSON_GetObjectItemCaseSensitive(o, "checkers");
    for (int i = 0; i < SAN_FOLDERS && cJSON_IsArray(checkers); i++) {
        const cJSON *c = cJSON_GetArrayItem(checkers, i);
        const char *folder = c ? json_str(c, "folder", NULL) : NULL, *problem = c ? json_str(c, "problem", NULL) : NULL;
        pre->builds.folder[i] = folder ? xstrdup(folder) : NULL;
        pre->builds.problem[i] = problem ? xstrdup(problem) : NULL;
    }
    cJSON_Delete(o);
}

enum { PENDING, BUILDING, BUILT, DONE };

typedef struct {
    int state;
    pid_t pid;
    char *workdir;
    char sub_sha[65];
} slot;

static void start_build(const lab_manifest *m, const backend *b, const grade_options *go, const batch_entry *e,
                        slot *s)
{
    s->workdir = make_temp_dir("gpulab");
    pid_t pid = fork_flushed();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        build_result br;
        sanitize_prebuild pre;
        grade_build(m, b, e->path, go, s->workdir, &br, &pre);
        sanitize_prebuild_wait(&pre);
        write_build_json(s->workdir, &br, &pre);
        _exit(0);
    }
    s->pid = pid;
    s->state = BUILDING;
}

/* Reaps finished builds; with block, waits for at least one. */
static void reap_builds(slot *slots, int n, int block)
{
    for (;;) {
        int status;
        pid_t pid = waitpid(-1, &status, block ? 0 : WNOHANG);
        if (pid <= 0)
            return;
        for (int i = 0; i < n; i++)
            if (slots[i].state == BUILDING && slots[i].pid == pid)
                slots[i].state = BUILT;
        block = 0;
    }
}

/* ---- progress ---------------------------------------------------------------- */

static void progress(const batch_options *o, int done, int total, int building, const char *now)
{
    if (!o->progress)
        return;
    const int width = 30;
    int fill = total ? done * width / total : width;
    char bar[64];
    for (int i = 0; i < width; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[width] = '\0';
    fprintf(stderr, "\r\033[K[%s] %d/%d graded, %d building%s%.40s", bar, done, total, building,
            now ? "  " : "", now ? now : "");
    fflush(stderr);
}

static char *self_sha(void)
{
    char hex[65];
    if (sha256_file_hex("/proc/self/exe", hex) != 0)
        snprintf(hex, sizeof hex, "unknown");
    return xstrdup(hex);
}

/* What one batch's grading loops share. */
typedef struct {
    const lab_manifest *m;
    const backend *b;
    const batch_entry *e;
    const batch_options *o;
    slot *slots;
    cJSON **by_index;
    const char *grader_sha, *options_key;
    dataset_set *public_set, *seeded;
    batch_summary *sum;
    void (*on_record)(const cJSON *rec, const char *report, void *ctx);
    void *ctx;
    int next_emit;      /* on_record has been called for the entries before this one */
} batch_ctx;

/* The datasets entry i is graded on (in the grader's process): the public
 * ones, or those of its seed, generated now if they are not the last ones. */
static const dataset_set *datasets_for(batch_ctx *c, int i)
{
    const batch_options *o = c->o;
    if (!o->use_seed && !o->secret)
        return c->public_set;
    seeded_set(c->m, &o->go, o->secret ? batch_secret_seed(o->secret, c->e[i].id) : o->seed, c->seeded);
    return c->seeded;
}

static int record_grader_errors(const cJSON *rec)
{
    int k = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, cJSON_GetObjectItemCaseSensitive(rec, "datasets"))
        k += same(json_str(d, "status", NULL), "grader_error");
    return k;
}

/* The record of a submission just graded, written atomically to the records
 * folder, and its text report (when the batch's output wants one). */
static cJSON *record_graded(batch_ctx *c, int i, const submission_result *s, const dataset_set *ds,
                            double seconds, char **report)
{
    cJSON *rec = make_record(c->m, c->o, &c->e[i], s, c->slots[i].sub_sha, c->grader_sha, ds, c->options_key,
                             seconds);
    if (c->b->kind == BACKEND_GPU) {
        const char *visible = getenv("CUDA_VISIBLE_DEVICES");
        cJSON_AddStringToObject(rec, "gpu", visible ? visible : "");
    }
    char *text = cJSON_Print(rec);
    char *path = record_path(c->o, &c->e[i]);
    if (write_private_file(path, text, strlen(text)) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    free(path);
    free(text);
    *report = NULL;
    if (c->o->text_reports) {
        strbuf sb;
        sb_init(&sb);
        report_text(&sb, s, c->o->color, c->o->verbose);
        *report = sb_detach(&sb);
    }
    return rec;
}

/* Calls on_record for every finished entry not yet told, in the entries'
 * order; reports[i] (freed here) is an entry's text report, NULL for one
 * whose record was reused. */
static void emit_in_order(batch_ctx *c, int n, char **reports)
{
    while (c->next_emit < n && c->slots[c->next_emit].state == DONE) {
        int i = c->next_emit++;
        if (c->on_record)
            c->on_record(c->by_index[i], reports ? reports[i] : NULL, c->ctx);
        if (reports) {
            free(reports[i]);
            reports[i] = NULL;
        }
    }
}

/* Where a submission's error maps go: a folder of its own under --maps
 * (default gpulab-errormaps). A class's files share one name, so one
 * student's map must never stand in for another's (on their feedback
 * page, say). */
static char *maps_dir_for(const batch_options *o, const batch_entry *e)
{
    return xasprintf("%s/%s", o->go.maps_dir ? o->go.maps_dir : "gpulab-errormaps", e->id);
}

static void grade_in_child(batch_ctx *c, int i, const char *gpu_id, const dataset_set *built_on, double since)
    __attribute__((noreturn));
static void collect_worker(batch_ctx *c, int i, int status, char **report);

/* One GPU (or the emulator) at a time: builds run ahead in up to `jobs`
 * other processes, each built submission is graded in a worker of its own,
 * one after another. */
static void grade_in_order(batch_ctx *c, int n, int done)
{
    const lab_manifest *m = c->m;
    const backend *b = c->b;
    const batch_entry *e = c->e;
    const batch_options *o = c->o;
    slot *slots = c->slots;
    int jobs = o->jobs > 0 ? o->jobs : 1;
    int next_build = 0;
    char **reports = xcalloc((size_t)n + 1, sizeof *reports);
    for (int i = 0; i < n; i++) {
        if (slots[i].state == DONE) {
            emit_in_order(c, n, reports);
            continue;
        }
        double ts = monotonic_s(); /* the record's grading_s: its build included */
        if (!e[i].path) {
            submission_result s;
            missing_result(m, b, &e[i], &o->go, &s);
            c->by_index[i] = record_graded(c, i, &s, datasets_for(c, i), 0, &reports[i]);
            submission_result_free(&s);
        } else {
            /* keep `jobs` builds going, this one included */
            for (;;) {
                reap_builds(slots, n, 0);
                int building = 0;
                for (int k = 0; k < n; k++)
                    building += slots[k].state == BUILDING;
                while (building < jobs && next_build < n) {
                    if (slots[next_build].state == PENDING && e[next_build].path) {
                        start_build(m, b, &o->go, &e[next_build], &slots[next_build]);
                        building++;
                    }
                    next_build++;
                }
                progress(o, done, n, building, e[i].id);
                if (slots[i].state == BUILT)
                    break;
                reap_builds(slots, n, 1);
            }
            /* graded in a worker of its own, as with --parallel: a failure
             * of the grader's own work on this submission (a full disk
             * under its copies) is this submission's grader_error */
            const dataset_set *ds = datasets_for(c, i);
            pid_t pid = fork_flushed();
            if (pid < 0)
                die("fork: %s", strerror(errno));
            if (pid == 0)
                grade_in_child(c, i, NULL, ds, ts);
            int status;
            while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                    die("waitpid: %s", strerror(errno));
            collect_worker(c, i, status, &reports[i]);
            if (o->go.keep)
                fprintf(stderr, "gpulab: kept the work directory %s\n", slots[i].workdir);
            else
                remove_work_dir(slots[i].workdir);
        }
        c->sum->grader_errors += record_grader_errors(c->by_index[i]);
        slots[i].state = DONE;
        done++;
        c->sum->graded++;
        emit_in_order(c, n, reports);
    }
    free(reports);
}

/* In a grading worker (a child process): build (or, with built_on, read the
 * build a build process left, and grade on those datasets), grade, write the
 * record and the text report (workdir/report.txt); the parent reads them
 * back (collect_worker). since: when the submission's grading began (its
 * build's start), or 0 for now. */
static void grade_in_child(batch_ctx *c, int i, const char *gpu_id, const dataset_set *built_on, double since)
{
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    if (gpu_id && setenv("CUDA_VISIBLE_DEVICES", gpu_id, 1) != 0)
        die("setenv: %s", strerror(errno));
    const batch_options *o = c->o;
    double ts = since > 0 ? since : monotonic_s();
    submission_result s;
    dataset_set mine;
    memset(&mine, 0, sizeof mine);
    const dataset_set *ds = c->public_set;
    if (built_on) {
        ds = built_on;
    } else if (o->secret) {
        /* each submission's own datasets, generated here */
        seeded_set(c->m, &o->go, batch_secret_seed(o->secret, c->e[i].id), &mine);
        ds = &mine;
    } else if (o->use_seed) {
        ds = c->seeded; /* one seed for all: generated before the workers */
    }
    build_result br;
    sanitize_prebuild pre;
    if (built_on)
        read_build_json(c->slots[i].workdir, &br, &pre);
    else
        grade_build(c->m, c->b, c->e[i].path, &o->go, c->slots[i].workdir, &br, &pre);
    grade_options go = o->go;
    go.datasets_root = ds->root;
    char *maps = maps_dir_for(o, &c->e[i]);
    go.maps_dir = maps;
    grade_built(c->m, c->b, c->e[i].path, &go, c->slots[i].workdir, &br, &pre, &s);
    free(maps);
    build_result_free(&br);
    char *report = NULL;
    cJSON *rec = record_graded(c, i, &s, ds, monotonic_s() - ts, &report);
    char *path = xasprintf("%s/report.txt", c->slots[i].workdir);
    if (write_file(path, report ? report : "", report ? strlen(report) : 0) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    if (mine.have)
        remove_tree(mine.root);
    (void)rec;
    fflush(stdout);
    fflush(stderr);
    _exit(0);
}

/* A grading worker that died before its record was written (the grader's
 * own copies met a full disk, a kill): that submission's grader_error,
 * graded again next time, never the class's end; whatever its runs left
 * running is stopped. */
static void worker_failed(batch_ctx *c, int i, int status, char **report)
{
    char *why = xasprintf("the grader failed while grading this submission (its worker ended with %s %d): "
                          "the machine, not the file; it is graded again next time",
                          WIFEXITED(status) ? "exit status" : "signal",
                          WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
    fprintf(stderr, "gpulab: %s: %s\n", c->e[i].id, why);
    char *build = xasprintf("%s/build", c->slots[i].workdir);
    sandbox_run_ended(build);
    free(build);
    batch_entry failed = c->e[i];
    failed.problem = why;
    submission_result s;
    missing_result(c->m, c->b, &failed, &c->o->go, &s);
    for (int k = 0; k < s.ndatasets; k++)
        s.datasets[k].status = ST_GRADER_ERROR;
    c->by_index[i] = record_graded(c, i, &s, datasets_for(c, i), 0, report);
    submission_result_free(&s);
    free(why);
}

/* A grading worker has ended with status: its record and report, or, where
 * it wrote none, worker_failed's. */
static void collect_worker(batch_ctx *c, int i, int status, char **report)
{
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    char *path = record_path(c->o, &c->e[i]);
    char *text = ok ? read_file(path, NULL) : NULL;
    c->by_index[i] = text ? cJSON_Parse(text) : NULL;
    free(text);
    free(path);
    if (c->by_index[i]) {
        char *rpath = xasprintf("%s/report.txt", c->slots[i].workdir);
        *report = read_file(rpath, NULL);
        free(rpath);
    } else {
        worker_failed(c, i, status, report);
    }
}

/* Several submissions at once (--parallel N): each is built and graded in a
 * worker process of its own, spread over the GPUs the runs may use (worker
 * k on GPU k mod the number of GPUs); records and reports come back in the
 * entries' order. */
static void grade_in_parallel(batch_ctx *c, int n, int done)
{
    const batch_options *o = c->o;
    slot *slots = c->slots;
    int workers = o->parallel;
    pid_t *pids = xcalloc((size_t)workers, sizeof *pids);
    int *entry_of = xcalloc((size_t)workers, sizeof *entry_of);
    char **reports = xcalloc((size_t)n + 1, sizeof *reports);
    if (o->use_seed && !o->secret)
        seeded_set(c->m, &o->go, o->seed, c->seeded);
    if (o->secret && !hidden_base) { /* made here, so every worker's runs hide it */
        hidden_base = make_temp_dir("gpulab-hidden");
        chmod(hidden_base, 0700);
        sandbox_hide(hidden_base);
    }
    int next = 0, running = 0;
    for (;;) {
        while (next < n && (slots[next].state == DONE || !c->e[next].path)) {
            if (slots[next].state != DONE) { /* nothing to grade: its record now */
                submission_result s;
                missing_result(c->m, c->b, &c->e[next], &o->go, &s);
                c->by_index[next] = record_graded(c, next, &s, datasets_for(c, next), 0, &reports[next]);
                submission_result_free(&s);
                slots[next].state = DONE;
                done++;
                c->sum->graded++;
            }
            next++;
        }
        for (int w = 0; w < workers && next < n && running < workers; w++) {
            if (pids[w])
                continue;
            int i = next++;
            slots[i].workdir = make_temp_dir("gpulab");
            pid_t pid = fork_flushed();
            if (pid < 0)
                die("fork: %s", strerror(errno));
            if (pid == 0)
                grade_in_child(c, i, c->b->kind == BACKEND_GPU ? c->b->gpu_ids[w % c->b->ngpus] : NULL, NULL, 0);
            pids[w] = pid;
            entry_of[w] = i;
            slots[i].state = BUILDING;
            running++;
            while (next < n && slots[next].state == DONE)
                next++;
        }
        emit_in_order(c, n, reports);
        progress(o, done, n, running, NULL);
        if (running == 0 && next >= n)
            break;
        int status;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0) {
            if (errno == EINTR)
                continue;
            die("waitpid: %s", strerror(errno));
        }
        int w = 0;
        while (w < workers && pids[w] != pid)
            w++;
        if (w == workers)
            continue; /* not a worker */
        int i = entry_of[w];
        pids[w] = 0;
        running--;
        collect_worker(c, i, status, &reports[i]);
        if (o->go.keep)
            fprintf(stderr, "gpulab: kept the work directory %s\n", slots[i].workdir);
        else
            remove_work_dir(slots[i].workdir);
        c->sum->grader_errors += record_grader_errors(c->by_index[i]);
        slots[i].state = DONE;
        done++;
        c->sum->graded++;
    }
    emit_in_order(c, n, reports);
    free(reports);
    free(pids);
    free(entry_of);
}

cJSON *batch_run(const lab_manifest *m, const backend *b, const batch_entry *e, int n,
                 const batch_options *o,
                 void (*on_record)(const cJSON *rec, const char *report, void *ctx),
                 void *ctx, batch_summary *sum)
{
    double t0 = monotonic_s();
    memset(sum, 0, sizeof *sum);
    sum->total = n;
    /* a new records folder is the grader's alone, in every mode (records
     * hold the seed and classmates' scores; an existing one is checked in
     * the uid mode) */
    if (make_private_dirs(o->records_dir) != 0)
        die("cannot create the records folder %s: %s", o->records_dir, strerror(errno));
    sandbox_hide(o->records_dir);
    sandbox_check_hidden(); /* everything is hidden by now: what is open, said at once */
    char *grader_sha = self_sha();
    /* The manifest decides points, tolerance and time limits: a record made
     * under another version of it is not reused. */
    char manifest_sha[65] = "";
    char *manifest_path = kit_path("labs/%s/lab.json", m->id);
    if (sha256_file_hex(manifest_path, manifest_sha) != 0)
        die("cannot read %s", manifest_path);
    free(manifest_path);
    char *options_key = xasprintf("dataset=%s timeout=%g sanitize=%s manifest=%.16s",
                                  o->go.dataset >= 0 ? m->datasets[o->go.dataset].name : "default",
                                  o->go.timeout_s > 0 ? o->go.timeout_s : m->timeout_s,
                                  o->go.no_sanitize                                 ? "no"
                                  : o->go.checkers == CHECKERS_COMPUTE_SANITIZER ? "compute-sanitizer"
                                                                                  : "yes",
                                  manifest_sha);

    dataset_set public_set, seeded;
    memset(&public_set, 0, sizeof public_set);
    memset(&seeded, 0, sizeof seeded);
    hash_set(m, &o->go, &public_set);

    slot *slots = xcalloc((size_t)n + 1, sizeof *slots);
    cJSON *records = cJSON_CreateArray();
    cJSON **by_index = xcalloc((size_t)n + 1, sizeof(cJSON *));

    /* What is already graded: the same bytes, grader, backend, datasets. */
    for (int i = 0; i < n; i++) {
        if (e[i].path) {
            /* the student's file: its size looked at before a byte is read
             * (a 3 GB sparse file), never through a link; one the build
             * will refuse is known by why */
            char *why = NULL;
            size_t len;
            char *text = untrusted_read(e[i].path, SUBMISSION_MAX_BYTES, 0, &len, &why);
            sha256_hex(text ? text : why, text ? len : strlen(why), slots[i].sub_sha);
            free(text);
            free(why);
        } else {
            sha256_hex("", 0, slots[i].sub_sha);
        }
        const dataset_set *ds = &public_set;
        if (o->use_seed || o->secret) {
            seeded_set(m, &o->go, o->secret ? batch_secret_seed(o->secret, e[i].id) : o->seed, &seeded);
            ds = &seeded;
        }
        by_index[i] = reusable_record(o, &e[i], slots[i].sub_sha, grader_sha, b->name, ds->all, options_key);
        if (by_index[i])
            slots[i].state = DONE;
    }

    batch_ctx c = { m, b, e, o, slots, by_index, grader_sha, options_key, &public_set, &seeded, sum,
                    on_record, ctx, 0 };
    int done = 0;
    for (int i = 0; i < n; i++)
        if (slots[i].state == DONE)
            done++;
    sum->skipped = done;
    progress(o, done, n, 0, NULL);
    if (o->parallel > 1)
        grade_in_parallel(&c, n, done);
    else
        grade_in_order(&c, n, done);
    done = n;
    progress(o, done, n, 0, NULL);
    if (o->progress)
        fputs("\r\033[K", stderr);
    for (int i = 0; i < n; i++) {
        cJSON_AddItemToArray(records, by_index[i]);
        free(slots[i].workdir);
    }
    if (seeded.have) {
        remove_tree(seeded.root);
        free(seeded.root);
        free(seeded.hash);
    }
    if (hidden_base) {
        remove_tree(hidden_base);
        free(hidden_base);
        hidden_base = NULL;
    }
    free(public_set.hash);
    free(by_index);
    free(slots);
    free(grader_sha);
    free(options_key);
    sum->seconds = monotonic_s() - t0;
    return records;
}
