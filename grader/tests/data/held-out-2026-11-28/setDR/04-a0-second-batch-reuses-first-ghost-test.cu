/*
 * Lab 04 - 2D convolution with two-batch tile loading, reference solution.
 *
 * Each block of TILE_WIDTH x TILE_WIDTH threads computes one
 * TILE_WIDTH x TILE_WIDTH tile of P. To do so it needs the matching input
 * tile plus a halo of MASK_RADIUS elements on every side: w x w elements,
 * w = TILE_WIDTH + MASK_WIDTH - 1, more than there are threads. So the block
 * loads the shared tile in two batches: every thread loads the element at
 * its flattened thread index, then the one TILE_WIDTH * TILE_WIDTH further
 * on, if that is still inside the tile. The mask sits in constant memory.
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
    const int w = TILE_WIDTH + MASK_WIDTH - 1;
    __shared__ float N_ds[w][w];
    //@@ end

    for (int k = 0; k < channels; k++) {
        //@@ TODO 2: First batch. Flatten the thread index into dest, turn it
        //@@ into tile coordinates (destY, destX) with w, and those into image
        //@@ coordinates (srcY, srcX): the tile starts MASK_RADIUS above and to
        //@@ the left of the block's output tile. Load channel k of that pixel
        //@@ into N_ds, or 0 if it lies outside the image (a ghost cell).
        int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;
        int destY = dest / w;
        int destX = dest % w;
        int srcY = blockIdx.y * TILE_WIDTH + destY - MASK_RADIUS;
        int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;
        bool inside = srcY >= 0 && srcY < height && srcX >= 0 && srcX < width;
        if (inside)
            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];
        else
            N_ds[destY][destX] = 0.0f;
        //@@ end

        //@@ TODO 3: Second batch: the same, for the element TILE_WIDTH *
        //@@ TILE_WIDTH further on. Fewer than w * w - TILE_WIDTH * TILE_WIDTH
        //@@ elements remain, so only threads whose destY is still inside the
        //@@ tile (destY < w) load one.
        dest = threadIdx.y * TILE_WIDTH + threadIdx.x + TILE_WIDTH * TILE_WIDTH;
        destY = dest / w;
        destX = dest % w;
        srcY = blockIdx.y * TILE_WIDTH + destY - MASK_RADIUS;
        srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;
        if (destY < w) {
            if (inside)
                N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];
            else
                N_ds[destY][destX] = 0.0f;
        }
        //@@ end

        //@@ TODO 4: Wait until the whole tile is loaded.
        __syncthreads();
        //@@ end

        //@@ TODO 5: The weighted sum: the mask laid over the tile with its
        //@@ top-left corner at this thread's (threadIdx.y, threadIdx.x).
        float acc = 0.0f;
        for (int i = 0; i < MASK_WIDTH; i++)
            for (int j = 0; j < MASK_WIDTH; j++)
                acc += Mc[i][j] * N_ds[threadIdx.y + i][threadIdx.x + j];
        //@@ end

        //@@ TODO 6: Write channel k of this thread's output pixel, if that
        //@@ pixel is inside the image.
        int y = blockIdx.y * TILE_WIDTH + threadIdx.y;
        int x = blockIdx.x * TILE_WIDTH + threadIdx.x;
        if (y < height && x < width)
            P[(y * width + x) * channels + k] = acc;
        //@@ end

        //@@ TODO 7: The loop over channels reloads N_ds for channel k + 1.
        //@@ No thread may start that while another still reads channel k.
        __syncthreads();
        //@@ end
    }
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    //@@ TODO 8: Copy the MASK_WIDTH x MASK_WIDTH mask from the host into Mc
    //@@ (cudaMemcpyToSymbol).
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));
    //@@ end

    //@@ TODO 9: Launch conv_2batch_kernel with TILE_WIDTH x TILE_WIDTH blocks,
    //@@ enough of them to cover the whole image (round up), then check the
    //@@ launch.
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
    conv_2batch_kernel<<<dimGrid, dimBlock>>>(I, P, height, width, channels);
    CUDA_CHECK(cudaGetLastError());
    //@@ end
}
