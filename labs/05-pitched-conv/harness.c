/*
 * harness.c - lab 05's lab_main(): out = in convolved with a 5 x 5 mask through
 * the student's pitched_conv(), on host images with padded rows.
 * Dataset: input0.ppm (3 channels) or input0.pgm (1 channel), the image;
 * input1.raw, the MASK_WIDTH x MASK_WIDTH mask.
 *
 * The input and output images get different pitches, both larger than
 * width * channels. The input's padding holds NaN, so a kernel that reads it
 * as pixels gets NaN; the output's padding holds guard values
 * (OUTPUT_GUARD_BITS, harness_protocol.h), which must survive the call
 * unchanged. The grader receives the dense height x width x channels image
 * and, beside it, the whole pitched output, padding included
 * (harness_padded_output_path()), whose padding it checks itself.
 */
#include <stdint.h>
#include <string.h>
#include "harness.h"
#include "guard.h"
#include "lab.h"

/* The input's padding: a NaN distinct from GL_POISON_BITS and from the
 * output's guard bits (OUTPUT_GUARD_BITS, harness_protocol.h). */
#define INPUT_PAD_BITS 0x7FC0FFEEu

static void fill_bits(float *p, size_t n, uint32_t bits)
{
    for (size_t i = 0; i < n; i++)
        memcpy(&p[i], &bits, sizeof bits);
}

static uint32_t bits_of(float v)
{
    uint32_t b;
    memcpy(&b, &v, sizeof b);
    return b;
}

/* A host image with `pad` floats of padding after each row, in guarded
 * memory (filled by fill_image). */
static Image_t make_image(int height, int width, int channels, int pad, const char *name)
{
    Image_t im;
    im.width = width;
    im.height = height;
    im.channels = channels;
    im.pitch = width * channels + pad;
    size_t bytes = (size_t)height * im.pitch * sizeof(float);
    im.data = guard_host_alloc(bytes, name);
    if (!im.data)
        harness_dataset_error(NULL, "out of memory for a %d x %d x %d image", height, width, channels);
    /* a copy of it with another pitch or width is named at its line */
    guard_host_rows(im.data, (size_t)im.pitch * sizeof(float), (size_t)width * channels * sizeof(float),
                    (size_t)height);
    return im;
}

/* The image's pixels from `pixels` (dense rows), or poison when NULL; its
 * padding pad_bits. */
static void fill_image(Image_t *im, const float *pixels, uint32_t pad_bits)
{
    int row = im->width * im->channels;
    for (int y = 0; y < im->height; y++) {
        float *r = im->data + (size_t)y * im->pitch;
        if (pixels)
            memcpy(r, pixels + (size_t)y * row, (size_t)row * sizeof(float));
        else
            gl_fill_poison(r, (size_t)row);
        fill_bits(r + row, (size_t)(im->pitch - row), pad_bits);
    }
}

/* The padding of out must be exactly as it was: a wrong result otherwise,
 * reported once the output is written. */
static void check_padding(const Image_t *out)
{
    int row = out->width * out->channels, pad = out->pitch - row;
    size_t changed = 0;
    int first_y = -1, first_j = -1;
    uint32_t first_bits = 0;
    for (int y = 0; y < out->height; y++) {
        const float *r = out->data + (size_t)y * out->pitch;
        for (int j = 0; j < pad; j++) {
            uint32_t b = bits_of(r[row + j]);
            if (b != OUTPUT_GUARD_BITS) {
                if (!changed) {
                    first_y = y;
                    first_j = j;
                    first_bits = b;
                }
                changed++;
            }
        }
    }
    if (changed) {
        float v;
        memcpy(&v, &first_bits, sizeof v);
        harness_note_wrong("the padding of out was overwritten: %zu of its %zu padding floats changed, "
                           "the first at row %d, column %d (padding float %d of that row, "
                           "now %g, bits 0x%08X); out->pitch is %d floats, the image is %d x %d "
                           "x %d, so only the first %d floats of each row are the image's. "
                           "Copy rows back with cudaMemcpy2D, %d floats wide.",
                           changed, (size_t)out->height * pad, first_y, row + first_j, first_j,
                           (double)v, (unsigned)first_bits, out->pitch, out->height, out->width,
                           out->channels, row, row);
    }
}

/* The whole pitched output, padding included, as height rows of out->pitch
 * floats, beside the output file: the grader checks the padding itself and
 * draws where it changed. Written whatever the padding holds, so a run the
 * harness finds right still gets checked. */
static void write_padded_output(const harness_ctx *h, const Image_t *out)
{
    char path[4096];
    gl_error err;
    if (harness_padded_output_path(path, sizeof path, h->output_path) != 0)
        harness_dataset_error(h, "the output path %s is too long", h->output_path);
    gl_matrix whole = { out->height, out->pitch, 1, out->data };
    if (gl_write_output(path, &whole, &err))
        harness_dataset_error(h, "%s", err.msg);
}

int lab_main(int argc, char **argv)
{
    harness_ctx h;
    gl_matrix I, mask, P;

    harness_begin(&h, argc, argv);
    harness_load_image_and_mask(&h, &I, &mask, MASK_WIDTH);
    int height = I.rows, width = I.cols, channels = I.channels, row = width * channels;

    /* Two different paddings, neither a whole number of pixels nor a
     * multiple of 4 floats: 7 to 9 floats for the input, 1 to 5 for the
     * output. */
    int in_pad = 7 + width % 3, out_pad = 1 + height % 5;
    Image_t in = make_image(height, width, channels, in_pad, "in->data");
    Image_t out = make_image(height, width, channels, out_pad, "out->data");
    harness_alloc_output(&P, height, width, channels);

    /* One call; gpulab bench asks for more (harness.h): each gets its own
     * scaled image, and a poisoned out with fresh guard values in its
     * padding. */
    for (h.call = 0; h.call < h.calls; h.call++) {
        fill_image(&in, harness_call_input(&h, &I), INPUT_PAD_BITS);
        fill_image(&out, NULL, OUTPUT_GUARD_BITS);
        Image_t in_copy = in, out_copy = out;
        harness_call_begin(&h);
        pitched_conv(&in_copy, &out_copy, mask.data);
        harness_call_end(&h);
        guard_host_check(in.data);
        guard_host_check(out.data);
        check_padding(&out);
        if (h.call == 0)
            write_padded_output(&h, &out);
        for (int y = 0; y < height; y++)
            memcpy(P.data + (size_t)y * row, out.data + (size_t)y * out.pitch, (size_t)row * sizeof(float));
        harness_keep_output(&h, &P);
    }
    harness_finish(&h, &P);
}
