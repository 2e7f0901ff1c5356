/*
 * harness.c - lab 04's lab_main(): P = I convolved with a 5 x 5 mask through the
 * student's conv_2batch(), on device images the harness allocates.
 * Dataset: input0.ppm (3 channels) or input0.pgm (1 channel), the image;
 * input1.raw, the MASK_WIDTH x MASK_WIDTH mask.
 */
#include <stdio.h>
#include "harness.h"
#include "lab.h"

/* The image is input0.ppm or input0.pgm, whichever the dataset has. */
static const char *image_name(const harness_ctx *h)
{
    static const char *const names[] = { "input0.ppm", "input0.pgm" };
    for (int i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", h->dataset_dir, names[i]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            return names[i];
        }
    }
    harness_dataset_error(h, "no input0.ppm or input0.pgm (the input image)");
}

int lab_main(int argc, char **argv)
{
    harness_ctx h;
    gl_matrix I, mask, P;

    harness_begin(&h, argc, argv);
    harness_load(&h, image_name(&h), &I);
    harness_load(&h, "input1.raw", &mask);
    if (mask.rows != MASK_WIDTH || mask.cols != MASK_WIDTH || mask.channels != 1)
        harness_dataset_error(&h, "the mask is %d x %d; this lab needs %d x %d", mask.rows, mask.cols,
                              MASK_WIDTH, MASK_WIDTH);
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
