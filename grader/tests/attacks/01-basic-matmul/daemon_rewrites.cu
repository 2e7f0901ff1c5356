// attack: does the lab, and leaves a daemon (setsid + double fork, deaf to
// SIGHUP and SIGTERM) that waits 2 s, until the grader has written the
// records and the CSV, and then appends to the CSV and writes beside them
// expect: full
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

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
            /* the mark in its command line, for the test to find it */
            execl("/bin/sh", "sh", "-c",
                  "trap '' HUP TERM INT; sleep 2; echo forged,100 >> '@RECORDS@/../grades.csv'; "
                  "echo forged > '@RECORDS@/../tampered'; sleep 1000; :",
                  "@MARK@", (char *)NULL);
            _exit(0);
        }
        _exit(0);
    }
    honest(M, N, P, width);
}
