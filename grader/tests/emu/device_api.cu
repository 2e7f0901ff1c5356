// Device queries, events, big blocks (1024 threads with barriers), 3D indices.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void Reduce(const int *in, int *out)
{
    __shared__ int s[1024];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

__global__ void Index3(int *out)
{
    int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    out[b * blockDim.x * blockDim.y * blockDim.z + t] = b * 1000 + t;
}

int main()
{
    int count = 0;
    cudaGetDeviceCount(&count);
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("count=%d maxThreads=%d shared=%zu warp=%d dims=%d,%d,%d\n", count, prop.maxThreadsPerBlock,
           prop.sharedMemPerBlock, prop.warpSize, prop.maxThreadsDim[0], prop.maxThreadsDim[1], prop.maxThreadsDim[2]);
    printf("setdevice0=%s setdevice1=%s\n", cudaGetErrorName(cudaSetDevice(0)), cudaGetErrorName(cudaSetDevice(1)));
    cudaGetLastError();

    const int nb = 8, nt = 1024;
    static int in[nb * nt];
    int out[nb];
    for (int i = 0; i < nb * nt; i++)
        in[i] = i % 13;
    int *d_in, *d_out;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof out);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    cudaEvent_t a, b;
    cudaEventCreate(&a);
    cudaEventCreate(&b);
    cudaEventRecord(a, 0);
    Reduce<<<nb, nt>>>(d_in, d_out);
    cudaEventRecord(b, 0);
    cudaEventSynchronize(b);
    float ms = -1;
    cudaError_t e = cudaEventElapsedTime(&ms, a, b);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    int ok = 1;
    for (int k = 0; k < nb; k++) {
        int want = 0;
        for (int i = 0; i < nt; i++)
            want += in[k * nt + i];
        ok &= out[k] == want;
    }
    printf("reduce=%s elapsed=%s nonneg=%d\n", ok ? "OK" : "WRONG", cudaGetErrorName(e), ms >= 0);
    cudaEventDestroy(a);
    cudaEventDestroy(b);

    int *d3, h3[2 * 3 * 2 * 4 * 2 * 3];
    cudaMalloc(&d3, sizeof h3);
    Index3<<<dim3(2, 3, 2), dim3(4, 2, 3)>>>(d3);
    cudaMemcpy(h3, d3, sizeof h3, cudaMemcpyDeviceToHost);
    int ok3 = 1;
    for (int i = 0; i < (int)(sizeof h3 / sizeof h3[0]); i++)
        ok3 &= h3[i] == (i / 24) * 1000 + i % 24;
    printf("index3=%s\n", ok3 ? "OK" : "WRONG");
    return 0;
}
