// Kit-era student program for the ClampToLimit lab (kit-like/Week6),
// written for the kit's tests, with a bug: the grid is n / 128 blocks, so
// the last n % 128 values are never written.
#include <wb.h>

__global__ void clampKernel(int *data, int *result, int n, int cap) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) result[i] = data[i] > cap ? cap : data[i];
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
  clampKernel<<<n / 128, 128>>>(d_values, d_result, n, cap);
  cudaDeviceSynchronize();
  cudaMemcpy(result, d_result, n * sizeof(int), cudaMemcpyDeviceToHost);

  wbSolution(args, result, n);
  cudaFree(d_values);
  cudaFree(d_result);
  free(values);
  free(result);
  return 0;
}
