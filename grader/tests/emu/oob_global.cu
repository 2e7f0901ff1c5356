// An out-of-bounds read of global memory: reported, naming the kernel, block,
// thread and line; the error is sticky (cudaErrorIllegalAddress).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void ReadPast(const float *a, float *b, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[i + n];   // line 9: reads past the end of a
}

int main()
{
    int n = 256;
    float *a, *b;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    ReadPast<<<n / 64, 64>>>(a, b, n);
    cudaError_t s = cudaDeviceSynchronize();
    cudaError_t l = cudaGetLastError();
    float h;
    cudaError_t m = cudaMemcpy(&h, b, sizeof h, cudaMemcpyDeviceToHost);
    printf("sync=%s last=%s memcpy=%s\n", cudaGetErrorName(s), cudaGetErrorName(l), cudaGetErrorName(m));
    return 0;
}
