/*
 * lab.h - lab 05, 2D convolution of pitched images: the interface between
 * your file and the kit. Do not change it; the kit compiles your file
 * against its own copy.
 */
#ifndef LAB_H
#define LAB_H

#include <cuda_runtime_api.h>
#include "lab_common.h"   /* CUDA_CHECK(call) */

/* The convolution mask is MASK_WIDTH x MASK_WIDTH; the output pixel sits
 * over its centre, MASK_RADIUS elements from each edge. */
#define MASK_WIDTH 5
#define MASK_RADIUS (MASK_WIDTH / 2)

/*
 * An image whose rows may be padded. Element (y, x, c) is at
 *     data[y * pitch + x * channels + c]
 * and the floats from width * channels to pitch - 1 of every row are
 * padding: not part of the image.
 */
typedef struct {
    int width;     /* pixels per row */
    int height;    /* rows */
    int pitch;     /* floats per row in memory, >= width * channels */
    int channels;
    float *data;
} Image_t;

#ifdef __cplusplus
extern "C" {
#endif

/*
 * out = in convolved with mask, one channel at a time, pixels outside the
 * image counting as 0:
 *
 *   out(y, x, c) = sum over i, j of mask[i][j] * in(y + i - MASK_RADIUS, x + j - MASK_RADIUS, c)
 *
 * in and out are HOST images, each with its own pitch; out has the width,
 * height and channels of in. mask is a HOST pointer to MASK_WIDTH x
 * MASK_WIDTH floats, row-major. Leave the padding of out exactly as it is.
 */
void pitched_conv(const Image_t *in, Image_t *out, const float *mask);

#ifdef __cplusplus
}
#endif

#endif
