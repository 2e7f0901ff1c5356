/*
 * source.c - the student's source as code, and the one walk over it that
 * the readers share (source_code.h). The readers, by subject: source_sum.c
 * (a kernel's sum), source_store.c (its stores and tiles), source_index.c
 * (what an index varies with), source_host.c (copies and launches),
 * source_line.c (one line as written, quoted or read).
 */
#define _GNU_SOURCE
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int source_is_identifier_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int source_is_identifier_text(const char *text)
{
    if (!*text || (*text >= '0' && *text <= '9'))
        return 0;
    for (const char *c = text; *c; c++)
        if (!source_is_identifier_char(*c))
            return 0;
    return 1;
}

void source_identifier_parts(const char *w, size_t n, void (*f)(const char *, size_t, void *), void *arg)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && w[i] == '_')
            i++;
        size_t start = i++;
        if (start >= n)
            break;
        while (i < n && w[i] != '_' && !(w[i] >= 'A' && w[i] <= 'Z' && w[i - 1] >= 'a' && w[i - 1] <= 'z'))
            i++;
        f(w + start, i - start, arg);
    }
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

char *source_code_text(const char *text)
{
    return code_only(text, strlen(text));
}

int source_code_read(source_code *s, const char *path)
{
    size_t len;
    char *why = NULL;
    char *text = path ? untrusted_read(path, SUBMISSION_MAX_BYTES, 0, &len, &why) : NULL;
    free(why); /* the build says why it refused the file; a reader just has none */
    memset(s, 0, sizeof *s);
    if (!text)
        return 0;
    source_code_of_text(s, text, len);
    free(text);
    return 1;
}

void source_code_of_text(source_code *s, const char *text, size_t len)
{
    s->code = code_only(text, len);
    s->len = len;
    /* every reader asks for lines (many for each character it walks): an
     * index makes that a search, not a count from the file's start */
    s->nlines = 1;
    for (size_t k = 0; k < len; k++)
        s->nlines += s->code[k] == '\n';
    s->starts = xcalloc(s->nlines, sizeof *s->starts);
    for (size_t k = 0, n = 1; k < len; k++)
        if (s->code[k] == '\n')
            s->starts[n++] = k + 1;
}

void source_code_free(source_code *s)
{
    free(s->code);
    free(s->starts);
    memset(s, 0, sizeof *s);
}

/* ---- places ------------------------------------------------------------------ */

int code_line_at(const source_code *s, size_t k)
{
    size_t lo = 0, hi = s->nlines; /* the last start <= k: lines[lo] */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->starts[mid] <= k)
            lo = mid;
        else
            hi = mid;
    }
    return (int)lo + 1;
}

size_t code_line_start(const source_code *s, int line)
{
    if (line <= 1 || s->nlines == 0)
        return 0;
    return (size_t)line > s->nlines ? s->len : s->starts[line - 1];
}

size_t code_line_end(const source_code *s, size_t k)
{
    while (k < s->len && s->code[k] != '\n')
        k++;
    return k;
}

size_t code_matching(const source_code *s, size_t k)
{
    const char *code = s->code;
    char open = code[k], close = open == '(' ? ')' : open == '[' ? ']' : '}';
    int depth = 0;
    for (; k < s->len; k++) {
        depth += code[k] == open;
        depth -= code[k] == close;
        if (depth == 0)
            return k;
    }
    return s->len;
}

size_t code_skip_space(const source_code *s, size_t k)
{
    while (k < s->len && (s->code[k] == ' ' || s->code[k] == '\t' || s->code[k] == '\n' || s->code[k] == '\r'))
        k++;
    return k;
}

size_t code_blank_before(const source_code *s, size_t e)
{
    while (e > 0 && (s->code[e - 1] == ' ' || s->code[e - 1] == '\t'))
        e--;
    return e;
}

/* ---- words ------------------------------------------------------------------- */

int code_name_at(const source_code *s, size_t k, const char *name, size_t n)
{
    const char *code = s->code;
    return k + n <= s->len && strncmp(code + k, name, n) == 0 && (k == 0 || !source_is_identifier_char(code[k - 1])) &&
           !source_is_identifier_char(code[k + n]);
}

int code_word_at(const source_code *s, size_t k, const char *word)
{
    return code_name_at(s, k, word, strlen(word));
}

int code_word_starts(const source_code *s, size_t k)
{
    return k < s->len && source_is_identifier_char(s->code[k]) && (k == 0 || !source_is_identifier_char(s->code[k - 1]));
}

size_t code_word_end(const source_code *s, size_t k)
{
    while (source_is_identifier_char(s->code[k]))
        k++;
    return k;
}

/* The identifier that ends at e: its start. */
static size_t word_start(const source_code *s, size_t e)
{
    while (e > 0 && source_is_identifier_char(s->code[e - 1]))
        e--;
    return e;
}

size_t code_word_before(const source_code *s, size_t e, size_t *n)
{
    const char *code = s->code;
    while (e > 0 && (code[e - 1] == ' ' || code[e - 1] == '\t' || code[e - 1] == '\n' || code[e - 1] == '\r'))
        e--;
    size_t b = word_start(s, e);
    *n = e - b;
    return b;
}

size_t code_word_left_of(const source_code *s, size_t e, size_t *n)
{
    e = code_blank_before(s, e);
    size_t b = word_start(s, e);
    *n = e - b;
    return b;
}

void code_squeezed(const char *text, size_t len, char *out, size_t size)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < size; i++)
        if (!isspace((unsigned char)text[i]))
            out[o++] = text[i];
    out[o] = '\0';
}

int code_word_in(const char *w, size_t n, const char *const *list)
{
    for (int i = 0; list[i]; i++)
        if (strlen(list[i]) == n && strncmp(w, list[i], n) == 0)
            return 1;
    return 0;
}

int code_number_type(const char *w, size_t n)
{
    static const char *const types[] = { "float", "double", "int", "unsigned", "long", "short", "half", NULL };
    return code_word_in(w, n, types);
}

int code_keyword_before_value(const char *w, size_t n)
{
    static const char *const words[] = { "return", "else", "case", "goto", "sizeof", "new", "delete", "do",
                                         "typedef", "throw", NULL };
    return code_word_in(w, n, words);
}

int code_defined_number(const source_code *s, const char *name, size_t n, long *value, size_t *at)
{
    const char *code = s->code;
    for (size_t d = 0; d + n < s->len; d++) {
        if (!code_name_at(s, d, name, n))
            continue;
        size_t ls = code_line_start(s, code_line_at(s, d)), v = code_skip_space(s, d + n);
        int defines = code[code_skip_space(s, ls)] == '#' && memmem(code + ls, d - ls, "define", 6) != NULL;
        int constant = !defines && code[v] == '=' && code_assigns_at(s, v) &&
                       memmem(code + ls, d - ls, "const", 5) != NULL;
        if (constant)
            v = code_skip_space(s, v + 1);
        char *end = NULL;
        long got = (defines || constant) ? strtol(code + v, &end, 10) : 0;
        if ((defines || constant) && end != code + v &&
            (defines ? (*end == '\n' || *end == ' ' || *end == '\t' || *end == '/' || !*end)
                     : (code[code_skip_space(s, (size_t)(end - code))] == ';'))) {
            *value = got;
            *at = d;
            return 1;
        }
    }
    return 0;
}

/* ---- statements ---------------------------------------------------------------- */

int code_assigns_at(const source_code *s, size_t q)
{
    return q + 1 < s->len && s->code[q] == '=' && s->code[q + 1] != '=';
}

size_t code_semicolon(const source_code *s, size_t from, size_t to)
{
    while (from < to && s->code[from] != ';')
        from++;
    return from;
}

size_t code_statement_start(const source_code *s, size_t k, size_t floor)
{
    while (k > floor && !strchr(";{}", s->code[k - 1]))
        k--;
    return k;
}

/* The last character of the statement that starts at b: its closing brace, or its
 * semicolon.  An unbraced body that is itself a loop or an if ends where that
 * statement's own body (and an if's else) ends, not at the first semicolon, which
 * in `for (i..) for (int j = 0; ...) acc += ...;` lies inside the inner header. */
size_t code_body_end(const source_code *s, size_t b)
{
    if (b >= s->len)
        return b;
    if (s->code[b] == '{')
        return code_matching(s, b);
    int is_if = code_word_at(s, b, "if"), is_do = code_word_at(s, b, "do");
    if (is_if || code_word_at(s, b, "for") || code_word_at(s, b, "while") || code_word_at(s, b, "switch")) {
        size_t open = code_skip_space(s, b + (is_if ? 2 : s->code[b] == 'f' ? 3 : s->code[b] == 'w' ? 5 : 6));
        if (open >= s->len || s->code[open] != '(')
            return code_semicolon(s, b, s->len);
        size_t close = code_matching(s, open);
        if (close >= s->len)
            return s->len;
        size_t e = code_body_end(s, code_skip_space(s, close + 1));
        if (is_if && e < s->len) {
            size_t after = code_skip_space(s, e + 1);
            if (code_word_at(s, after, "else"))
                e = code_body_end(s, code_skip_space(s, after + 4));
        }
        return e;
    }
    if (is_do) {
        size_t e = code_body_end(s, code_skip_space(s, b + 2));
        return e < s->len ? code_semicolon(s, e + 1, s->len) : e;
    }
    return code_semicolon(s, b, s->len);
}

int code_stored_at(const source_code *s, size_t k, size_t n)
{
    size_t q = code_skip_space(s, k + n);
    if (q >= s->len || s->code[q] != '[')
        return 0;
    while (q < s->len && s->code[q] == '[')
        q = code_skip_space(s, code_matching(s, q) + 1);
    return code_assigns_at(s, q);
}

size_t code_store_between(const source_code *s, size_t k, size_t end)
{
    for (size_t p = k; p < end; p++)
        if (s->code[p] == '[' && p > 0 && source_is_identifier_char(s->code[p - 1])) {
            size_t n = 0, name = code_word_before(s, p, &n);
            if (n && code_stored_at(s, name, n))
                return p;
        }
    return s->len;
}

int code_span_has_name(const source_code *s, size_t b, size_t e, const char *name, size_t n)
{
    for (size_t k = b; k + n <= e; k++)
        if (code_name_at(s, k, name, n))
            return 1;
    return 0;
}

size_t code_assignment_of(const source_code *s, size_t from, size_t before, const char *name, size_t n,
                          size_t *end)
{
    size_t found = s->len;
    for (size_t k = from; k + n < before; k++) {
        if (!code_name_at(s, k, name, n))
            continue;
        size_t q = code_skip_space(s, k + n);
        if (!code_assigns_at(s, q))
            continue;
        found = q + 1;
        *end = code_semicolon(s, q + 1, before);
        /* one of several declared together (`int tx = threadIdx.x, ty =
         * threadIdx.y;`): the value ends at its top-level comma */
        int depth = 0;
        for (size_t v = q + 1; v < *end; v++) {
            depth += (s->code[v] == '(' || s->code[v] == '[' || s->code[v] == '{') -
                     (s->code[v] == ')' || s->code[v] == ']' || s->code[v] == '}');
            if (depth == 0 && s->code[v] == ',') {
                *end = v;
                break;
            }
        }
    }
    return found;
}

/* ---- loops, kernels, calls ----------------------------------------------------- */

size_t code_loop_body(const source_code *s, size_t head)
{
    int is_do = code_word_at(s, head, "do");
    size_t b = code_skip_space(s, head + (is_do ? 2 : s->code[head] == 'f' ? 3 : 5));
    if (is_do)
        return b;
    if (b >= s->len || s->code[b] != '(')
        return s->len;
    b = code_skip_space(s, code_matching(s, b) + 1);
    return b < s->len ? b : s->len;
}

size_t code_block_around(const source_code *s, size_t k)
{
    size_t stack[64];
    int depth = 0, over = 0;
    for (size_t i = 0; i < k; i++) {
        if (s->code[i] == '{') {
            if (depth < 64)
                stack[depth++] = i;
            else
                over++;
        } else if (s->code[i] == '}') {
            if (over)
                over--;
            else if (depth)
                depth--;
        }
    }
    return depth ? stack[depth - 1] : s->len;
}

size_t code_for_counter(const source_code *s, size_t loop, size_t *n)
{
    *n = 0;
    if (!code_word_at(s, loop, "for"))
        return s->len;
    size_t open = code_skip_space(s, loop + 3);
    if (open >= s->len || s->code[open] != '(')
        return s->len;
    size_t w = code_skip_space(s, open + 1);
    while (w < s->len && code_word_starts(s, w)) {
        size_t we = code_word_end(s, w), next = code_skip_space(s, we);
        /* a type's words come before the name: the name is followed by `=` */
        if (next < s->len && s->code[next] == '=') {
            *n = we - w;
            return w;
        }
        w = next;
    }
    return s->len;
}

size_t code_loop_around(const source_code *s, size_t pos)
{
    size_t best = s->len, best_span = s->len;
    for (size_t k = 0; k < pos; k++) {
        if (!code_word_at(s, k, "for") && !code_word_at(s, k, "while"))
            continue;
        size_t b = code_loop_body(s, k), e = code_body_end(s, b);
        if (b <= pos && pos <= e && e - b < best_span) {
            best = k;
            best_span = e - b;
        }
    }
    return best;
}

size_t code_test_around(const source_code *s, size_t pos, int *in_else)
{
    size_t best = s->len, best_span = s->len;
    *in_else = 0;
    for (size_t k = 0; k < pos; k++) {
        size_t b, e;
        if (code_word_at(s, k, "for") || code_word_at(s, k, "while")) {
            b = code_loop_body(s, k);
            e = code_body_end(s, b);
            if (b <= pos && pos <= e && e - b < best_span)
                best = k, best_span = e - b, *in_else = 0;
            continue;
        }
        if (!code_word_at(s, k, "if"))
            continue;
        size_t open = code_skip_space(s, k + 2);
        if (open >= s->len || s->code[open] != '(')
            continue;
        b = code_skip_space(s, code_matching(s, open) + 1);
        e = code_body_end(s, b);
        if (b <= pos && pos <= e && e - b < best_span)
            best = k, best_span = e - b, *in_else = 0;
        /* its else: the statement after the body */
        size_t a = e < s->len ? code_skip_space(s, e + 1) : s->len;
        if (a < s->len && code_word_at(s, a, "else")) {
            size_t eb = code_skip_space(s, a + 4), ee = code_body_end(s, eb);
            if (eb <= pos && pos <= ee && ee - eb < best_span)
                best = k, best_span = ee - eb, *in_else = 1;
        }
    }
    return best;
}

size_t code_kernel_before(const source_code *s, size_t k)
{
    size_t kernel = s->len;
    for (size_t g = 0; g < k; g++)
        if (code_word_at(s, g, "__global__"))
            kernel = g;
    return kernel;
}

size_t code_kernel_body(const source_code *s, size_t g, size_t *close)
{
    size_t k = g;
    while (k < s->len && s->code[k] != '{' && s->code[k] != ';')
        k++;
    if (k >= s->len || s->code[k] != '{') {
        *close = s->len;
        return s->len;
    }
    *close = code_matching(s, k);
    return k;
}

void code_call_argument(const source_code *s, size_t open, int n, char *out, size_t size)
{
    const char *code = s->code;
    int depth = 0, index = 0;
    size_t from = open + 1;
    out[0] = '\0';
    for (size_t i = open; i < s->len; i++) {
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

size_t code_call_open(const source_code *s, size_t k, const char *name)
{
    if (!code_word_at(s, k, name))
        return s->len;
    size_t open = code_skip_space(s, k + strlen(name));
    return open < s->len && s->code[open] == '(' ? open : s->len;
}

/* ---- words in a line's text (comments and literals kept) ------------------------ */

int text_word_at(const char *text, const char *p, const char *word)
{
    size_t l = strlen(word);
    return strncmp(p, word, l) == 0 && (p == text || !source_is_identifier_char(p[-1])) &&
           !source_is_identifier_char(p[l]);
}

const char *text_find_word(const char *text, const char *from, const char *word)
{
    for (const char *p = strstr(from, word); p; p = strstr(p + 1, word))
        if (text_word_at(text, p, word))
            return p;
    return NULL;
}

size_t text_clause_end(const char *t, size_t from, size_t to)
{
    int depth = 0;
    for (size_t i = from; i < to; i++) {
        if (depth == 0 && i + 1 < to && (t[i] == '&' || t[i] == '|') && t[i + 1] == t[i])
            return i;
        depth += t[i] == '(';
        depth -= t[i] == ')';
    }
    return to;
}

char *source_words_exchanged(const char *text, const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b), n = strlen(text);
    char *out = xmalloc(n * 2 + 1), *o = out;
    for (const char *p = text; *p;) {
        int start = p == text || !source_is_identifier_char(p[-1]);
        if (start && !strncmp(p, a, la) && !source_is_identifier_char(p[la])) {
            memcpy(o, b, lb), o += lb, p += la;
        } else if (start && !strncmp(p, b, lb) && !source_is_identifier_char(p[lb])) {
            memcpy(o, a, la), o += la, p += lb;
        } else
            *o++ = *p++;
    }
    *o = '\0';
    return out;
}
