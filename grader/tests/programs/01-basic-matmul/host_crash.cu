/* Test program: dereferences a null host pointer. */
#include "lab.h"

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    volatile float *nowhere = 0;
    (void)M;
    (void)N;
    P[0] = nowhere[width];
}
