// attack: computes P on the host (no kernel runs) and prints kernel_token lines of its own, hoping one is the build's
// expect: zero
#include "lab.h"
#include <stdio.h>

/* A kernel that is defined but never launched: its body holds the build's
 * token, which only a launch would store. */
__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width)
        P[Row * Width + Col] = M[Row * Width] * N[Col];
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    for (int Row = 0; Row < width; ++Row)
        for (int Col = 0; Col < width; ++Col) {
            float Pvalue = 0;
            for (int k = 0; k < width; ++k)
                Pvalue += M[Row * width + k] * N[k * width + Col];
            P[Row * width + Col] = Pvalue;
        }
    for (unsigned long long guess = 0; guess < 4; guess++)
        printf("@gpulab\tkernel_token\t%llx\n", guess * 0x9e3779b97f4a7c15ull);
    fflush(stdout);
}
