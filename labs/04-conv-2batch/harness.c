/*
 * harness.c - lab 04's lab_main(): P = I convolved with a 5 x 5 mask through the
 * student's conv_2batch(), on device images the harness allocates.
 * Dataset: input0.ppm (3 channels) or input0.pgm (1 channel), the image;
 * input1.raw, the MASK_WIDTH x MASK_WIDTH mask.
 */
#include "harness.h"
#include "lab.h"

int lab_main(int argc, char **argv)
{
    harness_ctx h;
    gl_matrix I, mask, P;

    harness_begin(&h, argc, argv);
    harness_load_image_and_mask(&h, &I, &mask, MASK_WIDTH);
    harness_alloc_output(&P, I.rows, I.cols, I.channels);

    float *d_I = harness_device_alloc(gl_matrix_count(&I), "an input buffer");
    float *d_P = harness_device_alloc(gl_matrix_count(&P), "the output buffer");

    /* One call; gpulab bench asks for more (harness.h): each gets its own
     * scaled image and a freshly poisoned P. */
    for (h.call = 0; h.call < h.calls; h.call++) {
        harness_device_fill(d_I, harness_call_input(&h, &I), gl_matrix_count(&I));
        harness_device_poison(d_P, gl_matrix_count(&P));
        harness_call_begin(&h);
        conv_2batch(d_I, d_P, I.rows, I.cols, I.channels, mask.data);
        harness_call_end(&h);
        harness_device_download(&P, d_P);
        harness_keep_output(&h, &P);
    }
    harness_device_free(d_I);
    harness_device_free(d_P);
    harness_finish(&h, &P);
}
