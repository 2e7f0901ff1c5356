// Kit-era student program for the VectorSum lab (kit-like/Week1), written
// for the kit's tests: correct, with habits nvcc accepts: CUDA's headers
// included beside wb.h after a #define __CUDACC__, host variables named
// blockDim and gridDim, the launch written "<< < ... >> >" (as an old
// formatter left it), and main() ending without a return.
#define __CUDACC__
#include <cuda.h>
#include <cuda_runtime.h>
#include <device_launch_parameters.h>
#include "wb.h"

#define CHECK(x) { cudaError_t e_ = (x); if (e_ != cudaSuccess) { wbLog(ERROR, "error: ", cudaGetErrorString(e_)); exit(1); } }

__global__ void vecAddKernel(float *a, float *b, float *c, int n)
{
    int id = blockIdx.x*blockDim.x+threadIdx.x;
    if (id<n)
        c[id]=a[id]+b[id];
}

int main(int argc, char ** argv)
{
    wbArg_t args = wbArg_read(argc, argv);
    int n;
    float * a = (float *) wbImport(wbArg_getInputFile(args, 0), &n);
    float * b = (float *) wbImport(wbArg_getInputFile(args, 1), &n);
    float * c = (float *) malloc(n * sizeof(float));
    float *d_a, *d_b, *d_c;

    CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CHECK(cudaMalloc(&d_c, n * sizeof(float)));
    CHECK(cudaMemcpy(d_a, a, n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_b, b, n * sizeof(float), cudaMemcpyHostToDevice));

    dim3 blockDim(64);
    dim3 gridDim((n + blockDim.x - 1) / blockDim.x);
    wbLog(DEBUG, "grid ", gridDim.x, " block ", blockDim.x);
    vecAddKernel << <gridDim, blockDim >> >(d_a, d_b, d_c, n);
    CHECK(cudaDeviceSynchronize());

    CHECK(cudaMemcpy(c, d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    wbSolution(args, c, n);

    cudaFree(d_a); cudaFree(d_b); cudaFree(d_c);
    free(a); free(b); free(c);
}
