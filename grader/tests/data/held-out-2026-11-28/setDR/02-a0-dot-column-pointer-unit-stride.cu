/*
 * Lab 02 - tiled matrix multiplication, reference solution.
 *
 * P = M x N for square width x width matrices, width a multiple of 32. Each
 * block of TILE_WIDTH x TILE_WIDTH threads computes one tile of P. It walks
 * along the row of tiles of M and the column of tiles of N that meet there,
 * one phase per pair: the block copies one tile of M and one tile of N into
 * shared memory (each thread copies one element of each), waits, takes the
 * partial dot products out of the fast copies, and waits again before the
 * next phase overwrites them.
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    //@@ TODO 1: Declare the block's two tiles in shared memory, ds_M and
    //@@ ds_N, each TILE_WIDTH x TILE_WIDTH floats.
    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
    //@@ end

    //@@ TODO 2: Give the block indices the short names bx, by and the thread
    //@@ indices tx, ty. Compute Row and Col, the element of P this thread
    //@@ owns, and start its running sum Pvalue at 0.
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    //@@ end

    /* Phase ph uses columns ph*TILE_WIDTH ... ph*TILE_WIDTH + TILE_WIDTH - 1
     * of M and the rows of N with the same numbers. */
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        //@@ TODO 3: Collaborative loading. This thread copies ONE element of
        //@@ M into ds_M[ty][tx] (row Row, column tx of this phase's tile) and
        //@@ ONE element of N into ds_N[ty][tx] (row ty of this phase's tile,
        //@@ column Col). Together the block's threads fill both tiles.
        ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
        ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
        //@@ end

        //@@ TODO 4: Wait until every thread of the block has stored its two
        //@@ elements: the dot product below reads elements other threads load.
        __syncthreads();
        //@@ end

        //@@ TODO 5: Partial dot product: add to Pvalue the TILE_WIDTH
        //@@ products of row ty of ds_M with column tx of ds_N.
        const float *colN = &ds_N[0][tx];
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += ds_M[ty][i] * colN[i];
        //@@ end

        //@@ TODO 6: Wait again, until every thread has finished reading the
        //@@ tiles, before the next phase overwrites them.
        __syncthreads();
        //@@ end
    }

    //@@ TODO 7: Write the finished sum to this thread's element of P.
    P[Row * Width + Col] = Pvalue;
    //@@ end
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
