/* Test program: a missing semicolon on line 8. */
#include "lab.h"

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M;
    (void)N;
    int n = width * width
    for (int i = 0; i < n; i++)
        P[i] = 0;
}
