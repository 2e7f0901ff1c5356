// A read far past the end of an array (three pages out): in the repair
// search's runs of candidate edits (GPULAB_EMU_MUTANT > 0) every device
// allocation has guards as large as itself, so the read faults.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void Far(float *out, const float *in, int at)
{
    out[0] = in[at];
}

int main(void)
{
    const int n = 4096; // 16 KiB
    float *d_in, *d_out;
    cudaMalloc((void **)&d_in, n * sizeof(float));
    cudaMalloc((void **)&d_out, sizeof(float));
    cudaMemset(d_in, 0, n * sizeof(float));
    Far<<<1, 1>>>(d_out, d_in, n + 3 * 1024);
    printf("far: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
