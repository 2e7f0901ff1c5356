// Unbounded recursion in a __device__ function: a stack overflow, reported as
// such; the process survives and the error is sticky.
#include <cuda_runtime.h>
#include <stdio.h>

__device__ int Depth(volatile int *p, int n)
{
    volatile char pad[512];
    pad[0] = (char)n;
    if (*p == 12345)
        return pad[0];
    return Depth(p, n + 1) + pad[0];
}

__global__ void Recurse(int *p)
{
    p[1] = Depth(p, 0);
}

int main()
{
    int *d;
    cudaMalloc(&d, 2 * sizeof(int));
    cudaMemset(d, 0, 2 * sizeof(int));
    Recurse<<<1, 4>>>(d);
    cudaError_t s = cudaDeviceSynchronize();
    printf("sync=%s\n", cudaGetErrorName(s));
    return 0;
}
