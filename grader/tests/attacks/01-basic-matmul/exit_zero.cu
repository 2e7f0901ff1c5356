// attack: exits with status 0 before the harness writes anything
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
    printf("@gpulab\ttime_ms\tcall\t0.001\n");
    fflush(stdout);
    _exit(0);
}
