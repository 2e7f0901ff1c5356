/*
 * source_macro.c - an object-like #define whose value needs parentheses:
 * `#define TILE_WIDTH 32 / 2` is pasted as text, so `width / TILE_WIDTH`
 * reads as `width / 32 / 2`, that is (width / 32) / 2, not width / 16.
 * The reader finds, for each such #define, the first use where the
 * operator next to the name regroups the value (C's precedence), and says
 * how C reads it there (source.h).
 */
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C's binary precedence, loosest first; a unary operator (and a cast,
 * sizeof) binds tighter than any, a postfix one ([], (), ., ->, ++)
 * tighter still. */
enum {
    P_NOT_OP = 0, /* not an operator: a name, a ')', a ']' */
    P_COND = 3,   /* ?: */
    P_OR,         /* || */
    P_AND,        /* && */
    P_BOR,        /* | */
    P_XOR,        /* ^ */
    P_BAND,       /* & */
    P_EQ,         /* == != */
    P_REL,        /* < > <= >= */
    P_SHIFT,      /* << >> */
    P_ADD,        /* + - */
    P_MUL,        /* * / % */
    P_UNARY,
    P_POSTFIX,
    P_ENDS = -1 /* ends an expression: = += , ; { and a launch's <<< >>> */
};

/* How a use regroups a value: not at all, only where it rounds (`a * X`
 * for `X` = `b / c`: (a * b) / c, a * (b / c) in real numbers), or so
 * that its value changes. */
enum { REGROUP_NONE, REGROUP_ROUNDING, REGROUP_VALUE };

enum { MAX_OPS = 32, BODY_MAX = 96 };

typedef struct {
    size_t at;    /* the operator's offset in the value's text */
    size_t n;     /* its length */
    int prec;
} body_op;

/* A #define's value as written (spaces collapsed), with its top-level
 * binary operators. */
typedef struct {
    char text[BODY_MAX];
    body_op op[MAX_OPS];
    int nops;
    int loosest; /* the precedence of its loosest top-level operator */
} macro_body;

/* The operator that starts at p: its precedence (P_ENDS, P_NOT_OP), its
 * length into *n. Binary, or postfix; the caller tells a unary + - * &
 * from a binary one by what stands before it. */
static int op_at(const char *p, size_t *n)
{
    static const struct {
        const char *op;
        int prec;
    } ops[] = {
        { "<<<", P_ENDS }, { ">>>", P_ENDS }, { "<<=", P_ENDS }, { ">>=", P_ENDS }, { "<<", P_SHIFT },
        { ">>", P_SHIFT }, { "<=", P_REL }, { ">=", P_REL }, { "==", P_EQ }, { "!=", P_EQ }, { "&&", P_AND },
        { "||", P_OR }, { "->", P_POSTFIX }, { "++", P_POSTFIX }, { "--", P_POSTFIX }, { "+=", P_ENDS },
        { "-=", P_ENDS }, { "*=", P_ENDS }, { "/=", P_ENDS }, { "%=", P_ENDS }, { "&=", P_ENDS }, { "|=", P_ENDS },
        { "^=", P_ENDS }, { "*", P_MUL }, { "/", P_MUL }, { "%", P_MUL }, { "+", P_ADD }, { "-", P_ADD },
        { "<", P_REL }, { ">", P_REL }, { "&", P_BAND }, { "^", P_XOR }, { "|", P_BOR }, { "?", P_COND },
        { ":", P_COND }, { "[", P_POSTFIX }, { "(", P_POSTFIX }, { ".", P_POSTFIX }, { "=", P_ENDS },
        { ",", P_ENDS }, { ";", P_ENDS }, { "{", P_ENDS }, { "#", P_ENDS },
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        size_t len = strlen(ops[i].op);
        if (strncmp(p, ops[i].op, len) == 0) {
            *n = len;
            return ops[i].prec;
        }
    }
    *n = 0;
    return P_NOT_OP;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

static int is_binary(int prec)
{
    return prec >= P_COND && prec <= P_MUL;
}

/* Whether the n characters at w are a word of a type (a cast's `(float)`). */
static int type_word(const char *w, size_t n)
{
    static const char *const more[] = { "char", "signed", "const", "volatile", "bool", "void", "size_t", NULL };
    return code_number_type(w, n) || code_word_in(w, n, more) || (n > 2 && strncmp(w + n - 2, "_t", 2) == 0);
}

/* Whether the n characters at p (inside a pair of parentheses) name a
 * type: words of one and `*`s, nothing else. */
static int names_type(const char *p, size_t n)
{
    int words = 0;
    for (size_t i = 0; i < n;) {
        if (p[i] == ' ' || p[i] == '\t' || p[i] == '\n' || p[i] == '*') {
            i++;
            continue;
        }
        size_t e = i;
        while (e < n && source_is_identifier_char(p[e]))
            e++;
        if (e == i || !type_word(p + i, e - i))
            return 0;
        words++;
        i = e;
    }
    return words > 0;
}

/* The end of the number at p[i] (`32`, `1.5f`, `1e-3`, `0x1Fp+2`). */
static size_t number_end(const char *p, size_t i)
{
    int hex = p[i] == '0' && (p[i + 1] == 'x' || p[i + 1] == 'X');
    while (source_is_identifier_char(p[i]) || p[i] == '.') {
        char c = p[i++];
        int exponent = hex ? (c == 'p' || c == 'P') : (c == 'e' || c == 'E');
        if (exponent && (p[i] == '+' || p[i] == '-'))
            i++;
    }
    return i;
}

/* The ')' or ']' that closes the bracket at p[i] in the '\0'-ended p, or
 * the end of p. */
static size_t closing(const char *p, size_t i)
{
    int depth = 0;
    for (; p[i]; i++) {
        depth += p[i] == '(' || p[i] == '[';
        depth -= p[i] == ')' || p[i] == ']';
        if (depth == 0)
            return i;
    }
    return i;
}

/* Reads the value of a #define into b: its top-level binary operators,
 * outside any parentheses. 0 when it is no expression (a type, a
 * statement, a value with `=` or `,`) or has no such operator (`16`,
 * `(32 / 2)`, `-1`): nothing to regroup. */
static int body_parse(macro_body *b)
{
    const char *p = b->text;
    int operand = 1; /* an operand is expected next, not an operator */
    b->nops = 0;
    b->loosest = P_POSTFIX;
    for (size_t i = 0; p[i];) {
        size_t n;
        int prec;
        if (p[i] == ' ') {
            i++;
        } else if (operand && (source_is_identifier_char(p[i]) || (p[i] == '.' && is_digit(p[i + 1])))) {
            size_t e = is_digit(p[i]) || p[i] == '.' ? number_end(p, i) : i;
            while (source_is_identifier_char(p[e]))
                e++;
            operand = e - i == 6 && strncmp(p + i, "sizeof", 6) == 0; /* sizeof takes an operand after it */
            i = e;
        } else if (operand && p[i] == '(') {
            size_t e = closing(p, i);
            if (!p[e])
                return 0;
            operand = names_type(p + i + 1, e - i - 1); /* a cast: its operand follows */
            i = e + 1;
        } else if (operand && strchr("+-!~*&", p[i])) {
            i += (p[i] == '+' || p[i] == '-') && p[i + 1] == p[i] ? 2 : 1;
        } else if (operand) {
            return 0;
        } else if (is_binary(prec = op_at(p + i, &n))) {
            if (b->nops == MAX_OPS)
                return 0;
            b->op[b->nops++] = (body_op){ i, n, prec };
            if (prec < b->loosest)
                b->loosest = prec;
            operand = 1;
            i += n;
        } else if (prec != P_POSTFIX) {
            return 0;
        } else if (p[i] == '[' || p[i] == '(') {
            /* a subscript, a call: part of the operand */
            i = closing(p, i);
            if (!p[i])
                return 0;
            i++;
        } else if (p[i] == '.' || (p[i] == '-' && p[i + 1] == '>')) {
            for (i += n; p[i] == ' '; i++)
                ;
            while (source_is_identifier_char(p[i]))
                i++;
        } else {
            i += n; /* ++ -- */
        }
    }
    return b->nops > 0 && !operand;
}

/* Whether one of the loosest top-level operators of b is op (one character). */
static int loosest_has(const macro_body *b, char op)
{
    for (int i = 0; i < b->nops; i++)
        if (b->op[i].prec == b->loosest && b->text[b->op[i].at] == op)
            return 1;
    return 0;
}

/* What the operator op (precedence prec) right before the name does to
 * the value: `a op X`. Equal precedence regroups too (C groups left to
 * right), but for an operator after which regrouping keeps the value:
 * a + (b - c) is a + b - c, a * (b * c) is a * b * c, and & ^ | && ||
 * (one operator each level) are associative. */
static int regroup_left(const macro_body *b, const char *op, int prec)
{
    if (prec < b->loosest)
        return REGROUP_NONE;
    if (prec == P_UNARY)
        /* -(a / b) is (-a) / b: the sign goes through a product */
        return (op[0] == '-' || op[0] == '+') && b->loosest == P_MUL ? REGROUP_ROUNDING : REGROUP_VALUE;
    if (prec > b->loosest)
        return REGROUP_VALUE;
    if (op[0] == '+' || prec == P_BAND || prec == P_XOR || prec == P_BOR || prec == P_AND || prec == P_OR)
        return REGROUP_NONE;
    if (op[0] != '*' || loosest_has(b, '%'))
        return REGROUP_VALUE;
    /* a * (b / c) and (a * b) / c differ only in where an integer rounds */
    return loosest_has(b, '/') ? REGROUP_ROUNDING : REGROUP_NONE;
}

/* ---- the use's side of the code ------------------------------------------------ */

/* The '(' or '[' that opens the bracket closing at close, or len. */
static size_t opening(const source_code *s, size_t close)
{
    int depth = 0;
    for (size_t k = close + 1; k-- > 0;) {
        depth += s->code[k] == ')' || s->code[k] == ']';
        depth -= s->code[k] == '(' || s->code[k] == '[';
        if (depth == 0)
            return k;
    }
    return s->len;
}

/* e moved back over spaces, tabs and newlines. */
static size_t space_before(const source_code *s, size_t e)
{
    while (e > 0 && strchr(" \t\r\n\\", s->code[e - 1]))
        e--;
    return e;
}

/* Whether the code before e ends an operand (a name, a number, a ')' or
 * a ']'): then a + - * & at e is binary, else unary. */
static int operand_ends(const source_code *s, size_t e)
{
    static const char *const keywords[] = { "return", "case", "sizeof", "else", "do", NULL };
    e = space_before(s, e);
    if (e == 0)
        return 0;
    char c = s->code[e - 1];
    if (c == ')' || c == ']')
        return 1;
    size_t n = 0, w = code_word_before(s, e, &n);
    return n > 0 && !code_word_in(s->code + w, n, keywords);
}

/* The operand that ends at e (`Width`, `in.pitch`, `f(x)`, `a[i][j]`,
 * `(a + b)`): its start. */
static size_t operand_start(const source_code *s, size_t e)
{
    static const char *const keywords[] = { "return", "case", "sizeof", "else", "do", "if", "while", "for", NULL };
    e = space_before(s, e);
    size_t b = e;
    while (b > 0) {
        char c = s->code[b - 1];
        if (c == ')' || c == ']') {
            size_t o = opening(s, b - 1);
            if (o >= s->len)
                break;
            b = o;
            continue; /* a call's or a subscript's name before it */
        }
        if (!source_is_identifier_char(c) && !(c == '.' && b > 1 && source_is_identifier_char(s->code[b - 2])))
            break;
        size_t w = b;
        while (w > 0 && (source_is_identifier_char(s->code[w - 1]) || s->code[w - 1] == '.'))
            w--;
        if (code_word_in(s->code + w, b - w, keywords))
            break;
        b = w;
        if (b >= 2 && s->code[b - 1] == '>' && s->code[b - 2] == '-')
            b -= 2;
        else
            break;
    }
    return b;
}

/* The operand that starts at k (after a binary operator): unary
 * operators, a name, a number or a bracket, and its subscripts, calls
 * and members: its end. */
static size_t operand_end(const source_code *s, size_t k)
{
    const char *code = s->code;
    k = code_skip_space(s, k);
    while (k < s->len && strchr("+-!~*&", code[k]))
        k = code_skip_space(s, k + 1);
    if (k < s->len && (code[k] == '(' || code[k] == '['))
        k = code_matching(s, k) + 1;
    else if (k < s->len && is_digit(code[k]))
        k = number_end(code, k);
    else
        k = code_word_end(s, k);
    for (;;) {
        size_t q = code_skip_space(s, k);
        if (q < s->len && (code[q] == '[' || code[q] == '('))
            k = code_matching(s, q) + 1;
        else if (q < s->len && (code[q] == '.' || (code[q] == '-' && code[q + 1] == '>')))
            k = code_word_end(s, code_skip_space(s, q + (code[q] == '.' ? 1 : 2)));
        else
            return k < s->len ? k : s->len;
    }
}

/* ---- writing what C makes of it -------------------------------------------------- */

typedef struct {
    char *out;
    size_t size, n;
    int full; /* something did not fit */
} text_out;

/* Adds the n characters at p, spaces, tabs, newlines and line
 * continuations collapsed into one space. */
static void put(text_out *t, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = strchr(" \t\r\n\\", p[i]) ? ' ' : p[i];
        if (c == ' ' && (t->n == 0 || t->out[t->n - 1] == ' ' || t->out[t->n - 1] == '('))
            continue;
        if (t->n + 1 >= t->size) {
            t->full = 1;
            return;
        }
        t->out[t->n++] = c;
    }
    t->out[t->n] = '\0';
}

static void put_str(text_out *t, const char *p)
{
    put(t, p, strlen(p));
}

/* Ends the text: trailing space off; 0 when it did not fit. */
static int done(text_out *t)
{
    while (t->n > 0 && t->out[t->n - 1] == ' ')
        t->n--;
    t->out[t->n] = '\0';
    return !t->full;
}

/* The top-level operator of b that a neighbour of precedence prec takes
 * its operand up to: on the left (`a op X`), the first one that binds no
 * tighter than op (a unary one: the first of all); on the right (`X op
 * a`), the last one that binds looser than it. */
static const body_op *split_at(const macro_body *b, int prec, int left)
{
    const body_op *at = NULL;
    for (int i = 0; i < b->nops; i++) {
        if (left && b->op[i].prec <= prec)
            return &b->op[i];
        if (!left && b->op[i].prec < prec)
            at = &b->op[i];
    }
    return at;
}

/* Adds [from, to) of the code with every use of the name at k (n
 * characters) in it pasted as b's text: what the compiler sees. */
static void put_pasted(text_out *t, const source_code *s, size_t from, size_t to, size_t k, size_t n,
                       const macro_body *b)
{
    size_t done_to = from;
    for (size_t u = from; u + n <= to; u++) {
        if (!code_name_at(s, u, s->code + k, n))
            continue;
        put(t, s->code + done_to, u - done_to);
        put_str(t, b->text);
        done_to = u + n;
    }
    put(t, s->code + done_to, to - done_to);
}

/* Whether [from, to) of the code holds the name at k (n characters)
 * anywhere but at k. */
static int names_again(const source_code *s, size_t from, size_t to, size_t k, size_t n)
{
    for (size_t u = from; u + n <= to; u++)
        if (u != k && code_name_at(s, u, s->code + k, n))
            return 1;
    return 0;
}

/* Writes the use [from, to) of the name at [k, k + n) into m: as
 * written, pasted, and grouped as C groups it, the neighbour taking its
 * operand from the value in brackets (left: the neighbour before the
 * name, of precedence prec). The grouping is left "" where the neighbour
 * itself holds the name (pasted too, it groups further). 0 when the text
 * does not fit. */
static int write_use(const source_code *s, const macro_body *b, size_t from, size_t to, size_t k, size_t n, int prec,
                     int left, source_macro_use *m)
{
    const char *code = s->code;
    text_out use = { m->use, sizeof m->use, 0, 0 }, pasted = { m->pasted, sizeof m->pasted, 0, 0 },
             grouped = { m->grouped, sizeof m->grouped, 0, 0 };
    put(&use, code + from, to - from);
    put_pasted(&pasted, s, from, to, k, n, b);
    const body_op *at = split_at(b, prec, left);
    if (!at)
        return 0;
    if (names_again(s, from, to, k, n)) {
        ; /* the neighbour holds the name too: its own paste groups further */
    } else if (left) {
        put_str(&grouped, "(");
        put(&grouped, code + from, k - from);
        put(&grouped, b->text, at->at);
        done(&grouped);
        put_str(&grouped, ") ");
        put_str(&grouped, b->text + at->at);
    } else {
        put(&grouped, b->text, at->at + at->n);
        put_str(&grouped, " (");
        put_str(&grouped, b->text + at->at + at->n);
        put(&grouped, code + k + n, to - k - n);
        done(&grouped);
        put_str(&grouped, ")");
    }
    int ok = done(&use);
    ok &= done(&pasted);
    return ok & done(&grouped);
}

/* The operator right before the name at k: its offset into *on, its
 * precedence (P_UNARY for a unary one, a cast, sizeof; P_NOT_OP where
 * none stands there: a '(', a name, a keyword). */
static int op_before(const source_code *s, size_t k, size_t *on)
{
    const char *code = s->code;
    size_t e = space_before(s, k), len, w;
    /* its longest reading: `<<` before `<`, `<<<` before `<<` */
    for (size_t l = 3; l > 0; l--) {
        if (e < l || op_at(code + e - l, &len) == P_NOT_OP || len != l)
            continue;
        int prec = op_at(code + e - l, &len);
        *on = e - l;
        if (len == 1 && strchr("+-*&", code[*on]) && !operand_ends(s, *on))
            return P_UNARY;
        return prec == P_POSTFIX ? P_NOT_OP : prec; /* `(X`, `[X`, `.X`: no operator of the value's */
    }
    if (e > 0 && (code[e - 1] == '!' || code[e - 1] == '~')) {
        *on = e - 1;
        return P_UNARY;
    }
    if (e > 0 && code[e - 1] == ')') {
        /* a cast: `(float)X` */
        size_t o = opening(s, e - 1);
        *on = o;
        return o < s->len && names_type(code + o + 1, e - 2 - o) ? P_UNARY : P_NOT_OP;
    }
    w = code_word_before(s, e, &len);
    *on = w;
    return len == 6 && strncmp(code + w, "sizeof", 6) == 0 ? P_UNARY : P_NOT_OP;
}

/* The end of what the postfix operator at q (`[`, `(`, `.`, `->`, `++`)
 * takes after the name. */
static size_t postfix_end(const source_code *s, size_t q, size_t len)
{
    if (s->code[q] == '[' || s->code[q] == '(')
        return code_matching(s, q) + 1;
    if (s->code[q] == '.' || s->code[q + 1] == '>')
        return code_word_end(s, code_skip_space(s, q + len));
    return q + len;
}

/* What the use of the name at k (n characters) does to the value b: the
 * operator before it, else the one after it (REGROUP_*). Writes the use
 * into m where it regroups. */
static int use_regroups(const source_code *s, const macro_body *b, size_t k, size_t n, source_macro_use *m)
{
    const char *code = s->code;
    size_t on = 0, len = 0;
    int prec = op_before(s, k, &on);
    /* `c ? X : d` takes X whole, and so does `c ? d : X` (the value's
     * loosest can be no looser than ?:) */
    if (prec == P_UNARY || (is_binary(prec) && prec != P_COND)) {
        int how = regroup_left(b, code + on, prec);
        size_t from = prec == P_UNARY ? on : operand_start(s, on);
        if (how != REGROUP_NONE && write_use(s, b, from, k + n, k, n, prec, 1, m))
            return how;
    }
    /* the operator after: regroups where it binds tighter than the value's loosest */
    size_t q = code_skip_space(s, k + n);
    prec = q < s->len ? op_at(code + q, &len) : P_NOT_OP;
    if (prec <= b->loosest || prec == P_COND)
        return REGROUP_NONE;
    size_t to = prec == P_POSTFIX ? postfix_end(s, q, len) : operand_end(s, q + len);
    if (to > s->len)
        return REGROUP_NONE;
    return write_use(s, b, k, to, k, n, prec, 0, m) ? REGROUP_VALUE : REGROUP_NONE;
}

/* ---- the #defines -------------------------------------------------------------- */

/* Whether the line that starts at k is the directive `# word` (spaces
 * allowed around the '#'): the offset after word, else 0. */
static size_t directive_at(const source_code *s, size_t k, const char *word)
{
    while (k < s->len && (s->code[k] == ' ' || s->code[k] == '\t'))
        k++;
    if (k >= s->len || s->code[k] != '#')
        return 0;
    for (k++; k < s->len && (s->code[k] == ' ' || s->code[k] == '\t'); k++)
        ;
    return code_word_at(s, k, word) ? k + strlen(word) : 0;
}

/* The end of the directive whose text starts at k: its line's newline,
 * past any line continued with a backslash. */
static size_t directive_end(const source_code *s, size_t k)
{
    for (;;) {
        size_t e = code_line_end(s, k);
        size_t b = code_blank_before(s, e);
        if (e >= s->len || b == 0 || s->code[b - 1] != '\\')
            return e;
        k = e + 1;
    }
}

/* The name a directive at line start k names (`#define NAME`, `#undef
 * NAME`): its offset, *n its length (0 when none). */
static size_t directive_name(const source_code *s, size_t k, const char *word, size_t *n)
{
    size_t at = directive_at(s, k, word);
    *n = 0;
    if (!at)
        return 0;
    while (at < s->len && (s->code[at] == ' ' || s->code[at] == '\t'))
        at++;
    *n = code_word_starts(s, at) ? code_word_end(s, at) - at : 0;
    return at;
}

int source_object_defines(const char *text, size_t len, source_define *d, int max)
{
    source_code s;
    source_code_of_text(&s, text, len);
    int n = 0;
    for (size_t line = 0; line < s.len && n < max; line = code_line_end(&s, line) + 1) {
        size_t m, k = directive_name(&s, line, "define", &m);
        /* object-like only ('(' right after the name makes it a function's),
         * and on one line: a value continued with a backslash is not one
         * value a line can be given back */
        if (!m || m >= sizeof d->name || (k + m < s.len && s.code[k + m] == '('))
            continue;
        size_t e = code_line_end(&s, line), end = directive_end(&s, k);
        if (end != e)
            continue;
        size_t v = k + m, ve = code_blank_before(&s, e);
        while (v < ve && (s.code[v] == ' ' || s.code[v] == '\t'))
            v++;
        while (ve > v && (s.code[ve - 1] == '\r' || s.code[ve - 1] == ' ' || s.code[ve - 1] == '\t'))
            ve--;
        if (v == ve)
            continue;
        d[n] = (source_define){ code_line_at(&s, line), line, e, v, ve, "" };
        memcpy(d[n].name, s.code + k, m);
        d[n].name[m] = 0;
        n++;
    }
    source_code_free(&s);
    return n;
}

/* Where the #define of the name at k (n characters) stops holding: the
 * next line that undefines it or defines it again, else the end. */
static size_t macro_scope_end(const source_code *s, size_t k, size_t n)
{
    for (size_t line = code_line_end(s, k); line < s->len; line = code_line_end(s, line + 1)) {
        size_t m, at = directive_name(s, line + 1, "undef", &m);
        if (!m)
            at = directive_name(s, line + 1, "define", &m);
        if (m == n && strncmp(s->code + at, s->code + k, n) == 0)
            return line + 1;
    }
    return s->len;
}

/* The first use of the #define whose name is at k (n characters, value b,
 * ending at end) that regroups its value: how it does (REGROUP_*), the
 * use in m. A use that changes the value wins over one that only rounds
 * differently. */
static int macro_first_use(const source_code *s, const macro_body *b, size_t k, size_t n, size_t end,
                           source_macro_use *m)
{
    source_macro_use found = *m, here = *m;
    int best = REGROUP_NONE;
    size_t stop = macro_scope_end(s, k, n);
    for (size_t u = end; u < stop; u++) {
        if (!code_name_at(s, u, s->code + k, n))
            continue;
        int how = use_regroups(s, b, u, n, &here);
        if (how == REGROUP_NONE)
            continue;
        here.use_line = code_line_at(s, u);
        if (how > best) {
            found = here;
            found.other_line = 0;
            best = how;
        } else if (how == best && !found.other_line && here.use_line != found.use_line) {
            found.other_line = here.use_line;
        }
        u += n - 1;
    }
    *m = found;
    return best;
}

int source_macro_regrouped(const char *path, source_macro_use *m)
{
    source_code s;
    memset(m, 0, sizeof *m);
    if (!source_code_read(&s, path))
        return 0;
    int best = REGROUP_NONE, found = 0;
    for (size_t line = 0; line < s.len && best < REGROUP_VALUE; line = code_line_end(&s, line) + 1) {
        size_t n, k = directive_name(&s, line, "define", &n);
        /* object-like only: a '(' right after the name makes it a function's */
        if (!n || n >= sizeof m->name || (k + n < s.len && s.code[k + n] == '('))
            continue;
        size_t end = directive_end(&s, k);
        macro_body b = { .nops = 0 };
        text_out t = { b.text, sizeof b.text, 0, 0 };
        put(&t, s.code + k + n, end - k - n);
        if (!done(&t) || !body_parse(&b))
            continue;
        source_macro_use here = { .use_line = 0 };
        int how = macro_first_use(&s, &b, k, n, end, &here);
        if (how <= best)
            continue;
        best = how;
        *m = here;
        snprintf(m->name, sizeof m->name, "%.*s", (int)n, s.code + k);
        snprintf(m->body, sizeof m->body, "%s", b.text);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

/* ---- a function-like #define's parameters ---------------------------------------- *
 *
 * `#define IDX(r, c) r * Width + c` pastes each argument as text in place
 * of its parameter: `IDX(ph * TILE_WIDTH + ty, Col)` reads as `ph *
 * TILE_WIDTH + ty * Width + Col`, the `* Width` taking `ty` alone. An
 * argument regroups where its loosest operator binds looser than an
 * operator beside its parameter in the body. */

enum { MACRO_PARAMS = 8, PARAM_MAX = 32 };

/* The precedence of the binary operator that ends just before offset e of
 * t (spaces skipped), or P_NOT_OP (an opening bracket, a comma, the start). */
static int op_ending_at(const char *t, size_t e)
{
    while (e > 0 && t[e - 1] == ' ')
        e--;
    for (size_t len = 2; len >= 1; len--) {
        size_t n;
        if (e < len)
            continue;
        int prec = op_at(t + e - len, &n);
        if (n == len && is_binary(prec)) {
            /* a unary + - * & (after another operator or a bracket) binds tighter than any */
            size_t b = e - len;
            while (b > 0 && t[b - 1] == ' ')
                b--;
            if (len == 1 && strchr("+-*&", t[e - 1]) && (b == 0 || strchr("([,=+-*/%<>&|^!~?:", t[b - 1])))
                return P_UNARY;
            return prec;
        }
    }
    return P_NOT_OP;
}

/* The tightest binary operator beside any bare use of the parameter p
 * (plen characters) in the body t: P_NOT_OP where every use stands in
 * its own parentheses or alone. */
static int tightest_beside(const char *t, const char *p, size_t plen)
{
    int tight = P_NOT_OP;
    for (size_t i = 0; t[i]; i++) {
        if (strncmp(t + i, p, plen) != 0 || (i > 0 && source_is_identifier_char(t[i - 1])) ||
            source_is_identifier_char(t[i + plen]))
            continue;
        int before = op_ending_at(t, i);
        size_t a = i + plen, n;
        while (t[a] == ' ')
            a++;
        int after = op_at(t + a, &n);
        if (!is_binary(after))
            after = P_NOT_OP;
        if (before > tight && before != P_UNARY)
            tight = before;
        if (before == P_UNARY)
            tight = P_UNARY;
        if (after > tight)
            tight = after;
        i += plen - 1;
    }
    return tight;
}

/* The macro's parameters: the names inside the parentheses at code[k]
 * (its '('), each at most PARAM_MAX - 1 characters; how many, or -1 when
 * they are no such list (`...`, a name too long). *close: the ')'. */
static int macro_params(const source_code *s, size_t k, char (*params)[PARAM_MAX], size_t *close)
{
    int n = 0;
    size_t i = k + 1;
    for (;;) {
        while (i < s->len && (s->code[i] == ' ' || s->code[i] == '\t'))
            i++;
        if (i < s->len && s->code[i] == ')' && n == 0) {
            *close = i;
            return 0;
        }
        size_t e = i;
        while (e < s->len && source_is_identifier_char(s->code[e]))
            e++;
        if (e == i || e - i >= PARAM_MAX || n == MACRO_PARAMS)
            return -1;
        snprintf(params[n++], PARAM_MAX, "%.*s", (int)(e - i), s->code + i);
        while (e < s->len && (s->code[e] == ' ' || s->code[e] == '\t'))
            e++;
        if (e < s->len && s->code[e] == ')') {
            *close = e;
            return n;
        }
        if (e >= s->len || s->code[e] != ',')
            return -1;
        i = e + 1;
    }
}

/* The arguments of the use whose '(' is at code[k]: their offsets and
 * ends (top-level commas); how many, or -1 (unclosed, too many). */
static int use_arguments(const source_code *s, size_t k, size_t *b, size_t *e, int max)
{
    int n = 0, depth = 0;
    size_t start = k + 1;
    for (size_t i = k; i < s->len; i++) {
        char c = s->code[i];
        if (c == '(' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == ']' || c == '}')
            depth--;
        if ((depth == 1 && c == ',') || depth == 0) {
            if (n == max)
                return -1;
            b[n] = start, e[n++] = i;
            start = i + 1;
            if (depth == 0)
                return n;
        }
    }
    return -1;
}

/* Into out (n bytes): the body t with each parameter replaced by its
 * argument as written, wrap 1: inside parentheses. */
static void expand(const char *t, char (*params)[PARAM_MAX], int np, const char *const *args, int wrap, char *out,
                   size_t n)
{
    size_t o = 0;
    for (size_t i = 0; t[i] && o + 1 < n;) {
        int which = -1;
        for (int p = 0; p < np && which < 0; p++) {
            size_t pl = strlen(params[p]);
            if (!strncmp(t + i, params[p], pl) && !(i > 0 && source_is_identifier_char(t[i - 1])) &&
                !source_is_identifier_char(t[i + pl]))
                which = p;
        }
        if (which < 0) {
            out[o++] = t[i++];
            continue;
        }
        /* (a use already in its own parentheses, `(img).height`, keeps them) */
        size_t pl = strlen(params[which]), a = i + pl, b = i;
        while (t[a] == ' ')
            a++;
        while (b > 0 && t[b - 1] == ' ')
            b--;
        int bare = !(b > 0 && t[b - 1] == '(' && t[a] == ')');
        o += (size_t)snprintf(out + o, n - o, wrap && bare ? "(%s)" : "%s", args[which]);
        if (o >= n)
            o = n - 1;
        i += strlen(params[which]);
    }
    out[o] = 0;
}

/* src into dst (n bytes), cut to fit. */
static void copy_text(char *dst, size_t n, const char *src)
{
    size_t len = strlen(src);
    if (len >= n)
        len = n - 1;
    memcpy(dst, src, len);
    dst[len] = 0;
}

int source_macro_argument_regrouped(const char *path, source_macro_arg *m)
{
    source_code s;
    memset(m, 0, sizeof *m);
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t line = 0; line < s.len && !found; line = code_line_end(&s, line) + 1) {
        size_t n, k = directive_name(&s, line, "define", &n);
        /* function-like only: a '(' right after the name */
        if (!n || n >= sizeof m->name || k + n >= s.len || s.code[k + n] != '(')
            continue;
        char params[MACRO_PARAMS][PARAM_MAX];
        size_t close;
        int np = macro_params(&s, k + n, params, &close);
        if (np <= 0)
            continue;
        size_t end = directive_end(&s, k);
        char body[BODY_MAX];
        text_out t = { body, sizeof body, 0, 0 };
        put(&t, s.code + close + 1, end - close - 1);
        if (!done(&t))
            continue;
        int tight[MACRO_PARAMS];
        for (int p = 0; p < np; p++)
            tight[p] = tightest_beside(body, params[p], strlen(params[p]));
        size_t stop = macro_scope_end(&s, k, n);
        for (size_t u = end; u < stop && !found; u++) {
            if (!code_name_at(&s, u, s.code + k, n))
                continue;
            size_t q = code_skip_space(&s, u + n);
            size_t ab[MACRO_PARAMS], ae[MACRO_PARAMS];
            int na = q < s.len && s.code[q] == '(' ? use_arguments(&s, q, ab, ae, MACRO_PARAMS) : -1;
            if (na != np)
                continue;
            char args[MACRO_PARAMS][BODY_MAX];
            const char *argp[MACRO_PARAMS];
            for (int a = 0; a < na; a++) {
                text_out at = { args[a], sizeof args[a], 0, 0 };
                put(&at, s.code + ab[a], ae[a] - ab[a]);
                if (!done(&at))
                    args[a][0] = 0;
                argp[a] = args[a];
            }
            /* the body as a whole, against the operators around the use
             * (`!IN_IMAGE(...)`: the `!` takes the body's first operand) */
            macro_body whole = { .nops = 0 };
            copy_text(whole.text, sizeof whole.text, body);
            if (body_parse(&whole)) {
                size_t before = code_blank_before(&s, u), after = code_skip_space(&s, ae[na - 1] + 1);
                int left = P_NOT_OP, right = P_NOT_OP;
                size_t on;
                if (before > 0 && strchr("!~", s.code[before - 1]))
                    left = P_UNARY;
                else if (before > 0)
                    left = op_ending_at(s.code, before) == P_UNARY ? P_UNARY : op_ending_at(s.code, before);
                if (after < s.len && is_binary(op_at(s.code + after, &on)))
                    right = op_at(s.code + after, &on);
                int outer = left > right ? left : right;
                if (outer > whole.loosest && outer != P_NOT_OP) {
                    found = code_line_at(&s, k);
                    m->use_line = code_line_at(&s, u);
                    m->whole = 1;
                    snprintf(m->name, sizeof m->name, "%.*s", (int)n, s.code + k);
                    size_t from = left != P_NOT_OP && before > 0 ? before - 1 : u;
                    while (left != P_NOT_OP && from > 0 && s.code[from - 1] != ' ' && strchr("!~-+*&<>=|^%/", s.code[from - 1]))
                        from--;
                    size_t to = right != P_NOT_OP ? code_word_end(&s, code_skip_space(&s, after + on)) : ae[na - 1] + 1;
                    char use[256];
                    text_out ut = { use, sizeof use, 0, 0 };
                    put(&ut, s.code + from, to - from);
                    copy_text(m->use, sizeof m->use, done(&ut) ? use : m->name);
                    char expanded[256];
                    expand(body, params, np, argp, 0, expanded, sizeof expanded);
                    char *pasted = xasprintf("%.*s%s%.*s", (int)(u - from), s.code + from, expanded,
                                             (int)(to - (ae[na - 1] + 1)), s.code + ae[na - 1] + 1);
                    text_out pt = { m->pasted, sizeof m->pasted, 0, 0 };
                    put_str(&pt, pasted);
                    done(&pt);
                    free(pasted);
                    char names[MACRO_PARAMS][PARAM_MAX + 2];
                    const char *wrapped[MACRO_PARAMS];
                    for (int p = 0; p < np; p++) {
                        snprintf(names[p], sizeof names[p], "%s", params[p]);
                        wrapped[p] = names[p];
                    }
                    char inner[192];
                    expand(body, params, np, wrapped, 1, inner, sizeof inner);
                    char list[160] = "";
                    for (int p = 0; p < np; p++)
                        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", p ? ", " : "", params[p]);
                    char *fixed = xasprintf("#define %s(%s) (%s)", m->name, list, inner);
                    copy_text(m->fixed, sizeof m->fixed, fixed);
                    free(fixed);
                }
            }
            for (int a = 0; a < na && !found; a++) {
                macro_body b = { .nops = 0 };
                copy_text(b.text, sizeof b.text, args[a]);
                if (!args[a][0] || !body_parse(&b) || tight[a] == P_NOT_OP || b.loosest >= tight[a])
                    continue;
                found = code_line_at(&s, k);
                m->use_line = code_line_at(&s, u);
                snprintf(m->name, sizeof m->name, "%.*s", (int)n, s.code + k);
                snprintf(m->param, sizeof m->param, "%s", params[a]);
                copy_text(m->arg, sizeof m->arg, args[a]);
                char use[256];
                text_out ut = { use, sizeof use, 0, 0 };
                put(&ut, s.code + u, ae[na - 1] + 1 - u);
                snprintf(m->use, sizeof m->use, "%s", done(&ut) ? use : m->name);
                expand(body, params, np, argp, 0, m->pasted, sizeof m->pasted);
                /* the body with each parameter in parentheses, and the whole too */
                char names[MACRO_PARAMS][PARAM_MAX + 2];
                const char *wrapped[MACRO_PARAMS];
                for (int p = 0; p < np; p++) {
                    snprintf(names[p], sizeof names[p], "%s", params[p]);
                    wrapped[p] = names[p];
                }
                char inner[192];
                expand(body, params, np, wrapped, 1, inner, sizeof inner);
                char list[160] = "";
                for (int p = 0; p < np; p++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", p ? ", " : "", params[p]);
                char *fixed = xasprintf("#define %s(%s) (%s)", m->name, list, inner);
                copy_text(m->fixed, sizeof m->fixed, fixed);
                free(fixed);
            }
        }
    }
    source_code_free(&s);
    return found;
}
