// attack: fills /tmp, /dev/shm and its run folder with empty files until
// none more can be made (a size limit alone lets millions in, each costing
// the kernel memory for its inode); then does the lab
// expect: full
// expect-uid: zero (no mount of its own to run out of files in: the uid mode
// counts them, and stops the run at the same limit)
#include "lab.h"
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
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

/* Empty files in dir until one cannot be made (at most 2 million). */
static void fill(const char *dir)
{
    long made = 0;
    int err = 0;
    for (; made < 2000000; made++) {
        char path[256];
        snprintf(path, sizeof path, "%s/f%ld", dir, made);
        int fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0600);
        if (fd < 0) {
            err = errno;
            break;
        }
        close(fd);
    }
    printf("many_files: %s held %ld files, stopped: %s\n", dir, made, err ? strerror(err) : "at 2 million");
    /* room for the run's own output (a few files are enough; the folders
     * go with the run) */
    for (long i = 0; i < made && i < 16; i++) {
        char path[256];
        snprintf(path, sizeof path, "%s/f%ld", dir, i);
        unlink(path);
    }
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    fill("/tmp");
    fill(".");
    honest(M, N, P, width);
}
