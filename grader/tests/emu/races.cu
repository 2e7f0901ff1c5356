// The race detector's own cases (emucc --race), one kernel each, chosen by
// the first argument:
//   halo     a thread of each block's halo ring stores into the next block's
//            outputs: a race between blocks, which no barrier can order
//   big      a 32 x 32 block (1024 threads) reads a neighbour's shared
//            element with no barrier after the store: a race in a block
//            larger than ThreadSanitizer's 256 thread slots
//   atomics  every thread adds into one counter with atomicAdd: no race
//   bytes    each thread writes its own byte of one 4-byte word: no race
//   ordered  each thread reads its neighbour's shared element after a
//            barrier: no race
//   copy     the halo ring's store made with memcpy, which the compiler's
//            instrumentation never sees: a race between blocks all the same
//   fill     the same store made with memset
//   copyown  each thread copies its own element with memcpy: no race
#include <cuda_runtime.h>
#include <stdio.h>
#include <string.h>

#define OUT_TILE 8

__global__ void HaloStore(float *out, int n)
{
    int i = blockIdx.x * OUT_TILE + (int)threadIdx.x - 1; /* blocks of OUT_TILE + 2 */
    if (i >= 0 && i < n)
        out[i] = (float)i;                                /* the ring stores too */
}

__global__ void BigBlock(float *out)
{
    __shared__ float s[32][32];
    s[threadIdx.y][threadIdx.x] = (float)threadIdx.x;
    out[threadIdx.y * 32 + threadIdx.x] = s[threadIdx.y][(threadIdx.x + 1) % 32];
}

__global__ void HaloCopy(float *out, int n, int fill)
{
    int i = blockIdx.x * OUT_TILE + (int)threadIdx.x - 1;
    float v = (float)i;
    if (i >= 0 && i < n) {
        if (fill)
            memset(&out[i], 0, sizeof v);                 /* the ring stores too */
        else
            memcpy(&out[i], &v, sizeof v);                /* the ring stores too */
    }
}

__global__ void CopyOwn(float *out, const float *in)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    memcpy(&out[i], &in[i], sizeof *out);
}

__global__ void Atomics(int *count)
{
    atomicAdd(count, 1);
}

__global__ void Bytes(unsigned char *b)
{
    b[threadIdx.x] = (unsigned char)threadIdx.x;
}

__global__ void Ordered(float *out)
{
    __shared__ float s[64];
    s[threadIdx.x] = (float)threadIdx.x;
    __syncthreads();
    out[blockIdx.x * 64 + threadIdx.x] = s[(threadIdx.x + 1) % 64];
}

int main(int argc, char **argv)
{
    const char *which = argc > 1 ? argv[1] : "";
    void *d;
    cudaMalloc(&d, 4096 * sizeof(float));
    if (strcmp(which, "halo") == 0)
        HaloStore<<<4, OUT_TILE + 2>>>((float *)d, 4 * OUT_TILE);
    else if (strcmp(which, "big") == 0)
        BigBlock<<<1, dim3(32, 32)>>>((float *)d);
    else if (strcmp(which, "atomics") == 0)
        Atomics<<<4, 256>>>((int *)d);
    else if (strcmp(which, "bytes") == 0)
        Bytes<<<1, 4>>>((unsigned char *)d);
    else if (strcmp(which, "ordered") == 0)
        Ordered<<<2, 64>>>((float *)d);
    else if (strcmp(which, "copy") == 0 || strcmp(which, "fill") == 0)
        HaloCopy<<<4, OUT_TILE + 2>>>((float *)d, 4 * OUT_TILE, strcmp(which, "fill") == 0);
    else if (strcmp(which, "copyown") == 0)
        CopyOwn<<<4, 64>>>((float *)d, (const float *)d + 2048);
    else
        return 2;
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(d);
    return 0;
}
