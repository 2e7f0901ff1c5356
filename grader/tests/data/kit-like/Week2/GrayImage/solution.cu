// GrayImage: an RGB image to one channel of luminance,
// gray = 0.21 red + 0.71 green + 0.07 blue, one thread per pixel.
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

#define BLOCK_SIDE 16

__global__ void toGray(const float *rgb, float *gray, int width, int height) {
  //@@ One pixel per thread: its three channels in, one value out
  int Col = blockIdx.x * blockDim.x + threadIdx.x;
  int Row = blockIdx.y * blockDim.y + threadIdx.y;
  if (Col < width && Row < height) {
    int pixel = Row * width + Col;
    float red = rgb[3 * pixel];
    float green = rgb[3 * pixel + 1];
    float blue = rgb[3 * pixel + 2];
    gray[pixel] = 0.21f * red + 0.71f * green + 0.07f * blue;
  }
}

int main(int argc, char *argv[]) {
  wbArg_t arg = wbArg_read(argc, argv);

  wbTime_start(IO, "Reading the image");
  wbImage_t colour = wbImport(wbArg_getInputFile(arg, 0));
  wbTime_stop(IO, "Reading the image");
  int width = wbImage_getWidth(colour);
  int height = wbImage_getHeight(colour);
  wbAssert(wbImage_getChannels(colour) == 3);
  wbLog(DEBUG, "The image is ", width, " x ", height);
  wbImage_t grayImage = wbImage_new(width, height, 1);

  float *devColour, *devGray;
  size_t pixels = (size_t)width * height;
  wbTime_start(GPU, "Device memory for both images");
  //@@ Allocate devColour (3 floats a pixel) and devGray (1 a pixel)
  wbCheck(cudaMalloc((void **)&devColour, pixels * 3 * sizeof(float)));
  wbCheck(cudaMalloc((void **)&devGray, pixels * sizeof(float)));
  wbTime_stop(GPU, "Device memory for both images");

  wbTime_start(Copy, "The image to the device");
  //@@ Copy the colour image's pixels to devColour
  wbCheck(cudaMemcpy(devColour, wbImage_getData(colour), pixels * 3 * sizeof(float),
                     cudaMemcpyHostToDevice));
  wbTime_stop(Copy, "The image to the device");

  wbTime_start(Compute, "toGray");
  //@@ A 2D grid of BLOCK_SIDE x BLOCK_SIDE blocks over the image
  dim3 threads(BLOCK_SIDE, BLOCK_SIDE);
  dim3 blocks((width + BLOCK_SIDE - 1) / BLOCK_SIDE, (height + BLOCK_SIDE - 1) / BLOCK_SIDE);
  toGray<<<blocks, threads>>>(devColour, devGray, width, height);
  wbCheck(cudaGetLastError());
  wbCheck(cudaDeviceSynchronize());
  wbTime_stop(Compute, "toGray");

  wbTime_start(Copy, "The gray image to the host");
  //@@ Copy devGray into the gray image
  wbCheck(cudaMemcpy(wbImage_getData(grayImage), devGray, pixels * sizeof(float),
                     cudaMemcpyDeviceToHost));
  wbTime_stop(Copy, "The gray image to the host");

  wbSolution(arg, grayImage);

  cudaFree(devColour);
  cudaFree(devGray);
  wbImage_delete(colour);
  wbImage_delete(grayImage);
  return 0;
}
