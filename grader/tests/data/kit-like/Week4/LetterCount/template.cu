// LetterCount: how many times each of the 128 ASCII codes occurs in a text.
// Each block counts its part of the text in shared memory, then adds its
// counts to the global ones.
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

#define NUM_CODES 128
#define BLOCK_SIZE 256

__global__ void countCodes(const char *text, int length, unsigned int *counts) {
  //@@ Zero the block's counts, wait, count a strided share of the text, wait, add to counts
}

int main(int argc, char *argv[]) {
  wbArg_t arg = wbArg_read(argc, argv);
  int length;

  wbTime_start(IO, "Reading the text");
  char *hostText = (char *)wbImport(wbArg_getInputFile(arg, 0), &length, "Text");
  wbTime_stop(IO, "Reading the text");
  wbLog(INFO, "The text has ", length, " characters");
  unsigned int *hostCounts = (unsigned int *)malloc(NUM_CODES * sizeof(unsigned int));

  char *devText;
  unsigned int *devCounts;
  wbTime_start(GPU, "Device memory");
  //@@ Allocate devText and devCounts, copy the text, zero the counts
  wbTime_stop(GPU, "Device memory");

  wbTime_start(Compute, "countCodes");
  //@@ Launch at most 32 blocks of BLOCK_SIZE threads
  wbTime_stop(Compute, "countCodes");

  wbTime_start(Copy, "The counts to the host");
  //@@ Copy the counts back
  wbTime_stop(Copy, "The counts to the host");

  wbSolution(arg, hostCounts, NUM_CODES);

  cudaFree(devText);
  cudaFree(devCounts);
  free(hostText);
  free(hostCounts);
  return 0;
}
