// Runtime API misuse fails as CUDA would: host pointers where device pointers
// belong, the wrong direction, cudaFree of a non-device pointer.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>

#define SHOW(call) printf("%s -> %s (%d) \"%s\"\n", #call, cudaGetErrorName(call), (int)(call), cudaGetErrorString(call))

int main()
{
    float host[16] = { 0 }, host2[16];
    float *dev = NULL, *dev2 = NULL;
    cudaError_t e;
    e = cudaMalloc((void **)&dev, sizeof host);
    printf("malloc: %s\n", cudaGetErrorName(e));
    cudaMalloc((void **)&dev2, sizeof host);
    e = cudaMemcpy(dev, host, sizeof host, cudaMemcpyHostToDevice);
    printf("h2d ok: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(host, dev, sizeof host, cudaMemcpyHostToDevice);
    printf("h2d swapped: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(host2, host, sizeof host, cudaMemcpyHostToDevice);
    printf("h2d host dst: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(host, dev, sizeof host, cudaMemcpyDeviceToHost);
    printf("d2h ok: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(dev, host, sizeof host, cudaMemcpyDeviceToHost);
    printf("d2h swapped: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(dev2, dev, sizeof host, cudaMemcpyDeviceToDevice);
    printf("d2d ok: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(dev, host, 2 * sizeof host, cudaMemcpyHostToDevice);
    printf("h2d too long: %s\n", cudaGetErrorName(e));
    e = cudaMemcpy(dev, host, sizeof host, (cudaMemcpyKind)7);
    printf("bad kind: %s\n", cudaGetErrorName(e));
    e = cudaMemset(host, 0, sizeof host);
    printf("memset host: %s\n", cudaGetErrorName(e));
    e = cudaFree(host);
    printf("free host: %s\n", cudaGetErrorName(e));
    e = cudaFree(dev);
    printf("free dev: %s\n", cudaGetErrorName(e));
    e = cudaFree(dev);
    printf("free twice: %s\n", cudaGetErrorName(e));
    e = cudaFree(NULL);
    printf("free null: %s\n", cudaGetErrorName(e));
    printf("last: %s\n", cudaGetErrorName(cudaGetLastError()));
    printf("last again: %s\n", cudaGetErrorName(cudaGetLastError()));
    SHOW(cudaSuccess);
    printf("names: %s|%s|%s|%s\n", cudaGetErrorName(cudaErrorInvalidValue), cudaGetErrorString(cudaErrorInvalidValue),
           cudaGetErrorName(cudaErrorIllegalAddress), cudaGetErrorString(cudaErrorInvalidConfiguration));
    printf("values: %d %d %d %d %d %d\n", (int)cudaErrorInvalidValue, (int)cudaErrorInvalidConfiguration,
           (int)cudaErrorIllegalAddress, (int)cudaErrorLaunchFailure, (int)cudaMemcpyHostToDevice,
           (int)cudaMemcpyDeviceToHost);
    return 0;
}
