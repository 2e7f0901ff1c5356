/*
 * Lab 04 - 2D convolution with two-batch tile loading.
 *
 * P is the image I convolved with a 5 x 5 mask, channel by channel, with
 * pixels outside the image counting as 0. Each block of TILE_WIDTH x
 * TILE_WIDTH threads computes one tile of P from a shared copy of the input
 * tile and its halo: w x w elements, w = TILE_WIDTH + MASK_WIDTH - 1, more
 * than there are threads, so the block loads the tile in two batches. The
 * mask sits in constant memory.
 *
 * Fill in each //@@ TODO region, in order. Check your work with
 *     ./gpulab check 04-conv-2batch conv_2batch.cu
 * Until every region is done the kit reports "wrong": that is expected.
 * docs/labs/04-conv-2batch.md walks through the lab.
 */
#include "lab.h"

#define TILE_WIDTH 16

/* The mask, copied in by the host before the launch; every thread reads the
 * same element at the same time, which is what the constant cache serves best. */
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

__global__ void conv_2batch_kernel(const float *I, float *P, int height, int width, int channels)
{
    //@@ TODO 1: Declare the shared input tile N_ds: w x w floats, where
    //@@ w = TILE_WIDTH + MASK_WIDTH - 1 (the output tile plus its halo).
    //@@ end

    for (int k = 0; k < channels; k++) {
        //@@ TODO 2: First batch. Flatten the thread index into dest, turn it
        //@@ into tile coordinates (destY, destX) with w, and those into image
        //@@ coordinates (srcY, srcX): the tile starts MASK_RADIUS above and to
        //@@ the left of the block's output tile. Load channel k of that pixel
        //@@ into N_ds, or 0 if it lies outside the image (a ghost cell).
        //@@ end

        //@@ TODO 3: Second batch: the same, for the element TILE_WIDTH *
        //@@ TILE_WIDTH further on. Fewer than w * w - TILE_WIDTH * TILE_WIDTH
        //@@ elements remain, so only threads whose destY is still inside the
        //@@ tile (destY < w) load one.
        //@@ end

        //@@ TODO 4: Wait until the whole tile is loaded.
        //@@ end

        //@@ TODO 5: The weighted sum: the mask laid over the tile with its
        //@@ top-left corner at this thread's (threadIdx.y, threadIdx.x).
        //@@ end

        //@@ TODO 6: Write channel k of this thread's output pixel, if that
        //@@ pixel is inside the image.
        //@@ end

        //@@ TODO 7: The loop over channels reloads N_ds for channel k + 1.
        //@@ No thread may start that while another still reads channel k.
        //@@ end
    }
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    //@@ TODO 8: Copy the MASK_WIDTH x MASK_WIDTH mask from the host into Mc
    //@@ (cudaMemcpyToSymbol).
    //@@ end

    //@@ TODO 9: Launch conv_2batch_kernel with TILE_WIDTH x TILE_WIDTH blocks,
    //@@ enough of them to cover the whole image (round up), then check the
    //@@ launch.
    //@@ end
}
