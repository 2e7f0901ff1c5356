/*
 * source_eval.c - what a kernel's integer arithmetic gives for one thread,
 * read from the source as the kernel computes it: the thread's and block's
 * coordinates, the #defines of the file and of lab.h, and each local
 * name's last assignment before the use, followed back. The tile
 * sentences use it to say a value the checked run did not record ("dest,
 * at line 53, is 400 to 655 across the block"); it decides no point.
 *
 * Only what is certain is evaluated: whole numbers, names with one
 * assignment that reaches the use (none stepped by `+=` or `++` between),
 * + - * / % and parentheses. A cast, a call, a floating value, a kernel
 * parameter or a name assigned in a branch the use may not follow make
 * the value unknown, and the sentence says less.
 */
#include "source.h"
#include "source_code.h"

#include "expr.h"
#include "util.h"

#include <stdio.h>
#include <string.h>

#define EVAL_DEPTH 8
#define EVAL_TEXT_MAX 1024

typedef struct {
    const source_code *s;      /* the student's file */
    const source_code *header; /* lab.h, or NULL */
    size_t kernel;             /* the kernel's '{' */
    const long *thread, *block, *dim;
} eval_frame;

static int eval_text(const eval_frame *f, const source_code *in, size_t b, size_t e, size_t before, int depth,
                     long *out);

/* `#define NAME VALUE` in c: VALUE's offsets into *b, *e; 0 when c has none. */
static int define_of(const source_code *c, const char *name, size_t n, size_t *b, size_t *e)
{
    for (size_t k = 0; c && k < c->len; k++) {
        if (c->code[k] != '#' || (k > 0 && c->code[k - 1] != '\n'))
            continue;
        size_t d = code_skip_space(c, k + 1);
        if (!code_word_at(c, d, "define"))
            continue;
        size_t nb = code_skip_space(c, d + 6);
        if (!code_name_at(c, nb, name, n) || c->code[nb + n] == '(')
            continue;
        *b = nb + n;
        *e = code_line_end(c, nb);
        return 1;
    }
    return 0;
}

/* Whether the name (n characters) is stepped (`+=`, `-=`, `++`, ...)
 * anywhere in [b, e): then its last assignment is not its value. */
static int stepped_between(const source_code *s, const char *name, size_t n, size_t b, size_t e)
{
    for (size_t k = b; k + n < e; k++) {
        if (!code_name_at(s, k, name, n))
            continue;
        size_t q = code_skip_space(s, k + n);
        if (q + 1 < s->len && ((strchr("+-*/%<>&|^", s->code[q]) && s->code[q + 1] == '=') ||
                               (s->code[q] == '+' && s->code[q + 1] == '+') ||
                               (s->code[q] == '-' && s->code[q + 1] == '-')))
            return 1;
        if (k >= 2 && ((s->code[k - 1] == '+' && s->code[k - 2] == '+') ||
                       (s->code[k - 1] == '-' && s->code[k - 2] == '-')))
            return 1;
    }
    return 0;
}

/* Whether the assignment at v holds at the use at `use`: it stands in no
 * if or loop, or in one (the same branch of it) that holds the use too. */
static int assignment_reaches(const source_code *s, size_t v, size_t use)
{
    int in_else = 0, use_else = 0;
    size_t t = code_test_around(s, v, &in_else);
    if (t >= s->len)
        return 1;
    for (int depth = 0; depth < 64; depth++) {
        size_t a = code_test_around(s, use, &use_else);
        if (a >= s->len)
            return 0;
        if (a == t)
            return use_else == in_else;
        use = a;
    }
    return 0;
}

/* The value of the name at w (n characters) of text `in`, used at offset
 * before of the student's file (for a name of the file's own kernel). */
static int eval_name(const eval_frame *f, const source_code *in, const char *w, size_t n, size_t before, int depth,
                     long *out)
{
    static const char *const builtins[] = { "threadIdx", "blockIdx", "blockDim" };
    for (int i = 0; i < 3; i++)
        if (strlen(builtins[i]) == n && strncmp(w, builtins[i], n) == 0)
            return -1; /* handled with its member by the caller */
    size_t b = 0, e = 0;
    if (in == f->s && before > f->kernel) {
        size_t v = code_assignment_of(f->s, f->kernel, before, w, n, &e);
        if (v < f->s->len) {
            if (stepped_between(f->s, w, n, e, before) || !assignment_reaches(f->s, v, before))
                return -1; /* stepped since, or set in a branch or loop the use is not in */
            return eval_text(f, f->s, v, e, v, depth + 1, out);
        }
    }
    if (define_of(f->s, w, n, &b, &e))
        return eval_text(f, f->s, b, e, 0, depth + 1, out);
    /* a file-scope `const int NAME = ...;` */
    size_t g = code_kernel_before(f->s, f->kernel);
    size_t v = code_assignment_of(f->s, 0, g < f->s->len ? g : f->kernel, w, n, &e);
    if (v < f->s->len)
        return eval_text(f, f->s, v, e, 0, depth + 1, out);
    if (f->header && define_of(f->header, w, n, &b, &e))
        return eval_text(f, f->header, b, e, 0, depth + 1, out);
    return -1;
}

static int eval_text(const eval_frame *f, const source_code *in, size_t b, size_t e, size_t before, int depth,
                     long *out)
{
    if (depth > EVAL_DEPTH || e <= b)
        return -1;
    strbuf sb;
    sb_init(&sb);
    const char *c = in->code;
    int rc = 0;
    for (size_t k = b; k < e && rc == 0;) {
        char ch = c[k];
        if (ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r') {
            k++;
            continue;
        }
        if (strchr("+-*/%()", ch)) {
            sb_printf(&sb, "%c", ch);
            k++;
            continue;
        }
        if (ch >= '0' && ch <= '9') {
            size_t d = k;
            while (d < e && c[d] >= '0' && c[d] <= '9')
                d++;
            size_t x = d;
            while (x < e && strchr("uUlL", c[x]))
                x++;
            if ((x < e && (source_is_identifier_char(c[x]) || c[x] == '.')) || (c[k] == '0' && d - k > 1)) {
                rc = -1; /* 0x10, 1.5f, 010: not a plain whole number */
                break;
            }
            sb_printf(&sb, "%.*s", (int)(d - k), c + k);
            k = x;
            continue;
        }
        if (!source_is_identifier_char(ch)) {
            rc = -1;
            break;
        }
        size_t we = k;
        while (we < e && source_is_identifier_char(c[we]))
            we++;
        long v = 0;
        size_t dot = code_skip_space(in, we);
        if (dot < e && c[dot] == '.') {
            /* threadIdx.x and its kin */
            size_t m = code_skip_space(in, dot + 1);
            int axis = m < e ? (c[m] == 'x' ? 0 : c[m] == 'y' ? 1 : c[m] == 'z' ? 2 : -1) : -1;
            const long *of = code_name_at(in, k, "threadIdx", 9) ? f->thread
                             : code_name_at(in, k, "blockIdx", 8) ? f->block
                             : code_name_at(in, k, "blockDim", 8) ? f->dim
                                                                  : NULL;
            if (!of || axis < 0 || source_is_identifier_char(c[m + 1])) {
                rc = -1;
                break;
            }
            v = of[axis];
            k = m + 1;
        } else {
            if (eval_name(f, in, c + k, we - k, before, depth, &v) != 0) {
                rc = -1;
                break;
            }
            k = we;
        }
        sb_printf(&sb, "(%ld)", v);
        if (sb.len > EVAL_TEXT_MAX)
            rc = -1;
    }
    char err[96];
    if (rc == 0 && expr_eval(sb.buf, NULL, 0, out, err, sizeof err) != 0)
        rc = -1;
    sb_free(&sb);
    return rc;
}

int source_assignment_range(const char *path, const char *header, int line, const char *name, const long block[3],
                            const long threads[3], long *lo, long *hi)
{
    source_code s, h;
    if (line <= 0 || !source_code_read(&s, path))
        return -1;
    int have_header = header && source_code_read(&h, header);
    size_t n = strlen(name), from = code_line_start(&s, line), to = code_line_end(&s, from);
    size_t e = 0, v = code_assignment_of(&s, from, to, name, n, &e);
    size_t g = v < s.len ? code_kernel_before(&s, v) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int rc = v < s.len && body < s.len && v > body ? 0 : -1;
    long t[3] = { 0, 0, 0 }, dim[3];
    for (int i = 0; i < 3; i++)
        dim[i] = threads[i] > 0 ? threads[i] : 1;
    eval_frame f = { &s, have_header ? &h : NULL, body, t, block, dim };
    int first = 1;
    for (t[2] = 0; rc == 0 && t[2] < dim[2]; t[2]++)
        for (t[1] = 0; rc == 0 && t[1] < dim[1]; t[1]++)
            for (t[0] = 0; rc == 0 && t[0] < dim[0]; t[0]++) {
                long x = 0;
                rc = eval_text(&f, &s, v, e, v, 0, &x);
                if (rc == 0) {
                    *lo = first || x < *lo ? x : *lo;
                    *hi = first || x > *hi ? x : *hi;
                    first = 0;
                }
            }
    if (have_header)
        source_code_free(&h);
    source_code_free(&s);
    return rc;
}

int source_assignment_at(const char *path, const char *header, int line, const char *name, const long block[3],
                         const long thread[3], long *out)
{
    source_code s, h;
    if (line <= 0 || !source_code_read(&s, path))
        return -1;
    int have_header = header && source_code_read(&h, header);
    size_t n = strlen(name), from = code_line_start(&s, line), to = code_line_end(&s, from);
    size_t e = 0, v = code_assignment_of(&s, from, to, name, n, &e);
    size_t g = v < s.len ? code_kernel_before(&s, v) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int rc = -1;
    if (v < s.len && body < s.len && v > body) {
        /* no block size: a value that reads blockDim is unknown */
        eval_frame f = { &s, have_header ? &h : NULL, body, thread, block, NULL };
        rc = eval_text(&f, &s, v, e, v, 0, out);
    }
    if (have_header)
        source_code_free(&h);
    source_code_free(&s);
    return rc;
}

/* The spans of the (at most two) subscripts of the brackets at k into
 * b[], e[]; how many (0 where more than two). */
static int subscript_spans(const source_code *s, size_t k, size_t b[2], size_t e[2])
{
    int n = 0;
    for (size_t q = code_skip_space(s, k); q < s->len && s->code[q] == '['; q = code_skip_space(s, k)) {
        size_t close = code_matching(s, q);
        if (close >= s->len || n == 2)
            return 0;
        b[n] = q + 1;
        e[n++] = close;
        k = close + 1;
    }
    return n;
}

int source_store_subscripts(const char *path, const char *header, int store_line, int decl_line, const long thread[3],
                            long sub[2], long dims[2])
{
    source_code s, h;
    if (store_line <= 0 || decl_line <= 0 || !source_code_read(&s, path))
        return 0;
    int have_header = header && source_code_read(&h, header);
    size_t from = code_line_start(&s, store_line), to = from < s.len ? code_line_end(&s, from) : s.len;
    size_t open = code_store_between(&s, from, to), nn = 0;
    size_t name = open < s.len ? code_word_before(&s, open, &nn) : s.len;
    size_t g = open < s.len ? code_kernel_before(&s, open) : s.len, close = 0;
    size_t kernel = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    long block[3] = { 0, 0, 0 };
    eval_frame f = { &s, have_header ? &h : NULL, kernel, thread, block, NULL };
    size_t sb[2], se[2], db[2], de[2];
    int rank = 0;
    if (name < s.len && kernel < s.len && (rank = subscript_spans(&s, open, sb, se)) > 0) {
        /* the declaration: the name on its line, then its bounds */
        size_t lb = code_line_start(&s, decl_line), le = lb < s.len ? code_line_end(&s, lb) : s.len, at = le;
        for (size_t c = lb; c < le && at == le; c++)
            if (code_name_at(&s, c, s.code + name, nn))
                at = c;
        int drank = at < le ? subscript_spans(&s, at + nn, db, de) : 0;
        for (int i = 0; i < rank && drank == rank; i++)
            if (eval_text(&f, &s, sb[i], se[i], open, 0, &sub[i]) != 0 || eval_text(&f, &s, db[i], de[i], 0, 0, &dims[i]) != 0)
                drank = 0;
        rank = drank == rank ? rank : 0;
    }
    if (have_header)
        source_code_free(&h);
    source_code_free(&s);
    return rank;
}

int source_value_origins(const char *path, int line, const char *name, int *lines, char (*names)[48], int max)
{
    source_code s;
    if (line <= 0 || max <= 0 || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, line);
    size_t g = at < s.len ? code_kernel_before(&s, at) : s.len, close = 0;
    size_t kernel = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int count = 0;
    char want[48];
    snprintf(want, sizeof want, "%s", name);
    while (kernel < s.len && at > kernel && count < max) {
        size_t e = 0, v = code_assignment_of(&s, kernel, at, want, strlen(want), &e);
        if (v >= s.len || stepped_between(&s, want, strlen(want), e, at))
            break;
        lines[count] = code_line_at(&s, v);
        snprintf(names[count++], 48, "%s", want);
        /* the thread's place read there: the origin; else the local name
         * its value takes the thread's place from */
        unsigned own = 0;
        for (size_t k = v; k < e; k++)
            if (code_word_at(&s, k, "threadIdx") || code_word_at(&s, k, "blockIdx"))
                own = 1;
        if (own)
            break;
        size_t next = s.len, nn = 0;
        for (size_t k = v; k < e && next == s.len; k++) {
            if (!code_word_starts(&s, k) || !source_is_identifier_char(s.code[k]) ||
                (s.code[k] >= '0' && s.code[k] <= '9'))
                continue;
            size_t we = code_word_end(&s, k), ve = 0;
            size_t w = code_assignment_of(&s, kernel, v, s.code + k, we - k, &ve);
            if (w < s.len && we - k < sizeof want && code_coordinates(&s, kernel, w, w, ve) != 0) {
                next = k;
                nn = we - k;
            }
            k = we;
        }
        if (next == s.len)
            break;
        snprintf(want, sizeof want, "%.*s", (int)nn, s.code + next);
        at = v;
    }
    source_code_free(&s);
    return count;
}

/* The value of the name whose assignment's value is [v, e) for one
 * thread: 0, or -1 where the text does not tell. */
static int value_for(eval_frame *f, size_t v, size_t e, const long t[3], long *out)
{
    long keep[3] = { t[0], t[1], t[2] };
    f->thread = keep;
    return eval_text(f, f->s, v, e, v, 0, out);
}

int source_index_collapse(const char *path, const char *header, int store_line, const long grid[3],
                          const long threads[3], char *name, size_t name_n, long block[3], long *value, char *axis)
{
    name[0] = '\0';
    source_code s, h;
    if (store_line <= 0 || !source_code_read(&s, path))
        return 0;
    int have_header = header && source_code_read(&h, header);
    size_t from = code_line_start(&s, store_line), to = code_line_end(&s, from);
    size_t open = code_store_between(&s, from, to);
    size_t g = open < s.len ? code_kernel_before(&s, open) : s.len, close = 0;
    size_t kernel = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    long dim[3], t[3] = { 0, 0, 0 };
    for (int i = 0; i < 3; i++)
        dim[i] = threads[i] > 0 ? threads[i] : 1;
    eval_frame f = { &s, have_header ? &h : NULL, kernel, t, block, dim };
    int found = 0;
    /* each name the store's subscripts read, in order */
    size_t end = open < s.len ? code_matching(&s, open) : s.len;
    for (size_t k = open + 1; k < end && kernel < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || !source_is_identifier_char(s.code[k]) || (s.code[k] >= '0' && s.code[k] <= '9'))
            continue;
        size_t we = code_word_end(&s, k), ve = 0;
        size_t v = code_assignment_of(&s, kernel, open, s.code + k, we - k, &ve);
        if (v >= s.len || we - k >= name_n || stepped_between(&s, s.code + k, we - k, ve, open) ||
            !assignment_reaches(&s, v, open)) {
            k = we;
            continue;
        }
        unsigned bits = code_coordinates(&s, kernel, v, v, ve);
        /* each thread axis it reads: the block's threads along it, the
         * others at 0, in the first block and in one inside the grid */
        for (int a = 0; a < 3 && !found; a++) {
            if (!(bits & 1u << a) || dim[a] < 2)
                continue;
            for (int b = 0; b < 2 && !found; b++) {
                for (int i = 0; i < 3; i++)
                    block[i] = b && grid[i] > 1 ? 1 : 0;
                if (b && block[0] == 0 && block[1] == 0 && block[2] == 0)
                    break;
                long first = 0, x = 0;
                int same = 1, known = 1;
                for (t[a] = 0; t[a] < dim[a] && same && known; t[a]++) {
                    known = value_for(&f, v, ve, t, &x) == 0;
                    if (t[a] == 0)
                        first = x;
                    same = x == first;
                }
                t[a] = 0;
                if (known && same) {
                    found = code_line_at(&s, v);
                    snprintf(name, name_n, "%.*s", (int)(we - k), s.code + k);
                    *value = first;
                    *axis = (char)('x' + a);
                }
            }
        }
        k = we;
    }
    if (have_header)
        source_code_free(&h);
    source_code_free(&s);
    return found;
}

/* Whether text[0, len) (in `in`, the student's code or a copy of an
 * operand) is a constant in the kernel whose head starts at g and body at
 * body, used at offset at: see source_constant_text. A `const` local
 * whose initialiser is a constant is one (`const int w = TILE_WIDTH +
 * MASK_WIDTH - 1;`), followed at most EVAL_DEPTH deep. */
static int constant_span(const source_code *s, size_t g, size_t body, size_t at, const char *text, size_t len,
                         int depth)
{
    if (depth > EVAL_DEPTH)
        return 0;
    for (size_t i = 0; i < len;) {
        const char *c = text + i;
        if (*c == '.' || *c == '[' || (*c == '(' && i > 0 && source_is_identifier_char(c[-1])))
            return 0; /* a member, an element, a call: a value of the run */
        if (!source_is_identifier_char(*c)) {
            i++;
            continue;
        }
        size_t n = 0;
        while (i + n < len && source_is_identifier_char(c[n]))
            n++;
        i += n;
        if (*c >= '0' && *c <= '9')
            continue; /* a number (`16`, `16u`) */
        size_t b = 0, e = 0;
        /* a #define of the file, or a name the kernel neither assigns
         * before the use nor takes as a parameter (in its head between
         * `__global__` and its '{': lab.h's macros), is a constant; a name
         * the kernel assigns is one only as a `const` with a constant
         * value */
        if (define_of(s, c, n, &b, &e))
            continue;
        int parameter = 0;
        for (size_t k = g; k < body && !parameter; k++)
            parameter = code_name_at(s, k, c, n);
        if (parameter)
            return 0;
        size_t v = code_assignment_of(s, body, at, c, n, &e);
        if (v >= s->len)
            continue;
        size_t ls = code_line_start(s, code_line_at(s, v));
        int declared_const = 0;
        for (size_t k = ls; k < v && !declared_const; k++)
            declared_const = code_word_at(s, k, "const");
        if (!declared_const || !constant_span(s, g, body, v, s->code + v, e - v, depth + 1))
            return 0;
    }
    return 1;
}

int source_constant_text(const char *path, int line, const char *text)
{
    source_code s;
    if (line <= 0 || !text[0] || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, line);
    size_t g = at < s.len ? code_kernel_before(&s, at) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int constant = body < s.len && at > body && constant_span(&s, g, body, at, text, strlen(text), 0);
    source_code_free(&s);
    return constant;
}

int source_block_step_line(const char *path, const char *header, char axis, long step)
{
    source_code s;
    if (step <= 0 || !source_code_read(&s, path))
        return 0;
    /* the lines of the kernels' code that read blockIdx.<axis> */
    char word[16];
    snprintf(word, sizeof word, "blockIdx.%c", axis);
    int lines[32], n = 0;
    for (const char *p = strstr(s.code, word); p && n < 32; p = strstr(p + 1, word)) {
        int line = code_line_at(&s, (size_t)(p - s.code));
        if (n == 0 || lines[n - 1] != line)
            lines[n++] = line;
    }
    source_code_free(&s);
    const int d = axis == 'x' ? 0 : axis == 'y' ? 1 : 2;
    for (int i = 0; i < n; i++) {
        char name[64];
        if (!source_assigned_at(path, lines[i], name, sizeof name))
            continue;
        long b0[3] = { 0, 0, 0 }, b1[3] = { 0, 0, 0 }, t0[3] = { 0, 0, 0 }, v0, v1;
        b1[d] = 1;
        if (source_assignment_at(path, header, lines[i], name, b0, t0, &v0) == 0 &&
            source_assignment_at(path, header, lines[i], name, b1, t0, &v1) == 0 && v1 - v0 == step)
            return lines[i];
    }
    return 0;
}
