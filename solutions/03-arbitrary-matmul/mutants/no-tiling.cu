/*
 * Lab 03 mutant: no tiling at all.
 *
 * The mistake: the kernel reads every operand from global memory, lab 01
 * style, with the right bounds test: no shared memory, no barrier. The
 * answer is right.
 *
 * What a student sees: every dataset "pass", but the lab's requirements
 * (shared_memory, barrier) are reported requirement_failed and their points
 * are lost.
 *
 * Category: no shared memory and no barrier: the untiled kernel
 * Look at: the lab's requirements: tiles in shared memory, barriers between
 *   phases
 * Kit says: dataset=rect-67x45x89; sanitize=no; status=requirement_failed; words=__shared__|__syncthreads()
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int j, int k, int l)
{
    int Row = blockIdx.y * TILE_WIDTH + threadIdx.y;
    int Col = blockIdx.x * TILE_WIDTH + threadIdx.x;
    if (Row < j && Col < l) {
        float Pvalue = 0;
        for (int i = 0; i < k; ++i)
            Pvalue += M[Row * k + i] * N[i * l + Col];
        P[Row * l + Col] = Pvalue;
    }
}

void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l)
{
    //@@ TODO 9: Launch MatrixMulKernel with TILE_WIDTH x TILE_WIDTH blocks
    //@@ and enough of them to cover P: its l columns along x, its j rows
    //@@ along y, each count rounded up. Then check the launch.
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid((l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(M, N, P, j, k, l);
    CUDA_CHECK(cudaGetLastError());
    //@@ end
}
