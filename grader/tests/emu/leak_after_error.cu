// A buffer never freed: at exit the emulator names its cudaMalloc in a
// "leak" line, unless a call was refused first (argument "refused"), as
// when the program's own check of that call (CUDA_CHECK) ends it before
// its cudaFree calls: that leak is the error's, not a missing cudaFree.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cuda_runtime.h>

int main(int argc, char **argv)
{
    float *d_a;
    cudaMalloc((void **)&d_a, 64 * sizeof(float));
    if (argc > 1 && strcmp(argv[1], "refused") == 0) {
        float host[4];
        cudaError_t e = cudaMemcpy(host, d_a, sizeof host, cudaMemcpyHostToDevice); /* the kind the wrong way */
        printf("%s\n", cudaGetErrorName(e));
        return 1;
    }
    printf("kept\n");
    return 0;
}
