/*
 * Lab 02 with tiles that are never read.
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
            Pvalue += M[Row * Width + ph * TILE_WIDTH + i] * N[(ph * TILE_WIDTH + i) * Width + Col];

        __syncthreads();
    }

    P[Row * Width + Col] = Pvalue;
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
}
