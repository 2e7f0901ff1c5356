// Lab 01 written the way a Teaching Kit course writes its files: the Kit's
// host-side steps (allocate, copy in, compute, copy out, free), each timed
// with wbTime_start/stop and checked with a wbCheck macro of its own, and
// wbLog for what it is doing. The lab's harness owns main() and the files:
// basic_matmul() is given host pointers. Test material for
// grader/tests/test_wb_labs.py.
#include "lab.h"
#include "wb.h"

// The Kit's usual check, ending the entry point (it returns nothing) where
// the Kit's main() would return -1.
#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "CUDA call ", #stmt, " failed: ", cudaGetErrorString(err));\
      return;                                                             \
    }                                                                     \
  } while (0)

#define BLOCK_WIDTH 16

// One thread per element of P: the dot product of row Row of M and column
// Col of N, straight from global memory.
__global__ void matrixMultiply(const float *M, const float *N, float *P,
                               int Width) {
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  if (Row < Width && Col < Width) {
    float Pvalue = 0;
    for (int k = 0; k < Width; ++k)
      Pvalue += M[Row * Width + k] * N[k * Width + Col];
    P[Row * Width + Col] = Pvalue;
  }
}

void basic_matmul(const float *M, const float *N, float *P, int width) {
  float *deviceM, *deviceN, *deviceP;
  size_t bytes = (size_t)width * width * sizeof(float);

  wbAssert(width >= 1);
  wbLog(TRACE, "The dimensions of M and N are ", width, " x ", width);

  wbTime_start(GPU, "Allocating GPU memory.");
  wbCheck(cudaMalloc((void **)&deviceM, bytes));
  wbCheck(cudaMalloc((void **)&deviceN, bytes));
  wbCheck(cudaMalloc((void **)&deviceP, bytes));
  wbTime_stop(GPU, "Allocating GPU memory.");

  wbTime_start(GPU, "Copying input memory to the GPU.");
  wbCheck(cudaMemcpy(deviceM, M, bytes, cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceN, N, bytes, cudaMemcpyHostToDevice));
  wbTime_stop(GPU, "Copying input memory to the GPU.");

  dim3 dimGrid((width + BLOCK_WIDTH - 1) / BLOCK_WIDTH,
               (width + BLOCK_WIDTH - 1) / BLOCK_WIDTH, 1);
  dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);

  wbTime_start(Compute, "Performing CUDA computation");
  matrixMultiply<<<dimGrid, dimBlock>>>(deviceM, deviceN, deviceP, width);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Performing CUDA computation");

  wbTime_start(Copy, "Copying output memory to the CPU");
  wbCheck(cudaMemcpy(P, deviceP, bytes, cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "Copying output memory to the CPU");

  wbTime_start(GPU, "Freeing GPU Memory");
  wbCheck(cudaFree(deviceM));
  wbCheck(cudaFree(deviceN));
  wbCheck(cudaFree(deviceP));
  wbTime_stop(GPU, "Freeing GPU Memory");
}
