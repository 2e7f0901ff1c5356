// Kit-era student program for the MatrixProduct lab (kit-like/Week3),
// written for the kit's tests: a correct tiled product (16 x 16 tiles) that
// waits with cudaThreadSynchronize() and ends with cudaThreadExit(), both
// removed in CUDA 13.
#include <wb.h>

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(float *A, float *B, float *C, int numARows, int numAColumns,
                                     int numBRows, int numBColumns, int numCRows, int numCColumns) {
  __shared__ float subTileM[TILE_WIDTH][TILE_WIDTH];
  __shared__ float subTileN[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;

  for (int m = 0; m < (numAColumns - 1) / TILE_WIDTH + 1; ++m) {
    if (Row < numARows && m * TILE_WIDTH + tx < numAColumns)
      subTileM[ty][tx] = A[Row * numAColumns + m * TILE_WIDTH + tx];
    else
      subTileM[ty][tx] = 0;
    if (Col < numBColumns && m * TILE_WIDTH + ty < numBRows)
      subTileN[ty][tx] = B[(m * TILE_WIDTH + ty) * numBColumns + Col];
    else
      subTileN[ty][tx] = 0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += subTileM[ty][k] * subTileN[k][tx];
    __syncthreads();
  }
  if (Row < numCRows && Col < numCColumns)
    C[Row * numCColumns + Col] = Pvalue;
}

int main(int argc, char **argv) {
  wbArg_t args;
  float *hostA, *hostB, *hostC;
  float *deviceA, *deviceB, *deviceC;
  int numARows, numAColumns, numBRows, numBColumns, numCRows, numCColumns;

  args = wbArg_read(argc, argv);
  hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows, &numAColumns);
  hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows, &numBColumns);
  numCRows = numARows;
  numCColumns = numBColumns;
  hostC = (float *)malloc(sizeof(float) * numCRows * numCColumns);
  wbLog(TRACE, "The dimensions of C are ", numCRows, " x ", numCColumns);

  cudaMalloc((void **)&deviceA, sizeof(float) * numARows * numAColumns);
  cudaMalloc((void **)&deviceB, sizeof(float) * numBRows * numBColumns);
  cudaMalloc((void **)&deviceC, sizeof(float) * numCRows * numCColumns);
  cudaMemcpy(deviceA, hostA, sizeof(float) * numARows * numAColumns, cudaMemcpyHostToDevice);
  cudaMemcpy(deviceB, hostB, sizeof(float) * numBRows * numBColumns, cudaMemcpyHostToDevice);

  dim3 dimGrid((numCColumns - 1) / TILE_WIDTH + 1, (numCRows - 1) / TILE_WIDTH + 1, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  wbTime_start(Compute, "Performing CUDA computation");
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBRows,
                                              numBColumns, numCRows, numCColumns);
  cudaThreadSynchronize();
  wbTime_stop(Compute, "Performing CUDA computation");

  cudaMemcpy(hostC, deviceC, sizeof(float) * numCRows * numCColumns, cudaMemcpyDeviceToHost);
  cudaFree(deviceA);
  cudaFree(deviceB);
  cudaFree(deviceC);

  wbSolution(args, hostC, numCRows, numCColumns);

  free(hostA);
  free(hostB);
  free(hostC);
  cudaThreadExit();
  return 0;
}
