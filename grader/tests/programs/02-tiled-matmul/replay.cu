/*
 * A submission that cheats a benchmark: its first call computes P honestly
 * and keeps a copy; every later call copies that copy back instead of
 * computing. gpulab bench must find the later calls wrong (their inputs
 * differ), never time them as fast.
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

void tiled_matmul(const float *M, const float *N, float *P, int width)
{
    static float *kept;
    size_t bytes = (size_t)width * width * sizeof(float);
    if (kept) {
        CUDA_CHECK(cudaMemcpy(P, kept, bytes, cudaMemcpyDeviceToDevice));
        return;
    }
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    plain_matmul<<<grid, block>>>(M, N, P, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMalloc((void **)&kept, bytes));
    CUDA_CHECK(cudaMemcpy(kept, P, bytes, cudaMemcpyDeviceToDevice));
}
