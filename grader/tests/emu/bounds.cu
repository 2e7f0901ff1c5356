// The checking builds' bounds checks (emucc --race and emucc --check), one
// invalid access each, chosen by the first argument; each ends in
// cudaErrorIllegalAddress and one out-of-bounds line:
//   before   thread 0 reads the element before a cudaMalloc allocation
//   freed    a kernel reads an allocation after cudaFree
//   atomic   the last thread adds into the element past the end, atomically
//   shared   thread 0 writes the element before a __shared__ array
//   dynamic  a kernel launched with no dynamic shared memory writes into it
//   copy     thread 0 copies into the element past the end with memcpy
//   constant the last thread reads the element past a __constant__ array
//   list     every thread past n stores past the end (for --list-faults)
//   none     every access in bounds: cudaSuccess and no line
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void ReadBefore(const float *a, float *b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    b[i] = a[i - 1];                       /* line 20: thread 0 reads a[-1] */
}

__global__ void AddPast(int *counts, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    atomicAdd(&counts[i + 1 == n ? n : i], 1); /* line 26: the last thread adds into counts[n] */
}

__global__ void SharedBefore(float *out)
{
    __shared__ float tile[64];
    int t = threadIdx.x;
    tile[t - 1 + (t > 0)] = (float)t;      /* line 33: thread 0 writes tile[-1] */
    __syncthreads();
    out[t] = tile[t];
}

__global__ void DynamicNone(float *out)
{
    extern __shared__ float dyn[];
    dyn[threadIdx.x] = 1.0f;               /* line 41: no dynamic shared memory was asked for */
    out[threadIdx.x] = 0.0f;
}

__global__ void CopyPast(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    float v = 1.0f;
    memcpy(&out[i == 0 ? n : i], &v, sizeof v); /* line 49: thread 0 copies into out[n] */
}

__global__ void StorePast(float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = 1.0f;                         /* line 55: threads n and on store past the end */
    (void)n;
}

__constant__ float Mask[25];
__constant__ int Widths[3];

__global__ void ReadMask(float *out)
{
    int t = threadIdx.x;
    out[t] = Mask[t == 63 ? 25 : t % 25] * Widths[0]; /* line 65: thread 63 reads Mask[25] */
}

int main(int argc, char **argv)
{
    const char *c = argc > 1 ? argv[1] : "none";
    int n = 256;
    float *a, *b;
    int *counts;
    cudaMalloc(&a, n * sizeof(float));
    cudaMalloc(&b, n * sizeof(float));
    cudaMalloc(&counts, n * sizeof(int));
    cudaMemset(a, 0, n * sizeof(float));
    cudaMemset(counts, 0, n * sizeof(int));
    if (!strcmp(c, "before")) {
        ReadBefore<<<n / 64, 64>>>(a, b);
    } else if (!strcmp(c, "freed")) {
        cudaFree(a);
        ReadBefore<<<1, 1>>>(a + 1, b);
    } else if (!strcmp(c, "atomic")) {
        AddPast<<<n / 64, 64>>>(counts, n);
    } else if (!strcmp(c, "shared")) {
        SharedBefore<<<1, 64>>>(b);
    } else if (!strcmp(c, "dynamic")) {
        DynamicNone<<<1, 64>>>(b);
    } else if (!strcmp(c, "copy")) {
        CopyPast<<<n / 64, 64>>>(b, n);
    } else if (!strcmp(c, "constant")) {
        float mask[25] = { 0 };
        int widths[3] = { 1, 2, 3 };
        cudaMemcpyToSymbol(Mask, mask, sizeof mask);
        cudaMemcpyToSymbol(Widths, widths, sizeof widths);
        ReadMask<<<1, 64>>>(b);
    } else if (!strcmp(c, "list")) {
        StorePast<<<(n + 64) / 64, 64>>>(b, n); /* 320 threads: 64 past the end */
    } else {
        ReadBefore<<<n / 64 - 1, 64>>>(a + 64, b);
    }
    cudaError_t s = cudaDeviceSynchronize();
    printf("sync=%s\n", cudaGetErrorName(s));
    if (!strcmp(c, "none")) { /* the clean run frees all it made: no leak line either */
        cudaFree(a);
        cudaFree(b);
        cudaFree(counts);
    }
    return 0;
}
