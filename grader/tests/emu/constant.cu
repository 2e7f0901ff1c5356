// __constant__ memory filled with cudaMemcpyToSymbol; a 2D mask as in the
// convolution lab.
#include <cuda_runtime.h>
#include <stdio.h>

#define MASK_WIDTH 3
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

__device__ __forceinline__ float clampf(float v) { return fminf(fmaxf(v, -100.0f), 100.0f); }

__global__ void Conv(const float *in, float *out, int w)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= w)
        return;
    float s = 0;
    for (int i = 0; i < MASK_WIDTH; i++)
        for (int j = 0; j < MASK_WIDTH; j++) {
            int yy = y + i - 1, xx = x + j - 1;
            if (yy >= 0 && yy < w && xx >= 0 && xx < w)
                s += in[yy * w + xx] * Mc[i][j];
        }
    out[y * w + x] = clampf(s);
}

int main()
{
    float mask[MASK_WIDTH][MASK_WIDTH] = { { 0, 1, 0 }, { 1, 2, 1 }, { 0, 1, 0 } };
    cudaError_t e = cudaMemcpyToSymbol(Mc, mask, sizeof mask);
    printf("to symbol: %s\n", cudaGetErrorName(e));
    e = cudaMemcpyToSymbol(Mc, mask, sizeof mask + 4);
    printf("too big: %s\n", cudaGetErrorName(e));
    cudaGetLastError();
    const int w = 8;
    float in[w * w], out[w * w];
    for (int i = 0; i < w * w; i++)
        in[i] = 1.0f;
    float *d_in, *d_out;
    cudaMalloc(&d_in, sizeof in);
    cudaMalloc(&d_out, sizeof out);
    cudaMemcpy(d_in, in, sizeof in, cudaMemcpyHostToDevice);
    Conv<<<dim3(1, 1), dim3(w, w)>>>(d_in, d_out, w);
    cudaMemcpy(out, d_out, sizeof out, cudaMemcpyDeviceToHost);
    printf("corner=%g edge=%g inside=%g\n", out[0], out[1], out[w + 1]);
    float back[MASK_WIDTH][MASK_WIDTH];
    e = cudaMemcpyFromSymbol(back, Mc, sizeof back);
    printf("from symbol: %s %g\n", cudaGetErrorName(e), back[1][1]);
    return 0;
}
