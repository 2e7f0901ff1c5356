// attack: pulls a root-only file (the course's secret) into the program with
// the assembler's .incbin and prints it from the kernel's host code
// expect: zero
#include "lab.h"
#include <stdio.h>
__asm__(".section .rodata\n.global stolen\nstolen:\n.incbin \"@SECRET@\"\n.byte 0\n.text\n");
extern const char stolen[];
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    fprintf(stderr, "%s\n", stolen);
}
