/*
 * Lab 02, correct variant written differently: the tiles are flat 1D shared
 * arrays indexed by hand, the N tile is stored transposed (so the dot
 * product walks both tiles along a row), Row and Col come from blockDim,
 * the phase loop counts by element offset rather than by phase number, and
 * the dot product adds its products from the far end of the tile. Must pass.
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void flatTiledKernel(const float *M, const float *N, float *P, int width)
{
    __shared__ float tileM[TILE_WIDTH * TILE_WIDTH];
    __shared__ float tileNt[TILE_WIDTH * TILE_WIDTH];   /* N's tile, transposed */

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * blockDim.y + ty;
    const int col = blockIdx.x * blockDim.x + tx;
    float acc = 0.0f;

    for (int base = 0; base < width; base += TILE_WIDTH) {
        tileM[ty * TILE_WIDTH + tx] = M[(size_t)row * width + base + tx];
        tileNt[tx * TILE_WIDTH + ty] = N[(size_t)(base + ty) * width + col];
        __syncthreads();
        for (int i = TILE_WIDTH - 1; i >= 0; --i)
            acc += tileM[ty * TILE_WIDTH + i] * tileNt[tx * TILE_WIDTH + i];
        __syncthreads();
    }
    P[(size_t)row * width + col] = acc;
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid(width / TILE_WIDTH, width / TILE_WIDTH);
    flatTiledKernel<<<grid, block>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
}
