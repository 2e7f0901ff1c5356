/* Test program: ends the process before the harness can write the output. */
#include <stdio.h>
#include <stdlib.h>
#include "lab.h"

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M;
    (void)N;
    (void)P;
    (void)width;
    printf("PASS\n");
    exit(0);
}
