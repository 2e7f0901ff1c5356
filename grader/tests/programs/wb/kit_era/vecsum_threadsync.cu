// Kit-era student program for the VectorSum lab (kit-like/Week1), written
// for the kit's tests: correct, in the CUDA 8 habit of ending the launch
// with cudaThreadSynchronize(), which CUDA 13 removed (wb.h runs it as
// cudaDeviceSynchronize(), with a note in the report).
#include <wb.h>

__global__ void add(float *x, float *y, float *z, int len) {
  int i = threadIdx.x + blockDim.x * blockIdx.x;
  if (i < len) z[i] = x[i] + y[i];
}

int main(int argc, char **argv) {
  wbArg_t args;
  int inputLength;
  float *hostInput1, *hostInput2, *hostOutput;
  float *deviceInput1, *deviceInput2, *deviceOutput;

  args = wbArg_read(argc, argv);

  wbTime_start(Generic, "load inputs");
  hostInput2 = (float *)wbImport(wbArg_getInputFile(args, 1), &inputLength);
  hostInput1 = (float *)wbImport(wbArg_getInputFile(args, 0), &inputLength);
  wbTime_stop(Generic, "load inputs");
  hostOutput = (float *)malloc(inputLength * sizeof(float));

  wbLog(TRACE, "length: ", inputLength);

  int size = inputLength * sizeof(float);
  cudaMalloc((void **)&deviceInput1, size);
  cudaMalloc((void **)&deviceInput2, size);
  cudaMalloc((void **)&deviceOutput, size);

  cudaMemcpy(deviceInput1, hostInput1, size, cudaMemcpyHostToDevice);
  cudaMemcpy(deviceInput2, hostInput2, size, cudaMemcpyHostToDevice);

  // 256 threads, round up
  dim3 DimGrid((inputLength - 1) / 256 + 1, 1, 1);
  dim3 DimBlock(256, 1, 1);

  wbTime_start(Compute, "Performing CUDA computation");
  add<<<DimGrid, DimBlock>>>(deviceInput1, deviceInput2, deviceOutput, inputLength);
  cudaThreadSynchronize();
  wbTime_stop(Compute, "Performing CUDA computation");

  cudaMemcpy(hostOutput, deviceOutput, size, cudaMemcpyDeviceToHost);

  cudaFree(deviceInput1);
  cudaFree(deviceInput2);
  cudaFree(deviceOutput);

  wbSolution(args, hostOutput, inputLength);
  free(hostOutput);
  free(hostInput2);
  free(hostInput1);
  return 0;
}
