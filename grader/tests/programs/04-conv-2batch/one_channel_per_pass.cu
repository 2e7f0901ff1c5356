/*
 * Lab 04 with a shared tile of every channel at once: blocks as large as the
 * input tile (BLOCK_WIDTH x BLOCK_WIDTH threads), a tile of up to three
 * channels, and a loop that fills it one channel per pass of the block, one
 * element a thread each pass. The tile has more floats than the block has
 * threads, but no pass loads more than one element a thread: the halo
 * ring's threads only load, as in one_thread_per_input_element.cu. The
 * output, the barriers and the constant mask are right; [two_batch] fails.
 */
#include "lab.h"

#define O_TILE_WIDTH 16
#define BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)
#define MAX_CHANNELS 3

__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

__global__ void conv_channel_passes(const float *I, float *P, int height, int width, int channels)
{
    __shared__ float N_ds[MAX_CHANNELS][BLOCK_WIDTH][BLOCK_WIDTH];
    int ty = threadIdx.y, tx = threadIdx.x;
    int row_o = blockIdx.y * O_TILE_WIDTH + ty;
    int col_o = blockIdx.x * O_TILE_WIDTH + tx;
    int row_i = row_o - MASK_RADIUS;
    int col_i = col_o - MASK_RADIUS;
    int inside = row_i >= 0 && row_i < height && col_i >= 0 && col_i < width;
    for (int k = 0; k < channels; k++)
        N_ds[k][ty][tx] = inside ? I[(row_i * width + col_i) * channels + k] : 0.0f;
    __syncthreads();
    if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH && row_o < height && col_o < width) {
        for (int k = 0; k < channels; k++) {
            float acc = 0.0f;
            for (int i = 0; i < MASK_WIDTH; i++)
                for (int j = 0; j < MASK_WIDTH; j++)
                    acc += Mc[i][j] * N_ds[k][ty + i][tx + j];
            P[(row_o * width + col_o) * channels + k] = acc;
        }
    }
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 dimGrid((width + O_TILE_WIDTH - 1) / O_TILE_WIDTH, (height + O_TILE_WIDTH - 1) / O_TILE_WIDTH);
    conv_channel_passes<<<dimGrid, dimBlock>>>(I, P, height, width, channels);
    CUDA_CHECK(cudaGetLastError());
}
