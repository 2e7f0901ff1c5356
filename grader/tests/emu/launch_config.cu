// Invalid launch configurations fail like CUDA, through cudaGetLastError /
// cudaPeekAtLastError, without running the kernel.
#include <cuda_runtime.h>
#include <stdio.h>

__device__ int ran;

__global__ void Touch(int *flag)
{
    *flag = 1;
}

static int *d_flag;

static void try_launch(const char *what, dim3 g, dim3 b, size_t shmem)
{
    cudaMemset(d_flag, 0, sizeof(int));
    Touch<<<g, b, shmem>>>(d_flag);
    cudaError_t peek = cudaPeekAtLastError();
    cudaError_t last = cudaGetLastError();
    cudaError_t after = cudaGetLastError();
    int flag = -1;
    cudaMemcpy(&flag, d_flag, sizeof(int), cudaMemcpyDeviceToHost);
    printf("%s: %s peek=%s after=%s ran=%d\n", what, cudaGetErrorName(last), cudaGetErrorName(peek),
           cudaGetErrorName(after), flag);
}

int main()
{
    cudaMalloc(&d_flag, sizeof(int));
    try_launch("ok", dim3(2), dim3(32), 0);
    try_launch("threads1025", dim3(1), dim3(1025), 0);
    try_launch("threads33x32", dim3(1), dim3(33, 32), 0);
    try_launch("blockz65", dim3(1), dim3(1, 1, 65), 0);
    try_launch("blockx0", dim3(1), dim3(0), 0);
    try_launch("gridy0", dim3(1, 0), dim3(32), 0);
    try_launch("gridy65536", dim3(1, 65536), dim3(1), 0);
    try_launch("shmem49153", dim3(1), dim3(32), 49153);
    try_launch("shmem49152", dim3(1), dim3(32), 49152);
    try_launch("max1024", dim3(1), dim3(32, 32), 0);
    return 0;
}
