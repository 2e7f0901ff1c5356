// Tiled 16x16 matrix multiplication, the lecture's kernel. Usage: matmul_tiled WIDTH [REPEAT]
// Prints OK when P matches a CPU reference; also the benchmark (WIDTH 1024).
// -DNO_SYNC1 / -DNO_SYNC2 remove the first / second __syncthreads().
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>

#define TILE_WIDTH 16

template <int TILE>
__global__ void MatrixMulKernel(const float *__restrict__ M, const float *__restrict__ N, float *P, int Width)
{
    __shared__ float ds_M[TILE][TILE];
    __shared__ float ds_N[TILE][TILE];
    int bx = blockIdx.x, by = blockIdx.y, tx = threadIdx.x, ty = threadIdx.y;
    int Row = by * TILE + ty, Col = bx * TILE + tx;
    float Pvalue = 0;
    for (int ph = 0; ph < Width / TILE; ++ph) {
        ds_M[ty][tx] = M[Row * Width + ph * TILE + tx];
        ds_N[ty][tx] = N[(ph * TILE + ty) * Width + Col];
#ifndef NO_SYNC1
        __syncthreads();
#endif
        for (int k = 0; k < TILE; ++k)
            Pvalue += ds_M[ty][k] * ds_N[k][tx];
#ifndef NO_SYNC2
        __syncthreads();
#endif
    }
    P[Row * Width + Col] = Pvalue;
}

int main(int argc, char **argv)
{
    int w = argc > 1 ? atoi(argv[1]) : 64;
    size_t bytes = (size_t)w * w * sizeof(float);
    float *M = (float *)malloc(bytes), *N = (float *)malloc(bytes), *P = (float *)malloc(bytes);
    for (int i = 0; i < w * w; i++) {
        M[i] = (float)(i % 7) - 3;
        N[i] = (float)(i % 5) - 2;
    }
    float *dM, *dN, *dP;
    cudaMalloc(&dM, bytes);                 // the C++ template form
    cudaMalloc((void **)&dN, bytes);
    cudaMalloc(&dP, bytes);
    cudaMemcpy(dM, M, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(dN, N, bytes, cudaMemcpyHostToDevice);
    dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
    dim3 dimGrid(w / TILE_WIDTH, w / TILE_WIDTH);
    cudaEvent_t start, stop;
    cudaEventCreate(&start);
    cudaEventCreate(&stop);
    cudaEventRecord(start, 0);
    MatrixMulKernel<TILE_WIDTH>
        <<<dimGrid,
           dimBlock>>>(dM, dN, dP,
                       w);
    cudaEventRecord(stop, 0);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    cudaError_t e = cudaGetLastError();
    printf("launch: %s\n", cudaGetErrorName(e));
    fprintf(stderr, "kernel time: %.1f ms\n", ms);
    cudaMemcpy(P, dP, bytes, cudaMemcpyDeviceToHost);
    int bad = 0;
    int check = w <= 256 ? w : 16; /* rows checked */
    for (int i = 0; i < check; i++)
        for (int j = 0; j < w; j++) {
            float s = 0;
            for (int k = 0; k < w; k++)
                s += M[i * w + k] * N[k * w + j];
            if (!(fabsf(s - P[i * w + j]) <= 1e-3f))
                bad++;
        }
    printf("%s\n", bad ? "WRONG" : "OK");
    cudaFree(dM);
    cudaFree(dN);
    cudaFree(dP);
    return bad ? 1 : 0;
}
