// cudaMallocPitch pads rows to 512 bytes; cudaMemcpy2D copies pitched images;
// a kernel that ignores the pitch gets a wrong image.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void Scale(float *img, size_t pitch, int w, int h, int use_pitch)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        float *row = use_pitch ? (float *)((char *)img + y * pitch) : img + y * w;
        row[x] *= 2.0f;
    }
}

int main()
{
    const int w = 100, h = 7;
    float in[h][w], out[h][w];
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            in[y][x] = (float)(y * w + x);
    for (int use_pitch = 1; use_pitch >= 0; use_pitch--) {
        float *d;
        size_t pitch = 0;
        cudaError_t e = cudaMallocPitch((void **)&d, &pitch, w * sizeof(float), h);
        e = cudaMemcpy2D(d, pitch, in, w * sizeof(float), w * sizeof(float), h, cudaMemcpyHostToDevice);
        dim3 b(16, 16), g((w + 15) / 16, (h + 15) / 16);
        Scale<<<g, b>>>(d, pitch, w, h, use_pitch);
        cudaError_t e2 = cudaMemcpy2D(out, w * sizeof(float), d, pitch, w * sizeof(float), h, cudaMemcpyDeviceToHost);
        int bad = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++)
                bad += out[y][x] != 2.0f * in[y][x];
        printf("use_pitch=%d pitch=%zu copy=%s,%s %s\n", use_pitch, pitch, cudaGetErrorName(e), cudaGetErrorName(e2),
               bad ? "WRONG" : "OK");
        cudaFree(d);
    }
    float *d;
    size_t pitch;
    cudaMallocPitch((void **)&d, &pitch, 600, 2);
    printf("pitch600=%zu\n", pitch);
    cudaError_t e = cudaMemcpy2D(d, 100, in, 400, 400, 2, cudaMemcpyHostToDevice);
    printf("width>pitch: %s\n", cudaGetErrorName(e));
    return 0;
}
