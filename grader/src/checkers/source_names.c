/*
 * source_names.c - where a name comes from: its declaration in a file (a
 * `#define`, a variable, a parameter, a function, an array) and the block
 * it is declared in, a declared name one slip of the keyboard away from
 * another, and the headers a file includes. What the build reads when the
 * compiler says a name is not declared: the cause is where the name should
 * have come from (a header not included, a #define deleted, a name spelt
 * two ways, a variable declared in a block the use is outside of), not the
 * use the compiler stops at.
 */
#define _GNU_SOURCE
#include "source.h"
#include "source_code.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "util.h"

/* Readers here that read the file again for each name (its declaration)
 * look at this many names at most: a hostile file of a million of them
 * costs no more than a few. */
enum { NAMES_LOOKED_AT = 32 };

/* Whether the name at k (n characters) is declared there: right after
 * `#define`, or after a type's word (spaces, `*` and `&` between), and
 * followed by what ends a declarator (`=`, `;`, `,`, `[`, `(`, `)`). */
static int declares_at(const source_code *s, size_t k, size_t n)
{
    const char *code = s->code;
    size_t b = k;
    while (b > 0 && (code[b - 1] == ' ' || code[b - 1] == '\t' || code[b - 1] == '*' || code[b - 1] == '&' ||
                     code[b - 1] == '\n'))
        b--;
    size_t tn = 0, t = code_word_before(s, b, &tn);
    if (tn == 0 || t + tn != b)
        return 0;
    if (tn == 6 && !strncmp(code + t, "define", 6)) {
        size_t h = t;
        while (h > 0 && (code[h - 1] == ' ' || code[h - 1] == '\t'))
            h--;
        return h > 0 && code[h - 1] == '#';
    }
    if (code_keyword_before_value(code + t, tn) || isdigit((unsigned char)code[t]))
        return 0;
    size_t q = code_skip_space(s, k + n);
    return q < s->len && strchr("=;,[()", code[q]) && (code[q] != '=' || code_assigns_at(s, q));
}

int source_declaration_of(const char *path, const char *name, int *block_close_line)
{
    return source_declaration_block(path, name, NULL, block_close_line);
}

int source_declaration_block(const char *path, const char *name, int *block_open_line, int *block_close_line)
{
    source_code s;
    size_t n = strlen(name);
    if (block_close_line)
        *block_close_line = 0;
    if (block_open_line)
        *block_open_line = 0;
    if (n == 0 || !source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t k = 0; k + n <= s.len && !line; k++) {
        if (!code_name_at(&s, k, name, n) || !declares_at(&s, k, n))
            continue;
        line = code_line_at(&s, k);
        size_t open = code_block_around(&s, k);
        /* a parameter's block is the function's body, after its ')' */
        if (open == s.len) {
            size_t p = k;
            int depth = 0;
            while (p > 0 && !(s.code[p - 1] == '(' && depth == 0)) {
                p--;
                depth += s.code[p] == ')';
                depth -= s.code[p] == '(' && depth > 0;
                if (s.code[p] == ';' || s.code[p] == '{' || s.code[p] == '}')
                    break;
            }
            if (p > 0 && s.code[p - 1] == '(') {
                size_t close = code_matching(&s, p - 1), body = code_skip_space(&s, close + 1);
                open = body < s.len && s.code[body] == '{' ? body : s.len;
            }
        }
        if (block_close_line && open < s.len)
            *block_close_line = code_line_at(&s, code_matching(&s, open));
        if (block_open_line && open < s.len)
            *block_open_line = code_line_at(&s, open);
    }
    source_code_free(&s);
    return line;
}

/* Whether a and b (an and bn characters) differ by one slip: one
 * character more, fewer or changed, two neighbours swapped, or only in
 * letter case. */
static int one_slip(const char *a, size_t an, const char *b, size_t bn)
{
    if (an == bn) {
        size_t diff = 0, first = an, cased = 1;
        for (size_t i = 0; i < an; i++) {
            if (a[i] != b[i]) {
                if (first == an)
                    first = i;
                diff++;
            }
            cased &= tolower((unsigned char)a[i]) == tolower((unsigned char)b[i]);
        }
        if (diff == 0)
            return 0;
        if (cased || diff == 1)
            return 1;
        return diff == 2 && first + 1 < an && a[first] == b[first + 1] && a[first + 1] == b[first];
    }
    if (an + 1 != bn && bn + 1 != an)
        return 0;
    const char *l = an > bn ? a : b, *sh = an > bn ? b : a;
    size_t ln = an > bn ? an : bn, i = 0;
    while (i < ln - 1 && l[i] == sh[i])
        i++;
    return !strncmp(l + i + 1, sh + i, ln - 1 - i);
}

int source_near_declaration(const char *path, const char *name, char *out, size_t size)
{
    source_code s;
    size_t n = strlen(name);
    out[0] = '\0';
    if (n < 3 || !source_code_read(&s, path))
        return 0; /* a one- or two-letter name is one slip from too many */
    int line = 0;
    for (size_t k = 0; k < s.len && !line; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t e = code_word_end(&s, k);
        if (one_slip(s.code + k, e - k, name, n) && declares_at(&s, k, e - k)) {
            snprintf(out, size, "%.*s", (int)(e - k), s.code + k);
            line = code_line_at(&s, k);
        }
        k = e > k ? e - 1 : k;
    }
    source_code_free(&s);
    return line;
}

int source_includes(const char *path, const char *header)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t i = 0; i < s.nlines && !line; i++) {
        size_t k = code_skip_space(&s, s.starts[i]);
        if (k >= s.len || s.code[k] != '#')
            continue;
        k = code_skip_space(&s, k + 1);
        if (!code_word_at(&s, k, "include"))
            continue;
        /* the header's name is a literal, blanked in the code: the raw line has it */
        char *raw = source_line_text(path, (int)i + 1, 200);
        const char *at = strstr(raw, header);
        size_t hn = strlen(header);
        if (at && at > raw && strchr("\"</", at[-1]) && strchr("\">", at[hn] ? at[hn] : ' '))
            line = (int)i + 1;
        free(raw);
    }
    source_code_free(&s);
    return line;
}

int source_first_code_line(const char *path)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t k = code_skip_space(&s, 0);
    int line = k < s.len ? code_line_at(&s, k) : 0;
    source_code_free(&s);
    return line;
}

/* The name of the kernel whose `__global__` is at g, into name, and its
 * parameters' names, joined by ", ", into params: the '(' of its list, or
 * len when g starts none. */
static size_t kernel_parameters(const source_code *s, size_t g, char *name, size_t name_n, char *params,
                                size_t params_n)
{
    size_t open = g;
    while (open < s->len && s->code[open] != '(' && s->code[open] != ';' && s->code[open] != '{')
        open++;
    if (open >= s->len || s->code[open] != '(')
        return s->len;
    size_t n = 0, w = code_word_before(s, open, &n), close = code_matching(s, open);
    if (n == 0 || close >= s->len)
        return s->len;
    snprintf(name, name_n, "%.*s", (int)n, s->code + w);
    params[0] = '\0';
    size_t part = open + 1;
    int depth = 0;
    for (size_t k = open + 1; k <= close; k++) {
        char c = s->code[k];
        depth += c == '(' || c == '[';
        if ((c == ')' || c == ']') && depth > 0 && k < close) {
            depth--;
            continue;
        }
        if (!(k == close || (c == ',' && depth == 0)))
            continue;
        /* the part's last identifier before any `[`: the parameter's name */
        size_t e = k;
        for (size_t q = part; q < k; q++)
            if (s->code[q] == '[') {
                e = q;
                break;
            }
        size_t pn = 0, p = code_word_before(s, e, &pn);
        if (pn > 0 && p >= part) {
            size_t used = strlen(params);
            snprintf(params + used, params_n - used, "%s%.*s", used ? ", " : "", (int)pn, s->code + p);
        }
        part = k + 1;
    }
    return open;
}

/* Whether lists a and b (names joined by ", ") hold the same names in
 * another order. */
static int same_names_reordered(const char *a, const char *b)
{
    if (!strcmp(a, b) || strlen(a) != strlen(b))
        return 0;
    char copy[256];
    snprintf(copy, sizeof copy, "%s", b);
    for (const char *p = a; *p;) {
        size_t n = strcspn(p, ",");
        int hit = 0;
        for (char *q = copy; *q && !hit;) {
            size_t m = strcspn(q, ",");
            if (m == n && !strncmp(p, q, n)) {
                memset(q, '#', m); /* used once */
                hit = 1;
            }
            q += m;
            while (*q == ',' || *q == ' ')
                q++;
        }
        if (!hit)
            return 0;
        p += n;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return 1;
}

int source_parameters_reordered(const char *path, const char *skeleton, char *kernel, size_t kernel_n, char *have,
                                char *want, size_t n)
{
    source_code s, k;
    kernel[0] = have[0] = want[0] = '\0';
    if (!source_code_read(&k, skeleton))
        return 0;
    if (!source_code_read(&s, path)) {
        source_code_free(&k);
        return 0;
    }
    int found = 0;
    for (size_t g = 0; g < k.len && !found; g++) {
        if (!code_word_at(&k, g, "__global__"))
            continue;
        char name[64], theirs[256];
        if (kernel_parameters(&k, g, name, sizeof name, want, n) >= k.len)
            continue;
        for (size_t h = 0; h < s.len && !found; h++) {
            char mine[64];
            size_t open = code_word_at(&s, h, "__global__")
                              ? kernel_parameters(&s, h, mine, sizeof mine, theirs, sizeof theirs)
                              : s.len;
            if (open < s.len && !strcmp(mine, name) && same_names_reordered(want, theirs)) {
                snprintf(kernel, kernel_n, "%s", name);
                snprintf(have, n, "%s", theirs);
                found = code_line_at(&s, open);
            }
        }
    }
    if (!found)
        want[0] = '\0';
    source_code_free(&s);
    source_code_free(&k);
    return found;
}

int source_assigned_at(const char *path, int line, char *out, size_t n)
{
    source_code s;
    out[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    for (size_t q = b; q < e && !out[0]; q++) {
        /* `=` or a compound `+=`, `-=`, ..., not `==`, `<=`, `>=`, `!=` */
        if (s.code[q] != '=' || (q + 1 < s.len && s.code[q + 1] == '=') ||
            (q > b && strchr("=<>!", s.code[q - 1]) && !(q > b + 1 && s.code[q - 2] == s.code[q - 1])))
            continue;
        size_t op = q;
        while (op > b && strchr("+-*/%&|^<>", s.code[op - 1]))
            op--;
        size_t k = code_blank_before(&s, op);
        /* past any subscripts: the name they follow */
        while (k > b && s.code[k - 1] == ']') {
            int depth = 0;
            do {
                k--;
                depth += s.code[k] == ']';
                depth -= s.code[k] == '[';
            } while (k > b && depth > 0);
            k = code_blank_before(&s, k);
        }
        size_t wn = 0, w = code_word_before(&s, k, &wn);
        if (wn > 0 && w >= b && w + wn == k)
            snprintf(out, n, "%.*s", (int)wn, s.code + w);
    }
    source_code_free(&s);
    return out[0] ? line : 0;
}

int source_count_rounded_down(const char *path, const char *name, char *value, size_t n)
{
    source_code s;
    value[0] = '\0';
    size_t nl = strlen(name);
    if (nl == 0 || !source_code_read(&s, path))
        return 0;
    size_t end = 0, v = code_assignment_of(&s, 0, s.len, name, nl, &end);
    int line = 0;
    if (v < s.len && end <= s.len) {
        /* one `/` outside brackets, and no `+` or `-` beside it: no round-up
         * term; or a numerator that takes 1 off (`(k - 1) / TILE_WIDTH`,
         * the round-up `(k - 1) / T + 1` without its `+ 1`) */
        int depth = 0, slashes = 0, sums = 0, minus_one = 0;
        for (size_t k = v; k < end; k++) {
            char c = s.code[k];
            depth += (c == '(') - (c == ')');
            if (depth == 0 && c == '/')
                slashes++;
            if (c == '-' && depth == 1 && slashes == 0 && !minus_one) {
                size_t one = code_skip_space(&s, k + 1);
                if (one < end && s.code[one] == '1' && !source_is_identifier_char(s.code[one + 1]) &&
                    s.code[code_skip_space(&s, one + 1)] == ')') {
                    minus_one = 1;
                    continue;
                }
            }
            if (c == '+' || c == '-' || c == '?' || c == '%')
                sums++;
        }
        size_t b = code_skip_space(&s, v), e = code_blank_before(&s, end);
        if (slashes == 1 && sums == 0 && !memmem(s.code + v, end - v, "ceil", 4)) {
            snprintf(value, n, "%.*s", (int)(e > b ? e - b : 0), s.code + b);
            line = code_line_at(&s, v);
        }
    }
    source_code_free(&s);
    return line;
}

int source_count_off_by_one(const char *path, const char *name, int sign, char *value, size_t n)
{
    source_code s;
    value[0] = '\0';
    size_t nl = strlen(name);
    if (nl == 0 || !source_code_read(&s, path))
        return 0;
    size_t end = 0, v = code_assignment_of(&s, 0, s.len, name, nl, &end);
    int line = 0;
    if (v < s.len && end <= s.len) {
        size_t b = code_skip_space(&s, v), e = code_blank_before(&s, end);
        /* the value's last top-level term: `... - 1` (sign < 0) or `... + 1` */
        size_t k = e;
        while (k > b && s.code[k - 1] == ' ')
            k--;
        int one = k > b && s.code[k - 1] == '1' && (k - 1 == b || !source_is_identifier_char(s.code[k - 2]) ||
                                                    s.code[k - 2] == ' ');
        size_t op = one ? code_blank_before(&s, k - 1) : b;
        int depth = 0;
        for (size_t i = b; i < op; i++)
            depth += (s.code[i] == '(') - (s.code[i] == ')');
        if (one && op > b && depth == 0 && s.code[op - 1] == (sign < 0 ? '-' : '+') && op - 1 > b &&
            !strchr("+-*/%(<>=", s.code[code_blank_before(&s, op - 1) - 1])) {
            snprintf(value, n, "%.*s", (int)(e > b ? e - b : 0), s.code + b);
            line = code_line_at(&s, v);
        }
    }
    source_code_free(&s);
    return line;
}

int source_bound_not_constant(const char *path, int line, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    int found = 0, depth = 0, looked = 0;
    char word[64];
    for (size_t k = b; k < e && !found; k++) {
        depth += (s.code[k] == '[') - (s.code[k] == ']');
        if (depth <= 0 || !code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t we = code_word_end(&s, k);
        snprintf(word, sizeof word, "%.*s", (int)(we - k), s.code + k);
        k = we - 1;
        if (++looked > NAMES_LOOKED_AT)
            break; /* each costs a reading of the file */
        int decl = source_declaration_of(path, word, NULL);
        if (decl <= 0 || decl >= line)
            continue;
        size_t db = code_line_start(&s, decl), de = code_line_end(&s, db);
        int constant = 0;
        for (size_t c = db; c < de && !constant; c++)
            constant = code_word_at(&s, c, "const") || code_word_at(&s, c, "constexpr") ||
                       code_word_at(&s, c, "define");
        if (!constant) {
            snprintf(name, n, "%s", word);
            found = decl;
        }
    }
    source_code_free(&s);
    return found;
}

/* Whether word (the parameter's name) is one of the parts of arg, a
 * name split at '_' and where a lower-case letter meets an upper-case
 * one (`d_in_img`: d, in, img; `dOut`: d, Out), letter case aside. */
static int names_part(const char *arg, const char *word)
{
    size_t wn = strlen(word);
    for (const char *p = arg; *p;) {
        const char *e = p + 1;
        while (*e && *e != '_' && !(islower((unsigned char)e[-1]) && isupper((unsigned char)*e)))
            e++;
        if ((size_t)(e - p) == wn && !strncasecmp(p, word, wn))
            return 1;
        p = *e == '_' ? e + 1 : e;
        while (*p == '_')
            p++;
    }
    return 0;
}

/* Each launch `name<<<...>>>(args)` of each of the file's first kernels:
 * visit(kernel, its parameters, the launch's arguments, their count, the
 * launch's line, ctx) until it returns nonzero; that value, or 0. */
typedef int launch_visit(const char *kernel, char (*par)[64], char (*arg)[64], int np, int line, void *ctx);

static int each_launch(const source_code *s, launch_visit *visit, void *ctx)
{
    int found = 0, kernels = 0;
    /* each kernel costs a walk of the file: the first few are looked at */
    for (size_t g = 0; g < s->len && !found && kernels < NAMES_LOOKED_AT; g++) {
        char name[64], params[256];
        if (!code_word_at(s, g, "__global__") || kernel_parameters(s, g, name, sizeof name, params, sizeof params) >= s->len)
            continue;
        kernels++;
        /* the kernel's parameters, one by one */
        char par[16][64];
        int np = 0;
        for (const char *p = params; *p && np < 16;) {
            size_t l = strcspn(p, ",");
            snprintf(par[np++], sizeof par[0], "%.*s", (int)l, p);
            p += l;
            while (*p == ',' || *p == ' ')
                p++;
        }
        size_t nl = strlen(name);
        for (size_t k = 0; k + nl < s->len && !found; k++) {
            size_t q = code_name_at(s, k, name, nl) ? code_skip_space(s, k + nl) : s->len;
            if (q + 2 >= s->len || strncmp(s->code + q, "<<<", 3) != 0)
                continue;
            const char *close = strstr(s->code + q, ">>>");
            size_t open = close ? code_skip_space(s, (size_t)(close - s->code) + 3) : s->len;
            if (open >= s->len || s->code[open] != '(')
                continue;
            char arg[16][64];
            for (int i = 0; i < np; i++)
                code_call_argument(s, open, i, arg[i], sizeof arg[i]);
            found = visit(name, par, arg, np, code_line_at(s, k), ctx);
        }
    }
    return found;
}

struct crossed {
    char *kernel, *first, *second, *first_param, *second_param;
    size_t kernel_n, n;
};

static int visit_crossed(const char *kernel, char (*par)[64], char (*arg)[64], int np, int line, void *ctx)
{
    struct crossed *x = ctx;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++)
            if (names_part(arg[i], par[j]) && names_part(arg[j], par[i]) && !names_part(arg[i], par[i]) &&
                !names_part(arg[j], par[j])) {
                snprintf(x->kernel, x->kernel_n, "%s", kernel);
                snprintf(x->first, x->n, "%s", arg[i]);
                snprintf(x->second, x->n, "%s", arg[j]);
                snprintf(x->first_param, x->n, "%s", par[i]);
                snprintf(x->second_param, x->n, "%s", par[j]);
                return line;
            }
    return 0;
}

int source_launch_arguments_crossed(const char *path, char *kernel, size_t kernel_n, char *first, char *second,
                                    char *first_param, char *second_param, size_t n)
{
    source_code s;
    kernel[0] = first[0] = second[0] = first_param[0] = second_param[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    struct crossed x = { kernel, first, second, first_param, second_param, kernel_n, n };
    int found = each_launch(&s, visit_crossed, &x);
    source_code_free(&s);
    return found;
}

struct twice {
    const source_code *s;
    char *kernel, *arg, *first_param, *second_param, *sibling;
    size_t n;
    int *sibling_line;
};

/* The names declared beside name in its declaration before offset limit
 * (`Image_t d_in_img = *in, d_out_img = *out;`: d_out_img), that are
 * none of the launch's np arguments: the first into out, its line
 * returned; else 0. */
static int declared_beside(const source_code *s, const char *name, size_t limit, char (*arg)[64], int np, char *out,
                           size_t n)
{
    size_t nl = strlen(name);
    for (size_t k = 0; k + nl < limit; k++) {
        if (!code_name_at(s, k, name, nl))
            continue;
        size_t st = code_skip_space(s, code_statement_start(s, k, 0)), semi = code_semicolon(s, k, s->len);
        /* a declaration: a type's word first, and no call or bracket before the name */
        if (st >= k || !source_is_identifier_char(s->code[st]) || semi >= s->len)
            continue;
        int plain = 1;
        for (size_t q = st; q < k && plain; q++)
            plain = s->code[q] != '(' && s->code[q] != '=' && s->code[q] != '[';
        if (!plain)
            continue;
        /* each declarator after a top-level comma: its first name */
        int depth = 0;
        for (size_t q = st; q < semi; q++) {
            depth += s->code[q] == '(' || s->code[q] == '[' || s->code[q] == '{';
            depth -= s->code[q] == ')' || s->code[q] == ']' || s->code[q] == '}';
            if (depth || s->code[q] != ',')
                continue;
            size_t d = code_skip_space(s, q + 1);
            while (d < semi && (s->code[d] == '*' || s->code[d] == '&' || s->code[d] == ' '))
                d++;
            size_t dl = 0;
            while (d + dl < semi && source_is_identifier_char(s->code[d + dl]))
                dl++;
            if (!dl || dl >= n || (dl == nl && !strncmp(s->code + d, name, nl)))
                continue;
            int passed = 0;
            for (int i = 0; i < np && !passed; i++)
                passed = strlen(arg[i]) == dl && !strncmp(arg[i], s->code + d, dl);
            if (passed)
                continue;
            snprintf(out, n, "%.*s", (int)dl, s->code + d);
            return code_line_at(s, d);
        }
        /* ... or before the name, in a list it ends (`*d_M, *d_N;` for d_N) */
        for (size_t q = st; q < k; q++) {
            if (!source_is_identifier_char(s->code[q]) || (q > st && source_is_identifier_char(s->code[q - 1])))
                continue;
            size_t dl = 0;
            while (source_is_identifier_char(s->code[q + dl]))
                dl++;
            size_t after = code_skip_space(s, q + dl);
            int declarator = after < s->len && (s->code[after] == ',' || code_assigns_at(s, after));
            int passed = 0;
            for (int i = 0; i < np && !passed; i++)
                passed = strlen(arg[i]) == dl && !strncmp(arg[i], s->code + q, dl);
            if (declarator && !passed && dl < n) {
                snprintf(out, n, "%.*s", (int)dl, s->code + q);
                return code_line_at(s, q);
            }
            q += dl;
        }
        return 0;
    }
    return 0;
}

/* One plain name passed for two parameters, where a name declared beside
 * it goes to no argument of the launch. */
static int function_around(const source_code *s, size_t use, size_t *body, size_t *params);

static int visit_twice(const char *kernel, char (*par)[64], char (*arg)[64], int np, int line, void *ctx)
{
    struct twice *x = ctx;
    for (int i = 0; i < np; i++)
        for (int j = i + 1; j < np; j++) {
            size_t l = strlen(arg[i]);
            int plain = l && !(arg[i][0] >= '0' && arg[i][0] <= '9');
            for (size_t c = 0; c < l && plain; c++)
                plain = source_is_identifier_char(arg[i][c]);
            if (!plain || strcmp(arg[i], arg[j]) != 0)
                continue;
            size_t limit = code_line_start(x->s, line);
            int at = declared_beside(x->s, arg[i], limit, arg, np, x->sibling, x->n);
            /* ... or, the name passed being one parameter's own (`width`
             * for (height, width)), the other parameter's name declared
             * before the launch (the host function's `height`) and passed
             * nowhere: the one meant */
            const char *other = !strcmp(arg[i], par[j]) ? par[i] : !strcmp(arg[i], par[i]) ? par[j] : NULL;
            int passed = 0;
            for (int k = 0; other && k < np; k++)
                passed |= !strcmp(arg[k], other);
            /* the declaration in reach: within the function around the
             * launch, its parameters included (the host's, not the kernel's) */
            int last = 0;
            size_t body = 0, params = 0;
            size_t from = function_around(x->s, limit, &body, &params) ? params : limit;
            for (size_t k = from; at <= 0 && other && !passed && strlen(other) < x->n && k + strlen(other) < limit; k++)
                if (code_name_at(x->s, k, other, strlen(other)) && declares_at(x->s, k, strlen(other)))
                    last = code_line_at(x->s, k);
            if (at <= 0 && last > 0) {
                snprintf(x->sibling, x->n, "%s", other);
                at = last;
            }
            if (at <= 0)
                continue;
            snprintf(x->kernel, x->n, "%s", kernel);
            snprintf(x->arg, x->n, "%s", arg[i]);
            snprintf(x->first_param, x->n, "%s", par[i]);
            snprintf(x->second_param, x->n, "%s", par[j]);
            *x->sibling_line = at;
            return line;
        }
    return 0;
}

int source_launch_argument_twice(const char *path, char *kernel, char *arg, char *first_param, char *second_param,
                                 char *sibling, size_t n, int *sibling_line)
{
    source_code s;
    kernel[0] = arg[0] = first_param[0] = second_param[0] = sibling[0] = '\0';
    *sibling_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    struct twice x = { &s, kernel, arg, first_param, second_param, sibling, n, sibling_line };
    int found = each_launch(&s, visit_twice, &x);
    source_code_free(&s);
    return found;
}

struct permuted {
    char *kernel, *said, *right;
    size_t kernel_n, said_n, right_n;
};

/* Three or more arguments out of place, each named for one other
 * parameter and together all of theirs (`(d_P, d_M, d_N, width)` for (M,
 * N, P, Width)): said as where each went, and the order they belong in. */
static int visit_permuted(const char *kernel, char (*par)[64], char (*arg)[64], int np, int line, void *ctx)
{
    struct permuted *x = ctx;
    int to[16], moved = 0, taken[16] = { 0 };
    for (int i = 0; i < np; i++) {
        to[i] = names_part(arg[i], par[i]) ? i : -1;
        for (int j = 0; j < np && to[i] < 0; j++)
            if (j != i && names_part(arg[i], par[j]) && !names_part(arg[i], par[i]))
                to[i] = j;
        if (to[i] < 0 || taken[to[i]]++)
            return 0; /* an argument named for no parameter, or two for one */
        moved += to[i] != i;
    }
    if (moved < 3)
        return 0;
    char order[16][64];
    size_t used = 0;
    x->said[0] = '\0';
    for (int i = 0, m = 0; i < np; i++) {
        snprintf(order[to[i]], sizeof order[0], "%s", arg[i]);
        if (to[i] == i)
            continue;
        m++;
        used += (size_t)snprintf(x->said + used, used < x->said_n ? x->said_n - used : 0, "%s%s as its `%s`",
                                 m == 1 ? "" : m == moved ? " and " : ", ", arg[i], par[i]);
    }
    used = 0;
    x->right[0] = '\0';
    for (int i = 0; i < np; i++)
        used += (size_t)snprintf(x->right + used, used < x->right_n ? x->right_n - used : 0, "%s%s", i ? ", " : "",
                                 order[i]);
    snprintf(x->kernel, x->kernel_n, "%s", kernel);
    return used < x->right_n ? line : 0;
}

int source_launch_arguments_permuted(const char *path, char *kernel, size_t kernel_n, char *said, size_t said_n,
                                     char *right, size_t right_n)
{
    source_code s;
    kernel[0] = said[0] = right[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    struct permuted x = { kernel, said, right, kernel_n, said_n, right_n };
    int found = each_launch(&s, visit_permuted, &x);
    source_code_free(&s);
    return found;
}

/* The function around offset use: its body's '{' into *body, its
 * parameter list's '(' into *params; 0 when use is in none. */
static int function_around(const source_code *s, size_t use, size_t *body, size_t *params)
{
    size_t b = code_block_around(s, use), outer = s->len;
    for (int depth = 0; b < s->len && depth < 64; depth++) {
        outer = b;
        b = b > 0 ? code_block_around(s, b - 1) : s->len;
    }
    if (outer >= s->len)
        return 0;
    size_t close = code_blank_before(s, outer);
    while (close > 0 && (s->code[close - 1] == '\n' || s->code[close - 1] == ' ' || s->code[close - 1] == '\t'))
        close--;
    if (close == 0 || s->code[close - 1] != ')')
        return 0;
    /* the '(' that the ')' closes */
    int depth = 0;
    for (size_t k = close; k-- > 0;) {
        depth += s->code[k] == ')';
        depth -= s->code[k] == '(';
        if (depth == 0) {
            *body = outer;
            *params = k;
            return 1;
        }
    }
    return 0;
}

/* Whether the name at k (n characters) is declared there: a type's word
 * or a `*` before it, and `,`, `)`, `=`, `;` or `[` after it. */
static int declarator_at(const source_code *s, size_t k, size_t n)
{
    size_t q = code_skip_space(s, k + n);
    if (q >= s->len || !strchr(",)=;[", s->code[q]) || (s->code[q] == '=' && !code_assigns_at(s, q)))
        return 0;
    size_t b = code_blank_before(s, k);
    while (b > 0 && s->code[b - 1] == '\n')
        b = code_blank_before(s, b - 1);
    return b > 0 && (s->code[b - 1] == '*' || source_is_identifier_char(s->code[b - 1]));
}

int source_const_pointer_on_line(const char *path, int line, char *name, size_t n, int *parameter)
{
    source_code s;
    name[0] = '\0';
    *parameter = 0;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t body = s.len, params = s.len;
    int in_function = b < s.len && function_around(&s, b, &body, &params);
    int found = 0, looked = 0;
    char word[64];
    for (size_t k = b; k < e && !found; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t we = code_word_end(&s, k), wn = we - k;
        snprintf(word, sizeof word, "%.*s", (int)wn, s.code + k);
        k = we - 1;
        if (++looked > NAMES_LOOKED_AT)
            break; /* each costs a reading of the file */
        /* the declaration in scope at the line: the function's parameter,
         * or a local of a block around the line, the nearest before it;
         * else the file's first (a file-scope name) */
        size_t at = s.len;
        for (size_t c = in_function ? params : s.len; c < b; c++) {
            if (!code_name_at(&s, c, word, wn) || !declarator_at(&s, c, wn))
                continue;
            size_t blk = c > body ? code_block_around(&s, c) : s.len;
            if (c < body || (blk < s.len && code_matching(&s, blk) > b))
                at = c;
        }
        int decl = 0;
        if (at < s.len)
            decl = code_line_at(&s, at);
        else if ((decl = source_declaration_of(path, word, NULL)) > 0) {
            size_t db = code_line_start(&s, decl), de = code_line_end(&s, db);
            for (size_t c = db; c < de && at == s.len; c++)
                if (code_word_at(&s, c, word))
                    at = c;
        }
        if (decl <= 0 || decl == line || at >= s.len)
            continue;
        /* its declarator's own start: a parameter's from the `(` or `,`
         * before it, a statement's from its start (`const float *d_M =
         * NULL, *d_N = NULL;` is const for both) */
        int is_param = in_function && at > params && at < body;
        size_t from = at;
        for (int depth = 0; from > 0; from--) {
            char c = s.code[from - 1];
            if (c == ')' || c == ']')
                depth++;
            else if ((c == '(' || c == '[') && depth > 0)
                depth--;
            else if (depth == 0 && (c == ';' || c == '{' || c == '}' || (is_param && (c == ',' || c == '('))))
                break;
        }
        int is_const = 0, pointer = 0;
        for (size_t c = from; c < at; c++) {
            is_const |= code_word_at(&s, c, "const");
            pointer |= s.code[c] == '*';
        }
        if (is_const && pointer) {
            snprintf(name, n, "%s", word);
            found = decl;
            *parameter = is_param;
        }
    }
    source_code_free(&s);
    return found;
}

int source_function_output_pointer(const char *path, int line, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t body = s.len, params = s.len, at = code_line_start(&s, line);
    int count = 0;
    if (at < s.len && function_around(&s, at, &body, &params)) {
        size_t close = code_matching(&s, params);
        for (size_t from = params + 1; close < s.len && from < close;) {
            size_t to = from;
            int depth = 0;
            while (to < close && !(depth == 0 && s.code[to] == ',')) {
                depth += s.code[to] == '(' || s.code[to] == '[';
                depth -= s.code[to] == ')' || s.code[to] == ']';
                to++;
            }
            int is_const = 0, pointer = 0;
            size_t last = s.len, last_n = 0;
            for (size_t c = from; c < to; c++) {
                is_const |= code_word_at(&s, c, "const");
                pointer |= s.code[c] == '*';
                if (code_word_starts(&s, c) && (isalpha((unsigned char)s.code[c]) || s.code[c] == '_')) {
                    last = c;
                    last_n = code_word_end(&s, c) - c;
                    c += last_n - 1;
                }
            }
            if (pointer && !is_const && last < s.len && ++count == 1)
                snprintf(name, n, "%.*s", (int)last_n, s.code + last);
            from = to + 1;
        }
    }
    source_code_free(&s);
    if (count != 1)
        name[0] = '\0';
    return count == 1;
}

/* The `[...]` groups that follow offset k (a name's end), into *groups;
 * where they end. */
static size_t subscripts_after(const source_code *s, size_t k, int *groups)
{
    *groups = 0;
    for (size_t q = code_skip_space(s, k); q < s->len && s->code[q] == '['; q = code_skip_space(s, k)) {
        size_t close = code_matching(s, q);
        if (close >= s->len)
            break;
        ++*groups;
        k = close + 1;
    }
    return k;
}

int source_subscripts_past_declaration(const char *path, int line, char *name, size_t n, int *declared, int *used)
{
    source_code s;
    name[0] = '\0';
    *declared = *used = 0;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    int found = 0, looked = 0;
    char word[64];
    for (size_t k = b; k < e && !found; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t we = code_word_end(&s, k);
        int uses = 0;
        subscripts_after(&s, we, &uses);
        snprintf(word, sizeof word, "%.*s", (int)(we - k), s.code + k);
        k = we - 1;
        if (uses == 0 || ++looked > NAMES_LOOKED_AT)
            continue; /* each costs a reading of the file */
        int decl = source_declaration_of(path, word, NULL);
        if (decl <= 0 || decl == line)
            continue;
        /* the declaration: its brackets after the name, its stars before
         * it (back to the statement's start or the last comma: `float *a,
         * *b`) */
        size_t db = code_line_start(&s, decl), de = code_line_end(&s, db), at = de;
        for (size_t c = db; c < de && at == de; c++)
            if (code_word_at(&s, c, word))
                at = c;
        if (at == de)
            continue;
        int dims = 0;
        subscripts_after(&s, at + strlen(word), &dims);
        for (size_t c = at; c > db && s.code[c - 1] != ',' && s.code[c - 1] != '(' && s.code[c - 1] != ';'; c--)
            dims += s.code[c - 1] == '*';
        if (uses > dims) {
            snprintf(name, n, "%s", word);
            *declared = dims;
            *used = uses;
            found = decl;
        }
    }
    source_code_free(&s);
    return found;
}

/* The text of subscript `which` (from 0) of the brackets that start at k
 * (after a name), into out, as written (spaces: 1) or without its spaces;
 * 0, or -1 where there are fewer. */
static int subscript_text(const source_code *s, size_t k, int which, int spaces, char *out, size_t n)
{
    int i = 0;
    for (size_t q = code_skip_space(s, k); q < s->len && s->code[q] == '['; q = code_skip_space(s, k), i++) {
        size_t close = code_matching(s, q);
        if (close >= s->len)
            return -1;
        if (i == which) {
            size_t o = 0, from = code_skip_space(s, q + 1), to = code_blank_before(s, close);
            for (size_t c = from; c < to && o + 1 < n; c++)
                if (spaces || !isspace((unsigned char)s->code[c]))
                    out[o++] = s->code[c];
            out[o] = '\0';
            return 0;
        }
        k = close + 1;
    }
    return -1;
}

/* The bound array `word`'s declaration gives in place i (from 0) of its
 * `uses` subscripts, as written (spaces: 1) or without its spaces, into
 * out: the declaration's line; 0 where the declaration has another count
 * of bounds; -1 where the file declares no such array apart from line
 * access. */
static int declared_bound(const source_code *s, const char *path, const char *word, int access, int uses, int i,
                          int spaces, char *out, size_t n, int *declared)
{
    int decl = source_declaration_of(path, word, NULL);
    if (decl <= 0 || decl == access)
        return -1;
    size_t db = code_line_start(s, decl), de = code_line_end(s, db), at = de;
    for (size_t c = db; c < de && at == de; c++)
        if (code_word_at(s, c, word))
            at = c;
    *declared = 0;
    if (at == de || (subscripts_after(s, at + strlen(word), declared), *declared != uses) ||
        subscript_text(s, at + strlen(word), i, spaces, out, n) != 0)
        return 0;
    return decl;
}

/* The walk both of the next two share: each array subscripted on line
 * access, each of its subscripts; bare: one that is counter alone (its
 * declared bound as written into dim), else one that holds counter and
 * more, whose declared bound (spaces out) is want (its text into sub). */
static int counter_subscript(const char *path, int access, const char *counter, int bare, const char *want,
                             char *array, size_t an, char *sub, size_t sn, char *dim, size_t dn, int *which, int *dims)
{
    source_code s;
    array[0] = '\0';
    *which = *dims = 0;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    char text[160], word[64];
    size_t b = code_line_start(&s, access), e = b < s.len ? code_line_end(&s, b) : s.len;
    int found = 0, looked = 0;
    for (size_t k = b; k < e && !found; k++) {
        if (!code_word_starts(&s, k) || !(isalpha((unsigned char)s.code[k]) || s.code[k] == '_'))
            continue;
        size_t we = code_word_end(&s, k);
        int uses = 0;
        subscripts_after(&s, we, &uses);
        snprintf(word, sizeof word, "%.*s", (int)(we - k), s.code + k);
        size_t at_name = we;
        k = we - 1;
        if (uses == 0 || ++looked > NAMES_LOOKED_AT)
            continue;
        for (int i = 0; i < uses && !found; i++) {
            if (subscript_text(&s, at_name, i, 0, text, sizeof text) != 0 ||
                (bare ? strcmp(text, counter) != 0 : !strcmp(text, counter) || !text_find_word(text, text, counter)))
                continue;
            int declared = 0, decl = declared_bound(&s, path, word, access, uses, i, bare, dim, dn, &declared);
            if (decl < 0)
                break;
            if (decl == 0 || (!bare && strcmp(dim, want) != 0))
                continue;
            snprintf(array, an, "%s", word);
            if (!bare)
                subscript_text(&s, at_name, i, 1, sub, sn);
            *which = i;
            *dims = declared;
            found = decl;
        }
    }
    source_code_free(&s);
    return found;
}

int source_counter_subscript_extra(const char *path, int access, const char *counter, const char *bound,
                                   char *array, size_t an, char *sub, size_t sn, int *which, int *dims)
{
    char want[128], dim[128];
    size_t o = 0;
    for (const char *c = bound; *c && o + 1 < sizeof want; c++)
        if (!isspace((unsigned char)*c))
            want[o++] = *c;
    want[o] = '\0';
    sub[0] = '\0';
    return counter_subscript(path, access, counter, 0, want, array, an, sub, sn, dim, sizeof dim, which, dims);
}

int source_counter_bare_subscript(const char *path, int access, const char *counter, char *array, size_t an,
                                  char *dim, size_t dn, int *which, int *dims)
{
    dim[0] = '\0';
    return counter_subscript(path, access, counter, 1, NULL, array, an, NULL, 0, dim, dn, which, dims);
}

int source_bool_holding_count(const char *path, char *name, size_t n, int *use_line)
{
    source_code s;
    name[0] = '\0';
    *use_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0, bools = 0;
    /* each declaration costs a walk of the file: the first few are looked at */
    for (size_t k = 0; k < s.len && !found && bools < NAMES_LOOKED_AT; k++) {
        if (!code_word_at(&s, k, "bool"))
            continue;
        bools++;
        size_t w = code_skip_space(&s, k + 4), we = code_word_end(&s, w);
        if (we == w || !declares_at(&s, w, we - w))
            continue;
        /* an assignment of arithmetic to it, or a loop's bound on it */
        for (size_t q = w; q < s.len && !found; q++) {
            if (!code_name_at(&s, q, s.code + w, we - w))
                continue;
            size_t eq = code_skip_space(&s, q + (we - w)), end = eq < s.len ? code_semicolon(&s, eq, s.len) : s.len;
            int counted = 0;
            for (size_t c = eq + 1; eq < s.len && code_assigns_at(&s, eq) && c < end && !counted; c++)
                counted = strchr("+-*/%", s.code[c]) != NULL;
            size_t before = code_blank_before(&s, q);
            int bound = before > 0 && s.code[before - 1] == '<' && (before < 2 || s.code[before - 2] != '<');
            bound |= before > 1 && s.code[before - 1] == '=' && s.code[before - 2] == '<';
            if (counted || bound) {
                snprintf(name, n, "%.*s", (int)(we - w), s.code + w);
                *use_line = code_line_at(&s, q);
                found = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_set_only_under_test(const char *path, const char *name, int *test_line, char *init, size_t init_n)
{
    source_code s;
    *test_line = 0;
    init[0] = '\0';
    size_t n = strlen(name);
    if (!n || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int set = 0, all_under = 1, first_set = 0, first_test = 0;
    for (size_t k = 0; k + n < s.len && all_under; k++) {
        if (!code_name_at(&s, k, name, n))
            continue;
        size_t q = code_skip_space(&s, k + n);
        if (!code_assigns_at(&s, q))
            continue;
        size_t tn = 0, t = code_word_before(&s, k, &tn);
        if (tn && t < k && code_number_type(c + t, tn)) {
            /* the declaration: its value, a number, is what the name keeps */
            size_t v = code_skip_space(&s, q + 1), ve = v;
            while (ve < s.len && (isalnum((unsigned char)c[ve]) || c[ve] == '.'))
                ve++;
            if (ve > v && isdigit((unsigned char)c[v]) && code_skip_space(&s, ve) < s.len &&
                c[code_skip_space(&s, ve)] == ';')
                snprintf(init, init_n, "%.*s", (int)(ve - v), c + v);
            continue;
        }
        int in_else = 0;
        size_t around = code_test_around(&s, k, &in_else);
        if (around >= s.len || !code_word_at(&s, around, "if") || in_else) {
            all_under = 0;
            break;
        }
        if (!set++) {
            first_set = code_line_at(&s, k);
            first_test = code_line_at(&s, around);
        }
    }
    source_code_free(&s);
    if (!all_under || set != 1 || !init[0])
        return 0;
    *test_line = first_test;
    return first_set;
}

int source_launch_literal_for_name(const char *path, char *kernel, size_t kernel_n, char *literal, size_t literal_n,
                                   char *param, size_t param_n)
{
    source_code s;
    kernel[0] = literal[0] = param[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0, kernels = 0;
    for (size_t g = 0; g < s.len && !found && kernels < NAMES_LOOKED_AT; g++) {
        char name[64], params[256];
        if (!code_word_at(&s, g, "__global__") || kernel_parameters(&s, g, name, sizeof name, params, sizeof params) >= s.len)
            continue;
        kernels++;
        char par[16][64];
        int np = 0;
        for (const char *p = params; *p && np < 16;) {
            size_t l = strcspn(p, ",");
            snprintf(par[np++], sizeof par[0], "%.*s", (int)l, p);
            p += l;
            while (*p == ',' || *p == ' ')
                p++;
        }
        size_t nl = strlen(name);
        for (size_t k = 0; k + nl < s.len && !found; k++) {
            size_t q = code_name_at(&s, k, name, nl) ? code_skip_space(&s, k + nl) : s.len;
            if (q + 2 >= s.len || strncmp(c + q, "<<<", 3) != 0)
                continue;
            const char *close = strstr(c + q, ">>>");
            size_t open = close ? code_skip_space(&s, (size_t)(close - c) + 3) : s.len;
            if (open >= s.len || c[open] != '(')
                continue;
            /* the host function the launch is in: from after the last ';'
             * or '}' at depth 0 before its body */
            size_t fn = 0, head = 0;
            for (size_t j = 0, depth = 0; j < k; j++) {
                if (c[j] == '{' && depth++ == 0)
                    fn = j;
                else if (c[j] == '}' && depth > 0)
                    depth--;
            }
            for (head = fn; head > 0 && c[head - 1] != ';' && c[head - 1] != '}'; head--)
                ;
            for (int i = 0; i < np && !found; i++) {
                char arg[64];
                code_call_argument(&s, open, i, arg, sizeof arg);
                size_t al = strlen(arg), digits = strspn(arg, "0123456789.");
                if (!al || !isdigit((unsigned char)arg[0]) || (digits != al && !(digits + 1 == al && strchr("fuUlL", arg[al - 1]))))
                    continue;
                /* the parameter's name: its last word */
                const char *pe = par[i] + strlen(par[i]), *pb = pe;
                while (pb > par[i] && (isalnum((unsigned char)pb[-1]) || pb[-1] == '_'))
                    pb--;
                size_t pl = (size_t)(pe - pb);
                if (!pl)
                    continue;
                /* the host function has a name of that name before the launch */
                for (size_t j = head; j < k && !found; j++)
                    if (code_name_at(&s, j, pb, pl)) {
                        snprintf(kernel, kernel_n, "%s", name);
                        snprintf(literal, literal_n, "%s", arg);
                        snprintf(param, param_n, "%.*s", (int)pl, pb);
                        found = code_line_at(&s, k);
                    }
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_count_of(const char *path, int line, const char *bound, const char *divisor)
{
    source_code s;
    size_t dn = strlen(divisor), bn = strlen(bound);
    if (!dn || !bn || !source_code_read(&s, path))
        return 0;
    /* the bound itself (`k / TILE_WIDTH`), or the last assignment of the
     * name it is before the line (`numPhases = (k + TILE_WIDTH - 1) /
     * TILE_WIDTH;`) */
    char *text = NULL;
    size_t end = s.len, v = code_assignment_of(&s, 0, code_line_start(&s, line), bound, bn, &end);
    if (v < s.len && end > v)
        text = xasprintf("%.*s", (int)(end - v), s.code + v);
    else
        text = xstrdup(bound);
    int counts = 0;
    for (const char *p = strchr(text, '/'); p && !counts; p = strchr(p + 1, '/')) {
        const char *q = p + 1;
        while (*q == ' ' || *q == '(')
            q++;
        counts = !strncmp(q, divisor, dn) && !source_is_identifier_char(q[dn]);
    }
    free(text);
    source_code_free(&s);
    return counts;
}
