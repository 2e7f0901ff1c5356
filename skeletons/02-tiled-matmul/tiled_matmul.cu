/*
 * Lab 02 - tiled matrix multiplication.
 *
 * P = M x N for square width x width matrices, width a multiple of 32. Each
 * block of TILE_WIDTH x TILE_WIDTH threads computes one tile of P, in phases:
 * in each phase the block copies one tile of M and one tile of N into shared
 * memory, waits for the copies to be complete, adds the products it can take
 * from them, and waits again before the next phase overwrites the tiles.
 * Each element a block loads from global memory is used TILE_WIDTH times.
 *
 * M, N and P are device pointers: the kit allocates them and copies the data.
 *
 * Fill in each //@@ TODO region, in order. Check your work with
 *     ./gpulab check 02-tiled-matmul tiled_matmul.cu
 * Until every region is done the kit reports "wrong": that is expected.
 * docs/labs/02-tiled-matmul.md walks through the steps.
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    //@@ TODO 1: Declare the block's two tiles in shared memory, ds_M and
    //@@ ds_N, each TILE_WIDTH x TILE_WIDTH floats.
    //@@ end

    //@@ TODO 2: Give the block indices the short names bx, by and the thread
    //@@ indices tx, ty. Compute Row and Col, the element of P this thread
    //@@ owns, and start its running sum Pvalue at 0.
    //@@ end

    /* Phase ph uses columns ph*TILE_WIDTH ... ph*TILE_WIDTH + TILE_WIDTH - 1
     * of M and the rows of N with the same numbers. */
    for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
        //@@ TODO 3: Collaborative loading. This thread copies ONE element of
        //@@ M into ds_M[ty][tx] (row Row, column tx of this phase's tile) and
        //@@ ONE element of N into ds_N[ty][tx] (row ty of this phase's tile,
        //@@ column Col). Together the block's threads fill both tiles.
        //@@ end

        //@@ TODO 4: Wait until every thread of the block has stored its two
        //@@ elements: the dot product below reads elements other threads load.
        //@@ end

        //@@ TODO 5: Partial dot product: add to Pvalue the TILE_WIDTH
        //@@ products of row ty of ds_M with column tx of ds_N.
        //@@ end

        //@@ TODO 6: Wait again, until every thread has finished reading the
        //@@ tiles, before the next phase overwrites them.
        //@@ end
    }

    //@@ TODO 7: Write the finished sum to this thread's element of P.
    //@@ end
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    //@@ TODO 8: M, N and P are already on the device. Launch MatrixMulKernel
    //@@ with TILE_WIDTH x TILE_WIDTH blocks, one block per tile of P
    //@@ (width / TILE_WIDTH blocks in each direction), then check the launch.
    //@@ end
}
