// Basic matrix multiplication written the way students write Teaching Kit
// labs for nvcc: CUDA's headers included beside wb.h (__CUDACC__ defined
// first, as one student did), assert() and std::vector with no include of
// their own (libwb's wb.h brings them), a dim3 named blockDim and one named
// gridDim in main, and main() ending without a return. Test material for
// gpulab wb and import-wb (grader/tests/test_wb.py).
#define __CUDACC__
#include <cuda.h>
#include <cuda_runtime.h>
#include <cuda_runtime_api.h>
#include <device_launch_parameters.h>
#include <device_functions.h>
#include <wb.h>

#define wbCheck(stmt)                                                  \
  do {                                                                 \
    cudaError_t err = stmt;                                            \
    if (err != cudaSuccess) {                                          \
      wbLog(ERROR, "CUDA call failed: ", #stmt, ": ",                  \
            cudaGetErrorString(err));                                  \
      return -1;                                                       \
    }                                                                  \
  } while (0)

__global__ void matrixMultiply(const float *A, const float *B, float *C,
                               int numARows, int numAColumns,
                               int numBColumns) {
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  if (row < numARows && col < numBColumns) {
    float acc = 0.0f;
    for (int k = 0; k < numAColumns; ++k)
      acc += A[row * numAColumns + k] * B[k * numBColumns + col];
    C[row * numBColumns + col] = acc;
  }
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numARows, numAColumns, numBRows, numBColumns;
  float *hostA = (float *)wbImport(wbArg_getInputFile(args, 0), &numARows,
                                   &numAColumns);
  float *hostB = (float *)wbImport(wbArg_getInputFile(args, 1), &numBRows,
                                   &numBColumns);
  assert(numAColumns == numBRows);
  std::vector<float> hostC((size_t)numARows * numBColumns);
  size_t sizeA = sizeof(float) * numARows * numAColumns;
  size_t sizeB = sizeof(float) * numBRows * numBColumns;
  size_t sizeC = sizeof(float) * hostC.size();

  float *deviceA, *deviceB, *deviceC;
  wbCheck(cudaMalloc((void **)&deviceA, sizeA));
  wbCheck(cudaMalloc((void **)&deviceB, sizeB));
  wbCheck(cudaMalloc((void **)&deviceC, sizeC));
  wbCheck(cudaMemcpy(deviceA, hostA, sizeA, cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpy(deviceB, hostB, sizeB, cudaMemcpyHostToDevice));

  dim3 blockDim(16, 16);
  dim3 gridDim((numBColumns + blockDim.x - 1) / blockDim.x,
               (numARows + blockDim.y - 1) / blockDim.y);
  wbTime_start(Compute, "Performing CUDA computation");
  matrixMultiply<<<gridDim, blockDim>>>(deviceA, deviceB, deviceC, numARows,
                                        numAColumns, numBColumns);
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Performing CUDA computation");
  wbCheck(cudaMemcpy(hostC.data(), deviceC, sizeC, cudaMemcpyDeviceToHost));

  cudaFree(deviceA);
  cudaFree(deviceB);
  cudaFree(deviceC);
  wbSolution(args, hostC.data(), numARows, numBColumns);
  free(hostA);
  free(hostB);
}
