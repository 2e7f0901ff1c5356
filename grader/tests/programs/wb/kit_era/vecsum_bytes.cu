// Kit-era student program for the VectorSum lab (kit-like/Week1), written
// for the kit's tests, with a bug: the kernel's length is the size in
// bytes, so the bounds test lets threads past the end write (and read)
// outside the buffers.
#include <wb.h>

__global__ void vecAdd(float *in1, float *in2, float *out, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < len) {
    out[i] = in1[i] + in2[i];
  }
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int inputLength;
  float *hostInput1 = (float *)wbImport(wbArg_getInputFile(args, 0), &inputLength);
  float *hostInput2 = (float *)wbImport(wbArg_getInputFile(args, 1), &inputLength);
  float *hostOutput = (float *)malloc(inputLength * sizeof(float));
  int bytes = inputLength * sizeof(float);

  float *d1, *d2, *d3;
  cudaMalloc(&d1, bytes);
  cudaMalloc(&d2, bytes);
  cudaMalloc(&d3, bytes);
  cudaMemcpy(d1, hostInput1, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(d2, hostInput2, bytes, cudaMemcpyHostToDevice);

  int threads = 512;
  int blocks = (bytes + threads - 1) / threads; // enough blocks for everything
  wbTime_start(Compute, "vecAdd");
  vecAdd<<<blocks, threads>>>(d1, d2, d3, bytes);
  cudaDeviceSynchronize();
  wbTime_stop(Compute, "vecAdd");

  cudaMemcpy(hostOutput, d3, bytes, cudaMemcpyDeviceToHost);
  wbSolution(args, hostOutput, inputLength);

  cudaFree(d1);
  cudaFree(d2);
  cudaFree(d3);
  free(hostInput1);
  free(hostInput2);
  free(hostOutput);
  return 0;
}
