// attack: prints PASS, fake @gpulab lines and a fake JSON result
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)width;
    P[0] = 0;
    printf("PASS\nAll tests passed.\n");
    printf("@gpulab\tpass\n@gpulab\tscore\t8\t8\n@gpulab\ttime_ms\tcall\t0.5\n");
    printf("{\"status\": \"pass\", \"score\": 8, \"max_score\": 8}\n");
    fprintf(stderr, "@gpulab\tresult\tpass\n");
}
