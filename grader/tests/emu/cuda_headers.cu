/* A program written the way students write for nvcc: CUDA's own headers
 * included (one of them only ever meant for nvcc's internals), __CUDACC__
 * defined by hand before them, host variables named after the built-in
 * ones (dim3 blockDim(...) in main), and main() with no return. nvcc
 * accepts all of it; so must the emulator, with or without a CUDA
 * installation on the machine, and with none of the machine's CUDA headers
 * in its build. */
#define __CUDACC__
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <device_functions.h>
#include <vector_types.h>
#include <math_functions.h>
#include <builtin_types.h>
#include <driver_types.h>
#include <stdio.h>

__global__ void offsets(int *out, int width, int height)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    __syncthreads();
    if (x < width && y < height)
        out[y * width + x] = (int)(gridDim.x * 1000 + y * width + x);
}

/* a host helper with parameters named like the built-ins */
static unsigned threads_of(dim3 gridDim, dim3 blockDim)
{
    return gridDim.x * gridDim.y * blockDim.x * blockDim.y;
}

int main()
{
    const int width = 37, height = 21;
    int *d = NULL;
    static int host[width * height];
    cudaMalloc((void **)&d, sizeof host);
    dim3 blockDim(16, 8);
    dim3 gridDim((width + blockDim.x - 1) / blockDim.x, (height + blockDim.y - 1) / blockDim.y);
    int threadIdx = 0, blockIdx = 0; /* counters, nothing to do with CUDA's */
    offsets<<<gridDim, blockDim>>>(d, width, height);
    cudaError_t err = cudaDeviceSynchronize();
    cudaMemcpy(host, d, sizeof host, cudaMemcpyDeviceToHost);
    for (int i = 0; i < width * height; i++)
        if (host[i] == (int)(gridDim.x * 1000) + i)
            threadIdx++;
        else
            blockIdx++;
    printf("%s: %d right, %d wrong, %u threads, CUDA_VERSION %d\n", cudaGetErrorName(err), threadIdx, blockIdx,
           threads_of(gridDim, blockDim), CUDA_VERSION >= 12000);
    cudaFree(d);
}
