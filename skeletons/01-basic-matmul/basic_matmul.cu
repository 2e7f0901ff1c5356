/*
 * Lab 01 - basic matrix multiplication.
 *
 * P = M x N for square width x width matrices. Each thread computes one
 * element of P: the dot product of one row of M and one column of N, read
 * straight from global memory.
 *
 * Fill in each //@@ TODO region, in order. Check your work with
 *     ./gpulab check 01-basic-matmul basic_matmul.cu
 * Until every region is done the kit reports "wrong": that is expected.
 */
#include "lab.h"

#define BLOCK_WIDTH 16

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    //@@ TODO 1: Compute Row and Col, the element of P this thread owns,
    //@@ from the block and thread indices.
    //@@ end

    //@@ TODO 2: Threads past the edge of P do nothing (the grid is rounded up
    //@@ to whole blocks). The others take the dot product of row Row of M and
    //@@ column Col of N, and write it to P.
    //@@ end
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    //@@ TODO 3: Declare device pointers d_M, d_N and d_P and allocate
    //@@ width * width floats for each (cudaMalloc).
    //@@ end

    //@@ TODO 4: Copy M and N from the host to the device (cudaMemcpy).
    //@@ end

    //@@ TODO 5: Launch MatrixMulKernel with BLOCK_WIDTH x BLOCK_WIDTH blocks
    //@@ and enough blocks to cover all of P (round up), then check the launch.
    //@@ end

    //@@ TODO 6: Copy P from the device back to the host.
    //@@ end

    //@@ TODO 7: Free the device memory.
    //@@ end
}
