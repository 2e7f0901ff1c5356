/*
 * Lab 03 with tiles that are never read.
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

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int j, int k, int l)
{
    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];

    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;

    int numPhases = 0;
    numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;

    for (int ph = 0; ph < numPhases; ++ph) {
        int mCol = ph * TILE_WIDTH + tx;
        int nRow = ph * TILE_WIDTH + ty;
        if (Row < j && mCol < k)
            ds_M[ty][tx] = M[Row * k + mCol];
        else
            ds_M[ty][tx] = 0.0f;
        if (nRow < k && Col < l)
            ds_N[ty][tx] = N[nRow * l + Col];
        else
            ds_N[ty][tx] = 0.0f;

        __syncthreads();

        for (int i = 0; i < TILE_WIDTH; ++i)
            if (Row < j && ph * TILE_WIDTH + i < k && Col < l)
                Pvalue += M[Row * k + ph * TILE_WIDTH + i] * N[(ph * TILE_WIDTH + i) * l + Col];

        __syncthreads();
    }

    if (Row < j && Col < l)
        P[Row * l + Col] = Pvalue;
}

void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l)
{
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
    CUDA_CHECK(cudaGetLastError());
}
