// Conformance: the device's limits as a GPU shows them.
// An allocation larger than the device's memory fails at once with
// cudaErrorMemoryAllocation; with CUDA_VISIBLE_DEVICES hiding the device,
// every call fails with cudaErrorNoDevice.
#include <cstdio>
#include <cuda_runtime.h>

int main()
{
    int count = -1;
    cudaError_t e = cudaGetDeviceCount(&count);
    printf("count: %s %d\n", cudaGetErrorName(e), count);
    void *p = NULL;
    e = cudaMalloc(&p, (size_t)1 << 44); /* 16 TiB */
    printf("huge: %s\n", cudaGetErrorName(e));
    e = cudaMalloc(&p, 1024);
    printf("small: %s\n", cudaGetErrorName(e));
    if (e == cudaSuccess)
        printf("free: %s\n", cudaGetErrorName(cudaFree(p)));
    return 0;
}
