/*
 * schemata.c - emucc --schemata: the student's source rewritten into a
 * MUTANT SCHEMATA program, one compile that holds many candidate single
 * edits of it, candidate k live only while gpulab_emu_mutant == k
 * (emu_schemata.h; 0, none live, unless GPULAB_EMU_MUTANT says otherwise).
 * A single mistake is almost always one local edit away from a right
 * program: the candidate that makes every dataset right locates it, from
 * evidence, whatever the mistake is (mutation-based fault localisation).
 *
 * The edits are generic, drawn from the source's own tokens, never a list
 * of known mistakes (docs/emulator.md lists them): in function bodies, a
 * value replaced by another of the same kind in scope (a variable by one
 * of its declared type, a built-in index by another, an integer literal by
 * its neighbours), a binary operator by its neighbours or by one of its
 * operands, && for || and back, two arguments of a call swapped, a
 * statement dropped, a barrier or an initialiser added.
 *
 * Every edit is placed so that, with no candidate live, the program is the
 * unedited one: a replaced value is `(m == k ? (decltype(v))(w) : v)`, an
 * operator a call of emu_schemata.h's helper that computes the operator
 * itself, each operand written (and evaluated) once; only an atom (a name,
 * a literal, a built-in index) or a single-line argument is ever written
 * twice. Lines stay where they were; nothing is edited inside a
 * declaration's array bounds, a constant's initialiser, a case label or a
 * template's arguments, where a constant expression is needed. Where the
 * parser does not follow a statement, the statement gets no edit.
 */
#define _GNU_SOURCE
#include "rewrite.h"
#include "rewrite_int.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- what a value is, as far as the tokens tell --------------------------- */
enum vk { V_UNKNOWN, V_INT, V_FLOAT, V_PTR, V_BOOL, V_OTHER };

/* A name in scope: its spelling, the key of its declared type ("int",
 * "const float *"; with '[' an array, '#' a name never substituted), the
 * kind of value, and whether it is a macro's (a file-scope constant). */
typedef struct {
    const char *name;
    size_t len;
    char key[64];
    int vk;
    int depth; /* block depth of its declaration; 0: the file */
    int shared;
    int constant; /* a const local whose value is a constant expression */
} sym;

/* A candidate edit: one id of FILE.json. */
typedef struct {
    const char *kind;
    char *from, *to;
    int id;
    int origin;    /* its group (an edit of two arguments: the first one's) */
    int alt;       /* its place in that group */
    int dead;
} cand;

/* A group: one place in the source and the candidates placed there. */
enum gk { G_DROP, G_ARG, G_ATOM, G_BIN, G_LOGIC, G_SYNC, G_INIT };
#define MAX_ALTS 12
typedef struct {
    int kind;
    size_t bb, be;       /* the source bytes it renders, [bb, be) (bb == be: an insertion) */
    size_t tb, te;       /* its tokens [tb, te) */
    size_t op, ope;      /* G_BIN, G_LOGIC: the operator's tokens [op, ope) */
    const char *helper;  /* G_BIN: emu_schemata.h's function; G_LOGIC: "and", "or" */
    int nalts;
    int cand[MAX_ALTS];  /* its candidates */
    char *alt[MAX_ALTS]; /* G_ATOM: the replacing text */
    int other[MAX_ALTS]; /* G_ARG: the group of the argument it takes instead */
    char *text;          /* G_SYNC, G_INIT: the statement inserted (with %d for the id) */
    int priority;        /* 0 kernels and device functions, 1 host code that copies or launches, 2 other */
    int line;
    size_t ctx_b, ctx_e; /* the statement or condition, tokens [ctx_b, ctx_e) */
    /* rendering: the groups inside it, in source order */
    int *kids;
    size_t nkids;
} group;

typedef struct {
    rw r;
    sym *syms;
    size_t nsyms, capsyms;
    group *g;
    size_t ng, capg;
    cand *c;
    size_t nc, capc;
    int depth;
    int in_kernel;    /* the function is __global__ or __device__ */
    int loop_depth;   /* loops around the statement, in this function */
    size_t ctx_b, ctx_e;
    int bail;         /* the statement holds what the parser does not follow */
    int host_cuda;    /* the host statement calls cuda* or launches */
    int components;   /* built-in components the file uses: 1 x, 2 y, 4 z */
    /* names of types the file declares (struct, typedef) */
    size_t types[256];
    size_t ntypes;
    int *line_of;     /* each token's line (#line directives honoured) */
} sc;

static const char *tk(const sc *s, size_t k) { return s->r.src + s->r.t[k].b; }
static size_t tl(const sc *s, size_t k) { return s->r.t[k].e - s->r.t[k].b; }
static int ident(const sc *s, size_t k) { return k < s->r.nt && s->r.t[k].kind == T_IDENT; }
static int same(const sc *s, size_t a, size_t b)
{
    return tl(s, a) == tl(s, b) && memcmp(tk(s, a), tk(s, b), tl(s, a)) == 0;
}
static int at(const sc *s, size_t k, const char *text) { return is(&s->r, k, text); }

/* The operator at token k, joining touching punctuators ("<" "=" is <=);
 * its token count in *n. NULL when none. */
static const char *op_at(const sc *s, size_t k, size_t *n)
{
    static const char *const ops[] = { "<<=", ">>=", "<=", ">=", "==", "!=", "&&", "||", "++", "--", "+=", "-=",
                                       "*=",  "/=",  "%=", "&=", "|=", "^=", "<<", ">>", NULL };
    if (k >= s->r.nt || s->r.t[k].kind != T_PUNCT)
        return NULL;
    for (int i = 0; ops[i]; i++) {
        size_t l = strlen(ops[i]), j = 0;
        while (j < l && k + j < s->r.nt && s->r.t[k + j].kind == T_PUNCT && tl(s, k + j) == 1 &&
               *tk(s, k + j) == ops[i][j] && (j == 0 || s->r.t[k + j - 1].e == s->r.t[k + j].b))
            j++;
        if (j == l) {
            *n = l;
            return ops[i];
        }
    }
    *n = 1;
    static char one[128][2];
    unsigned char c = (unsigned char)*tk(s, k);
    if (tl(s, k) != 1 || c >= 128)
        return NULL;
    one[c][0] = (char)c;
    return one[c];
}

/* The token after the bracket that closes the one at k. */
static size_t after(const sc *s, size_t k)
{
    return closing(&s->r, k) + 1;
}

static char *span_text(const sc *s, size_t tb, size_t te)
{
    /* the tokens' text with each run of blanks one space */
    size_t b = s->r.t[tb].b, e = s->r.t[te - 1].e;
    char *out = malloc(e - b + 1);
    if (!out)
        die("out of memory");
    size_t o = 0;
    for (size_t k = tb; k < te; k++) {
        if (k > tb && s->r.t[k].b > s->r.t[k - 1].e)
            out[o++] = ' ';
        memcpy(out + o, tk(s, k), tl(s, k));
        o += tl(s, k);
    }
    out[o] = 0;
    return out;
}

/* The source bytes of tokens [tb, te) hold no line break (text written twice must not move a line). */
static int one_line(const sc *s, size_t tb, size_t te)
{
    return !memchr(s->r.src + s->r.t[tb].b, '\n', s->r.t[te - 1].e - s->r.t[tb].b);
}

/* ---- names in scope ---------------------------------------------------- */
static void add_sym_text(sc *s, const char *name, size_t len, const char *key, int vk)
{
    if (s->nsyms == s->capsyms) {
        s->capsyms = s->capsyms ? s->capsyms * 2 : 128;
        s->syms = xrealloc(s->syms, s->capsyms * sizeof *s->syms);
    }
    sym *y = &s->syms[s->nsyms++];
    y->name = name;
    y->len = len;
    snprintf(y->key, sizeof y->key, "%s", key);
    y->vk = vk;
    y->depth = s->depth;
    y->shared = 0;
    y->constant = 0;
}

static sym *add_sym(sc *s, size_t tok, const char *key, int vk)
{
    add_sym_text(s, tk(s, tok), tl(s, tok), key, vk);
    return &s->syms[s->nsyms - 1];
}

static void pop_scope(sc *s)
{
    while (s->nsyms > 0 && s->syms[s->nsyms - 1].depth > s->depth)
        s->nsyms--;
}

static sym *lookup_text(sc *s, const char *name, size_t len)
{
    for (size_t i = s->nsyms; i-- > 0;)
        if (s->syms[i].len == len && memcmp(s->syms[i].name, name, len) == 0)
            return &s->syms[i];
    return NULL;
}

/* The innermost name spelled as token k, or NULL. */
static sym *lookup(sc *s, size_t k)
{
    return ident(s, k) ? lookup_text(s, tk(s, k), tl(s, k)) : NULL;
}

static int is_type_name(const sc *s, size_t k)
{
    static const char *const known[] = { "dim3", "size_t", "cudaError_t", "cudaEvent_t", "cudaStream_t",
                                         "uint", "uint3", "int2", "int3", "int4", "float2", "float3", "float4",
                                         "uint8_t", "uint16_t", "uint32_t", "uint64_t", "int8_t", "int16_t",
                                         "int32_t", "int64_t", "ptrdiff_t", "cudaMemcpyKind", "std", "unsigned",
                                         NULL };
    if (!ident(s, k))
        return 0;
    if (is_keyword(&s->r, k))
        return 1;
    for (int i = 0; known[i]; i++)
        if (at(s, k, known[i]))
            return 1;
    for (size_t i = 0; i < s->ntypes; i++)
        if (same(s, s->types[i], k))
            return 1;
    return 0;
}

/* The kind of value of a declared type key. */
static int key_kind(const char *key)
{
    if (strchr(key, '*'))
        return V_PTR;
    if (strstr(key, "float") || strstr(key, "double"))
        return V_FLOAT;
    if (strstr(key, "int") || strstr(key, "char") || strstr(key, "short") || strstr(key, "long") ||
        strstr(key, "size_t") || strstr(key, "unsigned") || strstr(key, "signed"))
        return V_INT;
    if (strstr(key, "bool"))
        return V_BOOL;
    return V_OTHER;
}

/* ---- groups and candidates --------------------------------------------- */
static group *new_group(sc *s, int kind, size_t tb, size_t te)
{
    if (s->ng == s->capg) {
        s->capg = s->capg ? s->capg * 2 : 256;
        s->g = xrealloc(s->g, s->capg * sizeof *s->g);
    }
    group *g = &s->g[s->ng++];
    memset(g, 0, sizeof *g);
    g->kind = kind;
    g->tb = tb;
    g->te = te;
    g->bb = s->r.t[tb].b;
    g->be = s->r.t[te - 1].e;
    g->priority = s->in_kernel ? 0 : 2;
    g->line = s->line_of[tb];
    g->ctx_b = s->ctx_b;
    g->ctx_e = s->ctx_e;
    return g;
}

static int new_cand(sc *s, group *g, const char *kind, char *from, char *to)
{
    if (s->nc == s->capc) {
        s->capc = s->capc ? s->capc * 2 : 256;
        s->c = xrealloc(s->c, s->capc * sizeof *s->c);
    }
    cand *c = &s->c[s->nc];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->from = from;
    c->to = to;
    c->origin = (int)(g - s->g);
    c->alt = g->nalts;
    return (int)s->nc++;
}

/* A candidate at g: from -> to (both copied), with text its G_ATOM text (taken). */
static void add_alt(sc *s, group *g, const char *kind, const char *from, const char *to, char *text)
{
    if (g->nalts >= MAX_ALTS) {
        free(text);
        return;
    }
    int c = new_cand(s, g, kind, xstrdup(from), xstrdup(to));
    g->cand[g->nalts] = c;
    g->alt[g->nalts++] = text;
}

/* Drops the candidates of groups [first, s->ng) (a statement the parser could not follow). */
static void drop_groups(sc *s, size_t first)
{
    for (size_t i = first; i < s->ng; i++)
        for (int a = 0; a < s->g[i].nalts; a++)
            s->c[s->g[i].cand[a]].dead = 1;
}

/* ---- expressions --------------------------------------------------------
 * A precedence-climbing parser over tokens. Each node tells its tokens, its
 * kind of value and whether it is an atom (a name, a literal, a built-in
 * index, &name) whose group is the last one made (so that a node found to
 * be assigned to loses its value edits). */
typedef struct {
    size_t b, e;  /* tokens [b, e) */
    int vk;
    int atom_group; /* index + 1 of the atom's group, or 0 */
    sym *var;       /* a plain name of a variable */
    int addr_of;    /* &name */
} node;

static node parse_expr(sc *s, size_t *p, int min_prec);

static int prec_of(const char *op)
{
    static const struct { const char *op; int prec; } t[] = {
        { "*", 13 }, { "/", 13 }, { "%", 13 }, { "+", 12 }, { "-", 12 }, { "<<", 11 }, { ">>", 11 },
        { "<", 10 }, { "<=", 10 }, { ">", 10 }, { ">=", 10 }, { "==", 9 }, { "!=", 9 }, { "&", 8 },
        { "^", 7 }, { "|", 6 }, { "&&", 5 }, { "||", 4 }, { "?", 3 }, { "=", 2 }, { "+=", 2 },
        { "-=", 2 }, { "*=", 2 }, { "/=", 2 }, { "%=", 2 }, { "&=", 2 }, { "|=", 2 }, { "^=", 2 },
        { "<<=", 2 }, { ">>=", 2 }, { ",", 1 }, { NULL, 0 } };
    for (int i = 0; t[i].op; i++)
        if (strcmp(t[i].op, op) == 0)
            return t[i].prec;
    return 0;
}

static void kill_atom(sc *s, node *n)
{
    if (n->atom_group) {
        group *g = &s->g[n->atom_group - 1];
        for (int a = 0; a < g->nalts; a++)
            s->c[g->cand[a]].dead = 1;
    }
    n->atom_group = 0;
}

static const char *const builtins[] = { "threadIdx", "blockIdx", "blockDim", "gridDim", NULL };

/* The value edits of an atom at tokens [b, e): names of the same declared
 * type in scope, the other built-in indexes, a literal's neighbours. */
static void atom_edits(sc *s, node *n, sym *var)
{
    size_t b = n->b, e = n->e;
    if (!one_line(s, b, e))
        return;
    group *g = new_group(s, G_ATOM, b, e);
    char *from = span_text(s, b, e), *to;
    if (var) {
        const char *amp = n->addr_of ? "&" : "";
        for (size_t i = s->nsyms; i-- > 0;) {
            sym *y = &s->syms[i];
            if (y == var || strcmp(y->key, var->key) != 0 || (y->len == var->len && !memcmp(y->name, var->name, y->len)))
                continue;
            if (lookup_text(s, y->name, y->len) != y) /* the innermost of each name only */
                continue;
            to = xasprintf("%s%.*s", amp, (int)y->len, y->name);
            add_alt(s, g, "name", from, to, to);
        }
    } else if (s->r.t[b].kind == T_NUM) {
        long v = strtol(tk(s, b), NULL, 10);
        if (v > 0) {
            to = xasprintf("%ld", v - 1);
            add_alt(s, g, "literal", from, to, to);
        }
        to = xasprintf("%ld", v + 1);
        add_alt(s, g, "literal", from, to, to);
    } else {
        /* a built-in index: the other built-ins' same component, its other components */
        size_t c = b + 2;
        for (int i = 0; builtins[i]; i++)
            if (!at(s, b, builtins[i])) {
                to = xasprintf("%s.%.*s", builtins[i], (int)tl(s, c), tk(s, c));
                add_alt(s, g, "builtin", from, to, to);
            }
        static const char comp[] = "xyz";
        for (int i = 0; i < 3; i++)
            if ((s->components & (1 << i)) && !(tl(s, c) == 1 && *tk(s, c) == comp[i])) {
                to = xasprintf("%.*s.%c", (int)tl(s, b), tk(s, b), comp[i]);
                add_alt(s, g, "builtin", from, to, to);
            }
    }
    free(from);
    if (g->nalts == 0) {
        s->ng--;
        return;
    }
    n->atom_group = (int)s->ng;
}

static int builtin_at(const sc *s, size_t k)
{
    if (!ident(s, k) || !at(s, k + 1, ".") || !ident(s, k + 2))
        return 0;
    for (int i = 0; builtins[i]; i++)
        if (at(s, k, builtins[i]))
            return at(s, k + 2, "x") || at(s, k + 2, "y") || at(s, k + 2, "z");
    return 0;
}

/* A decimal literal that is an int: digits only. */
static int int_literal(const sc *s, size_t k)
{
    if (s->r.t[k].kind != T_NUM)
        return 0;
    for (size_t i = 0; i < tl(s, k); i++)
        if (tk(s, k)[i] < '0' || tk(s, k)[i] > '9')
            return 0;
    return tl(s, k) < 9 && !(tl(s, k) > 1 && tk(s, k)[0] == '0');
}

static void parse_args(sc *s, size_t *p, const char *close, size_t callee);

static node parse_unary(sc *s, size_t *p)
{
    node n = { *p, *p, V_UNKNOWN, 0, NULL, 0 };
    size_t k = *p, len;
    if (k >= s->r.nt) {
        s->bail = 1;
        return n;
    }
    const char *op = op_at(s, k, &len);
    if (op && (strcmp(op, "++") == 0 || strcmp(op, "--") == 0)) {
        *p = k + len;
        node x = parse_unary(s, p);
        kill_atom(s, &x);
        x.b = k;
        x.var = NULL;
        return x;
    }
    if (op && (strcmp(op, "&") == 0) && ident(s, k + 1) && !at(s, k + 2, ".") && !at(s, k + 2, "->") &&
        !at(s, k + 2, "[") && !at(s, k + 2, "(")) {
        /* &name: the address of another name of the same type */
        sym *y = lookup(s, k + 1);
        *p = k + 2;
        n.e = k + 2;
        n.vk = V_PTR;
        n.addr_of = 1;
        if (y && y->key[0] != '#' && !strchr(y->key, '[')) {
            sym *v = y;
            atom_edits(s, &n, v);
        }
        return n;
    }
    if (op && (strcmp(op, "!") == 0 || strcmp(op, "~") == 0 || strcmp(op, "-") == 0 || strcmp(op, "+") == 0 ||
               strcmp(op, "*") == 0 || strcmp(op, "&") == 0)) {
        *p = k + 1;
        node x = parse_unary(s, p);
        if (*op == '&')
            kill_atom(s, &x);
        n.e = x.e;
        n.vk = *op == '!' ? V_BOOL : *op == '*' ? V_UNKNOWN : *op == '&' ? V_PTR : x.vk;
        return n;
    }
    if (at(s, k, "sizeof")) {
        /* sizeof(type) or sizeof expr: no edits (its value is the type's) */
        if (at(s, k + 1, "(")) {
            *p = after(s, k + 1);
        } else {
            *p = k + 1;
            size_t first = s->ng;
            parse_unary(s, p);
            drop_groups(s, first);
        }
        n.e = *p;
        n.vk = V_INT;
        return n;
    }
    if (at(s, k, "(")) {
        /* a cast: ( type-words [*...] ) operand */
        size_t c = after(s, k);
        int cast = c > k + 2 && is_type_name(s, k + 1);
        for (size_t i = k + 1; cast && i + 1 < c; i++)
            if (!(is_type_name(s, i) || at(s, i, "*") || at(s, i, "const") || at(s, i, "::")))
                cast = 0;
        if (cast) {
            int stars = 0;
            for (size_t i = k + 1; i + 1 < c; i++)
                stars += at(s, i, "*");
            *p = c;
            node x = parse_unary(s, p);
            n.e = x.e;
            char key[64] = "";
            for (size_t i = k + 1; i + 1 < c && strlen(key) + tl(s, i) + 2 < sizeof key; i++)
                snprintf(key + strlen(key), sizeof key - strlen(key), "%s%.*s", *key ? " " : "", (int)tl(s, i),
                         tk(s, i));
            n.vk = stars ? V_PTR : key_kind(key);
            return n;
        }
        *p = k + 1;
        node x = parse_expr(s, p, 1);
        if (!at(s, *p, ")")) {
            s->bail = 1;
            return n;
        }
        (*p)++;
        n.e = *p;
        n.vk = x.vk;
    } else if (builtin_at(s, k) && !lookup(s, k)) {
        *p = k + 3;
        n.e = k + 3;
        n.vk = V_INT;
        atom_edits(s, &n, NULL);
    } else if (s->r.t[k].kind == T_NUM) {
        *p = k + 1;
        n.e = k + 1;
        int integral = int_literal(s, k);
        n.vk = integral ? V_INT : V_FLOAT;
        if (integral)
            atom_edits(s, &n, NULL);
    } else if (s->r.t[k].kind == T_STR || s->r.t[k].kind == T_CHAR) {
        while (*p < s->r.nt && (s->r.t[*p].kind == T_STR))
            (*p)++;
        if (*p == k)
            (*p)++;
        n.e = *p;
        n.vk = V_OTHER;
    } else if (ident(s, k) && !is_keyword(&s->r, k)) {
        *p = k + 1;
        n.e = k + 1;
        sym *y = lookup(s, k);
        if (at(s, k + 1, "<") && !y) {
            s->bail = 1; /* a template's arguments: not followed */
            return n;
        }
        if (at(s, k + 1, "::")) {
            s->bail = 1;
            return n;
        }
        if (y) {
            n.vk = y->vk;
            n.var = y;
            if (y->key[0] != '#' && !strchr(y->key, '[') && !at(s, k + 1, "("))
                atom_edits(s, &n, y);
        }
    } else if (at(s, k, "true") || at(s, k, "false")) {
        *p = k + 1;
        n.e = k + 1;
        n.vk = V_BOOL;
    } else {
        s->bail = 1;
        return n;
    }
    /* postfix */
    for (;;) {
        size_t q = *p;
        const char *po = op_at(s, q, &len);
        if (at(s, q, "[")) {
            *p = q + 1;
            parse_expr(s, p, 1);
            if (!at(s, *p, "]")) {
                s->bail = 1;
                return n;
            }
            (*p)++;
            n.e = *p;
            n.vk = V_UNKNOWN;
            /* an array's element: the base stays a value, a pointer's */
            n.var = NULL;
            n.addr_of = 0;
        } else if (at(s, q, "(")) {
            size_t callee = n.e - 1;
            kill_atom(s, &n);
            *p = q + 1;
            parse_args(s, p, ")", ident(s, callee) && n.e == n.b + 1 ? callee : (size_t)-1);
            n.e = *p;
            n.vk = V_UNKNOWN;
            n.var = NULL;
        } else if (at(s, q, "<<<")) {
            kill_atom(s, &n);
            if (!s->in_kernel)
                s->host_cuda = 1;
            *p = q + 1;
            parse_args(s, p, ">>>", (size_t)-1);
            n.e = *p;
        } else if (at(s, q, ".") || at(s, q, "->")) {
            if (at(s, q, "."))
                kill_atom(s, &n); /* a structure's member: never through a copy */
            if (!ident(s, q + 1)) {
                s->bail = 1;
                return n;
            }
            *p = q + 2;
            n.e = *p;
            n.vk = V_UNKNOWN;
            n.var = NULL;
        } else if (po && (strcmp(po, "++") == 0 || strcmp(po, "--") == 0)) {
            kill_atom(s, &n);
            *p = q + len;
            n.e = *p;
            n.var = NULL;
        } else {
            break;
        }
    }
    return n;
}

/* A call's (or launch configuration's) arguments up to close: each one an
 * expression; pairs of the same kind on one line swapped. */
static void parse_args(sc *s, size_t *p, const char *close, size_t callee)
{
    node args[16];
    size_t na = 0;
    if (callee != (size_t)-1 && !s->in_kernel && strncmp(tk(s, callee), "cuda", 4) == 0)
        s->host_cuda = 1;
    while (*p < s->r.nt && !at(s, *p, close)) {
        node a = parse_expr(s, p, 2);
        if (s->bail)
            return;
        if (na < 16)
            args[na++] = a;
        if (at(s, *p, ","))
            (*p)++;
        else if (!at(s, *p, close)) {
            s->bail = 1;
            return;
        }
    }
    if (*p >= s->r.nt) {
        s->bail = 1;
        return;
    }
    size_t end = *p;
    (*p)++;
    if (na < 2 || na > 8 || !one_line(s, args[0].b, args[na - 1].e))
        return;
    (void)end;
    int argg[16];
    for (size_t i = 0; i < na; i++)
        argg[i] = -1;
    for (size_t i = 0; i + 1 < na; i++)
        for (size_t j = i + 1; j < na; j++) {
            node *a = &args[i], *b = &args[j];
            int kind = a->vk == b->vk && (a->vk == V_PTR || a->vk == V_INT || a->vk == V_FLOAT);
            if (!kind && a->var && b->var && strcmp(a->var->key, b->var->key) == 0 && a->var->key[0] != '#' &&
                !strchr(a->var->key, '['))
                kind = 1; /* dim3 with dim3 */
            if (!kind || a->e <= a->b || b->e <= b->b)
                continue;
            char *ta = span_text(s, a->b, a->e), *tb = span_text(s, b->b, b->e);
            if (strcmp(ta, tb) != 0) {
                for (int side = 0; side < 2; side++) {
                    size_t x = side ? j : i;
                    if (argg[x] < 0)
                        argg[x] = (int)(new_group(s, G_ARG, args[x].b, args[x].e) - s->g);
                }
                group *gi = &s->g[argg[i]], *gj = &s->g[argg[j]];
                if (gi->nalts < MAX_ALTS && gj->nalts < MAX_ALTS) {
                    char *from = xasprintf("%s, %s", ta, tb), *to = xasprintf("%s, %s", tb, ta);
                    int c = new_cand(s, gi, "swap", from, to);
                    gi->cand[gi->nalts] = c;
                    gi->other[gi->nalts++] = argg[j];
                    gj->cand[gj->nalts] = c;
                    gj->other[gj->nalts++] = argg[i];
                }
            }
            free(ta);
            free(tb);
        }
}

static node parse_expr(sc *s, size_t *p, int min_prec)
{
    node l = parse_unary(s, p);
    for (;;) {
        if (s->bail)
            return l;
        size_t k = *p, len;
        const char *op = op_at(s, k, &len);
        if (!op)
            return l;
        int prec = prec_of(op);
        if (prec == 0 || prec < min_prec)
            return l;
        if (prec == 2) { /* assignment: the left side is no value */
            kill_atom(s, &l);
            *p = k + len;
            node r = parse_expr(s, p, 2);
            l.e = r.e;
            l.var = NULL;
            continue;
        }
        if (prec == 3) { /* c ? a : b */
            *p = k + 1;
            parse_expr(s, p, 1);
            if (!at(s, *p, ":")) {
                s->bail = 1;
                return l;
            }
            (*p)++;
            node r = parse_expr(s, p, 2);
            l.e = r.e;
            l.vk = r.vk;
            l.atom_group = 0;
            l.var = NULL;
            continue;
        }
        *p = k + len;
        node r = parse_expr(s, p, prec + 1);
        if (s->bail)
            return l;
        node n = { l.b, r.e, V_UNKNOWN, 0, NULL, 0 };
        const char *helper = NULL;
        static const struct { const char *op, *helper, *alts[3]; } table[] = {
            { "+", "add", { "-", "left", "right" } },  { "-", "sub", { "+", "left", NULL } },
            { "*", "mul", { "left", "right", NULL } }, { "<", "lt", { "<=", ">", NULL } },
            { "<=", "le", { "<", ">=", NULL } },       { ">", "gt", { ">=", "<", NULL } },
            { ">=", "ge", { ">", "<=", NULL } },       { "==", "eq", { "!=", NULL, NULL } },
            { "!=", "ne", { "==", NULL, NULL } },      { NULL, NULL, { NULL, NULL, NULL } } };
        int t = 0;
        for (; table[t].op; t++)
            if (strcmp(table[t].op, op) == 0)
                break;
        int known = (l.vk == V_INT || l.vk == V_FLOAT || l.vk == V_PTR) &&
                    (r.vk == V_INT || r.vk == V_FLOAT || r.vk == V_PTR);
        if (prec == 10 || prec == 9)
            n.vk = V_BOOL;
        else if (prec == 5 || prec == 4)
            n.vk = V_BOOL;
        else if (known && (*op == '+' || *op == '-') && (l.vk == V_PTR) != (r.vk == V_PTR))
            n.vk = V_PTR;
        else if (known && *op == '-' && l.vk == V_PTR)
            n.vk = V_INT;
        else if (known && l.vk != V_PTR && r.vk != V_PTR)
            n.vk = l.vk == V_FLOAT || r.vk == V_FLOAT ? V_FLOAT : V_INT;
        if (table[t].op && known) {
            helper = table[t].helper;
            group *g = new_group(s, G_BIN, l.b, r.e);
            g->op = k;
            g->ope = k + len;
            g->helper = helper;
            char *from = span_text(s, l.b, r.e);
            char *lt = span_text(s, l.b, l.e), *rt = span_text(s, r.b, r.e);
            for (int a = 0; a < 3 && table[t].alts[a]; a++) {
                const char *w = table[t].alts[a];
                if (strcmp(w, "left") == 0) {
                    add_alt(s, g, "drop-right", from, lt, NULL);
                } else if (strcmp(w, "right") == 0) {
                    add_alt(s, g, "drop-left", from, rt, NULL);
                } else {
                    char *to = xasprintf("%s %s %s", lt, w, rt);
                    add_alt(s, g, "operator", from, to, NULL);
                    free(to);
                }
            }
            free(from);
            free(lt);
            free(rt);
        } else if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) {
            group *g = new_group(s, G_LOGIC, l.b, r.e);
            g->op = k;
            g->ope = k + len;
            g->helper = op[0] == '&' ? "and" : "or";
            char *from = span_text(s, l.b, r.e);
            char *lt = span_text(s, l.b, l.e), *rt = span_text(s, r.b, r.e);
            char *to = xasprintf("%s %s %s", lt, op[0] == '&' ? "||" : "&&", rt);
            add_alt(s, g, "operator", from, to, NULL);
            free(to);
            free(from);
            free(lt);
            free(rt);
        }
        l = n;
    }
}

/* ---- statements -------------------------------------------------------- */

/* The ';' that ends the statement starting at k (at bracket depth 0). */
static size_t stmt_end(const sc *s, size_t k)
{
    int depth = 0;
    for (; k < s->r.nt; k++) {
        if (at(s, k, "(") || at(s, k, "[") || at(s, k, "{"))
            depth++;
        else if (at(s, k, ")") || at(s, k, "]") || at(s, k, "}")) {
            if (--depth < 0)
                return k;
        } else if (depth == 0 && at(s, k, ";"))
            return k;
    }
    return s->r.nt;
}

/* An expression over tokens [k, end): 0 when it parsed to end exactly,
 * else -1 and its candidates dropped. */
static int expr_unit(sc *s, size_t k, size_t end)
{
    size_t first = s->ng, p = k;
    s->bail = 0;
    if (k < end)
        parse_expr(s, &p, 1);
    if (s->bail || p != end) {
        drop_groups(s, first);
        s->bail = 0;
        return -1;
    }
    return 0;
}

static const char *const qualifiers[] = { "const", "volatile", "static", "extern", "register", "__restrict__",
                                          "__shared__", "__device__", "__constant__", "__host__", "__global__",
                                          "inline", "__forceinline__", "constexpr", "__managed__", NULL };

static int qualifier(const sc *s, size_t k)
{
    for (int i = 0; qualifiers[i]; i++)
        if (at(s, k, qualifiers[i]))
            return 1;
    return 0;
}

/* Whether the statement at k declares: it starts with a type's words. */
static int is_declaration(sc *s, size_t k)
{
    if (qualifier(s, k) || at(s, k, "struct") || at(s, k, "typedef"))
        return 1;
    if (!ident(s, k) || lookup(s, k))
        return 0;
    if (is_type_name(s, k))
        return 1;
    /* NAME NAME, NAME *NAME: an unknown type's */
    size_t j = k + 1;
    while (at(s, j, "*") || at(s, j, "&"))
        j++;
    return ident(s, j) && !at(s, k + 1, "(");
}

/* An insertion after the token k: text (one statement, %d the id). */
static void insertion(sc *s, int kind, size_t k, const char *ckind, char *from, char *to, char *text)
{
    group *g = new_group(s, kind, k, k + 1);
    g->bb = g->be = s->r.t[k].e;
    g->tb = g->te = k + 1;
    g->text = text;
    add_alt(s, g, ckind, from, to, NULL);
    free(from);
    free(to);
}

/* A declaration at *p, in a function (in_block: a statement of a block, not
 * a for's first part), up to its ';' (left at *p). */
static void declaration(sc *s, size_t *p, int in_block)
{
    size_t k = *p, end = stmt_end(s, k);
    int constant = 0, shared = 0;
    char spec[64] = "";
    /* the type's words */
    while (k < end && (is_type_name(s, k) || qualifier(s, k) || at(s, k, "struct"))) {
        if (at(s, k, "const") || at(s, k, "static") || at(s, k, "constexpr") || at(s, k, "__constant__"))
            constant = 1;
        if (at(s, k, "__shared__") || at(s, k, "extern") || at(s, k, "static"))
            shared = 1; /* not a thread's own variable */
        if (!qualifier(s, k) && strlen(spec) + tl(s, k) + 2 < sizeof spec)
            snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%.*s", *spec ? " " : "", (int)tl(s, k),
                     tk(s, k));
        k++;
        if (at(s, k - 1, "struct") && ident(s, k))
            k++;
    }
    if (k == *p || at(s, k, "::") || at(s, k, "<")) {
        /* not followed: its names still hide others */
        size_t names[32];
        size_t n = declared_names(&s->r, *p, end, names, 32);
        for (size_t i = 0; i < n; i++)
            add_sym(s, names[i], "#", V_OTHER);
        *p = end;
        return;
    }
    while (k < end) {
        char key[64];
        int stars = 0, ref = 0;
        while (at(s, k, "*") || at(s, k, "&") || at(s, k, "const") || at(s, k, "__restrict__")) {
            stars += at(s, k, "*");
            ref |= at(s, k, "&");
            k++;
        }
        if (!ident(s, k))
            break;
        size_t name = k++;
        int array = 0;
        while (at(s, k, "[")) { /* bounds: constant expressions, never edited */
            array = 1;
            k = after(s, k);
        }
        snprintf(key, sizeof key, "%s%s%.*s%s", spec, stars ? " " : "", stars, "**********", array ? "[" : "");
        if (ref || shared)
            key[0] = '#', key[1] = 0;
        size_t first = s->ng;
        int init = 0, is_constant = 0;
        if (at(s, k, "(") && !array) {
            init = 1;
            size_t p2 = k + 1;
            s->bail = 0;
            parse_args(s, &p2, ")", (size_t)-1);
            if (s->bail) {
                drop_groups(s, first);
                s->bail = 0;
                p2 = after(s, k);
            }
            k = p2;
        } else if (at(s, k, "=") && at(s, k + 1, "{")) {
            init = 1;
            k = after(s, k + 1);
        } else if (at(s, k, "=")) {
            init = 1;
            size_t p2 = k + 1;
            s->bail = 0;
            parse_expr(s, &p2, 2);
            if (s->bail || !(at(s, p2, ",") || p2 == end)) {
                drop_groups(s, first);
                s->bail = 0;
                /* to the next declarator */
                int depth = 0;
                for (p2 = k + 1; p2 < end; p2++) {
                    if (at(s, p2, "(") || at(s, p2, "[") || at(s, p2, "{"))
                        depth++;
                    else if (at(s, p2, ")") || at(s, p2, "]") || at(s, p2, "}"))
                        depth--;
                    else if (depth == 0 && at(s, p2, ","))
                        break;
                }
            }
            if (constant) {
                /* a constant's value may be needed as a constant (an array's bound) */
                int varies = 0;
                for (size_t q = k + 1; q < p2; q++) {
                    sym *y = lookup(s, q);
                    varies |= (y && y->depth > 0 && !y->constant) || builtin_at(s, q);
                }
                if (!varies) {
                    drop_groups(s, first);
                    is_constant = 1;
                }
            }
            k = p2;
        }
        if (shared)
            drop_groups(s, first);
        sym *y = add_sym(s, name, key, array ? V_OTHER : key_kind(key));
        y->constant = is_constant;
        y->shared = at(s, *p, "__shared__") || strstr(spec, "__shared__") != NULL;
        for (size_t q = *p; q < name; q++)
            y->shared |= at(s, q, "__shared__");
        if (!init && in_block && !array && !shared && !constant && (y->vk == V_INT || y->vk == V_FLOAT) &&
            end < s->r.nt) {
            char *decl = span_text(s, *p, end + 1);
            insertion(s, G_INIT, end, "initialise", decl,
                      xasprintf("%s %.*s = 0;", decl, (int)tl(s, name), tk(s, name)),
                      xasprintf(" if (gpulab_emu_mutant == %%d) %.*s = 0;", (int)tl(s, name), tk(s, name)));
        }
        if (at(s, k, ","))
            k++;
        else
            break;
    }
    *p = end;
}

static void statement(sc *s, size_t *p, int in_block);

/* The statements of the block whose '{' is at *p; *p after its '}'. */
static void block(sc *s, size_t *p)
{
    size_t k = *p + 1;
    s->depth++;
    while (k < s->r.nt && !at(s, k, "}"))
        statement(s, &k, 1);
    s->depth--;
    pop_scope(s);
    *p = k + 1;
}

/* ( condition ) at *p; *p after it. */
static void condition(sc *s, size_t *p)
{
    if (!at(s, *p, "(")) {
        s->bail = 1;
        return;
    }
    size_t c = after(s, *p);
    size_t ob = s->ctx_b, oe = s->ctx_e;
    s->ctx_b = *p + 1;
    s->ctx_e = c - 1;
    expr_unit(s, *p + 1, c - 1);
    s->ctx_b = ob;
    s->ctx_e = oe;
    *p = c;
}

static int is_barrier(const sc *s, size_t k)
{
    return at(s, k, "__syncthreads") && at(s, k + 1, "(");
}

static void statement(sc *s, size_t *p, int in_block)
{
    size_t k = *p;
    if (k >= s->r.nt)
        return;
    s->ctx_b = k;
    s->ctx_e = stmt_end(s, k);
    if (at(s, k, "{")) {
        block(s, p);
        return;
    }
    if (at(s, k, ";")) {
        *p = k + 1;
        return;
    }
    if (at(s, k, "if")) {
        *p = k + 1;
        condition(s, p);
        statement(s, p, 0);
        if (at(s, *p, "else")) {
            (*p)++;
            statement(s, p, 0);
        }
        return;
    }
    if (at(s, k, "while") || at(s, k, "switch")) {
        *p = k + 1;
        condition(s, p);
        s->loop_depth++;
        statement(s, p, 0);
        s->loop_depth--;
        return;
    }
    if (at(s, k, "do")) {
        *p = k + 1;
        s->loop_depth++;
        statement(s, p, 0);
        s->loop_depth--;
        if (at(s, *p, "while")) {
            (*p)++;
            condition(s, p);
        }
        if (at(s, *p, ";"))
            (*p)++;
        return;
    }
    if (at(s, k, "for") && at(s, k + 1, "(")) {
        size_t c = after(s, k + 1);
        s->depth++;
        size_t q = k + 2, e1 = stmt_end(s, q);
        s->ctx_b = q;
        s->ctx_e = c - 1;
        if (is_declaration(s, q))
            declaration(s, &q, 0);
        else
            expr_unit(s, q, e1);
        if (e1 < c) {
            size_t e2 = stmt_end(s, e1 + 1);
            if (e2 < c) {
                expr_unit(s, e1 + 1, e2);
                expr_unit(s, e2 + 1, c - 1);
            }
        }
        *p = c;
        s->loop_depth++;
        statement(s, p, 0);
        s->loop_depth--;
        s->depth--;
        pop_scope(s);
        return;
    }
    if (at(s, k, "case") || at(s, k, "default")) {
        while (*p < s->r.nt && !at(s, *p, ":"))
            (*p)++;
        (*p)++;
        return;
    }
    if (ident(s, k) && at(s, k + 1, ":") && !at(s, k + 2, ":")) { /* a label */
        *p = k + 2;
        return;
    }
    size_t end = stmt_end(s, k);
    if (at(s, k, "return")) {
        s->ctx_b = k + 1;
        expr_unit(s, k + 1, end);
    } else if (at(s, k, "break") || at(s, k, "continue") || at(s, k, "goto") || at(s, k, "asm") ||
               at(s, k, "__asm__") || at(s, k, "typedef") || at(s, k, "using") || at(s, k, "static_assert")) {
        /* nothing to edit */
    } else if (is_declaration(s, k)) {
        size_t q = k;
        declaration(s, &q, in_block);
    } else {
        size_t first = s->ng;
        s->host_cuda = 0;
        if (expr_unit(s, k, end) == 0 && end < s->r.nt && one_line(s, k, k + 1)) {
            /* the statement dropped */
            group *g = new_group(s, G_DROP, k, end + 1);
            char *from = span_text(s, k, end + 1);
            add_alt(s, g, "drop", from, "", NULL);
            free(from);
        }
        if (!s->in_kernel && s->host_cuda)
            for (size_t i = first; i < s->ng; i++)
                s->g[i].priority = 1;
    }
    /* a barrier after a statement of a loop's block, or after a store to a
     * __shared__ array, in a kernel */
    if (s->in_kernel && in_block && end < s->r.nt && !is_barrier(s, k) && !is_barrier(s, end + 1) &&
        !at(s, k, "return") && !at(s, k, "break") && !at(s, k, "continue")) {
        sym *y = lookup(s, k);
        if (s->loop_depth > 0 || (y && y->shared)) {
            char *from = span_text(s, k, end + 1);
            insertion(s, G_SYNC, end, "barrier", from, xasprintf("%s __syncthreads();", from),
                      xstrdup(" if (gpulab_emu_mutant == %d) __syncthreads();"));
        }
    }
    *p = end + 1;
}

/* ---- the file ---------------------------------------------------------- */

/* A function's parameters, tokens (a, c) between its parentheses. */
static void parameters(sc *s, size_t a, size_t c)
{
    size_t k = a + 1;
    while (k < c) {
        size_t e = k;
        int depth = 0;
        for (; e < c; e++) {
            if (at(s, e, "(") || at(s, e, "["))
                depth++;
            else if (at(s, e, ")") || at(s, e, "]"))
                depth--;
            else if (depth == 0 && at(s, e, ","))
                break;
        }
        /* type words, stars, name, [ ] */
        char spec[64] = "";
        int stars = 0, ref = 0, array = 0;
        size_t name = (size_t)-1;
        for (size_t q = k; q < e; q++) {
            if (at(s, q, "*"))
                stars++;
            else if (at(s, q, "&"))
                ref = 1;
            else if (at(s, q, "["))
                array = 1, q = after(s, q) - 1;
            else if (ident(s, q) && !qualifier(s, q) && (is_type_name(s, q) || name != (size_t)-1 || !ident(s, q + 1))) {
                if (is_type_name(s, q) && !(q + 1 == e || at(s, q + 1, "["))) {
                    if (strlen(spec) + tl(s, q) + 2 < sizeof spec)
                        snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%.*s", *spec ? " " : "",
                                 (int)tl(s, q), tk(s, q));
                } else {
                    name = q;
                }
            } else if (ident(s, q) && !qualifier(s, q)) {
                /* an unknown type's name */
                if (strlen(spec) + tl(s, q) + 2 < sizeof spec)
                    snprintf(spec + strlen(spec), sizeof spec - strlen(spec), "%s%.*s", *spec ? " " : "",
                             (int)tl(s, q), tk(s, q));
            }
        }
        if (name != (size_t)-1) {
            char key[64];
            snprintf(key, sizeof key, "%s%s%.*s", spec, stars ? " " : "", stars, "**********");
            if (ref || array)
                key[0] = '#', key[1] = 0;
            add_sym(s, name, key, array ? V_PTR : key_kind(key));
        }
        k = e + 1;
    }
}

/* The function whose body's '{' is at b, its declaration from stmt. */
static void function(sc *s, size_t stmt, size_t b)
{
    s->in_kernel = 0;
    for (size_t k = stmt; k < b; k++)
        if (at(s, k, "__global__") || at(s, k, "__device__"))
            s->in_kernel = 1;
    size_t close = b;
    while (close > stmt && !at(s, close - 1, ")"))
        close--;
    size_t saved = s->nsyms;
    s->depth = 1;
    if (close > stmt) {
        /* the '(' that the ')' at close - 1 closes */
        size_t open = close - 1;
        int depth = 0;
        for (;; open--) {
            if (at(s, open, ")"))
                depth++;
            else if (at(s, open, "(") && --depth == 0)
                break;
            if (open == stmt)
                break;
        }
        parameters(s, open, close - 1);
    }
    s->loop_depth = 0;
    size_t p = b;
    s->depth = 1;
    block(s, &p);
    s->depth = 0;
    s->nsyms = saved;
}

/* #define NAME VALUE with VALUE an integer constant (digits, operators,
 * parentheses, other such names): a name of type int, at file scope. */
static void macros(sc *s)
{
    for (size_t d = 0; d < s->r.ndirs; d++) {
        const char *x = s->r.src + s->r.dirs[d].b, *e = s->r.src + s->r.dirs[d].e;
        x++;
        while (x < e && (*x == ' ' || *x == '\t'))
            x++;
        if (e - x < 7 || strncmp(x, "define", 6) != 0 || (x[6] != ' ' && x[6] != '\t'))
            continue;
        x += 7;
        while (x < e && (*x == ' ' || *x == '\t'))
            x++;
        const char *name = x;
        while (x < e && is_id((unsigned char)*x))
            x++;
        size_t len = (size_t)(x - name);
        if (len == 0 || !is_id0((unsigned char)*name) || (x < e && *x == '('))
            continue;
        int ok = 0, digits = 0;
        for (const char *q = x; q < e; q++) {
            if (*q >= '0' && *q <= '9')
                digits = ok = 1;
            else if (is_id0((unsigned char)*q)) {
                const char *w = q;
                while (q < e && is_id((unsigned char)*q))
                    q++;
                sym *y = lookup_text(s, w, (size_t)(q - w));
                if (!y || strcmp(y->key, "int") != 0) {
                    ok = 0;
                    break;
                }
                ok = 1;
                q--;
            } else if (q + 1 < e && q[0] == '/' && (q[1] == '/' || q[1] == '*')) {
                break;
            } else if (!strchr(" \t()+-*/%", *q)) {
                ok = 0;
                break;
            }
        }
        (void)digits;
        if (ok)
            add_sym_text(s, name, len, "int", V_INT);
    }
}

static void file(sc *s)
{
    s->depth = 0;
    macros(s);
    /* cudaMemcpyKind's values, of one type */
    static const char *const kinds[] = { "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost",
                                         "cudaMemcpyDeviceToDevice", "cudaMemcpyHostToHost", NULL };
    for (int i = 0; kinds[i]; i++)
        add_sym_text(s, kinds[i], strlen(kinds[i]), "cudaMemcpyKind", V_OTHER);
    for (size_t k = 0; k + 2 < s->r.nt; k++)
        if (builtin_at(s, k))
            s->components |= 1 << (*tk(s, k + 2) - 'x');
    size_t k = 0, stmt = 0;
    while (k < s->r.nt) {
        if (at(s, k, ";")) {
            /* a file-scope declaration: its names */
            if ((at(s, stmt, "typedef")) && k > stmt && ident(s, k - 1) && s->ntypes < 256)
                s->types[s->ntypes++] = k - 1;
            else if (stmt < k && is_declaration(s, stmt) && !at(s, stmt, "typedef")) {
                size_t q = stmt;
                s->in_kernel = 1;
                size_t first = s->ng;
                declaration(s, &q, 0);
                drop_groups(s, first);
            }
            stmt = ++k;
        } else if (at(s, k, "{")) {
            char kind = block_kind(&s->r, stmt, k);
            if (kind == 'n') {
                stmt = ++k;
            } else if (kind == 't') {
                for (size_t q = stmt; q + 1 < k; q++)
                    if ((at(s, q, "struct") || at(s, q, "class") || at(s, q, "union") || at(s, q, "enum")) &&
                        ident(s, q + 1) && s->ntypes < 256)
                        s->types[s->ntypes++] = q + 1;
                k = closing(&s->r, k);
            } else {
                int fn = 0;
                for (size_t q = stmt; q < k; q++)
                    fn |= at(s, q, "(");
                if (fn && !at(s, k - 1, "=")) {
                    function(s, stmt, k);
                    k = closing(&s->r, k);
                    stmt = k;
                } else {
                    k = closing(&s->r, k);
                }
            }
        } else if (at(s, k, "}")) {
            stmt = ++k;
        } else {
            k++;
        }
    }
}

/* ---- the rewritten source ---------------------------------------------- */
typedef struct { char *s; size_t n, cap; } buf;

static void put(buf *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = 0;
}

static void puts_(buf *b, const char *s) { put(b, s, strlen(s)); }

static void putf(buf *b, const char *fmt, int id)
{
    char *t = xasprintf(fmt, id);
    puts_(b, t);
    free(t);
}

static int live(const sc *s, const group *g, int a) { return !s->c[g->cand[a]].dead; }

static void render_group(sc *s, buf *o, int gi);

/* The source bytes [bb, be) with the groups among kids inside them rendered. */
static void render_range(sc *s, buf *o, size_t bb, size_t be, const int *kids, size_t nkids)
{
    size_t pos = bb;
    for (size_t i = 0; i < nkids; i++) {
        group *g = &s->g[kids[i]];
        if (g->bb < pos || g->be > be || (g->bb == g->be && g->bb >= be))
            continue;
        put(o, s->r.src + pos, g->bb - pos);
        render_group(s, o, kids[i]);
        pos = g->be;
    }
    put(o, s->r.src + pos, be - pos);
}

static void content(sc *s, buf *o, int gi)
{
    group *g = &s->g[gi];
    render_range(s, o, g->bb, g->be, g->kids, g->nkids);
}

static void render_group(sc *s, buf *o, int gi)
{
    group *g = &s->g[gi];
    int any = 0;
    for (int a = 0; a < g->nalts; a++)
        any |= live(s, g, a);
    if (!any) {
        content(s, o, gi);
        return;
    }
    int id = s->c[g->cand[0]].id;
    switch (g->kind) {
    case G_ATOM:
    case G_ARG:
        puts_(o, "(");
        for (int a = 0; a < g->nalts; a++) {
            if (!live(s, g, a))
                continue;
            putf(o, "gpulab_emu_mutant == %d ? (decltype(", s->c[g->cand[a]].id);
            content(s, o, gi);
            puts_(o, "))(");
            if (g->kind == G_ATOM)
                puts_(o, g->alt[a]);
            else
                content(s, o, g->other[a]);
            puts_(o, ") : ");
        }
        content(s, o, gi);
        puts_(o, ")");
        break;
    case G_BIN:
        puts_(o, "::gpulab_emu_::");
        puts_(o, g->helper);
        putf(o, "(%d, ", id);
        render_range(s, o, g->bb, s->r.t[g->op].b, g->kids, g->nkids);
        puts_(o, ",");
        render_range(s, o, s->r.t[g->ope - 1].e, g->be, g->kids, g->nkids);
        puts_(o, ")");
        break;
    case G_LOGIC: {
        int and = strcmp(g->helper, "and") == 0;
        puts_(o, "(((bool)(");
        render_range(s, o, g->bb, s->r.t[g->op].b, g->kids, g->nkids);
        putf(o, and ? ") != (gpulab_emu_mutant == %d)) ? (bool)(" : ") == (gpulab_emu_mutant == %d)) ? (bool)(", id);
        render_range(s, o, s->r.t[g->ope - 1].e, g->be, g->kids, g->nkids);
        putf(o, and ? ") : (gpulab_emu_mutant == %d))" : ") : !(gpulab_emu_mutant == %d))", id);
        break;
    }
    case G_DROP:
        putf(o, "{ if (gpulab_emu_mutant != %d) ", id);
        content(s, o, gi);
        puts_(o, " }");
        break;
    case G_SYNC:
    case G_INIT:
        putf(o, g->text, id);
        break;
    }
}

/* qsort's context (qsort_r differs between C libraries) */
static const sc *sort_sc;

static int group_order(const void *a, const void *b)
{
    const sc *s = sort_sc;
    const group *x = &s->g[*(const int *)a], *y = &s->g[*(const int *)b];
    if (x->bb != y->bb)
        return x->bb < y->bb ? -1 : 1;
    int ix = x->bb == x->be, iy = y->bb == y->be; /* an insertion first */
    if (ix != iy)
        return iy - ix;
    if (x->be != y->be)
        return x->be > y->be ? -1 : 1;
    if (x->kind != y->kind)
        return x->kind - y->kind;
    return *(const int *)a - *(const int *)b;
}

static int cand_order(const void *a, const void *b)
{
    const sc *s = sort_sc;
    const cand *x = &s->c[*(const int *)a], *y = &s->c[*(const int *)b];
    const group *gx = &s->g[x->origin], *gy = &s->g[y->origin];
    if (gx->bb != gy->bb)
        return gx->bb < gy->bb ? -1 : 1;
    if (x->origin != y->origin)
        return x->origin - y->origin;
    return x->alt - y->alt;
}

static int kill_order(const void *a, const void *b)
{
    const sc *s = sort_sc;
    const group *x = &s->g[*(const int *)a], *y = &s->g[*(const int *)b];
    if (x->priority != y->priority)
        return y->priority - x->priority;
    return x->bb > y->bb ? -1 : x->bb < y->bb;
}

static void json_str(buf *o, const char *t)
{
    puts_(o, "\"");
    for (; *t; t++) {
        unsigned char c = (unsigned char)*t;
        char e[8];
        if (c == '"' || c == '\\') {
            e[0] = '\\', e[1] = (char)c, e[2] = 0;
            puts_(o, e);
        } else if (c < 0x20) {
            snprintf(e, sizeof e, "\\u%04x", c);
            puts_(o, e);
        } else {
            put(o, (const char *)t, 1);
        }
    }
    puts_(o, "\"");
}

/* Each token's line as the compiler numbers it (a #line N directive numbers the next line N). */
static void token_lines(sc *s)
{
    s->line_of = xrealloc(NULL, (s->r.nt + 1) * sizeof *s->line_of);
    int line = 1;
    size_t d = 0, k = 0;
    for (size_t i = 0; i <= s->r.len; i++) {
        while (k < s->r.nt && s->r.t[k].b == i)
            s->line_of[k++] = line;
        if (i == s->r.len)
            break;
        if (d < s->r.ndirs && i == s->r.dirs[d].e) {
            const char *x = s->r.src + s->r.dirs[d].b + 1;
            while (*x == ' ' || *x == '\t')
                x++;
            if (strncmp(x, "line", 4) == 0)
                x += 4;
            char *end;
            long n = strtol(x, &end, 10);
            if (end != x && n > 0 && n < 1000000000L)
                line = (int)n - 1;
            d++;
        }
        line += s->r.src[i] == '\n';
    }
}

char *emu_schemata(const char *text, size_t len, int max, char **json, char **err)
{
    sc s;
    memset(&s, 0, sizeof s);
    s.r.src = text;
    s.r.len = len;
    if (tokenize(&s.r) != 0) {
        *err = s.r.err ? s.r.err : xstrdup("cannot read the source");
        rw_free(&s.r);
        return NULL;
    }
    token_lines(&s);
    file(&s);
    sort_sc = &s;

    /* the groups in source order, outer before inner */
    int *order = xrealloc(NULL, (s.ng + 1) * sizeof *order);
    for (size_t i = 0; i < s.ng; i++)
        order[i] = (int)i;
    qsort(order, s.ng, sizeof *order, group_order);

    /* at most max candidates: kernels' first, then host code that copies
     * or launches, each from the top of the file */
    size_t nlive = 0;
    for (size_t i = 0; i < s.nc; i++)
        nlive += !s.c[i].dead;
    if (max >= 0 && nlive > (size_t)max) {
        int *kill = xrealloc(NULL, (s.ng + 1) * sizeof *kill);
        memcpy(kill, order, s.ng * sizeof *kill);
        qsort(kill, s.ng, sizeof *kill, kill_order);
        for (size_t i = 0; i < s.ng && nlive > (size_t)max; i++) {
            group *g = &s.g[kill[i]];
            for (int a = 0; a < g->nalts; a++)
                if (!s.c[g->cand[a]].dead) {
                    s.c[g->cand[a]].dead = 1;
                    nlive--;
                }
        }
        free(kill);
    }

    /* ids 1..N in source order */
    int *cs = xrealloc(NULL, (s.nc + 1) * sizeof *cs);
    size_t n = 0;
    for (size_t i = 0; i < s.nc; i++)
        if (!s.c[i].dead)
            cs[n++] = (int)i;
    qsort(cs, n, sizeof *cs, cand_order);
    buf j = { 0 };
    puts_(&j, "[");
    for (size_t i = 0; i < n; i++) {
        cand *c = &s.c[cs[i]];
        group *g = &s.g[c->origin];
        c->id = (int)i + 1;
        char *ctx = g->ctx_e > g->ctx_b ? span_text(&s, g->ctx_b, g->ctx_e) : xstrdup("");
        char *head = xasprintf("%s\n{\"id\":%d,\"line\":%d,\"kind\":", i ? "," : "", c->id, g->line);
        puts_(&j, head);
        json_str(&j, c->kind);
        puts_(&j, ",\"from\":");
        json_str(&j, c->from);
        puts_(&j, ",\"to\":");
        json_str(&j, c->to);
        puts_(&j, ",\"context\":");
        json_str(&j, ctx);
        puts_(&j, "}");
        free(head);
        free(ctx);
    }
    puts_(&j, "\n]\n");
    *json = j.s;

    /* the tree of groups: each one's kids, the groups directly inside it */
    int *stack = xrealloc(NULL, (s.ng + 1) * sizeof *stack), *top = xrealloc(NULL, (s.ng + 1) * sizeof *top);
    size_t depth = 0, ntop = 0;
    for (size_t i = 0; i < s.ng; i++) {
        group *g = &s.g[order[i]];
        while (depth > 0) {
            group *p = &s.g[stack[depth - 1]];
            int inside = g->bb == g->be ? (g->bb > p->bb && g->bb < p->be) : (g->bb >= p->bb && g->be <= p->be);
            if (inside)
                break;
            depth--;
        }
        if (depth > 0) {
            group *p = &s.g[stack[depth - 1]];
            p->kids = xrealloc(p->kids, (p->nkids + 1) * sizeof *p->kids);
            p->kids[p->nkids++] = order[i];
        } else {
            top[ntop++] = order[i];
        }
        stack[depth++] = order[i];
    }
    buf o = { 0 };
    render_range(&s, &o, 0, len, top, ntop);
    if (!o.s)
        o.s = xstrdup("");

    for (size_t i = 0; i < s.ng; i++) {
        for (int a = 0; a < s.g[i].nalts; a++)
            free(s.g[i].alt[a]);
        free(s.g[i].text);
        free(s.g[i].kids);
    }
    for (size_t i = 0; i < s.nc; i++) {
        free(s.c[i].from);
        free(s.c[i].to);
    }
    free(s.g);
    free(s.c);
    free(s.syms);
    free(order);
    free(cs);
    free(stack);
    free(top);
    free(s.line_of);
    rw_free(&s.r);
    return o.s;
}
