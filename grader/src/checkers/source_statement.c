/*
 * source_statement.c - statements and operators that do not do what they
 * read as: a statement whose value is thrown away and that does nothing
 * else (`__syncthreads;`, the function named but not called; `Pvalue ==
 * 0;`, a comparison where an assignment was meant), and `^` between a
 * value and a small number, read as a power but C's exclusive or
 * (`TILE_WIDTH^2` is 18, not 256), and a shift by a named size. The compiler takes them; g++ warns of
 * the first only with -Wall, which the student may not see.
 */
#include "source.h"
#include "source_code.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LONE_NAMES_MAX = 64 };

/* Whether name (n characters) is called somewhere in the file (`name (`),
 * or is a CUDA function a kernel calls (__syncthreads and its kin). */
static int called_name(const source_code *s, const char *name, size_t n)
{
    static const char *const builtins[] = { "__syncthreads", "__syncwarp", "__threadfence", "__threadfence_block",
                                            NULL };
    if (code_word_in(name, n, builtins))
        return 1;
    for (size_t k = 0; k + n < s->len; k++)
        if (code_name_at(s, k, name, n) && s->code + k != name) {
            size_t q = code_skip_space(s, k + n);
            if (q < s->len && s->code[q] == '(')
                return 1;
        }
    return 0;
}

int source_statement_without_effect(const char *path, int *kind, char *text, size_t size)
{
    source_code s;
    text[0] = '\0';
    *kind = 0;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0, lone = 0, braces = 0, parens = 0;
    /* each statement inside a function's body (braces open, no bracket
     * open: not a for's header): from after a ';', '{' or '}' to its ';' */
    for (size_t k = 0; k < s.len && !found; k++) {
        char at = s.code[k];
        braces += (at == '{') - (at == '}');
        parens += (at == '(') - (at == ')');
        if ((at != ';' && at != '{' && at != '}') || braces <= 0 || parens != 0)
            continue;
        size_t b = code_skip_space(&s, k + 1);
        if (b >= s.len || s.code[b] == '#')
            continue;
        /* the statement an `else` or a `do` governs (`else ds_N[ty][tx] == 0.0f;`) */
        if (code_word_at(&s, b, "else") || code_word_at(&s, b, "do"))
            b = code_skip_space(&s, code_word_end(&s, b));
        size_t e = code_semicolon(&s, b, s.len);
        if (e >= s.len)
            continue;
        /* no call, brace, assignment or step in it (brackets that only
         * group, `(k + TILE_WIDTH - 1) / TILE_WIDTH`, are no call) */
        int plain = e > b, compares = 0;
        for (size_t c = b; c < e && plain; c++) {
            char ch = s.code[c];
            size_t before = c;
            while (before > b && (s.code[before - 1] == ' ' || s.code[before - 1] == '\t'))
                before--;
            int call = ch == '(' && before > b &&
                       (source_is_identifier_char(s.code[before - 1]) || s.code[before - 1] == ']') &&
                       !(before - b >= 6 && !strncmp(s.code + before - 6, "sizeof", 6)); /* (an operator) */
            if ((ch == '(' && (call || !compares)) || strchr("{}?:\"'", ch) ||
                (ch == '+' && c + 1 < e && s.code[c + 1] == '+') ||
                (ch == '-' && c + 1 < e && s.code[c + 1] == '-'))
                plain = 0;
            else if (ch == '=' && c + 1 < e && s.code[c + 1] == '=') {
                compares = 1;
                c++;
            } else if (ch == '=' || (ch == '<' && c + 1 < e && s.code[c + 1] == '<'))
                plain = 0; /* an assignment of any kind (`=`, `+=`, `<<=`) */
        }
        /* not `return a == b;` */
        size_t wn0 = code_word_end(&s, b) - b;
        if (!plain || (wn0 > 0 && code_keyword_before_value(s.code + b, wn0)))
            continue;
        size_t end = e;
        while (end > b && (s.code[end - 1] == ' ' || s.code[end - 1] == '\t' || s.code[end - 1] == '\n'))
            end--;
        size_t wn = code_word_end(&s, b) - b;
        /* each lone name costs a walk of the file: a file of nothing but
         * them is walked for its first few */
        if (!compares && wn > 0 && b + wn == end && ++lone <= LONE_NAMES_MAX && called_name(&s, s.code + b, wn)) {
            *kind = EFFECT_NOT_CALLED;
            found = code_line_at(&s, b);
        } else if (compares) {
            *kind = EFFECT_COMPARISON;
            found = code_line_at(&s, b);
        }
        if (found)
            snprintf(text, size, "%.*s", (int)(end - b), s.code + b);
    }
    source_code_free(&s);
    return found;
}

/* Where the operand left of the operator at k starts: a name, or a
 * bracketed expression (`(k + TILE_WIDTH - 1) >> ...`); len when neither
 * stands there. */
static size_t left_operand(const source_code *s, size_t k)
{
    size_t b = code_blank_before(s, k);
    if (b == 0 || !(source_is_identifier_char(s->code[b - 1]) || s->code[b - 1] == ')'))
        return s->len;
    size_t from = b;
    if (s->code[b - 1] == ')') {
        int depth = 0; /* back to the bracket's opening */
        while (from > 0) {
            from--;
            depth += s->code[from] == ')';
            depth -= s->code[from] == '(';
            if (depth == 0)
                break;
        }
    } else {
        while (from > 0 && source_is_identifier_char(s->code[from - 1]))
            from--;
    }
    return from;
}

int source_xor_as_power(const char *path, char *text, size_t size)
{
    source_code s;
    text[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 1; k < s.len && !found; k++) {
        if (s.code[k] != '^' || s.code[k + 1] == '=')
            continue;
        /* a name or a closing bracket before it, a digit 2 or 3 alone after it */
        size_t d = code_skip_space(&s, k + 1);
        if (d >= s.len || (s.code[d] != '2' && s.code[d] != '3') || source_is_identifier_char(s.code[d + 1]) ||
            s.code[d + 1] == '.')
            continue;
        size_t from = left_operand(&s, k);
        if (from == s.len)
            continue;
        snprintf(text, size, "%.*s", (int)(d + 1 - from), s.code + from);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_shift_by_size(const char *path, char *text, size_t size, char *by, size_t by_n, long *value)
{
    source_code s;
    text[0] = by[0] = '\0';
    *value = 0;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0, shifts = 0;
    for (size_t k = 1; k + 2 < s.len && !found; k++) {
        char c = s.code[k];
        if ((c != '>' && c != '<') || s.code[k + 1] != c || s.code[k - 1] == c || s.code[k + 2] == '=' ||
            s.code[k + 2] == c)
            continue;
        size_t r = code_skip_space(&s, k + 2), re = code_word_end(&s, r);
        if (re == r || (s.code[r] >= '0' && s.code[r] <= '9'))
            continue;
        /* a shift by a named size of 8 or more: the count of bits is not
         * what was meant (each name costs walks of the file: the first
         * few are looked at) */
        if (++shifts > LONE_NAMES_MAX)
            break;
        if (code_kernel_before(&s, k) >= s.len)
            continue;
        long v = 0;
        size_t def = 0;
        if (!code_defined_number(&s, s.code + r, re - r, &v, &def) || v < 8)
            continue;
        size_t l = left_operand(&s, k);
        if (l == s.len)
            continue;
        snprintf(text, size, "%.*s", (int)(re - l), s.code + l);
        snprintf(by, by_n, "%.*s", (int)(re - r), s.code + r);
        *value = v;
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

/* Whether the name at k (n characters) is stepped or assigned there:
 * `k++`, `++k`, `k--`, `--k`, `k += ...`, `k = ...` (not `==`). */
static int stepped_at(const source_code *s, size_t k, size_t n)
{
    size_t q = code_skip_space(s, k + n), p = code_blank_before(s, k);
    const char *c = s->code;
    if (q + 1 < s->len && ((c[q] == '+' && c[q + 1] == '+') || (c[q] == '-' && c[q + 1] == '-')))
        return 1;
    if (p >= 2 && ((c[p - 1] == '+' && c[p - 2] == '+') || (c[p - 1] == '-' && c[p - 2] == '-')))
        return 1;
    if (q + 1 < s->len && strchr("+-*/", c[q]) && c[q + 1] == '=')
        return 1;
    return code_assigns_at(s, q);
}

int source_loop_counter_stepped_in_body(const char *path, char *name, size_t n, int *loop_line)
{
    source_code s;
    name[0] = '\0';
    *loop_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "for"))
            continue;
        size_t open = code_skip_space(&s, k + 3);
        if (open >= s.len || c[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len)
            continue;
        /* the header's third clause, after its second ';' */
        size_t semi = code_semicolon(&s, open, close);
        semi = semi < close ? code_semicolon(&s, semi + 1, close) : close;
        if (semi >= close)
            continue;
        /* the counter: the name the third clause steps */
        size_t w = 0, wn = 0;
        for (size_t i = semi + 1; i < close && !wn; i++)
            if (code_word_starts(&s, i) && (isalpha((unsigned char)c[i]) || c[i] == '_')) {
                size_t e = code_word_end(&s, i);
                if (stepped_at(&s, i, e - i))
                    w = i, wn = e - i;
                i = e - 1;
            }
        if (!wn || wn >= 64)
            continue;
        size_t body = code_loop_body(&s, k);
        if (body >= s.len)
            continue;
        size_t end = c[body] == '{' ? code_matching(&s, body) : code_semicolon(&s, body, s.len);
        for (size_t i = body; i < end && i < s.len && !found; i++) {
            if (!code_name_at(&s, i, c + w, wn))
                continue;
            /* a declaration of that name in the body (an inner loop's own
             * counter) hides it from there on */
            size_t tn = 0, t = code_word_before(&s, i, &tn);
            if (tn && t < i && code_number_type(c + t, tn))
                break;
            if (stepped_at(&s, i, wn)) {
                found = code_line_at(&s, i);
                *loop_line = code_line_at(&s, k);
                snprintf(name, n, "%.*s", (int)wn, c + w);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_jump_past_barrier(const char *path, int barrier_line, char *word, size_t n)
{
    source_code s;
    word[0] = '\0';
    if (barrier_line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, barrier_line), e = b < s.len ? code_line_end(&s, b) : s.len, at = e;
    for (size_t k = b; k < e && at == e; k++)
        if (code_word_at(&s, k, "__syncthreads"))
            at = k;
    size_t loop = at < e ? code_loop_around(&s, at) : s.len;
    size_t body = loop < s.len ? code_loop_body(&s, loop) : s.len;
    int found = 0;
    /* a continue or break of that very loop (not of a loop inside it, nor a
     * switch's break) before the barrier */
    for (size_t k = body; k < at && !found; k++) {
        int cont = code_word_at(&s, k, "continue"), brk = !cont && code_word_at(&s, k, "break");
        if ((!cont && !brk) || code_loop_around(&s, k) != loop)
            continue;
        if (brk) {
            size_t sw = code_block_around(&s, k);
            size_t kw = sw < s.len ? code_statement_start(&s, sw, body) : s.len;
            if (kw < s.len && code_word_at(&s, code_skip_space(&s, kw), "switch"))
                continue;
        }
        found = code_line_at(&s, k);
        snprintf(word, n, "%s", cont ? "continue" : "break");
    }
    source_code_free(&s);
    return found;
}

/* code[b, e) without blanks into out (n bytes). */
static void squeezed(const source_code *s, size_t b, size_t e, char *out, size_t n)
{
    code_squeezed(s->code + b, e > b ? e - b : 0, out, n);
}

int source_term_outside_subscript(const char *path, char *read, size_t read_n, char *term, size_t term_n,
                                  int *sibling_line)
{
    source_code s;
    read[0] = term[0] = '\0';
    *sibling_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0, looked = 0;
    /* each `A[E] + T`: a name, one subscript, then `+ name` */
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)c[k]) || c[k] == '_'))
            continue;
        size_t ae = code_word_end(&s, k), open = code_skip_space(&s, ae);
        if (open >= s.len || c[open] != '[') {
            k = ae - 1;
            continue;
        }
        size_t close = code_matching(&s, open);
        size_t plus = close < s.len ? code_skip_space(&s, close + 1) : s.len;
        if (plus >= s.len || c[plus] != '+' || c[plus + 1] == '+' || c[plus + 1] == '=')
            continue;
        size_t t = code_skip_space(&s, plus + 1), te = code_word_end(&s, t);
        if (te == t || !(isalpha((unsigned char)c[t]) || c[t] == '_') || te - t >= 64 ||
            (te < s.len && (c[code_skip_space(&s, te)] == '[' || c[code_skip_space(&s, te)] == '(')))
            continue;
        if (++looked > LONE_NAMES_MAX)
            break; /* each costs a walk of the file */
        /* the same array read elsewhere with the term inside: `A[E + T]` */
        char want[512], have[512];
        squeezed(&s, open + 1, close, have, sizeof have);
        size_t hl = strlen(have);
        if (hl + 1 + (te - t) >= sizeof want)
            continue;
        memcpy(want, have, hl);
        want[hl] = '+';
        memcpy(want + hl + 1, c + t, te - t);
        want[hl + 1 + (te - t)] = '\0';
        size_t an = ae - k;
        for (size_t j = 0; j < s.len && !found; j++) {
            if (j == k || !code_name_at(&s, j, c + k, an))
                continue;
            size_t o2 = code_skip_space(&s, j + an);
            if (o2 >= s.len || c[o2] != '[')
                continue;
            size_t c2 = code_matching(&s, o2);
            if (c2 >= s.len)
                continue;
            char other[512];
            squeezed(&s, o2 + 1, c2, other, sizeof other);
            if (strcmp(other, want) == 0) {
                found = code_line_at(&s, k);
                *sibling_line = code_line_at(&s, j);
                snprintf(read, read_n, "%.*s", (int)(te - k), c + k);
                snprintf(term, term_n, "%.*s", (int)(te - t), c + t);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_return_before_launch(const char *path, int *test_line, int *launch_line)
{
    source_code s;
    *test_line = *launch_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    /* the first launch, `<<<`, and a return before it in the same function
     * (host code: no kernel around it), under an if */
    size_t launch = s.len;
    for (size_t k = 0; k + 3 < s.len && launch == s.len; k++)
        if (strncmp(c + k, "<<<", 3) == 0)
            launch = k;
    size_t fn = launch < s.len ? code_block_around(&s, launch) : s.len;
    while (fn < s.len && code_block_around(&s, fn) < s.len)
        fn = code_block_around(&s, fn); /* the function's own body */
    for (size_t k = fn; fn < s.len && k < launch && !found; k++) {
        if (!code_word_at(&s, k, "return"))
            continue;
        int in_else = 0;
        size_t t = code_test_around(&s, k, &in_else);
        if (t >= s.len || !code_word_at(&s, t, "if") || t < fn)
            continue;
        found = code_line_at(&s, k);
        *test_line = code_line_at(&s, t);
        *launch_line = code_line_at(&s, launch);
    }
    source_code_free(&s);
    return found;
}

int source_loop_break(const char *path, int loop_line, char *text, size_t n)
{
    source_code s;
    text[0] = '\0';
    if (loop_line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, loop_line), e = b < s.len ? code_line_end(&s, b) : s.len, loop = s.len;
    for (size_t k = b; k < e && loop == s.len; k++)
        if (code_word_at(&s, k, "for") || code_word_at(&s, k, "while"))
            loop = k;
    size_t body = loop < s.len ? code_loop_body(&s, loop) : s.len;
    size_t end = body < s.len ? code_body_end(&s, body) : s.len;
    int found = 0;
    for (size_t k = body; k < end && k < s.len && !found; k++) {
        if (!code_word_at(&s, k, "break") || code_loop_around(&s, k) != loop)
            continue;
        size_t st = code_statement_start(&s, k, body);
        found = code_line_at(&s, k);
        snprintf(text, n, "%.*s", (int)(code_semicolon(&s, k, s.len) + 1 - st), s.code + st);
    }
    source_code_free(&s);
    return found;
}

int source_if_guards_jump(const char *path, int line, char *jump, size_t n)
{
    source_code s;
    jump[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    int found = 0;
    for (size_t k = b; k < e && !found; k++) {
        if (!code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t body = code_skip_space(&s, code_matching(&s, open) + 1);
        if (body < s.len && s.code[body] == '{')
            body = code_skip_space(&s, body + 1);
        static const char *const jumps[] = { "break", "continue", "return", NULL };
        for (int j = 0; jumps[j] && !found; j++)
            if (body < s.len && code_word_at(&s, body, jumps[j])) {
                snprintf(jump, n, "%s", jumps[j]);
                found = code_line_at(&s, body);
            }
    }
    source_code_free(&s);
    return found;
}

/* Whether offset k of s starts a kernel's `if (...)`: its condition's
 * brackets into *open and *close. */
static int kernel_if_at(const source_code *s, size_t k, size_t *open, size_t *close)
{
    if (!code_word_at(s, k, "if") || code_kernel_before(s, k) >= s->len)
        return 0;
    *open = code_skip_space(s, k + 2);
    if (*open >= s->len || s->code[*open] != '(')
        return 0;
    *close = code_matching(s, *open);
    return *close < s->len;
}

int source_load_in_one_pass(const char *path, char *test, size_t n, int *loop_line)
{
    source_code s;
    test[0] = '\0';
    *loop_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 2 < s.len && !found; k++) {
        size_t open, close;
        if (!kernel_if_at(&s, k, &open, &close))
            continue;
        /* `(NAME == NUMBER)`: NAME the counter of a loop around the if */
        size_t w = code_skip_space(&s, open + 1), we = code_word_end(&s, w);
        size_t eq = code_skip_space(&s, we), v = eq + 2 < s.len ? code_skip_space(&s, eq + 2) : s.len;
        if (we == w || eq + 1 >= s.len || c[eq] != '=' || c[eq + 1] != '=' || v >= s.len ||
            !isdigit((unsigned char)c[v]) || code_skip_space(&s, code_word_end(&s, v)) != close)
            continue;
        size_t loop = code_loop_around(&s, k);
        if (loop >= s.len || !code_word_at(&s, loop, "for"))
            continue;
        size_t lo = code_skip_space(&s, loop + 3), lw = lo < s.len ? code_skip_space(&s, lo + 1) : s.len;
        /* the loop's counter: its header's first name after an `int` (or the first name) */
        if (lw < s.len && code_word_at(&s, lw, "int"))
            lw = code_skip_space(&s, lw + 3);
        if (lw >= s.len || code_word_end(&s, lw) - lw != we - w || strncmp(c + lw, c + w, we - w) != 0)
            continue;
        /* what it guards stores into a __shared__ array */
        size_t body = code_skip_space(&s, close + 1), end = code_body_end(&s, body);
        int shared = 0;
        for (size_t i = body; i < end && i < s.len && !shared; i++) {
            if (!code_word_starts(&s, i) || !(isalpha((unsigned char)c[i]) || c[i] == '_'))
                continue;
            size_t ie = code_word_end(&s, i);
            char name[64];
            snprintf(name, sizeof name, "%.*s", (int)(ie - i < 63 ? ie - i : 63), c + i);
            size_t b = code_skip_space(&s, ie);
            shared = b < s.len && c[b] == '[' && code_stored_at(&s, i, ie - i) &&
                     code_declared_shared(c, name, strlen(name));
            i = ie - 1;
        }
        if (!shared)
            continue;
        found = code_line_at(&s, k);
        *loop_line = code_line_at(&s, loop);
        snprintf(test, n, "%.*s", (int)(close + 1 - k), c + k);
    }
    source_code_free(&s);
    return found;
}

/* The __shared__ array a statement [b, e] stores into with a read of an
 * array on its right (`ds_M[ty][tx] = M[Row * k + mCol];`): its name's
 * offset and length; 0 when it is no such load. */
static int shared_load(const source_code *s, size_t b, size_t e, size_t *name, size_t *n)
{
    const char *c = s->code;
    if (b >= s->len || !code_word_starts(s, b) || !(isalpha((unsigned char)c[b]) || c[b] == '_'))
        return 0;
    size_t ie = code_word_end(s, b);
    if (!code_stored_at(s, b, ie - b) || !code_declared_shared(c, c + b, ie - b))
        return 0;
    /* the value: after the `=`, an array read */
    const char *eq = memchr(c + ie, '=', e - ie);
    if (!eq || !memchr(eq, '[', (size_t)(c + e - eq)))
        return 0;
    *name = b;
    *n = ie - b;
    return 1;
}

int source_load_without_else_in_loop(const char *path, char *array, size_t array_n, int *store_line,
                                     int *loop_line, int *other_line)
{
    source_code s;
    *store_line = *loop_line = *other_line = 0;
    array[0] = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 2 < s.len; k++) {
        size_t open, close;
        if (!kernel_if_at(&s, k, &open, &close))
            continue;
        size_t body = code_skip_space(&s, close + 1), end = code_body_end(&s, body);
        if (end >= s.len || code_word_at(&s, code_skip_space(&s, end + 1), "else"))
            continue;
        size_t name, n;
        if (!shared_load(&s, body, end, &name, &n))
            continue;
        size_t loop = code_loop_around(&s, k);
        if (loop >= s.len || !code_word_at(&s, loop, "for"))
            continue;
        /* the tile stored anywhere else in the pass (zeroed at the loop's
         * top, or a zero store after the if whose else keyword went
         * missing) is another story */
        int elsewhere = 0;
        size_t lb = code_loop_body(&s, loop), le = code_body_end(&s, lb);
        for (size_t i = lb; i < le && i < s.len && !elsewhere; i++)
            elsewhere = (i < body || i > end) && code_name_at(&s, i, c + name, n) && code_stored_at(&s, i, n);
        if (elsewhere)
            continue;
        if (!found) {
            found = code_line_at(&s, k);
            *store_line = code_line_at(&s, body);
            *loop_line = code_line_at(&s, loop);
            snprintf(array, array_n, "%.*s", (int)n, c + name);
        } else if (!*other_line && code_line_at(&s, body) != *store_line) {
            *other_line = code_line_at(&s, body);
        }
        k = end;
    }
    source_code_free(&s);
    return found;
}

/* The term of the test in [open, close) (a whole test, or one of its
 * top-level `&&` terms) that compares name (n characters) with `==` to
 * something that does not read it: its [*b, *e), or 0. */
static int term_pins_name(const source_code *s, size_t open, size_t close, const char *name, size_t n, size_t *b,
                          size_t *e)
{
    const char *c = s->code;
    size_t start = open + 1;
    int depth = 0;
    for (size_t q = open + 1; q <= close; q++) {
        if (q < close && (c[q] == '(' || c[q] == '['))
            depth++;
        else if (q < close && (c[q] == ')' || c[q] == ']'))
            depth--;
        if (q < close && !(depth == 0 && c[q] == '&' && c[q + 1] == '&'))
            continue;
        /* the term [start, q): NAME == X or X == NAME, X free of NAME */
        size_t eq = s->len;
        int uses = 0, d = 0;
        for (size_t i = start; i < q; i++) {
            d += c[i] == '(' || c[i] == '[';
            d -= c[i] == ')' || c[i] == ']';
            if (d == 0 && c[i] == '=' && c[i + 1] == '=' && (i == 0 || !strchr("=!<>", c[i - 1])))
                eq = i;
            uses += code_name_at(s, i, name, n);
        }
        size_t lb = code_skip_space(s, start), rb = eq < q ? code_skip_space(s, eq + 2) : s->len;
        int left = eq < q && code_name_at(s, lb, name, n) && code_skip_space(s, lb + n) == eq;
        int right = eq < q && code_name_at(s, rb, name, n) && code_skip_space(s, rb + n) >= q;
        if (uses == 1 && (left || right)) {
            *b = lb;
            *e = code_blank_before(s, q);
            return 1;
        }
        start = q + 2;
        q++;
    }
    return 0;
}

int source_store_in_one_pass(const char *path, char *term, size_t term_n, char *counter, size_t counter_n,
                             int *loop_line, int *store_line)
{
    source_code s;
    term[0] = counter[0] = '\0';
    *loop_line = *store_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 2 < s.len && !found; k++) {
        size_t open, close;
        if (!kernel_if_at(&s, k, &open, &close))
            continue;
        size_t body = code_skip_space(&s, close + 1), end = code_body_end(&s, body);
        /* each for loop around the if, inner first */
        for (size_t loop = code_loop_around(&s, k); loop < s.len && !found; loop = code_loop_around(&s, loop)) {
            size_t n, w = code_for_counter(&s, loop, &n), tb, te;
            if (w >= s.len || !term_pins_name(&s, open, close, c + w, n, &tb, &te))
                continue;
            /* a store under it whose subscripts read the counter */
            for (size_t q = code_store_between(&s, body, end); q < end && q < s.len && !found;
                 q = code_store_between(&s, code_matching(&s, q) + 1, end)) {
                size_t sub_end = code_matching(&s, q);
                int reads = 0;
                for (size_t i = q; i < sub_end && !reads; i++)
                    reads = code_name_at(&s, i, c + w, n);
                /* or through a name the subscripts read (`out[idx] = ...`,
                 * idx made from k), by its last assignment before the store */
                size_t from = code_kernel_before(&s, q);
                for (size_t i = q; i < sub_end && !reads; i++) {
                    if (!code_word_starts(&s, i) || !(isalpha((unsigned char)c[i]) || c[i] == '_'))
                        continue;
                    size_t ie = code_word_end(&s, i), vend = 0;
                    size_t v = code_assignment_of(&s, from, q, c + i, ie - i, &vend);
                    for (size_t j = v; v < s.len && j < vend && !reads; j++)
                        reads = code_name_at(&s, j, c + w, n);
                    i = ie - 1;
                }
                if (!reads)
                    continue;
                found = code_line_at(&s, k);
                *loop_line = code_line_at(&s, loop);
                *store_line = code_line_at(&s, q);
                snprintf(term, term_n, "%.*s", (int)(te - tb), c + tb);
                snprintf(counter, counter_n, "%.*s", (int)n, c + w);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_test_at_loop_bound(const char *path, char *term, size_t term_n, char *counter, size_t counter_n,
                              char *bound, size_t bound_n, int *loop_line, int *guarded_line)
{
    source_code s;
    term[0] = counter[0] = bound[0] = '\0';
    *loop_line = *guarded_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 2 < s.len && !found; k++) {
        size_t open, close;
        if (!kernel_if_at(&s, k, &open, &close))
            continue;
        size_t body = code_skip_space(&s, close + 1);
        if (body < s.len && c[body] == '{')
            body = code_skip_space(&s, body + 1);
        /* the innermost for loop around the if, and its `counter < bound` */
        size_t loop = code_loop_around(&s, k);
        if (loop >= s.len || !code_word_at(&s, loop, "for"))
            continue;
        size_t n, w = code_for_counter(&s, loop, &n), tb, te;
        if (w >= s.len || n >= 48 || !term_pins_name(&s, open, close, c + w, n, &tb, &te))
            continue;
        char name[48], left[128], right[128];
        snprintf(name, sizeof name, "%.*s", (int)n, c + w);
        int ll = code_line_at(&s, loop);
        if (source_compared_sides(path, ll, 0, "<", left, right, sizeof left) != 0 || strcmp(left, name) != 0)
            continue;
        /* the pinned value: the side of `==` that is not the counter */
        size_t eq = tb;
        while (eq < te && !(c[eq] == '=' && c[eq + 1] == '='))
            eq++;
        if (eq >= te)
            continue;
        size_t lb = code_skip_space(&s, tb);
        char value[128], want[128];
        if (code_name_at(&s, lb, name, n) && code_skip_space(&s, lb + n) == eq)
            code_squeezed(c + eq + 2, te - eq - 2, value, sizeof value);
        else
            code_squeezed(c + tb, eq - tb, value, sizeof value);
        code_squeezed(right, strlen(right), want, sizeof want);
        if (!value[0] || strcmp(value, want) != 0)
            continue;
        /* the loop's counter only goes up: a step of ++, += or = counter + */
        found = code_line_at(&s, k);
        *loop_line = ll;
        *guarded_line = body < s.len ? code_line_at(&s, body) : found;
        snprintf(term, term_n, "%.*s", (int)(te - tb), c + tb);
        snprintf(counter, counter_n, "%s", name);
        snprintf(bound, bound_n, "%s", right);
    }
    source_code_free(&s);
    return found;
}

/* The names of line access that the finder is asked about: those a
 * subscript adds loop_var to, or with loop_var "" any name inside a
 * subscript; the first for which found(path, access, word, a, b) gives a
 * line above 0, its word into name and that line returned; else 0. */
static int subscript_name_where(const char *path, int access, const char *loop_var, char *name, size_t n,
                                int (*found)(const char *, int, const char *, int *, int *), int *a, int *b)
{
    name[0] = '\0';
    char *text = source_line_text(path, access, 4096);
    int last = 0, looked = 0, depth = 0;
    for (const char *p = text; p && *p && !last; p++) {
        depth += (*p == '[') - (*p == ']');
        if (!source_is_identifier_char(*p) || (p > text && source_is_identifier_char(p[-1])) ||
            isdigit((unsigned char)*p))
            continue;
        size_t w = 0;
        while (source_is_identifier_char(p[w]))
            w++;
        char word[64];
        snprintf(word, sizeof word, "%.*s", (int)(w < sizeof word ? w : sizeof word - 1), p);
        p += w - 1;
        /* with no loop_var, any name inside a subscript */
        if (strcmp(word, loop_var) == 0 || ++looked > LONE_NAMES_MAX ||
            (loop_var[0] ? !source_subscript_with_both(path, access, word, loop_var) : depth <= 0))
            continue;
        last = found(path, access, word, a, b);
        if (last > 0)
            snprintf(name, n, "%s", word);
    }
    free(text);
    return last;
}

static int set_again_finder(const char *path, int access, const char *name, int *first_line, int *unused)
{
    (void)unused;
    return source_name_set_again(path, access, name, first_line);
}

int source_subscript_set_again(const char *path, int access, const char *loop_var, char *name, size_t n,
                               int *first_line)
{
    *first_line = 0;
    return subscript_name_where(path, access, loop_var, name, n, set_again_finder, first_line, NULL);
}

/* A name the access at line access reads, set before the loop around the
 * access and set again in that loop's body after the access, with no set
 * in the body before it: the later set's line; the set before the loop
 * into *before_line, the loop's into *loop_line; else 0. */
static int set_later_in_loop(const char *path, int access, const char *name, int *before_line, int *loop_line)
{
    source_code s;
    size_t n = strlen(name);
    *before_line = *loop_line = 0;
    if (access <= 0 || !n || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, access), kernel = code_kernel_before(&s, at);
    size_t loop = kernel < s.len ? code_loop_around(&s, at) : s.len;
    size_t body = loop < s.len ? code_loop_body(&s, loop) : s.len;
    size_t close = body < s.len && s.code[body] == '{' ? code_matching(&s, body) : s.len;
    int before = 0, inside_before = 0, later = 0;
    for (size_t k = kernel; close < s.len && k < close && !later; k++) {
        if (!code_name_at(&s, k, name, n) || !code_assigns_at(&s, code_skip_space(&s, k + n)))
            continue;
        if (k < loop)
            before = code_line_at(&s, k);
        else if (k > body && k < at)
            inside_before = 1;
        else if (k > at && k < close && code_line_at(&s, k) > access)
            later = code_line_at(&s, k);
    }
    if (before > 0 && later > 0 && !inside_before) {
        *before_line = before;
        *loop_line = code_line_at(&s, loop);
    } else
        later = 0;
    source_code_free(&s);
    return later;
}

int source_subscript_set_later_in_loop(const char *path, int access, char *name, size_t n, int *before_line,
                                       int *loop_line)
{
    return subscript_name_where(path, access, "", name, n, set_later_in_loop, before_line, loop_line);
}

int source_name_set_again(const char *path, int access, const char *name, int *first_line)
{
    source_code s;
    *first_line = 0;
    size_t n = strlen(name);
    if (access <= 0 || !n || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, access), kernel = code_kernel_before(&s, at), last_at = s.len;
    int sets = 0, last = 0;
    for (size_t k = kernel; kernel < s.len && k < at; k++) {
        if (!code_name_at(&s, k, name, n) || !code_assigns_at(&s, code_skip_space(&s, k + n)))
            continue;
        if (!sets++)
            *first_line = code_line_at(&s, k);
        last = code_line_at(&s, k);
        last_at = k;
    }
    /* the value set last was for other statements: they used it, and a
     * barrier stands between them and this access */
    int used = 0, barrier = 0;
    if (sets >= 2) {
        size_t from = code_semicolon(&s, last_at, at);
        for (size_t k = from; k < at; k++) {
            used |= code_name_at(&s, k, name, n) && !code_assigns_at(&s, code_skip_space(&s, k + n));
            barrier |= used && code_word_at(&s, k, "__syncthreads");
        }
    }
    source_code_free(&s);
    return sets >= 2 && barrier ? last : 0;
}

/* source_line_reaches_name and source_line_name_through: whether line
 * uses name, or a name whose last assignment before it does (that name
 * into via, "" where the line uses name itself; size bytes). */
static int line_reaches(const char *path, int line, const char *name, char *via, size_t size)
{
    source_code s;
    size_t n = strlen(name);
    if (via && size)
        via[0] = '\0';
    if (line <= 0 || !n || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t kernel = code_kernel_before(&s, b), from = kernel < s.len ? kernel : 0;
    int reaches = 0, looked = 0;
    for (size_t k = b; k < e && !reaches; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t we = code_word_end(&s, k);
        if (we - k == n && strncmp(s.code + k, name, n) == 0) {
            reaches = 1;
            if (via && size)
                via[0] = '\0';
            break;
        }
        if (++looked > LONE_NAMES_MAX)
            break;
        /* one step back: the name's last assignment before the line */
        size_t end = 0, v = code_assignment_of(&s, from, b, s.code + k, we - k, &end);
        for (size_t i = v; v < s.len && i < end && !reaches; i++)
            reaches = code_name_at(&s, i, name, n);
        if (reaches && via && size)
            snprintf(via, size, "%.*s", (int)(we - k), s.code + k);
        k = we - 1;
    }
    source_code_free(&s);
    return reaches;
}

int source_line_reaches_name(const char *path, int line, const char *name)
{
    return line_reaches(path, line, name, NULL, 0);
}

int source_line_name_through(const char *path, int line, const char *name, char *via, size_t size)
{
    char through[128];
    if (!line_reaches(path, line, name, through, sizeof through) || !through[0])
        return 0;
    snprintf(via, size, "%s", through);
    return 1;
}

/* The steps of name in code [b, e): `name++`, `++name`, `name += X` (and
 * their `-` twins), each as written into steps (joined by " and "); how
 * many. `*name += X` adds to what name points at: no step of name. */
static int steps_of(const source_code *s, size_t b, size_t e, const char *name, char *steps, size_t n)
{
    const char *c = s->code;
    size_t len = strlen(name);
    int count = 0;
    for (size_t k = b; k < e; k++) {
        if (!code_name_at(s, k, name, len))
            continue;
        size_t after = code_skip_space(s, k + len), before = code_blank_before(s, k);
        size_t from = k, to = k + len;
        int step = 0;
        if (after + 1 < e && (c[after] == '+' || c[after] == '-') && c[after + 1] == c[after]) {
            step = 1, to = after + 2;
        } else if (before >= 2 && (c[before - 1] == '+' || c[before - 1] == '-') && c[before - 2] == c[before - 1]) {
            step = 1, from = before - 2;
        } else if (after + 1 < e && (c[after] == '+' || c[after] == '-') && c[after + 1] == '=' &&
                   !(before > b && c[before - 1] == '*')) {
            size_t v = after + 2;
            while (v < e && c[v] != ',' && c[v] != ';' && c[v] != ')')
                v++;
            step = 1, to = v;
        }
        if (!step)
            continue;
        size_t used = strlen(steps);
        snprintf(steps + used, n - used, "%s`%.*s`", count ? " and " : "", (int)(to - from), c + from);
        count++;
        k = to > k ? to - 1 : k;
    }
    return count;
}

/* The name read through a unary `*` at k, on the line [lb, le) (not a
 * product's `*`: none after a name, `)` or `]`), into out; its length, 0
 * when none. */
static size_t dereferenced_name(const source_code *s, size_t k, size_t lb, size_t le, char *out, size_t n)
{
    const char *c = s->code;
    out[0] = 0;
    if (c[k] != '*' || (k > lb && (source_is_identifier_char(c[k - 1]) || c[k - 1] == ')' || c[k - 1] == ']')))
        return 0;
    size_t w = code_skip_space(s, k + 1), we = w < le ? code_word_end(s, w) : w;
    if (we == w || we - w >= n || isdigit((unsigned char)c[w]))
        return 0;
    snprintf(out, n, "%.*s", (int)(we - w), c + w);
    return we - w;
}

/* The header of the for loop at loop: its '(' and matching ')' in *hb, *he
 * (both len when it has none). */
static void loop_header(const source_code *s, size_t loop, size_t *hb, size_t *he)
{
    *hb = loop < s->len ? code_skip_space(s, loop + 3) : s->len;
    *he = *hb < s->len && s->code[*hb] == '(' ? code_matching(s, *hb) : *hb;
}

int source_loop_counter_unused(const char *path, int loop_line, int access, char *counter, size_t n, char *other,
                               size_t other_n)
{
    source_code s;
    counter[0] = other[0] = '\0';
    if (loop_line <= 0 || access <= loop_line || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    size_t b = code_line_start(&s, loop_line), e = b < s.len ? code_line_end(&s, b) : s.len, loop = s.len;
    for (size_t k = b; k < e && loop == s.len; k++)
        if (code_word_at(&s, k, "for"))
            loop = k;
    size_t at = code_skip_space(&s, code_line_start(&s, access));
    if (loop >= s.len || code_loop_around(&s, at) != loop)
        goto none;
    /* the counter: the header's first name after `int` */
    size_t w = code_skip_space(&s, code_skip_space(&s, loop + 3) + 1);
    if (code_word_at(&s, w, "int") || code_word_at(&s, w, "unsigned"))
        w = code_skip_space(&s, code_word_end(&s, w));
    size_t we = code_word_end(&s, w);
    if (we == w || we - w >= n)
        goto none;
    snprintf(counter, n, "%.*s", (int)(we - w), c + w);
    /* a walk of a pointer (`*n++`, or `n += Width` in the header): the
     * access moves with the pointer, not with the counter (a step of a
     * name the line reads through `*`; `Pvalue +=` is no walk) */
    size_t ab = code_line_start(&s, access), ae = ab < s.len ? code_line_end(&s, ab) : s.len, hb, he;
    loop_header(&s, loop, &hb, &he);
    for (size_t k = ab; k + 1 < ae; k++) {
        char ptr[64], steps[256] = "";
        if (dereferenced_name(&s, k, ab, ae, ptr, sizeof ptr) &&
            steps_of(&s, ab, ae, ptr, steps, sizeof steps) + steps_of(&s, hb, he, ptr, steps, sizeof steps) > 0)
            goto none;
    }
    source_code_free(&s);
    if (source_line_reaches_name(path, access, counter))
        return 0;
    /* another loop's counter that the access does use: the one it took */
    if (!source_code_read(&s, path))
        return 1;
    for (size_t o = code_loop_around(&s, loop); o < s.len && !other[0]; o = code_loop_around(&s, o)) {
        size_t ow = code_skip_space(&s, code_skip_space(&s, o + 3) + 1);
        if (code_word_at(&s, ow, "int") || code_word_at(&s, ow, "unsigned"))
            ow = code_skip_space(&s, code_word_end(&s, ow));
        size_t owe = code_word_end(&s, ow);
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(owe - ow < 63 ? owe - ow : 63), c + ow);
        if (owe > ow && source_line_has_word(path, access, name))
            snprintf(other, other_n, "%s", name);
    }
    source_code_free(&s);
    return 1;
none:
    source_code_free(&s);
    return 0;
}

int source_pointer_stepped_twice(const char *path, int access, char *name, size_t name_n, char *steps,
                                 size_t steps_n, int *loop_line)
{
    source_code s;
    name[0] = steps[0] = 0;
    *loop_line = 0;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t ab = code_line_start(&s, access), ae = ab < s.len ? code_line_end(&s, ab) : s.len, hb, he;
    size_t loop = code_loop_around(&s, code_skip_space(&s, ab));
    loop_header(&s, loop, &hb, &he);
    int found = 0;
    for (size_t k = ab; k < ae && !found; k++) {
        /* a name read through `*` on the access's line */
        char p[64];
        if (!dereferenced_name(&s, k, ab, ae, p, sizeof p) || strlen(p) >= name_n)
            continue;
        char here[256] = "", header[256] = "";
        int n = steps_of(&s, ab, ae, p, here, sizeof here);
        int m = hb < he ? steps_of(&s, hb, he, p, header, sizeof header) : 0;
        if (n + m < 2)
            continue;
        found = access;
        snprintf(name, name_n, "%s", p);
        if (n && m)
            snprintf(steps, steps_n, "%s at line %d and %s in the header of the loop at line %d", here, access,
                     header, code_line_at(&s, loop));
        else
            snprintf(steps, steps_n, "%s at line %d", n ? here : header, n ? access : code_line_at(&s, loop));
        *loop_line = loop < s.len ? code_line_at(&s, loop) : 0;
    }
    source_code_free(&s);
    return found;
}

/* ---- a conditional whose branches are the wrong way round ---------------- */

/* Whether an identifier of code[b, e) (not a number, not a keyword) stands
 * as a whole word inside a [...] subscript of code[fb, fe). */
static int names_a_subscript(const source_code *s, size_t b, size_t e, size_t fb, size_t fe)
{
    for (size_t k = b; k < e; k++) {
        if (!code_word_starts(s, k) || isdigit((unsigned char)s->code[k]))
            continue;
        size_t we = code_word_end(s, k), n = we - k;
        int depth = 0;
        for (size_t j = fb; j < fe && n > 0; j++) {
            depth += (s->code[j] == '[') - (s->code[j] == ']');
            if (depth > 0 && code_name_at(s, j, s->code + k, n))
                return 1;
        }
        k = we > k ? we - 1 : k;
    }
    return 0;
}

/* The value an assignment statement in [b, e) stores: after its '=', or
 * e when it has none. */
static size_t assigned_value(const source_code *s, size_t b, size_t e)
{
    for (size_t k = b; k < e; k++)
        if (code_assigns_at(s, k))
            return k + 1;
    return e;
}

/* The if/else form: line's statement is the else of an `if (TEST)` a few
 * lines above, whose own statement stores a value that reads no array,
 * and line's value reads through a name of TEST. */
static int read_in_else(const source_code *s, int line, char *test, size_t n, int *test_line)
{
    const char *c = s->code;
    size_t ls = code_line_start(s, line), le = code_semicolon(s, ls, s->len);
    size_t lv = assigned_value(s, ls, le);
    for (int t = line - 1; t >= 1 && t >= line - 8; t--) {
        size_t k = code_line_start(s, t), e = code_line_end(s, k);
        while (k < e && !code_word_at(s, k, "if"))
            k++;
        if (k >= e)
            continue;
        size_t open = code_skip_space(s, k + 2);
        if (open >= s->len || c[open] != '(')
            return 0;
        size_t close = code_matching(s, open), body = close + 1, body_end = code_body_end(s, body);
        size_t after = code_skip_space(s, body_end + 1);
        if (close >= s->len || body_end >= s->len || !code_word_at(s, after, "else"))
            return 0;
        /* line lies in the else's statement (or its braced block) */
        size_t es = code_skip_space(s, code_word_end(s, after)), ee = code_body_end(s, es);
        if (es >= s->len || code_word_at(s, es, "if") || code_line_at(s, es) > line ||
            (ee < s->len && code_line_at(s, ee) < line))
            return 0;
        size_t bv = assigned_value(s, body, body_end);
        int compares = 0, true_reads = 0;
        for (size_t j = open; j < close; j++)
            compares += c[j] == '<' || c[j] == '>';
        for (size_t j = bv; j < body_end; j++)
            true_reads += c[j] == '[';
        if (!compares || true_reads || bv >= body_end || lv >= le || !names_a_subscript(s, open + 1, close, lv, le))
            return 0;
        size_t b = code_skip_space(s, open + 1), o = 0;
        for (size_t j = b; j < close && o + 1 < n; j++)
            if (!(c[j] == '\n' || (c[j] == ' ' && o > 0 && test[o - 1] == ' ')))
                test[o++] = c[j];
        while (o > 0 && test[o - 1] == ' ')
            o--;
        test[o] = '\0';
        *test_line = t;
        return o > 0;
    }
    return 0;
}

int source_read_in_false_branch(const char *path, int line, char *test, size_t n, int *test_line)
{
    source_code s;
    test[0] = '\0';
    *test_line = line;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    int found = 0;
    size_t ls = code_line_start(&s, line);
    size_t st = code_statement_start(&s, ls, 0), end = code_semicolon(&s, ls, s.len);
    const char *c = s.code;
    size_t q = st;
    while (q < end && c[q] != '?')
        q++;
    /* the first ':' after the '?' outside brackets: the false branch's start */
    size_t colon = q + 1;
    for (int depth = 0; colon < end && !(depth == 0 && c[colon] == ':'); colon++)
        depth += (c[colon] == '(' || c[colon] == '[') - (c[colon] == ')' || c[colon] == ']');
    if (q < end && colon < end) {
        /* the condition: a bracketed one before the '?', else what follows
         * the assignment's '=' */
        size_t ce = code_blank_before(&s, q), cb = st;
        if (ce > st && c[ce - 1] == ')') {
            int depth = 0;
            for (cb = ce; cb > st; cb--) {
                depth += (c[cb - 1] == ')') - (c[cb - 1] == '(');
                if (depth == 0)
                    break;
            }
            cb = cb > st ? cb - 1 : st;
        } else {
            for (size_t k = st; k < q; k++)
                if (code_assigns_at(&s, k))
                    cb = k + 1;
        }
        int compares = 0, true_reads = 0, false_reads = 0;
        for (size_t k = cb; k < ce; k++)
            compares += c[k] == '<' || c[k] == '>';
        for (size_t k = q + 1; k < colon; k++)
            true_reads += c[k] == '[';
        for (size_t k = colon + 1; k < end; k++)
            false_reads += c[k] == '[';
        /* a bounds test whose false branch reads through its names and
         * whose true branch reads nothing (a constant): swapped */
        if (compares && !true_reads && false_reads && names_a_subscript(&s, cb, ce, colon + 1, end)) {
            size_t b = code_skip_space(&s, cb);
            while (b < ce && c[b] == '(' && code_matching(&s, b) + 1 >= ce)
                b = code_skip_space(&s, b + 1), ce = code_blank_before(&s, ce - 1);
            size_t o = 0;
            for (size_t k = b; k < ce && o + 1 < n; k++)
                if (!(c[k] == '\n' || (c[k] == ' ' && o > 0 && test[o - 1] == ' ')))
                    test[o++] = c[k];
            test[o] = '\0';
            found = o > 0;
        }
    }
    if (!found)
        found = read_in_else(&s, line, test, n, test_line);
    source_code_free(&s);
    return found;
}

/* ---- a whole number computed with a fraction ------------------------------ */

/* The floating literal at r (`2.0`, `2.f`, `0.5f`, `1e1`): its value into
 * *v and its end into *end; 0 for an integer literal or none. */
static int floating_literal(const source_code *s, size_t r, double *v, size_t *end)
{
    const char *c = s->code;
    if (r >= s->len || !(isdigit((unsigned char)c[r]) || c[r] == '.'))
        return 0;
    char *e = NULL;
    *v = strtod(c + r, &e);
    if (!e || e == c + r)
        return 0;
    size_t k = (size_t)(e - c);
    int floating = memchr(c + r, '.', k - r) || memchr(c + r, 'e', k - r) || memchr(c + r, 'E', k - r);
    if (k < s->len && (c[k] == 'f' || c[k] == 'F'))
        k++, floating = 1;
    *end = k;
    return floating && !(k < s->len && (isalnum((unsigned char)c[k]) || c[k] == '_'));
}

/* The number name (n characters) is defined as, in the file or else in the
 * lab's header (h, which may hold nothing): 1 with it in *v. */
static int defined_here_or_in(const source_code *s, const source_code *h, const char *name, size_t n, long *v)
{
    size_t at = 0;
    return code_defined_number(s, name, n, v, &at) || (h->code && code_defined_number(h, name, n, v, &at));
}

int source_constant_over_size(const char *path, const char *header, char *constant, size_t constant_n, char *size,
                              size_t size_n, long *value)
{
    source_code s, h = { 0 };
    constant[0] = size[0] = '\0';
    *value = 0;
    if (!source_code_read(&s, path))
        return 0;
    if (header && !source_code_read(&h, header))
        memset(&h, 0, sizeof h);
    const char *c = s.code;
    int found = 0;
    for (size_t k = 1; k + 1 < s.len && !found; k++) {
        if (c[k] != '/' || c[k + 1] == '=' || c[k + 1] == '/' || c[k - 1] == '/' || c[k + 1] == '*')
            continue;
        /* CONSTANT / NAME, each a whole operand: nothing multiplies or
         * divides into either side (`a * TILE_WIDTH / w` is (a * TILE_WIDTH) / w) */
        size_t wn = 0, w = code_word_before(&s, k, &wn), r = code_skip_space(&s, k + 1);
        size_t re = r < s.len ? code_word_end(&s, r) : r;
        long def = 0, other = 0;
        if (!wn || re == r || !(isalpha((unsigned char)c[r]) || c[r] == '_') ||
            !defined_here_or_in(&s, &h, c + w, wn, &def) || def <= 1 ||
            defined_here_or_in(&s, &h, c + r, re - r, &other) || code_number_type(c + r, re - r))
            continue;
        size_t before = code_blank_before(&s, w), after = code_skip_space(&s, re);
        if (before > 0 && (!strchr("(=,<>!&|?:;[{", c[before - 1]) || (c[before - 1] == '>' && before > 1 &&
                                                                          c[before - 2] == '-')))
            continue;
        if (after >= s.len || !strchr(";),<>=!&|?:", c[after]))
            continue;
        /* the name is a variable or parameter: no call, subscript or member */
        if (c[after] == '(')
            continue;
        found = code_line_at(&s, k);
        snprintf(constant, constant_n, "%.*s", (int)wn, c + w);
        snprintf(size, size_n, "%.*s", (int)(re - r), c + r);
        *value = def;
    }
    source_code_free(&s);
    source_code_free(&h);
    return found;
}

int source_redefines_header_number(const char *path, const char *header, char *name, size_t name_n, long *mine,
                                   long *theirs)
{
    source_code s, h = { 0 };
    name[0] = '\0';
    *mine = *theirs = 0;
    if (!header || !source_code_read(&s, path))
        return 0;
    if (!source_code_read(&h, header)) {
        source_code_free(&s);
        return 0;
    }
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        /* `#define NAME NUMBER` on a line of its own */
        if (c[k] != '#' || code_skip_space(&s, code_line_start(&s, code_line_at(&s, k))) != k)
            continue;
        size_t d = code_skip_space(&s, k + 1);
        if (!code_word_at(&s, d, "define"))
            continue;
        size_t w = code_skip_space(&s, d + 6), we = code_word_end(&s, w);
        long value = 0, there = 0;
        size_t at = 0;
        if (we == w || !code_defined_number(&s, c + w, we - w, &value, &at) || at != w ||
            !code_defined_number(&h, c + w, we - w, &there, &at) || value == there)
            continue;
        found = code_line_at(&s, k);
        snprintf(name, name_n, "%.*s", (int)(we - w), c + w);
        *mine = value;
        *theirs = there;
    }
    source_code_free(&s);
    source_code_free(&h);
    return found;
}

/* What the occurrence of a name at k (n characters) does: 2 a plain
 * assignment (`NAME = ...`, a declaration's too), 1 a read (anything else,
 * `NAME += ...` too), 0 not the variable (a member, a subscripted array). */
static int name_use(const source_code *s, size_t k, size_t n)
{
    size_t before = code_blank_before(s, k), after = code_skip_space(s, k + n);
    if (before > 0 && (s->code[before - 1] == '.' || (s->code[before - 1] == '>' && before > 1 &&
                                                      s->code[before - 2] == '-')))
        return 0;
    if (after < s->len && s->code[after] == '[')
        return 0;
    return code_assigns_at(s, after) ? 2 : 1;
}

/* The first use of name (n characters) in [from, to): 2 an assignment, 1
 * a read, 0 none; its offset into *at. */
static int first_use(const source_code *s, size_t from, size_t to, const char *name, size_t n, size_t *at)
{
    for (size_t q = from; q < to; q++)
        if (code_name_at(s, q, name, n)) {
            int u = name_use(s, q, n);
            if (u) {
                *at = q;
                return u;
            }
            q += n - 1;
        }
    return 0;
}

int source_assignment_too_late(const char *path, char *name, size_t name_n, int *read_lines, int max_reads,
                               int *nreads)
{
    source_code s;
    name[0] = '\0';
    *nreads = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)c[k]) || c[k] == '_')) {
            k = code_word_starts(&s, k) ? code_word_end(&s, k) - 1 : k;
            continue;
        }
        size_t n = code_word_end(&s, k) - k, kclose = s.len, kernel = code_kernel_before(&s, k);
        size_t body = kernel < s.len ? code_kernel_body(&s, kernel, &kclose) : s.len;
        /* a plain assignment statement, not a declaration: the statement starts with the name */
        if (body >= s.len || k < body || name_use(&s, k, n) != 2 ||
            code_skip_space(&s, code_statement_start(&s, k, body)) != k) {
            k += n - 1;
            continue;
        }
        size_t end = code_semicolon(&s, k, kclose), at = 0;
        /* read after it, before it is set again? */
        if (first_use(&s, end, kclose, c + k, n, &at) == 1) {
            k += n - 1;
            continue;
        }
        /* in a loop, read at the body's start before any assignment (the next pass)? */
        size_t loop = code_loop_around(&s, k), lb = loop < s.len ? code_loop_body(&s, loop) : s.len;
        if (lb < s.len && first_use(&s, lb, k, c + k, n, &at) == 1) {
            k += n - 1;
            continue;
        }
        /* the reads since its last assignment in the same block: they took the value before it */
        size_t block = code_block_around(&s, k), prev = block < s.len ? block : body;
        for (size_t q = prev; q < k; q++)
            if (code_name_at(&s, q, c + k, n) && name_use(&s, q, n) == 2)
                prev = q + n;
        /* the statements just above it that read it, back to the first
         * that does not (`destY = dest / w; destX = dest % w;`) */
        int reads = 0, lines[16];
        size_t stop = k;
        while (stop > prev && reads < 16) {
            size_t last = stop;
            while (last > prev && strchr(" \t\n", c[last - 1]))
                last--;
            if (last <= prev || c[last - 1] != ';')
                break; /* a block's edge, not a statement */
            size_t st = code_statement_start(&s, last - 1, prev), r = 0;
            if (st >= stop)
                break;
            if (first_use(&s, st, stop, c + k, n, &r) != 1)
                break;
            lines[reads++] = code_line_at(&s, r);
            stop = st;
        }
        for (int i = 0; i < reads && i < max_reads; i++)
            read_lines[i] = lines[reads - 1 - i];
        reads = reads < max_reads ? reads : max_reads;
        if (!reads) {
            k += n - 1;
            continue;
        }
        found = code_line_at(&s, k);
        *nreads = reads;
        snprintf(name, name_n, "%.*s", (int)n, c + k);
    }
    source_code_free(&s);
    return found;
}

int source_int_from_fraction(const char *path, const char *header, char *name, size_t name_n, char *term,
                             size_t term_n, double *value)
{
    source_code s, h = { 0 };
    name[0] = term[0] = '\0';
    *value = 0;
    if (!source_code_read(&s, path))
        return 0;
    if (header && !source_code_read(&h, header))
        memset(&h, 0, sizeof h);
    const char *c = s.code;
    int found = 0;
    for (size_t k = 1; k + 1 < s.len && !found; k++) {
        if ((c[k] != '/' && c[k] != '*') || c[k + 1] == '=' || c[k + 1] == '/' || c[k - 1] == '/')
            continue;
        if (code_kernel_before(&s, k) >= s.len)
            continue;
        /* NAME op LITERAL, or LITERAL * NAME */
        size_t r = code_skip_space(&s, k + 1), lit_end = 0, wn = 0;
        size_t w = code_word_before(&s, k, &wn);
        double lit = 0, v = 0;
        long def = 0;
        size_t from = w, to = 0;
        if (wn && floating_literal(&s, r, &lit, &lit_end) && defined_here_or_in(&s, &h, c + w, wn, &def)) {
            if (c[k] == '/' && lit == 0)
                continue;
            v = c[k] == '/' ? (double)def / lit : (double)def * lit;
            to = lit_end;
        } else if (c[k] == '*') {
            size_t re = code_word_end(&s, r), ls = code_blank_before(&s, k), lb = ls;
            while (lb > 0 && (isalnum((unsigned char)c[lb - 1]) || c[lb - 1] == '.'))
                lb--;
            if (re == r || !floating_literal(&s, lb, &lit, &lit_end) || lit_end != ls ||
                !defined_here_or_in(&s, &h, c + r, re - r, &def))
                continue;
            v = (double)def * lit;
            from = lb;
            to = re;
        } else
            continue;
        if (v == (double)(long)v)
            continue; /* a whole number all the same: no fraction to lose */
        /* the statement declares an integer with it: `int NAME = ...;` */
        size_t st = code_skip_space(&s, code_statement_start(&s, k, 0)), tw = code_word_end(&s, st);
        static const char *const ints[] = { "int", "unsigned", "long", "short", "size_t", NULL };
        if (tw == st || !code_word_in(c + st, tw - st, ints))
            continue;
        size_t nb = code_skip_space(&s, tw);
        while (code_word_in(c + nb, code_word_end(&s, nb) - nb, ints))
            nb = code_skip_space(&s, code_word_end(&s, nb));
        size_t ne = code_word_end(&s, nb);
        if (ne == nb || !code_assigns_at(&s, code_skip_space(&s, ne)) || code_skip_space(&s, ne) > k)
            continue;
        snprintf(name, name_n, "%.*s", (int)(ne - nb), c + nb);
        snprintf(term, term_n, "%.*s", (int)(to - from), c + from);
        *value = v;
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    if (h.code)
        source_code_free(&h);
    return found;
}

/* ---- a shift whose right side is a sum ------------------------------------- */

int source_shift_of_sum(const char *path, char *text, size_t size, char *meant, size_t meant_n)
{
    source_code s;
    text[0] = meant[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 1; k + 2 < s.len && !found; k++) {
        char op = c[k];
        if ((op != '<' && op != '>') || c[k + 1] != op || c[k - 1] == op || c[k + 2] == '=' || c[k + 2] == op)
            continue;
        size_t l = left_operand(&s, k);
        if (l == s.len)
            continue;
        /* a member's value (`blockIdx.x`): the whole of it */
        while (l > 1 && c[l - 1] == '.' && source_is_identifier_char(c[l - 2]))
            for (l--; l > 0 && source_is_identifier_char(c[l - 1]); l--)
                ;
        /* the statement's value is assigned: no stream's << */
        size_t st = code_statement_start(&s, k, 0);
        int assigned = 0;
        for (size_t j = st; j < l && !assigned; j++)
            assigned = code_assigns_at(&s, j) && (j == 0 || !strchr("<>!=+-*/%&|^", c[j - 1]));
        if (!assigned)
            continue;
        /* the right side up to the end of its expression: a + or - at the
         * shift's own depth makes C shift by the sum */
        size_t r = code_skip_space(&s, k + 2), e = r, sum_at = 0;
        int depth = 0;
        for (; e < s.len; e++) {
            char ch = c[e];
            if (depth == 0 && (ch == ';' || ch == ',' || ch == ')' || ch == ']' || ch == '?' || ch == ':'))
                break;
            depth += (ch == '(' || ch == '[') - (ch == ')' || ch == ']');
            if (depth == 0 && !sum_at && (ch == '+' || ch == '-') && e > r && c[e + 1] != ch && c[e - 1] != ch &&
                (source_is_identifier_char(c[code_blank_before(&s, e) - 1]) || c[code_blank_before(&s, e) - 1] == ')'))
                sum_at = e;
        }
        if (!sum_at)
            continue;
        size_t re = code_blank_before(&s, e);
        snprintf(text, size, "%.*s", (int)(re - l), c + l);
        size_t se = code_blank_before(&s, sum_at);
        snprintf(meant, meant_n, "(%.*s) %.*s", (int)(se - l), c + l, (int)(re - sum_at), c + sum_at);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_subtracting_line(const char *path)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 1; k + 1 < s.len && !found; k++)
        if (s.code[k] == '-' && s.code[k + 1] == '=' && s.code[k - 1] != '-' && code_kernel_before(&s, k) < s.len) {
            size_t g = code_kernel_before(&s, k), close = s.len, b = code_kernel_body(&s, g, &close);
            if (b < s.len && k > b && k < close)
                found = code_line_at(&s, k);
        }
    source_code_free(&s);
    return found;
}

/* ---- a pointer parameter stepped while it is indexed ---------------------- */

int source_pointer_parameter_stepped(const char *path, char *name, size_t n, int *index_line)
{
    source_code s;
    name[0] = '\0';
    *index_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (const char *g = strstr(c, "__global__"); g && !found; g = strstr(g + 1, "__global__")) {
        size_t gk = (size_t)(g - c), close = s.len, body = code_kernel_body(&s, gk, &close);
        const char *open = strchr(g, '(');
        if (body >= s.len || !open || (size_t)(open - c) > body)
            continue;
        /* each `* NAME` of the parameter list */
        for (size_t p = (size_t)(open - c); p < body && !found; p++) {
            if (c[p] != '*')
                continue;
            size_t w = code_skip_space(&s, p + 1), we = code_word_end(&s, w);
            if (we == w || we > body)
                continue;
            int stepped = 0, indexed = 0;
            for (size_t k = body; k < close && !(stepped && indexed); k++) {
                if (!code_name_at(&s, k, c + w, we - w))
                    continue;
                size_t q = code_skip_space(&s, k + (we - w));
                if (c[q] == '[' && !indexed)
                    indexed = code_line_at(&s, k);
                else if (!stepped && stepped_at(&s, k, we - w) && !(c[q] == '=' && c[q + 1] != '='))
                    stepped = code_line_at(&s, k); /* ++M, M++, M += (not a plain assignment) */
            }
            if (stepped && indexed) {
                snprintf(name, n, "%.*s", (int)(we - w), c + w);
                *index_line = indexed;
                found = stepped;
            }
        }
    }
    source_code_free(&s);
    return found;
}

/* ---- a loop's bound set only after the loop ----------------------------- */

int source_bound_set_after_loop(const char *path, char *name, size_t n, int *loop_line)
{
    source_code s;
    name[0] = '\0';
    *loop_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "for"))
            continue;
        size_t open = code_skip_space(&s, k + 3);
        if (open >= s.len || c[open] != '(')
            continue;
        size_t close = code_matching(&s, open), s1 = code_semicolon(&s, open, close);
        size_t s2 = s1 < close ? code_semicolon(&s, s1 + 1, close) : close;
        if (close >= s.len || s2 >= close)
            continue;
        size_t body_end = code_body_end(&s, close + 1);
        if (body_end >= s.len)
            continue;
        /* the function the loop is in: its body's '{', the last one at
         * depth 0 before the loop, and the '}' that closes it */
        size_t fn = 0;
        for (size_t j = 0, depth = 0; j < k; j++) {
            if (c[j] == '{' && depth++ == 0)
                fn = j;
            else if (c[j] == '}' && depth > 0)
                depth--;
        }
        size_t fn_end = code_matching(&s, fn);
        /* each name of the condition: set before the loop (other than where
         * it is declared with a value)? set after it? */
        for (size_t w = s1 + 1; w < s2 && !found; w++) {
            if (!code_word_starts(&s, w) || isdigit((unsigned char)c[w]))
                continue;
            size_t we = code_word_end(&s, w), wn = we - w;
            int declared = 0, before = 0, after = 0;
            for (size_t j = fn; j < fn_end && j < s.len && !before; j++) {
                if (!code_name_at(&s, j, c + w, wn))
                    continue;
                if (!stepped_at(&s, j, wn))
                    continue;
                size_t tn = 0, tb = code_word_before(&s, j, &tn);
                int decl = tn && code_number_type(c + tb, tn);
                if (decl)
                    declared = code_line_at(&s, j);
                else if (j < k)
                    before = 1;
                else if (j > body_end && !after)
                    after = code_line_at(&s, j);
                else if (j > open && j < body_end)
                    before = 1; /* set in the loop itself */
            }
            /* a loop around both reads the later value in its next pass:
             * no mistake */
            size_t after_at = after ? code_line_start(&s, after) : 0;
            for (size_t j = fn; after && j < k; j++)
                if (code_word_at(&s, j, "for") || code_word_at(&s, j, "while")) {
                    size_t o = code_skip_space(&s, code_word_end(&s, j));
                    size_t e = o < s.len && c[o] == '(' ? code_body_end(&s, code_matching(&s, o) + 1) : 0;
                    if (e < s.len && e > after_at)
                        after = 0;
                }
            if (declared && !before && after) {
                snprintf(name, n, "%.*s", (int)wn, c + w);
                *loop_line = code_line_at(&s, k);
                found = after;
            }
            w = we > w ? we - 1 : w;
        }
    }
    source_code_free(&s);
    return found;
}

/* ---- a round-up whose divisor is not what it rounds by -------------------- */

int source_round_up_mismatch(const char *path, const char *header, char *by, size_t by_n, char *divisor,
                             size_t divisor_n, int *divisor_wrong)
{
    source_code s, h = { 0 };
    by[0] = divisor[0] = '\0';
    *divisor_wrong = 0;
    if (!source_code_read(&s, path))
        return 0;
    if (header && !source_code_read(&h, header))
        memset(&h, 0, sizeof h);
    const char *c = s.code;
    int found = 0;
    /* `+ B - 1) / D`, B and D words, B not D */
    for (size_t k = 1; k + 2 < s.len && !found; k++) {
        if (c[k] != '-' || c[k + 1] == '-' || c[k - 1] == '-' || c[k + 1] == '=')
            continue;
        size_t one = code_skip_space(&s, k + 1);
        if (one >= s.len || c[one] != '1' || source_is_identifier_char(c[one + 1]) || c[one + 1] == '.')
            continue;
        size_t close = code_skip_space(&s, one + 1);
        if (close >= s.len || c[close] != ')')
            continue;
        size_t slash = code_skip_space(&s, close + 1);
        if (slash + 1 >= s.len || c[slash] != '/' || c[slash + 1] == '/' || c[slash + 1] == '=')
            continue;
        size_t d = code_skip_space(&s, slash + 1), de = code_word_end(&s, d);
        size_t bn = 0, b = code_word_before(&s, k, &bn);
        if (de == d || !bn || isdigit((unsigned char)c[d]) || isdigit((unsigned char)c[b]))
            continue;
        size_t plus = code_blank_before(&s, b);
        if (plus == 0 || c[plus - 1] != '+')
            continue;
        if (bn == de - d && strncmp(c + b, c + d, bn) == 0)
            continue; /* the idiom itself: (A + B - 1) / B */
        /* a member access after the divisor's word (`in.width`) is another value */
        if (de < s.len && (c[de] == '.' || (c[de] == '-' && c[de + 1] == '>')))
            continue;
        snprintf(by, by_n, "%.*s", (int)bn, c + b);
        snprintf(divisor, divisor_n, "%.*s", (int)(de - d), c + d);
        /* which of the two is the size: a defined number (TILE_WIDTH) is,
         * a variable (k, the count itself) is not */
        long v = 0;
        int b_size = defined_here_or_in(&s, &h, c + b, bn, &v), d_size = defined_here_or_in(&s, &h, c + d, de - d, &v);
        *divisor_wrong = b_size && !d_size ? 1 : !b_size && d_size ? 0 : -1;
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    if (h.code)
        source_code_free(&h);
    return found;
}

/* ---- a phase count divided by another size than a phase's step --------- */

int source_phase_count_divisor(const char *path, char *divisor, size_t dn, char *step, size_t sn, int *loop_line)
{
    source_code s;
    divisor[0] = step[0] = '\0';
    *loop_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "for") || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t cn = 0, cv = code_for_counter(&s, k, &cn), body = code_loop_body(&s, k);
        if (cv >= s.len || body >= s.len || cn >= 48)
            continue;
        char counter[48], left[64], bound[64];
        snprintf(counter, sizeof counter, "%.*s", (int)cn, c + cv);
        int ll = code_line_at(&s, k);
        if (source_compared_sides(path, ll, 0, "<", left, bound, sizeof left) != 0 || strcmp(left, counter) != 0)
            continue;
        size_t bl = strlen(bound);
        int plain = bl > 0;
        for (size_t i = 0; i < bl && plain; i++)
            plain = source_is_identifier_char(bound[i]);
        if (!plain)
            continue;
        /* the phase's step: a word multiplied by the counter in the body */
        size_t be = code_body_end(&s, body);
        char st[64] = "";
        for (size_t q = body; q < be && q < s.len && !st[0]; q++) {
            if (!code_name_at(&s, q, counter, cn))
                continue;
            size_t a = code_skip_space(&s, q + cn);
            if (a < s.len && c[a] == '*' && c[a + 1] != '=') {
                size_t w = code_skip_space(&s, a + 1), we = code_word_end(&s, w);
                if (we > w && we - w < sizeof st && !isdigit((unsigned char)c[w]))
                    snprintf(st, sizeof st, "%.*s", (int)(we - w), c + w);
            } else {
                size_t before = code_blank_before(&s, q);
                if (before > 0 && c[before - 1] == '*') {
                    size_t wn = 0, w = code_word_before(&s, before - 1, &wn);
                    if (wn && wn < sizeof st && !isdigit((unsigned char)c[w]))
                        snprintf(st, sizeof st, "%.*s", (int)wn, c + w);
                }
            }
        }
        if (!st[0])
            continue;
        /* the count's assignment before the loop, and its divisor: what
         * follows its last `/` at the top level */
        size_t g = code_kernel_before(&s, k), close = 0, kb = code_kernel_body(&s, g, &close), e = 0;
        size_t v = kb < s.len ? code_assignment_of(&s, kb, k, bound, bl, &e) : s.len;
        if (v >= s.len)
            continue;
        size_t slash = s.len;
        int depth = 0;
        for (size_t q = v; q < e; q++) {
            if (c[q] == '(' || c[q] == '[')
                depth++;
            else if (c[q] == ')' || c[q] == ']')
                depth--;
            else if (depth == 0 && c[q] == '/' && c[q + 1] != '/' && c[q + 1] != '*')
                slash = q;
        }
        if (slash >= e)
            continue;
        /* the divisor is one operand: a bracketed group, or a name; a
         * cast before it (`(float)TILE_WIDTH`) is not the divisor, the
         * operand after it is */
        size_t db = code_skip_space(&s, slash + 1), dend = db;
        for (int casts = 0; casts < 4; casts++) {
            dend = db;
            if (db < e && c[db] == '(')
                dend = code_matching(&s, db) + 1;
            else
                while (dend < e && (source_is_identifier_char(c[dend]) || c[dend] == '.'))
                    dend++;
            if (dend <= db || dend > e || c[db] != '(')
                break;
            size_t tb = code_skip_space(&s, db + 1), te = code_word_end(&s, tb);
            if (te <= tb || code_skip_space(&s, te) != dend - 1 || !code_number_type(c + tb, te - tb))
                break;
            db = code_skip_space(&s, dend);
        }
        if (dend <= db || dend > e)
            continue;
        char d[128];
        size_t o = 0;
        for (size_t q = db; q < dend && o + 1 < sizeof d; q++)
            if (!isspace((unsigned char)c[q]))
                d[o++] = c[q];
        d[o] = '\0';
        /* `(TILE_WIDTH)` is TILE_WIDTH */
        if (o > 2 && d[0] == '(' && d[o - 1] == ')') {
            memmove(d, d + 1, o - 2);
            d[o - 2] = '\0';
        }
        /* `TILE_WIDTH / k`: the division written the wrong way round, which
         * a reading of its own says (the step divided, not the divisor) */
        char head[128];
        size_t h = 0;
        for (size_t q = v; q < slash && h + 1 < sizeof head; q++)
            if (!isspace((unsigned char)c[q]))
                head[h++] = c[q];
        head[h] = '\0';
        if (!strcmp(d, st) || !strcmp(head, st))
            continue;
        snprintf(divisor, dn, "%s", d);
        snprintf(step, sn, "%s", st);
        *loop_line = ll;
        found = code_line_at(&s, v);
    }
    source_code_free(&s);
    return found;
}

/* ---- a while whose body changes nothing its test reads ------------------ */

/* Whether a loop whose body is [b, e) and whose test is [tb, te) can end:
 * a jump out, a call (it may change anything) or a step of a name of the
 * test in the body. */
static int loop_may_end(const source_code *s, size_t b, size_t e, size_t tb, size_t te)
{
    const char *c = s->code;
    int may_end = 0;
    for (size_t j = b; j < e && !may_end; j++) {
        if (code_word_at(s, j, "break") || code_word_at(s, j, "return") || code_word_at(s, j, "goto"))
            may_end = 1;
        if (c[j] == '(' && j > b && source_is_identifier_char(c[j - 1])) {
            size_t wn = 0, w = code_word_before(s, j, &wn);
            may_end = wn && !code_word_in(c + w, wn, (const char *const[]){ "for", "if", "while", "switch",
                                                                           "sizeof", NULL });
        }
    }
    for (size_t w = tb; w < te && !may_end; w++) {
        if (!code_word_starts(s, w) || isdigit((unsigned char)c[w]))
            continue;
        size_t we = code_word_end(s, w);
        for (size_t j = b; j < e && !may_end; j++)
            may_end = code_name_at(s, j, c + w, we - w) && stepped_at(s, j, we - w);
        w = we > w ? we - 1 : w;
    }
    return may_end;
}

int source_for_never_steps(const char *path, char *counter, size_t n)
{
    source_code s;
    counter[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "for") || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t open = code_skip_space(&s, k + 3);
        if (open >= s.len || c[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len)
            continue;
        /* `for (A; B; )`: the two `;` of the header, and nothing after the second */
        size_t s1 = code_semicolon(&s, open + 1, close), s2 = s1 < close ? code_semicolon(&s, s1 + 1, close) : close;
        if (s2 >= close || code_skip_space(&s, s2 + 1) != close || code_skip_space(&s, s1 + 1) == s2)
            continue;
        size_t b = code_skip_space(&s, close + 1), e = code_body_end(&s, close + 1);
        if (e >= s.len || loop_may_end(&s, b, e, s1 + 1, s2))
            continue;
        size_t cn = 0, cv = code_for_counter(&s, k, &cn);
        if (cv < s.len && cn < n)
            snprintf(counter, n, "%.*s", (int)cn, c + cv);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

/* Whether offset k lies inside parentheses opened after the last brace
 * before it (a for header's `;`, a call's argument). */
static int inside_parentheses(const source_code *s, size_t k)
{
    int depth = 0;
    while (k-- > 0) {
        char ch = s->code[k];
        if (ch == '{' || ch == '}')
            return 0;
        depth += ch == ')';
        if (ch == '(' && depth-- == 0)
            return 1;
    }
    return 0;
}

int source_sum_adds_itself(const char *path, char *name, size_t name_n, char *value, size_t value_n)
{
    source_code s;
    name[0] = value[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 1; k + 1 < s.len && !found; k++) {
        if (c[k] != '+' || c[k + 1] != '=' || c[k - 1] == '+' || code_kernel_before(&s, k) >= s.len ||
            code_loop_around(&s, k) >= s.len || inside_parentheses(&s, k))
            continue; /* (a for header's step, `j += 2`, is no sum) */
        /* `NAME += ...;` with NAME a plain name, read again on the right */
        size_t e = k;
        while (e > 0 && (c[e - 1] == ' ' || c[e - 1] == '\t'))
            e--;
        size_t b = e;
        while (b > 0 && source_is_identifier_char(c[b - 1]))
            b--;
        /* at a statement's start: after `;`, a brace, or a loop's or an if's header */
        size_t before = b;
        while (before > 0 && strchr(" \t\r\n", c[before - 1]))
            before--;
        size_t semi = code_semicolon(&s, k, s.len);
        if (b == e || (before > 0 && !strchr(";{})", c[before - 1])) || semi >= s.len || e - b >= name_n ||
            !code_span_has_name(&s, k + 2, semi, c + b, e - b))
            continue;
        size_t v = code_skip_space(&s, k + 2);
        if (semi - v >= value_n)
            continue;
        snprintf(name, name_n, "%.*s", (int)(e - b), c + b);
        snprintf(value, value_n, "%.*s", (int)(semi - v), c + v);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_loop_starts_negative(const char *path, char *counter, size_t n, char *start, size_t start_n, int *read_line)
{
    source_code s;
    counter[0] = start[0] = '\0';
    *read_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "for") || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t cn = 0, cv = code_for_counter(&s, k, &cn);
        if (cv >= s.len || cn >= n)
            continue;
        size_t eq = code_skip_space(&s, cv + cn);
        if (eq >= s.len || !code_assigns_at(&s, eq))
            continue;
        size_t v = code_skip_space(&s, eq + 1), ve = v;
        if (v >= s.len || c[v] != '-')
            continue;
        /* `-NAME` or `-NUMBER`, up to the first `;` */
        ve = code_semicolon(&s, v, s.len);
        size_t b = code_loop_body(&s, k), e = b < s.len ? code_body_end(&s, b) : s.len;
        if (e >= s.len || ve - v >= start_n)
            continue;
        /* a loop centred on purpose adds its offset back somewhere
         * (`Mc[i + MASK_RADIUS]`): then the subscript that lacks it is the
         * mistake, not the start */
        int offset_back = 0;
        for (size_t q = b; q < e && !offset_back; q++)
            if (code_name_at(&s, q, c + cv, cn)) {
                size_t after = code_skip_space(&s, q + cn);
                offset_back = after < e && c[after] == '+';
            }
        if (offset_back)
            continue;
        /* a subscript in the body that adds the counter to a thread's coordinate */
        for (size_t q = b; q < e && !found; q++) {
            if (!code_name_at(&s, q, c + cv, cn))
                continue;
            size_t open = q;
            while (open > b && c[open] != '[' && c[open] != ';' && c[open] != '{')
                open--;
            if (c[open] != '[')
                continue;
            size_t close = code_matching(&s, open);
            /* (through the kernel's names too: `ty` for threadIdx.y) */
            if (close >= s.len || q > close ||
                !(code_coordinates(&s, code_kernel_before(&s, k), q, open + 1, close) & 7u))
                continue;
            snprintf(counter, n, "%.*s", (int)cn, c + cv);
            snprintf(start, start_n, "%.*s", (int)(ve - v), c + v);
            *read_line = code_line_at(&s, q);
            found = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return found;
}

int source_while_never_changes(const char *path, char *test, size_t n)
{
    source_code s;
    test[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 5 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "while") || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t open = code_skip_space(&s, k + 5);
        if (open >= s.len || c[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        size_t b = code_skip_space(&s, close + 1);
        /* `do { ... } while (...);` ends a loop; it begins none */
        if (close >= s.len || c[b] == ';')
            continue;
        size_t e = code_body_end(&s, close + 1);
        if (e >= s.len)
            continue;
        if (loop_may_end(&s, b, e, open + 1, close))
            continue;
        size_t o = 0;
        for (size_t j = code_skip_space(&s, open + 1); j < close && o + 1 < n; j++)
            if (!(c[j] == '\n' || (c[j] == ' ' && o > 0 && test[o - 1] == ' ')))
                test[o++] = c[j];
        test[o] = '\0';
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

/* ---- a built-in coordinate given a name of another axis ------------------ */

struct last_part {
    const char *part;
    size_t n;
    int parts;
};

static void keep_last_part(const char *p, size_t n, void *arg)
{
    struct last_part *l = arg;
    l->part = p, l->n = n;
    l->parts++;
}

/* The axis (x, y or z) a name says it holds: a short name of a block's or
 * thread's (`bx`, `ty`, `tiz`), or a name whose last part is the axis
 * alone (`blk_x`, `blockY`, `tid_z`); 0 for any other (`idx`, `max`). */
static char name_axis(const char *w, size_t n)
{
    if (n >= 2 && n <= 3 && (w[0] == 'b' || w[0] == 't') && strchr("xyz", w[n - 1]))
        return w[n - 1];
    struct last_part l = { NULL, 0, 0 };
    source_identifier_parts(w, n, keep_last_part, &l);
    if (l.parts >= 2 && l.n == 1 && strchr("xyzXYZ", l.part[0]))
        return (char)(l.part[0] | 0x20);
    return 0;
}

int source_axis_name_swapped(const char *path, char *name, size_t name_n, char *builtin, size_t builtin_n)
{
    source_code s;
    name[0] = builtin[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    static const char *const builtins[] = { "blockIdx", "threadIdx", NULL };
    int found = 0;
    for (size_t k = 0; k + 10 < s.len && !found; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t we = code_word_end(&s, k);
        if (!code_word_in(c + k, we - k, builtins) || c[we] != '.' || !strchr("xyz", c[we + 1]) ||
            source_is_identifier_char(c[we + 2])) {
            k = we > k ? we - 1 : k;
            continue;
        }
        /* `NAME = blockIdx.y` where NAME is a short name of one axis, the
         * coordinate alone (`ty = threadIdx.x / TILE_WIDTH` splits a flat
         * block, which may be meant) */
        size_t eq = code_blank_before(&s, k), after = code_skip_space(&s, we + 2);
        if (eq == 0 || !code_assigns_at(&s, eq - 1) || after >= s.len || (c[after] != ',' && c[after] != ';'))
            continue;
        size_t nn = 0, nb = code_word_before(&s, eq - 1, &nn);
        char axis = name_axis(c + nb, nn);
        if (axis && axis != c[we + 1]) {
            snprintf(name, name_n, "%.*s", (int)nn, c + nb);
            snprintf(builtin, builtin_n, "%.*s", (int)(we + 2 - k), c + k);
            found = code_line_at(&s, k);
        }
        k = we + 1;
    }
    source_code_free(&s);
    return found;
}

/* ---- a test that cannot tell this thread's element ------------------------ */

/* Whether code[b, e) holds a comparison (<, >, <=, >=, ==, !=; not << or >>). */
static int has_comparison(const char *c, size_t b, size_t e)
{
    for (size_t k = b; k < e; k++) {
        if ((c[k] == '=' || c[k] == '!') && k + 1 < e && c[k + 1] == '=' && (k == b || !strchr("=<>!", c[k - 1])))
            return 1;
        if ((c[k] == '<' || c[k] == '>') && (k + 1 >= e || c[k + 1] != c[k]) && (k == b || c[k - 1] != c[k]) &&
            !(k + 1 < e && c[k + 1] == '-'))
            return 1;
    }
    return 0;
}

/* Adds the name at w (n characters) to list (", "-joined, each once). */
static void add_name(char *list, size_t size, const char *w, size_t n)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), w);
    for (const char *p = list; (p = strstr(p, name)) != NULL; p += strlen(name))
        if ((p == list || p[-2] == ',') && (p[strlen(name)] == ',' || !p[strlen(name)]))
            return;
    size_t used = strlen(list);
    snprintf(list + used, size - used, "%s%s", used ? ", " : "", name);
}

/* The first subscript name on [b, e) (a whole word inside [...]) that is
 * the loop's counter or set in [lb, before): its offset, *n its length;
 * len when none. */
static size_t index_name_set_in(const source_code *s, size_t b, size_t e, size_t lb, size_t before,
                                const char *counter, size_t cn, size_t *n)
{
    const char *c = s->code;
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        depth += (c[k] == '[') - (c[k] == ']');
        if (depth <= 0 || !code_word_starts(s, k) || isdigit((unsigned char)c[k]))
            continue;
        size_t we = code_word_end(s, k), end;
        *n = we - k;
        if ((cn && *n == cn && !strncmp(c + k, counter, cn)) || code_assignment_of(s, lb, before, c + k, *n, &end) < s->len)
            return k;
        k = we - 1;
    }
    return s->len;
}

int source_stale_test(const char *path, int access, source_test_stale *t)
{
    source_code s;
    memset(t, 0, sizeof *t);
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    size_t a = code_skip_space(&s, code_line_start(&s, access)), ae = a < s.len ? code_line_end(&s, a) : s.len;
    size_t g = code_kernel_before(&s, a), close = s.len;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int in_else = 0;
    for (size_t at = body < s.len && a > body && a < close ? code_test_around(&s, a, &in_else) : s.len;
         at < s.len && at > body && !t->kind; at = code_test_around(&s, at, &in_else)) {
        size_t hb = code_skip_space(&s, at + 2);
        if (in_else || !code_word_at(&s, at, "if") || hb >= s.len || c[hb] != '(')
            continue;
        size_t he = code_matching(&s, hb);
        if (he >= a)
            continue;
        /* 1: names of the condition that its own body sets before the access */
        char set[128] = "";
        size_t first_set = s.len, first_at = s.len, first_n = 0;
        for (size_t k = hb + 1; k < he; k++) {
            if (!code_word_starts(&s, k) || isdigit((unsigned char)c[k]))
                continue;
            size_t we = code_word_end(&s, k), n = we - k, end;
            int member = k > 0 && (c[k - 1] == '.' || (k > 1 && c[k - 1] == '>' && c[k - 2] == '-'));
            size_t v = member || n >= 64 ? s.len : code_assignment_of(&s, he, a, c + k, n, &end);
            if (v < s.len) {
                add_name(set, sizeof set, c + k, n);
                if (v < first_set)
                    first_set = v, first_at = k, first_n = n;
            }
            k = we - 1;
        }
        if (first_set < s.len) {
            size_t end, before = code_assignment_of(&s, body, at, c + first_at, first_n, &end);
            t->kind = SOURCE_TEST_READ_BEFORE_SET;
            t->test_line = code_line_at(&s, at);
            t->set_line = code_line_at(&s, first_set);
            t->held_line = before < s.len ? code_line_at(&s, before) : 0;
            snprintf(t->names, sizeof t->names, "%s", set);
            snprintf(t->name, sizeof t->name, "%.*s", (int)first_n, c + first_at);
            break;
        }
        /* 3: a name of the condition worked out earlier from names that
         * are set again between it and the test (`bool inside = srcY >= 0
         * ...;` for the first batch, then `srcY = ...` for the second) */
        for (size_t k = hb + 1; k < he && !t->kind; k++) {
            if (!code_word_starts(&s, k) || isdigit((unsigned char)c[k]))
                continue;
            size_t we = code_word_end(&s, k), n = we - k, end;
            size_t v = n < 64 ? code_assignment_of(&s, body, at, c + k, n, &end) : s.len;
            for (size_t u = v; v < s.len && u < end && !t->kind; u++) {
                if (!code_word_starts(&s, u) || isdigit((unsigned char)c[u]))
                    continue;
                size_t ue = code_word_end(&s, u), un = ue - u, uend;
                size_t again = un < 64 && !(u > 0 && c[u - 1] == '.') ? code_assignment_of(&s, end, at, c + u, un, &uend)
                                                                      : s.len;
                if (again < s.len && has_comparison(c, v, end)) {
                    t->kind = SOURCE_TEST_SET_BEFORE_ITS_NAMES;
                    t->test_line = code_line_at(&s, at);
                    t->set_line = code_line_at(&s, v);
                    t->index_line = code_line_at(&s, again);
                    snprintf(t->name, sizeof t->name, "%.*s", (int)n, c + k);
                    snprintf(t->index_name, sizeof t->index_name, "%.*s", (int)un, c + u);
                }
                u = ue - 1;
            }
            k = we - 1;
        }
        if (t->kind)
            break;
        /* 2: in a loop, a condition that no pass changes (its names set
         * before the loop, one of them a comparison worked out there),
         * over an access whose index the loop does change */
        size_t loop = code_loop_around(&s, at);
        if (loop >= s.len || loop <= body)
            continue;
        size_t cn = 0, cw = code_for_counter(&s, loop, &cn);
        const char *counter = cw < s.len ? c + cw : "";
        int changes = 0;
        size_t ahead = s.len, ahead_n = 0;
        for (size_t k = hb + 1; k < he && !changes; k++) {
            if (!code_word_starts(&s, k) || isdigit((unsigned char)c[k]))
                continue;
            size_t we = code_word_end(&s, k), n = we - k, end;
            changes = (cn && n == cn && !strncmp(c + k, counter, cn)) ||
                      code_assignment_of(&s, loop, at, c + k, n, &end) < s.len;
            size_t v = code_assignment_of(&s, body, loop, c + k, n, &end);
            if (!changes && ahead == s.len && v < s.len && has_comparison(c, v, end))
                ahead = k, ahead_n = n;
            k = we - 1;
        }
        size_t in = 0, iw = index_name_set_in(&s, a, ae, loop, a, counter, cn, &in);
        if (changes || ahead == s.len || iw >= s.len)
            continue;
        size_t end, v = code_assignment_of(&s, body, loop, c + ahead, ahead_n, &end);
        t->kind = SOURCE_TEST_SET_BEFORE_LOOP;
        t->test_line = code_line_at(&s, at);
        t->set_line = code_line_at(&s, v);
        t->loop_line = code_line_at(&s, loop);
        snprintf(t->name, sizeof t->name, "%.*s", (int)ahead_n, c + ahead);
        snprintf(t->index_name, sizeof t->index_name, "%.*s", (int)(in < 63 ? in : 63), c + iw);
        size_t iv = code_assignment_of(&s, loop, a, c + iw, in, &end);
        t->index_line = iv < s.len ? code_line_at(&s, iv) : t->loop_line;
    }
    source_code_free(&s);
    return t->kind;
}

/* ---- an array's base moved inside a loop ---------------------------------- */

int source_base_stepped_in_loop(const char *path, int access, char *base, size_t base_n, char *step, size_t step_n,
                                int *loop_line)
{
    source_code s;
    base[0] = step[0] = 0;
    *loop_line = 0;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    size_t ab = code_line_start(&s, access), ae = ab < s.len ? code_line_end(&s, ab) : s.len;
    size_t loop = code_loop_around(&s, code_skip_space(&s, ab));
    size_t lb = loop < s.len ? code_loop_body(&s, loop) : s.len, le = lb < s.len ? code_body_end(&s, lb) : s.len;
    int found = 0;
    for (size_t k = ab; k < ae && !found && loop < s.len; k++) {
        /* a subscripted base: a name, or a member of one (`in.data`, `p->row`) */
        if (!code_word_starts(&s, k) || isdigit((unsigned char)c[k]))
            continue;
        size_t e = code_word_end(&s, k);
        while (e + 1 < ae && (c[e] == '.' || (c[e] == '-' && c[e + 1] == '>')) && source_is_identifier_char(c[e + (c[e] == '.' ? 1 : 2)]))
            e = code_word_end(&s, e + (c[e] == '.' ? 1 : 2));
        if (code_skip_space(&s, e) >= ae || c[code_skip_space(&s, e)] != '[' || (k > 0 && (c[k - 1] == '.' || c[k - 1] == '>'))) {
            k = e > k ? e - 1 : k;
            continue;
        }
        size_t n = e - k;
        /* `base += x` (or -=) in the loop's body, outside the access's line */
        for (size_t q = lb; q + n < le && !found; q++) {
            if ((q >= ab && q < ae) || strncmp(c + q, c + k, n) != 0 || (q > 0 && (source_is_identifier_char(c[q - 1]) ||
                                                                                   c[q - 1] == '.')) ||
                source_is_identifier_char(c[q + n]))
                continue;
            size_t op = code_skip_space(&s, q + n);
            if (op + 1 < le && (c[op] == '+' || c[op] == '-') && c[op + 1] == '=') {
                size_t end = code_semicolon(&s, op + 2, le);
                if (n < base_n && end - q < step_n) {
                    snprintf(base, base_n, "%.*s", (int)n, c + k);
                    snprintf(step, step_n, "%.*s", (int)(code_blank_before(&s, end) - q), c + q);
                    *loop_line = code_line_at(&s, loop);
                    found = code_line_at(&s, q);
                }
            }
        }
        k = e - 1;
    }
    source_code_free(&s);
    return found;
}
