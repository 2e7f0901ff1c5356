// Kit-era student program for the BlockSum lab (kit-like/Week5), written
// for the kit's tests, with a bug: the output has a slot per 1024 inputs
// (each block sums 1024) but the grid has a block per 512, so once the
// input is longer than 512 values the extra blocks, whose inputs are all
// past the end, write a zero past the output. The host adds only the slots
// it allocated, so the answer still comes out right: only the checkers
// (on the largest dataset, as small ones have no extra block) see it.
#include <wb.h>

#define BLOCK_SIZE 512

__global__ void total(float *input, float *output, int len) {
  __shared__ float sdata[2 * BLOCK_SIZE];
  int tid = threadIdx.x;
  int i = blockIdx.x * 2 * BLOCK_SIZE + tid;
  sdata[tid] = i < len ? input[i] : 0.0f;
  sdata[tid + BLOCK_SIZE] = i + BLOCK_SIZE < len ? input[i + BLOCK_SIZE] : 0.0f;
  __syncthreads();
  for (int s = BLOCK_SIZE; s > 0; s /= 2) {
    if (tid < s)
      sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid == 0)
    output[blockIdx.x] = sdata[0];
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numInputElements;
  float *hostInput = (float *)wbImport(wbArg_getInputFile(args, 0), &numInputElements);
  int numOutputElements = (numInputElements - 1) / (2 * BLOCK_SIZE) + 1;
  float *hostOutput = (float *)malloc(numOutputElements * sizeof(float));

  float *deviceInput, *deviceOutput;
  cudaMalloc(&deviceInput, numInputElements * sizeof(float));
  cudaMalloc(&deviceOutput, numOutputElements * sizeof(float));
  cudaMemcpy(deviceInput, hostInput, numInputElements * sizeof(float), cudaMemcpyHostToDevice);

  int blocks = (numInputElements - 1) / BLOCK_SIZE + 1;
  total<<<blocks, BLOCK_SIZE>>>(deviceInput, deviceOutput, numInputElements);
  cudaDeviceSynchronize();
  cudaMemcpy(hostOutput, deviceOutput, numOutputElements * sizeof(float), cudaMemcpyDeviceToHost);

  float sum = 0;
  for (int k = 0; k < numOutputElements; k++)
    sum += hostOutput[k];
  hostOutput[0] = sum;
  wbSolution(args, hostOutput, 1);

  cudaFree(deviceInput);
  cudaFree(deviceOutput);
  free(hostInput);
  free(hostOutput);
  return 0;
}
