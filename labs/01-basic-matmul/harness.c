/*
 * harness.c - lab 01's lab_main(): P = M x N through the student's basic_matmul().
 * Dataset: input0.raw (M) and input1.raw (N), both width x width.
 */
#include "harness.h"
#include "lab.h"

int lab_main(int argc, char **argv)
{
    harness_ctx h;
    gl_matrix M, N, P;

    harness_begin(&h, argc, argv);
    harness_load(&h, "input0.raw", &M);
    harness_load(&h, "input1.raw", &N);
    if (M.rows != M.cols || N.rows != N.cols || M.rows != N.rows)
        harness_dataset_error(&h, "M is %d x %d and N is %d x %d; this lab needs two square "
                              "matrices of one width", M.rows, M.cols, N.rows, N.cols);
    int width = M.rows;
    harness_alloc_output(&P, width, width, 1);

    /* One call; gpulab bench asks for more (harness.h): each gets its own
     * scaled M and a freshly poisoned P. */
    for (h.call = 0; h.call < h.calls; h.call++) {
        const float *M_call = harness_call_input(&h, &M);
        gl_fill_poison(P.data, gl_matrix_count(&P));
        harness_call_begin(&h);
        basic_matmul(M_call, N.data, P.data, width);
        harness_call_end(&h);
        harness_keep_output(&h, &P);
    }
    harness_finish(&h, &P);
}
