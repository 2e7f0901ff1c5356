/*
 * harness.c - lab 02's lab_main(): P = M x N through the student's
 * tiled_matmul(), which takes device pointers.
 * Dataset: input0.raw (M) and input1.raw (N), both width x width, width a
 * multiple of 32.
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
    if (width % 32 != 0)
        harness_dataset_error(&h, "width %d is not a multiple of 32, as this lab promises", width);
    harness_alloc_output(&P, width, width, 1);

    float *d_M = harness_device_alloc(gl_matrix_count(&M), "an input buffer");
    float *d_N = harness_device_upload(&N);
    float *d_P = harness_device_alloc(gl_matrix_count(&P), "the output buffer");

    /* One call; gpulab bench asks for more (harness.h): each gets its own
     * scaled M and a freshly poisoned P. */
    for (h.call = 0; h.call < h.calls; h.call++) {
        harness_device_fill(d_M, harness_call_input(&h, &M), gl_matrix_count(&M));
        harness_device_poison(d_P, gl_matrix_count(&P));
        harness_call_begin(&h);
        tiled_matmul(d_M, d_N, d_P, width);
        harness_call_end(&h);
        harness_device_download(&P, d_P);
        harness_keep_output(&h, &P);
    }
    harness_device_free(d_M);
    harness_device_free(d_N);
    harness_device_free(d_P);
    harness_finish(&h, &P);
}
