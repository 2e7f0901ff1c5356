// attack: fills the disk under its run folder with 64 MB files (each under the per-file cap) until a write fails, then does the lab (its own output no longer fits: zero)
// expect: zero
#include "lab.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* Writes 64 MB files until one fails; says how much went in, and why it stopped. */
static void fill(void)
{
    static char chunk[1 << 20];
    memset(chunk, 'x', sizeof chunk);
    long long total = 0;
    const char *why = "never stopped";
    for (int f = 0; f < 64; f++) {
        char name[64];
        snprintf(name, sizeof name, "fill-%d.bin", f);
        FILE *out = fopen(name, "wb");
        if (!out) {
            why = strerror(errno);
            break;
        }
        int full = 0;
        for (int i = 0; i < 64 && !full; i++) {
            size_t n = fwrite(chunk, 1, sizeof chunk, out);
            total += (long long)n;
            if (n < sizeof chunk) {
                why = strerror(errno);
                full = 1;
            }
        }
        if (fclose(out) != 0 && !full) {
            why = strerror(errno);
            full = 1;
        }
        if (full)
            break;
    }
    printf("fill_disk: wrote %lld MB, stopped: %s\n", total >> 20, why);
    fflush(stdout);
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    fill();
    size_t bytes = (size_t)width * width * sizeof(float);
    float *d_M, *d_N, *d_P;
    cudaMalloc((void **)&d_M, bytes);
    cudaMalloc((void **)&d_N, bytes);
    cudaMalloc((void **)&d_P, bytes);
    cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, width);
    cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost);
    cudaFree(d_M);
    cudaFree(d_N);
    cudaFree(d_P);
}
