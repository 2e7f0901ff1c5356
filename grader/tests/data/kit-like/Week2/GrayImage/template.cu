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
  wbTime_stop(GPU, "Device memory for both images");

  wbTime_start(Copy, "The image to the device");
  //@@ Copy the colour image's pixels to devColour
  wbTime_stop(Copy, "The image to the device");

  wbTime_start(Compute, "toGray");
  //@@ A 2D grid of BLOCK_SIDE x BLOCK_SIDE blocks over the image
  wbTime_stop(Compute, "toGray");

  wbTime_start(Copy, "The gray image to the host");
  //@@ Copy devGray into the gray image
  wbTime_stop(Copy, "The gray image to the host");

  wbSolution(arg, grayImage);

  cudaFree(devColour);
  cudaFree(devGray);
  wbImage_delete(colour);
  wbImage_delete(grayImage);
  return 0;
}
