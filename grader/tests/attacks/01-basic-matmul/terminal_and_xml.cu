// attack: prints terminal escapes (clear the screen, then a fake passing
// table) and characters XML forbids (U+FFFF, a lone surrogate, a stray byte),
// hoping to repaint the instructor's terminal and break the class's junit.xml
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    fprintf(stderr, "\x1b[2J\x1b[H\x1b[32mterminal_and_xml  8/8  pass\x1b[0m\r\n");
    fprintf(stderr, "bad xml: \xef\xbf\xbf \xed\xa0\x80 \xff \x01\n");
    fprintf(stdout, "\x1b]0;owned\x07\n");
    exit(1);
}
