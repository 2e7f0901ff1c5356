// MatrixProduct: C = A B with TILE_WIDTH x TILE_WIDTH tiles of A and B in
// shared memory; any sizes, the edge tiles padded with zeros.
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

#define TILE_WIDTH 8

__global__ void tiledProduct(const float *A, const float *B, float *C, int numARows, int numAColumns,
                             int numBColumns) {
  //@@ Load a tile of A and one of B per step, wait, accumulate, wait
}

int main(int argc, char *argv[]) {
  wbArg_t arg = wbArg_read(argc, argv);
  int numARows, numAColumns, numBRows, numBColumns;

  wbTime_start(Generic, "Reading A and B");
  float *hostA = (float *)wbImport(wbArg_getInputFile(arg, 0), &numARows, &numAColumns);
  float *hostB = (float *)wbImport(wbArg_getInputFile(arg, 1), &numBRows, &numBColumns);
  wbTime_stop(Generic, "Reading A and B");
  if (numAColumns != numBRows) {
    wbLog(FATAL, "A has ", numAColumns, " columns but B has ", numBRows, " rows");
    return 1;
  }
  wbLog(TRACE, "A is ", numARows, " x ", numAColumns, ", B is ", numBRows, " x ", numBColumns);
  int numCRows = numARows, numCColumns = numBColumns;
  float *hostC = (float *)malloc(numCRows * numCColumns * sizeof(float));

  float *devA, *devB, *devC;
  wbTime_start(GPU, "Device memory for A, B and C");
  //@@ Allocate devA, devB and devC
  wbTime_stop(GPU, "Device memory for A, B and C");

  wbTime_start(Copy, "A and B to the device");
  //@@ Copy A and B to the device
  wbTime_stop(Copy, "A and B to the device");

  wbTime_start(Compute, "tiledProduct");
  //@@ One block per TILE_WIDTH x TILE_WIDTH tile of C, the partial ones included
  wbTime_stop(Compute, "tiledProduct");

  wbTime_start(Copy, "C to the host");
  //@@ Copy C back to hostC
  wbTime_stop(Copy, "C to the host");

  cudaFree(devA);
  cudaFree(devB);
  cudaFree(devC);

  wbSolution(arg, hostC, numCRows, numCColumns);

  free(hostA);
  free(hostB);
  free(hostC);
  return 0;
}
