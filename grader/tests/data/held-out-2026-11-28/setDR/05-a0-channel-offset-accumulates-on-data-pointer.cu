/*
 * Lab 05 - 2D convolution of pitched images, reference solution.
 *
 * The images' rows are padded: element (y, x, c) is at
 * data[y * pitch + x * channels + c], with pitch >= width * channels. On the
 * device cudaMallocPitch chooses the pitch (in bytes); cudaMemcpy2D copies
 * the rows between host and device pitches. Blocks are BLOCK_WIDTH x
 * BLOCK_WIDTH threads, as large as the input tile: every thread loads one
 * input element (0 outside the image), and only the inner O_TILE_WIDTH x
 * O_TILE_WIDTH threads compute and write an output pixel.
 */
#include "lab.h"

#define O_TILE_WIDTH 12
#define BLOCK_WIDTH (O_TILE_WIDTH + MASK_WIDTH - 1)

/* The mask, copied in by the host before the launch. */
__constant__ float Mc[MASK_WIDTH][MASK_WIDTH];

/* in and out describe DEVICE images; their pitch is in floats. */
__global__ void pitched_conv_kernel(Image_t in, Image_t out)
{
    //@@ TODO 1: Declare the shared input tile N_ds, BLOCK_WIDTH x BLOCK_WIDTH
    //@@ floats: one element per thread.
    __shared__ float N_ds[BLOCK_WIDTH][BLOCK_WIDTH];
    //@@ end

    //@@ TODO 2: The output pixel this thread owns (row_o, col_o): blocks step
    //@@ O_TILE_WIDTH apart, not BLOCK_WIDTH. The input element it loads
    //@@ (row_i, col_i) is MASK_RADIUS above and to the left of that.
    int tx = threadIdx.x, ty = threadIdx.y;
    int row_o = blockIdx.y * O_TILE_WIDTH + ty;
    int col_o = blockIdx.x * O_TILE_WIDTH + tx;
    int row_i = row_o - MASK_RADIUS;
    int col_i = col_o - MASK_RADIUS;
    //@@ end

    for (int k = 0; k < in.channels; k++) {
        //@@ TODO 3: Load channel k of input element (row_i, col_i) into
        //@@ N_ds[ty][tx], or 0 if it lies outside the image. Rows are
        //@@ in.pitch floats apart.
        in.data += k;
        if (row_i >= 0 && row_i < in.height && col_i >= 0 && col_i < in.width)
            N_ds[ty][tx] = in.data[row_i * in.pitch + col_i * in.channels];
        else
            N_ds[ty][tx] = 0.0f;
        //@@ end

        //@@ TODO 4: Wait until the whole tile is loaded.
        __syncthreads();
        //@@ end

        //@@ TODO 5: Only the O_TILE_WIDTH x O_TILE_WIDTH threads at the top
        //@@ left of the block compute: the weighted sum of the mask laid over
        //@@ N_ds at (ty, tx). Those whose output pixel is inside the image
        //@@ write it; rows of out are out.pitch floats apart.
        if (ty < O_TILE_WIDTH && tx < O_TILE_WIDTH) {
            float acc = 0.0f;
            for (int i = 0; i < MASK_WIDTH; i++)
                for (int j = 0; j < MASK_WIDTH; j++)
                    acc += Mc[i][j] * N_ds[ty + i][tx + j];
            if (row_o < out.height && col_o < out.width)
                out.data[row_o * out.pitch + col_o * out.channels + k] = acc;
        }
        //@@ end

        //@@ TODO 6: Before the loop reloads N_ds for the next channel, every
        //@@ thread must be done reading it.
        __syncthreads();
        //@@ end
    }
}

void pitched_conv(const Image_t *in, Image_t *out, const float *mask)
{
    //@@ TODO 7: Allocate a pitched device image for the input and one for
    //@@ the output (cudaMallocPitch: it returns each pitch in BYTES).
    size_t row_bytes = (size_t)in->width * in->channels * sizeof(float);
    float *d_in = NULL, *d_out = NULL;
    size_t in_pitch_bytes = 0, out_pitch_bytes = 0;
    CUDA_CHECK(cudaMallocPitch((void **)&d_in, &in_pitch_bytes, row_bytes, in->height));
    CUDA_CHECK(cudaMallocPitch((void **)&d_out, &out_pitch_bytes, row_bytes, in->height));
    //@@ end

    //@@ TODO 8: Copy the input image's rows to the device (cudaMemcpy2D: the
    //@@ host pitch is in->pitch floats, the device pitch what cudaMallocPitch
    //@@ chose), and the mask into Mc (cudaMemcpyToSymbol).
    CUDA_CHECK(cudaMemcpy2D(d_in, in_pitch_bytes, in->data, (size_t)in->pitch * sizeof(float),
                            row_bytes, in->height, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(Mc, mask, MASK_WIDTH * MASK_WIDTH * sizeof(float)));
    //@@ end

    //@@ TODO 9: Describe the device images as Image_t, with their pitches in
    //@@ floats, and launch pitched_conv_kernel with BLOCK_WIDTH x BLOCK_WIDTH
    //@@ blocks, one per O_TILE_WIDTH x O_TILE_WIDTH output tile (round up).
    Image_t d_in_img = *in, d_out_img = *out;
    d_in_img.data = d_in;
    d_in_img.pitch = (int)(in_pitch_bytes / sizeof(float));
    d_out_img.data = d_out;
    d_out_img.pitch = (int)(out_pitch_bytes / sizeof(float));
    dim3 dimBlock(BLOCK_WIDTH, BLOCK_WIDTH);
    dim3 dimGrid((in->width - 1) / O_TILE_WIDTH + 1, (in->height - 1) / O_TILE_WIDTH + 1);
    pitched_conv_kernel<<<dimGrid, dimBlock>>>(d_in_img, d_out_img);
    CUDA_CHECK(cudaGetLastError());
    //@@ end

    //@@ TODO 10: Copy the output's rows back into out (cudaMemcpy2D, only
    //@@ width * channels floats of each row: its padding stays as it is),
    //@@ then free both device images.
    CUDA_CHECK(cudaMemcpy2D(out->data, (size_t)out->pitch * sizeof(float), d_out, out_pitch_bytes,
                            row_bytes, out->height, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    //@@ end
}
