// attack: leaves a System V shared memory segment (64 MB, under no
// folder's limit) and a semaphore set behind, a channel to a later run
// that outlives the batch, and reads any segment an earlier run left;
// then does the lab
// expect: full
#include "lab.h"
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>

#include "lab.h"
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}

static void honest(const float *M, const float *N, float *P, int width)
{
    size_t bytes = (size_t)width * width * sizeof(float);
    float *d_M, *d_N, *d_P;
    CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));
    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_M));
    CUDA_CHECK(cudaFree(d_N));
    CUDA_CHECK(cudaFree(d_P));
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    key_t key = 0x6770; /* the same key in every run */
    int id = shmget(key, 0, 0);
    if (id >= 0) {
        char *old = (char *)shmat(id, NULL, SHM_RDONLY);
        if (old != (char *)-1)
            printf("sysv_shm: an earlier run left: %.40s\n", old);
    }
    id = shmget(IPC_PRIVATE, (size_t)64 << 20, IPC_CREAT | 0666);
    if (id >= 0) {
        char *p = (char *)shmat(id, NULL, 0);
        if (p != (char *)-1) {
            memset(p, 'x', (size_t)64 << 20);
            strcpy(p, "@MARK@-shm");
            printf("sysv_shm: left a 64 MB segment (id %d)\n", id);
        }
    }
    if (shmget(key, 4096, IPC_CREAT | 0666) >= 0)
        printf("sysv_shm: left a segment with key %x\n", (unsigned)key);
    if (semget(IPC_PRIVATE, 4, IPC_CREAT | 0666) >= 0)
        printf("sysv_shm: left a semaphore set\n");
    honest(M, N, P, width);
}
