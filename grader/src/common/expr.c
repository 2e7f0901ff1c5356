/*
 * expr.c - see expr.h. A recursive descent over the text: sum := product
 * (('+'|'-') product)*, product := unary (('*'|'/'|'%') unary)*, unary := '-'
 * unary | primary, primary := number | name | '(' sum ')'.
 */
#include "expr.h"

#include <stdio.h>
#include <string.h>

typedef struct {
    const char *p;
    const expr_var *vars;
    int nvars;
    char *err;
    size_t errlen;
    int failed;
    int depth;
} expr_parser;

static void fail(expr_parser *x, const char *why)
{
    if (!x->failed)
        snprintf(x->err, x->errlen, "%s", why);
    x->failed = 1;
}

static void space(expr_parser *x)
{
    while (*x->p == ' ' || *x->p == '\t')
        x->p++;
}

static long sum(expr_parser *x);

static int name_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static long primary(expr_parser *x)
{
    space(x);
    if (*x->p == '(') {
        x->p++;
        long v = sum(x);
        space(x);
        if (*x->p != ')')
            fail(x, "a '(' without its ')'");
        else
            x->p++;
        return v;
    }
    if (*x->p >= '0' && *x->p <= '9') {
        long v = 0;
        while (*x->p >= '0' && *x->p <= '9' && v < 1000000000L)
            v = v * 10 + (*x->p++ - '0');
        if (*x->p >= '0' && *x->p <= '9')
            fail(x, "a number too large");
        return v;
    }
    const char *start = x->p;
    while (name_char(*x->p))
        x->p++;
    size_t n = (size_t)(x->p - start);
    if (n == 0) {
        fail(x, *x->p ? "an unexpected character" : "an expression that ends too soon");
        return 0;
    }
    for (int i = 0; i < x->nvars; i++)
        if (strlen(x->vars[i].name) == n && strncmp(x->vars[i].name, start, n) == 0)
            return x->vars[i].value;
    char why[96];
    snprintf(why, sizeof why, "an unknown name \"%.*s\"", (int)(n < 40 ? n : 40), start);
    fail(x, why);
    return 0;
}

static long unary(expr_parser *x)
{
    space(x);
    if (*x->p == '-') {
        x->p++;
        if (++x->depth > 64) {
            fail(x, "too deeply nested");
            return 0;
        }
        long v = -unary(x);
        x->depth--;
        return v;
    }
    return primary(x);
}

static long product(expr_parser *x)
{
    long v = unary(x);
    for (;;) {
        space(x);
        char op = *x->p;
        if (op != '*' && op != '/' && op != '%')
            return v;
        x->p++;
        long w = unary(x);
        if (op == '*')
            v *= w;
        else if (w == 0)
            fail(x, "a division by 0");
        else if (op == '/')
            v /= w;
        else
            v %= w;
    }
}

static long sum(expr_parser *x)
{
    if (++x->depth > 64) {
        fail(x, "too deeply nested");
        return 0;
    }
    long v = product(x);
    for (;;) {
        space(x);
        char op = *x->p;
        if (op != '+' && op != '-')
            break;
        x->p++;
        long w = product(x);
        v = op == '+' ? v + w : v - w;
    }
    x->depth--;
    return v;
}

int expr_eval(const char *text, const expr_var *vars, int nvars, long *out, char *err, size_t errlen)
{
    expr_parser x = { text ? text : "", vars, nvars, err, errlen, 0, 0 };
    long v = sum(&x);
    space(&x);
    if (!x.failed && *x.p)
        fail(&x, "an unexpected character");
    if (x.failed)
        return -1;
    *out = v;
    return 0;
}
