/*
 * A submission right on its first call and wrong on every later one (it
 * halves P after computing it). A benchmark that checked only one call
 * would time it as honest; gpulab bench must find call 2 wrong.
 */
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

__global__ void add_one(float *P, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        P[i] += 1.0f;
}

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    static int calls;
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    plain_matmul<<<grid, block>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
    if (calls++ > 0) {
        add_one<<<(width * width + 255) / 256, 256>>>(P, width * width);
        CUDA_CHECK(cudaGetLastError());
    }
}
