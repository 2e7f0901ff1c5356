/*
 * Lab 05 with a tile that is never read.
 *
 * The tiles are declared, filled by every thread and fenced by both
 * barriers, so every dataset passes and the checkers find nothing; but the
 * sum then reads its operands from global memory, not from the tiles: the
 * kernel reads as much global memory as lab 01's and more. The kit's
 * global_reuse requirement (the emulator's counts from the checkers' run)
 * fails and names the line of that loop.
 */
#include "lab.h"

#define O_TILE_WIDTH 12
#define BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)

/* The mask, copied in by the host before the launch. */
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

/* in and out describe DEVICE images; their pitch is in floats. */
__global__ void pitched_conv_kernel(Image_t in, Image_t out)
{
    __shared__ float N_ds[BLOCK_WIDTH][BLOCK_WIDTH];

    int tx = threadIdx.x, ty = threadIdx.y;
    int row_o = blockIdx.y * O_TILE_WIDTH + ty;
    int col_o = blockIdx.x * O_TILE_WIDTH + tx;
    int row_i = row_o - MASK_RADIUS;
    int col_i = col_o - MASK_RADIUS;

    for (int k = 0; k < in.channels; k++) {
        if (row_i >= 0 && row_i < in.height && col_i >= 0 && col_i < in.width)
            N_ds[ty][tx] = in.data[row_i * in.pitch + col_i * in.channels + k];
        else
            N_ds[ty][tx] = 0.0f;

        __syncthreads();

        if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {
            float acc = 0.0f;
            for (int i = 0; i < MASK_WIDTH; i++)
                for (int j = 0; j < MASK_WIDTH; j++)
                {
                    int yy = row_i + i, xx = col_i + j;
                    float v = yy >= 0 && yy < in.height && xx >= 0 && xx < in.width
                                  ? in.data[yy * in.pitch + xx * in.channels + k]
                                  : 0.0f;
                    acc += Mc[i][j] * v;
                }
            if (row_o < out.height && col_o < out.width)
                out.data[row_o * out.pitch + col_o * out.channels + k] = acc;
        }

        __syncthreads();
    }
}

void pitched_conv(const Image_t *in, Image_t *out, const float *mask)
{
    size_t row_bytes = (size_t)in->width * in->channels * sizeof(float);
    float *d_in = NULL, *d_out = NULL;
    size_t in_pitch_bytes = 0, out_pitch_bytes = 0;
    CUDA_CHECK(cudaMallocPitch((void **)&d_in, &in_pitch_bytes, row_bytes, in->height));
    CUDA_CHECK(cudaMallocPitch((void **)&d_out, &out_pitch_bytes, row_bytes, in->height));

    CUDA_CHECK(cudaMemcpy2D(d_in, in_pitch_bytes, in->data, (size_t)in->pitch * sizeof(float),
                            row_bytes, in->height, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));

    Image_t d_in_img = *in, d_out_img = *out;
    d_in_img.data = d_in;
    d_in_img.pitch = (int)(in_pitch_bytes / sizeof(float));
    d_out_img.data = d_out;
    d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 dimGrid((in->width - 1) / O_TILE_WIDTH + 1, (in->height - 1) / O_TILE_WIDTH + 1);
    pitched_conv_kernel<<<dimGrid, dimBlock>>>(d_in_img, d_out_img);
    CUDA_CHECK(cudaGetLastError());

    CUDA_CHECK(cudaMemcpy2D(out->data, (size_t)out->pitch * sizeof(float), d_out, out_pitch_bytes,
                            row_bytes, out->height, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
}
