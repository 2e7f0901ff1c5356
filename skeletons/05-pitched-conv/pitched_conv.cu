/*
 * Lab 05 - 2D convolution of pitched images.
 *
 * The convolution of lab 04, on images whose rows are padded: element
 * (y, x, c) is at data[y * pitch + x * channels + c], with
 * pitch >= width * channels, and the host and device images each have their
 * own pitch. On the device cudaMallocPitch chooses the pitch; cudaMemcpy2D
 * copies the rows. Blocks are BLOCK_WIDTH x BLOCK_WIDTH threads, as large as
 * the input tile: every thread loads one input element, and only the inner
 * O_TILE_WIDTH x O_TILE_WIDTH threads compute and write an output pixel.
 *
 * Fill in each //@@ TODO region, in order. Check your work with
 *     ./gpulab check 05-pitched-conv pitched_conv.cu
 * Until every region is done the kit reports "wrong": that is expected.
 * docs/labs/05-pitched-conv.md walks through the lab.
 */
#include "lab.h"

#define O_TILE_WIDTH 12
#define BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)

/* The mask, copied in by the host before the launch. */
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

/* in and out describe DEVICE images; their pitch is in floats. */
__global__ void pitched_conv_kernel(Image_t in, Image_t out)
{
    //@@ TODO 1: Declare the shared input tile N_ds, BLOCK_WIDTH x BLOCK_WIDTH
    //@@ floats: one element per thread.
    //@@ end

    //@@ TODO 2: The output pixel this thread owns (row_o, col_o): blocks step
    //@@ O_TILE_WIDTH apart, not BLOCK_WIDTH. The input element it loads
    //@@ (row_i, col_i) is MASK_RADIUS above and to the left of that.
    //@@ end

    for (int k = 0; k < in.channels; k++) {
        //@@ TODO 3: Load channel k of input element (row_i, col_i) into
        //@@ N_ds[ty][tx], or 0 if it lies outside the image. Rows are
        //@@ in.pitch floats apart.
        //@@ end

        //@@ TODO 4: Wait until the whole tile is loaded.
        //@@ end

        //@@ TODO 5: Only the O_TILE_WIDTH x O_TILE_WIDTH threads at the top
        //@@ left of the block compute: the weighted sum of the mask laid over
        //@@ N_ds at (ty, tx). Those whose output pixel is inside the image
        //@@ write it; rows of out are out.pitch floats apart.
        //@@ end

        //@@ TODO 6: Before the loop reloads N_ds for the next channel, every
        //@@ thread must be done reading it.
        //@@ end
    }
}

void pitched_conv(const Image_t *in, Image_t *out, const float *mask)
{
    //@@ TODO 7: Allocate a pitched device image for the input and one for
    //@@ the output (cudaMallocPitch: it returns each pitch in BYTES).
    //@@ end

    //@@ TODO 8: Copy the input image's rows to the device (cudaMemcpy2D: the
    //@@ host pitch is in->pitch floats, the device pitch what cudaMallocPitch
    //@@ chose), and the mask into Mc (cudaMemcpyToSymbol).
    //@@ end

    //@@ TODO 9: Describe the device images as Image_t, with their pitches in
    //@@ floats, and launch pitched_conv_kernel with BLOCK_WIDTH x BLOCK_WIDTH
    //@@ blocks, one per O_TILE_WIDTH x O_TILE_WIDTH output tile (round up).
    //@@ end

    //@@ TODO 10: Copy the output's rows back into out (cudaMemcpy2D, only
    //@@ width * channels floats of each row: its padding stays as it is),
    //@@ then free both device images.
    //@@ end
}
