// An out-of-bounds write to a shared array (seen by emucc --check).
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void Stencil(const float *in, float *out)
{
    __shared__ float tile[64];
    int t = threadIdx.x;
    tile[t + 1] = in[t];   // line 9: thread 63 writes tile[64]
    __syncthreads();
    out[t] = tile[t];
}

int main()
{
    float *in, *out;
    cudaMalloc(&in, 64 * sizeof(float));
    cudaMalloc(&out, 64 * sizeof(float));
    cudaMemset(in, 0, 64 * sizeof(float));
    Stencil<<<1, 64>>>(in, out);
    cudaError_t s = cudaDeviceSynchronize();
    printf("sync=%s\n", cudaGetErrorName(s));
    return 0;
}
