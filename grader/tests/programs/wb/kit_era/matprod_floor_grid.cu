// Kit-era student program for the MatrixProduct lab (kit-like/Week3),
// written for the kit's tests, with a bug: the grid is numCColumns /
// TILE_WIDTH by numCRows / TILE_WIDTH in integer division, so where a size
// is not a multiple of the tile the last partial tiles are never computed.
#include <wb.h>

#define TILE_WIDTH 8

__global__ void matMul(float *A, float *B, float *C, int M, int K, int N) {
  __shared__ float As[TILE_WIDTH][TILE_WIDTH];
  __shared__ float Bs[TILE_WIDTH][TILE_WIDTH];
  int row = blockIdx.y * TILE_WIDTH + threadIdx.y;
  int col = blockIdx.x * TILE_WIDTH + threadIdx.x;
  float sum = 0.0f;
  for (int p = 0; p < (K + TILE_WIDTH - 1) / TILE_WIDTH; p++) {
    int ac = p * TILE_WIDTH + threadIdx.x;
    int br = p * TILE_WIDTH + threadIdx.y;
    As[threadIdx.y][threadIdx.x] = (row < M && ac < K) ? A[row * K + ac] : 0.0f;
    Bs[threadIdx.y][threadIdx.x] = (br < K && col < N) ? B[br * N + col] : 0.0f;
    __syncthreads();
    for (int q = 0; q < TILE_WIDTH; q++)
      sum += As[threadIdx.y][q] * Bs[q][threadIdx.x];
    __syncthreads();
  }
  if (row < M && col < N)
    C[row * N + col] = sum;
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numARows, numAColumns, numBRows, numBColumns;
  float *hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows, &numAColumns);
  float *hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows, &numBColumns);
  int numCRows = numARows, numCColumns = numBColumns;
  float *hostC = (float *)malloc(numCRows * numCColumns * sizeof(float));

  float *dA, *dB, *dC;
  cudaMalloc(&dA, numARows * numAColumns * sizeof(float));
  cudaMalloc(&dB, numBRows * numBColumns * sizeof(float));
  cudaMalloc(&dC, numCRows * numCColumns * sizeof(float));
  cudaMemcpy(dA, hostA, numARows * numAColumns * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dB, hostB, numBRows * numBColumns * sizeof(float), cudaMemcpyHostToDevice);

  dim3 grid(ceil(numCColumns / TILE_WIDTH), ceil(numCRows / TILE_WIDTH));
  dim3 block(TILE_WIDTH, TILE_WIDTH);
  matMul<<<grid, block>>>(dA, dB, dC, numARows, numAColumns, numBColumns);
  cudaDeviceSynchronize();

  cudaMemcpy(hostC, dC, numCRows * numCColumns * sizeof(float), cudaMemcpyDeviceToHost);
  wbSolution(args, hostC, numCRows, numCColumns);

  cudaFree(dA);
  cudaFree(dB);
  cudaFree(dC);
  free(hostA);
  free(hostB);
  free(hostC);
  return 0;
}
