/*
 * Lab 03 - tiled matrix multiplication of any size.
 *
 * P = M x N with M j x k, N k x l and P j x l, for any sizes >= 1. This is
 * lab 02's tiled kernel made safe at the edges: the grid is rounded up to
 * whole tiles, so some threads own no element of P, and the last phase's
 * tiles can reach past the edge of M or N. Each load tests its own bounds
 * and stores 0 outside them; only threads that own an element of P write it.
 *
 * M, N and P are device pointers: the kit allocates them and copies the data.
 *
 * Fill in each //@@ TODO region, in order. Check your work with
 *     ./gpulab check 03-arbitrary-matmul arbitrary_matmul.cu
 * Until every region is done the kit reports "wrong": that is expected.
 * docs/labs/03-arbitrary-matmul.md walks through the steps.
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int j, int k, int l)
{
    //@@ TODO 1: Declare the block's two tiles in shared memory, ds_M and
    //@@ ds_N, each TILE_WIDTH x TILE_WIDTH floats.
    //@@ end

    //@@ TODO 2: Name the indices bx, by, tx, ty; compute Row (a row of M and
    //@@ of P) and Col (a column of N and of P), and start Pvalue at 0. Row
    //@@ may be >= j and Col >= l: do not return early, this thread is still
    //@@ needed to load tiles and to reach every barrier.
    //@@ end

    int numPhases = 0;
    //@@ TODO 3: Set numPhases, the number of tiles it takes to cover the k
    //@@ columns of M (the k rows of N): k / TILE_WIDTH rounded UP, in
    //@@ integer arithmetic.
    //@@ end

    for (int ph = 0; ph < numPhases; ++ph) {
        //@@ TODO 4: Collaborative loading with bounds tests. Load
        //@@ M[Row][ph*TILE_WIDTH + tx] into ds_M[ty][tx] only if that element
        //@@ exists in the j x k matrix M, else store 0. Likewise
        //@@ N[ph*TILE_WIDTH + ty][Col] into ds_N[ty][tx] only if it exists in
        //@@ the k x l matrix N, else 0. The two tests are different.
        //@@ end

        //@@ TODO 5: Wait until both tiles are complete.
        //@@ end

        //@@ TODO 6: Partial dot product of row ty of ds_M with column tx of
        //@@ ds_N. Every thread may do it: the zeros make the padding harmless.
        //@@ end

        //@@ TODO 7: Wait until every thread is done with the tiles.
        //@@ end
    }

    //@@ TODO 8: Only a thread that owns an element of P (Row < j and Col < l)
    //@@ writes its Pvalue there.
    //@@ end
}

void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l)
{
    //@@ TODO 9: Launch MatrixMulKernel with TILE_WIDTH x TILE_WIDTH blocks
    //@@ and enough of them to cover P: its l columns along x, its j rows
    //@@ along y, each count rounded up. Then check the launch.
    //@@ end
}
