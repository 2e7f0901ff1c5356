/*
 * datasets.c - see datasets.h.
 */
#define _GNU_SOURCE
#include "datasets.h"
#include "kit.h"
#include "process.h"
#include "options.h"
#include "util.h"
#include "../runtime/rng.h"

#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GENERATE_TIMEOUT_S 1800

int dataset_generate(const lab_manifest *m, int index, unsigned long long base_seed,
                     const char *out_root, char **why)
{
    const dataset_spec *d = &m->datasets[index];
    char *gen = kit_path("build/gen/%s/generate", m->id);
    char *source = kit_path("labs/%s/generate.c", m->id);
    int has_source = file_exists(source);
    free(source);
    if (!has_source) {
        *why = xasprintf("%s has no generator (a lab imported from the Teaching Kit keeps only the datasets it "
                         "came with), so it cannot make dataset %s", m->id, d->name);
        free(gen);
        return -1;
    }
    if (!is_executable(gen)) {
        *why = xasprintf("the generator %s is not built: run make", gen);
        free(gen);
        return -1;
    }
    if (make_dirs(out_root) != 0) {
        *why = xasprintf("cannot create %s: %s", out_root, strerror(errno));
        free(gen);
        return -1;
    }
    char *final_dir = xasprintf("%s/%s", out_root, d->name);
    char *tmp_dir = xasprintf("%s/.%s.tmp-%ld", out_root, d->name, (long)getpid());
    remove_tree(tmp_dir);
    char *seed = xasprintf("%llu", (unsigned long long)gl_hash_string(base_seed, d->name));
    const char **argv = xcalloc((size_t)d->nparams + 6, sizeof(char *));
    char **params = xcalloc((size_t)d->nparams + 1, sizeof(char *));
    int k = 0;
    argv[k++] = gen;
    argv[k++] = "--out";
    argv[k++] = tmp_dir;
    argv[k++] = "--seed";
    argv[k++] = seed;
    for (int i = 0; i < d->nparams; i++)
        argv[k++] = params[i] = xasprintf("%s=%s", d->keys[i], d->values[i]);
    proc_spec spec = { argv, NULL, NULL, GENERATE_TIMEOUT_S, 16384, 0, 0, 0, 0, NULL, NULL };
    proc_result r;
    proc_run(&spec, &r);
    int rc = 0;
    if (!(r.started && r.exited && r.exit_code == 0)) {
        *why = xasprintf("generating %s/%s failed: %s%s", m->id, d->name, r.err_text,
                         r.timed_out ? " (timed out)" : "");
        remove_tree(tmp_dir);
        rc = -1;
    } else {
        remove_tree(final_dir);
        if (rename(tmp_dir, final_dir) != 0) {
            *why = xasprintf("cannot move %s to %s: %s", tmp_dir, final_dir, strerror(errno));
            remove_tree(tmp_dir);
            rc = -1;
        }
    }
    proc_result_free(&r);
    for (int i = 0; i < d->nparams; i++)
        free(params[i]);
    free(params);
    free(argv);
    free(seed);
    free(tmp_dir);
    free(final_dir);
    free(gen);
    return rc;
}

char *dataset_dir(const lab_manifest *m, int index)
{
    const dataset_spec *d = &m->datasets[index];
    if (!d->on_demand) {
        char *dir = kit_path("datasets/%s/%s", m->id, d->name);
        if (!dir_exists(dir))
            die("dataset %s of %s is missing from %s: restore it (git checkout datasets/) or run "
                "gpulab datasets %s", d->name, m->id, dir, m->id);
        return dir;
    }
    char *root = kit_path("build/datasets/%s", m->id);
    char *dir = xasprintf("%s/%s", root, d->name);
    if (!dir_exists(dir)) {
        fprintf(stderr, "gpulab: generating the on-demand dataset %s of %s...\n", d->name, m->id);
        char *why = NULL;
        if (dataset_generate(m, index, m->seed, root, &why) != 0)
            die("%s", why);
    }
    free(root);
    return dir;
}

typedef struct {
    const char *out, *seed;
    int all;
} datasets_args;

static const option_spec datasets_options[] = {
    { "--seed", OPT_VALUE, offsetof(datasets_args, seed), "S", "the seed (default: the lab's)", 0 },
    { "--out", OPT_VALUE, offsetof(datasets_args, out), "DIR", "where they go (default: the kit's datasets/)", 0 },
    { "--all", OPT_FLAG, offsetof(datasets_args, all), NULL, "on-demand ones too", 0 },
};

double dataset_input_bytes(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    double bytes = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (strncmp(e->d_name, "input", 5) == 0 && fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(st.st_mode))
            bytes += (double)st.st_size;
    }
    closedir(d);
    return bytes;
}

int cmd_datasets(int argc, char **argv)
{
    datasets_args da = { NULL, NULL, 0 };
    const char **words = xcalloc((size_t)argc + 1, sizeof *words), *bad = NULL;
    int nwords;
    if (options_parse(datasets_options, sizeof datasets_options / sizeof datasets_options[0], &da, argc, argv, 0,
                      words, &nwords, &bad) < 0 || nwords > 1)
        die("datasets: unexpected argument '%s'\nusage: gpulab datasets LAB [--seed S] [--out DIR] [--all]",
            bad ? bad : words[1]);
    const char *lab = nwords > 0 ? words[0] : NULL, *out = da.out, *seed_text = da.seed;
    int all = da.all;
    free(words);
    if (!lab)
        die("usage: gpulab datasets LAB [--seed S] [--out DIR] [--all]");
    char *id = manifest_resolve(lab);
    lab_manifest m;
    manifest_load(id, &m);
    unsigned long long seed = m.seed;
    if (seed_text) {
        char *end;
        errno = 0;
        seed = strtoull(seed_text, &end, 0);
        if (errno || *end || end == seed_text)
            die("--seed %s: expected a whole number", seed_text);
    }
    char *root = out ? xstrdup(out) : kit_path("datasets/%s", m.id);
    int made = 0;
    for (int i = 0; i < m.ndatasets; i++) {
        if (m.datasets[i].on_demand && !all)
            continue;
        char *why = NULL;
        if (dataset_generate(&m, i, seed, root, &why) != 0)
            die("%s", why);
        printf("%s/%s\n", root, m.datasets[i].name);
        made++;
    }
    fprintf(stderr, "gpulab: %d datasets of %s written under %s (seed %llu)\n", made, m.id, root, seed);
    free(root);
    manifest_free(&m);
    free(id);
    return 0;
}
