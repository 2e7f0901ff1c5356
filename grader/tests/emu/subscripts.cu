// Subscripts of multi-dimensional arrays checked against their own
// dimension: a 4 x 4 shared tile indexed by an 8 x 2 block's thread
// coordinates (tile[ty][tx] with tx up to 7 stays inside the tile, in the
// next row, where the other row's threads store too), a local array indexed
// one past its inner dimension (and a second one of the same declaration
// indexed within it), and a tile indexed within its dimensions.
#include <cuda_runtime.h>
#include <stdio.h>

#define TILE 4

__global__ void TooNarrow(float *out)
{
    __shared__ float tile[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    tile[ty][tx] = (float)tx;
    __syncthreads();
    out[threadIdx.y * blockDim.x + tx] = tile[ty][tx];
}

__global__ void LocalPastRow(float *out)
{
    float m[2][3], n[3][2];
    for (int i = 0; i < 2; i++)
        for (int j = 0; j < 3; j++)
            m[i][j] = n[j][i] = (float)(i + j);
    int k = threadIdx.x % 4;
    out[threadIdx.x] = m[0][k];
    out[threadIdx.x + 4] = n[1][k / 2];
}

__global__ void Fits(float *out)
{
    __shared__ float tile[TILE][TILE];
    tile[threadIdx.y][threadIdx.x] = 1.0f;
    __syncthreads();
    out[threadIdx.y * TILE + threadIdx.x] = tile[threadIdx.x][threadIdx.y];
}

int main()
{
    float *d_out;
    cudaMalloc(&d_out, 64 * sizeof(float));
    TooNarrow<<<1, dim3(2 * TILE, 2)>>>(d_out);
    LocalPastRow<<<1, 4>>>(d_out);
    Fits<<<1, dim3(TILE, TILE)>>>(d_out);
    cudaDeviceSynchronize();
    printf("done\n");
    cudaFree(d_out);
    return 0;
}
