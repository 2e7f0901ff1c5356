/*
 * A submission that computes P honestly but prints timing lines of its own,
 * claiming every call took a microsecond. gpulab bench must give it no
 * figure.
 */
#include <stdio.h>
#include "lab.h"

__global__ void plain_matmul(const float *M, const float *N, float *P, int width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < width && Col < width) {
        float Pvalue = 0;
        for (int k = 0; k < width; ++k)
            Pvalue += M[Row * width + k] * N[k * width + Col];
        P[Row * width + Col] = Pvalue;
    }
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    static int call;
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    plain_matmul<<<grid, block>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
    printf("@gpulab\tcall\t%d\t0.0010\t0.0010\n", call++);
}
