// Kit-era student program for the BlockSum lab (kit-like/Week5), written
// for the kit's tests: a correct reduction, sequential addressing with 512
// threads a block and 1024 values a block; the host adds the blocks' sums.
#include <wb.h>

#define BLOCK_SIZE 512

__global__ void total(float *input, float *output, int len) {
  __shared__ float partialSum[2 * BLOCK_SIZE];
  unsigned int t = threadIdx.x;
  unsigned int start = 2 * blockIdx.x * BLOCK_SIZE;
  partialSum[t] = (start + t < len) ? input[start + t] : 0;
  partialSum[BLOCK_SIZE + t] = (start + BLOCK_SIZE + t < len) ? input[start + BLOCK_SIZE + t] : 0;
  for (unsigned int stride = BLOCK_SIZE; stride >= 1; stride >>= 1) {
    __syncthreads();
    if (t < stride) partialSum[t] += partialSum[t + stride];
  }
  if (t == 0) output[blockIdx.x] = partialSum[0];
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numInputElements, numOutputElements;
  float *hostInput = (float *)wbImport(wbArg_getInputFile(args, 0), &numInputElements);

  numOutputElements = numInputElements / (BLOCK_SIZE << 1);
  if (numInputElements % (BLOCK_SIZE << 1)) numOutputElements++;
  float *hostOutput = (float *)malloc(numOutputElements * sizeof(float));
  wbLog(TRACE, "The number of input elements in the input is ", numInputElements);

  float *deviceInput, *deviceOutput;
  cudaMalloc(&deviceInput, numInputElements * sizeof(float));
  cudaMalloc(&deviceOutput, numOutputElements * sizeof(float));
  cudaMemcpy(deviceInput, hostInput, numInputElements * sizeof(float), cudaMemcpyHostToDevice);

  dim3 dimGrid(numOutputElements, 1, 1);
  dim3 dimBlock(BLOCK_SIZE, 1, 1);
  total<<<dimGrid, dimBlock>>>(deviceInput, deviceOutput, numInputElements);
  cudaDeviceSynchronize();
  cudaMemcpy(hostOutput, deviceOutput, numOutputElements * sizeof(float), cudaMemcpyDeviceToHost);

  // the blocks' sums, added on the host
  for (int ii = 1; ii < numOutputElements; ii++) hostOutput[0] += hostOutput[ii];

  cudaFree(deviceInput);
  cudaFree(deviceOutput);
  wbSolution(args, hostOutput, 1);
  free(hostInput);
  free(hostOutput);
  return 0;
}
