/* gpulab test data: a student's Teaching Kit-style program, unchanged below this comment.
 * source: https://github.com/xyu335/Parallel-Programming, mp1.cu, commit 45e74cbb4f3f
 * licence: none stated in the repository; kept here as test data, with attribution.
 * Its expected verdict and the reason: test_wb_kit_mirror.py, STUDENTS. */
// MP 1
#include <wb.h>

// kernel code
__global__ void vecAdd(float *in1, float *in2, float *out, int len) {
  //@@ Insert code to implement vector addition here
  int index = blockIdx.x * blockDim.x + threadIdx.x; 
  if( index < len ){
    // kernel function
    out[index] = in1[index] + in2[index];
  } 
}

//host code 
int main(int argc, char **argv) {
  wbArg_t args;
  
  // length of float 
  int inputLength;
  
  // input float pointer
  float *hostInput1;
  float *hostInput2;
  
  // output float pointer
  float *hostOutput;
  
  // A_d and B_d, input float pointer 
  float *deviceInput1;
  float *deviceInput2;
  float *deviceOutput;

  args = wbArg_read(argc, argv);

  wbTime_start(Generic, "Importing data and creating memory on host");
  hostInput1 =
      (float *)wbImport(wbArg_getInputFile(args, 0), &inputLength);
  hostInput2 =
      (float *)wbImport(wbArg_getInputFile(args, 1), &inputLength);
  hostOutput = (float *)malloc(inputLength * sizeof(float));
  wbTime_stop(Generic, "Importing data and creating memory on host");

  wbLog(TRACE, "The input length is ", inputLength);

  wbTime_start(GPU, "Allocating GPU memory.");
  //@@ Allocate GPU memory here
  cudaMalloc((void **) &deviceInput1, inputLength * sizeof(float));
  cudaMalloc((void **) &deviceInput2, inputLength * sizeof(float));
  cudaMalloc((void **) &deviceOutput, inputLength * sizeof(float));

  wbTime_stop(GPU, "Allocating GPU memory.");

  wbTime_start(GPU, "Copying input memory to the GPU.");
  //@@ Copy memory to the GPU here
  cudaMemcpy(deviceInput1, hostInput1, inputLength * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(deviceInput2, hostInput2, inputLength * sizeof(float), cudaMemcpyHostToDevice);
  
  wbTime_stop(GPU, "Copying input memory to the GPU.");

  //@@ Initialize the grid and block dimensions here
  // initialize 
  
  //dim3 DimGrid(ceil(inputLength/1024),1, 1);
  //dim3 DimBlock(1024, 1, 1);
  
  //wbLog(ERROR, "this is dim3 G: ", DimGrid.x);
  //wbLog(ERROR, "this is dim3 B: ", DimBlock.x);
  
  wbTime_start(Compute, "Performing CUDA computation");
  //@@ Launch the GPU Kernel here
  vecAdd<<<ceil(inputLength/256.0), 256>>>(deviceInput1, deviceInput2, deviceOutput, inputLength);
  //vecAdd<<<DimGrid, DimBlock>>>(deviceInput1, deviceInput2, deviceOutput, inputLength);

  cudaDeviceSynchronize();
  wbTime_stop(Compute, "Performing CUDA computation");

  wbTime_start(Copy, "Copying output memory to the CPU");
  //@@ Copy the GPU memory back to the CPU here
  cudaMemcpy(hostOutput, deviceOutput, inputLength * sizeof(float), cudaMemcpyDeviceToHost);

  wbTime_stop(Copy, "Copying output memory to the CPU");

  wbTime_start(GPU, "Freeing GPU Memory");
  //@@ Free the GPU memory here
  cudaFree(deviceInput1);
  cudaFree(deviceInput2);
  cudaFree(deviceOutput);
  
  wbTime_stop(GPU, "Freeing GPU Memory");

  wbSolution(args, hostOutput, inputLength);

  free(hostInput1);
  free(hostInput2);
  free(hostOutput);

  return 0;
}

