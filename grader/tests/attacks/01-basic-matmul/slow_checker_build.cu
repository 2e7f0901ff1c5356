// attack: compile-time work (constant evaluation, about two seconds a build on the emulator)
// in a file that is otherwise right: the checkers' build compiles it too, and
// would have it waited for as long as the checkers' time limit where it alone
// is slow; it is held to a multiple of the graded build's time
// (test_a_slow_checker_build_is_stopped_not_waited_for)
// expect: full
#include "lab.h"

constexpr unsigned long long spin(unsigned n, unsigned salt)
{
    unsigned long long s = salt;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            s += i ^ j ^ salt;
    return s;
}
static_assert(spin(600, 1) != 0, "spun once");
static_assert(spin(600, 2) != 0, "spun twice");

__global__ void Product(const float *M, const float *N, float *P, int width)
{
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
