/*
 * harness.c - lab 03's lab_main(): P = M x N through the student's
 * arbitrary_matmul(), which takes device pointers.
 * Dataset: input0.raw (M, j x k) and input1.raw (N, k x l).
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
    if (M.channels != 1 || N.channels != 1 || M.cols != N.rows)
        harness_dataset_error(&h, "M is %d x %d and N is %d x %d; M's width must equal N's "
                              "height", M.rows, M.cols, N.rows, N.cols);
    int j = M.rows, k = M.cols, l = N.cols;
    harness_alloc_output(&P, j, l, 1);

    float *d_M = harness_device_alloc(gl_matrix_count(&M), "an input buffer");
    float *d_N = harness_device_upload(&N);
    float *d_P = harness_device_alloc(gl_matrix_count(&P), "the output buffer");

    /* One call; gpulab bench asks for more (harness.h): each gets its own
     * scaled M and a freshly poisoned P. */
    for (h.call = 0; h.call < h.calls; h.call++) {
        harness_device_fill(d_M, harness_call_input(&h, &M), gl_matrix_count(&M));
        harness_device_poison(d_P, gl_matrix_count(&P));
        harness_call_begin(&h);
        arbitrary_matmul(d_M, d_N, d_P, j, k, l);
        harness_call_end(&h);
        harness_device_download(&P, d_P);
        harness_keep_output(&h, &P);
    }
    harness_device_free(d_M);
    harness_device_free(d_N);
    harness_device_free(d_P);
    harness_finish(&h, &P);
}
