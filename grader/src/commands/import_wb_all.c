/*
 * import_wb_all.c - `gpulab import-wb --all KIT_ROOT`: an instructor's copy
 * of the Teaching Kit, every lab folder of it tried.
 *
 * Each folder under KIT_ROOT that holds a solution.cu or a template.cu is
 * imported as kit-<its name, lower-case> by a run of `gpulab import-wb` of
 * its own (an import that fails dies, and takes nothing else with it); a
 * lab that imported then has the Kit's solution checked in it, as a
 * student's file would be (`gpulab check`, the checkers included). The
 * table says, for each folder: the lab it became or the one line that says
 * why not, and the Kit solution's score on this backend. Nothing here is
 * taken from what the Kit's code printed but through those two commands.
 */
#define _GNU_SOURCE
#include "import_wb.h"
#include "kit.h"
#include "process.h"
#include "util.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define ALL_MAX_DEPTH 4        /* KIT_ROOT/ModuleN/LAB is 2 */
#define ALL_MAX_LABS 200
#define ALL_IMPORT_TIMEOUT_S 3600
#define ALL_CHECK_TIMEOUT_S 1200

typedef struct {
    char *folder;   /* the lab folder */
    char *name;     /* its path under KIT_ROOT, for the table */
    char *id;       /* the lab it becomes */
    char *result;   /* "imported as ID", or why not */
    char *score;    /* "5/5", or "" */
} kit_lab;

typedef struct {
    kit_lab *v;
    int n;
} kit_labs;

static int is_plain_file(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static int by_version(const void *a, const void *b)
{
    return strverscmp(*(char *const *)a, *(char *const *)b);
}

/* The folders under dir, in the Kit's order (Module3 before Module10);
 * links and hidden folders are not followed. */
static char **subfolders(const char *dir, int *n)
{
    *n = 0;
    DIR *dh = opendir(dir);
    if (!dh)
        return NULL;
    char **names = NULL;
    struct dirent *e;
    while ((e = readdir(dh)) != NULL) {
        if (e->d_name[0] == '.' || strcmp(e->d_name, "Dataset") == 0)
            continue;
        char *path = xasprintf("%s/%s", dir, e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
            names = xrealloc(names, (size_t)(*n + 1) * sizeof *names);
            names[(*n)++] = xstrdup(e->d_name);
        }
        free(path);
    }
    closedir(dh);
    if (*n)
        qsort(names, (size_t)*n, sizeof *names, by_version);
    return names;
}

/* "kit-" and the name in lower case, anything but a letter or a digit as
 * '-'; NULL past a lab id's 64 characters. */
static char *lab_id_for(const char *name)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "kit-");
    for (const char *c = name; *c; c++) {
        char ch = *c >= 'A' && *c <= 'Z' ? (char)(*c - 'A' + 'a') : *c;
        int ok = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
        if (ok || (sb.len && sb.buf[sb.len - 1] != '-'))
            sb_append(&sb, ok ? &ch : "-", 1);
    }
    while (sb.len && sb.buf[sb.len - 1] == '-')
        sb.buf[--sb.len] = '\0';
    if (sb.len > 64) {
        sb_free(&sb);
        return NULL;
    }
    return sb_detach(&sb);
}

static void find_labs(const char *root, const char *dir, int depth, kit_labs *labs)
{
    char *solution = xasprintf("%s/solution.cu", dir), *template_cu = xasprintf("%s/template.cu", dir);
    int is_lab = is_plain_file(solution) || is_plain_file(template_cu);
    free(solution);
    free(template_cu);
    if (is_lab && depth > 0) {
        if (labs->n == ALL_MAX_LABS)
            die("import-wb --all: more than %d lab folders under %s", ALL_MAX_LABS, root);
        labs->v = xrealloc(labs->v, (size_t)(labs->n + 1) * sizeof *labs->v);
        kit_lab *l = &labs->v[labs->n++];
        memset(l, 0, sizeof *l);
        l->folder = xstrdup(dir);
        l->name = xstrdup(dir + strlen(root) + 1);
        return;
    }
    if (depth == ALL_MAX_DEPTH)
        return;
    int n;
    char **names = subfolders(dir, &n);
    for (int i = 0; i < n; i++) {
        char *sub = xasprintf("%s/%s", dir, names[i]);
        find_labs(root, sub, depth + 1, labs);
        free(sub);
        free(names[i]);
    }
    free(names);
}

/* Each lab's id: kit-<folder>, or kit-<parent>-<folder> where two folders
 * share a name (the Kit's 2017 and 2020 copies side by side). */
static void choose_ids(kit_labs *labs)
{
    for (int i = 0; i < labs->n; i++)
        labs->v[i].id = lab_id_for(path_base(labs->v[i].folder));
    for (int i = 0; i < labs->n; i++) {
        int shared = 0;
        for (int j = 0; j < labs->n; j++)
            shared |= j != i && labs->v[i].id && labs->v[j].id && strcmp(labs->v[i].id, labs->v[j].id) == 0;
        if (shared) {
            free(labs->v[i].id);
            labs->v[i].id = NULL;
        }
    }
    for (int i = 0; i < labs->n; i++)
        if (!labs->v[i].id)
            labs->v[i].id = lab_id_for(labs->v[i].name);
}

/* The path of this gpulab, to run its commands. */
static char *self_path(void)
{
    char buf[4096];
    ssize_t len = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (len > 0) {
        buf[len] = '\0';
        return xstrdup(buf);
    }
    return kit_path("gpulab");
}

/* The last line that says what the import died with ("gpulab:
 * import-wb: ...", die()'s), without the prefixes; else the last line. */
static char *last_word(const char *text)
{
    static const char died[] = "gpulab: import-wb: ";
    const char *best = NULL, *last = NULL;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        if (len) {
            last = line;
            if (strncmp(line, died, sizeof died - 1) == 0)
                best = line;
        }
        line = end ? end + 1 : NULL;
    }
    const char *at = best ? best + sizeof died - 1 : last;
    if (!at)
        return xstrdup("it failed and said nothing");
    const char *end = strchr(at, '\n');
    char *line = xasprintf("%.*s", (int)(end ? end - at : (long)strlen(at)), at);
    char *safe = printable(line);
    free(line);
    return safe;
}

static void run_gpulab(const char *const *argv, double timeout_s, proc_result *r)
{
    proc_spec spec = { argv, NULL, NULL, timeout_s, 1 << 20, 0, 0, 0, 0, NULL, NULL };
    proc_run(&spec, r);
}

static void try_lab(const char *self, kit_lab *l, const import_options *o)
{
    const char *argv[12];
    int k = 0;
    argv[k++] = self;
    argv[k++] = "import-wb";
    argv[k++] = l->folder;
    argv[k++] = l->id;
    if (o->backend_name) {
        argv[k++] = "--backend";
        argv[k++] = o->backend_name;
    }
    if (o->sandbox) {
        argv[k++] = "--sandbox";
        argv[k++] = o->sandbox;
    }
    if (o->no_requirements)
        argv[k++] = "--no-requirements";
    argv[k] = NULL;
    fprintf(stderr, "import-wb --all: %s as %s...\n", l->name, l->id);
    proc_result r;
    run_gpulab(argv, ALL_IMPORT_TIMEOUT_S, &r);
    int imported = r.started && r.exited && r.exit_code == 0;
    if (imported) {
        l->result = xasprintf("imported as %s", l->id);
    } else if (r.timed_out) {
        l->result = xasprintf("no: the import took more than %d s", ALL_IMPORT_TIMEOUT_S);
    } else {
        char *why = last_word(r.err_text);
        l->result = xasprintf("no: %s", why);
        free(why);
    }
    proc_result_free(&r);
    l->score = xstrdup("");
    if (!imported)
        return;
    char *solution = kit_path("solutions/%s/template.cu", l->id);
    const char *check[] = { self, "check", l->id, solution, "--format", "json",
                            o->backend_name ? "--backend" : NULL, o->backend_name, NULL };
    run_gpulab(check, ALL_CHECK_TIMEOUT_S, &r);
    cJSON *report = r.started && r.exited ? cJSON_Parse(r.out_text) : NULL;
    cJSON *score = cJSON_GetObjectItemCaseSensitive(report, "score"),
          *max = cJSON_GetObjectItemCaseSensitive(report, "max_score");
    free(l->score);
    l->score = cJSON_IsNumber(score) && cJSON_IsNumber(max)
                   ? xasprintf("%g/%g", score->valuedouble, max->valuedouble)
                   : xstrdup("not checked (gpulab check gave no report)");
    cJSON_Delete(report);
    proc_result_free(&r);
    free(solution);
}

int import_wb_all(const char *kit_root, const import_options *o)
{
    struct stat st;
    if (lstat(kit_root, &st) != 0)
        die("import-wb --all: %s: %s", kit_root, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        die("import-wb --all: %s is not a folder (the root of a copy of the Teaching Kit's labs)", kit_root);
    char *root = xstrdup(kit_root);
    while (strlen(root) > 1 && root[strlen(root) - 1] == '/')
        root[strlen(root) - 1] = '\0';
    kit_labs labs = { NULL, 0 };
    find_labs(root, root, 0, &labs);
    if (labs.n == 0)
        die("import-wb --all: no lab folder under %s (none holds a solution.cu or a template.cu within %d "
            "levels)", root, ALL_MAX_DEPTH);
    choose_ids(&labs);
    char *self = self_path();
    int imported = 0;
    size_t wname = strlen("lab"), wresult = strlen("imported");
    for (int i = 0; i < labs.n; i++) {
        kit_lab *l = &labs.v[i];
        if (!l->id) {
            l->result = xstrdup("no: its path makes no lab id of 64 characters or fewer");
            l->score = xstrdup("");
        } else {
            try_lab(self, l, o);
            imported += strncmp(l->result, "imported", 8) == 0;
        }
        if (strlen(l->name) > wname)
            wname = strlen(l->name);
        if (strlen(l->result) > wresult && strncmp(l->result, "no:", 3) != 0)
            wresult = strlen(l->result);
    }
    printf("%-*s  %-*s  %s\n", (int)wname, "lab", (int)wresult, "imported", "the Kit's solution");
    for (int i = 0; i < labs.n; i++) {
        kit_lab *l = &labs.v[i];
        if (strncmp(l->result, "no:", 3) == 0)
            printf("%-*s  %s\n", (int)wname, l->name, l->result);
        else
            printf("%-*s  %-*s  %s\n", (int)wname, l->name, (int)wresult, l->result, l->score);
        free(l->folder);
        free(l->name);
        free(l->id);
        free(l->result);
        free(l->score);
    }
    printf("%d of %d lab folders imported\n", imported, labs.n);
    free(labs.v);
    free(self);
    free(root);
    return imported > 0 ? 0 : 1;
}
