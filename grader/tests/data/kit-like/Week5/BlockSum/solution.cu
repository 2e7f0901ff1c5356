// BlockSum: the sum of a vector. Each block adds 2 * BLOCK_SIZE values in
// shared memory, halving the active threads each step, and writes one
// partial sum; the host adds the partial sums.
#include <wb.h>

#define wbCheck(call)                                                    \
  do {                                                                   \
    cudaError_t status_ = (call);                                        \
    if (status_ != cudaSuccess) {                                        \
      wbLog(ERROR, "CUDA call ", #call, " failed: ",                    \
            cudaGetErrorString(status_));                                \
      return -1;                                                         \
    }                                                                    \
  } while (0)

#define BLOCK_SIZE 256

__global__ void blockSum(const float *input, float *partial, int length) {
  //@@ Each thread loads two values (0 past the end), then the tree of additions
  __shared__ float ds_sum[2 * BLOCK_SIZE];
  int t = threadIdx.x;
  int first = 2 * blockIdx.x * BLOCK_SIZE;
  ds_sum[t] = first + t < length ? input[first + t] : 0.0f;
  ds_sum[BLOCK_SIZE + t] = first + BLOCK_SIZE + t < length ? input[first + BLOCK_SIZE + t] : 0.0f;
  for (int stride = BLOCK_SIZE; stride >= 1; stride /= 2) {
    __syncthreads();
    if (t < stride)
      ds_sum[t] += ds_sum[t + stride];
  }
  if (t == 0)
    partial[blockIdx.x] = ds_sum[0];
}

int main(int argc, char *argv[]) {
  wbArg_t arg = wbArg_read(argc, argv);
  int length;

  wbTime_start(Generic, "Reading the vector");
  float *hostInput = (float *)wbImport(wbArg_getInputFile(arg, 0), &length);
  wbTime_stop(Generic, "Reading the vector");
  int numPartials = (length + 2 * BLOCK_SIZE - 1) / (2 * BLOCK_SIZE);
  wbLog(TRACE, length, " values, ", numPartials, " partial sums");
  float *hostPartial = (float *)malloc(numPartials * sizeof(float));

  float *devInput, *devPartial;
  wbTime_start(GPU, "Device memory");
  //@@ Allocate devInput and devPartial (numPartials floats), copy the input
  wbCheck(cudaMalloc((void **)&devInput, length * sizeof(float)));
  wbCheck(cudaMalloc((void **)&devPartial, numPartials * sizeof(float)));
  wbCheck(cudaMemcpy(devInput, hostInput, length * sizeof(float), cudaMemcpyHostToDevice));
  wbTime_stop(GPU, "Device memory");

  wbTime_start(Compute, "blockSum");
  //@@ One block of BLOCK_SIZE threads per partial sum
  blockSum<<<numPartials, BLOCK_SIZE>>>(devInput, devPartial, length);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "blockSum");

  wbTime_start(Copy, "The partial sums to the host");
  //@@ Copy the partial sums back
  wbCheck(cudaMemcpy(hostPartial, devPartial, numPartials * sizeof(float), cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "The partial sums to the host");

  float total = 0.0f;
  for (int b = 0; b < numPartials; b++)
    total += hostPartial[b];
  wbLog(WARN, "The total is ", total);

  wbSolution(arg, &total, 1);

  cudaFree(devInput);
  cudaFree(devPartial);
  free(hostInput);
  free(hostPartial);
  return 0;
}
