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
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define GENERATE_TIMEOUT_S 1800

/* ---- hidden datasets: other shapes of the same families ------------------------
 *
 * A seed other than the lab's makes hidden datasets. Their values change,
 * and so do their sizes, within the family of the public dataset they
 * stand for: each size the manifest's "hidden_shapes" names keeps its
 * remainder modulo the lab's tile sides (the least common multiple of
 * "moduli"), so a multiple of the tile stays one, one off the tile stays
 * one off, a multiple of 12 in lab 05 stays one; 1 stays 1 (one row, one
 * column); a prime stays a prime; equal sizes stay equal and the order of
 * a dataset's sizes is kept (k < l stays k < l: a bound tested against the
 * wrong size shows on the same shapes). A size moves by at most a quarter
 * of itself or one modulus, and never past the lab's largest public size;
 * a dataset with more than half the elements of the lab's largest only
 * shrinks, so that a check, whose bounds series takes every dataset
 * (grade.c), costs what it did. The choice is the dataset's seed's:
 * the same seed, the same shapes. */

static int is_prime(long v)
{
    if (v < 2)
        return 0;
    for (long f = 2; f * f <= v; f++)
        if (v % f == 0)
            return 0;
    return 1;
}

static int is_shape_param(const lab_manifest *m, const char *key)
{
    for (int i = 0; i < m->nshape_params; i++)
        if (strcmp(m->shape_params[i], key) == 0)
            return 1;
    return 0;
}

/* A size param's value, or 0 when it is not a positive whole number. */
static long size_value(const char *text)
{
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    return errno || end == text || *end || v < 1 ? 0 : v;
}

/* The product of dataset d's sizes (its elements, for a matrix or an image). */
static double size_product(const lab_manifest *m, const dataset_spec *d)
{
    double product = 1;
    for (int p = 0; p < d->nparams; p++)
        if (is_shape_param(m, d->keys[p]) && size_value(d->values[p]))
            product *= (double)size_value(d->values[p]);
    return product;
}

/* The largest size, and the largest product of sizes, of the lab's public
 * datasets: no hidden dataset is larger. */
static long largest_public_size(const lab_manifest *m, double *product)
{
    long most = 1;
    *product = 1;
    for (int i = 0; i < m->ndatasets; i++) {
        const dataset_spec *d = &m->datasets[i];
        if (d->on_demand)
            continue;
        for (int p = 0; p < d->nparams; p++)
            if (is_shape_param(m, d->keys[p])) {
                long v = size_value(d->values[p]);
                most = v > most ? v : most;
            }
        double n = size_product(m, d);
        *product = n > *product ? n : *product;
    }
    return most;
}

/* The new size for v, of v's family, chosen by r: above prev (the new
 * size of the dataset's next smaller size) and below next (its next larger
 * size as the manifest gives it), so that v itself is always one. */
static long family_size(gl_rng *r, long v, long prev, long next, long modulus, long cap)
{
    if (v == 1)
        return 1;
    long reach = modulus > v / 4 ? modulus : v / 4;
    long lo = v - reach > prev + 1 ? v - reach : prev + 1, hi = v + reach < cap ? v + reach : cap;
    if (hi > next - 1)
        hi = next - 1;
    if (lo < 2)
        lo = 2;
    long first = v >= lo ? v - (v - lo) / modulus * modulus : v + (lo - v + modulus - 1) / modulus * modulus;
    long fits[64];
    int n = 0;
    for (long c = first; c <= hi && n < 64; c += modulus)
        if (!is_prime(v) || is_prime(c))
            fits[n++] = c;
    if (n > 0)
        return fits[gl_rng_int(r, 0, n - 1)];
    return v; /* v > prev always (prev < v by the same rule): v fits */
}

/* Dataset d's params for base_seed (malloc'd strings): the manifest's, with
 * the sizes moved within their families when base_seed is not the lab's
 * (a hidden set). */
static char **params_for_seed(const lab_manifest *m, const dataset_spec *d, unsigned long long base_seed,
                              uint64_t seed)
{
    char **values = xcalloc((size_t)d->nparams + 1, sizeof *values);
    for (int i = 0; i < d->nparams; i++)
        values[i] = xstrdup(d->values[i]);
    if (base_seed == m->seed || m->nshape_params == 0)
        return values;
    long sizes[32], moved[32];
    int n = 0;
    for (int i = 0; i < d->nparams && n < 32; i++) {
        long v = is_shape_param(m, d->keys[i]) ? size_value(d->values[i]) : 0;
        int at = 0;
        while (v && at < n && sizes[at] < v)
            at++;
        if (!v || (at < n && sizes[at] == v))
            continue;
        memmove(sizes + at + 1, sizes + at, (size_t)(n - at) * sizeof *sizes);
        sizes[at] = v;
        n++;
    }
    gl_rng r;
    gl_rng_seed(&r, seed ^ 0x9E3779B97F4A7C15ull); /* a stream apart from the generator's values */
    double most;
    long cap = largest_public_size(m, &most);
    /* the lab's largest datasets only shrink: a check's cost stays */
    int shrink_only = size_product(m, d) > most / 2;
    for (int k = 0; k < n; k++)
        moved[k] = family_size(&r, sizes[k], k ? moved[k - 1] : 0, k + 1 < n ? sizes[k + 1] : LONG_MAX,
                               m->shape_modulus, shrink_only ? sizes[k] : cap);
    for (int i = 0; i < d->nparams; i++) {
        long v = is_shape_param(m, d->keys[i]) ? size_value(d->values[i]) : 0;
        for (int k = 0; v && k < n; k++)
            if (sizes[k] == v) {
                free(values[i]);
                values[i] = xasprintf("%ld", moved[k]);
            }
    }
    return values;
}

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
    uint64_t dataset_seed = gl_hash_string(base_seed, d->name);
    char *seed = xasprintf("%llu", (unsigned long long)dataset_seed);
    char **values = params_for_seed(m, d, base_seed, dataset_seed);
    const char **argv = xcalloc((size_t)d->nparams + 6, sizeof(char *));
    char **params = xcalloc((size_t)d->nparams + 1, sizeof(char *));
    int k = 0;
    argv[k++] = gen;
    argv[k++] = "--out";
    argv[k++] = tmp_dir;
    argv[k++] = "--seed";
    argv[k++] = seed;
    for (int i = 0; i < d->nparams; i++)
        argv[k++] = params[i] = xasprintf("%s=%s", d->keys[i], values[i]);
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
    for (int i = 0; i < d->nparams; i++) {
        free(params[i]);
        free(values[i]);
    }
    free(params);
    free(values);
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
