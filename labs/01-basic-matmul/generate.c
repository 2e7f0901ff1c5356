/*
 * generate.c - lab 01's datasets: two random width x width matrices and their
 * product, computed in double precision with each element's magnitude
 * (the sum of |M[r][k] * N[k][c]|) for the tolerance model.
 *
 * Parameters: width=N
 */
#include "generate.h"

int lab_generate(gen_ctx *g)
{
    int width = gen_int(g, "width", 1, 8192);
    gl_matrix M, N;
    gl_reference P;
    gl_error err;

    if (gl_matrix_alloc(&M, width, width, 1, &err) || gl_matrix_alloc(&N, width, width, 1, &err) ||
        gl_reference_alloc(&P, width, width, 1, 1, &err))
        gen_fail("%s", err.msg);
    gen_fill_uniform(g, &M, -1.0f, 1.0f);
    gen_fill_uniform(g, &N, -1.0f, 1.0f);

    gen_matmul_reference(&M, &N, &P);
    gen_write_raw(g, "input0.raw", &M);
    gen_write_raw(g, "input1.raw", &N);
    gen_write_reference(g, "expected.tensor", &P);
    gl_matrix_free(&M);
    gl_matrix_free(&N);
    gl_reference_free(&P);
    return 0;
}
