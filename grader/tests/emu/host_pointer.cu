// A kernel may be given device memory, page-locked host memory (with
// unified addressing), a pointer inside an allocation, or NULL that it never
// follows; host memory from malloc is an illegal address on a GPU, and the
// emulator fails the launch at its line, naming the argument (sticky).
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

__global__ void Scale(float *out, const float *in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i];
}

static void report(const char *what)
{
    cudaError_t launched = cudaGetLastError();
    cudaError_t synced = cudaDeviceSynchronize();
    printf("%s: %s %s\n", what, cudaGetErrorName(launched), cudaGetErrorName(synced));
}

int main(void)
{
    const int n = 64;
    float *d_in, *d_out, *pinned;
    float *host = (float *)malloc(n * sizeof(float));
    for (int i = 0; i < n; i++)
        host[i] = (float)i;
    cudaMalloc((void **)&d_in, n * sizeof(float));
    cudaMalloc((void **)&d_out, n * sizeof(float));
    cudaMallocHost((void **)&pinned, n * sizeof(float));
    cudaMemcpy(d_in, host, n * sizeof(float), cudaMemcpyHostToDevice);

    Scale<<<1, n>>>(d_out, d_in, n);
    report("device");
    Scale<<<1, n>>>(d_out + 1, d_in + 1, n - 1);
    report("inside");
    Scale<<<1, n>>>(pinned, d_in, n);
    report("pinned");
    printf("pinned[3]=%g\n", pinned[3]);
    Scale<<<1, n>>>(NULL, NULL, 0);
    report("null");
    Scale<<<1, n>>>(d_out, host, n);
    report("host");
    Scale<<<1, n>>>(d_out, d_in, n);
    report("after");
    cudaFreeHost(pinned);
    free(host);
    return 0;
}
