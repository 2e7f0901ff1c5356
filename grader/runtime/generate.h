/*
 * generate.h - the shared main() of every lab's dataset generator.
 *
 * A generator makes ONE dataset: its inputs, and the expected output computed
 * on the CPU in double precision, from the lab's definition alone (never from
 * a solution). The grader's `gpulab datasets` runs it once per dataset listed
 * in the lab's manifest:
 *
 *     generate --out DIR --seed SEED [KEY=VALUE]...
 *
 * Each lab's generate.c defines lab_generate(), which reads its parameters
 * with gen_int() and writes its files with the gen_write_*() calls.
 */
#ifndef GPULAB_GENERATE_H
#define GPULAB_GENERATE_H

#include "dataset.h"
#include "rng.h"

#define GEN_MAX_PARAMS 16

typedef struct {
    const char *out_dir;
    uint64_t seed;
    int nparams;
    const char *key[GEN_MAX_PARAMS];
    const char *value[GEN_MAX_PARAMS];
    gl_rng rng;
} gen_ctx;

/* Defined by each lab. Returns 0 on success. */
int lab_generate(gen_ctx *g);

/* A required whole-number parameter in [min, max]; exits with a clear
 * message when it is missing or out of range. */
int gen_int(gen_ctx *g, const char *key, int min, int max);
/* An optional parameter; def when absent. */
const char *gen_str(gen_ctx *g, const char *key, const char *def);

/* Fills m with uniform values in [lo, hi). */
void gen_fill_uniform(gen_ctx *g, gl_matrix *m, float lo, float hi);

/* P = M x N in double precision, with each element's magnitude (the sum of
 * its terms' absolute values) and P->terms set; P must be allocated with
 * magnitudes. Terms are added in order of the inner index, so the result is
 * the same bits whatever the number of threads (rows go to all cores: a
 * performance size such as 4096 cubed is 69 billion terms). */
void gen_matmul_reference(const gl_matrix *M, const gl_matrix *N, gl_reference *P);

void gen_write_raw(gen_ctx *g, const char *name, const gl_matrix *m);
void gen_write_ppm(gen_ctx *g, const char *name, const gl_matrix *m);
void gen_write_reference(gen_ctx *g, const char *name, const gl_reference *r);

/* Exits with status 1 after printing "generate: ..." */
void gen_fail(const char *fmt, ...);

#endif
