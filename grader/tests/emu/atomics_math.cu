// atomicAdd across blocks running on several OS threads; printf in a kernel;
// the float math functions labs use.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void Count(int *n, float *f, unsigned long long *u)
{
    atomicAdd(n, 1);
    atomicAdd(f, 0.5f);
    atomicAdd(u, 2ull);
    if (blockIdx.x == 3 && threadIdx.x == 5)
        printf("hello from block %d thread %d of %d\n", blockIdx.x, threadIdx.x, blockDim.x);
}

__global__ void Math(float *r)
{
    r[0] = fminf(2.0f, 3.0f);
    r[1] = fmaxf(2.0f, 3.0f);
    r[2] = sqrtf(16.0f);
    r[3] = expf(0.0f);
    r[4] = fabsf(-2.5f);
    r[5] = __fmul_rn(1.5f, 2.0f);
    r[6] = __fadd_rn(1.5f, 2.0f);
    r[7] = (float)min(3, 4) + (float)max(3, 4);
    r[8] = __expf(1.0f) > 2.7f ? 1.0f : 0.0f;
    r[9] = rsqrtf(4.0f);
}

int main()
{
    int *n, hn;
    float *f, hf, *r, hr[10];
    unsigned long long *u, hu;
    cudaMalloc(&n, sizeof(int));
    cudaMalloc(&f, sizeof(float));
    cudaMalloc(&u, sizeof(unsigned long long));
    cudaMalloc(&r, sizeof hr);
    cudaMemset(n, 0, sizeof(int));
    cudaMemset(f, 0, sizeof(float));
    cudaMemset(u, 0, sizeof(unsigned long long));
    Count<<<64, 256>>>(n, f, u);
    cudaDeviceSynchronize();
    cudaMemcpy(&hn, n, sizeof hn, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hf, f, sizeof hf, cudaMemcpyDeviceToHost);
    cudaMemcpy(&hu, u, sizeof hu, cudaMemcpyDeviceToHost);
    printf("count=%d fsum=%g usum=%llu\n", hn, hf, hu);
    Math<<<1, 1>>>(r);
    cudaMemcpy(hr, r, sizeof hr, cudaMemcpyDeviceToHost);
    printf("math:");
    for (int i = 0; i < 10; i++)
        printf(" %g", hr[i]);
    printf("\n");
    return 0;
}
