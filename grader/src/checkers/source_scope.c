/*
 * source_scope.c - names, their declarations and the statements around
 * them: a variable declared again in an inner block, hiding the one its
 * enclosing block declared (`float Pvalue = 0;` written again inside the
 * phase loop); the test, loop or barrier around a line; a name's declared
 * type where the compiler refuses its use (declared_type_before, the one
 * reader of it); a loop counter too narrow for its bound; the locals a
 * load's or a store's index is made of, and the lines that make them.
 */
#define _GNU_SOURCE
#include "source.h"
#include "source_code.h"

#include <stdio.h>
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { MAX_DECLS = 256, MAX_DEPTH = 64 };

typedef struct {
    size_t name, n;  /* the name's offset and length */
    size_t block;    /* the '{' of the block that declares it */
} declaration;

/* Whether the name at k (n characters) is declared there: a number type
 * (or `*` after one) before it, and `=`, `;`, `,` or `[` after it, outside
 * any parentheses (a loop's own variable is not the block's). */
static int declared_at(const source_code *s, size_t k, size_t n)
{
    const char *code = s->code;
    size_t q = code_skip_space(s, k + n);
    if (q >= s->len || !(code[q] == '=' || code[q] == ';' || code[q] == ',' || code[q] == '['))
        return 0;
    if (code[q] == '=' && !code_assigns_at(s, q))
        return 0;
    size_t b = k;
    while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t' || code[b - 1] == '*' || code[b - 1] == '\n'))
        b--;
    size_t tn = 0, t = code_word_before(s, b, &tn);
    return tn > 0 && t + tn == b && code_number_type(code + t, tn);
}

int source_shadowed_declaration(const char *path, char *name, size_t size, int *outer_line, int *use_line)
{
    name[0] = '\0';
    *outer_line = *use_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    for (size_t g = 0; g < s.len && !line; g++) {
        size_t close, open = code_word_at(&s, g, "__global__") ? code_kernel_body(&s, g, &close) : s.len;
        if (open >= s.len)
            continue;
        declaration decls[MAX_DECLS];
        size_t blocks[MAX_DEPTH];
        int ndecls = 0, depth = 0, parens = 0;
        blocks[depth++] = open;
        for (size_t k = open + 1; k < close && !line; k++) {
            char c = code[k];
            if (c == '{' && depth < MAX_DEPTH) {
                blocks[depth++] = k;
                continue;
            }
            if (c == '}' && depth > 1) {
                depth--;
                continue;
            }
            parens += c == '(';
            parens -= c == ')' && parens > 0;
            if (parens || !code_word_starts(&s, k))
                continue;
            size_t e = code_word_end(&s, k), n = e - k;
            if (n == 0 || !declared_at(&s, k, n)) {
                k = e > k ? e - 1 : k;
                continue;
            }
            /* an earlier declaration of the name whose block encloses this one */
            for (int i = 0; i < ndecls && !line; i++) {
                const declaration *d = &decls[i];
                if (d->n != n || strncmp(code + d->name, code + k, n) != 0 || d->block == blocks[depth - 1])
                    continue;
                int encloses = 0;
                for (int b = 0; b < depth - 1; b++)
                    encloses |= blocks[b] == d->block;
                if (!encloses || n >= size)
                    continue;
                /* the outer name read after the inner block ends: what the
                 * kernel uses is the one the inner block never touched */
                size_t inner_end = code_matching(&s, blocks[depth - 1]);
                size_t outer_end = code_matching(&s, d->block);
                for (size_t p = inner_end; p < outer_end && p < s.len; p++)
                    if (code_name_at(&s, p, code + k, n)) {
                        *use_line = code_line_at(&s, p);
                        break;
                    }
                if (!*use_line)
                    continue;
                memcpy(name, code + k, n);
                name[n] = '\0';
                *outer_line = code_line_at(&s, d->name);
                line = code_line_at(&s, k);
            }
            if (!line && ndecls < MAX_DECLS)
                decls[ndecls++] = (declaration){ k, n, blocks[depth - 1] };
            k = e - 1;
        }
    }
    source_code_free(&s);
    return line;
}

/* Code [b, e) with each run of blanks and line breaks one space, trimmed,
 * into out. */
static void span_text(const source_code *s, size_t b, size_t e, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = b; i < e && i < s->len && n + 1 < size; i++) {
        char c = s->code[i] == '\n' || s->code[i] == '\t' ? ' ' : s->code[i];
        if (c == ' ' && (n == 0 || out[n - 1] == ' '))
            continue;
        out[n++] = c;
    }
    while (n > 0 && out[n - 1] == ' ')
        n--;
    out[n] = '\0';
}

/* The header of the statement whose keyword is at k, up to its ')', into out. */
static void header_text(const source_code *s, size_t k, char *out, size_t size)
{
    size_t open = k;
    while (open < s->len && s->code[open] != '(' && s->code[open] != '{' && s->code[open] != ';')
        open++;
    span_text(s, k, open < s->len && s->code[open] == '(' ? code_matching(s, open) + 1 : open, out, size);
}

int source_test_around(const char *path, int line, char *out, size_t size, int *in_else)
{
    source_code s;
    out[0] = '\0';
    *in_else = 0;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t pos = code_skip_space(&s, code_line_start(&s, line)), k = s.len;
    /* `if (Row < j) __syncthreads();` on one line: the line's statement is
     * the one after the header, inside that if */
    if (pos < s.len && (code_word_at(&s, pos, "if") || code_word_at(&s, pos, "while"))) {
        size_t open = code_skip_space(&s, pos + (s.code[pos] == 'i' ? 2 : 5));
        size_t close = open < s.len && s.code[open] == '(' ? code_matching(&s, open) : s.len;
        size_t after = close < s.len ? close + 1 : s.len;
        while (after < s.len && (s.code[after] == ' ' || s.code[after] == '\t'))
            after++;
        if (after < s.len && s.code[after] != '\n' && s.code[after] != '{' && s.code[after] != ';')
            pos = after;
    }
    if (pos < s.len)
        k = code_test_around(&s, pos, in_else);
    int found = 0;
    if (k < s.len && (code_kernel_before(&s, k) < s.len || code_kernel_before(&s, pos) == s.len)) {
        header_text(&s, k, out, size);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_empty_body(const char *path, char *out, size_t size)
{
    source_code s;
    out[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_at(&s, k, "if") && !code_word_at(&s, k, "for"))
            continue;
        size_t open = code_skip_space(&s, k + (s.code[k] == 'i' ? 2 : 3));
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len)
            continue;
        /* `;` right after the header, on its own line's end: the test or
         * the loop controls nothing, and the next statement runs anyway */
        size_t b = code_skip_space(&s, close + 1);
        if (b < s.len && s.code[b] == ';') {
            header_text(&s, k, out, size);
            found = code_line_at(&s, b);
        }
    }
    source_code_free(&s);
    return found;
}

/* The first `c` in [b, e) outside every bracket (a for header's `;`, the
 * comma operator's `,`), or len. */
static size_t top_level(const source_code *s, size_t b, size_t e, char c)
{
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        char x = s->code[k];
        if (x == '(' || x == '[' || x == '{')
            depth++;
        else if (x == ')' || x == ']' || x == '}')
            depth--;
        else if (x == c && depth == 0)
            return k;
    }
    return s->len;
}

/* The top-level `;` positions of a for header (its parentheses at open,
 * close): into semi[0], semi[1]; 0 when it has not two. */
static int for_parts(const source_code *s, size_t open, size_t close, size_t semi[2])
{
    semi[0] = top_level(s, open + 1, close, ';');
    semi[1] = semi[0] < s->len ? top_level(s, semi[0] + 1, close, ';') : s->len;
    return semi[1] < s->len && top_level(s, semi[1] + 1, close, ';') == s->len;
}

/* Whether [b, e) of s holds the n characters of name as a word. */
static int span_names(const source_code *s, size_t b, size_t e, const char *name, size_t n)
{
    return code_span_has_name(s, b, e, name, n);
}

/* The name a for loop's step changes (`i++`, `++i`, `i += 1`, `i = i + 1`):
 * its offset, *n its length; 0 length when none. */
static size_t stepped_name(const source_code *s, size_t b, size_t e, size_t *n)
{
    *n = 0;
    size_t k = code_skip_space(s, b);
    while (k < e && (s->code[k] == '+' || s->code[k] == '-'))
        k++;
    k = code_skip_space(s, k);
    if (k >= e || !code_word_starts(s, k) || (s->code[k] >= '0' && s->code[k] <= '9'))
        return 0;
    size_t end = code_word_end(s, k);
    size_t q = code_skip_space(s, end);
    /* a member or a subscript is not a plain name the test could read */
    if (q < e && (s->code[q] == '.' || s->code[q] == '[' || (s->code[q] == '-' && s->code[q + 1] == '>')))
        return 0;
    *n = end - k;
    return k;
}

/* Whether a top-level `=` (not `==`, `<=`, `>=`, `!=`) stands in [b, e). */
static size_t assignment_in(const source_code *s, size_t b, size_t e)
{
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        char c = s->code[k];
        if (c == '(' || c == '[')
            depth++;
        else if (c == ')' || c == ']')
            depth--;
        else if (c == '=' && depth == 0 && code_assigns_at(s, k) &&
                 !(k > b && strchr("<>!=+-*/%&|^", s->code[k - 1])))
            return k;
    }
    return s->len;
}

/* The step of a for loop after its variable (`ph += TILE_WIDTH`): the
 * offset of the name it adds, or len where it adds no plain name. */
static size_t step_size(const source_code *s, size_t after, size_t close)
{
    size_t q = code_skip_space(s, after);
    if (q + 1 >= close || s->code[q] != '+' || s->code[q + 1] != '=')
        return s->len;
    q = code_skip_space(s, q + 2);
    if (q >= close || !code_word_starts(s, q) || (s->code[q] >= '0' && s->code[q] <= '9'))
        return s->len;
    size_t e = code_word_end(s, q);
    return code_skip_space(s, e) == close ? q : s->len;
}

/* The line in [b, e) where v (vn characters) is multiplied by w (`v * w`
 * or `w * v`), 0 when nowhere. */
static int scaled_in(const source_code *s, size_t b, size_t e, const char *v, size_t vn, const char *w, size_t wn)
{
    for (size_t k = b; k < e && k < s->len; k++) {
        if (!code_name_at(s, k, v, vn))
            continue;
        size_t after = code_skip_space(s, k + vn);
        if (after < e && s->code[after] == '*' && code_name_at(s, code_skip_space(s, after + 1), w, wn))
            return code_line_at(s, k);
        size_t before = k;
        while (before > b && (s->code[before - 1] == ' ' || s->code[before - 1] == '\t'))
            before--;
        if (before > b && s->code[before - 1] == '*') {
            size_t n = 0, wb = code_word_before(s, before - 1, &n);
            if (n == wn && code_name_at(s, wb, w, wn))
                return code_line_at(s, k);
        }
    }
    return 0;
}

/* A test in [b, e) of the header at k made of two parts joined by the
 * comma operator: the left part's value is thrown away. Its line; the
 * header into text, the part thrown away into name; 0 when none. */
static int comma_test(const source_code *s, size_t k, size_t b, size_t e, int *kind, char *text, size_t size,
                      char *name, size_t name_n)
{
    size_t comma = top_level(s, b, e, ',');
    if (comma >= s->len)
        return 0;
    size_t from = code_skip_space(s, b), to = code_blank_before(s, comma);
    if (to <= from)
        return 0;
    header_text(s, k, text, size);
    span_text(s, from, to, name, name_n);
    *kind = SLIP_COMMA_TEST;
    return code_line_at(s, k);
}

/* The relational operator at k (`<`, `<=`, `>`, `>=`, not `<<`, `>>`,
 * `->`, `<<=`): its length, or 0. */
static size_t relational_at(const source_code *s, size_t k)
{
    const char *c = s->code;
    if (c[k] != '<' && c[k] != '>')
        return 0;
    if ((k > 0 && (c[k - 1] == c[k] || (c[k] == '>' && c[k - 1] == '-'))) || c[k + 1] == c[k])
        return 0;
    return c[k + 1] == '=' ? 2 : 1;
}

/* A clause of the test in [b, e) that chains two comparisons (`0 <= r <
 * n`): C compares the first one's 0 or 1 with the last operand. Its line;
 * the header into text, the clause into name, as it should read (`0 <= r
 * && r < n`) into fix; 0 when none. */
static int chained_test(const source_code *s, size_t k, size_t b, size_t e, int *kind, char *text, size_t size,
                        char *name, size_t name_n, char *fix, size_t fix_n)
{
    const char *c = s->code;
    int depth = 0;
    size_t clause = b, op[2] = { 0, 0 }, opn[2] = { 0, 0 };
    int nops = 0;
    for (size_t q = b; q <= e; q++) {
        int end = q == e || (depth == 0 && ((c[q] == '&' && c[q + 1] == '&') || (c[q] == '|' && c[q + 1] == '|')));
        if (end) {
            if (nops >= 2) {
                size_t from = code_skip_space(s, clause), to = code_blank_before(s, q);
                char a[64], m[64], z[64];
                span_text(s, from, code_blank_before(s, op[0]), a, sizeof a);
                span_text(s, code_skip_space(s, op[0] + opn[0]), code_blank_before(s, op[1]), m, sizeof m);
                span_text(s, code_skip_space(s, op[1] + opn[1]), to, z, sizeof z);
                header_text(s, k, text, size);
                span_text(s, from, to, name, name_n);
                snprintf(fix, fix_n, "%s %.*s %s && %s %.*s %s", a, (int)opn[0], c + op[0], m, m, (int)opn[1],
                         c + op[1], z);
                *kind = SLIP_CHAINED_TEST;
                return code_line_at(s, k);
            }
            clause = q + 2;
            nops = 0;
            q++;
            continue;
        }
        if (c[q] == '(' || c[q] == '[')
            depth++;
        else if (c[q] == ')' || c[q] == ']')
            depth--;
        size_t n = depth == 0 ? relational_at(s, q) : 0;
        if (n) {
            if (nops < 2) {
                op[nops] = q;
                opn[nops] = n;
            }
            nops++;
            q += n - 1;
        }
    }
    return 0;
}

/* Whether the n characters at w are declared an integer in the code (a
 * number type other than bool, float or double, before a use of it). */
static int declared_integer(const source_code *s, const char *w, size_t n)
{
    for (size_t k = 0; k + n <= s->len; k++) {
        if (!code_name_at(s, k, w, n))
            continue;
        size_t tn = 0, t = code_word_before(s, k, &tn);
        if (tn && code_number_type(s->code + t, tn) &&
            !code_word_in(s->code + t, tn, (const char *const[]){ "bool", "float", "double", NULL }))
            return 1;
    }
    return 0;
}

/* The bound the file gives the n characters at w, as written with its
 * comparison (`< l`): the first `w <` (or `<=`) elsewhere than at skip,
 * else the comparison at fallback (another clause's, `Col < Width`, where
 * the two are a square's sides). Whether one was found. */
static int bound_of(const source_code *s, const char *w, size_t n, size_t skip, size_t fallback, char *out,
                    size_t size)
{
    const char *c = s->code;
    size_t rel = fallback;
    for (size_t u = 0; u + n < s->len; u++) {
        if (u == skip || !code_name_at(s, u, w, n))
            continue;
        size_t r = code_skip_space(s, u + n);
        if (r < s->len && relational_at(s, r) && c[r] == '<') {
            rel = r;
            break;
        }
    }
    if (rel >= s->len || !relational_at(s, rel))
        return 0;
    size_t rn = relational_at(s, rel), b = code_skip_space(s, rel + rn), e = b;
    for (int d = 0; e < s->len && !(d == 0 && strchr("&|);,?", c[e])); e++)
        d += (c[e] == '(' || c[e] == '[') - (c[e] == ')' || c[e] == ']');
    e = code_blank_before(s, e);
    if (e <= b)
        return 0;
    snprintf(out, size, "%.*s %.*s", (int)rn, c + rel, (int)(e - b), c + b);
    return 1;
}

/* A test of `&&`-joined clauses, one of them an integer name alone beside a
 * clause that compares another name with a bound (`Row && Col < Width`):
 * the name alone tests only that it is not 0, where its bound was meant.
 * Its line; the header into text, the name into name, the clause as it
 * should read (`Row < Width`) into fix; 0 when none. */
static int bare_clause_test(const source_code *s, size_t k, size_t b, size_t e, int *kind, char *text, size_t size,
                            char *name, size_t name_n, char *fix, size_t fix_n)
{
    const char *c = s->code;
    size_t bare = s->len, bare_n = 0, rel = s->len, clause = b;
    int depth = 0;
    for (size_t q = b; q <= e; q++) {
        int end = q == e || (depth == 0 && c[q] == '&' && c[q + 1] == '&');
        if (depth == 0 && q < e && c[q] == '|' && c[q + 1] == '|')
            return 0; /* `||` tests: not a bounds test's shape */
        if (end) {
            size_t from = code_skip_space(s, clause), to = code_blank_before(s, q);
            size_t we = from < to ? code_word_end(s, from) : from;
            if (we == to && we > from && !isdigit((unsigned char)c[from]) && bare == s->len)
                bare = from, bare_n = we - from;
            for (size_t r = from; r < to && rel == s->len; r++)
                if (relational_at(s, r) && c[r] == '<')
                    rel = r;
            clause = q + 2;
            q++;
            continue;
        }
        depth += (c[q] == '(' || c[q] == '[') - (c[q] == ')' || c[q] == ']');
    }
    if (bare == s->len || rel == s->len || bare_n >= name_n || !declared_integer(s, c + bare, bare_n))
        return 0;
    char bound[96];
    if (!bound_of(s, c + bare, bare_n, bare, rel, bound, sizeof bound))
        return 0;
    header_text(s, k, text, size);
    snprintf(name, name_n, "%.*s", (int)bare_n, c + bare);
    snprintf(fix, fix_n, "%.*s %s", (int)bare_n, c + bare, bound);
    *kind = SLIP_BARE_CLAUSE;
    return code_line_at(s, k);
}

/* A clause of the if's test [b, e) that compares a bitwise `|` of two
 * names with a bound (`(Row | Col) < Width`): the bits of the two mixed,
 * not each compared (the OR of two in-range values can reach past the
 * bound). Its line; the header into text, the clause into name, the two
 * comparisons it means into fix; 0 when none. */
static int bitwise_clause_test(const source_code *s, size_t k, size_t b, size_t e, int *kind, char *text,
                               size_t size, char *name, size_t name_n, char *fix, size_t fix_n)
{
    const char *c = s->code;
    for (size_t q = b; q < e; q++) {
        if (c[q] != '|' || c[q + 1] == '|' || (q > b && c[q - 1] == '|') || c[q + 1] == '=')
            continue;
        size_t xn = 0, x = code_word_before(s, q, &xn), y = code_skip_space(s, q + 1), ye = code_word_end(s, y);
        if (!xn || ye == y || isdigit((unsigned char)c[x]) || isdigit((unsigned char)c[y]))
            continue;
        /* `(x | y) < B` or `x | y < B` (which C reads as x | (y < B)) */
        size_t after = code_skip_space(s, ye), open = code_blank_before(s, x);
        int paren = after < e && c[after] == ')' && open > b && c[open - 1] == '(';
        size_t r = paren ? code_skip_space(s, after + 1) : after;
        size_t rn = r < e ? relational_at(s, r) : 0;
        if (!rn || c[r] != '<')
            continue;
        /* each index with the bound the file gives it, else the one compared here */
        char bx[96], by[96];
        if (!bound_of(s, c + x, xn, x, r, bx, sizeof bx) || !bound_of(s, c + y, ye - y, y, r, by, sizeof by))
            continue;
        header_text(s, k, text, size);
        span_text(s, paren ? open - 1 : x, paren ? after + 1 : ye, name, name_n);
        snprintf(fix, fix_n, "%.*s %s && %.*s %s", (int)xn, c + x, bx, (int)(ye - y), c + y, by);
        *kind = SLIP_BITWISE_CLAUSE;
        return code_line_at(s, k);
    }
    return 0;
}

int source_statement_slip(const char *path, int *kind, char *text, size_t size, char *name, size_t name_n,
                          char *fix, size_t fix_n, int *second_line)
{
    *second_line = 0;
    if (fix_n)
        fix[0] = '\0';
    source_code s;
    text[0] = name[0] = '\0';
    *kind = SLIP_NONE;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        int is_for = code_word_at(&s, k, "for"), is_if = code_word_at(&s, k, "if"),
            is_while = code_word_at(&s, k, "while");
        if (!is_for && !is_if && !is_while)
            continue;
        size_t open = code_skip_space(&s, k + (is_for ? 3 : is_if ? 2 : 5));
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len)
            continue;
        size_t semi[2];
        if (is_for && for_parts(&s, open, close, semi)) {
            /* the step changes a name the test does not read */
            size_t n, step = stepped_name(&s, semi[1] + 1, close, &n);
            size_t by = n ? step_size(&s, step + n, close) : s.len, body = code_skip_space(&s, close + 1);
            size_t bn = by < s.len ? code_word_end(&s, by) - by : 0;
            int scaled = bn ? scaled_in(&s, body, code_body_end(&s, body), s.code + step, n, s.code + by, bn) : 0;
            if (scaled > 0 && n < name_n && bn + 1 < size) {
                /* stepped by S and multiplied by S again in its body */
                snprintf(name, name_n, "%.*s", (int)n, s.code + step);
                snprintf(text, size, "%.*s", (int)bn, s.code + by);
                *kind = SLIP_STEP_SCALED;
                found = code_line_at(&s, k);
                *second_line = scaled;
                continue;
            }
            if (n && n < name_n && semi[1] > semi[0] + 1 && !span_names(&s, semi[0] + 1, semi[1], s.code + step, n)) {
                header_text(&s, k, text, size);
                snprintf(name, name_n, "%.*s", (int)n, s.code + step);
                *kind = SLIP_LOOP_STEP;
                found = code_line_at(&s, k);
                continue;
            }
            /* `for (...; i < n, j < m; ...)`: only j < m decides */
            found = comma_test(&s, k, semi[0] + 1, semi[1], kind, text, size, name, name_n);
            if (!found)
                found = chained_test(&s, k, semi[0] + 1, semi[1], kind, text, size, name, name_n, fix, fix_n);
        } else if (!is_for) {
            /* `if (a < n, b < m)`: the comma operator, where && was meant */
            found = comma_test(&s, k, open + 1, close, kind, text, size, name, name_n);
            /* `if (0 <= r < n)`: two comparisons chained, as in mathematics */
            if (!found)
                found = chained_test(&s, k, open + 1, close, kind, text, size, name, name_n, fix, fix_n);
            /* `if (Row && Col < Width)`: a name alone where its bound was meant */
            if (!found && is_if)
                found = bare_clause_test(&s, k, open + 1, close, kind, text, size, name, name_n, fix, fix_n);
            /* `if ((Row | Col) < Width)`: the bits of two indices mixed */
            if (!found && is_if)
                found = bitwise_clause_test(&s, k, open + 1, close, kind, text, size, name, name_n, fix, fix_n);
            /* `if (x = y)`: an assignment where a comparison belongs */
            size_t eq = found ? s.len : assignment_in(&s, open + 1, close);
            /* a do-while's `while (...)` after a `}` is a test like any */
            if (eq < s.len) {
                header_text(&s, k, text, size);
                *kind = SLIP_ASSIGN_TEST;
                found = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

/* Whether the file declares the n characters at w a float or a double
 * (`float w`, `double w`, `float *w` aside: a pointer is no operand). */
static int declared_floating(const source_code *s, const char *w, size_t n)
{
    for (size_t k = 0; k + n <= s->len; k++) {
        if (!code_name_at(s, k, w, n))
            continue;
        size_t tn = 0, t = code_word_before(s, k, &tn);
        if (tn && (code_word_in(s->code + t, tn, (const char *const[]){ "float", "double", NULL })))
            return 1;
    }
    return 0;
}

int source_integer_ceil(const char *path, char *arg, size_t size)
{
    source_code s;
    arg[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        size_t open = code_call_open(&s, k, "ceil");
        if (open >= s.len)
            open = code_call_open(&s, k, "ceilf");
        if (open >= s.len || !code_word_starts(&s, k))
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len)
            continue;
        /* one top-level `/`, and nothing of a float: a literal with a point
         * or an f, a cast, a name declared float or double */
        int depth = 0, slash = 0, floating = 0;
        for (size_t q = open + 1; q < close && !floating; q++) {
            char c = s.code[q];
            if (c == '(' || c == '[')
                depth++;
            else if (c == ')' || c == ']')
                depth--;
            else if (c == '/' && depth == 0)
                slash++;
            else if (c == '.' && q + 1 < close && s.code[q + 1] >= '0' && s.code[q + 1] <= '9')
                floating = 1;
            else if (c >= '0' && c <= '9' && q + 1 < close && (s.code[q + 1] == 'f' || s.code[q + 1] == 'F') &&
                     !source_is_identifier_char(s.code[q + 2]))
                floating = 1;
            else if (code_word_starts(&s, q) && source_is_identifier_char(c) && !(c >= '0' && c <= '9')) {
                size_t e = code_word_end(&s, q);
                floating = code_word_in(s.code + q, e - q, (const char *const[]){ "float", "double", NULL }) ||
                           declared_floating(&s, s.code + q, e - q);
                q = e - 1;
            }
        }
        if (slash != 1 || floating)
            continue;
        span_text(&s, open + 1, close, arg, size);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

/* ---- a kernel's parameter made a loop's counter ------------------------------------ */

/* Whether the name at k (n characters) is assigned there: `k = ...`,
 * `k += ...` (and the other compound assignments), `k++`, `++k`. */
static int assigned_at(const source_code *s, size_t k, size_t n)
{
    const char *code = s->code;
    size_t q = code_skip_space(s, k + n);
    if (q + 1 < s->len && code_assigns_at(s, q))
        return 1;
    if (q + 2 < s->len && strchr("+-*/%&|^", code[q]) && code[q + 1] == '=')
        return 1;
    if (q + 1 < s->len && (code[q] == '+' || code[q] == '-') && code[q + 1] == code[q])
        return 1;
    size_t b = k;
    while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t'))
        b--;
    return b >= 2 && (code[b - 1] == '+' || code[b - 1] == '-') && code[b - 2] == code[b - 1];
}

/* The '{' of the innermost block around offset k. */
static size_t enclosing_block(const source_code *s, size_t k)
{
    int depth = 0;
    for (size_t b = k; b > 0; b--) {
        char c = s->code[b - 1];
        if (c == '}')
            depth++;
        else if (c == '{' && depth-- == 0)
            return b - 1;
    }
    return 0;
}

/* Whether offset k is inside the parentheses of a for header. */
static int in_for_header(const source_code *s, size_t k)
{
    int depth = 0;
    for (size_t b = k; b > 0; b--) {
        char c = s->code[b - 1];
        if (c == ';' && depth == 0)
            continue; /* the header's own ; */
        if (c == '{' || c == '}')
            return 0;
        if (c == ')')
            depth++;
        else if (c == '(' && depth > 0)
            depth--;
        else if (c == '(') {
            size_t w = b - 1;
            while (w > 0 && (s->code[w - 1] == ' ' || s->code[w - 1] == '\t'))
                w--;
            return w >= 3 && code_word_at(s, w - 3, "for");
        }
    }
    return 0;
}

int source_parameter_assigned(const char *path, char *name, size_t size, int *read_line)
{
    name[0] = '\0';
    *read_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    for (size_t g = 0; g < s.len && !line; g++) {
        size_t be, bo = code_word_at(&s, g, "__global__") ? code_kernel_body(&s, g, &be) : s.len;
        const char *open = bo < s.len ? memchr(code + g, '(', bo - g) : NULL;
        if (!open)
            continue;
        size_t po = (size_t)(open - code), pc = code_matching(&s, po);
        if (pc >= bo)
            continue;
        /* each parameter's name: the last word before its comma or ')' */
        for (size_t a = po + 1; a <= pc && !line;) {
            size_t e = top_level(&s, a, pc, ',');
            e = e < pc ? e : pc;
            size_t w = e;
            while (w > a && !source_is_identifier_char(code[w - 1]))
                w--;
            size_t nb = w;
            while (nb > a && source_is_identifier_char(code[nb - 1]))
                nb--;
            size_t n = w - nb;
            /* assigned in the body, and read elsewhere in it (not only
             * where it is assigned: a size the kernel uses) */
            int at = 0, after = 0;
            size_t at_k = 0;
            for (size_t k = bo + 1; n > 0 && n < size && k + n < be; k++) {
                if (!code_name_at(&s, k, code + nb, n) || code[k - 1] == '.' || code[k - 1] == '>')
                    continue;
                int l = code_line_at(&s, k);
                if (!at && assigned_at(&s, k, n) && in_for_header(&s, k)) {
                    at = l;
                    at_k = k;
                } else if (at && l != at && !after) {
                    after = l;
                }
            }
            /* a read before it in the block around the loop, when that block
             * is not the kernel's body (an enclosing loop's): it runs again,
             * and sees the new value from the next pass on */
            int before = 0;
            size_t open_k = at ? enclosing_block(&s, at_k) : 0;
            for (size_t k = open_k > bo ? open_k + 1 : at_k; k < at_k && !before; k++)
                if (code_name_at(&s, k, code + nb, n) && code[k - 1] != '.' && code[k - 1] != '>')
                    before = code_line_at(&s, k);
            if (at && (before || after)) {
                line = at;
                snprintf(name, size, "%.*s", (int)n, code + nb);
                /* a read before it sees the new value from the next pass on */
                *read_line = before ? before : after;
            }
            a = e + 1;
        }
    }
    source_code_free(&s);
    return line;
}

/* ---- a loop's bound that only some threads set -------------------------------------- */

/* Whether the condition [b, e) names a thread's own coordinate: threadIdx,
 * or a name the kernel (from kb) sets from it (`int tx = threadIdx.x;`). */
static int tests_thread(const source_code *s, size_t kb, size_t b, size_t e)
{
    const char *code = s->code;
    if (memmem(code + b, e - b, "threadIdx", 9))
        return 1;
    for (size_t k = b; k < e; k++) {
        if (!source_is_identifier_char(code[k]) || (k > b && source_is_identifier_char(code[k - 1])) ||
            (code[k] >= '0' && code[k] <= '9'))
            continue;
        size_t n = 0;
        while (k + n < e && source_is_identifier_char(code[k + n]))
            n++;
        for (size_t d = kb; d + n < b; d++) {
            if (!code_name_at(s, d, code + k, n))
                continue;
            size_t q = code_skip_space(s, d + n);
            if (code_assigns_at(s, q) && strncmp(code + code_skip_space(s, q + 1), "threadIdx", 9) == 0)
                return 1;
        }
        k += n;
    }
    return 0;
}

int source_bound_set_by_some_threads(const char *path, char *name, size_t size, int *set_line, int *test_line)
{
    name[0] = '\0';
    *set_line = *test_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int loop = 0;
    for (size_t g = 0; g < s.len && !loop; g++) {
        size_t ke, kb = code_word_at(&s, g, "__global__") ? code_kernel_body(&s, g, &ke) : s.len;
        if (kb >= s.len)
            continue;
        for (size_t f = kb; f < ke && !loop; f++) {
            size_t open = code_word_at(&s, f, "for") ? code_skip_space(&s, f + 3) : s.len;
            size_t semi[2];
            if (open >= ke || code[open] != '(' || !for_parts(&s, open, code_matching(&s, open), semi))
                continue;
            /* the test's last name: the bound (`ph < numPhases`) */
            size_t w = semi[1];
            while (w > semi[0] && !source_is_identifier_char(code[w - 1]))
                w--;
            size_t nb = w;
            while (nb > semi[0] && source_is_identifier_char(code[nb - 1]))
                nb--;
            size_t n = w - nb;
            if (n == 0 || n >= size || (code[nb] >= '0' && code[nb] <= '9') || code[nb - 1] == '.' ||
                code[nb - 1] == '>')
                continue;
            /* a local of the kernel's, declared before the loop, not
             * __shared__; every store into it under a test of the thread */
            int declared = 0, stores = 0, under = 0, first_set = 0, first_test = 0;
            for (size_t k = kb + 1; k < f; k++) {
                if (!code_name_at(&s, k, code + nb, n) || code[k - 1] == '.' || code[k - 1] == '>')
                    continue;
                size_t st = code_statement_start(&s, k, kb + 1);
                if (declared_at(&s, k, n)) {
                    declared = !memmem(code + st, k - st, "__shared__", 10) && !memmem(code + st, k - st, "static", 6);
                    continue;
                }
                if (!assigned_at(&s, k, n))
                    continue;
                stores++;
                int in_else = 0;
                size_t t = code_test_around(&s, k, &in_else);
                size_t topen = t < s.len && code_word_at(&s, t, "if") ? code_skip_space(&s, t + 2) : s.len;
                if (topen < s.len && !in_else && tests_thread(&s, kb, topen, code_matching(&s, topen))) {
                    under++;
                    if (!first_set) {
                        first_set = code_line_at(&s, k);
                        first_test = code_line_at(&s, t);
                    }
                }
            }
            if (declared && stores > 0 && under == stores) {
                loop = code_line_at(&s, f);
                *set_line = first_set;
                *test_line = first_test;
                snprintf(name, size, "%.*s", (int)n, code + nb);
            }
        }
    }
    source_code_free(&s);
    return loop;
}

/* The line of the last declaration before `before` of the name at w (n
 * characters), not a pointer's or an array's (`float Width,` in a
 * parameter list, `int a = 0, b = 0;`, `size_t row_bytes = ...;`), its
 * type's words into type: those just before the name, or for a name after
 * a `,` its statement's leading words; 0 when none is. The one reader of a
 * variable's declared type for the compiler's errors (a float index, the
 * address of another type). */
static int declared_type_before(const source_code *s, size_t before, const char *w, size_t n, char *type,
                                size_t type_n)
{
    int line = 0;
    type[0] = '\0';
    for (size_t k = 0; k + n <= before; k++) {
        if (!code_name_at(s, k, w, n) || (k > 0 && (s->code[k - 1] == '.' || s->code[k - 1] == '>')))
            continue;
        size_t q = code_skip_space(s, k + n);
        if (q >= s->len || !strchr(",);=", s->code[q]) || (s->code[q] == '=' && !code_assigns_at(s, q)))
            continue;
        /* the words before it, back to the bracket or separator that starts them */
        size_t b = code_blank_before(s, k), from = k;
        while (b > 0 && s->code[b - 1] == '\n')
            b = code_blank_before(s, b - 1);
        if (b > 0 && s->code[b - 1] == ',') {
            from = code_skip_space(s, code_statement_start(s, k, 0)); /* a listed declarator: the statement's type */
        } else {
            size_t wn = 0, wb;
            while ((wb = code_word_before(s, from, &wn)) < from && wn > 0 && wb + wn <= from &&
                   code_skip_space(s, wb + wn) == from)
                from = wb;
            if (from == k)
                continue; /* no type before it: a use, not a declaration */
        }
        char words[64] = "";
        size_t e = from;
        while (e < k && code_word_starts(s, e)) {
            size_t we = code_word_end(s, e), nx = code_skip_space(s, we);
            if (nx >= k || !code_word_starts(s, nx))
                break; /* the last word before the name, or the first declarator */
            if (strlen(words) + (we - e) + 2 < sizeof words)
                snprintf(words + strlen(words), sizeof words - strlen(words), "%s%.*s", *words ? " " : "",
                         (int)(we - e), s->code + e);
            e = nx;
        }
        /* from the words before the name: the last of them is the type's */
        if (!(b > 0 && s->code[b - 1] == ',')) {
            size_t wn = 0, wb = code_word_before(s, k, &wn);
            if (strlen(words) + wn + 2 < sizeof words)
                snprintf(words + strlen(words), sizeof words - strlen(words), "%s%.*s", *words ? " " : "", (int)wn,
                         s->code + wb);
        }
        if (!*words)
            continue;
        snprintf(type, type_n, "%s", words);
        line = code_line_at(s, k);
    }
    return line;
}

/* Whether type's last word is float or double (`const float`). */
static int floating_type(const char *type)
{
    const char *last = strrchr(type, ' ');
    last = last ? last + 1 : type;
    return strcmp(last, "float") == 0 || strcmp(last, "double") == 0;
}

/* Whether the name at k is used where C wants an integer: inside an
 * array's subscript (`[` after a name, `]` or `)`), or an operand of `%`. */
static int in_integer_place(const source_code *s, size_t k, size_t n, size_t line_start)
{
    const char *code = s->code;
    size_t before = code_blank_before(s, k), after = code_skip_space(s, k + n);
    if ((before > 0 && code[before - 1] == '%') || (after < s->len && code[after] == '%' && code[after + 1] != '='))
        return 1;
    /* the innermost bracket open at k on its line */
    int depth = 0;
    for (size_t q = k; q > line_start; q--) {
        char c = code[q - 1];
        if (c == ')' || c == ']')
            depth++;
        else if ((c == '(' || c == '[') && depth > 0)
            depth--;
        else if (c == '(')
            continue; /* a call's or a group's parentheses: look further out */
        else if (c == '[') {
            size_t b = code_blank_before(s, q - 1);
            return b > 0 && (source_is_identifier_char(code[b - 1]) || code[b - 1] == ']' || code[b - 1] == ')');
        }
    }
    return 0;
}

int source_floating_index(const char *path, int line, char *name, size_t name_n, char *type, size_t type_n)
{
    source_code s;
    name[0] = type[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    int found = 0;
    size_t start = code_line_start(&s, line), end = code_line_end(&s, start);
    for (size_t k = start; k < end && !found; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t e = code_word_end(&s, k);
        if (e == k || (s.code[k] >= '0' && s.code[k] <= '9') || e - k >= name_n) {
            k = e > k ? e - 1 : k;
            continue;
        }
        size_t after = code_skip_space(&s, e);
        int called = after < s.len && s.code[after] == '(';
        char declared[64];
        int at = !called && in_integer_place(&s, k, e - k, start)
                     ? declared_type_before(&s, k, s.code + k, e - k, declared, sizeof declared)
                     : 0;
        if (at > 0 && floating_type(declared)) {
            found = at;
            snprintf(name, name_n, "%.*s", (int)(e - k), s.code + k);
            const char *last = strrchr(declared, ' ');
            snprintf(type, type_n, "%s", last ? last + 1 : declared);
        }
        k = e - 1;
    }
    source_code_free(&s);
    return found;
}

int source_conditional_barrier(const char *path, int first, int second, char *test, size_t n, int *test_line)
{
    source_code s;
    test[0] = '\0';
    *test_line = 0;
    if (first <= 0 || first >= second || !source_code_read(&s, path))
        return 0;
    int barrier = 0;
    for (size_t k = code_line_start(&s, first); k < s.len && !barrier; k++) {
        int l = code_line_at(&s, k);
        if (l >= second)
            break;
        if (l == first || !code_word_at(&s, k, "__syncthreads"))
            continue;
        int in_else = 0;
        size_t t = code_test_around(&s, k, &in_else);
        /* the innermost test around it an if's (or its else's), inside the
         * kernel: a loop around a barrier is every thread's */
        if (t < s.len && code_word_at(&s, t, "if") && code_kernel_before(&s, t) < s.len) {
            header_text(&s, t, test, n);
            *test_line = code_line_at(&s, t);
            barrier = l;
        }
    }
    source_code_free(&s);
    return barrier;
}

int source_address_of_type(const char *path, int line, const char *type, char *name, size_t name_n)
{
    source_code s;
    name[0] = '\0';
    if (line <= 0 || !*type || !source_code_read(&s, path))
        return 0;
    int found = 0;
    size_t start = code_line_start(&s, line), end = code_line_end(&s, start);
    for (size_t k = start; k < end && !found; k++) {
        if (s.code[k] != '&' || (k + 1 < s.len && s.code[k + 1] == '&') || (k > 0 && s.code[k - 1] == '&'))
            continue;
        size_t w = code_skip_space(&s, k + 1), e = code_word_end(&s, w);
        if (e == w || e - w >= name_n)
            continue;
        char declared[64];
        int at = declared_type_before(&s, k, s.code + w, e - w, declared, sizeof declared);
        if (at > 0 && strcmp(declared, type) == 0) {
            found = at;
            snprintf(name, name_n, "%.*s", (int)(e - w), s.code + w);
        }
    }
    source_code_free(&s);
    return found;
}

int source_discarded_result(const char *path, char *name, size_t n)
{
    /* functions of the maths library, CUDA's intrinsics among them: they
     * change none of their arguments, so a call whose value goes nowhere
     * does nothing */
    static const char *const pure[] = { "fmaf", "fma", "fmaxf", "fmax", "fminf", "fmin", "max", "min", "abs",
                                        "fabsf", "fabs", "sqrtf", "sqrt", "expf", "exp", "powf", "pow",
                                        "floorf", "floor", "ceilf", "ceil", "roundf", "round", "__fmaf_rn",
                                        "__fmul_rn", "__fadd_rn", "__fdividef", "__expf", "rsqrtf", NULL };
    source_code s;
    name[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t e = code_word_end(&s, k);
        if (e == k || !code_word_in(s.code + k, e - k, pure)) {
            k = e > k ? e - 1 : k;
            continue;
        }
        size_t open = code_skip_space(&s, e);
        size_t close = open < s.len && s.code[open] == '(' ? code_matching(&s, open) : s.len;
        size_t after = close < s.len ? code_skip_space(&s, close + 1) : s.len;
        size_t b = code_blank_before(&s, k);
        while (b > 0 && s.code[b - 1] == '\n')
            b = code_blank_before(&s, b - 1);
        size_t wn = 0, wb = code_word_before(&s, k, &wn);
        /* the call is a statement by itself: after `;`, a brace, a
         * header's `)` or `else`, and followed by its `;` */
        int starts = b == 0 || s.code[b - 1] == ';' || s.code[b - 1] == '{' || s.code[b - 1] == '}' ||
                     s.code[b - 1] == ')' || (wn == 4 && wb + wn == b && code_word_at(&s, wb, "else"));
        if (starts && after < s.len && s.code[after] == ';' && e - k < n) {
            snprintf(name, n, "%.*s", (int)(e - k), s.code + k);
            found = code_line_at(&s, k);
        }
        k = e - 1;
    }
    source_code_free(&s);
    return found;
}

/* The integer types narrower than an int, and the most each holds. */
static const struct {
    const char *type;
    long most;
} narrow[] = { { "unsigned char", 255 }, { "signed char", 127 }, { "char", 127 }, { "uint8_t", 255 },
               { "int8_t", 127 }, { "unsigned short", 65535 }, { "short", 32767 }, { "uint16_t", 65535 },
               { "int16_t", 32767 }, { NULL, 0 } };

int source_size_in_narrow_type(const char *path, char *name, size_t name_n, char *type, size_t type_n, long *most,
                               char *call, size_t call_n, int *call_line)
{
    static const struct {
        const char *call;
        int arg; /* the size's argument, from 0 */
    } sizes[] = { { "cudaMalloc", 1 }, { "cudaMemcpy", 2 }, { "cudaMemset", 2 }, { "cudaMallocHost", 1 },
                  { "cudaMemcpyToSymbol", 2 }, { "cudaMallocPitch", 2 }, { "cudaMemcpy2D", 4 }, { NULL, 0 } };
    source_code s;
    name[0] = type[0] = call[0] = '\0';
    *most = 0;
    *call_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        int which = -1;
        for (int i = 0; sizes[i].call && which < 0; i++)
            if (code_word_at(&s, k, sizes[i].call) && code_call_open(&s, k, sizes[i].call) < s.len)
                which = i;
        if (which < 0)
            continue;
        char arg[128];
        code_call_argument(&s, code_call_open(&s, k, sizes[which].call), sizes[which].arg, arg, sizeof arg);
        size_t an = 0;
        while (source_is_identifier_char(arg[an]))
            an++;
        if (!an || arg[an] || isdigit((unsigned char)arg[0]))
            continue;
        /* its declaration: a narrow type, then the name */
        for (size_t d = 0; d < k && !found; d++) {
            if (!code_name_at(&s, d, arg, an))
                continue;
            for (int t = 0; narrow[t].type && !found; t++) {
                size_t tl = strlen(narrow[t].type), b = code_blank_before(&s, d);
                if (b < tl || strncmp(s.code + b - tl, narrow[t].type, tl) != 0 ||
                    (b > tl && source_is_identifier_char(s.code[b - tl - 1])))
                    continue;
                found = code_line_at(&s, d);
                snprintf(name, name_n, "%s", arg);
                snprintf(type, type_n, "%s", narrow[t].type);
                snprintf(call, call_n, "%s", sizes[which].call);
                *most = narrow[t].most;
                *call_line = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

/* Whether the name at p (n characters) stands inside an array's subscript
 * after offset from, in the kernel that holds it (`P[idx]`). */
static int subscripts_with(const source_code *s, size_t from, const char *p, size_t n)
{
    size_t g = code_kernel_before(s, from), close = s->len;
    if (g >= s->len || code_kernel_body(s, g, &close) >= s->len)
        return 0;
    for (size_t u = from; u < close && u < s->len; u++) {
        if (!code_name_at(s, u, p, n))
            continue;
        int depth = 0;
        for (size_t b = u; b-- > from;) {
            char c = s->code[b];
            if (c == ';' || c == '{' || c == '}')
                break;
            if (c == ']' || c == ')')
                depth++;
            else if (c == '(' && depth > 0)
                depth--;
            else if (c == '[' && depth-- == 0)
                return 1;
        }
    }
    return 0;
}

int source_index_in_narrow_type(const char *path, char *name, size_t name_n, char *type, size_t type_n, long *most)
{
    source_code s;
    name[0] = type[0] = '\0';
    *most = 0;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || code_kernel_before(&s, k) >= s.len)
            continue;
        for (int t = 0; narrow[t].type && !found; t++) {
            size_t tl = strlen(narrow[t].type);
            if (strncmp(s.code + k, narrow[t].type, tl) != 0 || source_is_identifier_char(s.code[k + tl]))
                continue;
            /* a declaration at a statement's start: `unsigned char Row = ...` */
            size_t b = code_blank_before(&s, k);
            while (b > 0 && s.code[b - 1] == '\n')
                b = code_blank_before(&s, b - 1);
            if (b > 0 && !strchr(";{}", s.code[b - 1]) && !(b >= 5 && !strncmp(s.code + b - 5, "const", 5)))
                continue;
            size_t v = code_skip_space(&s, k + tl), vl = 0;
            while (v + vl < s.len && source_is_identifier_char(s.code[v + vl]))
                vl++;
            size_t eq = code_skip_space(&s, v + vl);
            if (!vl || vl >= name_n || eq >= s.len || !code_assigns_at(&s, eq))
                continue;
            /* its value a thread's or a block's coordinate, or it indexes
             * an array (`unsigned short idx = Row * Width + Col;` then
             * `P[idx]`) */
            size_t semi = code_semicolon(&s, eq, s.len);
            if (semi >= s.len || !(code_span_has_name(&s, eq, semi, "threadIdx", 9) ||
                                   code_span_has_name(&s, eq, semi, "blockIdx", 8) ||
                                   subscripts_with(&s, semi, s.code + v, vl)))
                continue;
            snprintf(name, name_n, "%.*s", (int)vl, s.code + v);
            snprintf(type, type_n, "%s", narrow[t].type);
            *most = narrow[t].most;
            found = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return found;
}

int source_narrow_loop_counter(const char *path, int line, char *name, size_t name_n, char *type, size_t type_n,
                               long *most)
{
    source_code s;
    name[0] = type[0] = '\0';
    *most = 0;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    int found = 0;
    size_t pos = code_skip_space(&s, code_line_start(&s, line));
    /* the loops around the line, innermost first, and one whose header is on it */
    for (size_t loop = pos < s.len && code_word_at(&s, pos, "for") ? pos : code_loop_around(&s, pos);
         loop < s.len && !found; loop = code_loop_around(&s, loop)) {
        size_t open = code_skip_space(&s, loop + 3);
        if (!code_word_at(&s, loop, "for") || open >= s.len || s.code[open] != '(')
            continue;
        size_t init_end = code_semicolon(&s, open + 1, code_matching(&s, open));
        for (int t = 0; narrow[t].type && !found; t++) {
            size_t tl = strlen(narrow[t].type), b = code_skip_space(&s, open + 1);
            if (b + tl >= init_end || strncmp(s.code + b, narrow[t].type, tl) != 0 ||
                source_is_identifier_char(s.code[b + tl]))
                continue;
            size_t w = code_skip_space(&s, b + tl), e = code_word_end(&s, w);
            if (e == w || e - w >= name_n)
                continue;
            snprintf(name, name_n, "%.*s", (int)(e - w), s.code + w);
            snprintf(type, type_n, "%s", narrow[t].type);
            *most = narrow[t].most;
            found = code_line_at(&s, loop);
        }
    }
    source_code_free(&s);
    return found;
}

/* Whether the offset q stands inside the parentheses of an if, while or
 * for header. */
static int in_test(const source_code *s, size_t q)
{
    int depth = 0;
    for (size_t k = q; k > 0; k--) {
        char c = s->code[k - 1];
        if (c == ';' || c == '{' || c == '}')
            return 0;
        if (c == ')')
            depth++;
        else if (c == '(' && depth > 0)
            depth--;
        else if (c == '(') {
            size_t wn = 0, w = code_word_before(s, k - 1, &wn);
            if (wn && (code_word_at(s, w, "if") || code_word_at(s, w, "while") || code_word_at(s, w, "for")))
                return 1;
        }
    }
    return 0;
}

/* Whether the name at w (n characters), set by the statement that ends at
 * from, is read before it is set again only by the statement [use_b,
 * use_e) and by tests (if, while, for): a local made for that one read
 * (`int srcY = ...;` for the load), whose value is then the read's own, not
 * an index the kernel uses elsewhere (Row, read by a load and the store). */
static int dedicated_to(const source_code *s, const char *w, size_t n, size_t from, size_t use_b, size_t use_e)
{
    size_t g = code_kernel_before(s, use_b), close = s->len;
    if (g < s->len)
        code_kernel_body(s, g, &close);
    for (size_t k = from; k + n <= s->len && k < close; k++) {
        if (!code_name_at(s, k, w, n) || (k > 0 && (s->code[k - 1] == '.' || s->code[k - 1] == '>')))
            continue;
        size_t q = code_skip_space(s, k + n);
        if (code_assigns_at(s, q))
            return 1; /* set again: what follows reads another value */
        if ((k >= use_b && k < use_e) || in_test(s, k))
            continue;
        return 0;
    }
    return 1;
}

int source_load_coordinate(const char *path, int line, int which, char *name, size_t n, char *init, size_t init_n)
{
    source_code s;
    name[0] = init[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int found = 0;
    /* the statement's read: the last `NAME[` after its `=` on the line */
    size_t start = code_line_start(&s, line), end = code_line_end(&s, start), eq = s.len, open = s.len;
    for (size_t k = start; k < end; k++)
        if (eq == s.len && code_assigns_at(&s, k) && !(k > 0 && strchr("+-*/%<>!&|^", code[k - 1])))
            eq = k;
    for (size_t k = eq < s.len ? eq + 1 : end; k < end; k++)
        if (code[k] == '[' && k > 0 && source_is_identifier_char(code[code_blank_before(&s, k) - 1]))
            open = k;
    size_t close = open < s.len ? code_matching(&s, open) : s.len;
    /* its subscript's names: the factors of products in order (the row's
     * first: row * stride + ...), else a name added alone (the column) */
    size_t factors[4], nf = 0, added = s.len;
    for (size_t k = open + 1; close < s.len && k < close; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t e = code_word_end(&s, k);
        size_t b = code_blank_before(&s, k), a = code_skip_space(&s, e);
        int member = b > 0 && (code[b - 1] == '.' || code[b - 1] == '>');
        int factor = (b > 0 && code[b - 1] == '*') || (a < close && code[a] == '*');
        int first_of_product = a < close && code[a] == '*' && !(b > 0 && code[b - 1] == '*');
        int compound = a < s.len && (code[a] == '.' || code[a] == '(' || (code[a] == '-' && code[a + 1] == '>'));
        if (!member && !(code[k] >= '0' && code[k] <= '9') && !compound) {
            if (first_of_product && nf < 4)
                factors[nf++] = k;
            else if (!factor && added == s.len)
                added = k;
        }
        k = e - 1;
    }
    size_t pick = which == 0 ? (nf > 0 ? factors[0] : s.len) : (nf > 1 ? factors[1] : added);
    if (pick < s.len) {
        size_t e = code_word_end(&s, pick);
        /* a local set once, by its declaration, before the statement, in the same function */
        size_t value_end = s.len;
        size_t fn = code_kernel_before(&s, pick);
        size_t value = code_assignment_of(&s, fn < s.len ? fn : 0, start, code + pick, e - pick, &value_end);
        if (value < s.len && e - pick < n) {
            size_t t = code_skip_space(&s, code_statement_start(&s, value, 0));
            value = code_skip_space(&s, value);
            int declared = code_word_starts(&s, t) && code_number_type(code + t, code_word_end(&s, t) - t);
            int l = code_line_at(&s, value);
            if (declared && l != line && dedicated_to(&s, code + pick, e - pick, value_end, start, end)) {
                snprintf(name, n, "%.*s", (int)(e - pick), code + pick);
                snprintf(init, init_n, "%.*s", (int)(value_end - value), code + value);
                found = l;
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_store_index_made(const char *path, int line, char *names, size_t n, int *lines, int max)
{
    source_code s;
    names[0] = '\0';
    if (line <= 0 || max <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int count = 0;
    size_t start = code_line_start(&s, line), end = code_line_end(&s, start);
    size_t open = code_store_between(&s, start, end);
    size_t fn = open < s.len ? code_kernel_before(&s, open) : s.len;
    /* the store's subscripts, one after another */
    for (size_t b = open; b < s.len && code[b] == '[' && count < max;) {
        size_t close = code_matching(&s, b);
        for (size_t k = b + 1; close < s.len && k < close && count < max; k++) {
            if (!code_word_starts(&s, k))
                continue;
            size_t e = code_word_end(&s, k), before = code_blank_before(&s, k);
            int member = before > 0 && (code[before - 1] == '.' || code[before - 1] == '>');
            size_t vend = s.len, value = !member && !(code[k] >= '0' && code[k] <= '9')
                                             ? code_assignment_of(&s, fn < s.len ? fn : 0, start, code + k, e - k,
                                                                  &vend)
                                             : s.len;
            int at = value < s.len ? code_line_at(&s, value) : 0;
            if (at > 0 && at != line && strlen(names) + (e - k) + 3 < n) {
                snprintf(names + strlen(names), n - strlen(names), "%s%.*s", *names ? ", " : "", (int)(e - k),
                         code + k);
                lines[count++] = at;
            }
            k = e - 1;
        }
        b = close < s.len ? code_skip_space(&s, close + 1) : s.len;
    }
    source_code_free(&s);
    return count;
}

/* ---- a block whose closing brace is missing ---------------------------- */

/* The indentation of the line holding offset k: its leading blanks (a tab
 * counts 8). */
static int indentation_at(const source_code *s, size_t k)
{
    size_t b = code_line_start(s, code_line_at(s, k));
    int n = 0;
    for (; b < s->len && (s->code[b] == ' ' || s->code[b] == '\t'); b++)
        n += s->code[b] == '\t' ? 8 : 1;
    return n;
}

int source_brace_left_open(const char *path, int *closed_by, int *add_after)
{
    source_code s;
    *closed_by = *add_after = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    long balance = 0;
    for (size_t k = 0; k < s.len; k++)
        balance += (c[k] == '{') - (c[k] == '}');
    int found = 0;
    /* more `{` than `}`: the last block whose `}` stands at another
     * indentation than its own line (an outer block's `}` closed it) */
    for (size_t k = 0; balance > 0 && k < s.len; k++) {
        if (c[k] != '{')
            continue;
        size_t e = code_matching(&s, k);
        if (e >= s.len || indentation_at(&s, e) == indentation_at(&s, k) ||
            code_line_at(&s, e) == code_line_at(&s, k))
            continue;
        /* the last line of code before that `}` */
        size_t last = e;
        while (last > k && strchr(" \t\n\r", c[last - 1]))
            last--;
        found = code_line_at(&s, k);
        *closed_by = code_line_at(&s, e);
        *add_after = code_line_at(&s, last > k ? last - 1 : k);
    }
    source_code_free(&s);
    return found;
}

/* ---- a buffer's size counted in another type's bytes ----------------------- */

/* The type a pointer variable points at, from its declaration before
 * `before` (`float *d_M = NULL, *d_N`: float), into type; 1, or 0. */
static int pointee_type(const source_code *s, const char *name, size_t n, size_t before, char *type, size_t type_n)
{
    const char *c = s->code;
    for (size_t d = 0; d < before; d++) {
        if (!code_name_at(s, d, name, n))
            continue;
        size_t b = code_blank_before(s, d);
        if (b == 0 || c[b - 1] != '*')
            continue;
        /* the statement's type: its first word (past const) */
        size_t st = code_skip_space(s, code_statement_start(s, d, 0)), te = code_word_end(s, st);
        if (te > st && strncmp(c + st, "const", 5) == 0 && te - st == 5) {
            st = code_skip_space(s, te);
            te = code_word_end(s, st);
        }
        if (te > st && code_number_type(c + st, te - st)) {
            snprintf(type, type_n, "%.*s", (int)(te - st), c + st);
            return 1;
        }
    }
    return 0;
}

int source_size_of_other_type(const char *path, char *buffer, size_t buffer_n, char *type, size_t type_n,
                              char *sized, size_t sized_n, int *alloc_line)
{
    source_code s;
    buffer[0] = type[0] = sized[0] = '\0';
    *alloc_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        int pitch = code_word_at(&s, k, "cudaMallocPitch");
        if (!pitch && !code_word_at(&s, k, "cudaMalloc"))
            continue;
        size_t open = code_call_open(&s, k, pitch ? "cudaMallocPitch" : "cudaMalloc");
        if (open >= s.len)
            continue;
        char ptr[96], size[128];
        code_call_argument(&s, open, 0, ptr, sizeof ptr);
        code_call_argument(&s, open, pitch ? 2 : 1, size, sizeof size);
        /* the buffer: the name after `&` in the first argument */
        const char *amp = strrchr(ptr, '&');
        size_t pn = 0;
        while (amp && source_is_identifier_char(amp[1 + pn]))
            pn++;
        char elem[32];
        if (!amp || !pn || !pointee_type(&s, amp + 1, pn, k, elem, sizeof elem))
            continue;
        /* the size: as written, or the value of the name it is */
        size_t vb = 0, ve = 0, sn = 0;
        while (source_is_identifier_char(size[sn]))
            sn++;
        if (sn && !size[sn]) {
            size_t end = 0, v = code_assignment_of(&s, 0, k, size, sn, &end);
            if (v >= s.len)
                continue;
            vb = v, ve = end;
        } else {
            vb = open + 1, ve = code_matching(&s, open);
        }
        for (size_t q = vb; q < ve && q < s.len && !found; q++) {
            if (!code_word_at(&s, q, "sizeof"))
                continue;
            size_t o = code_skip_space(&s, q + 6);
            if (o >= s.len || c[o] != '(')
                continue;
            size_t tb = code_skip_space(&s, o + 1), te = code_word_end(&s, tb);
            if (te == tb || !(code_number_type(c + tb, te - tb) || (te - tb == 4 && !strncmp(c + tb, "char", 4))) ||
                code_skip_space(&s, te) != code_matching(&s, o) ||
                (te - tb == strlen(elem) && strncmp(c + tb, elem, te - tb) == 0))
                continue;
            found = code_line_at(&s, q);
            snprintf(buffer, buffer_n, "%.*s", (int)pn, amp + 1);
            snprintf(type, type_n, "%s", elem);
            snprintf(sized, sized_n, "%.*s", (int)(te - tb), c + tb);
            *alloc_line = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return found;
}

int source_local_used_once(const char *path, const char *name, int use_line, char *value, size_t size)
{
    value[0] = '\0';
    source_code s;
    if (use_line <= 0 || !name || !source_code_read(&s, path))
        return 0;
    size_t n = strlen(name), use = code_line_start(&s, use_line), use_end = code_line_end(&s, use);
    size_t g = use < s.len ? code_kernel_before(&s, use) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int set = 0, sets = 0, other = 0, declared = 0;
    size_t vb = 0, ve = 0;
    for (size_t k = body; body < s.len && k < close && k + n <= s.len; k++) {
        if (!code_name_at(&s, k, name, n))
            continue;
        size_t q = code_skip_space(&s, k + n);
        declared |= declared_at(&s, k, n);
        if (code_assigns_at(&s, q)) {
            size_t b = code_skip_space(&s, q + 1), e = code_semicolon(&s, b, close);
            /* `int numPhases = 0;` then `numPhases = ...;`: the 0 only holds its place */
            int placeholder = declared_at(&s, k, n) && e == b + 1 && s.code[b] == '0';
            if (placeholder)
                continue;
            sets++;
            set = code_line_at(&s, k);
            vb = b;
            ve = e;
        } else if (k < use || k >= use_end) {
            other = 1; /* read, or stepped, at another line */
        }
        k += n - 1;
    }
    int found = declared && sets == 1 && !other && set != use_line ? set : 0;
    if (found)
        span_text(&s, vb, code_blank_before(&s, ve), value, size);
    source_code_free(&s);
    return found;
}

int source_loop_counter_not_restarted(const char *path, char *name, size_t size, int *outer_line, int *set_line)
{
    name[0] = '\0';
    *outer_line = *set_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_at(&s, k, "for") || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t open = code_skip_space(&s, k + 3), semi[2];
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len || !for_parts(&s, open, close, semi) || code_skip_space(&s, open + 1) != semi[0])
            continue; /* a loop whose header sets its counter */
        size_t n = 0, at = stepped_name(&s, semi[1] + 1, close, &n);
        size_t outer = code_loop_around(&s, k);
        if (!n || n >= size || outer >= s.len)
            continue;
        /* nothing in the outer loop, before this one, sets the counter */
        size_t body = code_loop_body(&s, outer), e = 0;
        if (body >= s.len || code_assignment_of(&s, body, k, s.code + at, n, &e) < s.len)
            continue;
        /* set before the outer loop, or in its header's first part (`for
         * (int i = 0, j = 0; ...)`), and not again in its step */
        size_t oopen = code_skip_space(&s, outer + 3), oclose = s.len, osemi[2];
        if (oopen < s.len && s.code[oopen] == '(')
            oclose = code_matching(&s, oopen);
        int header = oclose < s.len && for_parts(&s, oopen, oclose, osemi);
        if (header && code_assignment_of(&s, osemi[1] + 1, oclose, s.code + at, n, &e) < s.len)
            continue;
        size_t g = code_kernel_before(&s, k), kclose = 0, kbody = code_kernel_body(&s, g, &kclose);
        size_t v = kbody < s.len ? code_assignment_of(&s, kbody, header ? osemi[0] : outer, s.code + at, n, &e) : s.len;
        if (v >= s.len)
            continue;
        snprintf(name, size, "%.*s", (int)n, s.code + at);
        *outer_line = code_line_at(&s, outer);
        *set_line = code_line_at(&s, v);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_for_steps_another(const char *path, int line, char *counter, char *step, size_t n)
{
    source_code s;
    counter[0] = step[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_skip_space(&s, code_line_start(&s, line)), e = b < s.len ? code_line_end(&s, b) : b;
    int found = 0;
    for (size_t k = b; k < e && !found; k++) {
        size_t cn = 0, c = code_word_at(&s, k, "for") ? code_for_counter(&s, k, &cn) : s.len;
        if (c >= s.len)
            continue;
        size_t open = code_skip_space(&s, k + 3), close = code_matching(&s, open);
        if (close >= s.len)
            break;
        /* the header's third part: after its second `;` at its own depth */
        size_t semis = 0, third = s.len;
        int depth = 0;
        for (size_t q = open + 1; q < close; q++) {
            depth += s.code[q] == '(' || s.code[q] == '[';
            depth -= s.code[q] == ')' || s.code[q] == ']';
            if (depth == 0 && s.code[q] == ';' && ++semis == 2)
                third = q + 1;
        }
        if (third >= close)
            break;
        size_t from = code_skip_space(&s, third), to = code_blank_before(&s, close);
        /* it steps a name, and not its counter */
        if (to <= from || code_span_has_name(&s, from, to, s.code + c, cn) || to - from >= n || cn >= n)
            break;
        int names = 0;
        for (size_t q = from; q < to; q++)
            names |= code_word_starts(&s, q);
        if (!names)
            break;
        snprintf(counter, n, "%.*s", (int)cn, s.code + c);
        snprintf(step, n, "%.*s", (int)(to - from), s.code + from);
        found = 1;
    }
    source_code_free(&s);
    return found;
}

int source_same_test_elsewhere(const char *path, int test_line)
{
    source_code s;
    if (test_line <= 0 || !source_code_read(&s, path))
        return 0;
    /* the if on test_line, its header as written; then each other if of
     * that kernel's body, in one pass */
    char mine[256] = "", other[256];
    size_t b = code_line_start(&s, test_line), e = b < s.len ? code_line_end(&s, b) : b;
    for (size_t k = b; k < e && !mine[0]; k++)
        if (code_word_at(&s, k, "if"))
            header_text(&s, k, mine, sizeof mine);
    size_t g = mine[0] ? code_kernel_before(&s, b) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int found = 0;
    for (size_t k = body; body < s.len && k < close && !found; k++) {
        if (!code_word_at(&s, k, "if") || code_line_at(&s, k) == test_line)
            continue;
        header_text(&s, k, other, sizeof other);
        if (strcmp(other, mine) == 0)
            found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_step_before_use(const char *path, int use_line, const char *name, long *amount, char *step, size_t n)
{
    source_code s;
    step[0] = '\0';
    *amount = 0;
    if (use_line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t use = code_line_start(&s, use_line), nl = strlen(name);
    size_t loop = use < s.len ? code_loop_around(&s, use) : s.len;
    size_t body = loop < s.len ? code_loop_body(&s, loop) : s.len;
    int found = 0;
    for (size_t k = body; k < use && k < s.len && !found; k++) {
        if (!code_name_at(&s, k, name, nl))
            continue;
        size_t q = code_skip_space(&s, k + nl);
        /* `name += X;` or `name -= X;` at the statement's start */
        if (q + 1 >= s.len || (s.code[q] != '+' && s.code[q] != '-') || s.code[q + 1] != '=' ||
            code_skip_space(&s, code_statement_start(&s, k, body)) != k)
            continue;
        size_t v = code_skip_space(&s, q + 2), e = code_semicolon(&s, v, use);
        if (e >= use)
            continue;
        size_t ve = code_blank_before(&s, e);
        long x = 0;
        size_t defined_at = 0;
        char *end = NULL;
        char text[64];
        snprintf(text, sizeof text, "%.*s", (int)(ve - v), s.code + v);
        long lit = strtol(text, &end, 10);
        if (end != text && *end == '\0')
            x = lit;
        else if (!code_defined_number(&s, text, strlen(text), &x, &defined_at))
            continue;
        *amount = s.code[q] == '-' ? -x : x;
        snprintf(step, n, "%.*s", (int)(e + 1 - k), s.code + k);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_enclosing_loop(const char *path, int line, char *counter, char *bound, size_t n)
{
    source_code s;
    counter[0] = bound[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, line);
    size_t loop = at < s.len ? code_loop_around(&s, at) : s.len;
    int found = 0;
    size_t cn = 0, c = loop < s.len && code_word_at(&s, loop, "for") ? code_for_counter(&s, loop, &cn) : s.len;
    if (c < s.len && cn < n) {
        snprintf(counter, n, "%.*s", (int)cn, s.code + c);
        int ll = code_line_at(&s, loop);
        char left[128], right[128];
        for (int k = 0; k < 4 && !found; k++)
            if (source_compared_sides(path, ll, k, "<", left, right, sizeof left) == 0 && !strcmp(left, counter)) {
                snprintf(bound, n, "%s", right);
                found = ll;
            }
    }
    source_code_free(&s);
    return found;
}

int source_kernel_static_local(const char *path, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k + 6 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "static"))
            continue;
        size_t g = code_kernel_before(&s, k), close = 0;
        size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
        if (body >= s.len || k < body || k > close)
            continue;
        /* `static T name[...]` or `static T name = ...`: not __shared__ */
        size_t e = code_semicolon(&s, k, close), q = k;
        int shared = 0;
        for (; q < e && !shared; q++)
            shared = code_word_at(&s, q, "__shared__") || code_word_at(&s, q, "__constant__");
        if (shared)
            continue;
        /* the declared name: the last word before the first `[`, `=` or `;` */
        size_t stop = k;
        while (stop < e && s.code[stop] != '[' && s.code[stop] != '=')
            stop++;
        size_t wn = 0, w = code_word_before(&s, stop, &wn);
        if (wn && wn < n && w > k + 6) {
            snprintf(name, n, "%.*s", (int)wn, s.code + w);
            found = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return found;
}

int source_shared_scalar_stored(const char *path, int line, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    int found = 0;
    for (size_t k = b; k < e && !found; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t we = code_word_end(&s, k), q = code_skip_space(&s, we);
        /* stored into: `x =`, `x +=` and the other compound assignments */
        int stored = q + 1 < s.len && (code_assigns_at(&s, q) || (strchr("+-*/", s.code[q]) && s.code[q + 1] == '='));
        if (!stored || we - k >= n) {
            k = we - 1;
            continue;
        }
        /* declared `__shared__ T x;` (no bounds) in the kernel */
        size_t g = code_kernel_before(&s, k), close = 0, body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
        for (size_t d = body; d < k && d < s.len && !found; d++) {
            if (!code_name_at(&s, d, s.code + k, we - k))
                continue;
            size_t after = code_skip_space(&s, d + (we - k));
            size_t ls = code_statement_start(&s, d, body);
            int shared = 0;
            for (size_t t = ls; t < d && !shared; t++)
                shared = code_word_at(&s, t, "__shared__");
            if (shared && after < s.len && s.code[after] != '[') {
                snprintf(name, n, "%.*s", (int)(we - k), s.code + k);
                found = code_line_at(&s, d);
            }
        }
        k = we - 1;
    }
    source_code_free(&s);
    return found;
}

/* Whether the n characters at w are declared unsigned in the code (`unsigned`,
 * `size_t`, `uint32_t`, ... before a use of it): the declaration's line, or 0. */
static int declared_unsigned(const source_code *s, const char *w, size_t n)
{
    static const char *const types[] = { "unsigned", "size_t", "uint32_t", "uint64_t", "uint16_t", "uint8_t",
                                         "uint", NULL };
    for (size_t k = 0; k + n <= s->len; k++) {
        if (!code_name_at(s, k, w, n))
            continue;
        size_t tn = 0, t = code_word_before(s, k, &tn);
        if (tn && code_word_in(s->code + t, tn, types))
            return code_line_at(s, k);
        if (tn && code_word_in(s->code + t, tn, (const char *const[]){ "int", "long", "short", "char", NULL })) {
            size_t un = 0, u = code_word_before(s, t, &un);
            if (un && code_name_at(s, u, "unsigned", 8))
                return code_line_at(s, k);
        }
    }
    return 0;
}

int source_unsigned_difference_test(const char *path, int line, char *diff, size_t diff_n, char *name, size_t name_n,
                                    int *decl_line)
{
    source_code s;
    diff[0] = name[0] = 0;
    *decl_line = 0;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    int found = 0;
    for (size_t q = b; q < e && !found; q++) {
        /* `X - Y > 0` (or >= 0, != 0): two names, a minus, a comparison with 0 */
        if (c[q] != '-' || (q + 1 < e && (c[q + 1] == '-' || c[q + 1] == '=' || c[q + 1] == '>')) ||
            (q > b && c[q - 1] == '-'))
            continue;
        size_t xn = 0, x = code_word_before(&s, q, &xn), y = code_skip_space(&s, q + 1), ye = code_word_end(&s, y);
        size_t op = code_skip_space(&s, ye);
        if (!xn || ye == y || isdigit((unsigned char)c[x]) || isdigit((unsigned char)c[y]) || op + 2 >= e)
            continue;
        int cmp = (c[op] == '>' && c[op + 1] != '>') || (c[op] == '!' && c[op + 1] == '=');
        size_t zero = code_skip_space(&s, op + (c[op + 1] == '=' ? 2 : 1));
        if (!cmp || c[zero] != '0' || source_is_identifier_char(c[zero + 1]))
            continue;
        int dx = declared_unsigned(&s, c + x, xn), dy = declared_unsigned(&s, c + y, ye - y);
        if (!dx && !dy)
            continue;
        size_t un = dy ? ye - y : xn, u = dy ? y : x;
        if (un >= name_n)
            continue;
        snprintf(name, name_n, "%.*s", (int)un, c + u);
        snprintf(diff, diff_n, "%.*s", (int)(ye - x), c + x);
        *decl_line = dy ? dy : dx;
        found = line;
    }
    source_code_free(&s);
    return found;
}
