// VectorSum: sum[i] = a[i] + b[i], one thread per element.
#include <wb.h>

// Stops main() with the runtime's words when a CUDA call fails.
#define wbCheck(call)                                                    \
  do {                                                                   \
    cudaError_t status_ = (call);                                        \
    if (status_ != cudaSuccess) {                                        \
      wbLog(ERROR, "CUDA call ", #call, " failed: ",                    \
            cudaGetErrorString(status_));                                \
      return -1;                                                         \
    }                                                                    \
  } while (0)

#define THREADS_PER_BLOCK 128

__global__ void vectorSum(const float *a, const float *b, float *sum, int n) {
  //@@ One element per thread; threads past n do nothing
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) {
    sum[idx] = a[idx] + b[idx];
  }
}

int main(int argc, char *argv[]) {
  wbArg_t arg = wbArg_read(argc, argv);
  int lengthA, lengthB;

  wbTime_start(Generic, "Reading the two vectors");
  float *hostA = (float *)wbImport(wbArg_getInputFile(arg, 0), &lengthA);
  float *hostB = (float *)wbImport(wbArg_getInputFile(arg, 1), &lengthB);
  wbTime_stop(Generic, "Reading the two vectors");
  wbAssertMessage("the two vectors differ in length", lengthA == lengthB);
  wbLog(TRACE, "Each vector holds ", lengthA, " values");

  int n = lengthA;
  size_t bytes = n * sizeof(float);
  float *hostSum = (float *)malloc(bytes);
  float *devA, *devB, *devSum;

  wbTime_start(GPU, "Device memory for a, b and the sum");
  //@@ Allocate devA, devB and devSum
  wbCheck(cudaMalloc((void **)&devA, bytes));
  wbCheck(cudaMalloc((void **)&devB, bytes));
  wbCheck(cudaMalloc((void **)&devSum, bytes));
  wbTime_stop(GPU, "Device memory for a, b and the sum");

  wbTime_start(Copy, "a and b to the device");
  //@@ Copy hostA and hostB to the device
  wbCheck(cudaMemcpy(devA, hostA, bytes, cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(devB, hostB, bytes, cudaMemcpyHostToDevice));
  wbTime_stop(Copy, "a and b to the device");

  wbTime_start(Compute, "vectorSum");
  //@@ Launch enough blocks of THREADS_PER_BLOCK threads for n elements
  dim3 blocks((n + THREADS_PER_BLOCK - 1) / THREADS_PER_BLOCK);
  dim3 threads(THREADS_PER_BLOCK);
  vectorSum<<<blocks, threads>>>(devA, devB, devSum, n);
  wbCheck(cudaGetLastError());
  wbCheck(cudaThreadSynchronize());
  wbTime_stop(Compute, "vectorSum");

  wbTime_start(Copy, "the sum to the host");
  //@@ Copy the sum back to hostSum
  wbCheck(cudaMemcpy(hostSum, devSum, bytes, cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "the sum to the host");

  //@@ Free the device memory
  cudaFree(devA);
  cudaFree(devB);
  cudaFree(devSum);

  wbSolution(arg, hostSum, n);

  free(hostA);
  free(hostB);
  free(hostSum);
  return 0;
}
