/*
 * Lab 04 with a tile that is never read.
 *
 * The tiles are declared, filled by every thread and fenced by both
 * barriers, so every dataset passes and the checkers find nothing; but the
 * sum then reads its operands from global memory, not from the tiles: the
 * kernel reads as much global memory as lab 01's and more. The kit's
 * global_reuse requirement (the emulator's counts from the checkers' run)
 * fails and names the line of that loop.
 */
#include "lab.h"

#define TILE_WIDTH 16

/* The mask, copied in by the host before the launch; every thread reads the
 * same element at the same time, which is what the constant cache serves best. */
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

__global__ void conv_2batch_kernel(const float *I, float *P, int height, int width, int channels)
{
    const int w = TILE_WIDTH + MASK_WIDTH - 1;
    __shared__ float N_ds[w][w];

    for (int k = 0; k < channels; k++) {
        int dest = threadIdx.y * TILE_WIDTH + threadIdx.x;
        int destY = dest / w;
        int destX = dest % w;
        int srcY = blockIdx.y * TILE_WIDTH + destY - MASK_RADIUS;
        int srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;
        if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)
            N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];
        else
            N_ds[destY][destX] = 0.0f;

        dest = threadIdx.y * TILE_WIDTH + threadIdx.x + TILE_WIDTH * TILE_WIDTH;
        destY = dest / w;
        destX = dest % w;
        srcY = blockIdx.y * TILE_WIDTH + destY - MASK_RADIUS;
        srcX = blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS;
        if (destY < w) {
            if (srcY >= 0 && srcY < height && srcX >= 0 && srcX < width)
                N_ds[destY][destX] = I[(srcY * width + srcX) * channels + k];
            else
                N_ds[destY][destX] = 0.0f;
        }

        __syncthreads();

        float acc = 0.0f;
        for (int i = 0; i < MASK_WIDTH; i++)
            for (int j = 0; j < MASK_WIDTH; j++)
            {
                int yy = blockIdx.y * TILE_WIDTH + threadIdx.y + i - MASK_RADIUS;
                int xx = blockIdx.x * TILE_WIDTH + threadIdx.x + j - MASK_RADIUS;
                float v = yy >= 0 && yy < height && xx >= 0 && xx < width ? I[(yy * width + xx) * channels + k] : 0.0f;
                acc += Mc[i][j] * v;
            }

        int y = blockIdx.y * TILE_WIDTH + threadIdx.y;
        int x = blockIdx.x * TILE_WIDTH + threadIdx.x;
        if (y < height && x < width)
            P[(y * width + x) * channels + k] = acc;

        __syncthreads();
    }
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));

    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
    conv_2batch_kernel<<<dimGrid, dimBlock>>>(I, P, height, width, channels);
    CUDA_CHECK(cudaGetLastError());
}
