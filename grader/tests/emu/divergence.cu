// Barrier divergence: threads of a block at different __syncthreads() calls
// (MODE 0), or some returned while others wait (MODE 1). MODE 2 is correct.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

__global__ void Diverge(int *out, int mode)
{
    int t = threadIdx.x;
    if (mode == 0) {
        if (t < 16)
            __syncthreads();   // line 12
        else
            __syncthreads();   // line 14
    } else if (mode == 1) {
        if (t >= 40)
            return;
        __syncthreads();       // line 18
    } else {
        __syncthreads();
    }
    out[t] = t;
}

int main(int argc, char **argv)
{
    int mode = argc > 1 ? atoi(argv[1]) : 0;
    int *d;
    cudaMalloc(&d, 64 * sizeof(int));
    Diverge<<<2, 64>>>(d, mode);
    cudaError_t l = cudaGetLastError();
    cudaError_t s = cudaDeviceSynchronize();
    printf("last=%s sync=%s\n", cudaGetErrorName(l), cudaGetErrorName(s));
    return 0;
}
