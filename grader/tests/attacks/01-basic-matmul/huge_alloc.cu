// attack: allocates absurd amounts of memory, on the device and the host
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    void *host = malloc((size_t)1 << 46); /* 64 TiB: never touched */
    fprintf(stderr, "host malloc: %p\n", host);
    void *dev = NULL;
    CUDA_CHECK(cudaMalloc(&dev, (size_t)1 << 44)); /* 16 TiB */
}
