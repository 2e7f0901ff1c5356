/*
 * generate.c - lab 03's datasets: a random j x k matrix M, a random k x l
 * matrix N and their j x l product P. Each element of P is computed in
 * double precision as the sum over x of M[r][x] * N[x][c], and stored with
 * the sum of the absolute values of those k terms (the tolerance model's
 * magnitude).
 *
 * Parameters: j=ROWS_OF_M k=COLS_OF_M_AND_ROWS_OF_N l=COLS_OF_N
 */
#include "generate.h"

int lab_generate(gen_ctx *g)
{
    int j = gen_int(g, "j", 1, 16384);
    int k = gen_int(g, "k", 1, 16384);
    int l = gen_int(g, "l", 1, 16384);

    gl_matrix M, N;
    gl_reference P;
    gl_error err;
    if (gl_matrix_alloc(&M, j, k, 1, &err) || gl_matrix_alloc(&N, k, l, 1, &err) ||
        gl_reference_alloc(&P, j, l, 1, 1, &err))
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
