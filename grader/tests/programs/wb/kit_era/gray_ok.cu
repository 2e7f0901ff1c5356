// Kit-era student program for the GrayImage lab (kit-like/Week2), written
// for the kit's tests: correct, a 2D grid of 32 x 32 blocks, libgputk's
// names (gputk.h) as later course years had them.
#include <gputk.h>

#define CHANNELS 3

__global__ void colorConvert(float *grayImage, float *rgbImage, int width, int height) {
  int x = threadIdx.x + blockIdx.x * blockDim.x;
  int y = threadIdx.y + blockIdx.y * blockDim.y;
  if (x < width && y < height) {
    int grayOffset = y * width + x;
    int rgbOffset = grayOffset * CHANNELS;
    float r = rgbImage[rgbOffset];
    float g = rgbImage[rgbOffset + 1];
    float b = rgbImage[rgbOffset + 2];
    grayImage[grayOffset] = 0.21f * r + 0.71f * g + 0.07f * b;
  }
}

int main(int argc, char *argv[]) {
  gpuTKArg_t args = gpuTKArg_read(argc, argv);
  char *inputImageFile = gpuTKArg_getInputFile(args, 0);
  gpuTKImage_t inputImage = gpuTKImport(inputImageFile);
  int imageWidth = gpuTKImage_getWidth(inputImage);
  int imageHeight = gpuTKImage_getHeight(inputImage);
  gpuTKImage_t outputImage = gpuTKImage_new(imageWidth, imageHeight, 1);
  float *hostInputImageData = gpuTKImage_getData(inputImage);
  float *hostOutputImageData = gpuTKImage_getData(outputImage);

  float *deviceInputImageData, *deviceOutputImageData;
  gpuTKTime_start(GPU, "Doing GPU memory allocation");
  cudaMalloc((void **)&deviceInputImageData, imageWidth * imageHeight * CHANNELS * sizeof(float));
  cudaMalloc((void **)&deviceOutputImageData, imageWidth * imageHeight * sizeof(float));
  gpuTKTime_stop(GPU, "Doing GPU memory allocation");

  cudaMemcpy(deviceInputImageData, hostInputImageData, imageWidth * imageHeight * CHANNELS * sizeof(float),
             cudaMemcpyHostToDevice);

  dim3 dimGrid(ceil(imageWidth / 32.0), ceil(imageHeight / 32.0), 1);
  dim3 dimBlock(32, 32, 1);
  colorConvert<<<dimGrid, dimBlock>>>(deviceOutputImageData, deviceInputImageData, imageWidth, imageHeight);
  cudaDeviceSynchronize();

  cudaMemcpy(hostOutputImageData, deviceOutputImageData, imageWidth * imageHeight * sizeof(float),
             cudaMemcpyDeviceToHost);
  gpuTKSolution(args, outputImage);

  cudaFree(deviceInputImageData);
  cudaFree(deviceOutputImageData);
  gpuTKImage_delete(outputImage);
  gpuTKImage_delete(inputImage);
  return 0;
}
