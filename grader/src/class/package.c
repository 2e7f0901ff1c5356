/*
 * package.c - see package.h.
 */
#define _GNU_SOURCE
#include "package.h"
#include "kit.h"
#include "manifest.h"
#include "process.h"
#include "options.h"
#include "util.h"
#include "zip.h"

#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct {
    char **v;
    int n;
} filelist;

/* Folders an autograder must never carry: the instructors' answer keys. */
static const char *const left_out[] = { "docs/instructor", NULL };

static void list_tree(filelist *fl, const char *root, const char *rel)
{
    for (int i = 0; left_out[i]; i++)
        if (strcmp(rel, left_out[i]) == 0)
            return;
    char *dir = *rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *r = *rel ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        char *full = xasprintf("%s/%s", root, r);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            list_tree(fl, root, r);
            free(r);
        } else if (S_ISREG(st.st_mode)) {
            fl->v = xrealloc(fl->v, (size_t)(fl->n + 1) * sizeof *fl->v);
            fl->v[fl->n++] = r;
        } else {
            free(r);
        }
        free(full);
    }
    closedir(d);
    free(dir);
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void write_text(const char *path, const char *text, int exec)
{
    if (write_file_atomic(path, text, strlen(text)) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    chmod(path, exec ? 0755 : 0644);
}

/* The kit's files an autograder needs: no solutions, no tests, no build
 * products, and no answer keys (docs/instructor/ is left out when copying). */
static const char *const kit_parts[] = { "Makefile", "README.md", "grader/install-deps.sh", "grader/src",
                                         "grader/runtime", "grader/emu", "labs", "docs", NULL };

/* The kit without datasets into stage/kit: setup.sh regenerates this lab's
 * public ones from the lab's seed, bit for bit the kit's (a test checks
 * that), so the zip stays small; a lab with no generator carries its own. */
static void copy_kit_into(const char *stage, const char *lab_id, int has_generator)
{
    filelist fl = { NULL, 0 };
    const char *const *parts = kit_parts;
    for (int i = 0; parts[i]; i++) {
        char *src = kit_path("%s", parts[i]);
        if (file_exists(src)) {
            fl.v = xrealloc(fl.v, (size_t)(fl.n + 1) * sizeof *fl.v);
            fl.v[fl.n++] = xstrdup(parts[i]);
        } else {
            list_tree(&fl, kit_root(), parts[i]);
        }
        free(src);
    }
    if (!has_generator) {
        char *datasets = xasprintf("datasets/%s", lab_id);
        list_tree(&fl, kit_root(), datasets);
        free(datasets);
    }
    for (int i = 0; i < fl.n; i++) {
        char *from = kit_path("%s", fl.v[i]);
        char *to = xasprintf("%s/kit/%s", stage, fl.v[i]);
        char *dir = xstrdup(to);
        *strrchr(dir, '/') = '\0';
        struct stat st;
        if (make_dirs(dir) != 0 || copy_file(from, to) != 0 || stat(from, &st) != 0)
            die("cannot copy %s into the package: %s", from, strerror(errno));
        chmod(to, st.st_mode & 0777);
        free(from);
        free(to);
        free(dir);
        free(fl.v[i]);
    }
    free(fl.v);

}

/* The package's setup.sh and run_autograder, into stage. */
static void write_package_scripts(const char *stage, const char *lab_id, int has_generator,
                                  const char *backend_name, const char *hidden)
{
    char *p = xasprintf("%s/setup.sh", stage);
    char *setup = xasprintf(
               "#!/usr/bin/env bash\n"
               "# Gradescope runs this once, as root, when it builds the autograder image.\n"
               "set -euo pipefail\n"
               "# The kit's own installer adds what the image lacks (make, a C compiler,\n"
               "# pkg-config, cJSON), as for any fresh machine.\n"
               "cd /autograder/source/kit\n"
               "bash grader/install-deps.sh build\n"
               "make kit\n"
               "%s%s%s",
               has_generator ? "# this lab's public datasets, regenerated from its seed (the kit's own, bit for bit)\n"
                               "./gpulab datasets " : "# this lab's public datasets came in the package (it has no generator)\n",
               has_generator ? lab_id : "", has_generator ? " > /dev/null\n" : "");
    write_text(p, setup, 1);
    free(setup);
    free(p);
    p = xasprintf("%s/run_autograder", stage);
    char *run = xasprintf(
        "#!/usr/bin/env bash\n"
        "# Gradescope runs this for each submission: the student's files are in\n"
        "# /autograder/submission, the results go to /autograder/results/results.json.\n"
        "set -uo pipefail\n"
        "mkdir -p /autograder/results\n"
        "cd /autograder/source/kit\n"
        "grade() {\n"
        "    ./gpulab grade %s /autograder/submission --backend %s%s --format gradescope \\\n"
        "        --records /autograder/gpulab-records --out /autograder/results/results.json \"$@\"\n"
        "}\n"
        "# Isolation: Linux namespaces where the container allows them; where it\n"
        "# refuses them (Docker's default seccomp profile), a user of the\n"
        "# submission's own (the uid mode), which needs what the grader keeps to be\n"
        "# root's alone: the submission's folder and the datasets' expected outputs.\n"
        "chmod 700 /autograder/submission /autograder/source/kit/datasets\n"
        "chmod 600 /autograder/source/seed /autograder/source/secret 2>/dev/null\n"
        "grade --sandbox auto\n"
        "rc=$?\n"
        "if [ $rc -eq 3 ]; then\n"
        "    printf '{\"score\": 0, \"output\": \"The autograder could not isolate your submission, so it was not "
        "graded; please tell your instructor (the grader said why in its log).\", \"tests\": []}\\n' "
        "> /autograder/results/results.json\n"
        "    exit 0\n"
        "fi\n"
        "if [ $rc -ne 0 ] || [ ! -s /autograder/results/results.json ]; then\n"
        "    printf '{\"score\": 0, \"output\": \"The grader failed (exit %%s); please tell your instructor.\", "
        "\"tests\": []}\\n' \"$rc\" > /autograder/results/results.json\n"
        "fi\n",
        lab_id, backend_name, hidden);
    write_text(p, run, 1);
    free(run);
    free(p);

}

/* Every file under stage into the zip out_abs (zip(1) where there is one,
 * else the kit's own writer); returns how many. Dies when it cannot. */
static int zip_folder(const char *stage, const char *out_abs)
{
    filelist all = { NULL, 0 };
    list_tree(&all, stage, "");
    qsort(all.v, (size_t)all.n, sizeof *all.v, by_str);
    int rc;
    char *why = NULL;
    char *zip = getenv("GPULAB_NO_ZIP_CLI") ? NULL : find_in_path("zip");
    if (zip) {
        unlink(out_abs);
        const char **zargv = xcalloc((size_t)all.n + 6, sizeof(char *));
        int k = 0;
        zargv[k++] = zip;
        zargv[k++] = "-q";
        zargv[k++] = "-X";
        zargv[k++] = out_abs;
        for (int i = 0; i < all.n; i++)
            zargv[k++] = all.v[i];
        proc_spec spec = { zargv, stage, NULL, 600, 16384, 0, 0, 0, 0, NULL, NULL };
        proc_result r;
        proc_run(&spec, &r);
        rc = r.started && r.exited && r.exit_code == 0 ? 0 : -1;
        if (rc)
            why = xasprintf("zip failed: %s%s", r.out_text, r.err_text);
        proc_result_free(&r);
        free(zargv);
        free(zip);
    } else {
        rc = zip_store(out_abs, stage, all.v, all.n, &why);
    }
    if (rc != 0)
        die("%s", why);
    if (rc != 0)
        die("%s", why);
    int n = all.n;
    for (int i = 0; i < all.n; i++)
        free(all.v[i]);
    free(all.v);
    return n;
}

typedef struct {
    const char *seed, *secret_file, *backend;
} package_args;

static const option_spec package_options[] = {
    { "--seed", OPT_VALUE, offsetof(package_args, seed), "S", "hidden datasets from seed S", 0 },
    { "--secret-file", OPT_VALUE, offsetof(package_args, secret_file), "FILE",
      "hidden datasets from a secret, and each submission's id", 0 },
    { "--backend", OPT_VALUE, offsetof(package_args, backend), "emu|gpu", "where Gradescope grades", 0 },
};

int cmd_gradescope_package(int argc, char **argv)
{
    package_args pa = { NULL, NULL, NULL };
    const char **words = xcalloc((size_t)argc + 1, sizeof *words), *bad = NULL;
    int nwords;
    if (options_parse(package_options, sizeof package_options / sizeof package_options[0], &pa, argc, argv, 0,
                      words, &nwords, &bad) < 0 || nwords > 2)
        die("gradescope-package: unexpected argument '%s'\n"
            "usage: gpulab gradescope-package LAB OUT.zip [--seed S | --secret-file FILE] [--backend emu|gpu]",
            bad ? bad : words[2]);
    const char *lab = nwords > 0 ? words[0] : NULL, *out = nwords > 1 ? words[1] : NULL, *seed = pa.seed,
               *secret_file = pa.secret_file, *backend_name = pa.backend ? pa.backend : "emu";
    free(words);
    if (!lab || !out)
        die("usage: gpulab gradescope-package LAB OUT.zip [--seed S | --secret-file FILE] [--backend emu|gpu]");
    if (seed && secret_file)
        die("gradescope-package: --seed and --secret-file do not go together");
    if (strcmp(backend_name, "emu") != 0 && strcmp(backend_name, "gpu") != 0)
        die("--backend %s: expected gpu or emu", backend_name);
    char *id = manifest_resolve(lab);
    lab_manifest m;
    manifest_load(id, &m);

    /* A lab with no generator (imported from the Teaching Kit) carries its
     * public datasets: nothing could make them again. */
    char *generator = kit_path("labs/%s/generate.c", m.id);
    int has_generator = file_exists(generator);
    free(generator);
    if (!has_generator && (seed || secret_file))
        die("gradescope-package: %s has no generator (a lab imported from the Teaching Kit): it has no "
            "hidden datasets to make from --seed or --secret-file", m.id);

    char *stage = make_temp_dir("gpulab-package");
    copy_kit_into(stage, m.id, has_generator);
    char *hidden = xstrdup("");
    /* The seed or secret in a file of its own, 0600, never in
     * run_autograder's text or on a command line: in the uid mode a run
     * sees the container's world-readable files and every process's
     * command line. */
    if (seed) {
        for (const char *c = seed; *c; c++)
            if (*c < '0' || *c > '9')
                die("--seed %s: expected a whole number", seed);
        char *to = xasprintf("%s/seed", stage);
        if (write_private_file(to, seed, strlen(seed)) != 0)
            die("cannot write %s: %s", to, strerror(errno));
        free(to);
        free(hidden);
        hidden = xstrdup(" --seed-file /autograder/source/seed");
    } else if (secret_file) {
        size_t len;
        char *text = read_file(secret_file, &len);
        char *to = xasprintf("%s/secret", stage);
        if (!text)
            die("cannot read %s: %s", secret_file, strerror(errno));
        if (write_private_file(to, text, len) != 0)
            die("cannot write %s: %s", to, strerror(errno));
        free(text);
        free(to);
        free(hidden);
        hidden = xstrdup(" --secret-file /autograder/source/secret");
    }
    write_package_scripts(stage, m.id, has_generator, backend_name, hidden);
    free(hidden);
    char *out_abs = path_absolute(out);
    mode_t umask_before = umask(077); /* the zip holds the seed or the secret */
    int nfiles = zip_folder(stage, out_abs);
    umask(umask_before);
    fprintf(stderr, "gpulab: wrote %s: the Gradescope autograder for %s (%d files; backend %s%s)\n", out_abs,
            m.id, nfiles, backend_name,
            seed ? ", hidden datasets from a seed" : secret_file ? ", hidden datasets from a secret" : "");
    remove_tree(stage);
    free(stage);
    free(out_abs);
    manifest_free(&m);
    free(id);
    return 0;
}
