// Kit-era student program for the GrayImage lab (kit-like/Week2), written
// for the kit's tests, with a bug: the pixel's index uses the height as the
// row length (y * height + x), right only for a square image.
#include <wb.h>

__global__ void rgb2gray(float *in, float *out, int w, int h) {
  int col = blockIdx.x * blockDim.x + threadIdx.x;
  int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (col < w && row < h) {
    int idx = row * h + col;
    out[idx] = 0.21f * in[3 * idx] + 0.71f * in[3 * idx + 1] + 0.07f * in[3 * idx + 2];
  }
}

int main(int argc, char **argv) {
  wbArg_t args = wbArg_read(argc, argv);
  wbImage_t input = wbImport(wbArg_getInputFile(args, 0));
  int w = wbImage_getWidth(input), h = wbImage_getHeight(input);
  wbImage_t output = wbImage_new(w, h, 1);

  float *d_in, *d_out;
  cudaMalloc(&d_in, w * h * 3 * sizeof(float));
  cudaMalloc(&d_out, w * h * sizeof(float));
  cudaMemcpy(d_in, wbImage_getData(input), w * h * 3 * sizeof(float), cudaMemcpyHostToDevice);

  dim3 block(16, 16);
  dim3 grid((w + 15) / 16, (h + 15) / 16);
  rgb2gray<<<grid, block>>>(d_in, d_out, w, h);
  cudaDeviceSynchronize();

  cudaMemcpy(wbImage_getData(output), d_out, w * h * sizeof(float), cudaMemcpyDeviceToHost);
  wbSolution(args, output);
  cudaFree(d_in);
  cudaFree(d_out);
  wbImage_delete(input);
  wbImage_delete(output);
  return 0;
}
