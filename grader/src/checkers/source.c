/*
 * source.c - see source.h.
 */
#define _GNU_SOURCE
#include "source.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int source_is_identifier_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int source_skip_comment_or_literal(const char *text, size_t len, size_t *i, int *line)
{
    size_t k = *i;
    char c = text[k];
    char next = k + 1 < len ? text[k + 1] : '\0';
    if (c == '/' && next == '/') {
        while (k < len && text[k] != '\n')
            k++;
        *i = k - 1; /* the newline is counted by the caller */
        return 1;
    }
    if (c == '/' && next == '*') {
        for (k += 2; k < len && !(text[k] == '*' && k + 1 < len && text[k + 1] == '/'); k++)
            *line += text[k] == '\n';
        *i = k + 1;
        return 1;
    }
    if (c == '"' || c == '\'') {
        for (k++; k < len && text[k] != c && text[k] != '\n'; k++)
            k += text[k] == '\\';
        *i = k < len && text[k] == '\n' ? k - 1 : k; /* an unended literal: its newline still counts */
        return 1;
    }
    return 0;
}

/* The text with every comment and literal blanked (newlines kept), so that
 * what is left is code, line for line. */
static char *code_only(const char *text, size_t len)
{
    char *code = xcalloc(len + 1, 1);
    memcpy(code, text, len);
    int unused = 0;
    for (size_t i = 0; i < len; i++) {
        size_t start = i;
        if (!source_skip_comment_or_literal(text, len, &i, &unused))
            continue;
        for (size_t k = start; k <= i && k < len; k++)
            if (code[k] != '\n')
                code[k] = ' ';
    }
    return code;
}

#define MAX_CONSTANTS 8
#define NAME_MAX_LEN 64

/* The names of the arrays declared __constant__ in code: the identifier
 * before the first '[' of each declaration. Returns how many. */
static int constant_arrays(const char *code, char names[MAX_CONSTANTS][NAME_MAX_LEN])
{
    int n = 0;
    for (const char *p = strstr(code, "__constant__"); p && n < MAX_CONSTANTS; p = strstr(p + 1, "__constant__")) {
        if (p > code && source_is_identifier_char(p[-1]))
            continue;
        const char *q = p + strlen("__constant__"), *last = NULL;
        size_t last_len = 0;
        while (*q && *q != '[' && *q != ';' && *q != '=' && *q != '(') {
            if (source_is_identifier_char(*q)) {
                last = q;
                while (source_is_identifier_char(*q))
                    q++;
                last_len = (size_t)(q - last);
            } else {
                q++;
            }
        }
        if (*q == '[' && last && last_len < NAME_MAX_LEN) {
            memcpy(names[n], last, last_len);
            names[n][last_len] = '\0';
            n++;
        }
    }
    return n;
}

/* Whether line (up to end) reads name with two subscripts: name [..] [..]. */
static int reads_twice_subscripted(const char *line, const char *end, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = line; p + n <= end; p++) {
        if (strncmp(p, name, n) != 0 || (p > line && source_is_identifier_char(p[-1])) ||
            source_is_identifier_char(p[n]))
            continue;
        const char *q = p + n;
        int subscripts = 0;
        while (subscripts < 2) {
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (q >= end || *q != '[')
                break;
            int depth = 0;
            for (; q < end; q++) {
                depth += *q == '[';
                depth -= *q == ']';
                if (depth == 0)
                    break;
            }
            if (q >= end)
                break;
            q++;
            subscripts++;
        }
        if (subscripts == 2)
            return 1;
    }
    return 0;
}

int source_mask_read_line(const char *path, int *count)
{
    *count = 0;
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    char names[MAX_CONSTANTS][NAME_MAX_LEN];
    int nnames = constant_arrays(code, names), first = 0, lineno = 1;
    for (const char *line = code; nnames > 0 && *line; lineno++) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        /* a read in a product that is summed (`+=`, or `=` and `+`), not
         * the declaration or a pointer taken to it */
        size_t n = (size_t)(end - line);
        int product = memchr(line, '*', n) != NULL && memchr(line, '+', n) != NULL && memchr(line, '=', n) != NULL;
        const char *decl = strstr(line, "__constant__");
        int declares = decl && decl < end;
        for (int k = 0; product && !declares && k < nnames; k++)
            if (reads_twice_subscripted(line, end, names[k])) {
                first = first ? first : lineno;
                (*count)++;
                break;
            }
        line = *end ? end + 1 : end;
    }
    free(code);
    return first;
}

/* ---- loops and barriers ------------------------------------------------------ */

#define MAX_LOOPS 64

typedef struct {
    int head, open, close; /* the loop's first line, its body's '{' and '}' lines */
} loop_span;

/* The line of offset k in code (counting from 1). */
static int line_at(const char *code, size_t k)
{
    int line = 1;
    for (size_t i = 0; i < k; i++)
        line += code[i] == '\n';
    return line;
}

/* The offset of the bracket that closes the one at code[k] ('(', '[' or
 * '{'), or len. */
static size_t matching(const char *code, size_t len, size_t k)
{
    char open = code[k], close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    for (; k < len; k++) {
        depth += code[k] == open;
        depth -= code[k] == close;
        if (depth == 0)
            return k;
    }
    return len;
}

static int word_at(const char *code, size_t len, size_t k, const char *word)
{
    size_t n = strlen(word);
    return k + n <= len && strncmp(code + k, word, n) == 0 && (k == 0 || !source_is_identifier_char(code[k - 1])) &&
           (k + n == len || !source_is_identifier_char(code[k + n]));
}

static size_t skip_space(const char *code, size_t len, size_t k)
{
    while (k < len && (code[k] == ' ' || code[k] == '\t' || code[k] == '\n' || code[k] == '\r'))
        k++;
    return k;
}

/* The loops of code whose bodies are braced. */
static int braced_loops(const char *code, size_t len, loop_span *out, int max)
{
    int n = 0;
    for (size_t k = 0; k < len && n < max; k++) {
        int is_do = word_at(code, len, k, "do");
        if (!is_do && !word_at(code, len, k, "for") && !word_at(code, len, k, "while"))
            continue;
        size_t b = skip_space(code, len, k + (is_do ? 2 : code[k] == 'f' ? 3 : 5));
        if (!is_do) {
            if (b >= len || code[b] != '(')
                continue;
            b = skip_space(code, len, matching(code, len, b) + 1);
        }
        if (b >= len || code[b] != '{')
            continue; /* a single statement, or the while of a do-while */
        size_t e = matching(code, len, b);
        if (e >= len)
            continue;
        out[n++] = (loop_span){ line_at(code, k), line_at(code, b), line_at(code, e) };
    }
    return n;
}

int source_loop_carried(const char *path, int first, int second, int *loop_line, int *barrier_line)
{
    *loop_line = *barrier_line = 0;
    size_t len;
    char *text = path && first > 0 && first < second ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    loop_span loops[MAX_LOOPS];
    int n = braced_loops(code, len, loops, MAX_LOOPS), best = -1;
    for (int i = 0; i < n; i++)
        if (loops[i].open <= first && second <= loops[i].close &&
            (best < 0 || loops[i].close - loops[i].open < loops[best].close - loops[best].open))
            best = i;
    for (size_t k = 0; best >= 0 && k < len && !*barrier_line; k++)
        if (word_at(code, len, k, "__syncthreads")) {
            int l = line_at(code, k);
            if (l > first && l < second)
                *barrier_line = l;
        }
    free(code);
    if (best < 0 || !*barrier_line)
        return 0;
    *loop_line = loops[best].head;
    return 1;
}

/* The innermost for or while whose body (braced, or one statement) holds
 * offset pos: its head's offset, or len when none does. */
static size_t loop_around(const char *code, size_t len, size_t pos)
{
    size_t best = len, best_span = len;
    for (size_t k = 0; k < pos; k++) {
        if (!word_at(code, len, k, "for") && !word_at(code, len, k, "while"))
            continue;
        size_t b = skip_space(code, len, k + (code[k] == 'f' ? 3 : 5));
        if (b >= len || code[b] != '(')
            continue;
        b = skip_space(code, len, matching(code, len, b) + 1);
        size_t e = b < len && code[b] == '{' ? matching(code, len, b) : b;
        while (b < len && code[b] != '{' && e < len && code[e] != ';')
            e++;
        if (b <= pos && pos <= e && e - b < best_span) {
            best = k;
            best_span = e - b;
        }
    }
    return best;
}

/* The sum of a kernel: the first `X += ...` statement inside a loop (not a
 * for's step); its position, X at code[*name .. *name + *name_len); len
 * when there is none. */
static size_t find_sum(const char *code, size_t len, size_t *name, size_t *name_len)
{
    size_t acc = len;
    for (size_t k = 0; k + 1 < len && acc == len; k++) {
        if (code[k] != '+' || code[k + 1] != '=')
            continue;
        size_t e = k;
        while (e > 0 && (code[e - 1] == ' ' || code[e - 1] == '\t'))
            e--;
        size_t b = e;
        while (b > 0 && source_is_identifier_char(code[b - 1]))
            b--;
        /* a statement of its own, not a for's step (i += 256) */
        int depth = 0, step = 0;
        for (size_t q = k; q < len && code[q] != ';' && !step; q++) {
            depth += code[q] == '(';
            depth -= code[q] == ')';
            step = depth < 0;
        }
        if (b < e && !step && loop_around(code, len, k) < len) {
            acc = k;
            *name = b;
            *name_len = e - b;
        }
    }
    return acc;
}

int source_accumulator(const char *path, int *reset_line, int *loop_line)
{
    *reset_line = *loop_line = 0;
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    size_t name = 0, name_len = 0, acc = find_sum(code, len, &name, &name_len);
    if (acc < len) {
        size_t head = loop_around(code, len, acc);
        *loop_line = line_at(code, head);
        /* X = 0 inside a loop whose body holds the sum too: the sum set to 0 again every time round */
        for (size_t k = 0; k + name_len < len && !*reset_line; k++) {
            if (strncmp(code + k, code + name, name_len) != 0 || (k > 0 && source_is_identifier_char(code[k - 1])) ||
                source_is_identifier_char(code[k + name_len]))
                continue;
            size_t q = skip_space(code, len, k + name_len);
            if (q + 1 >= len || code[q] != '=' || code[q + 1] == '=')
                continue;
            /* 0, 0.0, 0.f, 0.0f, then the statement's end */
            size_t v = skip_space(code, len, q + 1);
            if (v >= len || code[v] != '0')
                continue;
            size_t w = v + 1;
            if (w < len && code[w] == '.')
                while (++w < len && code[w] == '0')
                    ;
            if (w < len && (code[w] == 'f' || code[w] == 'F'))
                w++;
            w = skip_space(code, len, w);
            if (w >= len || code[w] != ';')
                continue;
            for (size_t h = loop_around(code, len, k); h < len && !*reset_line; h = loop_around(code, len, h)) {
                /* a loop around the reset whose body reaches the sum */
                size_t b = skip_space(code, len, h + (code[h] == 'f' ? 3 : 5));
                b = skip_space(code, len, matching(code, len, b) + 1);
                if (b < len && code[b] == '{' && b < acc && acc < matching(code, len, b))
                    *reset_line = line_at(code, k);
            }
        }
    }
    free(code);
    return *loop_line > 0;
}

int source_accumulator_start(const char *path)
{
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0;
    size_t name = 0, name_len = 0, acc = find_sum(code, len, &name, &name_len);
    /* the first `NAME = ...` before the sum (a declaration's initialiser too) */
    for (size_t k = 0; acc < len && k < acc && !line; k++) {
        if (strncmp(code + k, code + name, name_len) != 0 || (k > 0 && source_is_identifier_char(code[k - 1])) ||
            source_is_identifier_char(code[k + name_len]))
            continue;
        size_t q = skip_space(code, len, k + name_len);
        if (q + 1 < len && code[q] == '=' && code[q + 1] != '=')
            line = line_at(code, k);
    }
    free(code);
    return line;
}

int source_assigned_sum(const char *path, char *name, size_t n)
{
    name[0] = '\0';
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0;
    for (size_t k = 1; k + 1 < len && !line; k++) {
        /* a plain `=`, not ==, <=, +=, ... */
        if (code[k] != '=' || code[k + 1] == '=' || strchr("=<>!+-*/%&|^", code[k - 1]))
            continue;
        size_t e = k;
        while (e > 0 && (code[e - 1] == ' ' || code[e - 1] == '\t'))
            e--;
        size_t b = e;
        while (b > 0 && source_is_identifier_char(code[b - 1]))
            b--;
        if (b == e || (code[b] >= '0' && code[b] <= '9') || e - b >= n)
            continue;
        /* a statement of its own: after ; { } or ), not a declaration */
        size_t before = b;
        while (before > 0 && (code[before - 1] == ' ' || code[before - 1] == '\t' || code[before - 1] == '\n'))
            before--;
        if (before > 0 && !strchr(";{})", code[before - 1]))
            continue;
        size_t end = k + 1;
        while (end < len && code[end] != ';')
            end++;
        /* a product of array reads, without the variable itself */
        int product = 0, subscript = 0, self = 0;
        for (size_t q = k + 1; q < end; q++) {
            product |= code[q] == '*';
            subscript |= code[q] == '[';
            self |= strncmp(code + q, code + b, e - b) == 0 && !source_is_identifier_char(code[q - 1]) &&
                    !source_is_identifier_char(code[q + (e - b)]);
        }
        if (!product || !subscript || self || loop_around(code, len, k) == len)
            continue;
        line = line_at(code, k);
        snprintf(name, n, "%.*s", (int)(e - b), code + b);
    }
    free(code);
    return line;
}

int source_output_store_line(const char *path)
{
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0;
    for (const char *g = strstr(code, "__global__"); g && !line; g = strstr(g + 1, "__global__")) {
        const char *open = strchr(g, '('), *close = open ? strchr(open, ')') : NULL;
        const char *body = close ? strchr(close, '{') : NULL;
        if (!body)
            break;
        size_t bend = matching(code, len, (size_t)(body - code));
        /* each pointer parameter `T *NAME` */
        for (const char *p = open; p < close && !line; p++) {
            if (*p != '*')
                continue;
            const char *w = p + 1;
            while (*w == ' ' || *w == '\t')
                w++;
            size_t wl = 0;
            while (source_is_identifier_char(w[wl]))
                wl++;
            if (wl == 0)
                continue;
            /* its first store: `NAME[...] =` or `op=` */
            for (size_t k = (size_t)(body - code); k + wl < bend && !line; k++) {
                if (strncmp(code + k, w, wl) != 0 || source_is_identifier_char(code[k - 1]) ||
                    source_is_identifier_char(code[k + wl]))
                    continue;
                size_t q = skip_space(code, len, k + wl);
                if (q >= len || code[q] != '[')
                    continue;
                q = skip_space(code, len, matching(code, len, q) + 1);
                if (q + 1 < len && (code[q] == '=' ? code[q + 1] != '=' : strchr("+-*/", code[q]) && code[q + 1] == '='))
                    line = line_at(code, k);
            }
        }
    }
    free(code);
    return line;
}

/* Whether the name at n (nl characters) is declared __shared__ in code. */
static int shared_declared(const char *code, const char *n, size_t nl)
{
    for (const char *s = strstr(code, "__shared__"); s; s = strstr(s + 1, "__shared__")) {
        const char *end = strpbrk(s, ";\n");
        for (const char *p = s + 10; end && p + nl <= end; p++)
            if (strncmp(p, n, nl) == 0 && !source_is_identifier_char(p[-1]) && !source_is_identifier_char(p[nl]))
                return 1;
    }
    return 0;
}

/* s without its leading and trailing spaces, in place. */
static void trim_spaces(char *s)
{
    size_t b = strspn(s, " \t\n\r"), n = strlen(s);
    while (n > b && strchr(" \t\n\r", s[n - 1]))
        n--;
    memmove(s, s + b, n - b);
    s[n - b] = '\0';
}

/* Whether the comparison's left side names a column (`col_o`, `Col`, `x`)
 * or, for rows, a row (`row_o`, `y`): its last word, lower-cased. */
static int names_axis(const char *left, int column)
{
    const char *w = left + strlen(left);
    while (w > left && source_is_identifier_char(w[-1]))
        w--;
    char low[64];
    size_t n = 0;
    for (; w[n] && n + 1 < sizeof low; n++)
        low[n] = (char)(w[n] >= 'A' && w[n] <= 'Z' ? w[n] - 'A' + 'a' : w[n]);
    low[n] = '\0';
    if (n == 0)
        return 0;
    return column ? strstr(low, "col") || low[n - 1] == 'x' : strstr(low, "row") || low[n - 1] == 'y';
}

int source_store_test_on(const char *path, const char *word, int column, char *left, char *right, size_t n)
{
    left[0] = right[0] = '\0';
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0;
    size_t wl = strlen(word);
    const char *g = strstr(code, "__global__");
    for (size_t k = g ? (size_t)(g - code) : len; k + 2 < len && !line; k++) {
        if (!word_at(code, len, k, "if"))
            continue;
        size_t open = skip_space(code, len, k + 2);
        if (open >= len || code[open] != '(')
            continue;
        size_t close = matching(code, len, open);
        /* what it controls: a braced body or one statement; a store in it */
        size_t b = skip_space(code, len, close + 1), e = b;
        if (b < len && code[b] == '{')
            e = matching(code, len, b);
        else
            while (e < len && code[e] != ';')
                e++;
        int store = 0;
        for (size_t q = b; q + 2 < e && !store; q++) {
            size_t o = skip_space(code, len, q + 1);
            if (code[q] != ']' || !((code[o] == '=' && code[o + 1] != '=') || (code[o] == '+' && code[o + 1] == '=')))
                continue;
            /* into global memory: the statement's array is not __shared__ */
            size_t st = q;
            while (st > b && !strchr(";{}", code[st - 1]))
                st--;
            st = skip_space(code, len, st);
            size_t nl = 0;
            while (source_is_identifier_char(code[st + nl]))
                nl++;
            store = nl > 0 && !shared_declared(code, code + st, nl);
        }
        if (!store)
            continue;
        /* each clause `A < B` or `A <= B` between && and || */
        for (size_t c = open + 1; c < close && !line;) {
            size_t end = c;
            int depth = 0;
            while (end < close && !(depth == 0 && (strncmp(code + end, "&&", 2) == 0 || strncmp(code + end, "||", 2) == 0))) {
                depth += code[end] == '(';
                depth -= code[end] == ')';
                end++;
            }
            const char *lt = memchr(code + c, '<', end - c);
            if (lt && lt[1] != '<') {
                const char *r = lt + (lt[1] == '=' ? 2 : 1);
                int has = 0;
                for (const char *p = r; p + wl <= code + end && !has; p++)
                    has = strncmp(p, word, wl) == 0 && (p == code || !source_is_identifier_char(p[-1])) &&
                          !source_is_identifier_char(p[wl]);
                char l[128], rr[128];
                size_t ll = (size_t)(lt - (code + c)), rl = (size_t)(code + end - r);
                if (has && ll < sizeof l && rl < sizeof rr) {
                    snprintf(l, sizeof l, "%.*s", (int)ll, code + c);
                    snprintf(rr, sizeof rr, "%.*s", (int)rl, r);
                    trim_spaces(l);
                    trim_spaces(rr);
                    if (names_axis(l, column) && strlen(l) < n && strlen(rr) < n) {
                        snprintf(left, n, "%s", l);
                        snprintf(right, n, "%s", rr);
                        line = line_at(code, c);
                    }
                }
            }
            c = end + 2;
        }
    }
    free(code);
    return line;
}

/* Whether code[b .. e) ends in an integer type's name (`int`, `unsigned
 * int`, `long`, `size_t`, ...), the declaration's type before its name. */
static int integer_type_before(const char *code, size_t b)
{
    static const char *const types[] = { "int", "long", "short", "unsigned", "char", "size_t", "int32_t",
                                         "int64_t", "uint32_t", "uint64_t" };
    size_t e = b;
    while (e > 0 && (code[e - 1] == ' ' || code[e - 1] == '\t'))
        e--;
    size_t w = e;
    while (w > 0 && source_is_identifier_char(code[w - 1]))
        w--;
    for (size_t i = 0; i < sizeof types / sizeof *types; i++)
        if (e - w == strlen(types[i]) && strncmp(code + w, types[i], e - w) == 0)
            return 1;
    return 0;
}

int source_sum_line(const char *path)
{
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    size_t name = 0, name_len = 0, acc = find_sum(code, len, &name, &name_len);
    int line = acc < len ? line_at(code, acc) : 0;
    free(code);
    return line;
}

int source_accumulator_integer(const char *path)
{
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    size_t name = 0, name_len = 0, acc = find_sum(code, len, &name, &name_len);
    int line = 0, declared = 0;
    /* the last declaration of the name before the sum: `TYPE X` */
    for (size_t k = 0; acc < len && k < acc; k++) {
        if (strncmp(code + k, code + name, name_len) != 0 || (k > 0 && source_is_identifier_char(code[k - 1])) ||
            source_is_identifier_char(code[k + name_len]) || k == 0)
            continue;
        size_t b = k;
        while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t'))
            b--;
        if (b == k || !source_is_identifier_char(code[b - 1]))
            continue; /* a use, not a declaration */
        size_t w = b;
        while (w > 0 && source_is_identifier_char(code[w - 1]))
            w--;
        static const char *const not_types[] = { "return", "else", "case", "goto", "sizeof" };
        int keyword = 0;
        for (size_t i = 0; i < sizeof not_types / sizeof *not_types; i++)
            keyword |= b - w == strlen(not_types[i]) && strncmp(code + w, not_types[i], b - w) == 0;
        if (keyword)
            continue;
        declared = 1;
        line = integer_type_before(code, k) ? line_at(code, k) : 0;
    }
    free(code);
    return declared ? line : 0;
}

/* The n-th argument (from 0) of the call whose '(' is at code[open], as
 * written, spaces trimmed, into out. */
static void call_argument(const char *code, size_t len, size_t open, int n, char *out, size_t size)
{
    int depth = 0, index = 0;
    size_t from = open + 1;
    out[0] = '\0';
    for (size_t i = open; i < len; i++) {
        if (code[i] == '(' || code[i] == '[')
            depth++;
        else if (code[i] == ')' || code[i] == ']')
            depth--;
        if ((depth == 1 && code[i] == ',') || depth == 0) {
            if (index == n) {
                while (from < i && (code[from] == ' ' || code[from] == '\t' || code[from] == '\n'))
                    from++;
                size_t to = i;
                while (to > from && (code[to - 1] == ' ' || code[to - 1] == '\t' || code[to - 1] == '\n'))
                    to--;
                if (to - from < size)
                    snprintf(out, size, "%.*s", (int)(to - from), code + from);
                return;
            }
            index++;
            from = i + 1;
            if (depth == 0)
                return;
        }
    }
}

/* `name`, `&name`, `(void **)&name` or `(float *)name` as written -> name */
static const char *bare_name(const char *arg)
{
    const char *p = arg;
    while (*p == '(' || *p == '&' || *p == '*' || *p == ' ') {
        if (*p == '(') {
            const char *close = strchr(p, ')');
            if (!close)
                return arg;
            p = close + 1;
        } else {
            p++;
        }
    }
    return p;
}

int source_copy_into_argument(const char *path, int k)
{
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    /* the launch's argument k: the device buffer the kernel takes there */
    char want[64] = "";
    for (size_t i = 0; i + 3 < len && !want[0]; i++) {
        if (strncmp(code + i, ">>>", 3) != 0)
            continue;
        size_t open = skip_space(code, len, i + 3);
        if (open < len && code[open] == '(')
            call_argument(code, len, open, k, want, sizeof want);
    }
    int line = 0;
    for (size_t i = 0; want[0] && i + 10 < len && !line; i++) {
        if (strncmp(code + i, "cudaMemcpy", 10) != 0 || (i > 0 && source_is_identifier_char(code[i - 1])) ||
            source_is_identifier_char(code[i + 10]))
            continue;
        size_t open = skip_space(code, len, i + 10);
        if (open >= len || code[open] != '(')
            continue;
        size_t close = matching(code, len, open);
        if (close >= len || !memmem(code + open, close - open, "cudaMemcpyHostToDevice", 22))
            continue;
        char dst[64];
        call_argument(code, len, open, 0, dst, sizeof dst);
        if (strcmp(bare_name(dst), bare_name(want)) == 0)
            line = line_at(code, i);
    }
    free(code);
    return line;
}

int source_launch_dim3_line(const char *path, int launch_line, int which)
{
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return launch_line;
    char *code = code_only(text, len);
    free(text);
    int line = launch_line;
    /* the launch's first or second <<< >>> argument, as written */
    size_t at = len;
    for (size_t i = 0; i + 3 < len && at == len; i++)
        if (strncmp(code + i, "<<<", 3) == 0 && line_at(code, i) == launch_line)
            at = i + 3;
    char block[64] = "";
    if (at < len) {
        const char *comma = strchr(code + at, ',');
        const char *end = strstr(code + at, ">>>");
        if (comma && end && comma < end) {
            /* the grid is the first argument, the block the second */
            const char *b = which == 0 ? code + at : comma + 1;
            while (*b == ' ' || *b == '\t')
                b++;
            size_t n = 0;
            while (source_is_identifier_char(b[n]))
                n++;
            const char *r = b + n;
            while (*r == ' ' || *r == '\t')
                r++;
            if (n > 0 && n < sizeof block && (which == 0 ? r == comma : r == end || *r == ','))
                snprintf(block, sizeof block, "%.*s", (int)n, b);
        }
    }
    /* its last declaration before the launch: `dim3 NAME(...)` or `dim3 NAME = ...` */
    size_t l = strlen(block);
    for (size_t k = 0; l && k < at; k++) {
        if (strncmp(code + k, block, l) != 0 || k == 0 || source_is_identifier_char(code[k - 1]) ||
            source_is_identifier_char(code[k + l]))
            continue;
        size_t b = k;
        while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t'))
            b--;
        if (b >= 4 && strncmp(code + b - 4, "dim3", 4) == 0 && (b == 4 || !source_is_identifier_char(code[b - 5])))
            line = line_at(code, k);
    }
    free(code);
    return line;
}

int source_launch_block_line(const char *path, int launch_line)
{
    return source_launch_dim3_line(path, launch_line, 1);
}

/* The line of the last definition of name before position `before`:
 * `#define name`, or `name =` after a type (`const int w = ...`); 0. */
static int definition_line(const char *code, size_t before, const char *name)
{
    size_t l = strlen(name);
    int line = 0;
    for (size_t k = 1; k < before; k++) {
        if (strncmp(code + k, name, l) != 0 || source_is_identifier_char(code[k - 1]) ||
            source_is_identifier_char(code[k + l]))
            continue;
        size_t b = k;
        while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t'))
            b--;
        size_t q = k + l;
        while (code[q] == ' ' || code[q] == '\t')
            q++;
        int define = b >= 7 && strncmp(code + b - 7, "#define", 7) == 0;
        int declared = b < k && source_is_identifier_char(code[b - 1]) && code[q] == '=' && code[q + 1] != '=';
        if (define || declared)
            line = line_at(code, k);
    }
    return line;
}

int source_shared_array_at(const char *path, int access, char *name, size_t n, int *size_line)
{
    *size_line = 0;
    name[0] = '\0';
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int decl = 0;
    /* each `X[` of the access's line, X declared __shared__ before it */
    for (size_t i = 0; i < len && !decl; i++) {
        if (line_at(code, i) != access || !source_is_identifier_char(code[i]) ||
            (i > 0 && source_is_identifier_char(code[i - 1])))
            continue;
        size_t e = i;
        while (source_is_identifier_char(code[e]))
            e++;
        if (code[e] != '[' || e - i >= n)
            continue;
        char x[64];
        snprintf(x, sizeof x, "%.*s", (int)(e - i), code + i);
        for (const char *sh = strstr(code, "__shared__"); sh && !decl; sh = strstr(sh + 10, "__shared__")) {
            const char *semi = strchr(sh, ';'), *at = strstr(sh, x);
            if (!semi || !at || at > semi || source_is_identifier_char(at[-1]) || at[strlen(x)] != '[')
                continue;
            decl = line_at(code, (size_t)(sh - code));
            snprintf(name, n, "%s", x);
            /* its first dimension, where it is a name: where that is set */
            const char *d = at + strlen(x) + 1;
            while (*d == ' ')
                d++;
            size_t dl = 0;
            while (source_is_identifier_char(d[dl]))
                dl++;
            if (dl > 0 && dl < 64 && (d[dl] == ']' || d[dl] == ' ') && !(d[0] >= '0' && d[0] <= '9')) {
                char dim[64];
                snprintf(dim, sizeof dim, "%.*s", (int)dl, d);
                *size_line = definition_line(code, (size_t)(sh - code), dim);
            }
        }
    }
    free(code);
    return decl;
}

int source_stored_array(const char *path, int line, char *out, size_t n)
{
    out[0] = '\0';
    size_t len;
    char *text = path && line > 0 ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    const char *p = code;
    for (int l = 1; l < line && p; l++) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    size_t end = p ? strcspn(p, "\n") : 0;
    const char *eq = p ? memchr(p, '=', end) : NULL;
    for (const char *q = p; q && q < eq; q++) {
        if (!source_is_identifier_char(*q) || (q > p && source_is_identifier_char(q[-1])))
            continue;
        const char *w = q;
        while (source_is_identifier_char(*q))
            q++;
        const char *b = q;
        while (*b == ' ' || *b == '\t')
            b++;
        if (*b == '[' && (size_t)(q - w) < n && !(*w >= '0' && *w <= '9')) {
            snprintf(out, n, "%.*s", (int)(q - w), w);
            break;
        }
        q--;
    }
    free(code);
    return out[0] != '\0';
}

/* ---- quoting the student's lines ------------------------------------------------- */

/* Line n (1-based) of the student's file, trimmed, cut to about max
 * characters ("..."); "" if none. */
static char *line_text(const char *file, int n, size_t max)
{
    char *text = file ? read_file(file, NULL) : NULL;
    if (!text || n < 1) {
        free(text);
        return xstrdup("");
    }
    const char *p = text;
    for (int i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    char *out;
    if (!p) {
        out = xstrdup("");
    } else {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, "\n");
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\r'))
            len--;
        out = len > max ? xasprintf("%.*s...", (int)(max - 3), p) : xasprintf("%.*s", (int)len, p);
    }
    free(text);
    return out;
}

/* Line n, trimmed, for quoting; "" if none. */
static char *source_line(const char *file, int n)
{
    return line_text(file, n, 70);
}

static char *quote(const char *file, int line)
{
    char *src = source_line(file, line);
    char *q = *src ? xasprintf("line %d (`%s`)", line, src) : xasprintf("line %d", line);
    free(src);
    return q;
}

/* A checker's location: the student's line, quoted, when it is in the
 * student's file; else FILE:LINE, never passed off as a line of theirs (an
 * inline function of a library header the student's call reached). */
static char *quote_at(const char *student, const char *file, int line)
{
    if (student && file && strcmp(path_base(file), path_base(student)) == 0)
        return quote(student, line);
    return xasprintf("%s:%d", file ? path_base(file) : "?", line);
}

char *sanitize_quote(const char *file, int line)
{
    return quote(file, line);
}

char *sanitize_quote_at(const char *student, const char *file, int line)
{
    return quote_at(student, file, line);
}

/* Where the condition of the if, while or for on a line starts and ends
 * (inside its parentheses; a for's between its semicolons); -1 if none
 * ends on the line. */
static int condition_span(const char *t, size_t *b, size_t *e)
{
    static const char *const words[] = { "if", "while", "for" };
    for (size_t i = 0; t[i]; i++) {
        for (int w = 0; w < 3; w++) {
            size_t l = strlen(words[w]);
            if (strncmp(t + i, words[w], l) != 0 || (i > 0 && source_is_identifier_char(t[i - 1])) ||
                source_is_identifier_char(t[i + l]))
                continue;
            size_t k = i + l;
            while (t[k] == ' ' || t[k] == '\t')
                k++;
            if (t[k] != '(')
                continue;
            int depth = 0, semis = 0;
            size_t start = k + 1;
            for (size_t j = k; t[j]; j++) {
                if (t[j] == '(')
                    depth++;
                else if (t[j] == ')' && --depth == 0) {
                    *b = start;
                    *e = j;
                    return w == 2 && semis != 2 ? -1 : 0;
                } else if (w == 2 && t[j] == ';' && depth == 1) {
                    if (++semis == 1)
                        start = j + 1;
                    else {
                        *b = start;
                        *e = j;
                        return 0;
                    }
                }
            }
            return -1;
        }
    }
    return -1;
}

/* The comparison op at t[i] on its own (not part of <<, <=, ->, ...). */
static int comparison_here(const char *t, size_t i, const char *op, size_t end)
{
    size_t l = strlen(op);
    if (i + l > end || strncmp(t + i, op, l) != 0)
        return 0;
    char before = i > 0 ? t[i - 1] : ' ', after = t[i + l];
    return !strchr("<>=!-", before) && !strchr("<>=", after);
}

/* The two sides, as written, of comparison op, operand k of the && and ||
 * of the condition on line n: "destY" and "TILE_WIDTH" of
 * `if (destY < TILE_WIDTH && ...)`; either of left and right may be NULL. */
int source_compared_sides(const char *path, int n, int k, const char *op, char *left, char *right, size_t size)
{
    char *text = line_text(path, n, 4096);
    size_t b, e;
    int rc = -1;
    if (condition_span(text, &b, &e) == 0) {
        /* operand k: [from, to) between top-level && and || */
        size_t from = b, to = e;
        int depth = 0, index = 0;
        for (size_t i = b; i < e; i++) {
            if (text[i] == '(')
                depth++;
            else if (text[i] == ')')
                depth--;
            else if (depth == 0 && i + 1 < e && (text[i] == '&' || text[i] == '|') && text[i + 1] == text[i]) {
                if (index == k) {
                    to = i;
                    break;
                }
                index++;
                from = i + 2;
                i++;
            }
        }
        size_t hit = 0;
        int count = 0;
        depth = 0;
        for (size_t i = from; index == k && i < to; i++) {
            if (text[i] == '(')
                depth++;
            else if (text[i] == ')')
                depth--;
            else if (depth == 0 && comparison_here(text, i, op, to)) {
                hit = i;
                count++;
            }
        }
        while (count == 1 && (text[from] == ' ' || text[from] == '\t'))
            from++;
        size_t len = count == 1 && hit > from ? hit - from : 0;
        while (len > 0 && (text[from + len - 1] == ' ' || text[from + len - 1] == '\t'))
            len--;
        size_t r = hit + strlen(op), rlen;
        while (r < to && (text[r] == ' ' || text[r] == '\t'))
            r++;
        rlen = r < to ? to - r : 0;
        while (rlen > 0 && (text[r + rlen - 1] == ' ' || text[r + rlen - 1] == '\t'))
            rlen--;
        if (len > 0 && len < size && len <= 40 && (!right || (rlen > 0 && rlen < size && rlen <= 40))) {
            if (left)
                snprintf(left, size, "%.*s", (int)len, text + from);
            if (right)
                snprintf(right, size, "%.*s", (int)rlen, text + r);
            rc = 0;
        }
    }
    free(text);
    return rc;
}

/* The left operand of comparison `op`, operand k of the && and || of the
 * condition on line n: "destY" of `if (destY < TILE_WIDTH && ...)`. */
int source_compared_operand(const char *path, int n, int k, const char *op, char *out, size_t size)
{
    return source_compared_sides(path, n, k, op, out, NULL, size);
}

/* Where `name * stride` or `stride * name` stands in s (whole tokens, spaces
 * around the `*` allowed): the offset of the product's first character, or
 * -1. */
static long product_at(const char *s, const char *name, const char *stride)
{
    size_t ln = strlen(name), ls = strlen(stride);
    for (int order = 0; order < 2; order++) {
        const char *first = order ? stride : name, *second = order ? name : stride;
        size_t l1 = order ? ls : ln, l2 = order ? ln : ls;
        for (const char *p = strstr(s, first); p; p = strstr(p + 1, first)) {
            if ((p > s && source_is_identifier_char(p[-1])) || source_is_identifier_char(p[l1]))
                continue;
            const char *q = p + l1;
            while (*q == ' ' || *q == '\t')
                q++;
            if (*q != '*')
                continue;
            q++;
            while (*q == ' ' || *q == '\t')
                q++;
            if (strncmp(q, second, l2) == 0 && !source_is_identifier_char(q[l2]) && q[l2] != '[' && q[l2] != '(')
                return (long)(p - s);
        }
    }
    return -1;
}

/* What the launch passes as the kernel parameter `param` of the kernel
 * whose body holds line `at` (`in` of pitched_conv_kernel(Image_t in, ...)
 * launched with (d_in_img, ...): d_in_img), into out; else param itself. */
static void launch_argument_for(const char *code, size_t len, int at, const char *param, char *out, size_t n)
{
    snprintf(out, n, "%s", param);
    size_t g = len;
    for (size_t k = 0; k + 10 < len && line_at(code, k) <= at; k++)
        if (strncmp(code + k, "__global__", 10) == 0)
            g = k;
    const char *open = g < len ? strchr(code + g, '(') : NULL;
    if (!open)
        return;
    const char *e = open;
    while (e > code + g && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    const char *b = e;
    while (b > code + g && source_is_identifier_char(b[-1]))
        b--;
    char kernel[128], arg[128];
    if (e == b || (size_t)(e - b) >= sizeof kernel)
        return;
    snprintf(kernel, sizeof kernel, "%.*s", (int)(e - b), b);
    int index = -1;
    for (int i = 0; i < 16 && index < 0; i++) {
        call_argument(code, len, (size_t)(open - code), i, arg, sizeof arg);
        size_t l = strlen(arg);
        if (!l)
            break;
        size_t w = l;
        while (w > 0 && source_is_identifier_char(arg[w - 1]))
            w--;
        if (strcmp(arg + w, param) == 0)
            index = i;
    }
    size_t kl = strlen(kernel);
    for (size_t k = 0; index >= 0 && k + kl + 3 < len; k++) {
        if (strncmp(code + k, kernel, kl) != 0 || (k > 0 && source_is_identifier_char(code[k - 1])))
            continue;
        size_t q = skip_space(code, len, k + kl);
        const char *end = strncmp(code + q, "<<<", 3) == 0 ? strstr(code + q, ">>>") : NULL;
        if (!end)
            continue;
        size_t c = skip_space(code, len, (size_t)(end - code) + 3);
        if (c < len && code[c] == '(') {
            call_argument(code, len, c, index, arg, sizeof arg);
            const char *bare = bare_name(arg);
            if (bare && *bare)
                snprintf(out, n, "%s", bare);
            return;
        }
    }
}

int source_stride_set_at(const char *path, int access, char *member, size_t n)
{
    member[0] = '\0';
    char *text = line_text(path, access, 4096);
    size_t len = 0;
    char *file = path ? read_file(path, &len) : NULL;
    char *code = file ? code_only(file, len) : NULL;
    free(file);
    int line = 0;
    /* each `X.F` or `X->F` of the access's line that is a factor of a product */
    for (const char *p = text; code && *p && !line; p++) {
        int arrow = p[0] == '-' && p[1] == '>';
        if (!(p[0] == '.' || arrow) || p == text || !source_is_identifier_char(p[-1]))
            continue;
        const char *f = p + (arrow ? 2 : 1);
        size_t fl = 0;
        while (source_is_identifier_char(f[fl]))
            fl++;
        const char *b = p;
        while (b > text && source_is_identifier_char(b[-1]))
            b--;
        const char *before = b, *after = f + fl;
        while (before > text && (before[-1] == ' ' || before[-1] == '\t'))
            before--;
        while (*after == ' ' || *after == '\t')
            after++;
        if (fl == 0 || !((before > text && before[-1] == '*') || *after == '*'))
            continue;
        /* the object the launch passes for it, and its last assignment:
         * `OBJ.F =` or `OBJ->F =`, not `==` */
        char object[128], param[128];
        snprintf(param, sizeof param, "%.*s", (int)(p - b), b);
        launch_argument_for(code, len, access, param, object, sizeof object);
        size_t ol = strlen(object);
        for (size_t k = 1; k + fl < len; k++) {
            if (strncmp(code + k, f, fl) != 0 || source_is_identifier_char(code[k + fl]) ||
                !(code[k - 1] == '.' || (k > 1 && code[k - 2] == '-' && code[k - 1] == '>')))
                continue;
            size_t o = code[k - 1] == '.' ? k - 1 : k - 2;
            if (o < ol || strncmp(code + o - ol, object, ol) != 0 || (o > ol && source_is_identifier_char(code[o - ol - 1])))
                continue;
            size_t q = skip_space(code, len, k + fl);
            if (q + 1 < len && code[q] == '=' && code[q + 1] != '=' && line_at(code, k) != access) {
                line = line_at(code, k);
                snprintf(member, n, "%.*s", (int)((f + fl) - b), b);
            }
        }
    }
    free(code);
    free(text);
    return line;
}

int source_line_factor(const char *path, int n, const char *name, char *out, size_t size)
{
    out[0] = '\0';
    char *text = line_text(path, n, 4096);
    size_t ln = strlen(name);
    for (const char *p = strstr(text, name); p && !out[0]; p = strstr(p + 1, name)) {
        if ((p > text && source_is_identifier_char(p[-1])) || source_is_identifier_char(p[ln]))
            continue;
        /* `name * F` */
        const char *q = p + ln;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '*') {
            q++;
            while (*q == ' ' || *q == '\t')
                q++;
            size_t fl = 0;
            while (source_is_identifier_char(q[fl]))
                fl++;
            /* a plain word: not an array, a call or a member's object */
            if (fl > 0 && fl < size && q[fl] != '[' && q[fl] != '(' && q[fl] != '.' && !(q[fl] == '-' && q[fl + 1] == '>'))
                snprintf(out, size, "%.*s", (int)fl, q);
            continue;
        }
        /* `F * name` */
        const char *b = p;
        while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        if (b > text && b[-1] == '*') {
            const char *e = b - 1;
            while (e > text && (e[-1] == ' ' || e[-1] == '\t'))
                e--;
            const char *f = e;
            while (f > text && source_is_identifier_char(f[-1]))
                f--;
            if (f < e && (size_t)(e - f) < size && !(f > text && (f[-1] == '.' || f[-1] == '>' || f[-1] == ']')))
                snprintf(out, size, "%.*s", (int)(e - f), f);
        }
    }
    free(text);
    return out[0] != '\0';
}

int source_line_has_product(const char *path, int n, const char *name, const char *stride)
{
    char *text = line_text(path, n, 4096);
    long at = product_at(text, name, stride);
    free(text);
    return at >= 0;
}

int source_line_has_word(const char *path, int n, const char *word)
{
    char *text = line_text(path, n, 4096);
    size_t l = strlen(word);
    int found = 0;
    for (const char *p = strstr(text, word); p && !found; p = strstr(p + 1, word))
        found = !(p > text && source_is_identifier_char(p[-1])) && !source_is_identifier_char(p[l]);
    free(text);
    return found;
}

/* The identifier that ends just before offset e (spaces skipped): its
 * start, with *n its length; 0 length when none. */
static size_t word_before(const char *code, size_t e, size_t *n)
{
    while (e > 0 && (code[e - 1] == ' ' || code[e - 1] == '\t' || code[e - 1] == '\n' || code[e - 1] == '\r'))
        e--;
    size_t b = e;
    while (b > 0 && source_is_identifier_char(code[b - 1]))
        b--;
    *n = e - b;
    return b;
}

static int is_number_type(const char *w, size_t n)
{
    static const char *const types[] = { "float", "double", "int", "unsigned", "long", "short", "half", NULL };
    for (int i = 0; types[i]; i++)
        if (strlen(types[i]) == n && strncmp(w, types[i], n) == 0)
            return 1;
    return 0;
}

int source_accumulator_unset(const char *path, char *name, size_t n)
{
    name[0] = '\0';
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0, set = 0;
    size_t at = 0, at_len = 0, acc = find_sum(code, len, &at, &at_len);
    int depth = 0;
    /* every mention of the accumulator before the sum: a declaration in a
     * body (depth > 0, so not a parameter) with no `=` after it, and no
     * assignment of it anywhere before the sum */
    for (size_t k = 0; acc < len && k < acc; k++) {
        depth += code[k] == '{';
        depth -= code[k] == '}';
        if (strncmp(code + k, code + at, at_len) != 0 || (k > 0 && source_is_identifier_char(code[k - 1])) ||
            source_is_identifier_char(code[k + at_len]))
            continue;
        size_t q = skip_space(code, len, k + at_len), tn = 0;
        size_t t = word_before(code, k, &tn);
        if (q < len && code[q] == '=' && code[q + 1] != '=')
            set = 1;
        else if (depth > 0 && q < len && (code[q] == ';' || code[q] == ',') && is_number_type(code + t, tn))
            line = line_at(code, k);
    }
    if (set)
        line = 0;
    if (line && at_len < n)
        snprintf(name, n, "%.*s", (int)at_len, code + at);
    free(code);
    return line && at_len < n ? line : 0;
}

/* Whether the subscripted mention of an array at code[k] (its name) is a
 * store: its subscripts followed by `=` (not `==`). */
static int stored_here(const char *code, size_t len, size_t k, size_t name_len)
{
    size_t q = skip_space(code, len, k + name_len);
    if (q >= len || code[q] != '[')
        return 0;
    while (q < len && code[q] == '[')
        q = skip_space(code, len, matching(code, len, q) + 1);
    return q + 1 < len && code[q] == '=' && code[q + 1] != '=';
}

int source_private_tile(const char *path, char *name, size_t n)
{
    name[0] = '\0';
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0;
    for (size_t g = 0; g < len && !line; g++) {
        if (!word_at(code, len, g, "__global__"))
            continue;
        size_t open = g;
        while (open < len && code[open] != '{' && code[open] != ';')
            open++;
        if (open >= len || code[open] != '{')
            continue;
        size_t close = matching(code, len, open);
        /* a declaration `TYPE NAME[` in the kernel's body whose statement
         * does not say __shared__ */
        for (size_t k = open + 1; k < close && !line; k++) {
            if (!source_is_identifier_char(code[k]) || source_is_identifier_char(code[k - 1]))
                continue;
            size_t e = k;
            while (e < close && source_is_identifier_char(code[e]))
                e++;
            size_t tn = 0, t = word_before(code, k, &tn), q = skip_space(code, len, e);
            if (q >= close || code[q] != '[' || !is_number_type(code + t, tn) || e - k >= n)
                continue;
            size_t s = t;
            while (s > open && !strchr(";{}", code[s - 1]))
                s--;
            int shared = 0;
            for (size_t p = s; p < t && !shared; p++)
                shared = word_at(code, len, p, "__shared__") || word_at(code, len, p, "static");
            if (shared)
                continue;
            /* stored before a barrier and read after it: a tile meant to be shared */
            size_t store = close, barrier = close;
            int read_after = 0;
            for (size_t p = q; p < close; p++) {
                if (strncmp(code + p, code + k, e - k) != 0 || source_is_identifier_char(code[p - 1]) ||
                    source_is_identifier_char(code[p + (e - k)]))
                    continue;
                if (store == close && stored_here(code, len, p, e - k))
                    store = p;
                else if (barrier < close && p > barrier && !stored_here(code, len, p, e - k))
                    read_after = 1;
                if (store < close && barrier == close)
                    for (size_t b = p; b < close && barrier == close; b++)
                        if (word_at(code, len, b, "__syncthreads"))
                            barrier = b;
            }
            if (read_after) {
                line = line_at(code, k);
                snprintf(name, n, "%.*s", (int)(e - k), code + k);
            }
        }
        g = close;
    }
    free(code);
    return line;
}

/* Whether code[k..k+n) is a name declared a pointer somewhere in code:
 * `TYPE *name` or `TYPE* name` in a declaration (after `(`, `,`, `;`, a
 * brace or a qualifier), followed by `,`, `)`, `;` or `=`, before offset
 * `before`: the last such declaration's line into *line. */
static int declared_pointer(const char *code, size_t len, size_t before, const char *name, size_t n, int *line)
{
    *line = 0;
    for (size_t k = 1; k + n < before; k++) {
        if (strncmp(code + k, name, n) != 0 || source_is_identifier_char(code[k - 1]) ||
            source_is_identifier_char(code[k + n]))
            continue;
        size_t q = skip_space(code, len, k + n);
        if (q >= len || !strchr(",);=", code[q]))
            continue;
        size_t s = k;
        while (s > 0 && (code[s - 1] == ' ' || code[s - 1] == '\t'))
            s--;
        if (s == 0 || code[s - 1] != '*')
            continue;
        size_t tn = 0, t = word_before(code, s - 1, &tn), qn = 0;
        if (tn == 0)
            continue;
        size_t before = word_before(code, t, &qn);
        size_t p = t;
        while (p > 0 && (code[p - 1] == ' ' || code[p - 1] == '\t' || code[p - 1] == '\n'))
            p--;
        int qualifier = qn && ((qn == 5 && strncmp(code + before, "const", 5) == 0) ||
                               (qn == 6 && strncmp(code + before, "struct", 6) == 0) ||
                               (qn == 8 && strncmp(code + before, "unsigned", 8) == 0));
        if (p == 0 || strchr("(,;{}", code[p - 1]) || qualifier)
            *line = line_at(code, k); /* the last one before: the caller's own */
    }
    return *line > 0;
}

int source_copy_of_pointer_address(const char *path, char *call, size_t call_n, char *arg, size_t arg_n,
                                   int *is_source, int *decl_line)
{
    static const struct {
        const char *name;
        int dst, src; /* the data pointers' argument positions */
    } calls[] = {
        { "cudaMemcpy", 0, 1 },           { "cudaMemcpyAsync", 0, 1 },   { "cudaMemcpyToSymbol", -1, 1 },
        { "cudaMemcpyToSymbolAsync", -1, 1 }, { "cudaMemcpyFromSymbol", 0, -1 }, { "cudaMemcpy2D", 0, 2 },
        { "cudaMemcpy2DAsync", 0, 2 },
    };
    call[0] = arg[0] = '\0';
    *is_source = *decl_line = 0;
    size_t len;
    char *text = path ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    int line = 0;
    for (size_t i = 0; i < len && !line; i++) {
        if (!source_is_identifier_char(code[i]) || (i > 0 && source_is_identifier_char(code[i - 1])))
            continue;
        for (size_t c = 0; c < sizeof calls / sizeof *calls && !line; c++) {
            size_t cn = strlen(calls[c].name);
            if (!word_at(code, len, i, calls[c].name))
                continue;
            size_t open = skip_space(code, len, i + cn);
            if (open >= len || code[open] != '(')
                continue;
            for (int side = 0; side < 2 && !line; side++) {
                int at = side ? calls[c].src : calls[c].dst;
                char a[96];
                if (at < 0)
                    continue;
                call_argument(code, len, open, at, a, sizeof a);
                /* casts, then `&name` and nothing after the name */
                const char *p = a;
                while (*p == '(') {
                    const char *close = strchr(p, ')');
                    if (!close)
                        break;
                    p = close + 1;
                    while (*p == ' ')
                        p++;
                }
                if (*p != '&')
                    continue;
                p++;
                while (*p == ' ')
                    p++;
                size_t n = 0;
                while (source_is_identifier_char(p[n]))
                    n++;
                if (n == 0 || p[n] != '\0' || n >= arg_n || cn >= call_n)
                    continue;
                if (declared_pointer(code, len, i, p, n, decl_line)) {
                    line = line_at(code, i);
                    *is_source = side;
                    snprintf(arg, arg_n, "%.*s", (int)n, p);
                    snprintf(call, call_n, "%s", calls[c].name);
                }
            }
        }
    }
    free(code);
    return line;
}

/* The coordinates a thread's index can vary with: bit (3 * which + axis),
 * which 0 for threadIdx, 1 for blockIdx; axis 0 x, 1 y, 2 z. */
enum { COORD_DEPTH = 8 };

static unsigned coordinate_at(const char *code, size_t len, size_t k)
{
    static const char *const names[] = { "threadIdx", "blockIdx" };
    for (int w = 0; w < 2; w++) {
        size_t n = strlen(names[w]);
        if (!word_at(code, len, k, names[w]))
            continue;
        size_t d = skip_space(code, len, k + n);
        if (d < len && code[d] == '.') {
            d = skip_space(code, len, d + 1);
            if (d < len && code[d] >= 'x' && code[d] <= 'z')
                return 1u << (3 * w + (code[d] - 'x'));
        }
    }
    return 0;
}

/* The last assignment of name (`name = ...;`, a declaration's too, not
 * `==`, `+=`) in code[from, before): the offset of its value, *end its ';'. */
static size_t assignment_of(const char *code, size_t len, size_t from, size_t before, const char *name, size_t n,
                            size_t *end)
{
    size_t found = len;
    for (size_t k = from; k + n < before; k++) {
        if (strncmp(code + k, name, n) != 0 || (k > 0 && source_is_identifier_char(code[k - 1])) ||
            source_is_identifier_char(code[k + n]))
            continue;
        size_t q = skip_space(code, len, k + n);
        if (q + 1 >= len || code[q] != '=' || code[q + 1] == '=')
            continue;
        size_t e = q + 1;
        while (e < before && code[e] != ';')
            e++;
        found = q + 1;
        *end = e;
    }
    return found;
}

/* The coordinates code[b, e) varies with, through the assignments of the
 * names in it (before `before`, inside the kernel from `from`). */
static unsigned coordinates_of(const char *code, size_t len, size_t from, size_t before, size_t b, size_t e,
                               int depth)
{
    unsigned bits = 0;
    for (size_t k = b; k < e; k++) {
        if (!source_is_identifier_char(code[k]) || (k > 0 && source_is_identifier_char(code[k - 1])))
            continue;
        size_t n = 0;
        while (k + n < e && source_is_identifier_char(code[k + n]))
            n++;
        unsigned c = coordinate_at(code, len, k);
        if (c)
            bits |= c;
        else if (depth < COORD_DEPTH && !(code[k] >= '0' && code[k] <= '9') && (k == 0 || code[k - 1] != '.')) {
            size_t end = 0, v = assignment_of(code, len, from, before, code + k, n, &end);
            if (v < len)
                bits |= coordinates_of(code, len, from, v, v, end, depth + 1);
        }
        k += n - 1;
    }
    return bits;
}

static void coordinate_name(unsigned bit, char *out, size_t n)
{
    for (int i = 0; i < 6; i++)
        if (bit == 1u << i)
            snprintf(out, n, "%s.%c", i < 3 ? "threadIdx" : "blockIdx", 'x' + i % 3);
}

/* The coordinates named in out, joined by " and ", or "no thread or block
 * coordinate". */
static void coordinate_list(unsigned bits, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < 6; i++)
        if (bits & 1u << i) {
            char one[16] = "";
            coordinate_name(1u << i, one, sizeof one);
            size_t used = strlen(out);
            snprintf(out + used, n - used, "%s%s", used ? " and " : "", one);
        }
    if (!out[0])
        snprintf(out, n, "no thread or block coordinate");
}

char *source_index_coordinate_missing(const char *path, int line)
{
    size_t len;
    char *text = path && line > 0 ? read_file(path, &len) : NULL;
    if (!text)
        return NULL;
    char *code = code_only(text, len);
    free(text);
    char *said = NULL;
    /* the line's first subscripted store: NAME[...] = */
    size_t k = 0;
    for (int l = 1; k < len && l < line; k++)
        l += code[k] == '\n';
    size_t line_end = k;
    while (line_end < len && code[line_end] != '\n')
        line_end++;
    size_t open = len;
    for (size_t p = k; p < line_end && open == len; p++)
        if (code[p] == '[' && p > 0 && source_is_identifier_char(code[p - 1])) {
            size_t nl = 0, nb = word_before(code, p, &nl);
            (void)nb;
            if (nl && stored_here(code, len, nb, nl))
                open = p;
        }
    /* the kernel the store is in */
    size_t kernel = len;
    for (size_t g = 0; g < k; g++)
        if (word_at(code, len, g, "__global__"))
            kernel = g;
    if (open < len && kernel < len) {
        size_t close = matching(code, len, open);
        unsigned index = coordinates_of(code, len, kernel, k, open + 1, close, 0);
        /* an axis whose block coordinate the index uses while its thread
         * coordinate is missing (or the other way round), in an index that
         * uses a thread coordinate: threads (or blocks) that differ only
         * there store to one element */
        for (int axis = 0; axis < 2 && !said; axis++) {
            unsigned t = 1u << axis, b = 1u << (3 + axis);
            if (!(index & 7u))
                continue;
            unsigned missing = (index & b) && !(index & t) ? t : (index & t) && !(index & b) ? b : 0;
            if (!missing)
                continue;
            unsigned kept = missing == t ? b : t;
            /* the index's own name whose value holds `kept`: the one meant for this axis */
            for (size_t p = open + 1; p < close && !said; p++) {
                if (!source_is_identifier_char(code[p]) || source_is_identifier_char(code[p - 1]) ||
                    coordinate_at(code, len, p))
                    continue;
                size_t n = 0;
                while (p + n < close && source_is_identifier_char(code[p + n]))
                    n++;
                size_t end = 0, v = assignment_of(code, len, kernel, k, code + p, n, &end);
                if (v < len && (coordinates_of(code, len, kernel, v, v, end, 1) & kept)) {
                    unsigned has = coordinates_of(code, len, kernel, v, v, end, 1);
                    char uses[96], miss[16], q[16];
                    coordinate_list(has, uses, sizeof uses);
                    coordinate_name(missing, miss, sizeof miss);
                    snprintf(q, sizeof q, "%.*s", (int)(n < 15 ? n : 15), code + p);
                    char *quoted = NULL;
                    {
                        int at = line_at(code, v);
                        char *s = source_line(path, at);
                        quoted = *s ? xasprintf("line %d (`%s`)", at, s) : xasprintf("line %d", at);
                        free(s);
                    }
                    said = xasprintf("%s computes %s from %s: no term of the index of the store at line %d "
                                     "varies with %s, so %s that differ only in %s store to the same element "
                                     "(and the elements they should reach are never written): build %s from %s",
                                     quoted, q, uses, line, miss, missing < 8 ? "the threads of a block" : "blocks",
                                     miss, q, miss);
                    free(quoted);
                }
                p += n - 1;
            }
        }
    }
    free(code);
    return said;
}

/* code[b, e) as `X op W` with one top-level op ('/' or '%'): X and W,
 * spaces trimmed, into x and w; 0 when it is not that. */
static int split_operands(const char *code, size_t b, size_t e, char op, char *x, char *w, size_t n)
{
    size_t at = e;
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        depth += code[k] == '(';
        depth -= code[k] == ')';
        if (depth == 0 && strchr("/%", code[k])) {
            if (code[k] != op || at < e)
                return 0; /* another operator, or a second one */
            at = k;
        }
    }
    if (at == e)
        return 0;
    size_t xb = skip_space(code, e, b), xe = at, wb = skip_space(code, e, at + 1), we = e;
    while (xe > xb && (code[xe - 1] == ' ' || code[xe - 1] == '\t'))
        xe--;
    while (we > wb && (code[we - 1] == ' ' || code[we - 1] == '\t' || code[we - 1] == '\n'))
        we--;
    if (xe <= xb || we <= wb || xe - xb >= n || we - wb >= n)
        return 0;
    snprintf(x, n, "%.*s", (int)(xe - xb), code + xb);
    snprintf(w, n, "%.*s", (int)(we - wb), code + wb);
    return 1;
}

int source_split_swapped(const char *path, int line, char *row, char *col, size_t n, int *row_line, int *col_line)
{
    *row_line = *col_line = 0;
    row[0] = col[0] = '\0';
    size_t len;
    char *text = path && line > 0 ? read_file(path, &len) : NULL;
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    size_t k = 0;
    for (int l = 1; k < len && l < line; k++)
        l += code[k] == '\n';
    size_t kernel = len;
    for (size_t g = 0; g < k; g++)
        if (word_at(code, len, g, "__global__"))
            kernel = g;
    /* the line's store NAME[r][c] = with r and c plain names */
    size_t line_end = k;
    while (line_end < len && code[line_end] != '\n')
        line_end++;
    for (size_t p = k; p < line_end && kernel < len && !*row_line; p++) {
        if (code[p] != '[' || p == 0 || !source_is_identifier_char(code[p - 1]))
            continue;
        size_t nl = 0, nb = word_before(code, p, &nl);
        if (!nl || !stored_here(code, len, nb, nl))
            continue;
        size_t c1 = matching(code, len, p), o2 = skip_space(code, len, c1 + 1);
        if (o2 >= len || code[o2] != '[')
            break;
        size_t c2 = matching(code, len, o2);
        char r[64], c[64];
        size_t rb = skip_space(code, len, p + 1), cb = skip_space(code, len, o2 + 1), rn = 0, cn = 0;
        while (rb + rn < c1 && source_is_identifier_char(code[rb + rn]))
            rn++;
        while (cb + cn < c2 && source_is_identifier_char(code[cb + cn]))
            cn++;
        if (!rn || !cn || rn >= sizeof r || cn >= sizeof c || skip_space(code, len, rb + rn) != c1 ||
            skip_space(code, len, cb + cn) != c2)
            break;
        snprintf(r, sizeof r, "%.*s", (int)rn, code + rb);
        snprintf(c, sizeof c, "%.*s", (int)cn, code + cb);
        size_t re = 0, ce = 0, rv = assignment_of(code, len, kernel, k, r, rn, &re),
               cv = assignment_of(code, len, kernel, k, c, cn, &ce);
        char rx[64], rw[64], cx[64], cw[64];
        /* the row from the remainder, the column from the quotient, of one flat index by one width */
        if (rv < len && cv < len && split_operands(code, rv, re, '%', rx, rw, sizeof rx) &&
            split_operands(code, cv, ce, '/', cx, cw, sizeof cx) && strcmp(rx, cx) == 0 && strcmp(rw, cw) == 0 &&
            strlen(r) < n && strlen(c) < n) {
            *row_line = line_at(code, rv);
            *col_line = line_at(code, cv);
            snprintf(row, n, "%s", r);
            snprintf(col, n, "%s", c);
        }
        break;
    }
    free(code);
    return *row_line > 0;
}
