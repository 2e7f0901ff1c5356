/* Probe for compute-sanitizer's report formats (not a test by itself). */
#include <cstdio>
__global__ void oob_read(const float *a, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i % n] = a[i];  // reads past the end of a
}
__global__ void divergent_barrier(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = threadIdx.x;
    if (threadIdx.x < 16)
        __syncthreads();
    out[threadIdx.x] = s[(threadIdx.x + 1) % 64];
}
__global__ void uninit_shared(float *out)
{
    __shared__ float s[64];
    if (threadIdx.x < 32)
        s[threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.x] = s[threadIdx.x];
}
int main()
{
    float *a, *out;
    cudaMalloc(&a, 100 * sizeof(float));
    cudaMalloc(&out, 100 * sizeof(float));
    oob_read<<<1, 128>>>(a, out, 100);
    cudaDeviceSynchronize();
    divergent_barrier<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    uninit_shared<<<1, 64>>>(out);
    cudaDeviceSynchronize();
    printf("done %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
