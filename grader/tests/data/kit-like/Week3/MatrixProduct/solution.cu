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
  __shared__ float ds_A[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_B[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * TILE_WIDTH + ty;
  int Col = blockIdx.x * TILE_WIDTH + tx;
  float acc = 0.0f;
  int steps = (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH;
  for (int s = 0; s < steps; s++) {
    int aCol = s * TILE_WIDTH + tx, bRow = s * TILE_WIDTH + ty;
    ds_A[ty][tx] = (Row < numARows && aCol < numAColumns) ? A[Row * numAColumns + aCol] : 0.0f;
    ds_B[ty][tx] = (bRow < numAColumns && Col < numBColumns) ? B[bRow * numBColumns + Col] : 0.0f;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; k++)
      acc += ds_A[ty][k] * ds_B[k][tx];
    __syncthreads();
  }
  if (Row < numARows && Col < numBColumns)
    C[Row * numBColumns + Col] = acc;
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
  wbCheck(cudaMalloc((void **)&devA, numARows * numAColumns * sizeof(float)));
  wbCheck(cudaMalloc((void **)&devB, numBRows * numBColumns * sizeof(float)));
  wbCheck(cudaMalloc((void **)&devC, numCRows * numCColumns * sizeof(float)));
  wbTime_stop(GPU, "Device memory for A, B and C");

  wbTime_start(Copy, "A and B to the device");
  //@@ Copy A and B to the device
  wbCheck(cudaMemcpy(devA, hostA, numARows * numAColumns * sizeof(float), cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(devB, hostB, numBRows * numBColumns * sizeof(float), cudaMemcpyHostToDevice));
  wbTime_stop(Copy, "A and B to the device");

  wbTime_start(Compute, "tiledProduct");
  //@@ One block per TILE_WIDTH x TILE_WIDTH tile of C, the partial ones included
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH);
  dim3 dimGrid((numCColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numCRows + TILE_WIDTH - 1) / TILE_WIDTH);
  tiledProduct<<<dimGrid, dimBlock>>>(devA, devB, devC, numARows, numAColumns, numBColumns);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "tiledProduct");

  wbTime_start(Copy, "C to the host");
  //@@ Copy C back to hostC
  wbCheck(cudaMemcpy(hostC, devC, numCRows * numCColumns * sizeof(float), cudaMemcpyDeviceToHost));
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
