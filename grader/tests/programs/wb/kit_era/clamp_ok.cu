// Kit-era student program for the ClampToLimit lab (kit-like/Week6),
// written for the kit's tests: correct, the values read as whole numbers
// ("Integer") and the limit as a flag, min() in the kernel.
#include <wb.h>

__global__ void clampKernel(int *data, int *result, int n, int cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) result[i] = min(data[i], cap);
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int n;
  int *values = (int *)wbImport(wbArg_getInputFile(args, 0), &n, "Integer");
  int cap = wbImport_flag(wbArg_getInputFile(args, 1));
  int *result = (int *)malloc(n * sizeof(int));

  int *d_values, *d_result;
  cudaMalloc(&d_values, n * sizeof(int));
  cudaMalloc(&d_result, n * sizeof(int));
  cudaMemcpy(d_values, values, n * sizeof(int), cudaMemcpyHostToDevice);
  clampKernel<<<(n + 127) / 128, 128>>>(d_values, d_result, n, cap);
  cudaDeviceSynchronize();
  cudaMemcpy(result, d_result, n * sizeof(int), cudaMemcpyDeviceToHost);

  wbSolution(args, result, n);
  cudaFree(d_values);
  cudaFree(d_result);
  free(values);
  free(result);
  return 0;
}
