// attack: loops forever on the host
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P;
    volatile int w = width;
    while (w > -1)
        ;
}
