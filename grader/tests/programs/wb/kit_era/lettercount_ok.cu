// Kit-era student program for the LetterCount lab (kit-like/Week4),
// written for the kit's tests: correct, a private histogram per block in
// shared memory, then atomics into the global one.
#include <wb.h>

#define NUM_BINS 128

__global__ void histo(char *buffer, unsigned int *histo, long size) {
  __shared__ unsigned int histo_private[NUM_BINS];
  if (threadIdx.x < NUM_BINS) histo_private[threadIdx.x] = 0;
  __syncthreads();

  int i = threadIdx.x + blockIdx.x * blockDim.x;
  int stride = blockDim.x * gridDim.x;
  while (i < size) {
    atomicAdd(&(histo_private[buffer[i]]), 1);
    i += stride;
  }
  __syncthreads();
  if (threadIdx.x < NUM_BINS) atomicAdd(&(histo[threadIdx.x]), histo_private[threadIdx.x]);
}

int main(int argc, char *argv[]) {
  wbArg_t args = wbArg_read(argc, argv);
  int inputLength;
  char *hostInput = (char *)wbImport(wbArg_getInputFile(args, 0), &inputLength, "Text");
  unsigned int *hostBins = (unsigned int *)malloc(NUM_BINS * sizeof(unsigned int));
  wbLog(TRACE, "The input length is ", inputLength);

  char *deviceInput;
  unsigned int *deviceBins;
  cudaMalloc((void **)&deviceInput, inputLength);
  cudaMalloc((void **)&deviceBins, NUM_BINS * sizeof(unsigned int));
  cudaMemcpy(deviceInput, hostInput, inputLength, cudaMemcpyHostToDevice);
  cudaMemset(deviceBins, 0, NUM_BINS * sizeof(unsigned int));

  histo<<<12, 256>>>(deviceInput, deviceBins, inputLength);
  cudaDeviceSynchronize();
  cudaMemcpy(hostBins, deviceBins, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);

  wbSolution(args, hostBins, NUM_BINS);

  cudaFree(deviceInput);
  cudaFree(deviceBins);
  free(hostBins);
  free(hostInput);
  return 0;
}
