// attack: a host loop and a kernel that is never launched; the assembler's
// .incbin copies the build folder's marked copy of this file (the kit's source
// pass, which puts the kernel token in every kernel: student-poisoned.cu on a
// GPU, which nvcc compiles, student-marked.cu on the emulator) into the
// program, which reads the token out of it and prints it as the harness would
// for a kernel of one thread
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if __has_include("student-poisoned.cu")
#define MARKED_COPY "student-poisoned.cu"
#else
#define MARKED_COPY "student-marked.cu"
#endif
__asm__(".section .rodata\n.global marked_copy\nmarked_copy:\n.incbin \"" MARKED_COPY "\"\n.byte 0\n.text\n");
extern const char marked_copy[];

__global__ void never_launched(float *P) { P[0] = 0; }

static void print_token(void)
{
    /* the mark's text: "... = gpulab_ran_NAME ^ 0xHEXull; ..." */
    const char *at = strstr(marked_copy, "^ 0x");
    if (!at) {
        fprintf(stderr, "incbin_token: no token in the copy\n");
        return;
    }
    unsigned long long token = strtoull(at + 4, NULL, 16);
    printf("\n@gpulab\tkernel_token\t%llx\n", token ^ (1ull | 1ull << 11 | 1ull << 22));
    fflush(stdout);
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    for (int r = 0; r < width; r++)
        for (int c = 0; c < width; c++) {
            float v = 0;
            for (int k = 0; k < width; k++)
                v += M[r * width + k] * N[k * width + c];
            P[r * width + c] = v;
        }
    print_token();
}
