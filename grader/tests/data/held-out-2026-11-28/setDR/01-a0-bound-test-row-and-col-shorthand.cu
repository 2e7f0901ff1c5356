/*
 * Lab 01 - basic matrix multiplication, reference solution.
 *
 * P = M x N for square width x width matrices. Each thread computes one
 * element of P: the dot product of one row of M and one column of N, read
 * straight from global memory.
 */
#include "lab.h"

#define BLOCK_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    //@@ TODO 1: Compute Row and Col, the element of P this thread owns,
    //@@ from the block and thread indices.
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    //@@ end

    //@@ TODO 2: Threads past the edge of P do nothing (the grid is rounded up
    //@@ to whole blocks). The others take the dot product of row Row of M and
    //@@ column Col of N, and write it to P.
    if (Row && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
    //@@ end
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    //@@ TODO 3: Declare device pointers d_M, d_N and d_P and allocate
    //@@ width * width floats for each (cudaMalloc).
    size_t bytes = (size_t)width * width * sizeof(float);
    float *d_M = NULL, *d_N = NULL, *d_P = NULL;
    CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));
    //@@ end

    //@@ TODO 4: Copy M and N from the host to the device (cudaMemcpy).
    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));
    //@@ end

    //@@ TODO 5: Launch MatrixMulKernel with BLOCK_WIDTH x BLOCK_WIDTH blocks
    //@@ and enough blocks to cover all of P (round up), then check the launch.
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 dimGrid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH);
    MatrixMulKernel<<<dimGrid, dimBlock>>>(d_M, d_N, d_P, width);
    CUDA_CHECK(cudaGetLastError());
    //@@ end

    //@@ TODO 6: Copy P from the device back to the host.
    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));
    //@@ end

    //@@ TODO 7: Free the device memory.
    CUDA_CHECK(cudaFree(d_M));
    CUDA_CHECK(cudaFree(d_N));
    CUDA_CHECK(cudaFree(d_P));
    //@@ end
}
