// A lab-style student file: C linkage entry point called from a C harness
// (c_harness.c, compiled by gcc -std=c11 against cuda_runtime_api.h).
#include <cuda_runtime_api.h>

#ifdef __cplusplus
extern "C" {
#endif
void vec_add(const float *a, const float *b, float *c, int n);
#ifdef __cplusplus
}
#endif

/* a launch <<<like this>>> in a comment, and in a string: "k<<<1,1>>>()" */
__global__ void VecAdd(const float *a, const float *b, float *c, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        c[i] = a[i] + b[i];
}

void vec_add(const float *a, const float *b, float *c, int n)
{
    float *da, *db, *dc;
    size_t bytes = (size_t)n * sizeof(float);
    const char *s = "__shared__ <<<";
    (void)s;
    cudaMalloc((void **)&da, bytes);
    cudaMalloc((void **)&db, bytes);
    cudaMalloc((void **)&dc, bytes);
    cudaMemcpy(da, a, bytes, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, bytes, cudaMemcpyHostToDevice);
    VecAdd<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    cudaMemcpy(c, dc, bytes, cudaMemcpyDeviceToHost);
    cudaFree(da);
    cudaFree(db);
    cudaFree(dc);
}
