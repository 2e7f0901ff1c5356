// A Teaching Kit-style program: the running total (inclusive scan) of a
// list, in three launches. Each block scans a section of 2 * BLOCK_SIZE
// values in shared memory (an up-sweep, then a down-sweep) and writes the
// section's total; one block then scans the whole array of totals, which
// has room for the longest list the lab takes, so that its slots past the
// last section are read though nothing stored them (their sums land only
// in slots nobody reads back); the last launch adds to each section the
// totals of the sections before it. Test material for gpulab's check of
// memory nothing stored (grader/tests/test_wb.py): a read whose value
// cannot reach the output is a note, not a mistake.
#include <wb.h>

#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "CUDA call ", #stmt, " failed: ", cudaGetErrorString(err));\
      return -1;                                                          \
    }                                                                     \
  } while (0)

#define BLOCK_SIZE 256
#define SECTION (2 * BLOCK_SIZE)

__global__ void sectionScan(float *input, float *output, float *sectionTotals, int len) {
  __shared__ float ds_part[SECTION];
  int t = threadIdx.x;
  int base = blockIdx.x * SECTION;
  ds_part[t] = base + t < len ? input[base + t] : 0.0f;
  ds_part[BLOCK_SIZE + t] = base + BLOCK_SIZE + t < len ? input[base + BLOCK_SIZE + t] : 0.0f;
  // up-sweep: each step adds pairs twice as far apart
  for (int stride = 1; stride <= BLOCK_SIZE; stride *= 2) {
    __syncthreads();
    int k = (t + 1) * 2 * stride - 1;
    if (k < SECTION)
      ds_part[k] += ds_part[k - stride];
  }
  // down-sweep: carries the partial sums to the slots in between
  for (int stride = BLOCK_SIZE / 2; stride > 0; stride /= 2) {
    __syncthreads();
    int k = (t + 1) * 2 * stride - 1;
    if (k + stride < SECTION)
      ds_part[k + stride] += ds_part[k];
  }
  __syncthreads();
  if (base + t < len)
    output[base + t] = ds_part[t];
  if (base + BLOCK_SIZE + t < len)
    output[base + BLOCK_SIZE + t] = ds_part[BLOCK_SIZE + t];
  if (t == 0 && sectionTotals)
    sectionTotals[blockIdx.x] = ds_part[SECTION - 1];
}

__global__ void addTotals(float *output, float *scannedTotals, int len) {
  int i = blockIdx.x * SECTION + threadIdx.x;
  if (blockIdx.x > 0 && i < len)
    output[i] += scannedTotals[blockIdx.x - 1];
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  int numElements;
  float *hostInput = (float *)wbImport(wbArg_getInputFile(args, 0), &numElements);
  float *hostOutput = (float *)malloc(numElements * sizeof(float));
  int numSections = (numElements + SECTION - 1) / SECTION;
  wbLog(TRACE, "The list has ", numElements, " values in ", numSections, " sections");
  if (numSections > SECTION) {
    wbLog(ERROR, "at most ", SECTION * SECTION, " values");
    return -1;
  }

  float *deviceInput, *deviceOutput, *deviceTotals;
  wbCheck(cudaMalloc((void **)&deviceInput, numElements * sizeof(float)));
  wbCheck(cudaMalloc((void **)&deviceOutput, numElements * sizeof(float)));
  // a total for each section of the longest list the program takes
  wbCheck(cudaMalloc((void **)&deviceTotals, SECTION * sizeof(float)));
  wbCheck(cudaMemcpy(deviceInput, hostInput, numElements * sizeof(float), cudaMemcpyHostToDevice));

  wbTime_start(Compute, "Performing CUDA computation");
  sectionScan<<<numSections, BLOCK_SIZE>>>(deviceInput, deviceOutput, deviceTotals, numElements);
  sectionScan<<<1, BLOCK_SIZE>>>(deviceTotals, deviceTotals, NULL, SECTION);
  addTotals<<<numSections, SECTION>>>(deviceOutput, deviceTotals, numElements);
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Performing CUDA computation");

  wbCheck(cudaMemcpy(hostOutput, deviceOutput, numElements * sizeof(float), cudaMemcpyDeviceToHost));
  wbSolution(args, hostOutput, numElements);

  cudaFree(deviceInput);
  cudaFree(deviceOutput);
  cudaFree(deviceTotals);
  free(hostInput);
  free(hostOutput);
  return 0;
}
