/*
 * device_copy.cu - the image labs' baseline for gpulab bench: the input image
 * copied to the output, device to device, built like a lab 04 submission so
 * lab 04's harness times it the way it times a student's file. A filter
 * reads each input element and writes each output element at least once;
 * a copy does exactly that and nothing else, so its bandwidth is the ceiling
 * for the labs' effective GB/s (both count input and output bytes once).
 */
#include "lab.h"

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    (void)mask;
    size_t bytes = (size_t)height * width * channels * sizeof(float);
    CUDA_CHECK(cudaMemcpy(P, I, bytes, cudaMemcpyDeviceToDevice));
}
