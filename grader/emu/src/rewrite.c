/*
 * rewrite.c - emucc's source rewriter: CUDA C++ in, plain C++ out.
 *
 * Token-aware: comments, string and character literals and preprocessor
 * lines are copied untouched. Only three things change, each in place, so
 * that every line stays where it was and g++ names the student's own lines:
 *
 *   kernel<<<g, b[, s[, st]]>>>(args)
 *       -> ::emu::launch_(kernel, "kernel", __FILE__, __LINE__, g, b[, s[, st]])(args)
 *   __shared__ T a[N][M];            (function scope)
 *       -> struct emu_sh_K { T a[N][M]; }; ...; auto &a = <this block's copy>.a;
 *          emu_shared_named_("a", a);   (the array's name: the race build's
 *          tile contents, emu_device.h; nothing in other builds)
 *   extern __shared__ T s[];         (function scope)
 *       -> typedef T emu_dt_K[]; emu_dt_K &s = *(emu_dt_K *)emu_dynamic_shared_();
 *   return[ E];                      (in a __global__ function's body)
 *       -> return emu_note_return_(__FILE__, __LINE__)[, E];
 *          (return {...}; of a lambda in a kernel:
 *          for (emu_note_return_(__FILE__, __LINE__);;) return {...};)
 *          (one statement wherever a return is, so `if (c) return; else ...`
 *          keeps its meaning, and still the word `return` first, so that
 *          the compiler's "expected ';' before 'return'" names the
 *          student's token; a void function may return a void call; the
 *          runtime then names the line of a return that left other threads
 *          waiting at a barrier)
 * At file scope a __shared__ variable becomes a per-block lookup that replaces
 * each later use of its name.
 */
#define _GNU_SOURCE
#include "rewrite.h"
#include "rewrite_int.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* T_LAUNCH_OPEN, T_LAUNCH_CLOSE: <<< and >>> written with spaces inside
 * ("<< <", ">> >", as some editors format a launch), which nvcc accepts. */

static void add_tok(rw *r, int kind, size_t b, size_t e)
{
    if (r->nt == r->capt) {
        r->capt = r->capt ? r->capt * 2 : 1024;
        r->t = xrealloc(r->t, r->capt * sizeof *r->t);
    }
    r->t[r->nt++] = (tok){ kind, b, e };
}

static void add_edit(rw *r, size_t b, size_t e, char *text)
{
    if (r->ned == r->caped) {
        r->caped = r->caped ? r->caped * 2 : 64;
        r->ed = xrealloc(r->ed, r->caped * sizeof *r->ed);
    }
    r->ed[r->ned] = (edit){ b, e, text, (int)r->ned };
    r->ned++;
}


/* Splits the source into tokens, skipping comments and preprocessor lines. */
/* Three '<' (or '>') tokens with only blanks between them become one
 * T_LAUNCH_OPEN (T_LAUNCH_CLOSE) token: no valid C++ has "<< <", and a
 * ">> >" outside a launch (nested templates written the old way) is left
 * as it is by the rewriter, which edits only launches. */
static void merge_spaced_chevrons(rw *r)
{
    size_t o = 0;
    for (size_t i = 0; i < r->nt; i++) {
        char c = r->src[r->t[i].b];
        int single = r->t[i].kind == T_PUNCT && r->t[i].e - r->t[i].b == 1 && (c == '<' || c == '>');
        int spaced = 0;
        if (single && i + 2 < r->nt) {
            spaced = 1;
            for (size_t k = i + 1; k <= i + 2; k++) {
                const tok *t = &r->t[k];
                if (t->kind != T_PUNCT || t->e - t->b != 1 || r->src[t->b] != c)
                    spaced = 0;
                for (size_t q = r->t[k - 1].e; spaced && q < t->b; q++)
                    if (!isspace((unsigned char)r->src[q]))
                        spaced = 0;
            }
            /* all three touching is the ordinary <<< or >>> the tokenizer
             * already makes; here at least one blank is between */
        }
        if (spaced) {
            r->t[o] = r->t[i];
            r->t[o].kind = c == '<' ? T_LAUNCH_OPEN : T_LAUNCH_CLOSE;
            r->t[o].e = r->t[i + 2].e;
            o++;
            i += 2;
        } else {
            r->t[o++] = r->t[i];
        }
    }
    r->nt = o;
}

int tokenize(rw *r)
{
    const char *s = r->src;
    size_t n = r->len, i = 0;
    int line_start = 1;
    while (i < n) {
        char c = s[i];
        if (c == '\n') {
            line_start = 1;
            i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
            continue;
        }
        if (c == '\\' && i + 1 < n && (s[i + 1] == '\n' || (s[i + 1] == '\r' && i + 2 < n && s[i + 2] == '\n'))) {
            i += s[i + 1] == '\n' ? 2 : 3;
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n')
                    i++;
                i++;
            }
            continue;
        }
        if (c == '/' && i + 1 < n && s[i + 1] == '*') {
            size_t j = i + 2;
            while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'))
                j++;
            if (j + 1 >= n) {
                r->err = xasprintf("unterminated comment");
                return -1;
            }
            i = j + 2;
            continue;
        }
        if (c == '#' && line_start) {
            /* a preprocessor line, with its continuations and comments */
            if (r->ndirs == r->capdirs) {
                r->capdirs = r->capdirs ? r->capdirs * 2 : 64;
                r->dirs = xrealloc(r->dirs, r->capdirs * sizeof *r->dirs);
            }
            r->dirs[r->ndirs].b = i;
            while (i < n && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < n && s[i + 1] == '\n') {
                    i += 2;
                    continue;
                }
                if (s[i] == '/' && i + 1 < n && s[i + 1] == '*') {
                    size_t j = i + 2;
                    while (j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'))
                        j++;
                    i = j + 2 < n ? j + 2 : n;
                    continue;
                }
                if (s[i] == '"' || s[i] == '\'') {
                    char q = s[i++];
                    while (i < n && s[i] != q && s[i] != '\n') {
                        if (s[i] == '\\' && i + 1 < n)
                            i++;
                        i++;
                    }
                    if (i < n && s[i] == q)
                        i++;
                    continue;
                }
                i++;
            }
            r->dirs[r->ndirs++].e = i;
            continue;
        }
        line_start = 0;
        size_t b = i;
        /* raw string literal: R"delim( ... )delim", possibly prefixed */
        if ((c == 'R' || ((c == 'u' || c == 'U' || c == 'L') && i + 1 < n && (s[i + 1] == 'R' || (s[i + 1] == '8' && i + 2 < n && s[i + 2] == 'R'))))) {
            size_t j = i;
            while (j < n && s[j] != 'R')
                j++;
            if (j + 1 < n && s[j + 1] == '"') {
                size_t d0 = j + 2, d = d0;
                while (d < n && s[d] != '(' && d - d0 < 17)
                    d++;
                if (d < n && s[d] == '(') {
                    size_t dl = d - d0, k = d + 1;
                    for (; k < n; k++) {
                        if (s[k] == ')' && k + 1 + dl < n && strncmp(s + k + 1, s + d0, dl) == 0 && s[k + 1 + dl] == '"')
                            break;
                    }
                    if (k >= n) {
                        r->err = xasprintf("unterminated raw string literal");
                        return -1;
                    }
                    i = k + dl + 2;
                    add_tok(r, T_STR, b, i);
                    continue;
                }
            }
        }
        if (is_id0((unsigned char)c)) {
            while (i < n && is_id((unsigned char)s[i]))
                i++;
            /* encoding prefixes of literals: u8"..", L'x' */
            if (i < n && (s[i] == '"' || s[i] == '\'')) {
                size_t l = i - b;
                if ((l == 1 && (c == 'L' || c == 'u' || c == 'U')) || (l == 2 && c == 'u' && s[b + 1] == '8'))
                    goto literal;
            }
            add_tok(r, T_IDENT, b, i);
            continue;
        }
        if (isdigit((unsigned char)c) || (c == '.' && i + 1 < n && isdigit((unsigned char)s[i + 1]))) {
            /* pp-number, with C++14 digit separators */
            i++;
            while (i < n) {
                char d = s[i];
                if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') && i + 1 < n && (s[i + 1] == '+' || s[i + 1] == '-'))
                    i += 2;
                else if (is_id((unsigned char)d) || d == '.')
                    i++;
                else if (d == '\'' && i + 1 < n && is_id((unsigned char)s[i + 1]))
                    i += 2;
                else
                    break;
            }
            add_tok(r, T_NUM, b, i);
            continue;
        }
        if (c == '"' || c == '\'') {
        literal:;
            char q = s[i++];
            while (i < n && s[i] != q) {
                if (s[i] == '\n') {
                    r->err = xasprintf("line %d: unterminated %s literal", 0, q == '"' ? "string" : "character");
                    break;
                }
                if (s[i] == '\\' && i + 1 < n)
                    i++;
                i++;
            }
            if (r->err) {
                /* let the compiler report it: treat as a token to the line end */
                free(r->err);
                r->err = NULL;
            }
            if (i < n)
                i++;
            add_tok(r, q == '"' ? T_STR : T_CHAR, b, i);
            continue;
        }
        if (c == '<' && i + 2 < n && s[i + 1] == '<' && s[i + 2] == '<') {
            add_tok(r, T_PUNCT, b, i + 3);
            i += 3;
            continue;
        }
        if (c == '>' && i + 2 < n && s[i + 1] == '>' && s[i + 2] == '>') {
            add_tok(r, T_PUNCT, b, i + 3);
            i += 3;
            continue;
        }
        if ((c == ':' && i + 1 < n && s[i + 1] == ':') || (c == '-' && i + 1 < n && s[i + 1] == '>')) {
            add_tok(r, T_PUNCT, b, i + 2);
            i += 2;
            continue;
        }
        add_tok(r, T_PUNCT, b, i + 1);
        i++;
    }
    merge_spaced_chevrons(r);
    return 0;
}

int is(const rw *r, size_t k, const char *text)
{
    if (k >= r->nt)
        return 0;
    if (r->t[k].kind == T_LAUNCH_OPEN || r->t[k].kind == T_LAUNCH_CLOSE)
        return strcmp(text, r->t[k].kind == T_LAUNCH_OPEN ? "<<<" : ">>>") == 0;
    size_t l = strlen(text);
    return r->t[k].e - r->t[k].b == l && memcmp(r->src + r->t[k].b, text, l) == 0;
}

static char *tok_text(const rw *r, size_t k)
{
    return strndup(r->src + r->t[k].b, r->t[k].e - r->t[k].b);
}

/* The line of token k as the compiler numbers it: a `#line N` (or `# N`)
 * directive numbers the line after it N (the grader's copy of the
 * student's file starts with one, and the kernel token's marking keeps
 * the lines so), so that a message names the student's own line. */
static int tok_line(const rw *r, size_t k)
{
    int line = 1;
    for (size_t i = 0; i < r->t[k].b; i++) {
        if (i == 0 || r->src[i - 1] == '\n') {
            size_t j = i;
            while (r->src[j] == ' ' || r->src[j] == '\t')
                j++;
            if (r->src[j] == '#') {
                j++;
                while (r->src[j] == ' ' || r->src[j] == '\t')
                    j++;
                if (strncmp(r->src + j, "line", 4) == 0)
                    j += 4;
                char *end;
                long n = strtol(r->src + j, &end, 10);
                if (end != r->src + j && n > 0 && n < 1000000000L) {
                    const char *nl = memchr(r->src + j, '\n', r->t[k].b - j);
                    if (nl) { /* the directive's own line ends before token k */
                        line = (int)n;
                        i = (size_t)(nl - r->src);
                        continue;
                    }
                }
            }
        }
        line += r->src[i] == '\n';
    }
    return line;
}

static const char *const keywords[] = {
    "const", "volatile", "unsigned", "signed", "int", "float", "double", "char", "short", "long",
    "bool", "void", "struct", "class", "union", "enum", "static", "extern", "__align__", "alignas",
    "__restrict__", "__shared__", "auto", "typename", NULL
};

int is_keyword(const rw *r, size_t k)
{
    for (int i = 0; keywords[i]; i++)
        if (is(r, k, keywords[i]))
            return 1;
    return 0;
}

/* ---- kernel<<<...>>>(...) ---------------------------------------------------------- */
/* The text of a launch's arguments, the parentheses from token k on, for a
 * string literal: white space runs made one space, quotes and backslashes
 * dropped, at most 200 characters ("" when there are none). */
static char *launch_args_text(const rw *r, size_t k)
{
    enum { MAX = 200 };
    char *out = xrealloc(NULL, MAX + 4);
    size_t n = 0;
    if (k >= r->nt || !is(r, k, "(")) {
        out[0] = 0;
        return out;
    }
    int depth = 0;
    size_t m = k;
    for (; m < r->nt; m++) {
        if (is(r, m, "(") || is(r, m, "[") || is(r, m, "{"))
            depth++;
        else if ((is(r, m, ")") || is(r, m, "]") || is(r, m, "}")) && --depth == 0)
            break;
    }
    if (m >= r->nt) {
        out[0] = 0;
        return out;
    }
    for (size_t c = r->t[k].e; c < r->t[m].b && n < MAX; c++) {
        char ch = r->src[c];
        if (ch == '"' || ch == '\\')
            continue;
        if (isspace((unsigned char)ch)) {
            if (n && out[n - 1] != ' ')
                out[n++] = ' ';
            continue;
        }
        out[n++] = ch;
    }
    while (n && out[n - 1] == ' ')
        n--;
    if (n == MAX)
        memcpy(out + n, "...", 3), n += 3;
    out[n] = 0;
    return out;
}

/* Whether token k's name is declared at file scope as a __device__
 * function and never as a __global__ one: the line of its first such
 * declaration, else 0. nvcc refuses to launch one ("a __device__
 * function call cannot be configured"); the emulator, whose kernels are
 * all C++ functions, would run it, so the rewriter refuses it as nvcc does. */
static int device_function_line(const rw *r, size_t k)
{
    size_t n = r->t[k].e - r->t[k].b;
    int depth = 0, device = 0;
    size_t stmt = 0;
    for (size_t q = 0; q < r->nt; q++) {
        if (is(r, q, "{") || is(r, q, "}") || is(r, q, ";")) {
            depth += is(r, q, "{") ? 1 : is(r, q, "}") ? -1 : 0;
            stmt = q + 1;
            continue;
        }
        if (depth != 0 || r->t[q].kind != T_IDENT || r->t[q].e - r->t[q].b != n ||
            memcmp(r->src + r->t[q].b, r->src + r->t[k].b, n) != 0 || q + 1 >= r->nt || !is(r, q + 1, "("))
            continue;
        int global = 0, dev = 0;
        for (size_t a = stmt; a < q; a++) {
            global |= is(r, a, "__global__");
            dev |= is(r, a, "__device__");
        }
        if (global)
            return 0;
        if (dev && !device)
            device = tok_line(r, q);
    }
    return device;
}

/* The first argument of the `__launch_bounds__(MAX[, MIN[, ...]])` on a
 * file-scope declaration of the kernel named by token k (`__global__ void
 * __launch_bounds__(128) kernel(...)`), as written, or NULL: a GPU refuses
 * a launch of a block of more threads than MAX, so the emulator must too. */
static char *launch_bounds_of(const rw *r, size_t k)
{
    size_t n = r->t[k].e - r->t[k].b;
    int depth = 0;
    for (size_t q = 0; q + 3 < r->nt; q++) {
        if (is(r, q, "{") || is(r, q, "}")) {
            depth += is(r, q, "{") ? 1 : -1;
            continue;
        }
        if (depth != 0 || !is(r, q, "__launch_bounds__") || !is(r, q + 1, "("))
            continue;
        size_t a = q + 2, e = a;
        int d = 0;
        for (; e < r->nt; e++) {
            if (is(r, e, "(") || is(r, e, "["))
                d++;
            else if ((is(r, e, ")") || is(r, e, "]")) && d-- == 0)
                break;
            else if (d == 0 && is(r, e, ","))
                break;
        }
        size_t close = e;
        for (int dd = 0; close < r->nt; close++) {
            if (is(r, close, "("))
                dd++;
            else if (is(r, close, ")") && dd-- == 0)
                break;
        }
        /* the declared name: the word before the first '(' after the
         * bounds (`__launch_bounds__(128) kernel(` or `__launch_bounds__(128)
         * void kernel(`) */
        size_t open = close + 1;
        while (open < r->nt && !is(r, open, "(") && !is(r, open, ";") && !is(r, open, "{"))
            open++;
        if (e == a || open >= r->nt || !is(r, open, "(") || open == close + 1 || r->t[open - 1].kind != T_IDENT ||
            r->t[open - 1].e - r->t[open - 1].b != n || memcmp(r->src + r->t[open - 1].b, r->src + r->t[k].b, n) != 0)
            continue;
        return xasprintf("%.*s", (int)(r->t[e - 1].e - r->t[a].b), r->src + r->t[a].b);
    }
    return NULL;
}

/* Whether token k's name is declared at file scope as a __global__
 * function: the line of its first such declaration, else 0. */
static int global_function_line(const rw *r, size_t k)
{
    size_t n = r->t[k].e - r->t[k].b;
    int depth = 0;
    size_t stmt = 0;
    for (size_t q = 0; q < r->nt; q++) {
        if (is(r, q, "{") || is(r, q, "}") || is(r, q, ";")) {
            depth += is(r, q, "{") ? 1 : is(r, q, "}") ? -1 : 0;
            stmt = q + 1;
            continue;
        }
        if (depth != 0 || r->t[q].kind != T_IDENT || r->t[q].e - r->t[q].b != n ||
            memcmp(r->src + r->t[q].b, r->src + r->t[k].b, n) != 0 || q + 1 >= r->nt || !is(r, q + 1, "("))
            continue;
        for (size_t a = stmt; a < q; a++)
            if (is(r, a, "__global__"))
                return tok_line(r, q);
    }
    return 0;
}

static int rewrite_launch(rw *r, size_t i)
{
    /* the closing >>> */
    size_t j = i + 1;
    int depth = 0;
    for (; j < r->nt; j++) {
        if (is(r, j, "(") || is(r, j, "[") || is(r, j, "{"))
            depth++;
        else if (is(r, j, ")") || is(r, j, "]") || is(r, j, "}"))
            depth--;
        else if (depth == 0 && is(r, j, ">>>"))
            break;
        else if (depth == 0 && is(r, j, ";"))
            j = r->nt - 1;
    }
    if (j >= r->nt || !is(r, j, ">>>")) {
        r->err = xasprintf("line %d: <<< without a matching >>>", tok_line(r, i));
        return -1;
    }
    /* the kernel expression before <<<: [::]name[::name]...[<template args>] */
    if (i == 0) {
        r->err = xasprintf("line %d: <<< without a kernel before it", tok_line(r, i));
        return -1;
    }
    size_t k = i - 1;
    if (is(r, k, ">")) {
        int d = 0;
        for (;;) {
            if (is(r, k, ">"))
                d++;
            else if (is(r, k, ">>>"))
                d += 3;
            else if (is(r, k, "<"))
                d--;
            if (d == 0 || k == 0)
                break;
            k--;
        }
        if (d != 0 || k == 0) {
            r->err = xasprintf("line %d: cannot find the kernel of this launch", tok_line(r, i));
            return -1;
        }
        k--;
    }
    if (r->t[k].kind != T_IDENT) {
        r->err = xasprintf("line %d: cannot find the kernel of this launch (write kernel<<<grid, block>>>(args))",
                     tok_line(r, i));
        return -1;
    }
    int device = k + 1 == i ? device_function_line(r, k) : 0;
    if (device) {
        r->err = xasprintf("line %d: %.*s is declared __device__ (line %d), not __global__: a __device__ function is "
                           "called from device code and cannot be launched with <<< >>>; declare it __global__",
                           tok_line(r, i), (int)(r->t[k].e - r->t[k].b), r->src + r->t[k].b, device);
        return -1;
    }
    while (k >= 2 && is(r, k - 1, "::") && r->t[k - 2].kind == T_IDENT)
        k -= 2;
    if (k >= 1 && is(r, k - 1, "::"))
        k--;
    size_t cap = 64, n = 0;
    char *name = xrealloc(NULL, cap);
    for (size_t q = k; q < i; q++) {
        size_t l = r->t[q].e - r->t[q].b;
        if (n + l + 2 >= cap)
            name = xrealloc(name, cap = 2 * (cap + l));
        if (n && r->t[q].kind == T_IDENT && r->t[q - 1].kind == T_IDENT)
            name[n++] = ' ';
        for (size_t c = 0; c < l; c++) {
            char ch = r->src[r->t[q].b + c];
            name[n++] = ch == '"' ? '\'' : ch;
        }
    }
    name[n] = 0;
    char *args = launch_args_text(r, j + 1);
    char *bounds = r->t[i - 1].kind == T_IDENT ? launch_bounds_of(r, i - 1) : NULL;
    add_edit(r, r->t[k].b, r->t[k].b, xasprintf("::emu::launch_("));
    add_edit(r, r->t[i].b, r->t[i].e, xasprintf(", \"%s\", \"%s\", __FILE__, __LINE__, ", name, args));
    if (bounds)
        add_edit(r, r->t[j].b, r->t[j].e, xasprintf(").max_threads_((unsigned)(%s))", bounds));
    else
        add_edit(r, r->t[j].b, r->t[j].e, xasprintf(")"));
    free(bounds);
    free(args);
    free(name);
    return 0;
}

/* ---- __shared__ declarations ----------------------------------------------------------- */
static int in_function(const char *stack, int depth)
{
    for (int d = 0; d < depth; d++)
        if (stack[d] == 'b')
            return 1;
    return 0;
}

/* Names declared by tokens [a, e): for each top-level declarator, the last
 * identifier before its first '[' or '=' . */
size_t declared_names(const rw *r, size_t a, size_t e, size_t *out, size_t max)
{
    size_t n = 0, last = (size_t)-1;
    int depth = 0, seen_bracket = 0, angle = 0;
    for (size_t k = a; k <= e; k++) {
        if (k == e || (depth == 0 && angle == 0 && is(r, k, ","))) {
            if (last != (size_t)-1 && n < max)
                out[n++] = last;
            last = (size_t)-1;
            seen_bracket = 0;
            continue;
        }
        if (is(r, k, "(") || is(r, k, "[")) {
            if (depth == 0 && is(r, k, "["))
                seen_bracket = 1;
            depth++;
        } else if (is(r, k, ")") || is(r, k, "]")) {
            depth--;
        } else if (depth == 0 && is(r, k, "<")) {
            angle++;
        } else if (depth == 0 && is(r, k, ">") && angle > 0) {
            angle--;
        } else if (depth == 0 && is(r, k, "=")) {
            seen_bracket = 1;
        } else if (depth == 0 && !seen_bracket && angle == 0 && r->t[k].kind == T_IDENT && !is_keyword(r, k)) {
            last = k;
        }
    }
    return n;
}

/* The end of the declaration statement whose __shared__ is token i: the
 * index of its ';', or r->nt. */
size_t declaration_end(const rw *r, size_t i)
{
    size_t e = i + 1;
    int depth = 0;
    for (; e < r->nt; e++) {
        if (is(r, e, "(") || is(r, e, "[") || is(r, e, "{"))
            depth++;
        else if (is(r, e, ")") || is(r, e, "]") || is(r, e, "}"))
            depth--;
        else if (depth == 0 && is(r, e, ";"))
            break;
    }
    return e;
}

/* A __constant__ declaration at token i (its statement from stmt): unless
 * const, marked EMU_CONSTANT_ARRAY, which emu_device.h makes a section of
 * its own in race builds, each array 256-byte aligned, so that the bounds
 * check (race.c) knows the bytes past an array for padding. A const one
 * is left alone: clang refuses read-only and writable data in one section. */
static void mark_constant(rw *r, size_t i, size_t stmt, int declare)
{
    size_t e = declaration_end(r, i);
    int is_extern = 0, initialised = 0;
    for (size_t k = stmt; k < e && k < r->nt; k++) {
        if (is(r, k, "const") || is(r, k, "constexpr"))
            return;
        is_extern |= is(r, k, "extern");
        initialised |= k > i && is(r, k, "=");
    }
    add_edit(r, r->t[i].e, r->t[i].e, xasprintf(" EMU_CONSTANT_ARRAY"));
    /* The race build: each array declared to the runtime (its name, size
     * and line), so that a kernel's read of bytes nothing stored is seen
     * even before any cudaMemcpyToSymbol names the array (unset.c). One
     * home for the declaration's storage: an extern one has none here. */
    if (!declare || is_extern || e >= r->nt)
        return;
    size_t names[16];
    size_t nn = declared_names(r, i + 1, e, names, 16);
    for (size_t q = 0; q < nn; q++) {
        char *name = tok_text(r, names[q]);
        add_edit(r, r->t[e].e, r->t[e].e,
                 xasprintf(" static emu_constant_site_ emu_cs_%d(&%s, sizeof(%s), \"%s\", __FILE__, %d, %d);",
                           r->counter++, name, name, name, tok_line(r, names[q]), initialised));
        free(name);
    }
}

/* ---- subscripts of multi-dimensional arrays (the race build) ------------------------ *
 * ds_M[ty][tx] with tx past ds_M's second dimension lands in another row
 * of ds_M, inside the array: the bounds check sees nothing, and the rows
 * overlap (a race of the store with itself). In the race build each
 * subscript of a kernel's __shared__ or local array of two or more
 * dimensions is wrapped (emu_subscript_, emu_device.h), which checks it
 * against its own dimension; the array's name, the subscript as written and
 * the declaration's line ride along for the report (race.c). */
typedef struct {
    char *name;
    int rank, line, depth;
    size_t from; /* the first token after its declarator */
} md_array;
#define MD_ARRAYS 64
typedef struct {
    md_array a[MD_ARRAYS];
    int n;
} md_arrays;

/* The number of [...] groups from token k on (a declarator's dimensions). */
static int bracket_groups(const rw *r, size_t k, size_t *after)
{
    int n = 0;
    while (k < r->nt && is(r, k, "[")) {
        size_t c = closing(r, k); /* the ']' */
        if (c >= r->nt)
            break;
        n++;
        k = c + 1;
    }
    if (after)
        *after = k;
    return n;
}

static void md_add(md_arrays *m, const rw *r, size_t name, int depth)
{
    size_t after;
    int rank = bracket_groups(r, name + 1, &after);
    if (rank < 2 || rank > 4 || m->n == MD_ARRAYS)
        return;
    m->a[m->n++] = (md_array){ tok_text(r, name), rank, tok_line(r, name), depth, after };
}

static const md_array *md_find(const md_arrays *m, const rw *r, size_t i)
{
    for (int k = m->n - 1; k >= 0; k--)
        if (i >= m->a[k].from && is(r, i, m->a[k].name))
            return &m->a[k];
    return NULL;
}

/* Forgets the arrays of the blocks closed (depth now below theirs). */
static void md_leave(md_arrays *m, int depth)
{
    while (m->n > 0 && m->a[m->n - 1].depth > depth)
        free(m->a[--m->n].name);
}

/* Token i, an identifier at the start of a statement's last declarator, is
 * a local array declaration: the statement's tokens before it are types and
 * qualifiers only, and after its dimensions comes ';', '=' or ','. */
static int local_array_declared(const rw *r, size_t stmt, size_t i)
{
    static const char *const statements[] = { "return", "else", "do", "case", "goto", "throw", "delete", "typedef",
                                               "sizeof", "new", NULL };
    if (i == stmt || !is(r, i + 1, "["))
        return 0;
    for (size_t k = stmt; k < i; k++) {
        if (r->t[k].kind != T_IDENT)
            return 0;
        for (int s = 0; statements[s]; s++)
            if (is(r, k, statements[s]))
                return 0;
        if (is(r, k, "__shared__")) /* its own branch names every declarator */
            return 0;
    }
    size_t after;
    if (bracket_groups(r, i + 1, &after) < 2 || after >= r->nt)
        return 0;
    return is(r, after, ";") || is(r, after, "=") || is(r, after, ",");
}

/* The text of tokens [b, e) as a string literal's contents: white space
 * runs made one space, quotes and backslashes escaped (malloc'd). */
static char *literal_text(const rw *r, size_t b, size_t e)
{
    size_t from = r->t[b].b, to = r->t[e - 1].e, n = 0;
    char *out = xrealloc(NULL, 2 * (to - from) + 1);
    for (size_t k = from; k < to; k++) {
        char c = r->src[k];
        if (isspace((unsigned char)c)) {
            if (n > 0 && out[n - 1] != ' ')
                out[n++] = ' ';
            continue;
        }
        if (c == '"' || c == '\\')
            out[n++] = '\\';
        out[n++] = c;
    }
    out[n] = 0;
    return out;
}

/* The use of array a at token i: each of its subscripts wrapped. */
static void wrap_subscripts(rw *r, size_t i, const md_array *a)
{
    size_t k = i + 1;
    for (int d = 0; d < a->rank && k < r->nt && is(r, k, "["); d++) {
        size_t c = closing(r, k); /* the ']' */
        if (c >= r->nt || c < k + 2) /* no subscript in it */
            return;
        char *text = literal_text(r, k + 1, c);
        add_edit(r, r->t[k + 1].b, r->t[k + 1].b, xasprintf("emu_subscript_("));
        add_edit(r, r->t[c - 1].e, r->t[c - 1].e,
                 xasprintf(", %s, %d, \"%s\", \"%s\", %d)", a->name, d, a->name, text, a->line));
        free(text);
        k = c + 1;
    }
}

static int rewrite_shared(rw *r, size_t i, size_t stmt, int function_scope)
{
    size_t e = declaration_end(r, i);
    if (e >= r->nt) {
        r->err = xasprintf("line %d: __shared__ declaration without ';'", tok_line(r, i));
        return -1;
    }
    int is_extern = 0;
    for (size_t k = stmt; k < i; k++)
        if (is(r, k, "extern"))
            is_extern = 1;
    size_t names[64];
    size_t nn = declared_names(r, i + 1, e, names, 64);
    if (nn == 0) {
        r->err = xasprintf("line %d: cannot find the name this __shared__ declaration declares", tok_line(r, i));
        return -1;
    }
    /* an initialiser (`= {0}`, `= 0`, `{}`): nvcc refuses one ("initializer
     * not allowed for __shared__ variable"), where the struct member the
     * rewrite makes of it would take it as a default; the block's shared
     * memory starts with whatever it held */
    int depth = 0;
    for (size_t k = i + 1; k < e; k++) {
        if (is(r, k, "(") || is(r, k, "["))
            depth++;
        else if (is(r, k, ")") || is(r, k, "]"))
            depth--;
        else if (depth == 0 && (is(r, k, "=") || is(r, k, "{"))) {
            char *name = tok_text(r, names[0]);
            r->err = xasprintf("line %d: initializer not allowed for __shared__ variable: %s is __shared__ and its "
                               "declaration gives it a value, which nvcc refuses (the block's shared memory starts "
                               "with whatever it held); declare it without one and store its values in the kernel, "
                               "then __syncthreads()",
                               tok_line(r, k), name);
            free(name);
            return -1;
        }
    }
    int id = r->counter++;
    /* the qualifiers before __shared__ (static, extern, volatile, __align__(n)) move inside */
    size_t cap = 256, n = 0;
    char *pre = xrealloc(NULL, cap);
    pre[0] = 0;
    for (size_t k = stmt; k < i; k++) {
        if (!is(r, k, "static") && !is(r, k, "extern")) {
            size_t l = r->t[k].e - r->t[k].b;
            if (n + l + 2 >= cap)
                pre = xrealloc(pre, cap = 2 * (cap + l));
            memcpy(pre + n, r->src + r->t[k].b, l);
            n += l;
            pre[n++] = ' ';
            pre[n] = 0;
        }
        add_edit(r, r->t[k].b, r->t[k].e, xasprintf("%s", ""));
    }
    if (is_extern) {
        /* extern __shared__ T s[];  ->  typedef T emu_dt_K[]; + a reference or substitution */
        size_t nm = names[0];
        char *name = tok_text(r, nm);
        add_edit(r, r->t[i].b, r->t[i].e, xasprintf("typedef %s", pre));
        add_edit(r, r->t[nm].b, r->t[nm].e, xasprintf("emu_dt_%d", id));
        if (function_scope) {
            add_edit(r, r->t[e].e, r->t[e].e,
                     xasprintf(" emu_dt_%d &%s = *(emu_dt_%d *)emu_dynamic_shared_();", id, name, id));
            free(name);
        } else {
            r->subs = xrealloc(r->subs, (r->nsubs + 1) * sizeof *r->subs);
            r->subs[r->nsubs++] = (struct subst){ name, xasprintf("(*(emu_dt_%d *)emu_dynamic_shared_())", id), e + 1 };
        }
        free(pre);
        return 0;
    }
    add_edit(r, r->t[i].b, r->t[i].e, xasprintf("%sstruct emu_sh_%d { %s", function_scope ? "" : "namespace { ", id, pre));
    char *get = xasprintf("((emu_sh_%d *)emu_shared_static_(&emu_ss_%d, sizeof(emu_sh_%d), alignof(emu_sh_%d)))",
                    id, id, id, id);
    if (function_scope) {
        size_t rc = 512, rn = 0;
        char *refs = xrealloc(NULL, rc);
        refs[0] = 0;
        for (size_t q = 0; q < nn; q++) {
            char *name = tok_text(r, names[q]);
            /* emu_shared_named_: the array's name for the race build's
             * tile contents (emu_device.h), nothing in other builds */
            char *one = xasprintf(" auto &%s = emu_sv_%d->%s; emu_shared_named_(\"%s\", %s);", name, id, name, name, name);
            size_t l = strlen(one);
            if (rn + l + 1 >= rc)
                refs = xrealloc(refs, rc = 2 * (rc + l));
            memcpy(refs + rn, one, l + 1);
            rn += l;
            free(one);
            free(name);
        }
        add_edit(r, r->t[e].e, r->t[e].e,
                 xasprintf(" }; static __thread struct emu_shared_site emu_ss_%d; emu_sh_%d *const emu_sv_%d = %s;%s",
                     id, id, id, get, refs));
        free(refs);
    } else {
        add_edit(r, r->t[e].e, r->t[e].e, xasprintf(" }; static __thread struct emu_shared_site emu_ss_%d; }", id));
        for (size_t q = 0; q < nn; q++) {
            r->subs = xrealloc(r->subs, (r->nsubs + 1) * sizeof *r->subs);
            char *name = tok_text(r, names[q]);
            r->subs[r->nsubs++] = (struct subst){ name, xasprintf("(%s->%s)", get, name), e + 1 };
        }
    }
    free(get);
    free(pre);
    return 0;
}

static int edit_cmp(const void *a, const void *b)
{
    const edit *x = a, *y = b;
    if (x->b != y->b)
        return x->b < y->b ? -1 : 1;
    return x->order - y->order;
}

/* What the '{' at token i opens, from its statement's tokens [stmt, i):
 * 'n' a namespace or extern "C" block, 't' a type's body, 'b' a function
 * body or a block of statements. */
char block_kind(const rw *r, size_t stmt, size_t i)
{
    char kind = 'b';
    for (size_t k = stmt; k < i; k++) {
        if (is(r, k, "namespace") || (is(r, k, "extern") && k + 1 < i && r->t[k + 1].kind == T_STR))
            kind = 'n';
        else if (kind == 'b' && (is(r, k, "struct") || is(r, k, "class") || is(r, k, "union") || is(r, k, "enum")))
            kind = 't';
        else if (is(r, k, "(") || is(r, k, "="))
            break;
    }
    /* a struct with a function body? "struct S f() {" is a function */
    if (kind == 't') {
        for (size_t k = stmt; k < i; k++)
            if (is(r, k, "("))
                kind = 'b';
    }
    return kind;
}

/* The text with the edits applied, behind prefix (malloc'd), or NULL. */
static char *apply_edits(rw *r, const char *text, size_t len, const char *prefix)
{
    qsort(r->ed, r->ned, sizeof *r->ed, edit_cmp);
    size_t extra = strlen(prefix);
    for (size_t k = 0; k < r->ned; k++)
        extra += strlen(r->ed[k].text);
    char *out = malloc(len + extra + 1);
    if (!out)
        return NULL;
    size_t o = 0, pos = 0;
    memcpy(out, prefix, strlen(prefix));
    o += strlen(prefix);
    for (size_t k = 0; k < r->ned; k++) {
        edit *ed = &r->ed[k];
        if (ed->b < pos)
            continue;
        memcpy(out + o, text + pos, ed->b - pos);
        o += ed->b - pos;
        size_t l = strlen(ed->text);
        memcpy(out + o, ed->text, l);
        o += l;
        pos = ed->e;
    }
    memcpy(out + o, text + pos, len - pos);
    o += len - pos;
    out[o] = 0;
    return out;
}

/* Past blanks and line continuations from d[k]. */
static size_t skip_blanks(const char *d, size_t n, size_t k)
{
    for (;;) {
        if (k < n && (d[k] == ' ' || d[k] == '\t'))
            k++;
        else if (k + 1 < n && d[k] == '\\' && d[k + 1] == '\n')
            k += 2;
        else if (k + 2 < n && d[k] == '\\' && d[k + 1] == '\r' && d[k + 2] == '\n')
            k += 3;
        else
            return k;
    }
}

/* "# include <" at the start of a preprocessor line: a system header. */
static int includes_system_header(const char *d, size_t n)
{
    size_t k = skip_blanks(d, n, 1);
    if (n - k < 7 || strncmp(d + k, "include", 7) != 0)
        return 0;
    k = skip_blanks(d, n, k + 7);
    return k < n && d[k] == '<';
}

/* The line number the compiler gives a #line directive's next line, from
 * "#line N ..." or "# N ...", or -1 when d is no such directive. */
static long line_directive_number(const char *d, size_t n)
{
    size_t k = skip_blanks(d, n, 1);
    if (n - k >= 4 && strncmp(d + k, "line", 4) == 0)
        k = skip_blanks(d, n, k + 4);
    if (k >= n || !isdigit((unsigned char)d[k]))
        return -1;
    return strtol(d + k, NULL, 10);
}

/* CUDA's __noinline__ is a macro of emu_device.h, and libstdc++ writes
 * __attribute__((__noinline__)) in some of its headers (<memory> from GCC
 * 12, <string> from GCC 13): each #include <...> of the file is read with
 * the macro put aside, between #pragma push_macro and pop_macro. The lines
 * added are taken back with #line, so every line keeps its number. (The
 * header used to include <memory> and <string> itself, first, for this;
 * they were half of every compile.) */
static void wrap_system_includes(rw *r)
{
    long physical = 1, delta = 0; /* the compiler's number of a line: physical + delta */
    size_t pos = 0;
    for (size_t k = 0; k < r->ndirs; k++) {
        const char *d = r->src + r->dirs[k].b;
        size_t n = r->dirs[k].e - r->dirs[k].b;
        for (; pos < r->dirs[k].b; pos++)
            physical += r->src[pos] == '\n';
        long lines = 0; /* continuation lines of the directive */
        for (size_t j = 0; j < n; j++)
            lines += d[j] == '\n';
        long number = line_directive_number(d, n);
        if (number >= 0) {
            delta = number - (physical + lines + 1);
        } else if (includes_system_header(d, n)) {
            add_edit(r, r->dirs[k].b, r->dirs[k].e,
                     xasprintf("#pragma push_macro(\"__noinline__\")\n#undef __noinline__\n#line %ld\n%.*s\n"
                         "#pragma pop_macro(\"__noinline__\")\n#line %ld",
                         physical + delta, (int)n, d, physical + lines + 1 + delta));
        }
    }
}

void rw_free(rw *r)
{
    free(r->dirs);
    for (size_t k = 0; k < r->ned; k++)
        free(r->ed[k].text);
    free(r->ed);
    free(r->t);
    for (size_t s = 0; s < r->nsubs; s++) {
        free(r->subs[s].name);
        free(r->subs[s].repl);
    }
    free(r->subs);
}

/* "NAME=HEX" -> the declaration and reader before the file, and the
 * statement for the top of each kernel's body; -1 when malformed. */
static int kernel_token_texts(const char *kernel_token, int for_gpu, char **prefix, char **mark)
{
    const char *eq = strchr(kernel_token, '=');
    if (!eq || eq == kernel_token || strspn(kernel_token, "abcdefghijklmnopqrstuvwxyz_0123456789") !=
                                             (size_t)(eq - kernel_token) ||
        strlen(eq + 1) == 0 || strlen(eq + 1) > 16 || strspn(eq + 1, "0123456789abcdef") != strlen(eq + 1))
        return -1;
    int n = (int)(eq - kernel_token);
    /* On a GPU the variable is in device memory: the runtime's symbol
     * copies. The emulator's device memory is the host's, and a symbol copy
     * there would be logged as a student's (evidence for lab 04's constant
     * memory), so the reader just reads. */
    char *read_and_clear =
        for_gpu ? xasprintf("    if (cudaMemcpyFromSymbol(&v, %.*s, sizeof v, 0, cudaMemcpyDeviceToHost) != cudaSuccess ||\n"
                      "        cudaMemcpyToSymbol(%.*s, &zero, sizeof zero, 0, cudaMemcpyHostToDevice) != cudaSuccess)\n"
                      "        return 0;\n",
                      n, kernel_token, n, kernel_token)
                : xasprintf("    v = %.*s;\n    %.*s = zero;\n", n, kernel_token, n, kernel_token);
    /* The reader's name is as secret as the variable's (NAME_read): the
     * build renames the harness's call of gpulab_kernel_token() to it, so
     * the student's code cannot call it to learn the token. */
    *prefix = xasprintf("#include <cuda_runtime.h>\n"
                  "__device__ unsigned long long %.*s;\n"
                  "extern \"C\" unsigned long long %.*s_read(void)\n"
                  "{\n"
                  "    unsigned long long v = 0, zero = 0;\n"
                  "%s"
                  "    return v;\n"
                  "}\n",
                  n, kernel_token, n, kernel_token, read_and_clear);
    free(read_and_clear);
    /* The block's shape rides in the low 29 bits (x and y 11 bits each, z
     * 7), XORed into the token: the kit's own view of the launch (lab 04's
     * two-batch requirement), which the program cannot print without the
     * token's other 35 bits. Of a call's launches the largest block is
     * kept, not the last: a one-thread kernel launched after the real one
     * would otherwise stand for it. The block's test first, with &&: every
     * thread runs it, and a block other than the first then costs one
     * well-predicted branch (a grid of millions of blocks that return at
     * once spent a third of its time on the six reads). */
    *mark = xasprintf(" if ((blockIdx.x | blockIdx.y | blockIdx.z) == 0 && (threadIdx.x | threadIdx.y | threadIdx.z) == 0) { "
                "unsigned long long gpulab_had_ = %.*s ^ 0x%sull; "
                "if (%.*s == 0 || (gpulab_had_ & 2047ull) * ((gpulab_had_ >> 11) & 2047ull) * "
                "((gpulab_had_ >> 22) & 127ull) < (unsigned long long)blockDim.x * blockDim.y * blockDim.z) "
                "%.*s = 0x%sull ^ ((unsigned long long)blockDim.x | ((unsigned long long)blockDim.y << 11) | "
                "((unsigned long long)blockDim.z << 22)); }",
                n, kernel_token, eq + 1, n, kernel_token, n, kernel_token, eq + 1);
    return 0;
}

char *emu_poison_shared_source(const char *text, size_t len, char **err)
{
    return emu_source_pass(text, len, 1, NULL, 1, err);
}

char *emu_source_pass(const char *text, size_t len, int poison, const char *kernel_token, int for_gpu,
                      char **err)
{
    char *prefix = NULL, *mark = NULL;
    if (kernel_token && kernel_token_texts(kernel_token, for_gpu, &prefix, &mark) != 0) {
        *err = xasprintf("bad kernel token '%s' (expected NAME=HEX)", kernel_token);
        return NULL;
    }
    rw r;
    memset(&r, 0, sizeof r);
    r.src = text;
    r.len = len;
    if (tokenize(&r) != 0) {
        *err = r.err;
        free(prefix);
        free(mark);
        return NULL;
    }
    int depth = 0, kernel_depth = -1, returned = 0;
    size_t stmt = 0;
    for (size_t i = 0; i < r.nt; i++) {
        if (is(&r, i, "{")) {
            if (kernel_depth < 0 && block_kind(&r, stmt, i) == 'b') {
                for (size_t k = stmt; k < i; k++)
                    if (is(&r, k, "__global__")) {
                        kernel_depth = depth + 1;
                        returned = 0;
                    }
                if (kernel_depth >= 0 && mark)
                    add_edit(&r, r.t[i].e, r.t[i].e, xasprintf("%s", mark));
            }
            depth++;
            stmt = i + 1;
        } else if (is(&r, i, "}")) {
            if (depth > 0)
                depth--;
            if (depth < kernel_depth)
                kernel_depth = -1;
            stmt = i + 1;
        } else if (is(&r, i, ";")) {
            stmt = i + 1;
        } else if (kernel_depth >= 0 && is(&r, i, "return")) {
            returned = 1;
        } else if (poison && kernel_depth >= 0 && depth == kernel_depth && !returned && is(&r, i, "__shared__")) {
            /* At the top of a kernel's body, before any return: every thread
             * of the block passes here, so the fill's barrier is safe. */
            size_t e = declaration_end(&r, i);
            if (e >= r.nt)
                break; /* nvcc will say what is wrong */
            int is_extern = 0;
            for (size_t k = stmt; k < i; k++)
                if (is(&r, k, "extern"))
                    is_extern = 1;
            size_t names[64];
            size_t nn = declared_names(&r, i + 1, e, names, 64);
            for (size_t k = 0; k < nn; k++) {
                char *name = tok_text(&r, names[k]);
                add_edit(&r, r.t[e].e, r.t[e].e,
                         is_extern ? xasprintf(" gpulab_poison_dynamic_shared_((void *)(%s));", name)
                                   : xasprintf(" gpulab_poison_shared_((void *)&(%s), sizeof(%s));", name, name));
                free(name);
            }
            i = e;
            stmt = e + 1;
        }
    }
    char *out = apply_edits(&r, text, len, prefix ? prefix : "");
    if (!out)
        *err = xasprintf("out of memory");
    rw_free(&r);
    free(prefix);
    free(mark);
    return out;
}


/* ---- a kernel's tests, for the race build's account of its branches ------- *
 * emucc --race only: the condition of each if, for and while in a kernel's
 * body becomes emu_test_(__LINE__, (COND)), and each comparison joined by
 * && or || at its top level (A < B, A == B, ...) emu_lt_(K, (A), (B)) and
 * so on (K: which operand of the && and || it is), so that the runtime learns, in the blocks whose tiles it keeps, which
 * way each thread's tests went and the two values each compared
 * (tiles.c): the test that kept a thread from storing a tile slot, or
 * sent it to the branch that stored the wrong value. Short-circuiting is
 * kept (the && and || stay), and so is every value: the calls return the
 * comparison itself. A condition with a top-level comma or a declaration
 * in it is left as it is. */

/* The token that closes the bracket opened at k, or nt. */
size_t closing(const rw *r, size_t k)
{
    int depth = 0;
    for (size_t i = k; i < r->nt; i++) {
        if (is(r, i, "(") || is(r, i, "[") || is(r, i, "{"))
            depth++;
        else if (is(r, i, ")") || is(r, i, "]") || is(r, i, "}"))
            if (--depth == 0)
                return i;
    }
    return r->nt;
}

/* Tokens k and k+1 written together as one operator ("&&", "<="). */
int pair_at(const rw *r, size_t k, const char *a, const char *b)
{
    return k + 1 < r->nt && is(r, k, a) && is(r, k + 1, b) && r->t[k].e == r->t[k + 1].b;
}

/* The comparison operator at token k: its function's name and its length
 * in tokens (1 or 2); NULL when there is none. */
static const char *comparison_at(const rw *r, size_t k, int *len)
{
    static const struct { const char *a, *b, *fn; } two[] = {
        { "<", "=", "emu_le_" }, { ">", "=", "emu_ge_" }, { "=", "=", "emu_eq_" }, { "!", "=", "emu_ne_" }
    };
    for (size_t i = 0; i < sizeof two / sizeof two[0]; i++)
        if (pair_at(r, k, two[i].a, two[i].b)) {
            *len = 2;
            return two[i].fn;
        }
    *len = 1;
    if (is(r, k, "<"))
        return "emu_lt_";
    if (is(r, k, ">"))
        return "emu_gt_";
    return NULL;
}

/* One operand of && or ||, tokens [b, e): A OP B becomes emu_OP_((A), (B))
 * when OP is its one top-level operator (no shift, no template, no ?:);
 * index: which operand of the && and || it is, from 0. */
static void wrap_comparison(rw *r, size_t b, size_t e, int index)
{
    int depth = 0, nops = 0, oplen = 0;
    size_t op = 0;
    const char *fn = NULL;
    for (size_t k = b; k < e; k++) {
        if (is(r, k, "(") || is(r, k, "["))
            depth++;
        else if (is(r, k, ")") || is(r, k, "]"))
            depth--;
        else if (depth == 0) {
            if (pair_at(r, k, "<", "<") || pair_at(r, k, ">", ">") || is(r, k, "?") || is(r, k, "->"))
                return;
            int len;
            const char *f = comparison_at(r, k, &len);
            if (f) {
                nops++;
                op = k;
                oplen = len;
                fn = f;
                k += (size_t)len - 1;
            } else if (is(r, k, "=")) {
                return; /* an assignment */
            }
        }
    }
    if (nops != 1 || op == b || op + (size_t)oplen >= e)
        return;
    add_edit(r, r->t[b].b, r->t[b].b, xasprintf("%s(%d, (", fn, index));
    add_edit(r, r->t[op].b, r->t[op + (size_t)oplen - 1].e, xasprintf("), ("));
    add_edit(r, r->t[e - 1].e, r->t[e - 1].e, xasprintf("))"));
}

/* The condition in tokens [b, e) (inside its parentheses). */
static void wrap_test(rw *r, size_t b, size_t e)
{
    if (b >= e)
        return;
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        if (is(r, k, "(") || is(r, k, "[") || is(r, k, "{"))
            depth++;
        else if (is(r, k, ")") || is(r, k, "]") || is(r, k, "}"))
            depth--;
        else if (depth == 0 && (is(r, k, ",") || is(r, k, ";")))
            return;
        else if (depth == 0 && is(r, k, "=") && !(k > b && (is(r, k - 1, "=") || is(r, k - 1, "<") ||
                                                            is(r, k - 1, ">") || is(r, k - 1, "!"))) &&
                 !is(r, k + 1, "="))
            return; /* a declaration or an assignment: left as it is */
    }
    add_edit(r, r->t[b].b, r->t[b].b, xasprintf("emu_test_(__LINE__, ("));
    size_t from = b;
    int index = 0;
    depth = 0;
    for (size_t k = b; k <= e; k++) {
        if (k < e && (is(r, k, "(") || is(r, k, "[")))
            depth++;
        else if (k < e && (is(r, k, ")") || is(r, k, "]")))
            depth--;
        else if (k == e || (depth == 0 && (pair_at(r, k, "&", "&") || pair_at(r, k, "|", "|")))) {
            wrap_comparison(r, from, k, index++);
            from = k + 2;
            k++;
        }
    }
    add_edit(r, r->t[e - 1].e, r->t[e - 1].e, xasprintf("))"));
}

/* `if (`, `while (` or `for (` at token i: its condition wrapped. */
static void rewrite_test(rw *r, size_t i)
{
    size_t open = i + 1, close = closing(r, open);
    if (close >= r->nt)
        return;
    if (!is(r, i, "for")) {
        wrap_test(r, open + 1, close);
        return;
    }
    size_t semi[2], n = 0;
    int depth = 0;
    for (size_t k = open + 1; k < close && n < 2; k++) {
        if (is(r, k, "(") || is(r, k, "[") || is(r, k, "{"))
            depth++;
        else if (is(r, k, ")") || is(r, k, "]") || is(r, k, "}"))
            depth--;
        else if (depth == 0 && is(r, k, ";"))
            semi[n++] = k;
    }
    if (n == 2)
        wrap_test(r, semi[0] + 1, semi[1]);
}

/* A store into an array that starts a statement at token i (`a[i][j] = v;`,
 * `a[i] += v;`, alone or as the body of an if, else, for or while): the
 * race build marks it with its line, emu_store_line_(__LINE__), before it,
 * so that the tile snapshot names the store that wrote a slot even where
 * the compiler made the stores of both branches one instruction (tiles.c). */
static void mark_store(rw *r, size_t i, size_t stmt)
{
    if (r->t[i].kind != T_IDENT || is_keyword(r, i) || i + 1 >= r->nt || !is(r, i + 1, "["))
        return;
    int start = i == stmt || (i > 0 && is(r, i - 1, "else"));
    if (!start && i > 0 && is(r, i - 1, ")")) {
        int depth = 0;
        size_t k = i - 1;
        for (;; k--) {
            depth += is(r, k, ")") - is(r, k, "(");
            if (depth == 0 || k == 0)
                break;
        }
        start = depth == 0 && k > 0 && (is(r, k - 1, "if") || is(r, k - 1, "for") || is(r, k - 1, "while"));
    }
    if (!start)
        return;
    size_t k = i + 1;
    while (k < r->nt && is(r, k, "["))
        k = closing(r, k) + 1;
    if (k + 1 >= r->nt)
        return;
    int assign = is(r, k, "=") && !pair_at(r, k, "=", "=");
    static const char *const ops[] = { "+", "-", "*", "/", "%", "&", "|", "^" };
    for (size_t o = 0; o < sizeof ops / sizeof ops[0] && !assign; o++)
        assign = pair_at(r, k, ops[o], "=");
    if (assign)
        add_edit(r, r->t[i].b, r->t[i].b, xasprintf("emu_store_line_(__LINE__), "));
}

/* ---- host variables read in a kernel ----------------------------------------------- */

/* The names the file declares as host variables: declarations at file
 * scope with no memory space (__device__, __constant__, __managed__), not
 * const (a const scalar with a constant value is usable in device code)
 * and no function's; their name tokens into out, at most max; how many. */
static size_t host_globals(const rw *r, size_t *out, size_t max)
{
    static const char *const skip[] = { "(", "__device__", "__constant__", "__managed__", "__shared__", "const",
                                        "constexpr", "extern", "typedef", "struct", "class", "enum", "union",
                                        "template", "using", "namespace", "static_assert", "operator", "=", NULL };
    size_t n = 0, st = 0;
    int depth = 0;
    for (size_t i = 0; i < r->nt && n < max; i++) {
        if (is(r, i, "{")) {
            depth++;
        } else if (is(r, i, "}")) {
            if (depth > 0 && --depth == 0)
                st = i + 1;
        } else if (depth == 0 && is(r, i, ";")) {
            int plain = i > st;
            for (size_t k = st; k < i && plain; k++)
                for (int q = 0; skip[q] && plain; q++)
                    plain = !is(r, k, skip[q]);
            /* (an initialiser, `= ...`, is left out: `float w = 2;` may be
             * read by host code only, and `=` ends the check above) */
            if (plain)
                n += declared_names(r, st, i, out + n, max - n);
            st = i + 1;
        }
    }
    return n;
}

/* Whether the name at token i is declared between the kernel header that
 * precedes it and i (a parameter or a local of the same name). */
static int declared_in_kernel(const rw *r, size_t i)
{
    static const char *const types[] = { "float", "int", "double", "unsigned", "char", "long", "short", "bool",
                                         "auto", "size_t", "dim3", "*", "&", NULL };
    for (size_t k = i; k-- > 0;) {
        if (is(r, k, "__global__"))
            return 0;
        if (r->t[k].e - r->t[k].b == r->t[i].e - r->t[i].b &&
            !memcmp(r->src + r->t[k].b, r->src + r->t[i].b, r->t[i].e - r->t[i].b) && k > 0)
            for (int q = 0; types[q]; q++)
                if (is(r, k - 1, types[q]))
                    return 1;
    }
    return 0;
}

char *emu_rewrite(const char *path, const char *text, size_t len, int tests, char **err)
{
    rw r;
    memset(&r, 0, sizeof r);
    r.src = text;
    r.len = len;
    if (tokenize(&r) != 0) {
        *err = r.err;
        return NULL;
    }
    char stack[512], in_kernel[512];
    int depth = 0;
    md_arrays md = { .n = 0 };
    size_t hosts[64], nhosts = host_globals(&r, hosts, 64);
    size_t stmt = 0; /* first token of the current statement */
    for (size_t i = 0; i < r.nt; i++) {
        if (tests && depth > 0 && depth <= (int)sizeof stack && in_kernel[depth - 1])
            mark_store(&r, i, stmt);
        if (is(&r, i, "{")) {
            char kind = block_kind(&r, stmt, i);
            if (depth < (int)sizeof stack) {
                stack[depth] = kind;
                in_kernel[depth] = depth > 0 && in_kernel[depth - 1];
                for (size_t k = stmt; kind == 'b' && k < i && !in_kernel[depth]; k++)
                    in_kernel[depth] = is(&r, k, "__global__");
            }
            depth++;
            stmt = i + 1;
        } else if (is(&r, i, "}")) {
            if (depth > 0)
                depth--;
            md_leave(&md, depth);
            stmt = i + 1;
        } else if (is(&r, i, ";")) {
            stmt = i + 1;
        } else if (is(&r, i, "return") && depth > 0 && depth <= (int)sizeof stack && in_kernel[depth - 1]) {
            int bare = i + 1 < r.nt && is(&r, i + 1, ";");
            if (i + 1 < r.nt && is(&r, i + 1, "{")) /* return {...}; (a lambda's): no comma before a braced list */
                add_edit(&r, r.t[i].b, r.t[i].e, xasprintf("for (emu_note_return_(__FILE__, __LINE__);;) return"));
            else
                add_edit(&r, r.t[i].b, r.t[i].e,
                         xasprintf("return emu_note_return_(__FILE__, __LINE__)%s", bare ? "" : ","));
        } else if (tests && (is(&r, i, "if") || is(&r, i, "for") || is(&r, i, "while")) && i + 1 < r.nt &&
                   is(&r, i + 1, "(") && depth > 0 && depth <= (int)sizeof stack && in_kernel[depth - 1]) {
            rewrite_test(&r, i);
        } else if (is(&r, i, "<<<")) {
            if (rewrite_launch(&r, i) != 0)
                goto fail;
        } else if (is(&r, i, "__shared__")) {
            int fs = in_function(stack, depth < (int)sizeof stack ? depth : (int)sizeof stack);
            if (tests && fs && depth <= (int)sizeof stack && in_kernel[depth - 1]) {
                size_t names[16], e = declaration_end(&r, i);
                size_t nn = declared_names(&r, i + 1, e, names, 16);
                for (size_t q = 0; q < nn; q++)
                    md_add(&md, &r, names[q], depth);
            }
            if (rewrite_shared(&r, i, stmt, fs) != 0)
                goto fail;
        } else if (depth > 0 && depth <= (int)sizeof stack && !in_kernel[depth - 1] && r.t[i].kind == T_IDENT &&
                   i + 1 < r.nt && is(&r, i + 1, "(") &&
                   !(i > 0 && (is(&r, i - 1, ".") || is(&r, i - 1, "->") || is(&r, i - 1, "::") ||
                               is(&r, i - 1, "&"))) &&
                   global_function_line(&r, i) && global_function_line(&r, i) != tok_line(&r, i)) {
            /* host code that calls a kernel like a function: nvcc refuses
             * it ("a __global__ function call must be configured"); here it
             * would run its body once, on the host (a kernel's own calls are
             * left alone: the repair search's schemata build dispatches to
             * its mutated kernels so) */
            r.err = xasprintf("line %d: %.*s is a __global__ function (line %d), called here like a host "
                              "function: a kernel is launched with an execution configuration, "
                              "%.*s<<<grid, block>>>(...)",
                              tok_line(&r, i), (int)(r.t[i].e - r.t[i].b), r.src + r.t[i].b,
                              global_function_line(&r, i), (int)(r.t[i].e - r.t[i].b), r.src + r.t[i].b);
            goto fail;
        } else if (depth > 0 && depth <= (int)sizeof stack && in_kernel[depth - 1] && r.t[i].kind == T_IDENT &&
                   r.t[i].e - r.t[i].b > 4 && !strncmp(r.src + r.t[i].b, "cuda", 4) &&
                   r.src[r.t[i].b + 4] >= 'A' && r.src[r.t[i].b + 4] <= 'Z' && i + 1 < r.nt && is(&r, i + 1, "(") &&
                   !(i > 0 && (is(&r, i - 1, ".") || is(&r, i - 1, "->") || is(&r, i - 1, "::")))) {
            /* the CUDA runtime's host API called in a kernel: nvcc refuses
             * it ("calling a __host__ function from a __global__ function
             * is not allowed"; the device runtime needs -rdc, which the
             * kit's GPU build does not use); here it would run on the host */
            int sync = (r.t[i].e - r.t[i].b == 21 && !strncmp(r.src + r.t[i].b, "cudaDeviceSynchronize", 21)) ||
                       (r.t[i].e - r.t[i].b == 21 && !strncmp(r.src + r.t[i].b, "cudaThreadSynchronize", 21));
            r.err = xasprintf("line %d: %.*s is a host function of the CUDA runtime, called here in a kernel: "
                              "calling a __host__ function from a __global__ function is not allowed%s",
                              tok_line(&r, i), (int)(r.t[i].e - r.t[i].b), r.src + r.t[i].b,
                              sync ? " (it is the host's wait for the whole device; the threads of a block wait "
                                     "for each other with __syncthreads())"
                                   : "");
            goto fail;
        } else if (nhosts && depth > 0 && depth <= (int)sizeof stack && in_kernel[depth - 1] &&
                   r.t[i].kind == T_IDENT && !(i + 1 < r.nt && is(&r, i + 1, "(")) &&
                   !(i > 0 && (is(&r, i - 1, ".") || is(&r, i - 1, "->") || is(&r, i - 1, "::")))) {
            /* a host variable read in a kernel: nvcc refuses it ("identifier
             * is undefined in device code"); here the kernel would read the
             * host's copy, which the program fills on the host */
            size_t h = 0;
            while (h < nhosts && !(r.t[hosts[h]].e - r.t[hosts[h]].b == r.t[i].e - r.t[i].b &&
                                   !memcmp(r.src + r.t[hosts[h]].b, r.src + r.t[i].b, r.t[i].e - r.t[i].b)))
                h++;
            if (h < nhosts && !declared_in_kernel(&r, i)) {
                r.err = xasprintf("line %d: %.*s is a host variable (declared at line %d with no __constant__ or "
                                  "__device__), read here in a kernel: device code cannot reach the host's variables "
                                  "(identifier \"%.*s\" is undefined in device code); declare it __constant__ (or "
                                  "__device__) and fill it with cudaMemcpyToSymbol, or give its data to the kernel",
                                  tok_line(&r, i), (int)(r.t[i].e - r.t[i].b), r.src + r.t[i].b,
                                  tok_line(&r, hosts[h]), (int)(r.t[i].e - r.t[i].b), r.src + r.t[i].b);
                goto fail;
            }
        } else if (is(&r, i, "__constant__")) {
            if (!in_function(stack, depth < (int)sizeof stack ? depth : (int)sizeof stack))
                mark_constant(&r, i, stmt, tests);
        } else if (tests && r.t[i].kind == T_IDENT && depth > 0 && depth <= (int)sizeof stack &&
                   in_kernel[depth - 1] && i + 1 < r.nt && is(&r, i + 1, "[") &&
                   !(i > 0 && (is(&r, i - 1, ".") || is(&r, i - 1, "->") || is(&r, i - 1, "::"))) &&
                   (md_find(&md, &r, i) || local_array_declared(&r, stmt, i))) {
            const md_array *a = md_find(&md, &r, i);
            if (a) {
                wrap_subscripts(&r, i, a);
            } else { /* every declarator of the statement (`float a[2][2], b[3][3];`) */
                size_t names[16], e = declaration_end(&r, i);
                size_t nn = declared_names(&r, i, e, names, 16);
                for (size_t q = 0; q < nn; q++)
                    md_add(&md, &r, names[q], depth);
            }
        } else if (r.nsubs && r.t[i].kind == T_IDENT && !(i > 0 && (is(&r, i - 1, ".") || is(&r, i - 1, "->") || is(&r, i - 1, "::")))) {
            for (size_t s = 0; s < r.nsubs; s++) {
                if (i >= r.subs[s].from && is(&r, i, r.subs[s].name)) {
                    add_edit(&r, r.t[i].b, r.t[i].e, xasprintf("%s", r.subs[s].repl));
                    break;
                }
            }
        }
    }
    md_leave(&md, -1);
    wrap_system_includes(&r);
    /* the output: #line, then the text with the edits applied */
    size_t plen = strlen(path);
    char *line = malloc(2 * plen + 16);
    if (!line) {
        *err = xasprintf("out of memory");
        rw_free(&r);
        return NULL;
    }
    size_t o = (size_t)sprintf(line, "#line 1 \"");
    for (size_t k = 0; k < plen; k++) {
        if (path[k] == '"' || path[k] == '\\')
            line[o++] = '\\';
        line[o++] = path[k];
    }
    strcpy(line + o, "\"\n");
    char *out = apply_edits(&r, text, len, line);
    free(line);
    if (!out)
        *err = xasprintf("out of memory");
    rw_free(&r);
    return out;

fail:
    md_leave(&md, -1);
    *err = r.err;
    rw_free(&r);
    return NULL;
}
