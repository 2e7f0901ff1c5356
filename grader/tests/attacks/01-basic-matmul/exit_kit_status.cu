// attack: exits with the status the harness keeps for an unreadable dataset,
// with the harness's words, so its failure reads as the kit's (grader_error
// stops a class's batch and blames the instructor's set-up)
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    fprintf(stderr, "harness: cannot read input0.raw: No such file or directory\n");
    exit(4);
}
