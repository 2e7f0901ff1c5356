// ClampToLimit: every whole number of the input above the limit (the
// second input, a file of one number) becomes the limit.
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

__global__ void clampToLimit(const int *values, int *clamped, int count, int limit) {
  //@@ One value per thread
}

int main(int argc, char *argv[]) {
  wbArg_t arg = wbArg_read(argc, argv);
  int count;

  wbTime_start(IO, "Reading the values and the limit");
  int *hostValues = (int *)wbImport(wbArg_getInputFile(arg, 0), &count, "Integer");
  int limit = wbImport_flag(wbArg_getInputFile(arg, 1));
  wbTime_stop(IO, "Reading the values and the limit");
  wbLog(INFO, count, " values, limit ", limit);
  int *hostClamped = (int *)malloc(count * sizeof(int));

  int *devValues, *devClamped;
  wbTime_start(GPU, "Device memory");
  //@@ Allocate devValues and devClamped, copy the values
  wbTime_stop(GPU, "Device memory");

  wbTime_start(Compute, "clampToLimit");
  //@@ Enough blocks of 256 threads for count values
  wbTime_stop(Compute, "clampToLimit");

  wbTime_start(Copy, "The clamped values to the host");
  //@@ Copy devClamped back
  wbTime_stop(Copy, "The clamped values to the host");

  wbSolution(arg, hostClamped, count);

  cudaFree(devValues);
  cudaFree(devClamped);
  free(hostValues);
  free(hostClamped);
  return 0;
}
