/*
 * Lab 03, correct variant written differently: flat 1D shared arrays, the N
 * tile stored transposed, loads written as conditional expressions, Row and
 * Col from blockDim, the phase loop counting element offsets up to k, and
 * an early-out test placed AFTER the loop (never a return before a
 * barrier). Must pass on every dataset.
 */
#include "lab.h"

#define TILE_WIDTH 16

__global__ void flatTiledKernel(const float *A, const float *B, float *C, int rowsA, int inner,
                                int colsB)
{
    __shared__ float tileA[TILE_WIDTH * TILE_WIDTH];
    __shared__ float tileBt[TILE_WIDTH * TILE_WIDTH];   /* B's tile, transposed */

    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * blockDim.y + ty;
    const int col = blockIdx.x * blockDim.x + tx;
    const bool rowOk = row < rowsA, colOk = col < colsB;
    float acc = 0.0f;

    for (int base = 0; base < inner; base += TILE_WIDTH) {
        const int a = base + tx, b = base + ty;
        tileA[ty * TILE_WIDTH + tx] = (rowOk && a < inner) ? A[(size_t)row * inner + a] : 0.0f;
        tileBt[tx * TILE_WIDTH + ty] = (b < inner && colOk) ? B[(size_t)b * colsB + col] : 0.0f;
        __syncthreads();
        for (int i = TILE_WIDTH - 1; i >= 0; --i)
            acc += tileA[ty * TILE_WIDTH + i] * tileBt[tx * TILE_WIDTH + i];
        __syncthreads();
    }
    if (!rowOk || !colOk)
        return;
    C[(size_t)row * colsB + col] = acc;
}

void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH);
    dim3 grid((l + TILE_WIDTH - 1) / TILE_WIDTH, (j + TILE_WIDTH - 1) / TILE_WIDTH);
    flatTiledKernel<<<grid, block>>>(M, N, P, j, k, l);
    CUDA_CHECK(cudaGetLastError());
}
