// attack: loops forever in a kernel
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

__global__ void Spin(volatile int *flag, float *P)
{
    while (*flag == 0)
        ;
    P[0] = 1;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    int *flag;
    float *d_P;
    CUDA_CHECK(cudaMalloc((void **)&flag, sizeof(int)));
    CUDA_CHECK(cudaMalloc((void **)&d_P, sizeof(float)));
    CUDA_CHECK(cudaMemset(flag, 0, sizeof(int)));
    Spin<<<1, 1>>>(flag, d_P);
    CUDA_CHECK(cudaDeviceSynchronize());
}
