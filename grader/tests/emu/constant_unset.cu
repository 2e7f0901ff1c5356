// A __constant__ mask read before anything stored it: one array copied in
// only after the launch that reads it, one copied in part (the first row of
// three), one never copied at all, and one initialised where it is declared.
#include <cuda_runtime.h>
#include <stdio.h>

#define MASK_WIDTH 3
__constant__ float Late[MASK_WIDTH][MASK_WIDTH];
__constant__ float Part[MASK_WIDTH][MASK_WIDTH];
__constant__ float Never[MASK_WIDTH];
__constant__ float Given[2] = { 1.0f, 2.0f };

__global__ void ReadLate(float *out) { out[threadIdx.x] = Late[threadIdx.x / MASK_WIDTH][threadIdx.x % MASK_WIDTH]; }

__global__ void ReadPart(float *out) { out[threadIdx.x] = Part[threadIdx.x / MASK_WIDTH][threadIdx.x % MASK_WIDTH]; }

__global__ void ReadNever(float *out) { out[threadIdx.x] = Never[threadIdx.x % MASK_WIDTH]; }

__global__ void ReadGiven(float *out) { out[threadIdx.x] = Given[threadIdx.x % 2]; }

int main()
{
    float mask[MASK_WIDTH][MASK_WIDTH] = { { 0, 1, 0 }, { 1, 2, 1 }, { 0, 1, 0 } };
    float *d_out, out[MASK_WIDTH * MASK_WIDTH];
    cudaMalloc(&d_out, sizeof out);
    ReadLate<<<1, MASK_WIDTH * MASK_WIDTH>>>(d_out);
    cudaMemcpyToSymbol(Late, mask, sizeof mask);
    cudaMemcpyToSymbol(Part, mask, sizeof mask[0]);
    ReadPart<<<1, MASK_WIDTH * MASK_WIDTH>>>(d_out);
    ReadNever<<<1, MASK_WIDTH>>>(d_out);
    ReadGiven<<<1, 2>>>(d_out);
    ReadLate<<<1, MASK_WIDTH * MASK_WIDTH>>>(d_out);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    printf("late=%g\n", out[4]);
    cudaFree(d_out);
    return 0;
}
