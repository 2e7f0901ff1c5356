// A kernel parameter declared as a reference (`const Shape &s`) binds the
// launch's argument by address: the kernel gets the address of the host's
// object, which is host memory, where a parameter by value is copied to the
// device. The emulator refuses that launch as it refuses a host pointer
// (sticky, at the launch's line, the argument named); by value is fine.
#include <cstdio>
#include <cuda_runtime.h>

struct Shape {
    int width, height;
};

__global__ void AreaByValue(int *out, Shape s)
{
    *out = s.width * s.height;
}

__global__ void AreaByReference(int *out, const Shape &s)
{
    *out = s.width * s.height;
}

static void report(const char *what, int *d_out)
{
    cudaError_t launched = cudaGetLastError();
    cudaError_t synced = cudaDeviceSynchronize();
    int area = -1;
    cudaMemcpy(&area, d_out, sizeof area, cudaMemcpyDeviceToHost);
    printf("%s: %s %s area=%d\n", what, cudaGetErrorName(launched), cudaGetErrorName(synced), area);
}

int main(void)
{
    Shape shape = { 6, 7 };
    int *d_out;
    cudaMalloc((void **)&d_out, sizeof(int));
    AreaByValue<<<1, 1>>>(d_out, shape);
    report("by value", d_out);
    AreaByReference<<<1, 1>>>(d_out, shape);
    report("by reference", d_out);
    cudaFree(d_out);
    return 0;
}
