/*
 * generate.c - lab 02's datasets: two random width x width matrices (width a
 * multiple of 32) and their product. The product is computed in double
 * precision, straight from the definition; alongside each element goes the
 * sum of the absolute values of its terms, which the tolerance model uses.
 *
 * Parameters: width=N (a multiple of 32)
 */
#include "generate.h"

int lab_generate(gen_ctx *g)
{
    int width = gen_int(g, "width", 32, 8192);
    if (width % 32 != 0)
        gen_fail("width=%d: lab 02 only takes widths that are multiples of 32", width);

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
