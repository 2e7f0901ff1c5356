/*
 * Lab 04's reference with one change, the most common one in real
 * submissions: the mask is not in constant memory but in a device buffer
 * of its own (cudaMalloc, cudaMemcpy), read by every thread at every tap.
 * The image tile is loaded in two batches and read from shared memory as
 * the lab asks; only [constant_memory] fails: the mask's reads are not the
 * image's, and [global_reuse] counts the image's.
 */
#include "lab.h"

#define TILE_WIDTH 16


__global__ void conv_2batch_kernel(const float *I, const float *M, float *P, int height, int width, int channels)
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
                acc += M[i * MASK_WIDTH + j] * N_ds[threadIdx.y + i][threadIdx.x + j];
        int y = blockIdx.y * TILE_WIDTH + threadIdx.y;
        int x = blockIdx.x * TILE_WIDTH + threadIdx.x;
        if (y < height && x < width)
            P[(y * width + x) * channels + k] = acc;
        __syncthreads();
    }
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    float *M;
    CUDA_CHECK(cudaMalloc((void **)&M, MASK_WIDTH * MASK_WIDTH * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(M, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float), cudaMemcpyHostToDevice));
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((width + TILE_WIDTH - 1) / TILE_WIDTH, (height + TILE_WIDTH - 1) / TILE_WIDTH);
    conv_2batch_kernel<<<dimGrid, dimBlock>>>(I, M, P, height, width, channels);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaFree(M));
}
