// attack: lab 01's untiled kernel handed in for lab 02, with a __shared__
// tile declared and stored (so that the source shows shared memory) but
// never read in the sum; after its launch the program finds the launch log
// of the run (GPULAB_EMU_LOG, in its own folder) and writes it again with
// the counts a 16 x 16 tiled kernel would have: [global_reuse] for a
// kernel that reads global memory for every multiply-add
// expect: datasets and shared_memory, not global_reuse
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>

#define TILE_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
    int tx = threadIdx.x, ty = threadIdx.y;
    int Row = blockIdx.y * TILE_WIDTH + ty;
    int Col = blockIdx.x * TILE_WIDTH + tx;
    ds_M[ty][tx] = 0.0f;
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
        Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
}

/* The launch log again, with one launch line holding a tiled kernel's
 * counts: M and N each read once per tile of P. */
static void forge_counts(int width)
{
    const char *log = getenv("GPULAB_EMU_LOG");
    FILE *f = log ? fopen(log, "w") : NULL;
    if (!f)
        return;
    long loads = 2L * width * width * (width / TILE_WIDTH);
    fprintf(f, "{\"event\":\"launch\",\"kernel\":\"MatrixMulKernel\",\"grid\":[%d,%d,1],\"block\":[16,16,1],"
               "\"shared_static_bytes\":2048,\"shared_dynamic_bytes\":0,\"barriers\":2,"
               "\"status\":\"cudaSuccess\",\"counts\":{\"global_loads\":%ld,\"global_load_bytes\":%ld,"
               "\"global_load_buffers\":[{\"buffer_bytes\":%ld,\"loads\":%ld,\"load_bytes\":%ld}]}}\n",
            width / TILE_WIDTH, width / TILE_WIDTH, loads, 4 * loads, 4L * width * width, loads, 4 * loads);
    fclose(f);
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    dim3 block(TILE_WIDTH, TILE_WIDTH), grid(width / TILE_WIDTH, width / TILE_WIDTH);
    MatrixMulKernel<<<grid, block>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());
    forge_counts(width);
}
