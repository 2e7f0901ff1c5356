/*
 * expr.h - small integer expressions: the ones of lab.json ("by*T + i - 2":
 * the element of an input that a tile's slot holds, "tiles" in
 * docs/formats.md) and a kernel's index arithmetic with its names' values
 * put in (checkers/source_eval.c). Whole numbers, names, + - * / % (division
 * truncates, % is its remainder), parentheses and unary minus. Read as
 * data, never compiled or run.
 */
#ifndef GPULAB_EXPR_H
#define GPULAB_EXPR_H

#include <stddef.h>

typedef struct {
    const char *name;
    long value;
} expr_var;

/* Evaluates text with the named values; 0 and *out, or -1 with why in err
 * (a syntax error, an unknown name, a division by 0). */
int expr_eval(const char *text, const expr_var *vars, int nvars, long *out, char *err, size_t errlen);

#endif
