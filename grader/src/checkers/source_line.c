/*
 * source_line.c - one line of the student's file as written (comments and
 * literals kept): quoted for a sentence, and read for what it compares,
 * multiplies and names (source.h).
 */
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- quoting the student's lines ------------------------------------------------- */

/* The student's file as the build reads it: never through a link, at most
 * a submission's size (a reader has no use for why it was refused). */
static char *student_text(const char *file)
{
    char *why = NULL;
    char *text = file ? untrusted_read(file, SUBMISSION_MAX_BYTES, 0, NULL, &why) : NULL;
    free(why);
    return text;
}

char *source_line_text(const char *file, int n, size_t max)
{
    char *text = student_text(file);
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

char *sanitize_quote(const char *file, int line)
{
    char *src = source_line_text(file, line, 70);
    char *q = *src ? xasprintf("line %d (`%s`)", line, src) : xasprintf("line %d", line);
    free(src);
    return q;
}

/* A checker's location: the student's line, quoted, when it is in the
 * student's file; else FILE:LINE, never passed off as a line of theirs (an
 * inline function of a library header the student's call reached). */
char *sanitize_quote_at(const char *student, const char *file, int line)
{
    if (student && file && strcmp(path_base(file), path_base(student)) == 0)
        return sanitize_quote(student, line);
    return xasprintf("%s:%d", file ? path_base(file) : "?", line);
}

/* ---- what a line compares --------------------------------------------------------- */

/* Where the condition of the if, while or for on a line starts and ends
 * (inside its parentheses; a for's between its semicolons); -1 if none
 * ends on the line. */
static int condition_span(const char *t, size_t *b, size_t *e)
{
    static const char *const words[] = { "if", "while", "for" };
    for (size_t i = 0; t[i]; i++) {
        for (int w = 0; w < 3; w++) {
            if (!text_word_at(t, t + i, words[w]))
                continue;
            size_t k = i + strlen(words[w]);
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
    char *text = source_line_text(path, n, 4096);
    size_t b, e;
    int rc = -1;
    if (condition_span(text, &b, &e) == 0) {
        /* operand k: [from, to) between top-level && and || */
        size_t from = b, to = text_clause_end(text, b, e);
        int index = 0;
        while (index < k && to < e) {
            from = to + 2;
            to = text_clause_end(text, from, e);
            index++;
        }
        size_t hit = 0;
        int count = 0, depth = 0;
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

/* ---- what a line multiplies and names ------------------------------------------------ */

/* Where `name * stride` or `stride * name` stands in s (whole tokens, spaces
 * around the `*` allowed): the offset of the product's first character, or
 * -1. */
static long product_at(const char *s, const char *name, const char *stride)
{
    size_t ln = strlen(name), ls = strlen(stride);
    for (int order = 0; order < 2; order++) {
        const char *first = order ? stride : name, *second = order ? name : stride;
        size_t l1 = order ? ls : ln, l2 = order ? ln : ls;
        for (const char *p = text_find_word(s, s, first); p; p = text_find_word(s, p + 1, first)) {
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

int source_line_factor(const char *path, int n, const char *name, char *out, size_t size)
{
    out[0] = '\0';
    char *text = source_line_text(path, n, 4096);
    size_t ln = strlen(name);
    for (const char *p = text_find_word(text, text, name); p && !out[0]; p = text_find_word(text, p + 1, name)) {
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
            /* a plain word: not an array, a call or a member's object;
             * or a built-in's component (`blockDim.x`) */
            int builtin = q[fl] == '.' && strchr("xyz", q[fl + 1]) && q[fl + 1] &&
                          !source_is_identifier_char(q[fl + 2]) &&
                          (!strncmp(q, "blockDim", fl) || !strncmp(q, "gridDim", fl)) && (fl == 8 || fl == 7);
            if (builtin && fl + 2 < size)
                snprintf(out, size, "%.*s", (int)fl + 2, q);
            else if (fl > 0 && fl < size && q[fl] != '[' && q[fl] != '(' && q[fl] != '.' &&
                     !(q[fl] == '-' && q[fl + 1] == '>'))
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

int source_line_group_factor(const char *path, int n, const char *name, char *out, size_t size)
{
    out[0] = '\0';
    char *text = source_line_text(path, n, 4096);
    size_t ln = strlen(name);
    for (const char *p = text_find_word(text, text, name); p && !out[0]; p = text_find_word(text, p + 1, name)) {
        const char *q = p + ln;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '*')
            continue;
        q++;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q != '(')
            continue;
        int depth = 0;
        const char *e = q;
        for (; *e; e++) {
            depth += *e == '(';
            if (*e == ')' && --depth == 0)
                break;
        }
        if (*e == ')' && (size_t)(e - q + 1) < size)
            snprintf(out, size, "%.*s", (int)(e - q + 1), q);
    }
    free(text);
    return out[0] != '\0';
}

int source_line_has_product(const char *path, int n, const char *name, const char *stride)
{
    char *text = source_line_text(path, n, 4096);
    long at = product_at(text, name, stride);
    free(text);
    return at >= 0;
}

char *source_line_words_exchanged(const char *path, int n, const char *a, const char *b)
{
    char *text = source_line_text(path, n, 4096);
    char *out = NULL;
    size_t la = strlen(a), lb = strlen(b);
    /* the one subscript (a `[...]` of no inner bracket) that holds both */
    int found = 0;
    const char *span = NULL, *span_end = NULL;
    for (const char *o = strchr(text, '['); o; o = strchr(o + 1, '[')) {
        const char *c = o + 1;
        while (*c && *c != ']' && *c != '[')
            c++;
        if (*c != ']')
            continue;
        const char *pa = text_find_word(text, o + 1, a), *pb = text_find_word(text, o + 1, b);
        if (pa && pb && pa < c && pb < c) {
            found++;
            span = o + 1, span_end = c;
        }
    }
    if (found == 1 && la && lb) {
        char *inside = xasprintf("%.*s", (int)(span_end - span), span);
        char *swapped = source_words_exchanged(inside, a, b);
        out = xasprintf("%.*s%s%s", (int)(span - text), text, swapped, span_end);
        free(inside);
        free(swapped);
    }
    free(text);
    return out;
}

int source_line_also_in(const char *path, int n, const char *other)
{
    char *mine = source_line_text(path, n, 4096), *theirs = student_text(other);
    char a[512], b[512];
    int found = 0;
    code_squeezed(mine, strlen(mine), a, sizeof a);
    for (const char *p = theirs; a[0] && p && *p && !found;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        code_squeezed(p, len, b, sizeof b);
        found = strcmp(a, b) == 0;
        p = e ? e + 1 : NULL;
    }
    free(mine);
    free(theirs);
    return found;
}

int source_twin_with_other_name(const char *path, int n, const char *name, char *other, size_t size)
{
    other[0] = '\0';
    char *mine = source_line_text(path, n, 4096), *all = student_text(path);
    const char *at = mine ? text_find_word(mine, mine, name) : NULL;
    size_t nl = strlen(name);
    int found = 0, line = 0;
    for (const char *p = all; at && p && *p && !found;) {
        const char *e = strchr(p, '\n');
        size_t len = e ? (size_t)(e - p) : strlen(p);
        line++;
        /* the same line but for one name where mine has name: its text
         * before and after that name the same, blanks aside at its start */
        const char *a = mine, *b = p, *be = p + len;
        while (*a == ' ' || *a == '\t')
            a++;
        while (b < be && (*b == ' ' || *b == '\t'))
            b++;
        size_t pre = (size_t)(at - a);
        if (line != n && at >= a && (size_t)(be - b) > pre && strncmp(a, b, pre) == 0) {
            const char *w = b + pre;
            size_t wl = 0;
            while (w + wl < be && source_is_identifier_char(w[wl]))
                wl++;
            const char *rest = at + nl;
            size_t rl = strlen(rest);
            while (rl > 0 && (rest[rl - 1] == ' ' || rest[rl - 1] == '\r'))
                rl--;
            size_t tail = (size_t)(be - (w + wl));
            while (tail > 0 && (w[wl + tail - 1] == ' ' || w[wl + tail - 1] == '\r'))
                tail--;
            if (wl && wl < size && !(wl == nl && !strncmp(w, name, nl)) && tail == rl &&
                strncmp(w + wl, rest, rl) == 0) {
                snprintf(other, size, "%.*s", (int)wl, w);
                found = line;
            }
        }
        p = e ? e + 1 : NULL;
    }
    free(mine);
    free(all);
    return found;
}

int source_line_has_word(const char *path, int n, const char *word)
{
    char *text = source_line_text(path, n, 4096);
    int found = text_find_word(text, text, word) != NULL;
    free(text);
    return found;
}

int source_line_has_char(const char *path, int n, char c)
{
    char s[2] = { c, '\0' };
    return source_line_has_text(path, n, s);
}

int source_line_has_text(const char *path, int n, const char *s)
{
    char *text = source_line_text(path, n, 4096);
    int found = text && strstr(text, s) != NULL;
    free(text);
    return found;
}

int source_line_name_offset(const char *path, int n, const char *name)
{
    char *text = source_line_text(path, n, 4096);
    int most = 0;
    for (const char *w = text ? text_find_word(text, text, name) : NULL; w; w = text_find_word(text, w + 1, name)) {
        const char *p = w + strlen(name);
        while (*p == ' ')
            p++;
        if (*p != '+')
            continue;
        p++;
        while (*p == ' ')
            p++;
        char *end;
        long c = strtol(p, &end, 10);
        if (end > p && !(isalnum((unsigned char)*end) || *end == '_' || *end == '.') && c > most && c < 1000)
            most = (int)c;
    }
    free(text);
    return most;
}

void source_line_name_reads(const char *path, int n, const char *name, int c, int *bare, int *offset)
{
    char *text = source_line_text(path, n, 4096);
    *bare = *offset = 0;
    for (const char *w = text ? text_find_word(text, text, name) : NULL; w; w = text_find_word(text, w + 1, name)) {
        const char *p = w + strlen(name);
        while (*p == ' ')
            p++;
        /* read as it is: a subscript's end, an operand, not `name + 1` nor `name =` */
        if (*p == ']' || *p == ')' || *p == '*' || *p == ';' || *p == ',')
            (*bare)++;
        else if (*p == '+') {
            p++;
            while (*p == ' ')
                p++;
            char *end;
            long v = strtol(p, &end, 10);
            *offset += end > p && v == c && !(isalnum((unsigned char)*end) || *end == '_' || *end == '.');
        }
    }
    free(text);
}

int source_loop_step(const char *path, int n, const char *name)
{
    char *text = source_line_text(path, n, 4096), pattern[80];
    int step = 0;
    const char *w = text ? text_find_word(text, text, "for") : NULL;
    for (const char *p = w ? text_find_word(text, w, name) : NULL; p && !step; p = text_find_word(text, p + 1, name)) {
        const char *q = p + strlen(name);
        while (*q == ' ')
            q++;
        if (strncmp(q, "++", 2) == 0)
            step = 1;
        else if (strncmp(q, "--", 2) == 0)
            step = -1;
        else if (strncmp(q, "+=", 2) == 0)
            step = (int)strtol(q + 2, NULL, 10);
        else if (strncmp(q, "-=", 2) == 0)
            step = -(int)strtol(q + 2, NULL, 10);
    }
    snprintf(pattern, sizeof pattern, "++%s", name);
    if (!step && text && strstr(text, pattern))
        step = 1;
    snprintf(pattern, sizeof pattern, "--%s", name);
    if (!step && text && strstr(text, pattern))
        step = -1;
    free(text);
    return step;
}

int source_line_multiplies(const char *path, int n, const char *name)
{
    char *text = source_line_text(path, n, 4096);
    size_t ln = strlen(name);
    int found = 0;
    for (const char *p = text ? text_find_word(text, text, name) : NULL; p && !found;
         p = text_find_word(text, p + 1, name)) {
        const char *q = p + ln, *b = p;
        while (*q == ' ' || *q == '\t')
            q++;
        while (b > text && (b[-1] == ' ' || b[-1] == '\t'))
            b--;
        found = (*q == '*' && q[1] != '=') || (b > text && b[-1] == '*' && !(b - 1 > text && b[-2] == '('));
    }
    free(text);
    return found;
}

int source_declared_const(const char *path, int n, const char *name)
{
    char *text = source_line_text(path, n, 4096);
    const char *p = text ? text_find_word(text, text, name) : NULL;
    int found = 0;
    if (p) {
        /* the declarator's own words: back to the `,`, `(` or `;` before it */
        const char *b = p;
        while (b > text && !strchr(",(;{", b[-1]))
            b--;
        const char *c = text_find_word(text, b, "const");
        found = c && c < p;
    }
    free(text);
    return found;
}

int source_ternary_binds_sum(const char *path, int n, char *value, char *fix, size_t size)
{
    char *text = source_line_text(path, n, 4096);
    int found = 0;
    value[0] = fix[0] = '\0';
    const char *eq = text ? strchr(text, '=') : NULL;
    if (eq && eq[1] != '=') {
        const char *b = eq + 1, *end = strchr(b, ';');
        while (*b == ' ')
            b++;
        size_t len = end ? (size_t)(end - b) : strlen(b);
        /* the top-level `?`, and the last top-level binary + or - before
         * it (the sum the conditional was meant to be a term of) */
        int depth = 0;
        size_t q = len, op = len;
        for (size_t i = 0; i < len && q == len; i++) {
            char c = b[i];
            depth += c == '(' || c == '[';
            depth -= c == ')' || c == ']';
            size_t p = i;
            while (p > 0 && b[p - 1] == ' ')
                p--;
            int binary = p > 0 && (isalnum((unsigned char)b[p - 1]) || b[p - 1] == '_' || b[p - 1] == ')' ||
                                   b[p - 1] == ']');
            if (depth == 0 && c == '?')
                q = i;
            else if (depth == 0 && (c == '+' || c == '-') && binary && b[i + 1] != c && b[i + 1] != '=')
                op = i;
        }
        if (q < len && op < q && len < size && len + 4 < size) {
            size_t r = op + 1;
            while (b[r] == ' ')
                r++;
            snprintf(value, size, "%.*s", (int)len, b);
            snprintf(fix, size, "%.*s (%.*s)", (int)(op + 1), b, (int)(len - r), b + r);
            found = 1;
        }
    }
    free(text);
    return found;
}

/* The value that line text assigns to name (`int name = V;`, `name = V;`):
 * V, trimmed, into out; 0 when the line assigns name nothing. */
static int assigned_value(const char *text, const char *name, char *out, size_t size)
{
    const char *p = text ? text_find_word(text, text, name) : NULL;
    if (!p)
        return 0;
    const char *q = p + strlen(name);
    while (*q == ' ')
        q++;
    if (*q != '=' || q[1] == '=')
        return 0;
    q++;
    while (*q == ' ')
        q++;
    size_t n = strcspn(q, ";");
    while (n > 0 && q[n - 1] == ' ')
        n--;
    if (!n || n >= size)
        return 0;
    snprintf(out, size, "%.*s", (int)n, q);
    return 1;
}

int source_twin_assignment(const char *path, int line, const char *name, char *from, char *to, size_t size)
{
    char mine[256], other[256];
    char *text = source_line_text(path, line, 4096);
    int ok = assigned_value(text, name, mine, sizeof mine), twin = 0;
    free(text);
    char *file = ok ? student_text(path) : NULL;
    const char *p = file;
    for (int n = 1; p && *p && !twin; n++) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        text = n != line ? xasprintf("%.*s", (int)len, p) : NULL;
        p = eol ? eol + 1 : NULL;
        if (text && assigned_value(text, name, other, sizeof other)) {
            /* the two the same but for one word */
            size_t a = 0, b = 0, la = strlen(mine), lb = strlen(other);
            while (a < la && b < lb && mine[a] == other[b])
                a++, b++;
            size_t ea = la, eb = lb;
            while (ea > a && eb > b && mine[ea - 1] == other[eb - 1])
                ea--, eb--;
            while (a > 0 && (isalnum((unsigned char)mine[a - 1]) || mine[a - 1] == '_' || mine[a - 1] == '.'))
                a--, b--;
            while (ea < la && (isalnum((unsigned char)mine[ea]) || mine[ea] == '_' || mine[ea] == '.'))
                ea++, eb++;
            int word = ea > a && eb > b;
            for (size_t i = a; word && i < ea; i++)
                word = isalnum((unsigned char)mine[i]) || mine[i] == '_' || mine[i] == '.';
            for (size_t i = b; word && i < eb; i++)
                word = isalnum((unsigned char)other[i]) || other[i] == '_' || other[i] == '.';
            if (word && ea - a < size && eb - b < size) {
                snprintf(from, size, "%.*s", (int)(ea - a), mine + a);
                snprintf(to, size, "%.*s", (int)(eb - b), other + b);
                twin = n;
            }
        }
        free(text);
    }
    free(file);
    return twin;
}

int source_test_bounds_below(const char *path, int line, const char *name, char *sibling, size_t n)
{
    static const char *const uppers[] = { "<", "<=" }, *const lowers[] = { ">=", ">" };
    char l2[128], r2[128];
    if (sibling && n)
        sibling[0] = '\0';
    for (int k = 0; k < 8; k++)
        for (int o = 0; o < 2; o++) {
            if (source_compared_sides(path, line, k, lowers[o], l2, r2, sizeof l2) == 0) {
                if (strcmp(l2, name) == 0)
                    return 1;
                /* another name bounded from 0: the clause to copy */
                int plain = l2[0] != '\0';
                for (const char *c = l2; *c && plain; c++)
                    plain = source_is_identifier_char(*c);
                if (sibling && n && !sibling[0] && plain && strcmp(r2, "0") == 0)
                    snprintf(sibling, n, "`%s %s %s` does for %s", l2, lowers[o], r2, l2);
            }
            if (source_compared_sides(path, line, k, uppers[o], l2, r2, sizeof l2) == 0 && strcmp(r2, name) == 0)
                return 1;
        }
    return 0;
}
