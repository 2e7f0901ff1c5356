// attack: races in shared memory (a race that leaves the output right) only
// where the emulator's race build is not the one compiling it: #ifndef on the
// mode's own macro, which its build defined
// expect: zero
#include "lab.h"

__global__ void Product(const float *M, const float *N, float *P, int width)
{
    __shared__ int scratch;
#ifndef EMU_MODE_RACE
    scratch = threadIdx.x; /* every thread, no barrier: a race nothing reads */
#endif
    int r = blockIdx.y * blockDim.y + threadIdx.y, c = blockIdx.x * blockDim.x + threadIdx.x;
    if (r < width && c < width) {
        float v = 0;
        for (int k = 0; k < width; ++k)
            v += M[r * width + k] * N[k * width + c];
        P[r * width + c] = v;
    }
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    float *dM, *dN, *dP;
    size_t bytes = (size_t)width * width * sizeof(float);
    cudaMalloc(&dM, bytes); cudaMalloc(&dN, bytes); cudaMalloc(&dP, bytes);
    cudaMemcpy(dM, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dN, N, bytes, cudaMemcpyHostToDevice);
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    Product<<<grid, block>>>(dM, dN, dP, width);
    cudaMemcpy(P, dP, bytes, cudaMemcpyDeviceToHost);
    cudaFree(dM); cudaFree(dN); cudaFree(dP);
}
