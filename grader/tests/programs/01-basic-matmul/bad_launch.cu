/* Test program: 32 x 64 = 2048 threads per block, over CUDA's limit of 1024;
 * the launch fails and nothing checks it. */
#include "lab.h"

__global__ void Kernel(float *P, int Width)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < Width * Width)
        P[i] = 0;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M;
    (void)N;
    float *d_P;
    size_t bytes = (size_t)width * width * sizeof(float);
    cudaMalloc((void **)&d_P, bytes);
    Kernel<<<1, dim3(32, 64)>>>(d_P, width);
    cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost);
    cudaFree(d_P);
}
