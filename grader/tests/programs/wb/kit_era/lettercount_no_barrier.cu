// Kit-era student program for the LetterCount lab (kit-like/Week4),
// written for the kit's tests, with a bug: no __syncthreads() between
// zeroing the block's bins and counting into them, nor before adding them
// to the global bins: a thread can count into a bin another thread has
// not zeroed yet, or add a bin before the others have finished with it.
#include <wb.h>

#define NUM_BINS 128

__global__ void histogram(const char *in, unsigned int *bins, int n) {
  __shared__ unsigned int local[NUM_BINS];
  if (threadIdx.x < NUM_BINS)
    local[threadIdx.x] = 0;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[in[i]], 1);
  if (threadIdx.x < NUM_BINS)
    atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int len;
  char *text = (char *)wbImport(wbArg_getInputFile(args, 0), &len, "Text");
  unsigned int *bins = (unsigned int *)calloc(NUM_BINS, sizeof(unsigned int));

  char *d_text;
  unsigned int *d_bins;
  cudaMalloc(&d_text, len);
  cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int));
  cudaMemcpy(d_text, text, len, cudaMemcpyHostToDevice);
  cudaMemcpy(d_bins, bins, NUM_BINS * sizeof(unsigned int), cudaMemcpyHostToDevice);

  histogram<<<(len + 255) / 256, 256>>>(d_text, d_bins, len);
  cudaDeviceSynchronize();

  cudaMemcpy(bins, d_bins, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  wbSolution(args, bins, NUM_BINS);
  cudaFree(d_text);
  cudaFree(d_bins);
  free(text);
  free(bins);
  return 0;
}
