/*
 * Lab 03 mutant: the N load tested against the wrong size (j, M's and P's
 * height, not k, N's height).
 *
 * The mistake: `nRow < j` where `nRow < k` belongs. Where j < k the tile
 * drops N's rows j ... k-1 (zeros instead): wrong. Where j == k it is
 * right. Where j > k the load reads N's rows k ... j-1, past the end of N;
 * each such value is multiplied by a 0 of M's tile (M's test is right), so
 * the output comes out right: by luck, reading outside N.
 *
 * What a student sees: "wrong" where j < k; where j > k `unsafe`, the
 * bounds check naming the read past the end of N at the load's line,
 * on every dataset of that shape, whichever the full checks chose.
 *
 * Category: bounds test against the wrong size: reads past the end of N where j > k
 * Look at: the bounds test of the N load (the row against k, N's height)
 * Kit says: dataset=tall-skinny-300x20x6; sanitize=yes; status=unsafe; words=past the end|N[nRow * l + Col]
 * First line: N[nRow * l + Col]|past the end of a
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int j, int k, int l)
{
    //@@ TODO 1: Declare the block's two tiles in shared memory, ds_M and
    //@@ ds_N, each TILE_WIDTH x TILE_WIDTH floats.
    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
    __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
    //@@ end

    //@@ TODO 2: Name the indices bx, by, tx, ty; compute Row (a row of M and
    //@@ of P) and Col (a column of N and of P), and start Pvalue at 0. Row
    //@@ may be >= j and Col >= l: do not return early, this thread is still
    //@@ needed to load tiles and to reach every barrier.
    int bx = blockIdx.x, by = blockIdx.y;
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE_WIDTH + ty;
    int Col = bx * TILE_WIDTH + tx;
    float Pvalue = 0;
    //@@ end

    int numPhases = 0;
    //@@ TODO 3: Set numPhases, the number of tiles it takes to cover the k
    //@@ columns of M (the k rows of N): k / TILE_WIDTH rounded UP, in
    //@@ integer arithmetic.
    numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;
    //@@ end

    for (int ph = 0; ph < numPhases; ++ph) {
        //@@ TODO 4: Collaborative loading with bounds tests. Load
        //@@ M[Row][ph*TILE_WIDTH + tx] into ds_M[ty][tx] only if that element
        //@@ exists in the j x k matrix M, else store 0. Likewise
        //@@ N[ph*TILE_WIDTH + ty][Col] into ds_N[ty][tx] only if it exists in
        //@@ the k x l matrix N, else 0. The two tests are different.
        int mCol = ph * TILE_WIDTH + tx;
        int nRow = ph * TILE_WIDTH + ty;
        if (Row < j && mCol < k)
            ds_M[ty][tx] = M[Row * k + mCol];
        else
            ds_M[ty][tx] = 0.0f;
        if (nRow < j && Col < l)
            ds_N[ty][tx] = N[nRow * l + Col];
        else
            ds_N[ty][tx] = 0.0f;
        //@@ end

        //@@ TODO 5: Wait until both tiles are complete.
        __syncthreads();
        //@@ end

        //@@ TODO 6: Partial dot product of row ty of ds_M with column tx of
        //@@ ds_N. Every thread may do it: the zeros make the padding harmless.
        for (int i = 0; i < TILE_WIDTH; ++i)
            Pvalue += ds_M[ty][i] * ds_N[i][tx];
        //@@ end

        //@@ TODO 7: Wait until every thread is done with the tiles.
        __syncthreads();
        //@@ end
    }

    //@@ TODO 8: Only a thread that owns an element of P (Row < j and Col < l)
    //@@ writes its Pvalue there.
    if (Row < j && Col < l)
        P[Row * l + Col] = Pvalue;
    //@@ end
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
