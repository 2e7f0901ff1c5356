/*
 * VARIANT byte-pitch-rows: a correct solution written differently from the
 * reference. The kernel keeps cudaMallocPitch's pitches in bytes and finds a
 * row the way the CUDA documentation does, (float *)((char *)base + y *
 * pitch); the mask is read through a flat array; the tile loop runs over the
 * channels outside a helper that loads one element. Must pass.
 */
#include "lab.h"

#define OUT_TILE 12
#define IN_TILE (OUT_TILE + 2 * MASK_RADIUS)

__constant__ float weights[MASK_WIDTH * MASK_WIDTH];

__device__ static float load_or_zero(const char *base, size_t pitch, int y, int x, int c,
                                     int height, int width, int channels)
{
    if (y < 0 || y >= height || x < 0 || x >= width)
        return 0.0f;
    const float *row = (const float *)(base + (size_t)y * pitch);
    return row[x * channels + c];
}

__global__ void conv_rows(const char *src, size_t src_pitch, char *dst, size_t dst_pitch,
                          int height, int width, int channels)
{
    __shared__ float tile[IN_TILE * IN_TILE];
    const int ox = blockIdx.x * OUT_TILE + threadIdx.x;   /* output pixel */
    const int oy = blockIdx.y * OUT_TILE + threadIdx.y;
    const bool computes = threadIdx.x < OUT_TILE && threadIdx.y < OUT_TILE;
    const bool writes = computes && ox < width && oy < height;
    float *out_row = writes ? (float *)(dst + (size_t)oy * dst_pitch) : NULL;

    for (int c = 0; c < channels; c++) {
        tile[threadIdx.y * IN_TILE + threadIdx.x] =
            load_or_zero(src, src_pitch, oy - MASK_RADIUS, ox - MASK_RADIUS, c, height, width, channels);
        __syncthreads();
        if (writes) {
            float s = 0.0f;
            for (int dy = 0; dy < MASK_WIDTH; dy++) {
                const float *t = &tile[(threadIdx.y + dy) * IN_TILE + threadIdx.x];
                for (int dx = 0; dx < MASK_WIDTH; dx++)
                    s += weights[dy * MASK_WIDTH + dx] * t[dx];
            }
            out_row[ox * channels + c] = s;
        }
        __syncthreads();
    }
}

void pitched_conv(const Image_t *in, Image_t *out, const float *mask)
{
    const size_t row_bytes = (size_t)in->width * in->channels * sizeof(float);
    void *src = NULL, *dst = NULL;
    size_t src_pitch, dst_pitch;
    CUDA_CHECK(cudaMallocPitch(&src, &src_pitch, row_bytes, in->height));
    CUDA_CHECK(cudaMallocPitch(&dst, &dst_pitch, row_bytes, in->height));
    CUDA_CHECK(cudaMemcpy2D(src, src_pitch, in->data, in->pitch * sizeof(float), row_bytes,
                            in->height, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(weights, mask, sizeof weights));

    dim3 block(IN_TILE, IN_TILE);
    dim3 grid((in->width + OUT_TILE - 1) / OUT_TILE, (in->height + OUT_TILE - 1) / OUT_TILE);
    conv_rows<<<grid, block>>>((const char *)src, src_pitch, (char *)dst, dst_pitch, in->height,
                               in->width, in->channels);
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaMemcpy2D(out->data, out->pitch * sizeof(float), dst, dst_pitch, row_bytes,
                            out->height, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(src));
    CUDA_CHECK(cudaFree(dst));
}
