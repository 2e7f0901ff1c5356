// attack: writes the emulator's launch log (its path is in the run's
// environment), hoping it lives on the grader's disk where the other
// students' builds and records go, beyond the run folder's limit; then does
// the lab
// expect: full
#include "lab.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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
    const char *log = getenv("GPULAB_EMU_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) {
        /* where it lives: the run folder's own file system (a 1 GB tmpfs:
         * fill_disk.cu shows its limit), or the grader's disk */
        struct stat in_log, in_run;
        int same = fstat(fileno(f), &in_log) == 0 && stat(".", &in_run) == 0 && in_log.st_dev == in_run.st_dev;
        static char block[1 << 20];
        memset(block, ' ', sizeof block);
        long mb = 0;
        while (mb < 64 && fwrite(block, 1, sizeof block, f) == sizeof block && fflush(f) == 0)
            mb++;
        printf("log_flood: wrote %ld MB into the log, in the run's own folder: %s\n", mb, same ? "yes" : "no");
        fclose(f);
        remove(log);
    }
    honest(M, N, P, width);
}
