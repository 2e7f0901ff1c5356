/*
 * Lab 02 with 8 x 8 tiles launched in 16 x 16 blocks, the grid counted in
 * blocks of 16: the block is larger than the tiles, nothing is swapped. On
 * width-0128 the grid happens to be 8 x 8, the tile's size, and the block
 * the 16 x 16 grid that 8 x 8 tiles would need there: a launch that looks
 * swapped on that one dataset only. The kit must not say "swapped".
 */
#include "lab.h"

#define TILE_WIDTH 8

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    /* Phase ph uses columns ph*TILE_WIDTH ... ph*TILE_WIDTH + TILE_WIDTH - 1
     * of M and the rows of N with the same numbers. */
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
        ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
        __syncthreads();
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += ds_M[ty][i] * ds_N[i][tx];
        __syncthreads();
    }
    P[Row * Width + Col] = Pvalue;
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 dimBlock(16, 16);
    dim3 dimGrid(width / 16, width / 16);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
}
