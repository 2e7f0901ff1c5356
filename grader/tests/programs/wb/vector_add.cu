// A Teaching Kit-style program: vector addition, one thread per element,
// written against libwb's API (wb.h); reads libwb's vector files (a length,
// then the values). Test material for gpulab wb (grader/tests/test_wb.py).
#include <wb.h>

#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "CUDA call ", #stmt, " failed: ", cudaGetErrorString(err));\
      return -1;                                                          \
    }                                                                     \
  } while (0)

__global__ void vecAdd(float *in1, float *in2, float *out, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len)
    out[i] = in1[i] + in2[i];
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int inputLength;
  float *hostInput1 = (float *)wbImport(wbArg_getInputFile(args, 0), &inputLength);
  float *hostInput2 = (float *)wbImport(wbArg_getInputFile(args, 1), &inputLength);
  float *hostOutput = (float *)malloc(inputLength * sizeof(float));
  wbLog(TRACE, "The input length is ", inputLength);

  float *deviceInput1, *deviceInput2, *deviceOutput;
  wbCheck(cudaMalloc((void **)&deviceInput1, inputLength * sizeof(float)));
  wbCheck(cudaMalloc((void **)&deviceInput2, inputLength * sizeof(float)));
  wbCheck(cudaMalloc((void **)&deviceOutput, inputLength * sizeof(float)));
  wbCheck(cudaMemcpy(deviceInput1, hostInput1, inputLength * sizeof(float), cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceInput2, hostInput2, inputLength * sizeof(float), cudaMemcpyHostToDevice));

  wbTime_start(Compute, "Performing CUDA computation");
  vecAdd<<<(inputLength + 255) / 256, 256>>>(deviceInput1, deviceInput2, deviceOutput, inputLength);
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Performing CUDA computation");

  wbCheck(cudaMemcpy(hostOutput, deviceOutput, inputLength * sizeof(float), cudaMemcpyDeviceToHost));
  wbSolution(args, hostOutput, inputLength);

  cudaFree(deviceInput1);
  cudaFree(deviceInput2);
  cudaFree(deviceOutput);
  free(hostInput1);
  free(hostInput2);
  free(hostOutput);
  return 0;
}
