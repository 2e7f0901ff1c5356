// Lab 02 written the way a Teaching Kit course writes its files: libwb's
// logs and timers (wb.h) in the entry point, a wbCheck macro of its own,
// camelCase host names. The lab's harness owns main() and the files, so
// there is no wbArg_read, wbImport or wbSolution: tiled_matmul() is given
// device pointers and only launches the kernel. Test material for
// grader/tests/test_wb_labs.py.
#include "lab.h"
#include "wb.h"

// The Kit's usual check, ending the entry point (it returns nothing) where
// the Kit's main() would return -1.
#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "CUDA call ", #stmt, " failed: ", cudaGetErrorString(err));\
      return;                                                             \
    }                                                                     \
  } while (0)

#define TILE_WIDTH 16

// Each block computes one TILE_WIDTH x TILE_WIDTH tile of P, one phase per
// pair of tiles of M and N, through shared memory.
__global__ void matrixMultiplyShared(const float *M, const float *N, float *P,
                                     int Width) {
  __shared__ float ds_M[TILE_WIDTH][TILE_WIDTH];
  __shared__ float ds_N[TILE_WIDTH][TILE_WIDTH];

  int bx = blockIdx.x, by = blockIdx.y;
  int tx = threadIdx.x, ty = threadIdx.y;
  int Row = by * TILE_WIDTH + ty;
  int Col = bx * TILE_WIDTH + tx;
  float Pvalue = 0;

  for (int ph = 0; ph < Width / TILE_WIDTH; ++ph) {
    ds_M[ty][tx] = M[Row * Width + ph * TILE_WIDTH + tx];
    ds_N[ty][tx] = N[(ph * TILE_WIDTH + ty) * Width + Col];
    __syncthreads();
    for (int k = 0; k < TILE_WIDTH; ++k)
      Pvalue += ds_M[ty][k] * ds_N[k][tx];
    __syncthreads();
  }
  P[Row * Width + Col] = Pvalue;
}

void tiled_matmul(const float *M, const float *N, float *P, int width) {
  wbLog(TRACE, "The dimensions of M and N are ", width, " x ", width);
  wbAssertMessage("width must be a multiple of TILE_WIDTH",
                  width % TILE_WIDTH == 0);

  dim3 dimGrid(width / TILE_WIDTH, width / TILE_WIDTH, 1);
  dim3 dimBlock(TILE_WIDTH, TILE_WIDTH, 1);
  wbLog(TRACE, "Grid of ", dimGrid.x, " x ", dimGrid.y, " blocks of ",
        TILE_WIDTH, " x ", TILE_WIDTH, " threads");

  wbTime_start(Compute, "Performing CUDA computation");
  matrixMultiplyShared<<<dimGrid, dimBlock>>>(M, N, P, width);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Performing CUDA computation");
}
