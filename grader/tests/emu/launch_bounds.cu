// A kernel's __launch_bounds__(MAX) is a promise the launch must keep: a
// GPU refuses a block of more than MAX threads (the launch fails, not
// sticky) and runs one of MAX or fewer. Both places the bounds can be
// written are read: before the kernel's name and before its return type.
#include <cstdio>
#include <cuda_runtime.h>

#define MAX_THREADS 128

__global__ void __launch_bounds__(MAX_THREADS) Fill(int *out)
{
    out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

__global__ __launch_bounds__(64, 2) void FillSmall(int *out)
{
    out[threadIdx.x] = 2;
}

static void report(const char *what, int *d_out, int n)
{
    cudaError_t launched = cudaGetLastError();
    cudaError_t synced = cudaDeviceSynchronize();
    int first = 0;
    cudaMemcpy(&first, d_out + n - 1, sizeof first, cudaMemcpyDeviceToHost);
    printf("%s: %s %s last=%d\n", what, cudaGetErrorName(launched), cudaGetErrorName(synced), first);
    cudaMemset(d_out, 0, 1024 * sizeof(int));
}

int main(void)
{
    int *d_out;
    cudaMalloc((void **)&d_out, 1024 * sizeof(int));
    cudaMemset(d_out, 0, 1024 * sizeof(int));
    Fill<<<2, MAX_THREADS>>>(d_out);
    report("at the bound", d_out, 2 * MAX_THREADS);
    Fill<<<1, 2 * MAX_THREADS>>>(d_out);
    report("past the bound", d_out, 2 * MAX_THREADS);
    Fill<<<1, dim3(16, 16)>>>(d_out);
    report("past it in 2D", d_out, 256);
    FillSmall<<<1, 64>>>(d_out);
    report("small at its bound", d_out, 64);
    FillSmall<<<1, 65>>>(d_out);
    report("small past it", d_out, 65);
    cudaFree(d_out);
    return 0;
}
