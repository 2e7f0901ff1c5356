/*
 * source_sum.c - a kernel's sum, read from the source: the `X += ...` of
 * its dot product or convolution, where X starts, what resets it, its
 * type, a sum assigned where it should add, and a convolution's mask read
 * in it (source.h). Over the shared walk of source_code.h.
 */
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* ---- the mask in a convolution's sum ----------------------------------------- */

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
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    char names[MAX_CONSTANTS][NAME_MAX_LEN];
    int nnames = constant_arrays(s.code, names), first = 0, lineno = 1;
    for (const char *line = s.code; nnames > 0 && *line; lineno++) {
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
    source_code_free(&s);
    return first;
}

/* The name a for loop's header at k sets first (`for (int j = ...` or
 * `for (j = ...`): its offset, *n its length; len when none. */
static size_t loop_variable(const source_code *s, size_t k, size_t *n)
{
    *n = 0;
    size_t open = code_skip_space(s, k + 3);
    if (!code_word_at(s, k, "for") || open >= s->len || s->code[open] != '(')
        return s->len;
    size_t eq = open + 1;
    while (eq < s->len && s->code[eq] != ';' && !code_assigns_at(s, eq))
        eq++;
    if (eq >= s->len || s->code[eq] == ';')
        return s->len;
    size_t w = code_word_before(s, eq, n);
    return *n > 0 && w > open ? w : s->len;
}

int source_mask_loop(const char *path, int which)
{
    int count = 0, line = source_mask_read_line(path, &count);
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    char names[MAX_CONSTANTS][NAME_MAX_LEN];
    int nnames = constant_arrays(s.code, names), found = 0;
    size_t b = code_line_start(&s, line), e = code_line_end(&s, b), sub_b = s.len, sub_e = s.len;
    /* the mask's read on that line: its subscript `which` */
    for (size_t k = b; k < e && sub_b == s.len; k++)
        for (int c = 0; c < nnames && sub_b == s.len; c++) {
            if (!code_word_at(&s, k, names[c]))
                continue;
            size_t o = code_skip_space(&s, k + strlen(names[c]));
            for (int i = 0; i <= which && o < e && s.code[o] == '['; i++) {
                size_t close = code_matching(&s, o);
                if (i == which && close < e)
                    sub_b = o, sub_e = close;
                o = code_skip_space(&s, close + 1);
            }
        }
    /* the loops around it, innermost first: the one whose variable the subscript reads */
    for (size_t loop = sub_b < s.len ? code_loop_around(&s, sub_b) : s.len; loop < s.len && !found;
         loop = loop > 0 ? code_loop_around(&s, loop) : s.len) {
        size_t n = 0, v = loop_variable(&s, loop, &n);
        for (size_t k = sub_b + 1; v < s.len && k < sub_e && !found; k++)
            if (code_name_at(&s, k, s.code + v, n))
                found = code_line_at(&s, loop);
    }
    source_code_free(&s);
    return found;
}

/* ---- the sum ------------------------------------------------------------------- */

/* A kernel's sum: the `+=` at `at` (len when the file has none), its X the
 * n characters at name. */
typedef struct {
    size_t at, name, n;
} kernel_sum;

/* The first `X += ...` statement inside a loop (not a for's step). */
static kernel_sum find_sum(const source_code *s)
{
    const char *code = s->code;
    kernel_sum sum = { s->len, 0, 0 };
    for (size_t k = 0; k + 1 < s->len && sum.at == s->len; k++) {
        if (code[k] != '+' || code[k + 1] != '=')
            continue;
        size_t n = 0, b = code_word_left_of(s, k, &n);
        /* a statement of its own, not a for's step (i += 256) */
        int depth = 0, step = 0;
        for (size_t q = k; q < s->len && code[q] != ';' && !step; q++) {
            depth += code[q] == '(';
            depth -= code[q] == ')';
            step = depth < 0;
        }
        if (n > 0 && !step && code_loop_around(s, k) < s->len)
            sum = (kernel_sum){ k, b, n };
    }
    return sum;
}

/* path read into s, and its sum into sum; 0 when path cannot be read. */
static int read_sum(const char *path, source_code *s, kernel_sum *sum)
{
    if (!source_code_read(s, path))
        return 0;
    *sum = find_sum(s);
    return 1;
}

/* Whether the sum's X stands at k as a whole word. */
static int sum_name_at(const source_code *s, const kernel_sum *sum, size_t k)
{
    return code_name_at(s, k, s->code + sum->name, sum->n);
}

/* Whether a zero (0, 0.0, 0.f, 0.0f) then the statement's ';' stand at v. */
static int zero_then_end(const source_code *s, size_t v)
{
    const char *code = s->code;
    if (v >= s->len || code[v] != '0')
        return 0;
    size_t w = v + 1;
    if (w < s->len && code[w] == '.')
        while (++w < s->len && code[w] == '0')
            ;
    if (w < s->len && (code[w] == 'f' || code[w] == 'F'))
        w++;
    w = code_skip_space(s, w);
    return w < s->len && code[w] == ';';
}

int source_accumulator(const char *path, int *reset_line, int *loop_line)
{
    *reset_line = *loop_line = 0;
    source_code s;
    kernel_sum sum;
    if (!read_sum(path, &s, &sum))
        return 0;
    if (sum.at < s.len) {
        *loop_line = code_line_at(&s, code_loop_around(&s, sum.at));
        /* X = 0 inside a loop whose body holds the sum too: the sum set to 0 again every time round */
        for (size_t k = 0; k + sum.n < s.len && !*reset_line; k++) {
            if (!sum_name_at(&s, &sum, k))
                continue;
            size_t q = code_skip_space(&s, k + sum.n);
            if (!code_assigns_at(&s, q) || !zero_then_end(&s, code_skip_space(&s, q + 1)))
                continue;
            for (size_t h = code_loop_around(&s, k); h < s.len && !*reset_line; h = code_loop_around(&s, h)) {
                /* a loop around the reset whose body reaches the sum */
                size_t b = code_loop_body(&s, h);
                if (b < s.len && s.code[b] == '{' && b < sum.at && sum.at < code_matching(&s, b))
                    *reset_line = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return *loop_line > 0;
}

int source_sum_after_barrier_loop(const char *path, int *loop_line, int *close_line)
{
    *loop_line = *close_line = 0;
    source_code s;
    kernel_sum sum;
    if (!read_sum(path, &s, &sum))
        return 0;
    int line = 0;
    size_t g = sum.at < s.len ? code_kernel_before(&s, sum.at) : s.len;
    /* the last __syncthreads() before the sum in its kernel, in a loop that
     * ends before the sum: the loop over phases, which the sum is not in */
    for (size_t k = sum.at; g < s.len && k-- > g && !line;) {
        if (!code_word_at(&s, k, "__syncthreads"))
            continue;
        size_t h = code_loop_around(&s, k);
        if (h >= s.len || h < g)
            break;
        size_t b = code_loop_body(&s, h);
        if (b >= s.len || s.code[b] != '{')
            break;
        size_t close = code_matching(&s, b);
        if (close < s.len && close < sum.at && code_loop_around(&s, sum.at) != h) {
            line = code_line_at(&s, sum.at);
            *loop_line = code_line_at(&s, h);
            *close_line = code_line_at(&s, close);
        }
        break;
    }
    source_code_free(&s);
    return line;
}

int source_accumulator_start(const char *path)
{
    source_code s;
    kernel_sum sum;
    if (!read_sum(path, &s, &sum))
        return 0;
    int line = 0;
    /* the first `NAME = ...` before the sum (a declaration's initialiser too) */
    for (size_t k = 0; sum.at < s.len && k < sum.at && !line; k++)
        if (sum_name_at(&s, &sum, k) && code_assigns_at(&s, code_skip_space(&s, k + sum.n)))
            line = code_line_at(&s, k);
    source_code_free(&s);
    return line;
}

int source_sum_line(const char *path)
{
    source_code s;
    kernel_sum sum;
    if (!read_sum(path, &s, &sum))
        return 0;
    int line = sum.at < s.len ? code_line_at(&s, sum.at) : 0;
    source_code_free(&s);
    return line;
}

int source_sum_term_tested(const char *path, char *test, size_t n, char *read, size_t read_n)
{
    source_code s;
    kernel_sum sum;
    test[0] = read[0] = '\0';
    if (!read_sum(path, &s, &sum))
        return 0;
    const char *c = s.code;
    int found = 0, in_else = 0;
    size_t k = sum.at < s.len ? code_test_around(&s, sum.at, &in_else) : s.len;
    if (k < s.len && !in_else && code_word_at(&s, k, "if")) {
        size_t open = code_skip_space(&s, k + 2), close = open < s.len ? code_matching(&s, open) : s.len;
        size_t se = code_semicolon(&s, sum.at, s.len);
        /* an array read in the test, the same read in the sum's statement,
         * compared with a number: a test on the term's value, not on where
         * it is */
        int number = 0;
        for (size_t q = open; close < s.len && q < close && !number; q++)
            number = strchr("<>=!", c[q]) && q + 1 < close &&
                     isdigit((unsigned char)c[code_skip_space(&s, q + (c[q + 1] == '=' ? 2 : 1))]);
        for (size_t q = open; number && close < s.len && q < close && !found; q++) {
            if (!code_word_starts(&s, q))
                continue;
            size_t we = code_word_end(&s, q), b = code_skip_space(&s, we);
            if (b >= close || c[b] != '[' || isdigit((unsigned char)c[q])) {
                q = we > q ? we - 1 : q;
                continue;
            }
            size_t re = code_matching(&s, b);
            while (re < close && c[code_skip_space(&s, re + 1)] == '[')
                re = code_matching(&s, code_skip_space(&s, re + 1));
            if (re >= close) {
                q = we - 1;
                continue;
            }
            /* the same text, NAME[...][...], in the sum's statement */
            size_t len = re + 1 - q;
            for (size_t i = sum.at; i + len <= se && !found; i++)
                if (code_name_at(&s, i, c + q, we - q) && strncmp(c + i, c + q, len) == 0) {
                    found = code_line_at(&s, k);
                    snprintf(test, n, "%.*s", (int)(close - open - 1), c + open + 1);
                    snprintf(read, read_n, "%.*s", (int)len, c + q);
                }
            q = re;
        }
    }
    source_code_free(&s);
    return found;
}

int source_store_before_sum(const char *path, int *loop_line, int *sum_line, int *before_loop)
{
    source_code s;
    kernel_sum sum;
    *loop_line = *sum_line = *before_loop = 0;
    int store = source_output_store_line(path);
    if (store <= 0 || !read_sum(path, &s, &sum))
        return 0;
    int found = 0;
    size_t at = code_skip_space(&s, code_line_start(&s, store));
    /* the loops around the store, innermost first: one whose body holds
     * the sum after the store */
    for (size_t loop = code_loop_around(&s, at); sum.at < s.len && loop < s.len && !found;
         loop = loop > 0 ? code_loop_around(&s, loop) : s.len) {
        size_t body = code_loop_body(&s, loop), end = code_body_end(&s, body);
        if (body < s.len && sum.at > at && sum.at < end) {
            found = store;
            *loop_line = code_line_at(&s, loop);
            *sum_line = code_line_at(&s, sum.at);
        }
    }
    /* or the store before the loop that holds the sum, in the same kernel,
     * storing the sum's name (`P[...] = Pvalue;` above the phase loop):
     * it stores the sum before any term is added */
    size_t k_store = code_kernel_before(&s, at);
    if (!found && sum.at < s.len && sum.at > at && k_store < s.len && code_kernel_before(&s, sum.at) == k_store) {
        size_t outer = s.len;
        for (size_t loop = code_loop_around(&s, sum.at); loop < s.len && loop > at;
             loop = loop > 0 ? code_loop_around(&s, loop) : s.len)
            outer = loop;
        size_t e = code_line_end(&s, at);
        int stores_sum = 0;
        for (size_t q = at; q < e && !stores_sum; q++)
            stores_sum = sum_name_at(&s, &sum, q);
        /* ... and no store of that array after the sum */
        size_t kclose = s.len, sq = code_store_between(&s, at, e);
        code_kernel_body(&s, k_store, &kclose);
        size_t an = 0, a = sq < s.len ? code_word_before(&s, sq, &an) : s.len;
        for (size_t q = sum.at; an && q < kclose && stores_sum; q++)
            if (code_name_at(&s, q, s.code + a, an) && code_stored_at(&s, q, an))
                stores_sum = 0;
        if (outer < s.len && stores_sum) {
            found = store;
            *loop_line = code_line_at(&s, outer);
            *sum_line = code_line_at(&s, sum.at);
            *before_loop = 1;
        }
    }
    source_code_free(&s);
    return found;
}

int source_accumulator_integer(const char *path)
{
    static const char *const integer_types[] = { "int",     "long",    "short",    "unsigned", "char", "size_t",
                                                 "int32_t", "int64_t", "uint32_t", "uint64_t", NULL };
    source_code s;
    kernel_sum sum;
    if (!read_sum(path, &s, &sum))
        return 0;
    int line = 0, declared = 0;
    /* the last declaration of the name before the sum: `TYPE X` */
    for (size_t k = 1; sum.at < s.len && k < sum.at; k++) {
        if (!sum_name_at(&s, &sum, k))
            continue;
        size_t tn = 0, t = code_word_left_of(&s, k, &tn);
        if (tn == 0 || t + tn == k)
            continue; /* a use, not a declaration */
        if (code_keyword_before_value(s.code + t, tn))
            continue;
        declared = 1;
        line = code_word_in(s.code + t, tn, integer_types) ? code_line_at(&s, k) : 0;
    }
    source_code_free(&s);
    return declared ? line : 0;
}

int source_accumulator_unset(const char *path, char *name, size_t n)
{
    name[0] = '\0';
    source_code s;
    kernel_sum sum;
    if (!read_sum(path, &s, &sum))
        return 0;
    const char *code = s.code;
    int line = 0, set = 0;
    int depth = 0;
    /* every mention of the accumulator before the sum: a declaration in a
     * body (depth > 0, so not a parameter) with no `=` after it, and no
     * assignment of it anywhere before the sum */
    for (size_t k = 0; sum.at < s.len && k < sum.at; k++) {
        depth += code[k] == '{';
        depth -= code[k] == '}';
        if (!sum_name_at(&s, &sum, k))
            continue;
        size_t q = code_skip_space(&s, k + sum.n), tn = 0;
        size_t t = code_word_before(&s, k, &tn);
        if (code_assigns_at(&s, q))
            set = 1;
        else if (depth > 0 && q < s.len && (code[q] == ';' || code[q] == ',') && code_number_type(code + t, tn))
            line = code_line_at(&s, k);
    }
    if (set)
        line = 0;
    if (line && sum.n < n)
        snprintf(name, n, "%.*s", (int)sum.n, code + sum.name);
    source_code_free(&s);
    return line && sum.n < n ? line : 0;
}

int source_assigned_sum(const char *path, char *name, size_t n)
{
    name[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    for (size_t k = 1; k + 1 < s.len && !line; k++) {
        /* a plain `=`, not ==, <=, +=, ... */
        if (code[k] != '=' || code[k + 1] == '=' || strchr("=<>!+-*/%&|^", code[k - 1]))
            continue;
        size_t xn = 0, x = code_word_left_of(&s, k, &xn);
        if (xn == 0 || (code[x] >= '0' && code[x] <= '9') || xn >= n)
            continue;
        /* a statement of its own: after ; { } or ), not a declaration */
        size_t before = x;
        while (before > 0 && (code[before - 1] == ' ' || code[before - 1] == '\t' || code[before - 1] == '\n'))
            before--;
        if (before > 0 && !strchr(";{})", code[before - 1]))
            continue;
        size_t end = code_semicolon(&s, k + 1, s.len);
        /* a product of array reads, without the variable itself */
        int product = 0, subscript = 0, self = 0;
        for (size_t q = k + 1; q < end; q++) {
            product |= code[q] == '*';
            subscript |= code[q] == '[';
            self |= code_name_at(&s, q, code + x, xn);
        }
        if (!product || !subscript || self || code_loop_around(&s, k) == s.len)
            continue;
        line = code_line_at(&s, k);
        snprintf(name, n, "%.*s", (int)xn, code + x);
    }
    source_code_free(&s);
    return line;
}

int source_product_from_zero(const char *path, char *name, size_t n, int *start_line)
{
    name[0] = '\0';
    *start_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    for (size_t k = 1; k + 1 < s.len && !line; k++) {
        if (code[k] != '*' || code[k + 1] != '=')
            continue;
        size_t xn = 0, x = code_word_left_of(&s, k, &xn);
        if (xn == 0 || xn >= n || (code[x] >= '0' && code[x] <= '9') || code_loop_around(&s, k) == s.len)
            continue;
        size_t g = code_kernel_before(&s, k), close = 0;
        size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
        if (body >= s.len)
            continue;
        /* its value before the loop: a 0 */
        size_t loop = code_loop_around(&s, k), end = 0;
        size_t v = code_assignment_of(&s, body, loop, code + x, xn, &end);
        if (v >= s.len)
            continue;
        char value[16];
        size_t b = code_skip_space(&s, v), e = code_blank_before(&s, end);
        snprintf(value, sizeof value, "%.*s", (int)(e > b && e - b < sizeof value ? e - b : 0), code + b);
        if (strcmp(value, "0") && strcmp(value, "0.0f") && strcmp(value, "0.0") && strcmp(value, "0.f") &&
            strcmp(value, "0.0F"))
            continue;
        /* and nothing else in the kernel adds to it or sets it again */
        int other = 0;
        for (size_t q = body; q + xn < close && !other; q++) {
            if (q == x || !code_name_at(&s, q, code + x, xn))
                continue;
            size_t op = code_skip_space(&s, q + xn);
            other = op + 1 < s.len && ((strchr("+-/", code[op]) && code[op + 1] == '=') ||
                                       (code_assigns_at(&s, op) && q > v));
        }
        if (other)
            continue;
        line = code_line_at(&s, k);
        *start_line = code_line_at(&s, v);
        snprintf(name, n, "%.*s", (int)xn, code + x);
    }
    source_code_free(&s);
    return line;
}

/* ---- a product whose two factors step apart along the sum ---------------- */

/* The offset of counter (n characters) in the subscript [b, e): the sum
 * of the integer literals added at its top level (`i + 1`: 1, `ty + i`: 0,
 * `i - 1`: -1); 1 with it in *off, 0 where the subscript does not read the
 * counter, or reads it otherwise than added (`i * 2`, `k[i]`). */
static int counter_offset(const source_code *s, size_t b, size_t e, const char *counter, size_t n, long *off)
{
    const char *c = s->code;
    int reads = 0, depth = 0, sign = 1;
    long sum = 0;
    for (size_t q = b; q < e; q++) {
        if (c[q] == '(' || c[q] == '[') {
            depth++;
            continue;
        }
        if (c[q] == ')' || c[q] == ']') {
            depth--;
            continue;
        }
        if (code_name_at(s, q, counter, n)) {
            /* added as it is: no `*`, `/` or `%` beside it, and not taken
             * away (`MASK_WIDTH - 1 - i` walks the other way) */
            size_t before = code_blank_before(s, q), after = code_skip_space(s, q + n);
            if (depth || (before > b && strchr("*/%-", c[before - 1])) || (after < e && strchr("*/%[", c[after])))
                return 0;
            reads++;
            q += n - 1;
            continue;
        }
        if (depth == 0 && (c[q] == '+' || c[q] == '-')) {
            sign = c[q] == '-' ? -1 : 1;
            continue;
        }
        if (depth == 0 && isdigit((unsigned char)c[q]) && (q == 0 || !source_is_identifier_char(c[q - 1]))) {
            char *end;
            long v = strtol(c + q, &end, 10);
            size_t after = code_skip_space(s, (size_t)(end - c));
            size_t before = code_blank_before(s, q);
            if ((after < e && strchr("*/%", c[after])) || (before > b && strchr("*/%", c[before - 1])))
                return 0;
            sum += sign * v;
            q = (size_t)(end - c) - 1;
            sign = 1;
        }
    }
    *off = sum;
    return reads == 1;
}

/* A factor of a product at [b, e): an array read `NAME[...]...` whose
 * subscripts read counter: its name's offset and length, and the counter's
 * offset in it; 0 where it is not one, or more than one subscript reads it. */
static int factor_read(const source_code *s, size_t b, size_t e, const char *counter, size_t n, size_t *name,
                       size_t *name_n, long *off)
{
    b = code_skip_space(s, b);
    size_t we = code_word_end(s, b), q = code_skip_space(s, we);
    if (we == b || q >= e || s->code[q] != '[')
        return 0;
    int subs = 0;
    for (; q < e && s->code[q] == '['; q = code_skip_space(s, code_matching(s, q) + 1)) {
        size_t close = code_matching(s, q);
        long o = 0;
        int has = 0;
        for (size_t i = q + 1; i < close && !has; i++)
            has = code_name_at(s, i, counter, n);
        if (!has)
            continue;
        if (!counter_offset(s, q + 1, close, counter, n, &o) || subs++)
            return 0;
        *off = o;
    }
    *name = b;
    *name_n = we - b;
    return subs == 1;
}

int source_product_steps_apart(const char *path, char *term, size_t term_n, char *first, size_t first_n,
                               char *second, size_t second_n, long *first_off, long *second_off, char *counter,
                               size_t counter_n)
{
    source_code s;
    term[0] = first[0] = second[0] = counter[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 1 < s.len && !found; k++) {
        /* a `+=` in a kernel, in a for loop */
        if (c[k] != '+' || c[k + 1] != '=' || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t loop = code_loop_around(&s, k), n = 0, w = loop < s.len ? code_for_counter(&s, loop, &n) : s.len;
        if (w >= s.len)
            continue;
        size_t v = k + 2, end = code_semicolon(&s, v, s.len);
        /* its terms, at the top level */
        size_t tb = v;
        for (size_t q = v; q <= end && !found; q++) {
            int depth = 0;
            for (size_t d = tb; d < q; d++)
                depth += (c[d] == '(' || c[d] == '[') - (c[d] == ')' || c[d] == ']');
            if (q < end && !(depth == 0 && (c[q] == '+' || c[q] == '-') && q > v &&
                             !strchr("*/%(+-=", c[code_blank_before(&s, q) - 1])))
                continue;
            /* the term [tb, q): two factors joined by one top-level `*` */
            size_t star = s.len;
            int stars = 0;
            for (size_t d = tb, dd = 0; d < q; d++) {
                dd += (c[d] == '(' || c[d] == '[') - (c[d] == ')' || c[d] == ']');
                if (dd == 0 && c[d] == '*')
                    star = d, stars++;
            }
            size_t an = 0, a = 0, bn = 0, bname = 0;
            long ao = 0, bo = 0;
            if (stars == 1 && factor_read(&s, tb, star, c + w, n, &a, &an, &ao) &&
                factor_read(&s, star + 1, q, c + w, n, &bname, &bn, &bo) && ao != bo) {
                found = code_line_at(&s, k);
                size_t ts = code_skip_space(&s, tb), te = code_blank_before(&s, q);
                snprintf(term, term_n, "%.*s", (int)(te - ts), c + ts);
                snprintf(first, first_n, "%.*s", (int)an, c + a);
                snprintf(second, second_n, "%.*s", (int)bn, c + bname);
                snprintf(counter, counter_n, "%.*s", (int)n, c + w);
                *first_off = ao;
                *second_off = bo;
            }
            tb = q + 1;
        }
    }
    source_code_free(&s);
    return found;
}

/* Whether the mention of a name at k (n characters) sets it without
 * reading it first: `name =` (not `==`), `name++`, `++name`, or `&name`
 * (handed to be set); `name += x` reads it first (compound_set_at). */
static int sets_at(const source_code *s, size_t k, size_t n)
{
    const char *c = s->code;
    size_t q = code_skip_space(s, k + n), b = code_blank_before(s, k);
    if (code_assigns_at(s, q))
        return 1;
    if (q + 1 < s->len && (c[q] == '+' || c[q] == '-') && c[q + 1] == c[q])
        return 1;
    if (b >= 2 && (c[b - 1] == '+' || c[b - 1] == '-') && c[b - 2] == c[b - 1])
        return 1;
    return b >= 1 && c[b - 1] == '&' && !(b >= 2 && c[b - 2] == '&');
}

int source_local_read_unset(const char *path, char *name, size_t n, int *read_line)
{
    source_code s;
    name[0] = 0;
    *read_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        /* a declaration in a kernel's body: a number type at a statement's start */
        if (!code_word_starts(&s, k))
            continue;
        size_t g = code_kernel_before(&s, k), close = s.len;
        size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
        if (body >= s.len || k <= body || k >= close)
            continue;
        size_t te = code_word_end(&s, k), before = k;
        while (before > 0 && strchr(" \t\r\n", c[before - 1]))
            before--;
        if (!code_number_type(c + k, te - k) || (before > 0 && !strchr(";{}", c[before - 1])))
            continue;
        size_t end = code_semicolon(&s, te, s.len);
        if (end >= s.len)
            break;
        /* each declarator: `*`s, a name, then `=` (set), `[` (an array) or `,`/`;` (no value) */
        size_t q = code_skip_space(&s, te);
        while (q < end && code_word_at(&s, q, "int"))
            q = code_skip_space(&s, q + 3); /* `unsigned int`, `long int` */
        int depth = 0;
        for (size_t d = q; d < end && !found;) {
            while (d < end && (c[d] == '*' || c[d] == ' ' || c[d] == '\t' || c[d] == '\n'))
                d++;
            size_t ne = code_word_end(&s, d);
            if (ne == d)
                break;
            size_t after = code_skip_space(&s, ne);
            if (after <= end && (c[after] == ',' || c[after] == ';') && ne - d < n && ne - d < 64) {
                /* no value: the next mention of the name in the kernel */
                for (size_t u = end + 1; u < close && u < s.len; u++) {
                    if (!code_name_at(&s, u, c + d, ne - d))
                        continue;
                    if (!sets_at(&s, u, ne - d)) {
                        found = code_line_at(&s, k);
                        *read_line = code_line_at(&s, u);
                        snprintf(name, n, "%.*s", (int)(ne - d), c + d);
                    }
                    break;
                }
            }
            /* on to the next declarator: past the top-level `,` */
            size_t e = after;
            for (depth = 0; e < end; e++) {
                if (c[e] == '(' || c[e] == '[' || c[e] == '{')
                    depth++;
                else if (c[e] == ')' || c[e] == ']' || c[e] == '}')
                    depth--;
                else if (c[e] == ',' && depth == 0)
                    break;
            }
            d = e + 1;
        }
        k = end;
    }
    source_code_free(&s);
    return found;
}

/* Whether the mention at k (n characters) is a compound assignment's
 * (`name += x`, `-=`, `*=`, `/=`, `%=`, `&=`, `|=`, `^=`, `<<=`, `>>=`). */
static int compound_set_at(const source_code *s, size_t k, size_t n)
{
    const char *c = s->code;
    size_t q = code_skip_space(s, k + n);
    if (q + 2 < s->len && (c[q] == '<' || c[q] == '>') && c[q + 1] == c[q] && c[q + 2] == '=')
        return 1;
    return q + 1 < s->len && strchr("+-*/%&|^", c[q]) && c[q + 1] == '=';
}

int source_last_set_before(const char *path, int line, const char *name)
{
    source_code s;
    if (line <= 0 || !name[0] || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, line), n = strlen(name);
    size_t g = code_kernel_before(&s, at), close = s.len, body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int found = 0;
    for (size_t k = body < s.len ? body : at; k < at; k++)
        if (code_name_at(&s, k, name, n) && (sets_at(&s, k, n) || compound_set_at(&s, k, n)))
            found = code_line_at(&s, k);
    source_code_free(&s);
    return found;
}
