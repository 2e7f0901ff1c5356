/*
 * generate.c - lab 01's datasets: two random width x width matrices and their
 * product, computed in double precision with each element's magnitude
 * (the sum of |M[r][k] * N[k][c]|) for the tolerance model.
 *
 * Parameters: width=N
 */
#include <math.h>
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

    P.terms = width;
    for (int r = 0; r < width; r++) {
        for (int c = 0; c < width; c++) {
            double sum = 0, mag = 0;
            for (int k = 0; k < width; k++) {
                double t = (double)M.data[(size_t)r * width + k] * N.data[(size_t)k * width + c];
                sum += t;
                mag += fabs(t);
            }
            P.value[(size_t)r * width + c] = sum;
            P.magnitude[(size_t)r * width + c] = mag;
        }
    }
    gen_write_raw(g, "input0.raw", &M);
    gen_write_raw(g, "input1.raw", &N);
    gen_write_reference(g, "expected.tensor", &P);
    gl_matrix_free(&M);
    gl_matrix_free(&N);
    gl_reference_free(&P);
    return 0;
}
