/*
 * VARIANT strided-load: a correct solution written differently from the
 * reference. The tile is loaded by a loop that strides over it by the block's
 * thread count (so it works for any tile and block size, not just two
 * batches), the halo offset and channel are folded into base pointers, the
 * mask is read through a flat pointer, and each output pixel's channels are
 * computed from one tile holding all channels at once. Must pass.
 */
#include "lab.h"

#define TILE 16
#define HALO_TILE (TILE + MASK_WIDTH - 1)
#define MAX_CHANNELS 3

__constant__ float mask_c[MASK_WIDTH * MASK_WIDTH];

__global__ void conv_strided(const float *__restrict__ in, float *__restrict__ out, int height,
                             int width, int channels)
{
    /* all channels of the haloed tile, channel-major */
    __shared__ float tile[MAX_CHANNELS][HALO_TILE * HALO_TILE];

    const int threads = blockDim.x * blockDim.y;
    const int tid = threadIdx.y * blockDim.x + threadIdx.x;
    const int top = blockIdx.y * TILE - MASK_RADIUS;
    const int left = blockIdx.x * TILE - MASK_RADIUS;

    for (int e = tid; e < HALO_TILE * HALO_TILE; e += threads) {
        int r = top + e / HALO_TILE;
        int c = left + e % HALO_TILE;
        bool inside = r >= 0 && r < height && c >= 0 && c < width;
        const float *px = in + ((size_t)(inside ? r : 0) * width + (inside ? c : 0)) * channels;
        for (int ch = 0; ch < channels; ch++)
            tile[ch][e] = inside ? px[ch] : 0.0f;
    }
    __syncthreads();

    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    if (row >= height || col >= width)
        return;
    for (int ch = 0; ch < channels; ch++) {
        const float *t = &tile[ch][threadIdx.y * HALO_TILE + threadIdx.x];
        float sum = 0.0f;
        for (int m = 0; m < MASK_WIDTH * MASK_WIDTH; m++)
            sum += mask_c[m] * t[(m / MASK_WIDTH) * HALO_TILE + m % MASK_WIDTH];
        out[((size_t)row * width + col) * channels + ch] = sum;
    }
}

void conv_2batch(const float *I, float *P, int height, int width, int channels, const float *mask)
{
    CUDA_CHECK(cudaMemcpyToSymbol(mask_c, mask, sizeof(mask_c)));
    dim3 block(TILE, TILE);
    dim3 grid((width - 1) / TILE + 1, (height - 1) / TILE + 1);
    conv_strided<<<grid, block>>>(I, P, height, width, channels);
    CUDA_CHECK(cudaGetLastError());
}
