// A Teaching Kit-style program: 2D image convolution with a 5x5 mask in
// constant memory and an input tile with its halo in shared memory, written
// against libwb's API (wb.h). Test material for gpulab wb
// (grader/tests/test_wb.py).
#include <wb.h>

#define wbCheck(stmt)                                                     \
  do {                                                                    \
    cudaError_t err = stmt;                                               \
    if (err != cudaSuccess) {                                             \
      wbLog(ERROR, "CUDA call ", #stmt, " failed: ", cudaGetErrorString(err));\
      return -1;                                                          \
    }                                                                     \
  } while (0)

#define Mask_width 5
#define Mask_radius (Mask_width / 2)
#define O_TILE_WIDTH 12
#define BLOCK_WIDTH (O_TILE_WIDTH + Mask_width - 1)

__constant__ float M[Mask_width * Mask_width];

__device__ float clamp01(float x) { return fminf(fmaxf(x, 0.0f), 1.0f); }

// One block per output tile and channel: every thread loads one input pixel
// of the tile's halo region; the inner O_TILE_WIDTH x O_TILE_WIDTH threads
// compute one output pixel each.
__global__ void convolution(float *I, float *P, int channels, int width,
                            int height) {
  __shared__ float N_ds[BLOCK_WIDTH][BLOCK_WIDTH];
  int tx = threadIdx.x, ty = threadIdx.y, k = blockIdx.z;
  int row_o = blockIdx.y * O_TILE_WIDTH + ty;
  int col_o = blockIdx.x * O_TILE_WIDTH + tx;
  int row_i = row_o - Mask_radius;
  int col_i = col_o - Mask_radius;

  if (row_i >= 0 && row_i < height && col_i >= 0 && col_i < width)
    N_ds[ty][tx] = I[(row_i * width + col_i) * channels + k];
  else
    N_ds[ty][tx] = 0.0f;
  __syncthreads();

  if (tx < O_TILE_WIDTH && ty < O_TILE_WIDTH && row_o < height &&
      col_o < width) {
    float output = 0.0f;
    for (int i = 0; i < Mask_width; i++)
      for (int j = 0; j < Mask_width; j++)
        output += M[i * Mask_width + j] * N_ds[ty + i][tx + j];
    P[(row_o * width + col_o) * channels + k] = clamp01(output);
  }
}

int main(int argc, char *argv[]) {
  wbArg_t args;
  int maskRows, maskColumns;
  int imageChannels, imageWidth, imageHeight;
  char *inputImageFile, *inputMaskFile;
  wbImage_t inputImage, outputImage;
  float *hostInputImageData, *hostOutputImageData, *hostMaskData;
  float *deviceInputImageData, *deviceOutputImageData;

  args = wbArg_read(argc, argv);

  inputImageFile = wbArg_getInputFile(args, 0);
  inputMaskFile = wbArg_getInputFile(args, 1);

  inputImage = wbImport(inputImageFile);
  hostMaskData = (float *)wbImport(inputMaskFile, &maskRows, &maskColumns);

  if (maskRows != Mask_width || maskColumns != Mask_width) {
    wbLog(ERROR, "The mask is ", maskRows, " x ", maskColumns,
          "; this program expects ", Mask_width, " x ", Mask_width);
    return -1;
  }

  imageWidth = wbImage_getWidth(inputImage);
  imageHeight = wbImage_getHeight(inputImage);
  imageChannels = wbImage_getChannels(inputImage);
  // the Kit's own habit: assert() with no include of <assert.h> (wb.h brings it)
  assert(imageChannels == 3);

  outputImage = wbImage_new(imageWidth, imageHeight, imageChannels);

  hostInputImageData = wbImage_getData(inputImage);
  hostOutputImageData = wbImage_getData(outputImage);

  size_t bytes = imageWidth * imageHeight * imageChannels * sizeof(float);

  wbTime_start(GPU, "Doing GPU memory allocation");
  wbCheck(cudaMalloc((void **)&deviceInputImageData, bytes));
  wbCheck(cudaMalloc((void **)&deviceOutputImageData, bytes));
  wbTime_stop(GPU, "Doing GPU memory allocation");

  wbTime_start(Copy, "Copying data to the GPU");
  wbCheck(cudaMemcpy(deviceInputImageData, hostInputImageData, bytes,
                     cudaMemcpyHostToDevice));
  wbCheck(cudaMemcpyToSymbol(M, hostMaskData,
                             Mask_width * Mask_width * sizeof(float)));
  wbTime_stop(Copy, "Copying data to the GPU");

  wbTime_start(Compute, "Doing the computation on the GPU");
  dim3 dimGrid((imageWidth + O_TILE_WIDTH - 1) / O_TILE_WIDTH,
               (imageHeight + O_TILE_WIDTH - 1) / O_TILE_WIDTH, imageChannels);
  dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH, 1);
  convolution<<<dimGrid, dimBlock>>>(deviceInputImageData,
                                     deviceOutputImageData, imageChannels,
                                     imageWidth, imageHeight);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "Doing the computation on the GPU");

  wbTime_start(Copy, "Copying data from the GPU");
  wbCheck(cudaMemcpy(hostOutputImageData, deviceOutputImageData, bytes,
                     cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "Copying data from the GPU");

  wbSolution(args, outputImage);

  cudaFree(deviceInputImageData);
  cudaFree(deviceOutputImageData);

  free(hostMaskData);
  wbImage_delete(outputImage);
  wbImage_delete(inputImage);

  return 0;
}
