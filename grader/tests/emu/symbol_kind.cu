// A copy into (or out of) a __constant__ symbol whose kind names the other
// side's memory: cudaMemcpyDeviceToDevice from a host array, or
// cudaMemcpyHostToDevice from a device buffer. Each copy prints its error
// and what the symbol then holds; the right kinds come last.
#include <cstdio>
#include <cuda_runtime.h>

__constant__ float Weights[4];

__global__ void ReadWeights(float *out)
{
    out[threadIdx.x] = Weights[threadIdx.x];
}

static void report(const char *what, cudaError_t e, float *d_out)
{
    cudaGetLastError(); /* the copy's error, not sticky: cleared */
    float got[4] = { -1, -1, -1, -1 };
    ReadWeights<<<1, 4>>>(d_out);
    cudaMemcpy(got, d_out, sizeof got, cudaMemcpyDeviceToHost);
    printf("%s: %s %g %g %g %g\n", what, cudaGetErrorName(e), got[0], got[1], got[2], got[3]);
}

int main(void)
{
    float host[4] = { 1, 2, 3, 4 }, *d_w, *d_out;
    cudaMalloc((void **)&d_w, sizeof host);
    cudaMalloc((void **)&d_out, sizeof host);
    float twice[4] = { 2, 4, 6, 8 };
    cudaMemcpy(d_w, twice, sizeof twice, cudaMemcpyHostToDevice);
    report("device-to-device from host", cudaMemcpyToSymbol(Weights, host, sizeof host, 0, cudaMemcpyDeviceToDevice),
           d_out);
    report("host-to-device from device", cudaMemcpyToSymbol(Weights, d_w, sizeof host, 0, cudaMemcpyHostToDevice),
           d_out);
    report("host-to-device from host", cudaMemcpyToSymbol(Weights, host, sizeof host, 0, cudaMemcpyHostToDevice),
           d_out);
    report("device-to-device from device", cudaMemcpyToSymbol(Weights, d_w, sizeof host, 0, cudaMemcpyDeviceToDevice),
           d_out);
    float back[4] = { 0, 0, 0, 0 };
    cudaError_t e = cudaMemcpyFromSymbol(back, Weights, sizeof back, 0, cudaMemcpyDeviceToDevice);
    cudaGetLastError();
    printf("from symbol device-to-device into host: %s %g\n", cudaGetErrorName(e), back[0]);
    cudaFree(d_w);
    cudaFree(d_out);
    return 0;
}
