// Shared memory: static multi-dimensional arrays, extern (dynamic) arrays sized
// by the launch, poisoned (0xFF bytes, a NaN) at the start of every block.
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

__global__ void Uninit(float *out)
{
    __shared__ float tile[4][8];
    if (threadIdx.x == 0)
        tile[0][0] = 1.0f;            // only element [0][0] is loaded
    __syncthreads();
    out[blockIdx.x * 2 + 0] = tile[0][0];
    out[blockIdx.x * 2 + 1] = tile[3][7];
    __syncthreads();
    tile[3][7] = 5.0f;                // must not survive into the next block
}

extern __shared__ int dyn_global[];   // file-scope extern __shared__

__global__ void Reverse(int *data, int n)
{
    extern __shared__ int s[];
    int t = threadIdx.x;
    s[t] = data[blockIdx.x * n + t];
    __syncthreads();
    data[blockIdx.x * n + t] = s[n - 1 - t];
    dyn_global[t] = 0;                // same memory as s
    __syncthreads();
}

__global__ void SumRows(const int *in, int *out)
{
    __shared__ int rows[2][3][16], total;
    rows[threadIdx.z][threadIdx.y][threadIdx.x] = in[(threadIdx.z * 3 + threadIdx.y) * 16 + threadIdx.x];
    if (threadIdx.x == 0 && threadIdx.y == 0 && threadIdx.z == 0)
        total = 0;
    __syncthreads();
    atomicAdd(&total, rows[threadIdx.z][threadIdx.y][threadIdx.x]);
    __syncthreads();
    if (threadIdx.x + threadIdx.y + threadIdx.z == 0)
        *out = total;
}

int main()
{
    float *d_out, h_out[4];
    cudaMalloc(&d_out, sizeof h_out);
    Uninit<<<2, 32>>>(d_out);
    cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost);
    unsigned bits;
    memcpy(&bits, &h_out[3], 4);
    printf("loaded=%g unloaded_is_nan=%d second_block_is_nan=%d bits=%08x\n", h_out[0], h_out[1] != h_out[1],
           h_out[3] != h_out[3], bits);

    int n = 64, h[128], *d;
    for (int i = 0; i < 128; i++)
        h[i] = i;
    cudaMalloc(&d, sizeof h);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    Reverse<<<2, n, n * sizeof(int)>>>(d, n);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("reverse: %d %d %d %d %s\n", h[0], h[63], h[64], h[127], cudaGetErrorName(cudaGetLastError()));

    int in[96], *d_in, *d_sum, sum = 0, want = 0;
    for (int i = 0; i < 96; i++)
        want += in[i] = i * 3 - 7;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_sum, sizeof(int));
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    SumRows<<<1, dim3(16, 3, 2)>>>(d_in, d_sum);
    cudaMemcpy(&sum, d_sum, sizeof(int), cudaMemcpyDeviceToHost);
    printf("sum: %d want %d\n", sum, want);
    return 0;
}
