/*
 * Lab 02 mutant: no tiling at all.
 *
 * The mistake: the kernel is lab 01's, every operand read straight from
 * global memory; no shared memory, no barrier. The answer is right.
 *
 * What a student sees: every dataset "pass", but the lab's requirements
 * (shared_memory, barrier) are reported requirement_failed and their points
 * are lost: this lab is about the tiled kernel, and this one moves
 * TILE_WIDTH times more data from global memory than it needs to.
 *
 * Category: no shared memory and no barrier: the untiled kernel
 * Look at: the lab's requirements: tiles in shared memory, barriers between
 *   phases
 * Kit says: dataset=width-0064; sanitize=no; status=requirement_failed; words=__shared__|__syncthreads()
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    float Pvalue = 0;
    for (int i = 0; i < Width; ++i)
        Pvalue += M[Row * Width + i] * N[i * Width + Col];
    P[Row * Width + Col] = Pvalue;
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    //@@ TODO 8: M, N and P are already on the device. Launch MatrixMulKernel
    //@@ with TILE_WIDTH x TILE_WIDTH blocks, one block per tile of P
    //@@ (width / TILE_WIDTH blocks in each direction), then check the launch.
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
    //@@ end
}
