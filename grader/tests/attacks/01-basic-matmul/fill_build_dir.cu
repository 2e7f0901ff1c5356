// attack: writes 1.5 GB, in 64 MB files, into every folder of its work
// directory it can write other than its own run folder (the build folder,
// which in the uid mode is its own user's), past the run folder's 1 GB
// limit; then does the lab
// expect: full
// expect-uid: zero
#include "lab.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
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

/* Writes up to 1.5 GB into ../name; returns the megabytes written. */
static long fill(const char *name)
{
    static char block[1 << 20];
    long written = 0;
    for (int i = 0; i < 24; i++) {
        char path[4096];
        snprintf(path, sizeof path, "../%s/fill-%d", name, i);
        FILE *f = fopen(path, "w");
        if (!f)
            break;
        int mb = 0;
        while (mb < 64 && fwrite(block, 1, sizeof block, f) == sizeof block)
            mb++;
        fclose(f);
        written += mb;
        if (mb < 64)
            break;
    }
    if (written)
        printf("fill_build_dir: wrote %ld MB into ../%s\n", written, name);
    return written;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    /* the work folder may not be listable: its build folder's name is
     * known to anyone who read the kit */
    fill("build");
    DIR *d = opendir("..");
    struct dirent *e;
    char here[4096];
    const char *mine = getcwd(here, sizeof here) ? strrchr(here, '/') + 1 : "";
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.' && strcmp(e->d_name, mine) != 0 && strcmp(e->d_name, "build") != 0)
            fill(e->d_name);
    if (d)
        closedir(d);
    honest(M, N, P, width);
}
