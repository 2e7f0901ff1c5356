// attack: an inline .space of gigabytes, to fill the disk with one object file
// expect: zero
__asm__(".section .data\n.space 3000000000\n.text\n");
#include "lab.h"
void basic_matmul(const float *M, const float *N, float *P, int width) { (void)M; (void)N; (void)P; (void)width; }
