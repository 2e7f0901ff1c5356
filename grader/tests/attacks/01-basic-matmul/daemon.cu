// attack: does the lab, but leaves a sleeping background process behind
// (setsid + sleep) that would tamper with later runs
// expect: full
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>


__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}

static void honest(const float *M, const float *N, float *P, int width)
{
    size_t bytes = (size_t)width * width * sizeof(float);
    float *d_M, *d_N, *d_P;
    CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));
    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_M));
    CUDA_CHECK(cudaFree(d_N));
    CUDA_CHECK(cudaFree(d_P));
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    if (fork() == 0) {
        setsid();
        if (fork() == 0) {
            execl("/bin/sleep", "@MARK@", "1000", (char *)NULL);
            _exit(0);
        }
        _exit(0);
    }
    honest(M, N, P, width);
}
