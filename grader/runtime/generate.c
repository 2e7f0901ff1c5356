/*
 * generate.c - argument parsing and file output for the lab generators.
 */
#define _POSIX_C_SOURCE 200809L
#include "generate.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void gen_fail(const char *fmt, ...)
{
    va_list ap;
    fputs("generate: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

static const char *lookup(gen_ctx *g, const char *key)
{
    for (int i = 0; i < g->nparams; i++)
        if (strcmp(g->key[i], key) == 0)
            return g->value[i];
    return NULL;
}

int gen_int(gen_ctx *g, const char *key, int min, int max)
{
    const char *v = lookup(g, key);
    if (!v)
        gen_fail("missing parameter %s=N (%d to %d)", key, min, max);
    char *end;
    errno = 0;
    long n = strtol(v, &end, 10);
    if (errno || end == v || *end || n < min || n > max)
        gen_fail("parameter %s=%s: expected a whole number from %d to %d", key, v, min, max);
    return (int)n;
}

const char *gen_str(gen_ctx *g, const char *key, const char *def)
{
    const char *v = lookup(g, key);
    return v ? v : def;
}

void gen_fill_uniform(gen_ctx *g, gl_matrix *m, float lo, float hi)
{
    size_t n = gl_matrix_count(m);
    for (size_t i = 0; i < n; i++)
        m->data[i] = gl_rng_float(&g->rng, lo, hi);
}

/* Rows of P are shared out among threads by an atomic counter. */
typedef struct {
    const gl_matrix *M, *N;
    gl_reference *P;
    int next_row;
    pthread_mutex_t lock;
} matmul_job;

static void matmul_row(const gl_matrix *M, const gl_matrix *N, gl_reference *P, size_t r)
{
    size_t K = (size_t)M->cols, L = (size_t)N->cols;
    double *val = P->value + r * L, *mag = P->magnitude + r * L;
    for (size_t c = 0; c < L; c++)
        val[c] = mag[c] = 0;
    /* Row r of P accumulates M[r][x] times row x of N, for x in order: both
     * inputs are read along their rows, and each element still adds its
     * terms in the order of x. */
    for (size_t x = 0; x < K; x++) {
        double a = M->data[r * K + x];
        const float *nrow = N->data + x * L;
        for (size_t c = 0; c < L; c++) {
            double t = a * nrow[c];
            val[c] += t;
            mag[c] += fabs(t);
        }
    }
}

static void *matmul_worker(void *arg)
{
    matmul_job *job = arg;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        int r = job->next_row < job->M->rows ? job->next_row++ : -1;
        pthread_mutex_unlock(&job->lock);
        if (r < 0)
            return NULL;
        matmul_row(job->M, job->N, job->P, (size_t)r);
    }
}

void gen_matmul_reference(const gl_matrix *M, const gl_matrix *N, gl_reference *P)
{
    matmul_job job = { M, N, P, 0, PTHREAD_MUTEX_INITIALIZER };
    P->terms = M->cols;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    int nthreads = cores < 1 ? 1 : cores > 64 ? 64 : (int)cores;
    /* Small products are not worth a thread. */
    if ((double)M->rows * M->cols * N->cols < 1e7)
        nthreads = 1;
    pthread_t tid[64];
    int started = 0;
    for (int i = 1; i < nthreads; i++, started++)
        if (pthread_create(&tid[started], NULL, matmul_worker, &job) != 0)
            break; /* fewer threads: slower, same result */
    matmul_worker(&job);
    for (int i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

static void path_of(gen_ctx *g, const char *name, char *buf, size_t len)
{
    if ((size_t)snprintf(buf, len, "%s/%s", g->out_dir, name) >= len)
        gen_fail("output path too long: %s/%s", g->out_dir, name);
}

void gen_write_raw(gen_ctx *g, const char *name, const gl_matrix *m)
{
    char path[4096];
    gl_error err;
    path_of(g, name, path, sizeof path);
    if (gl_write_raw(path, m, &err))
        gen_fail("%s", err.msg);
}

void gen_write_ppm(gen_ctx *g, const char *name, const gl_matrix *m)
{
    char path[4096];
    gl_error err;
    path_of(g, name, path, sizeof path);
    if (gl_write_ppm(path, m, &err))
        gen_fail("%s", err.msg);
}

void gen_write_reference(gen_ctx *g, const char *name, const gl_reference *r)
{
    char path[4096];
    gl_error err;
    path_of(g, name, path, sizeof path);
    if (gl_write_reference(path, r, &err))
        gen_fail("%s", err.msg);
}

int main(int argc, char **argv)
{
    gen_ctx g;
    memset(&g, 0, sizeof g);
    int have_seed = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--out") == 0 && i + 1 < argc) {
            g.out_dir = argv[++i];
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            char *end;
            errno = 0;
            g.seed = strtoull(argv[++i], &end, 0);
            if (errno || *end || end == argv[i])
                gen_fail("--seed %s: expected a whole number", argv[i]);
            have_seed = 1;
        } else if (strchr(argv[i], '=') && argv[i][0] != '=' && argv[i][0] != '-') {
            if (g.nparams == GEN_MAX_PARAMS)
                gen_fail("too many parameters (at most %d)", GEN_MAX_PARAMS);
            char *eq = strchr(argv[i], '=');
            *eq = '\0';
            g.key[g.nparams] = argv[i];
            g.value[g.nparams++] = eq + 1;
        } else {
            fprintf(stderr, "usage: %s --out DIR --seed SEED [KEY=VALUE]...\n", argv[0]);
            return 2;
        }
    }
    if (!g.out_dir || !have_seed) {
        fprintf(stderr, "usage: %s --out DIR --seed SEED [KEY=VALUE]...\n", argv[0]);
        return 2;
    }
    if (mkdir(g.out_dir, 0777) && errno != EEXIST)
        gen_fail("cannot create %s: %s", g.out_dir, strerror(errno));
    gl_rng_seed(&g.rng, g.seed);
    return lab_generate(&g) ? 1 : 0;
}
