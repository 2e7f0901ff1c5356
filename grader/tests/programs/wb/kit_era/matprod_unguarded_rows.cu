// Kit-era student program for the MatrixProduct lab (kit-like/Week3),
// written for the kit's tests, with a bug: the tile loads test only the
// shared dimension, not Row < numARows or Col < numBColumns, so the last
// partial tiles read past the ends of A and B.
#include <wb.h>

#define TILE_WIDTH 16

__global__ void matrixMultiplyShared(float *A, float *B, float *C, int numARows, int numAColumns,
                                     int numBColumns) {
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = blockIdx.y * TILE_WIDTH + ty;
  int Col = blockIdx.x * TILE_WIDTH + tx;
  float Pvalue = 0;
  for (int ph = 0; ph < (numAColumns + TILE_WIDTH - 1) / TILE_WIDTH; ++ph) {
    if (ph * TILE_WIDTH + tx < numAColumns)
      ds_M[ty][tx] = A[Row * numAColumns + ph * TILE_WIDTH + tx];
    else
      ds_M[ty][tx] = 0.0;
    if (ph * TILE_WIDTH + ty < numAColumns)
      ds_N[ty][tx] = B[(ph * TILE_WIDTH + ty) * numBColumns + Col];
    else
      ds_N[ty][tx] = 0.0;
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += ds_M[ty][k] * ds_N[k][tx];
    __syncthreads();
  }
  if (Row < numARows && Col < numBColumns)
    C[Row * numBColumns + Col] = Pvalue;
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numARows, numAColumns, numBRows, numBColumns;
  float *hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows, &numAColumns);
  float *hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows, &numBColumns);
  float *hostC = (float *)malloc(numARows * numBColumns * sizeof(float));
  float *deviceA, *deviceB, *deviceC;

  wbTime_start(GPU, "Allocating GPU memory.");
  cudaMalloc((void **)&deviceA, numARows * numAColumns * sizeof(float));
  cudaMalloc((void **)&deviceB, numBRows * numBColumns * sizeof(float));
  cudaMalloc((void **)&deviceC, numARows * numBColumns * sizeof(float));
  wbTime_stop(GPU, "Allocating GPU memory.");
  cudaMemcpy(deviceA, hostA, numARows * numAColumns * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(deviceB, hostB, numBRows * numBColumns * sizeof(float), cudaMemcpyHostToDevice);

  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  dim3 dimGrid((numBColumns + TILE_WIDTH - 1) / TILE_WIDTH, (numARows + TILE_WIDTH - 1) / TILE_WIDTH, 1);
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(deviceA, deviceB, deviceC, numARows, numAColumns, numBColumns);
  cudaDeviceSynchronize();

  cudaMemcpy(hostC, deviceC, numARows * numBColumns * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(deviceA);
  cudaFree(deviceB);
  cudaFree(deviceC);

  wbSolution(args, hostC, numARows, numBColumns);
  free(hostA);
  free(hostB);
  free(hostC);
  return 0;
}
