/* schemata_expr.c - emucc --schemata's reading of tokens, names in scope
 * and expressions, and the candidate edits an expression holds (values,
 * operators, operands, arguments): schemata.c says what they are. */
#define _GNU_SOURCE
#include "schemata_int.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
size_t sch_after(const sc *s, size_t k)
{
    return closing(&s->r, k) + 1;
}

char *sch_span_text(const sc *s, size_t tb, size_t te)
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
int sch_one_line(const sc *s, size_t tb, size_t te)
{
    return !memchr(s->r.src + s->r.t[tb].b, '\n', s->r.t[te - 1].e - s->r.t[tb].b);
}

/* ---- names in scope ---------------------------------------------------- */
void sch_add_sym_text(sc *s, const char *name, size_t len, const char *key, int vk)
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
    y->init_b = y->init_e = 0;
    y->value_b = y->value_e = 0;
    y->array_key[0] = '\0';
    y->scaled = 0;
    y->floating = strstr(key, "float") != NULL || strstr(key, "double") != NULL;
}

sym *sch_add_sym(sc *s, size_t tok, const char *key, int vk)
{
    sch_add_sym_text(s, tk(s, tok), tl(s, tok), key, vk);
    return &s->syms[s->nsyms - 1];
}

void sch_pop_scope(sc *s)
{
    while (s->nsyms > 0 && s->syms[s->nsyms - 1].depth > s->depth)
        s->nsyms--;
}

sym *sch_lookup_text(sc *s, const char *name, size_t len)
{
    for (size_t i = s->nsyms; i-- > 0;)
        if (s->syms[i].len == len && memcmp(s->syms[i].name, name, len) == 0)
            return &s->syms[i];
    return NULL;
}

/* The innermost name spelled as token k, or NULL. */
sym *sch_lookup(sc *s, size_t k)
{
    return ident(s, k) ? sch_lookup_text(s, tk(s, k), tl(s, k)) : NULL;
}

int sch_is_type_name(const sc *s, size_t k)
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
int sch_key_kind(const char *key)
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
group *sch_new_group(sc *s, int kind, size_t tb, size_t te)
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
void sch_add_alt(sc *s, group *g, const char *kind, const char *from, const char *to, char *text)
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
void sch_drop_groups(sc *s, size_t first)
{
    for (size_t i = first; i < s->ng; i++)
        for (int a = 0; a < s->g[i].nalts; a++)
            s->c[s->g[i].cand[a]].dead = 1;
}

/* ---- edits of several places ------------------------------------------ */

/* A candidate made at several places at once (the comparison of each test
 * of a condition, a loop's start and its bound): a mistake repeated at
 * parallel places, which no single edit mends. Its own group is a G_HOLD
 * at token tb that renders nothing; the groups of the places hold it too
 * (a G_ATOM as one more alternative, a G_BIN as its `also`). Its index. */
int sch_add_multi(sc *s, size_t tb, const char *kind, const char *from, const char *to)
{
    group *g = sch_new_group(s, G_HOLD, tb, tb + 1);
    g->bb = g->be = s->r.t[tb].b;
    g->te = tb;
    int c = new_cand(s, g, kind, xstrdup(from), xstrdup(to));
    g->cand[g->nalts++] = c;
    return c;
}

/* Tokens [tb, te) as text, the tokens [at[i], end[i]) written as with[i]
 * (at ascending): raw, with the source's own blanks and line breaks (a
 * copy's text, on the same lines), else each run of blanks one space. */
char *sch_span_subst(const sc *s, size_t tb, size_t te, const size_t *at, const size_t *end, char *const *with,
                     size_t n, int raw)
{
    size_t cap = s->r.t[te - 1].e - s->r.t[tb].b + 1, o = 0, i = 0;
    for (size_t j = 0; j < n; j++)
        cap += strlen(with[j]);
    char *out = xrealloc(NULL, cap);
    for (size_t k = tb; k < te; k++) {
        if (k > tb && s->r.t[k].b > s->r.t[k - 1].e) {
            size_t gap = s->r.t[k].b - s->r.t[k - 1].e;
            if (raw) {
                memcpy(out + o, s->r.src + s->r.t[k - 1].e, gap);
                o += gap;
            } else {
                out[o++] = ' ';
            }
        }
        if (i < n && k == at[i]) {
            memcpy(out + o, with[i], strlen(with[i]));
            o += strlen(with[i]);
            k = end[i++] - 1;
            continue;
        }
        memcpy(out + o, tk(s, k), tl(s, k));
        o += tl(s, k);
    }
    out[o] = 0;
    return out;
}

/* The tests of one condition that use the same comparison (`row > 0 &&
 * col > 0`, `x < w && y < h`): a bound written strict where it should not
 * be (or back) is written so at each. As a candidate for each comparison
 * used twice or more, all of them made strict for not strict or back at
 * once (each one's helper's first edit). Groups [first, ng) are those of
 * the condition, tokens [b, e). */
void sch_same_comparisons(sc *s, size_t first, size_t b, size_t e)
{
    static const char *const helpers[] = { "lt", "le", "gt", "ge" };
    static const char *const flipped[] = { "<=", "<", ">=", ">" };
    size_t last = s->ng;
    for (int h = 0; h < 4; h++) {
        size_t at_[16], end[16], gi[16], n = 0;
        char *with[16];
        for (size_t i = first; i < last && n < 16; i++) {
            const group *g = &s->g[i];
            if (g->kind != G_BIN || strcmp(g->helper, helpers[h]) != 0 || g->also || s->c[g->cand[0]].dead)
                continue;
            size_t j = n++; /* in source order */
            while (j > 0 && at_[j - 1] > g->op) {
                at_[j] = at_[j - 1], end[j] = end[j - 1], gi[j] = gi[j - 1];
                j--;
            }
            at_[j] = g->op, end[j] = g->ope, gi[j] = i, with[n - 1] = (char *)flipped[h];
        }
        if (n < 2)
            continue;
        char *from = sch_span_text(s, b, e), *to = sch_span_subst(s, b, e, at_, end, with, n, 0);
        int c = sch_add_multi(s, b, "operators", from, to);
        for (size_t j = 0; j < n; j++)
            s->g[gi[j]].also = c + 1;
        free(from);
        free(to);
    }
}

/* The built-in indexes (or the locals) a condition compares
 * (`threadIdx.y < Width && threadIdx.x < Width`, `ty < j && tx < l`),
 * each with a local the function computed from it among its edits
 * (derived_names: `Row`, `Col`): a bounds test written on the thread's
 * place in its block for each coordinate, which no edit of one mends. As a candidate, every one of them replaced at once, by the
 * first such local of each (kind `operators`, as the condition's other
 * edit of several places). Groups [first, ng) are the condition's, tokens
 * [b, e). */
void sch_derived_together(sc *s, size_t first, size_t b, size_t e)
{
    size_t at_[8], end[8], gi[8], n = 0;
    int alt[8];
    char *with[8];
    for (size_t i = first; i < s->ng && n < 8; i++) {
        const group *g = &s->g[i];
        if (g->kind != G_ATOM)
            continue;
        if (g->derived && g->te == g->tb + 1) { /* a local's derived name (`Row` for `ty`) */
            int a = g->derived - 1;
            if (!s->c[g->cand[a]].dead && g->alt[a]) {
                at_[n] = g->tb, end[n] = g->te, gi[n] = i, alt[n] = a, with[n] = g->alt[a];
                n++;
            }
            continue;
        }
        if (g->te != g->tb + 3 || !sch_builtin_at(s, g->tb))
            continue;
        for (int a = 0; a < g->nalts; a++)
            if (!s->c[g->cand[a]].dead && !strcmp(s->c[g->cand[a]].kind, "name") && g->alt[a]) {
                at_[n] = g->tb, end[n] = g->te, gi[n] = i, alt[n] = a, with[n] = g->alt[a];
                n++;
                break;
            }
    }
    if (n < 2)
        return;
    for (size_t j = 0; j < n; j++)
        if (s->g[gi[j]].nalts >= MAX_ALTS)
            return;
    char *from = sch_span_text(s, b, e), *to = sch_span_subst(s, b, e, at_, end, with, n, 0);
    int c = sch_add_multi(s, b, "operators", from, to);
    for (size_t j = 0; j < n; j++) {
        group *g = &s->g[gi[j]];
        g->cand[g->nalts] = c;
        g->alt[g->nalts] = xstrdup(g->alt[alt[j]]);
        g->nalts++;
    }
    free(from);
    free(to);
}

/* Whether tokens [k, end) are subscripts alone: `[..][..]`. */
static int subscripts_alone(const sc *s, size_t k, size_t end)
{
    if (k >= end)
        return 0;
    while (k < end && at(s, k, "["))
        k = closing(&s->r, k) + 1;
    return k == end;
}

/* The G_ATOM of the name at token k among groups [first, last): an
 * existing one, or a new one with no candidate of its own (the place of
 * an edit of several places alone). Its index, or -1 when it has no room. */
static long atom_at(sc *s, size_t first, size_t last, size_t k)
{
    for (size_t i = first; i < last; i++)
        if (s->g[i].kind == G_ATOM && s->g[i].tb == k && s->g[i].te == k + 1)
            return s->g[i].nalts < MAX_ALTS ? (long)i : -1;
    sch_new_group(s, G_ATOM, k, k + 1);
    return (long)s->ng - 1;
}

/* Whether the name at token k is written in [b, e). */
static int name_in(const sc *s, size_t k, size_t b, size_t e)
{
    for (size_t i = b; i < e; i++)
        if (ident(s, i) && same(s, i, k) && !(i > 0 && at(s, i - 1, ".")))
            return 1;
    return 0;
}

/* Two names exchanged between the subscripts of a product's operands,
 * tokens [a, ae) and [b, be): `ds_M[tx][i] * ds_N[i][ty]` as `ds_M[ty][i]
 * * ds_N[i][tx]` (the thread's x and y each in the other's tile, which no
 * edit of one name mends: each alone reads one coordinate twice). A name
 * of one operand's subscripts that the other's do not hold, and one of
 * the other's that the first's do not, of one declared type; at most two
 * such pairs; kind `exchange`. */
static void exchanged_subscript_names(sc *s, size_t first, size_t last, size_t a, size_t ae, size_t b, size_t be)
{
    int made = 0;
    for (size_t u = a; u < ae && made < 2; u++) {
        if (!ident(s, u) || at(s, u - 1, ".") || at(s, u + 1, ".") || name_in(s, u, b, be))
            continue;
        const sym *su = sch_lookup(s, u);
        if (!su || su->vk != V_INT)
            continue;
        for (size_t v = b; v < be && made < 2; v++) {
            if (!ident(s, v) || at(s, v - 1, ".") || at(s, v + 1, ".") || same(s, u, v) || name_in(s, v, a, ae))
                continue;
            const sym *sv = sch_lookup(s, v);
            if (!sv || strcmp(su->key, sv->key) != 0)
                continue;
            long gu = atom_at(s, first, last, u), gv = gu < 0 ? -1 : atom_at(s, first, last, v);
            if (gu < 0 || gv < 0)
                continue;
            char *us = sch_span_text(s, u, u + 1), *vs = sch_span_text(s, v, v + 1);
            size_t at_[2] = { u, v }, end[2] = { u + 1, v + 1 };
            char *with[2] = { vs, us };
            char *from = sch_span_text(s, a - 1, be), *to = sch_span_subst(s, a - 1, be, at_, end, with, 2, 0);
            int c = sch_add_multi(s, u, "exchange", from, to);
            group *pu = &s->g[gu], *pv = &s->g[gv];
            pu->cand[pu->nalts] = c;
            pu->alt[pu->nalts++] = vs;
            pv->cand[pv->nalts] = c;
            pv->alt[pv->nalts++] = us;
            free(from);
            free(to);
            made++;
        }
    }
}

/* The two arrays of a product exchanged: `ds_N[ty][i] * ds_M[i][tx]` as
 * `ds_M[ty][i] * ds_N[i][tx]` (each operand read from the array where the
 * other belongs, its subscripts kept: a dot product with the tiles
 * swapped, which no edit of one name mends, each alone reading one array
 * twice). Each operand a name and its subscripts alone, the two names
 * different and of one declared type; kind `exchange`. Groups [first, ng)
 * are the statement's. */
void sch_exchanged_operands(sc *s, size_t first)
{
    size_t last = s->ng;
    for (size_t i = first; i < last; i++) {
        const group *g = &s->g[i];
        if (g->kind != G_BIN || strcmp(g->helper, "mul") != 0 || g->also)
            continue;
        size_t x = g->tb, y = g->ope, op = g->op, te = g->te;
        if (!ident(s, x) || !ident(s, y) || same(s, x, y) || !subscripts_alone(s, x + 1, op) ||
            !subscripts_alone(s, y + 1, te))
            continue;
        const sym *a = sch_lookup(s, x), *b = sch_lookup(s, y);
        if (!a || !b || strcmp(a->key, b->key) != 0)
            continue;
        long ga = atom_at(s, first, last, x), gb = ga < 0 ? -1 : atom_at(s, first, last, y);
        if (ga < 0 || gb < 0)
            continue;
        char *xs = sch_span_text(s, x, x + 1), *ys = sch_span_text(s, y, y + 1);
        size_t at_[2] = { x, y }, end[2] = { x + 1, y + 1 };
        char *with[2] = { ys, xs };
        char *from = sch_span_text(s, x, te), *to = sch_span_subst(s, x, te, at_, end, with, 2, 0);
        int c = sch_add_multi(s, x, "exchange", from, to);
        group *pa = &s->g[ga], *pb = &s->g[gb];
        pa->cand[pa->nalts] = c;
        pa->alt[pa->nalts++] = ys;
        pb->cand[pb->nalts] = c;
        pb->alt[pb->nalts++] = xs;
        free(from);
        free(to);
        exchanged_subscript_names(s, first, last, x + 1, op, y + 1, te);
    }
}

/* A square of one name (`BLOCK_WIDTH * BLOCK_WIDTH * sizeof(float)`, a
 * width by itself): a slip of the name was written at both operands, and
 * no edit of one mends it (`width * BLOCK_WIDTH`). As a candidate for
 * each of the first operand's name edits (at most three), that name at
 * both at once (kind `square`; from and to the product's text). Groups
 * [first, ng) are the statement's. */
void sch_squared_names(sc *s, size_t first)
{
    size_t last = s->ng;
    for (size_t i = first; i < last; i++) {
        const group *g = &s->g[i];
        if (g->kind != G_BIN || strcmp(g->helper, "mul") != 0 || g->also)
            continue;
        size_t x = g->tb, y = g->ope, te = g->te;
        if (!ident(s, x) || g->op != x + 1 || te != y + 1 || !same(s, x, y) || at(s, x - 1, ".") ||
            at(s, x - 1, "->"))
            continue;
        const sym *v = sch_lookup(s, x);
        if (!v || v->vk != V_INT)
            continue;
        long ga = -1;
        for (size_t j = first; j < last && ga < 0; j++)
            if (s->g[j].kind == G_ATOM && s->g[j].tb == x && s->g[j].te == x + 1)
                ga = (long)j;
        if (ga < 0)
            continue;
        int made = 0;
        for (int a = 0; a < s->g[ga].nalts && made < 3; a++) {
            const cand *c = &s->c[s->g[ga].cand[a]];
            const char *name = s->g[ga].alt[a];
            if (c->dead || strcmp(c->kind, "name") != 0 || !name)
                continue;
            long pa = atom_at(s, first, last, x), pb = pa < 0 ? -1 : atom_at(s, first, last, y);
            if (pa < 0 || pb < 0)
                break;
            size_t at_[2] = { x, y }, end[2] = { x + 1, y + 1 };
            char *with[2] = { (char *)name, (char *)name };
            char *from = sch_span_text(s, x, te), *to = sch_span_subst(s, x, te, at_, end, with, 2, 0);
            int m = sch_add_multi(s, x, "square", from, to);
            group *ka = &s->g[pa], *kb = &s->g[pb];
            ka->cand[ka->nalts] = m;
            ka->alt[ka->nalts++] = xstrdup(name);
            kb->cand[kb->nalts] = m;
            kb->alt[kb->nalts++] = xstrdup(name);
            free(from);
            free(to);
            made++;
        }
    }
}

/* A for loop's `i = n; i <= b` with n > 0, whose range may be one off at
 * both ends (1 to TILE_WIDTH where 0 to TILE_WIDTH - 1 was meant): as a
 * candidate, the range moved down by one, its start and its bound at once
 * (`i = n - 1; i < b`), which no edit of one of them makes. (Not the
 * mirror, `i = 0; i < b` moved up: every loop has one, and a range from 1
 * where 0 was meant is the newcomer's slip.) Tokens [b, e1) are the loop's first part, [e1 + 1, e2) its
 * condition; groups [first_init, first_cond) the first part's, from
 * first_cond the condition's. */
void sch_loop_range(sc *s, size_t b, size_t e1, size_t e2, size_t first_init, size_t first_cond)
{
    if (e1 < b + 3 || !at(s, e1 - 2, "=") || !ident(s, e1 - 3) || !sch_int_literal(s, e1 - 1) || e2 < e1 + 4 ||
        !same(s, e1 + 1, e1 - 3))
        return;
    size_t lit = (size_t)-1, bin = (size_t)-1;
    for (size_t i = first_init; i < first_cond; i++)
        if (s->g[i].kind == G_ATOM && s->g[i].tb == e1 - 1 && s->g[i].te == e1 && !s->c[s->g[i].cand[0]].dead)
            lit = i;
    for (size_t i = first_cond; i < s->ng; i++)
        if (s->g[i].kind == G_BIN && s->g[i].tb == e1 + 1 && s->g[i].te == e2 && s->g[i].op == e1 + 2 &&
            !strcmp(s->g[i].helper, "le") && !s->c[s->g[i].cand[0]].dead)
            bin = i;
    if (lit == (size_t)-1 || bin == (size_t)-1 || s->g[bin].also || s->g[lit].nalts >= MAX_ALTS)
        return;
    long v = strtol(tk(s, e1 - 1), NULL, 10);
    if (v < 1)
        return;
    char *start = xasprintf("%ld", v - 1);
    size_t at_[2] = { e1 - 1, s->g[bin].op }, end[2] = { e1, s->g[bin].ope };
    char *with[2] = { start, "<" };
    char *from = sch_span_text(s, b, e2), *to = sch_span_subst(s, b, e2, at_, end, with, 2, 0);
    int c = sch_add_multi(s, b, "range", from, to);
    group *g = &s->g[lit];
    g->cand[g->nalts] = c;
    g->alt[g->nalts++] = start;
    s->g[bin].also = c + 1;
    free(from);
    free(to);
}

/* ---- expressions --------------------------------------------------------
 * A precedence-climbing parser over tokens. Each node tells its tokens, its
 * kind of value and whether it is an atom (a name, a literal, a built-in
 * index, &name) whose group is the last one made (so that a node found to
 * be assigned to loses its value edits). */


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
    int groups[2] = { n->atom_group, n->base_group };
    for (int i = 0; i < 2; i++)
        if (groups[i]) {
            group *g = &s->g[groups[i] - 1];
            for (int a = 0; a < g->nalts; a++)
                s->c[g->cand[a]].dead = 1;
        }
    n->atom_group = n->base_group = 0;
}

static const char *const builtins[] = { "threadIdx", "blockIdx", "blockDim", "gridDim", NULL };

/* The length of a memory-space prefix name starts with: letters and an
 * underscore (`d_`, `h_`, `dev_`, `host_`), or one lower-case d or h
 * before a capital (`dA`, `hOut`); 0 when none. */
static size_t space_prefix(const char *name, size_t len)
{
    size_t i = 0;
    while (i < len && i < 5 && islower((unsigned char)name[i]))
        i++;
    if (i > 0 && i < len - 1 && name[i] == '_')
        return i + 1;
    if (len > 1 && (name[0] == 'd' || name[0] == 'h') && isupper((unsigned char)name[1]))
        return 1;
    return 0;
}

/* Whether a and b are one name in two memory spaces: equal once a
 * prefix such as d_ or h_ is taken off either (P and d_P, h_in and
 * d_in): the host array passed where its device copy belongs. */
/* Whether the prefix of n characters names a memory space for certain
 * (d_, h_, dev_, host_, dA's d): where what follows is one letter, any
 * other (`col_` of col_i) is a word, and the letter is no stem. */
static int space_word(const char *name, size_t n)
{
    static const char *const words[] = { "d", "h", "dev", "host", "gpu", "cpu", NULL };
    size_t w = n > 0 && name[n - 1] == '_' ? n - 1 : n;
    for (int i = 0; words[i]; i++)
        if (strlen(words[i]) == w && !strncmp(name, words[i], w))
            return 1;
    return 0;
}

static int same_stem(const sym *a, const sym *b)
{
    size_t pa = space_prefix(a->name, a->len), pb = space_prefix(b->name, b->len);
    if (pa == 0 && pb == 0)
        return 0;
    if (a->len - pa == 1 && !(pa ? space_word(a->name, pa) : space_word(b->name, pb)))
        return 0;
    return a->len - pa == b->len - pb && a->len > pa && !memcmp(a->name + pa, b->name + pb, a->len - pa);
}

/* How alike two names are: their common start and end (case aside),
 * whether they are as long, whether b is a parameter, and whether they
 * are one name in two memory spaces. */
static int likeness(const sym *a, const sym *b)
{
    size_t n = a->len < b->len ? a->len : b->len, pre = 0, suf = 0;
    while (pre < n && tolower((unsigned char)a->name[pre]) == tolower((unsigned char)b->name[pre]))
        pre++;
    while (suf < n - pre && tolower((unsigned char)a->name[a->len - 1 - suf]) ==
                                tolower((unsigned char)b->name[b->len - 1 - suf]))
        suf++;
    /* a function's parameters (its sizes, its arrays) are what a bound or
     * an index most often takes by mistake for another, and most of all
     * one parameter for another (a matrix's k for its j) */
    return (int)(2 * (pre + suf)) + (a->len == b->len) + 2 * (b->depth == 1) + 3 * (a->depth == 1 && b->depth == 1) +
           8 * same_stem(a, b);
}

/* A neighbour that tells a role: a name or a number (a bracket or an
 * operator alone is beside almost anything). */
static int telling(const sc *s, size_t k)
{
    return s->r.t[k].kind == T_IDENT || s->r.t[k].kind == T_NUM;
}

/* How much the name at tokens [k, ke) stands where the atom [b, e)
 * stands: the same neighbours on either side, one or two tokens, each
 * name or number among them a point more (`ph * TILE_WIDTH` for
 * `t * TILE_WIDTH`: 2; `] ;`: 1). 0 to 6. */
static int role_match(const sc *s, size_t k, size_t ke, size_t b, size_t e)
{
    int m = 0;
    if (k > 0 && b > 0 && same(s, k - 1, b - 1)) {
        m += telling(s, b - 1);
        if (k > 1 && b > 1 && same(s, k - 2, b - 2))
            m += 1 + telling(s, b - 2);
    }
    if (ke < s->r.nt && e < s->r.nt && same(s, ke, e)) {
        m += telling(s, e);
        if (ke + 1 < s->r.nt && e + 1 < s->r.nt && same(s, ke + 1, e + 1))
            m += 1 + telling(s, e + 1);
    }
    return m;
}

/* The most the name y stands elsewhere in the file where the atom [b, e)
 * stands (role_match). */
static int role_of(const sc *s, const sym *y, size_t b, size_t e)
{
    int role = 0;
    for (size_t k = 0; k < s->r.nt; k++) {
        if (k == b || s->r.t[k].kind != T_IDENT || tl(s, k) != y->len || memcmp(tk(s, k), y->name, y->len) != 0)
            continue;
        int r = role_match(s, k, k + 1, b, e);
        role = r > role ? r : role;
    }
    return role;
}

/* What the file itself says for y in place of var at the atom [b, e): y
 * written elsewhere between the same neighbours, more than var itself is
 * (a slip takes the name a twin statement has there; where var stands in
 * that role too, the role tells them nothing). */
/* The next part of an identifier from *p (n characters left): a run
 * between underscores, split again where a capital follows a small
 * letter (`in_pitch_bytes`: in, pitch, bytes; `d_inPitch`: d, in,
 * Pitch). Its length, 0 at the end. */
static size_t next_part(const char **p, size_t *n, const char **part)
{
    while (*n > 0 && **p == '_')
        (*p)++, (*n)--;
    if (*n == 0)
        return 0;
    size_t len = 1;
    while (len < *n && (*p)[len] != '_' && !(islower((unsigned char)(*p)[len - 1]) && isupper((unsigned char)(*p)[len])))
        len++;
    *part = *p;
    *p += len;
    *n -= len;
    return len;
}

static int has_name_part(const char *name, size_t n, const char *part, size_t len)
{
    const char *q;
    for (size_t l; (l = next_part(&name, &n, &q)) > 0;)
        if (l == len && strncasecmp(q, part, len) == 0)
            return 1;
    return 0;
}

/* A part of y's name that var's has not and another name of the
 * statement has (`in` of in_pitch_bytes, in `cudaMemcpy2D(d_in,
 * row_bytes, in->data, ...)` for row_bytes; not out_pitch_bytes): the
 * name that belongs with the others. A point a part (in_pitch_bytes has
 * two there, out_pitch_bytes one), which only breaks a tie of the other
 * evidence; a part of one letter counts for nothing. */
static int statement_parts(const sc *s, const sym *var, const sym *y, size_t b)
{
    if (s->ctx_e <= s->ctx_b)
        return 0;
    const char *p = y->name, *part;
    size_t n = y->len, len;
    int score = 0;
    while ((len = next_part(&p, &n, &part)) > 0) {
        if (len < 2 || has_name_part(var->name, var->len, part, len))
            continue;
        int found = 0;
        for (size_t k = s->ctx_b; k < s->ctx_e && k < s->r.nt && !found; k++)
            found = k != b && ident(s, k) && has_name_part(tk(s, k), tl(s, k), part, len);
        score += found;
    }
    return score;
}

static int evidence(const sc *s, const sym *var, const sym *y, size_t b, size_t e)
{
    int more = role_of(s, y, b, e) - role_of(s, var, b, e);
    return more > 0 ? 4 * more : 0;
}

/* Whether part [part, part + len) is a part of a name of the statement
 * other than the one at token b. */
static int statement_has_part(const sc *s, const char *part, size_t len, size_t b)
{
    for (size_t k = s->ctx_b; k < s->ctx_e && k < s->r.nt; k++)
        if (k != b && ident(s, k) && has_name_part(tk(s, k), tl(s, k), part, len))
            return 1;
    return 0;
}

/* Whether y is the name a twin statement puts here (twin) as this
 * statement would write it: the two names alike but for one part, y's
 * written among the statement's other names and twin's not
 * (in_pitch_bytes for out_pitch_bytes in `d_in_img.pitch = ...`, where
 * the twin `d_out_img.pitch = ...` has out_pitch_bytes). */
static int twin_analog(const sc *s, const sym *y, const sym *twin, size_t b)
{
    if (s->ctx_e <= s->ctx_b)
        return 0;
    const char *p = y->name, *q = twin->name, *pp, *qp, *mine = NULL, *theirs = NULL;
    size_t n = y->len, m = twin->len, mine_len = 0, theirs_len = 0;
    int differ = 0, common = 0;
    for (;;) {
        size_t lp = next_part(&p, &n, &pp), lq = next_part(&q, &m, &qp);
        if (!lp || !lq) {
            if (lp || lq)
                return 0;
            break;
        }
        if (lp == lq && strncasecmp(pp, qp, lp) == 0) {
            common++;
            continue;
        }
        if (++differ > 1)
            return 0;
        mine = pp, mine_len = lp, theirs = qp, theirs_len = lq;
    }
    /* (names of one part each, `tx` and `Col`, share nothing to be alike in) */
    return differ == 1 && common >= 1 && mine_len >= 2 && theirs_len >= 2 && statement_has_part(s, mine, mine_len, b) &&
           !statement_has_part(s, theirs, theirs_len, b);
}

/* ---- a literal bound, a member: the names the file's evidence puts there ---- */

/* Whether token k is a member read through a plain name (`in.width`,
 * `in->width`; not `a.b.c`'s last), and is no call's or array's. */
static int member_at(const sc *s, size_t k)
{
    return ident(s, k) && k >= 2 && (at(s, k - 1, ".") || at(s, k - 1, "->")) && ident(s, k - 2) &&
           !(k >= 3 && (at(s, k - 3, ".") || at(s, k - 3, "->"))) && !at(s, k + 1, "(") && !at(s, k + 1, "[") &&
           !at(s, k + 1, ".") && !at(s, k + 1, "->");
}

/* An arithmetic or comparison operator's token (`<=` is two tokens). */
static int arith_at(const sc *s, size_t k)
{
    return k < s->r.nt && s->r.t[k].kind == T_PUNCT && tl(s, k) == 1 && strchr("*/%+-<>", *tk(s, k)) != NULL;
}

/* Whether the occurrence [kb, ke) is a comparison's operand (`srcY < height`, `x <= height`, `height > y`). */
static int compared_at(const sc *s, size_t kb, size_t ke)
{
    size_t q = kb >= 2 && at(s, kb - 1, "=") ? kb - 2 : kb - 1;
    return (kb >= 1 && (at(s, q, "<") || at(s, q, ">"))) || at(s, ke, "<") || at(s, ke, ">");
}

/* Whether the occurrence [kb, ke) stands beside the name at token v (at
 * most one operator between: `channels + k`, `k * channels`). */
static int beside(const sc *s, size_t kb, size_t ke, size_t v)
{
    if (v == (size_t)-1)
        return 0;
    return (kb >= 2 && same(s, kb - 2, v) && arith_at(s, kb - 1)) || (kb >= 1 && same(s, kb - 1, v)) ||
           (ke + 1 < s->r.nt && same(s, ke + 1, v) && arith_at(s, ke)) || (ke < s->r.nt && same(s, ke, v));
}

/* Tokens [kb, ke) spell what [b, e) spells. */
static int same_span(const sc *s, size_t kb, size_t ke, size_t b, size_t e)
{
    if (ke - kb != e - b)
        return 0;
    for (size_t i = 0; i < e - b; i++)
        if (!same(s, kb + i, b + i))
            return 0;
    return 1;
}

/* What the file says for the occurrences of [nb, ne) (a name, or a member
 * through a name) in place of the literal at [b, e), compared with the
 * name at token v: the most the name stands anywhere where the literal
 * stands (`k < channels ;` for `k < 3 ;`), four points a point of it; two
 * where it stands beside v in the function (`* channels + k`: what k
 * counts along); one where the function compares it (a bound). */
static int bound_evidence(const sc *s, size_t nb, size_t ne, size_t b, size_t e, size_t v)
{
    int role = 0, near = 0, compared = 0;
    for (size_t k = 0; k + (ne - nb) <= s->r.nt; k++) {
        if (k == b || !same_span(s, k, k + (ne - nb), nb, ne) || (ne == nb + 1 && k >= 1 &&
                                                                  (at(s, k - 1, ".") || at(s, k - 1, "->"))))
            continue;
        size_t ke = k + (ne - nb);
        int r = role_match(s, k, ke, b, e);
        role = r > role ? r : role;
        if (k > s->fn_open && ke <= s->fn_close) {
            near |= beside(s, k, ke, v);
            compared |= compared_at(s, k, ke);
        }
    }
    return 4 * role + 2 * near + compared;
}

/* Keeps the alternative (to, text) among the best n of at most max by
 * score (higher first, the earlier among equals). */
struct ranked { char *to, *text; int score; };
static void rank_in(struct ranked *best, int *n, int max, char *to, char *text, int score)
{
    int at_ = *n;
    while (at_ > 0 && best[at_ - 1].score < score)
        at_--;
    if (at_ >= max) {
        free(to);
        free(text);
        return;
    }
    if (*n == max) {
        free(best[*n - 1].to);
        free(best[*n - 1].text);
    } else {
        (*n)++;
    }
    memmove(best + at_ + 1, best + at_, (size_t)(*n - 1 - at_) * sizeof *best);
    best[at_] = (struct ranked){ to, text, score };
}

/* Whether the member at token k is here an operand of arithmetic or a
 * comparison (`in->width - 1`; a `*` before it only where it multiplies). */
static int numeric_at(const sc *s, size_t k)
{
    if (arith_at(s, k + 1))
        return 1;
    size_t o = k - 3;
    return k >= 3 && arith_at(s, o) &&
           !(at(s, o, "*") && !(o > 0 && (telling(s, o - 1) || at(s, o - 1, ")") || at(s, o - 1, "]"))));
}

/* Whether the member at token m (through the name at m - 2) is a number
 * by the file's own uses of it through that name (numeric_at somewhere:
 * `in->width - 1`, never `in->data`). */
static int numeric_member(const sc *s, size_t m)
{
    for (size_t k = 2; k < s->r.nt; k++)
        if (member_at(s, k) && same_span(s, k - 2, k + 1, m - 2, m + 1) && numeric_at(s, k))
            return 1;
    return 0;
}

/* An integer literal compared (`k < 3`, `x < 16`; not 0, the lower
 * bound that is almost always meant) with the expression other: a number
 * written where a size the function has belongs (`k < channels`). As
 * candidates, the int names in scope (the function's parameters and
 * locals) and the number members the function reads through a name in
 * scope (`in.channels`), other's own name aside, those the file's
 * evidence puts there (bound_evidence) only, at most BOUNDS_PER_SITE,
 * the most evidence first, parameters first among equals. */
static void literal_bound(sc *s, node *lit, const node *other)
{
    if (!lit->atom_group || lit->e != lit->b + 1 || !sch_int_literal(s, lit->b) || at(s, lit->b, "0") ||
        s->fn_close <= s->fn_open)
        return;
    size_t b = lit->b, e = lit->e, v = other->var && other->e == other->b + 1 ? other->b : (size_t)-1;
    struct ranked best[BOUNDS_PER_SITE];
    int n = 0;
    for (int param = 1; param >= 0; param--)
        for (size_t i = s->nsyms; i-- > 0;) {
            sym *y = &s->syms[i];
            if (y->depth == 0 || (y->depth == 1) != param || y->vk != V_INT || y->key[0] == '#' ||
                strchr(y->key, '[') || y == other->var || sch_lookup_text(s, y->name, y->len) != y)
                continue;
            size_t k = s->fn_open; /* an occurrence of it, for bound_evidence */
            while (k < s->fn_close && !(ident(s, k) && tl(s, k) == y->len && !memcmp(tk(s, k), y->name, y->len)))
                k++;
            int score = k < s->fn_close ? bound_evidence(s, k, k + 1, b, e, v) : 0;
            char *name = xasprintf("%.*s", (int)y->len, y->name);
            if (score > 0)
                rank_in(best, &n, BOUNDS_PER_SITE, name, xstrdup(name), score);
            else
                free(name);
        }
    /* members: each one through each name once (the first MAX_MEMBERS the function reads) */
    size_t seen[MAX_MEMBERS];
    int nseen = 0;
    for (size_t k = s->fn_open + 3; k < s->fn_close && nseen < MAX_MEMBERS; k++) {
        if (!member_at(s, k) || !sch_lookup(s, k - 2))
            continue;
        int dup = 0;
        for (int i = 0; i < nseen && !dup; i++)
            dup = same_span(s, seen[i] - 2, seen[i] + 1, k - 2, k + 1);
        if (dup)
            continue;
        seen[nseen++] = k;
        int score = numeric_member(s, k) ? bound_evidence(s, k - 2, k + 1, b, e, v) : 0;
        if (score > 0) {
            char *text = sch_span_text(s, k - 2, k + 1);
            rank_in(best, &n, BOUNDS_PER_SITE, text,
                    xasprintf("::gpulab_emu_::as_(%s, %.*s, 0)", text, (int)tl(s, b), tk(s, b)), score);
        }
    }
    group *g = &s->g[lit->atom_group - 1];
    char *from = sch_span_text(s, b, e);
    for (int i = 0; i < n; i++) {
        sch_add_alt(s, g, "name", from, best[i].to, best[i].text);
        free(best[i].to);
    }
    free(from);
}

/* The grid's extent in threads along one axis (`gridDim.x * blockDim.x`,
 * either way round) where a size of the data belongs: a row's stride, a
 * width, a bound. The grid is rounded up to whole blocks, so the extent
 * is the size only where the size is a multiple of the block. As
 * candidates for the product whole, the function's int parameters, at
 * most BOUNDS_PER_SITE, those the file's evidence puts there first
 * (bound_evidence: `Row * Width + k` beside `k * Width + Col`); kind
 * `name`. */
static void extent_names(sc *s, const node *l, const node *r)
{
    if (l->e != l->b + 3 || r->e != r->b + 3 || !sch_builtin_at(s, l->b) || !sch_builtin_at(s, r->b) ||
        !same(s, l->b + 2, r->b + 2) || s->fn_close <= s->fn_open || !sch_one_line(s, l->b, r->e))
        return;
    int grid_block = (at(s, l->b, "gridDim") && at(s, r->b, "blockDim")) ||
                     (at(s, l->b, "blockDim") && at(s, r->b, "gridDim"));
    if (!grid_block)
        return;
    size_t b = l->b, e = r->e;
    struct ranked best[BOUNDS_PER_SITE];
    int n = 0;
    for (size_t i = s->nsyms; i-- > 0;) {
        sym *y = &s->syms[i];
        if (y->depth != 1 || y->vk != V_INT || y->key[0] == '#' || strchr(y->key, '[') ||
            sch_lookup_text(s, y->name, y->len) != y)
            continue;
        size_t k = s->fn_open; /* an occurrence of it, for bound_evidence */
        while (k < s->fn_close && !(ident(s, k) && tl(s, k) == y->len && !memcmp(tk(s, k), y->name, y->len)))
            k++;
        int score = k < s->fn_close ? bound_evidence(s, k, k + 1, b, e, (size_t)-1) : 0;
        char *name = xasprintf("%.*s", (int)y->len, y->name);
        rank_in(best, &n, BOUNDS_PER_SITE, name, xstrdup(name), score);
    }
    if (n == 0)
        return;
    group *g = sch_new_group(s, G_ATOM, b, e);
    char *from = sch_span_text(s, b, e);
    for (int i = 0; i < n; i++) {
        sch_add_alt(s, g, "name", from, best[i].to, best[i].text);
        free(best[i].to);
    }
    free(from);
}

/* A sum grouped otherwise than meant, at the operator of l and r (the
 * source's own text regrouped; kind `grouping`):
 *  - a subscript closed before its last term, `N[k * Width] + Col` (a
 *    float element plus an int): `N[k * Width + Col]`;
 *  - a term inside the parentheses of a product that belongs after it,
 *    `(srcY * width + srcX + k) * channels`: `(srcY * width + srcX) *
 *    channels + k`;
 *  - a product that should take the whole sum before it, its
 *    parentheses left out, `srcY * width + srcX * channels` (ints):
 *    `(srcY * width + srcX) * channels`. */

/* Whether the statement takes the remainder of the same division, lt %
 * rt (`k / TILE_WIDTH + (k % TILE_WIDTH > 1)`), or the statement after it
 * does (`if (k % TILE_WIDTH > 1) numPhases++;`): the count rounds up by
 * that remainder's test, which is the edit to make where it is wrong;
 * rounding the quotient up as well only adds a phase or a block more. */
static int remainder_written(const sc *s, const char *lt, const char *rt)
{
    size_t end = s->ctx_e + 1;
    while (end < s->r.nt && !at(s, end, ";") && !at(s, end, "}"))
        end++;
    for (size_t q = s->ctx_b + 1; q + 1 < end && q + 1 < s->r.nt; q++) {
        if (!at(s, q, "%"))
            continue;
        int left = 0, right = 0;
        for (size_t n = 1; n <= 8 && n <= q && !left; n++) {
            char *x = sch_span_text(s, q - n, q);
            left = strcmp(x, lt) == 0;
            free(x);
        }
        for (size_t n = 1; n <= 8 && q + 1 + n <= s->r.nt && left && !right; n++) {
            char *x = sch_span_text(s, q + 1, q + 1 + n);
            right = strcmp(x, rt) == 0;
            free(x);
        }
        if (left && right)
            return 1;
    }
    return 0;
}

/* Whether the dividend lt already rounds the quotient by rt up: it adds
 * rt - 1 (`(k + TILE_WIDTH - 1)`, `k + TILE_WIDTH - 1`, `(TILE_WIDTH - 1 +
 * k)`), spaces aside. */
static int rounds_up_already(const char *lt, const char *rt)
{
    char a[512], b[256];
    size_t n = 0, m = 0;
    for (const char *c = lt; *c && n + 1 < sizeof a; c++)
        if (*c != ' ' && *c != '\t' && *c != '\n')
            a[n++] = *c;
    a[n] = '\0';
    for (const char *c = rt; *c && m + 1 < sizeof b; c++)
        if (*c != ' ' && *c != '\t' && *c != '\n')
            b[m++] = *c;
    b[m] = '\0';
    if (!m)
        return 0;
    char *plus = xasprintf("+%s-1", b), *front = xasprintf("%s-1+", b);
    int found = strstr(a, plus) != NULL || strstr(a, front) != NULL;
    free(plus);
    free(front);
    return found;
}

/* The round-up of lt / rt as text: `(lt + rt - 1) / rt`; where lt is a
 * bracketed sum whose last term is a number (`(width + 1)`, a round-up
 * written with the wrong addend), that number replaced instead: `(width
 * + BLOCK_WIDTH - 1) / BLOCK_WIDTH`, not the count of one block more. */
static char *round_up_text(const char *lt, const char *rt)
{
    size_t n = strlen(lt);
    if (n > 2 && lt[0] == '(' && lt[n - 1] == ')') {
        size_t last = 0;
        int depth = 0;
        for (size_t q = 1; q + 1 < n; q++) {
            if (lt[q] == '(' || lt[q] == '[')
                depth++;
            else if (lt[q] == ')' || lt[q] == ']')
                depth--;
            else if (depth == 0 && (lt[q] == '+' || lt[q] == '-') && q > 1)
                last = q;
        }
        size_t t = last + 1;
        while (t < n - 1 && lt[t] == ' ')
            t++;
        size_t d = t;
        while (d < n - 1 && lt[d] >= '0' && lt[d] <= '9')
            d++;
        size_t z = d;
        while (z < n - 1 && lt[z] == ' ')
            z++;
        if (last && d > t && z == n - 1) {
            size_t h = last;
            while (h > 1 && lt[h - 1] == ' ')
                h--;
            return xasprintf("(%.*s + %s - 1) / %s", (int)(h - 1), lt + 1, rt, rt);
        }
    }
    return xasprintf("(%s + %s - 1) / %s", lt, rt, rt);
}

/* (`+` of `ty + i + MASK_RADIUS`; e when the span is one term) */
size_t sch_last_term_operator(const sc *s, size_t b, size_t e)
{
    size_t op = e;
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        if (at(s, k, "(") || at(s, k, "["))
            depth++;
        else if (at(s, k, ")") || at(s, k, "]"))
            depth--;
        else if (depth == 0 && k > b && (at(s, k, "+") || at(s, k, "-")))
            op = k;
    }
    return op;
}

/* An element `a[i + T][j + T]` whose two subscripts end in the same lone
 * term (a name or a number, `+ MASK_RADIUS` in both): an offset added to
 * each, which no edit of one subscript takes out. As a candidate, the term
 * dropped from both (kind `twin-subscripts`, from the term with its
 * operator, to empty; a static edit of the two subscripts). */
static void twin_subscript_term(sc *s, const node *first, const node *second)
{
    size_t o1 = sch_last_term_operator(s, first->b, first->e), o2 = sch_last_term_operator(s, second->b, second->e);
    if (o1 >= first->e || o2 >= second->e || o1 + 2 != first->e || o2 + 2 != second->e ||
        !same(s, o1, o2) || !same(s, o1 + 1, o2 + 1) || !(ident(s, o1 + 1) || sch_int_literal(s, o1 + 1)))
        return;
    size_t at_[2] = { o1, o2 }, end[2] = { first->e, second->e };
    char *with[2] = { "", "" };
    char *text = sch_span_subst(s, first->b, second->e, at_, end, with, 2, 0);
    char *from = sch_span_text(s, o1, first->e);
    sch_static_alt(s, first->b, second->e, "twin-subscripts", from, "", text);
    free(from);
    free(text);
}

static void grouping_edits(sc *s, const node *l, const node *r, const char *op)
{
    if (!sch_one_line(s, l->b, r->e) || s->fn_close <= s->fn_open)
        return;
    char *to = NULL;
    /* a member's type the tokens do not tell (`in.channels`): an int
     * beside an int */
    int li = l->vk == V_INT || l->vk == V_UNKNOWN, ri = r->vk == V_INT || r->vk == V_UNKNOWN;
    int ints = li && ri && (l->vk == V_INT || r->vk == V_INT);
    if (!strcmp(op, "+") && l->vk == V_FLOAT && r->vk == V_INT && at(s, l->e - 1, "]")) {
        char *head = sch_span_text(s, l->b, l->e - 1), *term = sch_span_text(s, r->b, r->e);
        to = xasprintf("%s + %s]", head, term);
        free(head);
        free(term);
    } else if (!strcmp(op, "*") && li && ri &&
               ((at(s, l->b, "(") && at(s, l->e - 1, ")") && sch_after(s, l->b) == l->e) ||
                (at(s, r->b, "(") && at(s, r->e - 1, ")") && sch_after(s, r->b) == r->e))) {
        /* a factor beside a parenthesised sum (of ints, or of members
         * whose type the tokens do not tell: `(row_i * in.pitch + col_i)
         * * in.channels`): the parentheses' `+` and `-` at their own
         * depth, the first and the last */
        int left = at(s, l->b, "(") && at(s, l->e - 1, ")") && sch_after(s, l->b) == l->e;
        const node *sum = left ? l : r, *other = left ? r : l;
        size_t first = 0, last = 0;
        int depth = 0, terms = 1;
        for (size_t k = sum->b + 1; k + 1 < sum->e; k++) {
            if (at(s, k, "(") || at(s, k, "["))
                depth++;
            else if (at(s, k, ")") || at(s, k, "]"))
                depth--;
            else if (depth == 0 && (at(s, k, "+") || at(s, k, "-")) && k > sum->b + 1 && !arith_at(s, k - 1)) {
                first = first ? first : k;
                last = k;
                terms++;
            }
        }
        if (last) {
            char *factor = sch_span_text(s, other->b, other->e);
            char *head = sch_span_text(s, sum->b + 1, last), *term = sch_span_text(s, last + 1, sum->e - 1);
            char *one = sch_span_text(s, sum->b + 1, first), *rest = sch_span_text(s, first + 1, sum->e - 1);
            const char *lop = tk(s, last)[0] == '-' ? "-" : "+", *fop = tk(s, first)[0] == '-' ? "-" : "+";
            char *alts[3];
            int n = 0;
            /* the last term moved out of the parentheses:
             * `(srcY * width + srcX + k) * channels` for `(... + srcX) * channels + k` */
            if (left)
                alts[n++] = xasprintf("(%s) * %s %s %s", head, factor, lop, term);
            /* the factor on the first term alone: `blockIdx.y * (TILE_WIDTH + destY)`
             * for `blockIdx.y * TILE_WIDTH + destY` (with two terms and the
             * factor after, the same as the last moved out) */
            if (!left || terms > 2)
                alts[n++] = left ? xasprintf("%s * %s %s %s", one, factor, fop, rest)
                                 : xasprintf("%s * %s %s %s", factor, one, fop, rest);
            /* the factor on the last term alone: `(Row * Width + ph) * TILE_WIDTH`
             * for `Row * Width + ph * TILE_WIDTH` */
            alts[n++] = left ? xasprintf("%s %s %s * %s", head, lop, term, factor)
                             : xasprintf("%s %s %s * %s", head, lop, factor, term);
            group *g = sch_new_group(s, G_ATOM, l->b, r->e);
            char *from = sch_span_text(s, l->b, r->e);
            for (int i = 0; i < n; i++) {
                sch_add_alt(s, g, "grouping", from, alts[i], xstrdup(alts[i]));
                free(alts[i]);
            }
            free(from);
            free(factor);
            free(head);
            free(term);
            free(one);
            free(rest);
        }
    } else if (!strcmp(op, "/") && ints && at(s, r->b, "(") && at(s, r->e - 1, ")") && sch_after(s, r->b) == r->e) {
        /* a divisor whose parentheses take in a term too many: `(w - 1) /
         * (O_TILE_WIDTH + 1)` for `(w - 1) / O_TILE_WIDTH + 1`, the last
         * term at the parentheses' own depth moved out */
        size_t last = 0;
        int depth = 0;
        for (size_t k = r->b + 1; k + 1 < r->e; k++) {
            if (at(s, k, "(") || at(s, k, "["))
                depth++;
            else if (at(s, k, ")") || at(s, k, "]"))
                depth--;
            else if (depth == 0 && (at(s, k, "+") || at(s, k, "-")) && k > r->b + 1 && !arith_at(s, k - 1))
                last = k;
        }
        if (last) {
            char *num = sch_span_text(s, l->b, l->e), *head = sch_span_text(s, r->b + 1, last),
                 *term = sch_span_text(s, last + 1, r->e - 1);
            const char *lop = tk(s, last)[0] == '-' ? "-" : "+";
            to = last == r->b + 2 ? xasprintf("%s / %s %s %s", num, head, lop, term)
                                  : xasprintf("%s / (%s) %s %s", num, head, lop, term);
            free(num);
            free(head);
            free(term);
        }
    } else if (strchr("<>=!", op[0]) && at(s, l->e - 1, ")") && l->e - 1 > l->b) {
        /* a comparison after a sum whose last term is in parentheses
         * closed before it: `k / T + (k % T) > 0` compares the whole sum,
         * where `k / T + (k % T > 0)` was meant */
        size_t close = l->e - 1, open = close;
        int depth = 0;
        for (size_t k = close + 1; k-- > l->b;) {
            if (at(s, k, ")") || at(s, k, "]"))
                depth++;
            else if ((at(s, k, "(") || at(s, k, "[")) && --depth == 0) {
                open = k;
                break;
            }
        }
        if (open < close && open > l->b && at(s, open, "(") && (at(s, open - 1, "+") || at(s, open - 1, "-")) &&
            open - 1 > l->b) {
            char *head = sch_span_text(s, l->b, open), *inner = sch_span_text(s, open + 1, close),
                 *rt = sch_span_text(s, r->b, r->e);
            to = xasprintf("%s (%s %s %s)", head, inner, op, rt);
            free(head);
            free(inner);
            free(rt);
        }
    } else if (!strcmp(op, "+") && ints) {
        /* r a product of two operands at its own depth: `b * c` */
        size_t mul = 0;
        int depth = 0, ops = 0;
        for (size_t k = r->b; k < r->e; k++) {
            if (at(s, k, "(") || at(s, k, "["))
                depth++;
            else if (at(s, k, ")") || at(s, k, "]"))
                depth--;
            else if (depth == 0 && arith_at(s, k) && !(k + 1 < r->e && at(s, k + 1, "=")))
                ops++, mul = at(s, k, "*") ? k : mul;
        }
        if (ops == 1 && mul) {
            char *head = sch_span_text(s, l->b, l->e), *b = sch_span_text(s, r->b, mul),
                 *c = sch_span_text(s, mul + 1, r->e);
            to = xasprintf("(%s + %s) * %s", head, b, c);
            free(head);
            free(b);
            free(c);
        } else if (r->e == r->b + 1 && ident(s, r->b)) {
            /* l a product of names whose last factor should take the sum:
             * `ph * TILE_WIDTH * Width + ty` for `(ph * TILE_WIDTH + ty) *
             * Width` (a row made of two terms, scaled by its length) */
            /* (three factors at least, a row's two and its length: `by *
             * TILE_WIDTH + ty` is a row itself, no row scaled) */
            size_t last = 0;
            int d = 0, other = 0, products = 0;
            for (size_t k = l->b; k < l->e; k++) {
                if (at(s, k, "(") || at(s, k, "["))
                    d++;
                else if (at(s, k, ")") || at(s, k, "]"))
                    d--;
                else if (d == 0 && at(s, k, "*"))
                    last = k, products++;
                else if (d == 0 && arith_at(s, k))
                    other = 1;
            }
            if (last > l->b && !other && products >= 2 && last + 2 == l->e && ident(s, last + 1) &&
                at(s, l->b + 1, "*")) {
                char *head = sch_span_text(s, l->b, last), *c = sch_span_text(s, last + 1, l->e),
                     *t = sch_span_text(s, r->b, r->e);
                to = xasprintf("(%s + %s) * %s", head, t, c);
                free(head);
                free(c);
                free(t);
            }
        }
    }
    if (!to)
        return;
    group *g = sch_new_group(s, G_ATOM, l->b, r->e);
    /* a comparison regrouped is a sum, not a truth value: not cast to
     * the comparison's bool, which would make 7 a 1 */
    if (strchr("<>=!", op[0]))
        g->helper = "uncast";
    char *from = sch_span_text(s, l->b, r->e);
    sch_add_alt(s, g, "grouping", from, to, xstrdup(to));
    free(from);
    free(to);
}

/* How the occurrence [kb, ke) is used: 1 compared, 2 multiplied or
 * divided, 4 added or subtracted (a bound, a stride, an offset). */
static int use_of(const sc *s, size_t kb, size_t ke)
{
    int use = compared_at(s, kb, ke) ? 1 : 0;
    static const char *const ops[] = { "*", "/", "+", "-" };
    for (int i = 0; i < 4; i++)
        if ((kb >= 1 && at(s, kb - 1, ops[i]) && kb >= 2 && (telling(s, kb - 2) || at(s, kb - 2, ")"))) ||
            at(s, ke, ops[i]))
            use |= i < 2 ? 2 : 4;
    return use;
}

/* Whether the file subscripts a member so spelt through any name (`in.data[`): an array's. */
static int array_member(const sc *s, size_t m)
{
    for (size_t k = 1; k + 1 < s->r.nt; k++)
        if (same(s, k, m) && (at(s, k - 1, ".") || at(s, k - 1, "->")) && at(s, k + 1, "["))
            return 1;
    return 0;
}

/* Two declared types' keys alike but for const (`const Image_t *`, `Image_t *`). */
static int same_type(const char *a, const char *b)
{
    for (;;) {
        while (*a == ' ' || !strncmp(a, "const ", 6))
            a += *a == ' ' ? 1 : 6;
        while (*b == ' ' || !strncmp(b, "const ", 6))
            b += *b == ' ' ? 1 : 6;
        if (*a != *b)
            return 0;
        if (!*a)
            return 1;
        a++, b++;
    }
}

/* Whether the member at token q is read through the name at b or
 * through a name in scope of the same declared type (`out.pitch` for
 * `in.`), with the same operator. */
static int sibling_member(sc *s, size_t q, size_t b)
{
    if (!member_at(s, q) || !same(s, q - 1, b + 1))
        return 0;
    if (same(s, q - 2, b))
        return 1;
    sym *x = sch_lookup(s, q - 2), *y = sch_lookup(s, b);
    return x && y && x->key[0] != '#' && same_type(x->key, y->key);
}

/* A member read through a name, tokens [b, b + 3) (`in->width`): another
 * member of the same structure where it belongs (`in->height` rows
 * allocated `in->width`). As candidates, the other members the file reads
 * through that name or another of its type (sibling_member), no array
 * (array_member), at most MEMBERS_PER_SITE: the file's evidence first
 * (the other written where this one stands, more than itself is), then
 * one used as this one is here (a bound for a bound, a stride for a
 * stride), one the file computes with, the most alike. The value goes
 * through emu_schemata.h's as_, so that a member of another type leaves
 * the build whole. Its group's index + 1, or 0. */
/* Whether two members are one extent's two axes (`width` and `height`,
 * `rows` and `cols`, case aside): the copy-paste of a 2D size writes one
 * for the other. */
static int axis_twin(const sym *a, const sym *b)
{
    static const char *const pairs[][2] = { { "width", "height" }, { "rows", "cols" }, { "nrows", "ncols" } };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        for (int o = 0; o < 2; o++) {
            const char *x = pairs[i][o], *y = pairs[i][!o];
            if (a->len == strlen(x) && b->len == strlen(y) && !strncasecmp(a->name, x, a->len) &&
                !strncasecmp(b->name, y, b->len))
                return 1;
        }
    return 0;
}

static int member_edits(sc *s, size_t b)
{
    size_t m = b + 2;
    if (!member_at(s, m) || array_member(s, m) || !sch_one_line(s, b, b + 3))
        return 0;
    /* the other members, each with what its occurrences tell: one pass */
    struct member { size_t tok; int role, use, numeric; } mem[MAX_MEMBERS];
    int nm = 0, own = 0, here = use_of(s, b, b + 3);
    for (size_t q = 2; q < s->r.nt; q++) {
        if (q == m || !sibling_member(s, q, b))
            continue;
        int r = role_match(s, q - 2, q + 1, b, b + 3), i = 0;
        if (same(s, q, m)) {
            own = r > own ? r : own;
            continue;
        }
        while (i < nm && !same(s, mem[i].tok, q))
            i++;
        if (i == nm) {
            if (nm == MAX_MEMBERS)
                continue;
            mem[nm++] = (struct member){ q, 0, 0, 0 };
        }
        mem[i].role = r > mem[i].role ? r : mem[i].role;
        mem[i].use |= use_of(s, q - 2, q + 1);
        mem[i].numeric |= numeric_at(s, q);
    }
    struct ranked best[MEMBERS_PER_SITE];
    int n = 0;
    sym self = { .name = tk(s, m), .len = tl(s, m) };
    char *from = sch_span_text(s, b, b + 3);
    for (int i = 0; i < nm; i++) {
        size_t k = mem[i].tok;
        if (array_member(s, k))
            continue;
        /* the file's evidence, then one used as this one is here (a bound
         * for a bound, a stride for a stride), one the file computes with,
         * the most alike */
        sym other = { .name = tk(s, k), .len = tl(s, k) };
        int use = mem[i].use & here, role = mem[i].role;
        int score = 16 * (role > own ? role - own : 0) + 8 * ((use & 1) + !!(use & 2) + !!(use & 4)) +
                    4 * mem[i].numeric + likeness(&self, &other) + 16 * axis_twin(&self, &other);
        char *to = xasprintf("%.*s%.*s", (int)(s->r.t[m].b - s->r.t[b].b), tk(s, b), (int)tl(s, k), tk(s, k));
        rank_in(best, &n, MEMBERS_PER_SITE, to, xasprintf("::gpulab_emu_::as_(%s, %s, 0)", to, from), score);
    }
    if (n == 0) {
        free(from);
        return 0;
    }
    group *g = sch_new_group(s, G_ATOM, b, b + 3);
    for (int i = 0; i < n; i++) {
        sch_add_alt(s, g, "member", from, best[i].to, best[i].text);
        free(best[i].to);
    }
    free(from);
    return (int)s->ng;
}

/* A built-in index compared (`threadIdx.y < Width`) where an int local
 * the function computed from it belongs (`Row`, declared `int Row =
 * blockIdx.y * blockDim.y + threadIdx.y`): a bounds test on the thread's
 * place in its block, not in the grid. As candidates, those locals (at
 * most two, the latest first), kind `name`. */
static void derived_names(sc *s, group *g, size_t b, size_t e, const char *from)
{
    if (!compared_at(s, b, e) || s->fn_close <= s->fn_open)
        return;
    int builtin = e == b + 3;
    size_t found[2];
    int made = 0;
    for (size_t k = b; k-- > s->fn_open + 1 && made < 2;) {
        if (!ident(s, k) || !at(s, k - 1, "int") || !at(s, k + 1, "=") || at(s, k + 2, "=") || same(s, k, b))
            continue;
        sym *y = sch_lookup_text(s, tk(s, k), tl(s, k));
        if (!y || y->vk != V_INT || y->depth == 0)
            continue;
        /* its initialiser: to the `;`, or to a `,` outside brackets (`int
         * tx = threadIdx.x, ty = threadIdx.y`: tx's is `threadIdx.x` alone) */
        int uses = 0, depth = 0;
        for (size_t q = k + 2; q + 2 < s->r.nt && !at(s, q, ";") && !(depth == 0 && at(s, q, ",")) && !uses; q++) {
            depth += at(s, q, "(") || at(s, q, "[") ? 1 : at(s, q, ")") || at(s, q, "]") ? -1 : 0;
            uses = builtin ? same(s, q, b) && at(s, q + 1, ".") && same(s, q + 2, b + 2)
                           : same(s, q, b) && !at(s, q - 1, ".") && !at(s, q - 1, "->") && !at(s, q + 1, ".");
        }
        if (uses)
            found[made++] = k;
    }
    /* the one the statement the test guards reads first (`M[Row * k +
     * mCol]` under `if (ty < j && ...)`: Row, not nRow, though both are
     * made from ty): the rest of the condition, then that statement */
    if (made == 2) {
        size_t end = b;
        while (end < s->fn_close && !at(s, end, ";"))
            end++;
        int read1 = 0;
        for (size_t q = e; q < end && !read1; q++)
            read1 = same(s, q, found[1]) && !at(s, q - 1, ".");
        if (read1) {
            size_t t = found[0];
            found[0] = found[1];
            found[1] = t;
        }
    }
    for (int i = 0; i < made && g->nalts < MAX_ALTS; i++) {
        char *to = xasprintf("%.*s", (int)tl(s, found[i]), tk(s, found[i]));
        if (!g->derived)
            g->derived = g->nalts + 1;
        sch_add_alt(s, g, "name", from, to, to);
    }
}

/* A block's or grid's size (`blockDim.x`, `gridDim.y`) as a factor of a
 * product (`M[Row * blockDim.x + k]`) where an int name of the function
 * belongs, a row's length (`Width`): the function's int names that it
 * multiplies elsewhere, most often first (at most two), kind `name`. A
 * block's size is the stride of nothing the kernel stores but its tiles. */
static void size_factor_names(sc *s, group *g, size_t b, const char *from)
{
    if (!(at(s, b, "blockDim") || at(s, b, "gridDim")) || s->fn_close <= s->fn_open ||
        !((b > 0 && at(s, b - 1, "*")) || at(s, b + 3, "*")))
        return;
    sym *best[2] = { NULL, NULL };
    int count[2] = { 0, 0 };
    for (size_t i = s->nsyms; i-- > 0;) {
        sym *y = &s->syms[i];
        if (y->vk != V_INT || sch_lookup_text(s, y->name, y->len) != y)
            continue;
        int c = 0;
        for (size_t k = s->fn_open + 1; k < s->fn_close; k++)
            if (ident(s, k) && tl(s, k) == y->len && !memcmp(tk(s, k), y->name, y->len) &&
                !at(s, k - 1, ".") && !at(s, k - 1, "->") && (at(s, k - 1, "*") || at(s, k + 1, "*")))
                c++;
        if (c > count[0]) {
            best[1] = best[0], count[1] = count[0];
            best[0] = y, count[0] = c;
        } else if (c > count[1]) {
            best[1] = y, count[1] = c;
        }
    }
    for (int i = 0; i < 2 && best[i]; i++) {
        char *to = xasprintf("%.*s", (int)best[i]->len, best[i]->name);
        sch_add_alt(s, g, "name", from, to, to);
    }
}

/* The value edits of an atom at tokens [b, e): names of the same declared
 * type in scope, the other built-in indexes, a literal's neighbours. */
/* An array read or stored where another of its declaration's kind belongs
 * (`ds_M[i][tx]` for `ds_N[i][tx]`, a tile read twice in the product):
 * each other array of the same element type, bounds and memory space in
 * scope, at most NAMES_PER_SITE, the latest first (kind `name`). The group
 * is rendered without a cast, which no array takes (schemata.c). */
static void array_edits(sc *s, node *n, sym *var)
{
    size_t b = n->b, e = n->e;
    if (!sch_one_line(s, b, e))
        return;
    group *g = NULL;
    /* said with its subscripts, which tell one use of the name from another */
    size_t se = e;
    while (at(s, se, "["))
        se = sch_after(s, se);
    char *from = sch_span_text(s, b, se), *subs = se > e ? sch_span_text(s, e, se) : xstrdup("");
    int made = 0;
    for (size_t i = s->nsyms; i-- > 0 && made < NAMES_PER_SITE;) {
        sym *y = &s->syms[i];
        if (y == var || strcmp(y->array_key, var->array_key) != 0 ||
            (y->len == var->len && !memcmp(y->name, var->name, y->len)) || sch_lookup_text(s, y->name, y->len) != y)
            continue;
        if (!g) {
            g = sch_new_group(s, G_ATOM, b, e);
            g->helper = "array";
        }
        char *to = xasprintf("%.*s%s", (int)y->len, y->name, subs);
        sch_add_alt(s, g, "name", from, to, xasprintf("%.*s", (int)y->len, y->name));
        free(to);
        made++;
    }
    free(subs);
    free(from);
}

/* An int name added bare in a subscript (`M[Row + k]`) that the file
 * elsewhere multiplies by a name or a number (`P[Row * Width + Col]`):
 * its row's stride left out. As a candidate, the name times that factor,
 * the first the file writes (kind `stride`). */
static void stride_edit(sc *s, group *g, const sym *var, size_t b, size_t e, const char *from)
{
    if (s->nest <= 0 || var->vk != V_INT || e != b + 1 || (b > 0 && (at(s, b - 1, "*") || at(s, b - 1, "/"))) ||
        at(s, e, "*") || at(s, e, "/") || at(s, e, "[") || !(at(s, b - 1, "+") || at(s, e, "+")))
        return;
    for (size_t k = 0; k + 2 < s->r.nt; k++) {
        if (k == b || !same(s, k, b) || !at(s, k + 1, "*") || !(ident(s, k + 2) || s->r.t[k + 2].kind == T_NUM) ||
            same(s, k + 2, b) || at(s, k + 3, ".") || at(s, k + 3, "(") || at(s, k + 3, "[") ||
            (k > 0 && (at(s, k - 1, ".") || at(s, k - 1, "->"))))
            continue;
        char *to = xasprintf("%.*s * %.*s", (int)var->len, var->name, (int)tl(s, k + 2), tk(s, k + 2));
        sch_add_alt(s, g, "stride", from, to, to);
        return;
    }
}

/* Whether the body of the function being parsed reads the name. */
static int word_in_body(const sc *s, const char *name, size_t len)
{
    for (size_t k = s->fn_open + 1; k < s->fn_close; k++)
        if (s->r.t[k].kind == T_IDENT && tl(s, k) == len && memcmp(tk(s, k), name, len) == 0 &&
            !(k > 0 && (at(s, k - 1, ".") || at(s, k - 1, "->"))))
            return 1;
    return 0;
}

static void atom_edits(sc *s, node *n, sym *var)
{
    size_t b = n->b, e = n->e;
    if (!sch_one_line(s, b, e))
        return;
    group *g = sch_new_group(s, G_ATOM, b, e);
    char *from = sch_span_text(s, b, e), *to;
    if (var) {
        /* the names the file puts in its place (the same role in a twin
         * statement) and the names most like
         * it (tx for ty, d_P for d_M, Width for TILE_WIDTH), innermost
         * first among equals: a slip of the pen takes a name like the
         * right one, or one written beside it */
        const char *amp = n->addr_of ? "&" : "";
        /* a compared local int of a kernel (`ty < j`): the locals computed
         * from it (`Row = by * TILE_WIDTH + ty`), a test written on the
         * thread's place in its block where its element's belongs */
        if (s->in_kernel && var->vk == V_INT && e == b + 1 && !n->addr_of)
            derived_names(s, g, b, e, from);
        sym *best[NAMES_PER_SITE];
        int score[NAMES_PER_SITE], nbest = 0;
        /* first the file's evidence for each name that may stand here,
         * then each name's score with its twin's analog's evidence */
        size_t *cand = xrealloc(NULL, (s->nsyms + 1) * sizeof *cand);
        int *ev = xrealloc(NULL, (s->nsyms + 1) * sizeof *ev), ncand = 0;
        /* an argument of a call in host code (a kernel's launch, a
         * copy's count) takes any integer name for an integer: a size_t
         * byte count passed where an int width belongs (`bytes` for
         * `width`) is one name for another whatever their types */
        int host_argument = !s->in_kernel && s->nest > 0 && var->vk == V_INT;
        for (size_t i = s->nsyms; i-- > 0;) {
            sym *y = &s->syms[i];
            if (y == var || (strcmp(y->key, var->key) != 0 && !(host_argument && y->vk == V_INT && !y->array_key[0] &&
                                                                !strchr(y->key, '*'))) ||
                (y->len == var->len && !memcmp(y->name, var->name, y->len)))
                continue;
            if (sch_lookup_text(s, y->name, y->len) != y) /* the innermost of each name only */
                continue;
            cand[ncand] = i;
            ev[ncand++] = evidence(s, var, y, b, e);
        }
        for (int c = 0; c < ncand; c++) {
            sym *y = &s->syms[cand[c]];
            int twin = 0;
            for (int d = 0; d < ncand; d++)
                if (d != c && ev[d] > 0 && ev[d] + 1 > twin && twin_analog(s, y, &s->syms[cand[d]], b))
                    twin = ev[d] + 1;
            /* the innermost loop's own variable, in its body: what an
             * index there most often meant (`ds_M[ty][tx]` in the loop
             * over i of the sum, where ds_M[ty][i] belongs) */
            int looped = s->loop_var > 0 && y == &s->syms[s->loop_var - 1];
            /* a pointer the function is given and reads nowhere in its
             * body (`cudaMemcpyToSymbol(Mc, I, ...)` in a function whose
             * `mask` is read by nothing): what the slip left out */
            int unread = y->vk == V_PTR && y->depth > 0 && !word_in_body(s, y->name, y->len);
            /* (the statement's parts break ties alone) */
            int sc = 8 * (likeness(var, y) + (twin > ev[c] ? twin : ev[c]) + 6 * looped + 6 * unread) +
                     statement_parts(s, var, y, b),
                at_ = nbest;
            while (at_ > 0 && score[at_ - 1] < sc)
                at_--;
            if (at_ >= NAMES_PER_SITE)
                continue;
            if (nbest < NAMES_PER_SITE)
                nbest++;
            memmove(best + at_ + 1, best + at_, (size_t)(nbest - 1 - at_) * sizeof *best);
            memmove(score + at_ + 1, score + at_, (size_t)(nbest - 1 - at_) * sizeof *score);
            best[at_] = y;
            score[at_] = sc;
        }
        free(cand);
        free(ev);
        for (int i = 0; i < nbest; i++) {
            to = xasprintf("%s%.*s", amp, (int)best[i]->len, best[i]->name);
            int had = 0;
            for (int a = 0; a < g->nalts && !had; a++)
                had = g->alt[a] && strcmp(g->alt[a], to) == 0;
            if (had)
                free(to);
            else
                sch_add_alt(s, g, "name", from, to, to);
        }
        stride_edit(s, g, var, b, e, from);
    } else if (s->r.t[b].kind == T_NUM) {
        long v = strtol(tk(s, b), NULL, 10);
        if (v > 0) {
            to = xasprintf("%ld", v - 1);
            sch_add_alt(s, g, "literal", from, to, to);
        }
        to = xasprintf("%ld", v + 1);
        sch_add_alt(s, g, "literal", from, to, to);
        /* a shift by the size in bytes where its log belongs (`>> 4` for
         * `>> 2`: a byte pitch made floats): a shift's power of two, its
         * log (not a launch's `<<<16, ...`, whose `<` come three) */
        int shift = b > 1 && ((at(s, b - 1, ">") && at(s, b - 2, ">")) || (at(s, b - 1, "<") && at(s, b - 2, "<"))) &&
                    !(b > 2 && at(s, b - 3, "<"));
        int log = 0;
        for (long x = v; x > 1 && !(x & 1); x >>= 1)
            log++;
        if (shift && v > 2 && v <= 64 && (1L << log) == v) {
            to = xasprintf("%d", log);
            sch_add_alt(s, g, "literal", from, to, to);
        }
        /* a number written where a named constant was meant (14 for TILE_WIDTH) */
        int named = 0;
        for (size_t i = s->nsyms; i-- > 0 && named < NAMES_PER_SITE;) {
            sym *y = &s->syms[i];
            if (y->depth == 0 && strcmp(y->key, "int") == 0 && sch_lookup_text(s, y->name, y->len) == y) {
                to = xasprintf("%.*s", (int)y->len, y->name);
                sch_add_alt(s, g, "name", from, to, to);
                named++;
            }
        }
    } else {
        /* a built-in index: the other built-ins' same component, its other components */
        size_t c = b + 2;
        for (int i = 0; builtins[i]; i++)
            if (!at(s, b, builtins[i])) {
                to = xasprintf("%s.%.*s", builtins[i], (int)tl(s, c), tk(s, c));
                sch_add_alt(s, g, "builtin", from, to, to);
            }
        static const char comp[] = "xyz";
        for (int i = 0; i < 3; i++)
            if ((s->components & (1 << i)) && !(tl(s, c) == 1 && *tk(s, c) == comp[i])) {
                to = xasprintf("%.*s.%c", (int)tl(s, b), tk(s, b), comp[i]);
                sch_add_alt(s, g, "builtin", from, to, to);
            }
        derived_names(s, g, b, b + 3, from);
        size_factor_names(s, g, b, from);
    }
    free(from);
    if (g->nalts == 0) {
        s->ng--;
        return;
    }
    n->atom_group = (int)s->ng;
}

int sch_builtin_at(const sc *s, size_t k)
{
    if (!ident(s, k) || !at(s, k + 1, ".") || !ident(s, k + 2))
        return 0;
    for (int i = 0; builtins[i]; i++)
        if (at(s, k, builtins[i]))
            return at(s, k + 2, "x") || at(s, k + 2, "y") || at(s, k + 2, "z");
    return 0;
}

/* A decimal literal that is an int: digits only. */
int sch_int_literal(const sc *s, size_t k)
{
    if (s->r.t[k].kind != T_NUM)
        return 0;
    for (size_t i = 0; i < tl(s, k); i++)
        if (tk(s, k)[i] < '0' || tk(s, k)[i] > '9')
            return 0;
    return tl(s, k) < 9 && !(tl(s, k) > 1 && tk(s, k)[0] == '0');
}


static void swap_edit(sc *s, node *a, node *b, int *ga, int *gb, const char *kind);

/* sizeof(T *) with T a number's type, tokens [k, e): a buffer of T sized
 * by its pointers (8 bytes an element for 4); as a candidate, sizeof(T). */
static void pointer_size(sc *s, node *n, size_t k, size_t e)
{
    if (e < k + 5 || !at(s, e - 2, "*") || at(s, e - 3, "*") || !sch_one_line(s, k, e))
        return;
    char key[64] = "";
    for (size_t i = k + 2; i < e - 2; i++) {
        if (!sch_is_type_name(s, i) || strlen(key) + tl(s, i) + 2 >= sizeof key)
            return;
        if (!at(s, i, "const") && !at(s, i, "volatile"))
            snprintf(key + strlen(key), sizeof key - strlen(key), "%s%.*s", *key ? " " : "", (int)tl(s, i), tk(s, i));
    }
    if (sch_key_kind(key) != V_INT && sch_key_kind(key) != V_FLOAT)
        return;
    char *from = sch_span_text(s, k, e), *type = sch_span_text(s, k + 2, e - 2), *to = xasprintf("sizeof(%s)", type);
    group *g = sch_new_group(s, G_ATOM, k, e);
    sch_add_alt(s, g, "sizeof", from, to, xstrdup(to));
    n->atom_group = (int)s->ng;
    free(from);
    free(type);
    free(to);
}

/* Whether the name at token k is a factor of a product (beside `*`). */
static int factor(const sc *s, size_t k)
{
    return (k > 0 && at(s, k - 1, "*")) || at(s, k + 1, "*");
}

/* Whether the factor at token k is multiplied by a constant: a number, or
 * a name the file defines as one (a macro, a constant local). */
static int scaled_by_constant(sc *s, size_t k)
{
    size_t other = k > 0 && at(s, k - 1, "*") && k >= 2 ? k - 2 : at(s, k + 1, "*") ? k + 2 : (size_t)-1;
    if (other == (size_t)-1 || other >= s->r.nt)
        return 0;
    const char *t = tk(s, other);
    if (t[0] >= '0' && t[0] <= '9')
        return 1;
    sym *y = sch_lookup(s, other);
    return y && (y->key[0] == '#' || y->constant || y->depth == 0);
}

/* What a name says it holds: 1 a block's coordinate (`bx`, `blockX`,
 * `blk_y`), 2 a thread's (`tx`, `tid_y`, `threadY`), 0 neither. */
static int coordinate_role(const sym *v)
{
    const char *n = v->name;
    size_t l = v->len;
    char last = l ? (char)(n[l - 1] | 0x20) : 0;
    if (last < 'x' || last > 'z')
        return 0;
    if (l == 2)
        return n[0] == 'b' ? 1 : n[0] == 't' ? 2 : 0;
    if (!strncmp(n, "block", 5) || !strncmp(n, "blk", 3))
        return 1;
    if (!strncmp(n, "thread", 6) || !strncmp(n, "tid", 3))
        return 2;
    return 0;
}

/* Two names of one subscript exchanged (`M[k * Width + Row]` for
 * `M[Row * Width + k]`: a row's index where a column's belongs, the
 * matrix read transposed): as candidates, a factor of a product in it
 * swapped with a name added to it (beside no `*`, `/` or `%`), both
 * variables (no constants) of one declared type; at most two a
 * subscript, the products' names the kernel computes first (locals with
 * an initialiser), then the rest, each from the left. The plain names read in
 * it are s->names[n0, nnames), those at nest s->nest + 1 its own. (Also a
 * kernel's int local's initialiser, parsed one nest deeper: schemata.c.) */
void sch_index_swaps(sc *s, size_t n0)
{
    int made = 0, garg[64];
    for (size_t i = 0; i < 64; i++)
        garg[i] = -1;
    /* the factors a constant scales (`TILE_WIDTH * tx`: a coordinate made
     * a tile's stride) before those of two variables (`Row * Width`: a
     * row and its length, which a swap rarely mends) */
    for (int pass = 0; pass < 2; pass++)
    for (size_t i = n0; i < s->nnames && made < 2; i++) {
        const struct sub_name *f = &s->names[i];
        if (f->nest != s->nest + 1 || !factor(s, f->b) || scaled_by_constant(s, f->b) != (pass == 0))
            continue;
        for (size_t j = n0; j < s->nnames && made < 2; j++) {
            const struct sub_name *a = &s->names[j];
            if (a->nest != s->nest + 1 || factor(s, a->b) || at(s, a->b - 1, "/") || at(s, a->b - 1, "%") ||
                at(s, a->b + 1, "/") || at(s, a->b + 1, "%"))
                continue;
            if (f->var->depth == 0 || a->var->depth == 0 || strcmp(f->var->key, a->var->key) != 0 ||
                f->var->key[0] == '#' || strchr(f->var->key, '[') || same(s, f->b, a->b))
                continue;
            /* a block's coordinate scaled, plus a thread's (`bx * S + tx`):
             * exchanged, the thread's is scaled, a mapping no correct file
             * writes (emucc's `coordinates` is that edit the other way) */
            if (coordinate_role(f->var) == 1 && coordinate_role(a->var) == 2)
                continue;
            node x = { f->b, f->b + 1, f->var->vk, 0, f->var, 0, 0 };
            node y = { a->b, a->b + 1, a->var->vk, 0, a->var, 0, 0 };
            size_t before = s->nc;
            if (f->b < a->b)
                swap_edit(s, &x, &y, &garg[i - n0], &garg[j - n0], "index-swap");
            else
                swap_edit(s, &y, &x, &garg[j - n0], &garg[i - n0], "index-swap");
            made += s->nc > before;
        }
    }
}

static node parse_unary(sc *s, size_t *p)
{
    node n = { *p, *p, V_UNKNOWN, 0, NULL, 0, 0 };
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
        sym *y = sch_lookup(s, k + 1);
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
            *p = sch_after(s, k + 1);
            pointer_size(s, &n, k, *p);
        } else {
            *p = k + 1;
            size_t first = s->ng;
            parse_unary(s, p);
            sch_drop_groups(s, first);
        }
        n.e = *p;
        n.vk = V_INT;
        return n;
    }
    if (at(s, k, "(")) {
        /* a cast: ( type-words [*...] ) operand */
        size_t c = sch_after(s, k);
        int cast = c > k + 2 && sch_is_type_name(s, k + 1);
        for (size_t i = k + 1; cast && i + 1 < c; i++)
            if (!(sch_is_type_name(s, i) || at(s, i, "*") || at(s, i, "const") || at(s, i, "::")))
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
            n.vk = stars ? V_PTR : sch_key_kind(key);
            return n;
        }
        *p = k + 1;
        node x = sch_parse_expr(s, p, 1);
        if (!at(s, *p, ")")) {
            s->bail = 1;
            return n;
        }
        (*p)++;
        n.e = *p;
        n.vk = x.vk;
    } else if (sch_builtin_at(s, k) && !sch_lookup(s, k)) {
        *p = k + 3;
        n.e = k + 3;
        n.vk = V_INT;
        atom_edits(s, &n, NULL);
    } else if (s->r.t[k].kind == T_NUM) {
        *p = k + 1;
        n.e = k + 1;
        int integral = sch_int_literal(s, k);
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
        sym *y = sch_lookup(s, k);
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
            if (y->key[0] != '#' && !strchr(y->key, '[') && !at(s, k + 1, "(")) {
                atom_edits(s, &n, y);
            } else if (y->array_key[0] && at(s, k + 1, "[")) {
                array_edits(s, &n, y);
            }
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
    node prev_index = n;
    int have_index = 0, gprev = -1, gindex = -1;
    /* an element of an array of floats (or of what a float pointer points
     * at) is a float, however many subscripts reach it */
    int float_elements = n.var && n.var->floating;
    for (;;) {
        size_t q = *p;
        const char *po = op_at(s, q, &len);
        if (at(s, q, "[")) {
            *p = q + 1;
            size_t n0 = s->nnames;
            s->nest++;
            node index = sch_parse_expr(s, p, 1);
            s->nest--;
            if (!at(s, *p, "]")) {
                s->bail = 1;
                return n;
            }
            (*p)++;
            sch_index_swaps(s, n0);
            s->nnames = n0;
            /* a[i][j]: the two subscripts swapped */
            if (have_index && index.b == q + 1 && prev_index.e + 2 == q + 1)
                swap_edit(s, &prev_index, &index, &gprev, &gindex, "swap");
            /* ... or both ending in the same term, which neither wants */
            if (have_index && index.b == q + 1 && prev_index.e + 2 == q + 1 && s->in_kernel)
                twin_subscript_term(s, &prev_index, &index);
            prev_index = index;
            have_index = 1;
            gprev = gindex;
            gindex = -1;
            n.e = *p;
            n.vk = float_elements ? V_FLOAT : V_UNKNOWN;
            /* an array's element: the base stays a value, a pointer's */
            n.var = NULL;
            n.addr_of = 0;
        } else if (at(s, q, "(")) {
            size_t callee = n.e - 1;
            kill_atom(s, &n);
            *p = q + 1;
            size_t n0 = s->nnames; /* a call's arguments: no subscript's own names */
            s->nest++;
            sch_parse_args(s, p, ")", ident(s, callee) && n.e == n.b + 1 ? callee : (size_t)-1);
            s->nest--;
            s->nnames = n0;
            n.e = *p;
            n.vk = V_UNKNOWN;
            n.var = NULL;
        } else if (at(s, q, "<<<")) {
            kill_atom(s, &n);
            if (!s->in_kernel)
                s->host_cuda = 1;
            *p = q + 1;
            sch_parse_args(s, p, ">>>", (size_t)-1);
            n.e = *p;
        } else if (at(s, q, ".") || at(s, q, "->")) {
            if (at(s, q, "."))
                kill_atom(s, &n); /* a structure's member: never through a copy */
            if (!ident(s, q + 1)) {
                s->bail = 1;
                return n;
            }
            int through_name = n.var && n.b + 1 == q;
            *p = q + 2;
            n.e = *p;
            n.vk = V_UNKNOWN;
            n.var = NULL;
            int member = through_name ? member_edits(s, n.b) : 0;
            if (member) {
                n.base_group = n.atom_group;
                n.atom_group = member;
            }
        } else if (po && (strcmp(po, "++") == 0 || strcmp(po, "--") == 0)) {
            kill_atom(s, &n);
            *p = q + len;
            n.e = *p;
            n.var = NULL;
        } else {
            break;
        }
    }
    if (n.var && n.e == n.b + 1 && s->nest > 0 && s->nnames < sizeof s->names / sizeof *s->names)
        s->names[s->nnames++] = (struct sub_name){ n.b, n.var, s->nest };
    return n;
}

/* A call's (or launch configuration's) arguments up to close: each one an
 * expression; pairs of the same kind on one line swapped. */
/* Two arguments (or subscripts, or names in one) a and b swapped, where
 * both are of a kind (pointers, integers, floating point, or names of one
 * declared type) and spelt differently; *ga, *gb their G_ARG groups (-1:
 * none yet); name the candidate's kind. */
static void swap_edit(sc *s, node *a, node *b, int *ga, int *gb, const char *name)
{
    int kind = a->vk == b->vk && (a->vk == V_PTR || a->vk == V_INT || a->vk == V_FLOAT);
    if (!kind && a->var && b->var && strcmp(a->var->key, b->var->key) == 0 && a->var->key[0] != '#' &&
        !strchr(a->var->key, '['))
        kind = 1; /* dim3 with dim3 */
    if (!kind || a->e <= a->b || b->e <= b->b || !sch_one_line(s, a->b, b->e))
        return;
    char *ta = sch_span_text(s, a->b, a->e), *tb = sch_span_text(s, b->b, b->e);
    if (strcmp(ta, tb) != 0) {
        if (*ga < 0)
            *ga = (int)(sch_new_group(s, G_ARG, a->b, a->e) - s->g);
        if (*gb < 0)
            *gb = (int)(sch_new_group(s, G_ARG, b->b, b->e) - s->g);
        group *gi = &s->g[*ga], *gj = &s->g[*gb];
        if (gi->nalts < MAX_ALTS && gj->nalts < MAX_ALTS) {
            char *from = xasprintf("%s, %s", ta, tb), *to = xasprintf("%s, %s", tb, ta);
            int c = new_cand(s, gi, name, from, to);
            gi->cand[gi->nalts] = c;
            gi->other[gi->nalts++] = *gb;
            gj->cand[gj->nalts] = c;
            gj->other[gj->nalts++] = *ga;
        }
    }
    free(ta);
    free(tb);
}

/* The times the file writes the name (as a token). */
int sch_count_word(const sc *s, const char *name, size_t len)
{
    int n = 0;
    for (size_t k = 0; k < s->r.nt; k++)
        n += s->r.t[k].kind == T_IDENT && tl(s, k) == len && memcmp(tk(s, k), name, len) == 0;
    return n;
}

/* The element type of the first pointer to numbers among tokens [b, e)
 * (`float` for `(void **)&d_in`), into t; 0 when none. */
static int element_type(sc *s, size_t b, size_t e, char *t, size_t n)
{
    for (size_t k = b; k < e; k++) {
        sym *y = sch_lookup(s, k);
        size_t l = y ? strlen(y->key) : 0;
        if (!y || l < 3 || strcmp(y->key + l - 2, " *") != 0)
            continue;
        snprintf(t, n, "%.*s", (int)(l - 2), y->key);
        if (strchr(t, '*') || !(sch_key_kind(t) == V_INT || sch_key_kind(t) == V_FLOAT))
            continue;
        return 1;
    }
    return 0;
}

/* Whether tokens [b, e) hold sizeof already, or are a lone literal. */
static int sized(const sc *s, size_t b, size_t e)
{
    if (e == b + 1 && s->r.t[b].kind == T_NUM)
        return 1;
    for (size_t k = b; k < e; k++)
        if (at(s, k, "sizeof"))
            return 1;
    return 0;
}

/* A byte count one dimension short or long: tokens [b, e), a product of
 * factors at its top, one of them a sizeof (`(size_t)width *
 * sizeof(float)` where `width * width` elements were meant; the
 * reverse). As candidates (kind `factor`), the product with one more of
 * its own int factors (a name or a member, a cast left off), after that
 * factor, and with the last of a factor written twice left out. */
static void factor_edits(sc *s, size_t b, size_t e)
{
    size_t fb[8], fe[8], nf = 0;
    int depth = 0, has_sizeof = 0;
    if (!sch_one_line(s, b, e))
        return;
    fb[0] = b;
    for (size_t k = b; k < e; k++) {
        if (at(s, k, "(") || at(s, k, "["))
            depth++;
        else if (at(s, k, ")") || at(s, k, "]"))
            depth--;
        else if (depth == 0 && at(s, k, "*")) {
            if (nf == 7 || k == fb[nf])
                return;
            fe[nf++] = k;
            fb[nf] = k + 1;
        } else if (depth == 0 && s->r.t[k].kind == T_PUNCT && !at(s, k, ".") && !at(s, k, "->"))
            return; /* not a plain product */
    }
    if (fb[nf] == e)
        return;
    fe[nf++] = e;
    /* each factor's value: a name or a member through one, a cast left off */
    size_t vb[8];
    int value[8];
    for (size_t i = 0; i < nf; i++) {
        has_sizeof |= at(s, fb[i], "sizeof");
        vb[i] = fb[i];
        if (at(s, fb[i], "(") && sch_is_type_name(s, fb[i] + 1) && sch_after(s, fb[i]) < fe[i])
            vb[i] = sch_after(s, fb[i]);
        value[i] = (fe[i] == vb[i] + 1 && ident(s, vb[i]) && sch_lookup(s, vb[i])) ||
                   (fe[i] == vb[i] + 3 && member_at(s, vb[i] + 2));
    }
    if (!has_sizeof || nf < 2)
        return;
    group *g = NULL;
    char *from = sch_span_text(s, b, e);
    for (size_t i = 0; i < nf; i++) {
        int before = 0, after = 0;
        for (size_t j = 0; value[i] && j < nf; j++)
            if (value[j] && same_span(s, vb[j], fe[j], vb[i], fe[i]))
                before |= j < i, after |= j > i;
        if (!value[i] || (before && after))
            continue;
        /* the first of a value: one more of it after it; the last of a
         * repeated one: it and its `*` left out */
        size_t at_ = before ? fb[i - 1] : fb[i], end = fe[i];
        char *f = sch_span_text(s, before ? fb[i - 1] : fb[i], before ? fe[i - 1] : fe[i]);
        char *v = sch_span_text(s, vb[i], fe[i]);
        char *with = before ? xstrdup(f) : xasprintf("%s * %s", f, v);
        if (!g) {
            g = sch_new_group(s, G_ATOM, b, e);
            g->priority = 1;
            /* its context the statement it is in (a size's declaration, upstream of the call) */
            size_t cb = b, ce = e;
            while (cb > 0 && !at(s, cb - 1, ";") && !at(s, cb - 1, "{") && !at(s, cb - 1, "}"))
                cb--;
            while (ce < s->r.nt && !at(s, ce, ";"))
                ce++;
            if (cb > g->ctx_e || ce < g->ctx_b)
                g->ctx_b = cb, g->ctx_e = ce;
        }
        char *to = sch_span_subst(s, b, e, &at_, &end, &with, 1, 0);
        sch_add_alt(s, g, "factor", from, to, xstrdup(to));
        free(to);
        free(with);
        free(f);
        free(v);
    }
    free(from);
}

/* The arguments of the call of `callee` whose name is at token k (the
 * '(' after it at k + 1), each [b[i], e[i]) at the top level, at most max:
 * how many; 0 where its ')' is not found in [k, end). */
static size_t call_args_at(const sc *s, size_t k, size_t end, size_t *b, size_t *e, size_t max)
{
    size_t n = 0, start = k + 2;
    int depth = 0;
    for (size_t q = k + 2; q < end; q++) {
        if (at(s, q, "(") || at(s, q, "[") || at(s, q, "{"))
            depth++;
        else if ((at(s, q, ")") || at(s, q, "]") || at(s, q, "}")) && depth > 0)
            depth--;
        else if (depth == 0 && (at(s, q, ",") || at(s, q, ")"))) {
            if (n < max && q > start)
                b[n] = start, e[n++] = q;
            if (at(s, q, ")"))
                return n;
            start = q + 1;
        }
    }
    return 0;
}

/* Whether tokens [b, e) hold a `&` (an address: which buffer, not how much). */
static int span_takes_address(const sc *s, size_t b, size_t e)
{
    for (size_t q = b; q < e; q++)
        if (at(s, q, "&"))
            return 1;
    return 0;
}

/* A cuda* call of host code whose argument, written out as an expression
 * (`(size_t)in->width * sizeof(float)`), is another expression or a name
 * at the same place of another call of the same function in the same
 * function (`row_bytes` in the input's cudaMallocPitch): that argument, as
 * a candidate (kind `sibling`, at most two a call). Addresses are left to
 * the names' edits. */
static void sibling_call_args(sc *s, size_t callee, const node *args, size_t na)
{
    if (s->in_kernel || s->fn_close <= s->fn_open)
        return;
    int made = 0;
    for (size_t i = 0; i < na && made < 2; i++) {
        size_t ab = args[i].b, ae = args[i].e;
        if (ae < ab + 2 || !sch_one_line(s, ab, ae) || span_takes_address(s, ab, ae))
            continue;
        char *from = sch_span_text(s, ab, ae);
        group *g = NULL;
        for (size_t k = s->fn_open + 1; k + 1 < s->fn_close && made < 2; k++) {
            if (k == callee || !same(s, k, callee) || !at(s, k + 1, "(") || (k > 0 && at(s, k - 1, ".")))
                continue;
            size_t b[16], e[16];
            size_t n = call_args_at(s, k, s->fn_close, b, e, 16);
            if (n != na || span_takes_address(s, b[i], e[i]) || !sch_one_line(s, b[i], e[i]))
                continue;
            /* a copy the other way (`cudaMemcpyDeviceToHost` against
             * `...HostToDevice`) reads and writes other buffers */
            int other_way = 0;
            for (size_t j = 0; j < n && !other_way; j++)
                other_way = e[j] == b[j] + 1 && args[j].e == args[j].b + 1 && !same(s, b[j], args[j].b) &&
                            tl(s, b[j]) > 10 && !strncmp(tk(s, b[j]), "cudaMemcpy", 10) &&
                            tl(s, args[j].b) > 10 && !strncmp(tk(s, args[j].b), "cudaMemcpy", 10);
            if (other_way)
                continue;
            char *to = sch_span_text(s, b[i], e[i]);
            int had = strcmp(to, from) == 0;
            for (int a = 0; g && a < g->nalts && !had; a++)
                had = strcmp(g->alt[a], to) == 0;
            if (!had) {
                if (!g)
                    g = sch_new_group(s, G_ATOM, ab, ae);
                sch_add_alt(s, g, "sibling", from, to, xstrdup(to));
                made++;
            }
            free(to);
        }
        if (g && g->nalts == 0)
            s->ng--;
        free(from);
    }
}

/* A cuda* call's integer arguments: as a candidate, times sizeof the
 * element type of its pointers (a count of elements where bytes were
 * meant); an argument that is a local with an initialiser gets it there,
 * where every use of the size takes it. emu_schemata.h's scale() leaves
 * an argument that is no number as it is. */
static void size_edits(sc *s, node *args, size_t na)
{
    char t[64];
    if (na == 0 || !element_type(s, args[0].b, args[na - 1].e, t, sizeof t))
        return;
    for (size_t i = 0; i < na; i++) {
        node *a = &args[i];
        if (a->e <= a->b || !(a->vk == V_INT || a->vk == V_UNKNOWN) || a->addr_of)
            continue;
        size_t b = a->b, e = a->e;
        if (a->var && a->var->init_e > a->var->init_b) {
            if (a->var->scaled)
                continue;
            a->var->scaled = 1;
            b = a->var->init_b, e = a->var->init_e;
        }
        if (sized(s, b, e)) {
            factor_edits(s, b, e);
            continue;
        }
        if (!sch_one_line(s, b, e))
            continue;
        group *g = sch_new_group(s, G_SCALE, b, e);
        g->priority = 1;
        char *from = sch_span_text(s, b, e);
        /* parentheses where an operator below * is outside any */
        int paren = 0, depth = 0;
        for (size_t k = b; k < e; k++) {
            depth += at(s, k, "(") - at(s, k, ")");
            paren |= depth == 0 && s->r.t[k].kind == T_PUNCT && !at(s, k, "->") &&
                     strchr("+-<>&|^?=,", *tk(s, k)) != NULL;
        }
        char *to = xasprintf("%s%s%s * sizeof(%s)", paren ? "(" : "", from, paren ? ")" : "", t);
        sch_add_alt(s, g, "sizeof", from, to, xasprintf("%s", t));
        free(from);
        free(to);
    }
}

void sch_parse_args(sc *s, size_t *p, const char *close, size_t callee)
{
    node args[16];
    size_t na = 0;
    if (callee != (size_t)-1 && !s->in_kernel && strncmp(tk(s, callee), "cuda", 4) == 0)
        s->host_cuda = 1;
    while (*p < s->r.nt && !at(s, *p, close)) {
        node a = sch_parse_expr(s, p, 2);
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
    if (callee != (size_t)-1 && !s->in_kernel && strncmp(tk(s, callee), "cuda", 4) == 0) {
        size_edits(s, args, na);
        sibling_call_args(s, callee, args, na);
    }
    if (na < 2 || na > 8 || !sch_one_line(s, args[0].b, args[na - 1].e))
        return;
    (void)end;
    int argg[16];
    for (size_t i = 0; i < na; i++)
        argg[i] = -1;
    for (size_t i = 0; i + 1 < na; i++)
        for (size_t j = i + 1; j < na; j++)
            swap_edit(s, &args[i], &args[j], &argg[i], &argg[j], "swap");
}

/* Whether tokens [b, e) hold a `&&` or `||` outside parentheses and brackets. */
static int top_level_logic(const sc *s, size_t b, size_t e)
{
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        size_t n;
        const char *op = op_at(s, k, &n); /* the tokenizer's punctuators are one character each */
        if (at(s, k, "(") || at(s, k, "["))
            depth++;
        else if (at(s, k, ")") || at(s, k, "]"))
            depth--;
        else if (depth == 0 && op && (!strcmp(op, "&&") || !strcmp(op, "||")))
            return 1;
    }
    return 0;
}

node sch_parse_expr(sc *s, size_t *p, int min_prec)
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
            node r = sch_parse_expr(s, p, 2);
            l.e = r.e;
            l.var = NULL;
            continue;
        }
        if (prec == 3) { /* c ? a : b */
            *p = k + 1;
            node a = sch_parse_expr(s, p, 1);
            if (!at(s, *p, ":")) {
                s->bail = 1;
                return l;
            }
            (*p)++;
            node r = sch_parse_expr(s, p, 2);
            /* one branch alone, always: a condition that picks another
             * value for a case it meant to treat apart (the last phase's
             * bound `ph == numPhases - 1 ? k % TILE_WIDTH : TILE_WIDTH`,
             * 0 where k fills its tiles) where one value serves every case */
            if (!s->bail && sch_one_line(s, l.b, r.e)) {
                group *g = sch_new_group(s, G_ATOM, l.b, r.e);
                char *from = sch_span_text(s, l.b, r.e), *ta = sch_span_text(s, a.b, a.e),
                     *tr = sch_span_text(s, r.b, r.e);
                sch_add_alt(s, g, "conditional", from, tr, xstrdup(tr));
                sch_add_alt(s, g, "conditional", from, ta, xstrdup(ta));
                free(from);
                free(ta);
                free(tr);
            }
            l.e = r.e;
            l.vk = r.vk;
            l.atom_group = 0;
            l.var = NULL;
            continue;
        }
        *p = k + len;
        node r = sch_parse_expr(s, p, prec + 1);
        if (s->bail)
            return l;
        if (prec == 10) { /* a bound written as a number */
            literal_bound(s, &r, &l);
            literal_bound(s, &l, &r);
        }
        if (strcmp(op, "*") == 0) /* the grid's extent for a size */
            extent_names(s, &l, &r);
        /* a sum grouped otherwise; a divisor or a comparison's term in
         * parentheses closed in the wrong place */
        if (!strcmp(op, "+") || !strcmp(op, "*") || !strcmp(op, "/") || prec == 10 || prec == 9)
            grouping_edits(s, &l, &r, op);
        node n = { l.b, r.e, V_UNKNOWN, 0, NULL, 0, 0 };
        const char *helper = NULL;
        /* `+` for `*` and back is an edit of every sum and product, of
         * numbers of any type: a dot product that adds its elements, a
         * size `width * width + sizeof(float)`, a column `ph * TILE_WIDTH
         * * tx` (a slip of the finger: the two keys share one); a
         * quotient's divisor alone, where a count of tiles stands for the
         * tile's size (`by * (Width / TILE_WIDTH)` for `by * TILE_WIDTH`) */
        static const struct { const char *op, *helper, *alts[4]; } table[] = {
            { "+", "add", { "-", "left", "right", "*" } },   { "-", "sub", { "+", "left", NULL, NULL } },
            { "*", "mul", { "left", "right", "+", NULL } },  { "/", "div", { "left", "ceil", "%", "right" } },
            { "%", "mod", { "/", NULL, NULL, NULL } },        { "<", "lt", { "<=", ">", NULL, NULL } },
            { "<=", "le", { "<", ">=", NULL, NULL } },       { ">", "gt", { ">=", "<", NULL, NULL } },
            { ">=", "ge", { ">", "<=", NULL, NULL } },       { "==", "eq", { "!=", NULL, NULL, NULL } },
            { "!=", "ne", { "==", NULL, NULL, NULL } },      { NULL, NULL, { NULL, NULL, NULL, NULL } } };
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
        /* an operand of a type the tokens do not tell (a macro of a
         * header's, a call's value) is fine too: the helper leaves an
         * edit that would not compile as the operator itself */
        int editable = known || (l.vk != V_OTHER && r.vk != V_OTHER && l.vk != V_BOOL && r.vk != V_BOOL);
        if (table[t].op && editable) {
            helper = table[t].helper;
            group *g = sch_new_group(s, G_BIN, l.b, r.e);
            g->op = k;
            g->ope = k + len;
            g->helper = helper;
            char *from = sch_span_text(s, l.b, r.e);
            char *lt = sch_span_text(s, l.b, l.e), *rt = sch_span_text(s, r.b, r.e);
            /* a quotient that already rounds up (`(k + TILE_WIDTH - 1) /
             * TILE_WIDTH`) is the idiom written right: another operator,
             * half of it, or rounding it up again, only makes up for a
             * mistake elsewhere (a loop's bound that skips a phase) */
            int idiom = strcmp(op, "/") == 0 && rounds_up_already(lt, rt);
            for (int a = 0; a < 4 && table[t].alts[a] && !idiom; a++) {
                const char *w = table[t].alts[a];
                if (strcmp(w, "left") == 0) {
                    sch_add_alt(s, g, "drop-right", from, lt, NULL);
                } else if (strcmp(w, "right") == 0) {
                    sch_add_alt(s, g, "drop-left", from, rt, NULL);
                } else if (strcmp(w, "ceil") == 0) {
                    /* a count that rounds down where it must round up */
                    if (remainder_written(s, lt, rt))
                        continue;
                    char *to = round_up_text(lt, rt);
                    sch_add_alt(s, g, "round-up", from, to, NULL);
                    free(to);
                } else {
                    char *to = xasprintf("%s %s %s", lt, w, rt);
                    sch_add_alt(s, g, "operator", from, to, NULL);
                    free(to);
                }
            }
            free(from);
            free(lt);
            free(rt);
        } else if (strcmp(op, "&&") == 0 || strcmp(op, "||") == 0) {
            group *g = sch_new_group(s, G_LOGIC, l.b, r.e);
            g->op = k;
            g->ope = k + len;
            g->helper = op[0] == '&' ? "and" : "or";
            char *from = sch_span_text(s, l.b, r.e);
            char *lt = sch_span_text(s, l.b, l.e), *rt = sch_span_text(s, r.b, r.e);
            char *to = xasprintf("%s %s %s", lt, op[0] == '&' ? "||" : "&&", rt);
            sch_add_alt(s, g, "operator", from, to, NULL);
            free(to);
            /* one clause too many (a test that leaves out what it should
             * not): the condition without it. `a && b && c` is read
             * ((a && b) && c): each operator drops its right clause, and
             * the first one its left too; no edit drops two at once */
            sch_add_alt(s, g, "drop-right", from, lt, NULL);
            if (!top_level_logic(s, l.b, l.e))
                sch_add_alt(s, g, "drop-left", from, rt, NULL);
            free(from);
            free(lt);
            free(rt);
        }
        l = n;
    }
}

