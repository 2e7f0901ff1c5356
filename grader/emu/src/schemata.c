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
 * its neighbours, a compared literal by a size the file's evidence puts
 * there, a member by another of its structure), a binary operator by its neighbours or by one of its
 * operands, a quotient rounded up, && for || and back, two arguments of a call swapped, a
 * statement dropped, a barrier or an initialiser added, a dim3's shape
 * made square, a cuda* call's size times sizeof or (holding sizeof) a
 * factor more or less, sizeof(T *) as
 * sizeof(T), two names of one subscript swapped; and, each in a copy of
 * its function of its own (a type or a bound is no run's choice), an int
 * that stores floats declared float, an array's bounds another macro. A
 * mistake repeated at parallel places gets one candidate that edits them
 * all: sibling declarations' bounds, each test of a condition that uses
 * one comparison, a for loop's start and its bound.
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
#include "schemata_int.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    s->nnames = 0;
    s->nest = 0;
    if (k < end)
        sch_parse_expr(s, &p, 1);
    if (s->bail || p != end) {
        sch_drop_groups(s, first);
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
    if (!ident(s, k) || sch_lookup(s, k))
        return 0;
    if (sch_is_type_name(s, k))
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
    group *g = sch_new_group(s, kind, k, k + 1);
    g->bb = g->be = s->r.t[k].e;
    g->tb = g->te = k + 1;
    g->text = text;
    sch_add_alt(s, g, ckind, from, to, NULL);
    free(from);
    free(to);
}

/* Whether tokens [b, e) are a literal zero (`0`, `0.0f`, `0.0`). */
static int zero_literal(const sc *s, size_t b, size_t e)
{
    if (e != b + 1 || s->r.t[b].kind != T_NUM)
        return 0;
    for (const char *c = tk(s, b); c < tk(s, b) + tl(s, b); c++)
        if (*c != '0' && *c != '.' && *c != 'f' && *c != 'F')
            return 0;
    return 1;
}

/* Whether the function adds into the name at token `name` (`name +=`, or
 * `name = name + ...`) after token `from`, before its body's end. */
static int added_into_later(const sc *s, size_t name, size_t from)
{
    for (size_t k = from + 1; k + 2 < s->r.nt && k < s->fn_close; k++) {
        if (!same(s, k, name) || (k > 0 && (at(s, k - 1, ".") || at(s, k - 1, "->"))))
            continue;
        if (at(s, k + 1, "+") && at(s, k + 2, "="))
            return 1;
        if (at(s, k + 1, "=") && !at(s, k + 2, "=") && same(s, k + 2, name) && at(s, k + 3, "+"))
            return 1;
    }
    return 0;
}

/* A kernel's __shared__ declaration of one name, tokens [b, end], no
 * initialiser: as a candidate, the thread's own variable instead. */
static void unshare(sc *s, size_t b, size_t name, size_t end)
{
    int shared = 0;
    for (size_t k = b; k < name; k++) {
        shared |= at(s, k, "__shared__");
        if (at(s, k, "extern") || at(s, k, "static"))
            return;
    }
    if (!shared)
        return;
    group *g = sch_new_group(s, G_UNSHARE, b, end + 1);
    g->op = name;
    char *from = sch_span_text(s, b, end + 1), *to = xstrdup(from), *w;
    while ((w = strstr(to, "__shared__")) != NULL)
        memmove(w, w + 11 - (w[10] == 0), strlen(w + 11 - (w[10] == 0)) + 1);
    sch_add_alt(s, g, "unshare", from, to, NULL);
    free(from);
    free(to);
}

/* The file's number macros but the one spelt `but`, and the constant int
 * locals in scope (`const int w = TILE_WIDTH + MASK_WIDTH - 1;`, a bound
 * as good as a macro), those it writes most first, at most
 * NAMES_PER_SITE into best; how many. */
static int number_macros(const sc *s, const char *but, struct size_macro *best)
{
    struct size_macro all[96];
    size_t nall = 0;
    for (size_t i = 0; i < s->nsyms && nall < 64; i++)
        if ((s->syms[i].depth == 0 || s->syms[i].constant) && strcmp(s->syms[i].key, "int") == 0 &&
            sch_lookup_text((sc *)s, s->syms[i].name, s->syms[i].len) == &s->syms[i])
            all[nall++] = (struct size_macro){ s->syms[i].name, s->syms[i].len };
    for (size_t i = 0; i < s->nsizes; i++)
        all[nall++] = s->sizes[i];
    int count[NAMES_PER_SITE], nbest = 0;
    for (size_t i = 0; i < nall; i++) {
        struct size_macro *y = &all[i];
        if (strlen(but) == y->len && memcmp(but, y->name, y->len) == 0)
            continue;
        int c = sch_count_word(s, y->name, y->len), at_ = nbest;
        while (at_ > 0 && count[at_ - 1] < c)
            at_--;
        if (at_ >= NAMES_PER_SITE)
            continue;
        if (nbest < NAMES_PER_SITE)
            nbest++;
        memmove(best + at_ + 1, best + at_, (size_t)(nbest - 1 - at_) * sizeof *best);
        memmove(count + at_ + 1, count + at_, (size_t)(nbest - 1 - at_) * sizeof *count);
        best[at_] = *y;
        count[at_] = c;
    }
    return nbest;
}

/* A dim3's arguments, tokens [b, e): as candidates, the shape a block or
 * grid most often should have had: a square (the one dimension given
 * twice, or the second where it is 1), or a square of another of the
 * file's integer macros where it is one already (`O_TILE_WIDTH,
 * O_TILE_WIDTH` for `BLOCK_WIDTH, BLOCK_WIDTH`; the macros the file writes
 * most first). dim3 values are the run's: the edit is cheap. */
/* The one count given twice (`dim3 dimGrid(A, A)`): a mistake in A was
 * written in both, and no edit of one mends it. As a candidate for each
 * edit inside the first argument (of a name, a literal, an operator, a
 * round-up), that edit at both at once (kind `twin-args`, `twin-round-up`
 * for a round-up; from and to the edit's own, the shape group's text the
 * whole arguments). Groups [first, ng) are the arguments'; the first
 * argument is tokens [b0, e0), the second [b1, e1), a third's text a2. */
static void twin_arguments(sc *s, group *g, size_t first, size_t b0, size_t e0, size_t b1, const char *a2)
{
    /* (an operand dropped is left out: in a grid's count it only launches
     * more, `width` blocks for `width / 16`, the kernel's bounds test
     * idling the rest) */
    static const char *const kinds[] = { "round-up", "operator", "literal", "name", "member", "grouping", NULL };
    size_t last = s->ng;
    /* a count that rounds up by a remainder's term of its own (`w / 16 +
     * (w % 16 != 0)`): a round-up of its quotient counts one block more,
     * and hides which way the term's test is wrong */
    char *arg = sch_span_text(s, b0, e0);
    int remainder = strchr(arg, '%') != NULL;
    free(arg);
    for (int k = remainder ? 1 : 0; kinds[k] && g->nalts < MAX_ALTS; k++)
        for (size_t i = first; i < last && g->nalts < MAX_ALTS; i++) {
            const group *in = &s->g[i];
            if ((in->kind != G_ATOM && in->kind != G_BIN) || in->tb < b0 || in->te > e0 || in->te <= in->tb)
                continue;
            for (int a = 0; a < in->nalts && g->nalts < MAX_ALTS; a++) {
                const cand *c = &s->c[in->cand[a]];
                if (c->dead || strcmp(c->kind, kinds[k]) != 0)
                    continue;
                /* a literal made 0 is a term dropped, which the shape's
                 * own alternative (its trailing `- 1` dropped) says, */
                if (!strcmp(c->kind, "literal") && !strcmp(c->to, "0"))
                    continue;
                /* ... and so is an operator that makes its literal neutral
                 * (`+ 1` made `* 1`) */
                size_t tl = strlen(c->to);
                if (!strcmp(c->kind, "operator") && tl > 4 &&
                    (!strcmp(c->to + tl - 4, " * 1") || !strcmp(c->to + tl - 4, " / 1") ||
                     !strcmp(c->to + tl - 4, " + 0") || !strcmp(c->to + tl - 4, " - 0")))
                    continue;
                size_t at_[2] = { in->tb, in->tb - b0 + b1 }, end[2] = { in->te, in->te - b0 + b1 };
                char *with[2] = { c->to, c->to };
                char *one = sch_span_subst(s, b0, e0, at_, end, with, 1, 0);
                char *text = a2 ? xasprintf("%s, %s, %s", one, one, a2) : xasprintf("%s, %s", one, one);
                /* the same arguments as one of the shape's own (`BLOCK_WIDTH,
                 * BLOCK_WIDTH` for a lone macro): that one says it whole */
                int same_alt = 0;
                for (int q = 0; q < g->nalts && !same_alt; q++)
                    same_alt = g->alt[q] && !strcmp(g->alt[q], text);
                if (same_alt) {
                    free(text);
                    free(one);
                    continue;
                }
                char *from = xstrdup(c->from), *to = xstrdup(c->to);
                sch_add_alt(s, g, k == 0 ? "twin-round-up" : "twin-args", from, to, text);
                free(from);
                free(to);
                free(one);
            }
        }
}

/* Two counts written alike but for one token (`(in->width - 1) / (T + 1),
 * (in->height - 1) / (T + 1)`): a mistake in the common part was written
 * in both, and no edit of one mends it. As a candidate for each grouping
 * or operator edit of the first argument whose mirror (the same tokens of
 * the second, edited the same) the second argument has, both at once
 * (kind `parallel-args`; from and to the first's, the shape group's text
 * the whole arguments). The first argument is tokens [b0, e0), the
 * second [b1, e1), differing only at token b0 + diff; a third's text a2. */
static void parallel_arguments(sc *s, group *g, size_t first, size_t b0, size_t e0, size_t b1, size_t e1,
                               size_t diff, const char *a2)
{
    static const char *const kinds[] = { "grouping", "operator", NULL };
    size_t last = s->ng;
    for (size_t i = first; i < last && g->nalts < MAX_ALTS; i++) {
        const group *in = &s->g[i];
        if (in->kind != G_ATOM && in->kind != G_BIN)
            continue;
        if (in->tb < b0 || in->te > e0 || in->te <= in->tb)
            continue;
        /* its mirror in the second argument */
        const group *mirror = NULL;
        for (size_t j = first; j < last && !mirror; j++)
            if (s->g[j].kind == in->kind && s->g[j].tb == in->tb - b0 + b1 && s->g[j].te == in->te - b0 + b1)
                mirror = &s->g[j];
        if (!mirror)
            continue;
        for (int a = 0; a < in->nalts && g->nalts < MAX_ALTS; a++) {
            const cand *c = &s->c[in->cand[a]];
            int kind_ok = 0;
            for (int k = 0; kinds[k]; k++)
                kind_ok |= !strcmp(c->kind, kinds[k]);
            if (c->dead || !kind_ok)
                continue;
            /* the mirror's edit of the same kind at the same place, the
             * same but for the token the arguments differ in */
            const cand *m = NULL;
            for (int q = 0; q < mirror->nalts && !m; q++) {
                const cand *d = &s->c[mirror->cand[q]];
                if (d->dead || strcmp(d->kind, c->kind) != 0)
                    continue;
                size_t lt = strlen(c->to), ld = strlen(d->to), l0 = tl(s, b0 + diff), l1 = tl(s, b1 + diff);
                /* c->to with the first's differing token made the second's */
                const char *w = NULL;
                for (const char *p = c->to; *p && !w; p++)
                    if (!strncmp(p, tk(s, b0 + diff), l0))
                        w = p;
                if (!w || lt - l0 + l1 != ld)
                    continue;
                size_t pre = (size_t)(w - c->to);
                if (!strncmp(d->to, c->to, pre) && !strncmp(d->to + pre, tk(s, b1 + diff), l1) &&
                    !strcmp(d->to + pre + l1, w + l0))
                    m = d;
            }
            if (!m)
                continue;
            size_t at0[1] = { in->tb }, end0[1] = { in->te }, at1[1] = { mirror->tb }, end1[1] = { mirror->te };
            char *w0[1] = { c->to }, *w1[1] = { m->to };
            char *one = sch_span_subst(s, b0, e0, at0, end0, w0, 1, 0);
            char *two = sch_span_subst(s, b1, e1, at1, end1, w1, 1, 0);
            char *text = a2 ? xasprintf("%s, %s, %s", one, two, a2) : xasprintf("%s, %s", one, two);
            char *from = xstrdup(c->from), *to = xstrdup(c->to);
            sch_add_alt(s, g, "parallel-args", from, to, text);
            free(from);
            free(to);
            free(one);
            free(two);
        }
    }
}

static void shape(sc *s, size_t b, size_t e, size_t first)
{
    size_t ab[4], ae[4], n = 0, k = b;
    int depth = 0;
    if (b >= e || !sch_one_line(s, b, e))
        return;
    ab[0] = b;
    for (; k < e; k++) {
        if (at(s, k, "(") || at(s, k, "["))
            depth++;
        else if (at(s, k, ")") || at(s, k, "]"))
            depth--;
        else if (depth == 0 && at(s, k, ",")) {
            if (n >= 2)
                return;
            ae[n++] = k;
            ab[n] = k + 1;
        }
    }
    ae[n++] = e;
    char *a0 = sch_span_text(s, ab[0], ae[0]), *a1 = n > 1 ? sch_span_text(s, ab[1], ae[1]) : NULL;
    char *a2 = n > 2 ? sch_span_text(s, ab[2], ae[2]) : NULL;
    group *g = sch_new_group(s, G_SHAPE, b, e);
    if (!s->in_kernel)
        g->priority = 1;
    char *from = sch_span_text(s, b, e);
    if (n == 1 || (n == 2 && strcmp(a1, "1") == 0)) {
        char *to = xasprintf("%s, %s", a0, a0);
        sch_add_alt(s, g, "shape", from, to, to);
    }
    /* the one count given twice with a number added or taken off at its
     * end (`width / TILE_WIDTH - 1, width / TILE_WIDTH - 1`): without it at
     * both, as one edit (a count made one short, or one long, in both) */
    if (n >= 2 && strcmp(a0, a1) == 0) {
        size_t last = 0;
        int d = 0;
        for (size_t q = ab[0]; q < ae[0]; q++) {
            if (at(s, q, "(") || at(s, q, "["))
                d++;
            else if (at(s, q, ")") || at(s, q, "]"))
                d--;
            else if (d == 0 && q > ab[0] && (at(s, q, "+") || at(s, q, "-")))
                last = q;
        }
        const char *num = last && last + 2 == ae[0] ? tk(s, last + 1) : NULL;
        if (num && num[0] >= '0' && num[0] <= '9') {
            char *head = sch_span_text(s, ab[0], last);
            char *to = n == 3 ? xasprintf("%s, %s, %s", head, head, a2) : xasprintf("%s, %s", head, head);
            sch_add_alt(s, g, "shape", from, to, to);
            free(head);
        }
    }
    if (n >= 2 && strcmp(a0, a1) == 0) {
        struct size_macro best[NAMES_PER_SITE];
        int nbest = number_macros(s, a0, best);
        for (int i = 0; i < nbest; i++) {
            char *to = n == 3 ? xasprintf("%.*s, %.*s, %s", (int)best[i].len, best[i].name, (int)best[i].len,
                                          best[i].name, a2)
                              : xasprintf("%.*s, %.*s", (int)best[i].len, best[i].name, (int)best[i].len,
                                          best[i].name);
            sch_add_alt(s, g, "shape", from, to, to);
        }
    }
    if (n >= 2 && strcmp(a0, a1) == 0)
        twin_arguments(s, g, first, ab[0], ae[0], ab[1], a2);
    else if (n >= 2 && ae[0] - ab[0] == ae[1] - ab[1] && ae[0] - ab[0] > 2) {
        /* alike but for one token */
        size_t diff = 0, differ = 0;
        for (size_t q = 0; q < ae[0] - ab[0]; q++)
            if (!same(s, ab[0] + q, ab[1] + q))
                diff = q, differ++;
        if (differ == 1 && ident(s, ab[0] + diff) && ident(s, ab[1] + diff))
            parallel_arguments(s, g, first, ab[0], ae[0], ab[1], ae[1], diff, a2);
    }
    free(from);
    free(a0);
    free(a1);
    free(a2);
    if (g->nalts == 0)
        s->ng--;
}

/* A static edit (G_STATIC): tokens [b, e) as text to, a change that a
 * run cannot switch (a type, an array's bound), made in a copy of its
 * function of its own, which the function calls when the candidate is
 * live. A few to a file: each copy is compiled. */
#define MAX_STATIC 12
static void static_edit(sc *s, size_t b, size_t e, const char *kind, const char *to)
{
    if (s->nstatic >= MAX_STATIC || !sch_one_line(s, b, e))
        return;
    group *g = sch_new_group(s, G_STATIC, b, e);
    char *from = sch_span_text(s, b, e);
    sch_add_alt(s, g, kind, from, to, xstrdup(to));
    free(from);
    s->nstatic++;
}

void sch_static_alt(sc *s, size_t b, size_t e, const char *kind, const char *from, const char *to, const char *text)
{
    if (s->nstatic >= MAX_STATIC || !sch_one_line(s, b, e))
        return;
    group *g = sch_new_group(s, G_STATIC, b, e);
    sch_add_alt(s, g, kind, from, to, xstrdup(text));
    s->nstatic++;
}

/* Whether the function, after token k, stores into the name at token n
 * (`n = `, `n[...] = `, `n += `...) a value of floating type: a literal
 * with a point or an f, or a name declared float or double (or a
 * pointer to them). */
static int stores_floats(sc *s, size_t n, size_t k)
{
    for (; k < s->fn_close; k++) {
        if (!same(s, k, n) || at(s, k - 1, ".") || at(s, k - 1, "->"))
            continue;
        size_t j = k + 1;
        while (at(s, j, "["))
            j = sch_after(s, j);
        int assign = at(s, j, "=") && !at(s, j + 1, "=");
        if (!assign && (at(s, j, "+") || at(s, j, "-") || at(s, j, "*") || at(s, j, "/")) && at(s, j + 1, "=") &&
            s->r.t[j].e == s->r.t[j + 1].b)
            assign = 1, j++;
        if (!assign)
            continue;
        for (size_t q = j + 1; q < s->fn_close && !at(s, q, ";"); q++) {
            int hex = tl(s, q) > 1 && (tk(s, q)[1] | 0x20) == 'x';
            if (s->r.t[q].kind == T_NUM && !hex &&
                (memchr(tk(s, q), '.', tl(s, q)) || (tk(s, q)[tl(s, q) - 1] | 0x20) == 'f'))
                return 1;
            sym *y = sch_lookup(s, q);
            if (y && y->floating)
                return 1;
        }
    }
    return 0;
}

/* An int declared at tokens [b, name] that the function stores floats
 * into (`__shared__ int ds_M[..]` loaded from a float *, an `int`
 * accumulator of float products): as a candidate, float; a narrower
 * integer (`unsigned char`, `short`): int. */
static void retype(sc *s, size_t b, size_t name, size_t end)
{
    size_t type = (size_t)-1;
    /* an integer narrower than an int (`unsigned char dest`, `short i`):
     * past its most a value wraps round; as a candidate, int */
    size_t first = (size_t)-1, last = 0;
    int narrow = 0, other = 0;
    for (size_t k = b; k < name; k++) {
        if (at(s, k, "char") || at(s, k, "short"))
            narrow = 1;
        else if (!at(s, k, "unsigned") && !at(s, k, "signed") && !at(s, k, "int") && !qualifier(s, k))
            other = 1;
        if (!qualifier(s, k)) {
            first = first == (size_t)-1 ? k : first;
            last = k;
        }
    }
    if (narrow && !other && first <= last) {
        static_edit(s, first, last + 1, "type", "int");
        return;
    }
    for (size_t k = b; k < name; k++) {
        if (at(s, k, "int"))
            type = type == (size_t)-1 ? k : (size_t)-2;
        else if (!qualifier(s, k) && !at(s, k, "*"))
            return; /* unsigned, long, another type's name */
    }
    if (type < (size_t)-2 && stores_floats(s, name, end))
        static_edit(s, type, type + 1, "type", "float");
}

/* A for loop stepped by one (`++i`, `i++`, tokens [b, e)) whose body,
 * tokens [body, end), reads its counter plus one as well (`ds_M[ty][i] *
 * ds_N[i][tx] + ds_M[ty][i + 1] * ds_N[i + 1][tx]`: a body unrolled by
 * two): as a candidate, the step by two (kind `step`), which no edit of
 * the body or of the bound mends (each pair is added twice). */
static void unrolled_step(sc *s, size_t b, size_t e, size_t body, size_t end)
{
    /* (a punctuator is a token of its own: `++i` is three) */
    if (e != b + 3)
        return;
    size_t v = at(s, b, "+") && at(s, b + 1, "+") ? b + 2 : at(s, b + 1, "+") && at(s, b + 2, "+") ? b : (size_t)-1;
    if (v == (size_t)-1 || !ident(s, v))
        return;
    for (size_t k = body; k + 2 < end; k++)
        if (same(s, k, v) && at(s, k + 1, "+") && at(s, k + 2, "1") && !(k > 0 && at(s, k - 1, "."))) {
            char *to = xasprintf("%.*s += 2", (int)tl(s, v), tk(s, v));
            static_edit(s, b, e, "step", to);
            free(to);
            return;
        }
}

/* A for loop stepped by more than one (`k += blockDim.x`, tokens [b, e))
 * whose body reads its counter on its own, plus nothing that walks the
 * values between (no `k + tx`, `k + 1`: a tile's or an unrolled body's
 * walk): as a candidate, the step by one (kind `step`), where each pass
 * skipped the values between. */
static void strided_step(sc *s, size_t b, size_t e, size_t body, size_t end)
{
    if (e < b + 4 || !ident(s, b) || !at(s, b + 1, "+") || !at(s, b + 2, "=") || (e == b + 4 && at(s, b + 3, "1")))
        return;
    int read = 0;
    for (size_t k = body; k < end; k++) {
        if (!same(s, k, b) || (k > 0 && (at(s, k - 1, ".") || at(s, k - 1, "->"))))
            continue;
        /* `v + name` or `name + v` where name is no product's: a walk */
        int walk = (at(s, k + 1, "+") && (ident(s, k + 2) || s->r.t[k + 2].kind == T_NUM) && !at(s, k + 3, "*") &&
                    !at(s, k + 3, ".")) ||
                   (k > 1 && at(s, k - 1, "+") && ident(s, k - 2) && !at(s, k - 3, "*") && !at(s, k - 3, "."));
        if (walk)
            return;
        read = 1;
    }
    if (!read)
        return;
    char *to = xasprintf("++%.*s", (int)tl(s, b), tk(s, b));
    static_edit(s, b, e, "step", to);
    free(to);
}

/* An int's initialiser, tokens [b, e), that is `threadIdx.c * S +
 * blockIdx.d`: the thread's and the block's parts of a global index
 * exchanged (the thread's index scaled by the block's size is the
 * mapping's own mistake: no correct file writes it), which no edit of one
 * name mends. As a candidate, `blockIdx.d * S + threadIdx.c`. */
static void coordinate_swap(sc *s, size_t b, size_t e)
{
    size_t x = 3;
    if (b + 3 > e || !sch_builtin_at(s, b) || !at(s, b, "threadIdx") || !at(s, b + x, "*"))
        return;
    size_t sb = b + x + 1, se = sb;
    while (se < e && !at(s, se, "+") && !at(s, se, "-") && !at(s, se, "*") && !at(s, se, "/") && !at(s, se, "(") &&
           !at(s, se, "%"))
        se++;
    if (se == sb || se > sb + 3 || !at(s, se, "+"))
        return;
    size_t zb = se + 1, z = 3;
    if (zb + z != e || !sch_builtin_at(s, zb) || !at(s, zb, "blockIdx"))
        return;
    char *tx = sch_span_text(s, b, b + x), *ts = sch_span_text(s, sb, se), *tz = sch_span_text(s, zb, e);
    char *to = xasprintf("%s * %s + %s", tz, ts, tx);
    static_edit(s, b, e, "coordinates", to);
    free(to);
    free(tx);
    free(ts);
    free(tz);
}

/* An int's initialiser, tokens [b, e), that is `blockIdx.c + threadIdx.c`
 * (either order): the block's index added unscaled, so the blocks
 * overlap, which no edit of one name mends (a grid far larger can hide
 * it). As a candidate, `blockIdx.c * blockDim.c + threadIdx.c`. */
static void coordinate_unscaled(sc *s, size_t b, size_t e)
{
    if (b + 7 != e || !sch_builtin_at(s, b) || !at(s, b + 3, "+") || !sch_builtin_at(s, b + 4) ||
        !same(s, b + 2, b + 6))
        return;
    size_t block = at(s, b, "blockIdx") ? b : at(s, b + 4, "blockIdx") ? b + 4 : e;
    size_t thread = at(s, b, "threadIdx") ? b : at(s, b + 4, "threadIdx") ? b + 4 : e;
    if (block == e || thread == e)
        return;
    char *to = xasprintf("blockIdx.%.*s * blockDim.%.*s + threadIdx.%.*s", (int)tl(s, b + 2), tk(s, b + 2),
                         (int)tl(s, b + 2), tk(s, b + 2), (int)tl(s, b + 2), tk(s, b + 2));
    static_edit(s, b, e, "coordinates", to);
    free(to);
}

/* Whether tokens [a, a + n) and [b, b + n) are the same but for the
 * components after a `.` (`blockIdx.y * w` and `blockIdx.x * w`). */
static int same_but_components(sc *s, size_t a, size_t b, size_t n)
{
    int differ = 0;
    for (size_t i = 0; i < n; i++) {
        if (same(s, a + i, b + i))
            continue;
        if (!(i > 0 && at(s, a + i - 1, ".") && tl(s, a + i) == 1 && tl(s, b + i) == 1 &&
              strchr("xyz", *tk(s, a + i)) && strchr("xyz", *tk(s, b + i))))
            return 0;
        differ = 1;
    }
    return differ;
}

/* Twin declarations on consecutive statements, their initialisers the
 * same but for x and y (`int y = blockIdx.y * w + threadIdx.y;` then
 * `int x = blockIdx.x * w + threadIdx.x;`): a name written wrong in one
 * was copied into the other, and no edit of one mends it. As a
 * candidate for each name edit the two share at the same place, that edit
 * at both at once (kind `twins`). The current declaration is tokens
 * [b, end], its initialiser [ib, ie), its groups [g0, ng). */
static void twin_names(sc *s, size_t b, size_t end, size_t ib, size_t ie, size_t g0)
{
    size_t pb = s->twin.init_b, n = ie - ib;
    if (!s->twin.end || s->twin.end + 1 != b || s->twin.init_e - pb != n || !same_but_components(s, pb, ib, n))
        return;
    size_t last = s->ng;
    for (size_t i = s->twin.g0; i < s->twin.g1; i++)
        for (size_t j = g0; j < last; j++) {
            group *g1 = &s->g[i], *g2 = &s->g[j];
            if (g1->kind != G_ATOM || g2->kind != G_ATOM || g1->tb - pb != g2->tb - ib || g1->te - g1->tb != 1 ||
                g2->te != g2->tb + 1 || !same(s, g1->tb, g2->tb))
                continue;
            /* the names either one takes there (their rankings differ a
             * little: each statement's neighbours are its own) */
            const char *names[2 * MAX_ALTS];
            int nnames = 0;
            for (int side = 0; side < 2; side++) {
                const group *g = side ? g2 : g1;
                for (int a = 0; a < g->nalts; a++) {
                    if (s->c[g->cand[a]].dead || strcmp(s->c[g->cand[a]].kind, "name") != 0 || !g->alt[a])
                        continue;
                    int dup = 0;
                    for (int q = 0; q < nnames && !dup; q++)
                        dup = !strcmp(names[q], g->alt[a]);
                    if (!dup)
                        names[nnames++] = g->alt[a];
                }
            }
            for (int q = 0; q < nnames; q++) {
                if (g1->nalts >= MAX_ALTS || g2->nalts >= MAX_ALTS)
                    break;
                /* names[] are the groups' texts, which stay where they are
                 * when the groups themselves move */
                char *name = xstrdup(names[q]);
                size_t ctx_b = s->ctx_b, ctx_e = s->ctx_e;
                s->ctx_b = s->twin.b;
                s->ctx_e = end - 1;
                char *from = sch_span_text(s, g1->tb, g1->te);
                int c = sch_add_multi(s, g1->tb, "twins", from, name);
                s->ctx_b = ctx_b;
                s->ctx_e = ctx_e;
                free(from);
                g1 = &s->g[i]; /* sch_add_multi may move the groups */
                g2 = &s->g[j];
                g1->cand[g1->nalts] = c;
                g1->alt[g1->nalts++] = xstrdup(name);
                g2->cand[g2->nalts] = c;
                g2->alt[g2->nalts++] = name;
            }
        }
}

/* The differing middles of two texts (their common head and tail taken
 * off: `row` and `col` of `row_i` and `col_i`) into d1 and d2; 0 where
 * they are the same text. */
static int middles(const char *a, const char *b, char *d1, char *d2, size_t n)
{
    size_t la = strlen(a), lb = strlen(b), h = 0, t = 0;
    while (h < la && h < lb && a[h] == b[h])
        h++;
    while (t < la - h && t < lb - h && a[la - 1 - t] == b[lb - 1 - t])
        t++;
    if (h == la && h == lb)
        return 0;
    snprintf(d1, n, "%.*s", (int)(la - h - t), a + h);
    snprintf(d2, n, "%.*s", (int)(lb - h - t), b + h);
    return 1;
}

/* Twin declarations on consecutive statements, the one before with a term
 * the current one lacks (`int row_i = row_o - MASK_RADIUS;` then `int
 * col_i = col_o;`): the declared names and the names they take differ the
 * same way (row for col), so the term was left out of the second. As a
 * candidate, the current name given the term (kind `twin-term`). The
 * current declaration's name is token name, its initialiser [ib, ie). */
static void twin_term(sc *s, size_t b, size_t name, size_t ib, size_t ie)
{
    size_t pb = s->twin.init_b, pe = s->twin.init_e;
    if (!s->twin.end || s->twin.end + 1 != b || ie != ib + 1 || !ident(s, ib))
        return;
    size_t op = sch_last_term_operator(s, pb, pe);
    if (op != pb + 1 || op + 2 != pe || !ident(s, pb) || !(ident(s, op + 1) || sch_int_literal(s, op + 1)))
        return;
    char *n1 = sch_span_text(s, s->twin.name, s->twin.name + 1), *n2 = sch_span_text(s, name, name + 1);
    char *a1 = sch_span_text(s, pb, pb + 1), *a2 = sch_span_text(s, ib, ie);
    char d1[64], d2[64], e1[64], e2[64];
    if (middles(n1, n2, d1, d2, sizeof d1) && middles(a1, a2, e1, e2, sizeof e1) && !strcmp(d1, e1) &&
        !strcmp(d2, e2)) {
        char *term = sch_span_text(s, op, pe);
        char *to = xasprintf("%s %s", a2, term);
        group *g = sch_new_group(s, G_ATOM, ib, ie);
        sch_add_alt(s, g, "twin-term", a2, to, xstrdup(to));
        if (g->nalts == 0)
            s->ng--;
        free(term);
        free(to);
    }
    free(n1);
    free(n2);
    free(a1);
    free(a2);
}

/* The start of a for loop, the lone name at token k: 0 as one more
 * alternative of its group (made where the name has none), kind
 * `literal`. Groups [first, ng) are the loop's first part's. */
static void loop_start_zero(sc *s, size_t k, size_t first)
{
    group *g = NULL;
    for (size_t i = first; i < s->ng && !g; i++)
        if (s->g[i].kind == G_ATOM && s->g[i].tb == k && s->g[i].te == k + 1)
            g = &s->g[i];
    int made = !g;
    if (!g)
        g = sch_new_group(s, G_ATOM, k, k + 1);
    char *from = sch_span_text(s, k, k + 1);
    sch_add_alt(s, g, "literal", from, "0", xstrdup("0"));
    free(from);
    if (made && g->nalts == 0)
        s->ng--;
}

/* An array's bounds, tokens [b, e): where every bound is the same one
 * token (`[12][12]`, `[O_TILE_WIDTH][O_TILE_WIDTH]`), as candidates each
 * of the file's other number macros in them all (those it writes most
 * first). */
static void rebound(sc *s, size_t b, size_t e)
{
    size_t dims = 0;
    for (size_t k = b; k < e; k += 3, dims++)
        if (!at(s, k, "[") || !at(s, k + 2, "]") || !same(s, k + 1, b + 1) ||
            !(ident(s, k + 1) || s->r.t[k + 1].kind == T_NUM))
            return;
    if (dims == 0)
        return;
    char *now = sch_span_text(s, b + 1, b + 2);
    struct size_macro best[NAMES_PER_SITE];
    int nbest = number_macros(s, now, best);
    for (int i = 0; i < nbest && i < 3; i++) {
        char to[256] = "";
        for (size_t d = 0; d < dims && strlen(to) + best[i].len + 3 < sizeof to; d++)
            snprintf(to + strlen(to), sizeof to - strlen(to), "[%.*s]", (int)best[i].len, best[i].name);
        static_edit(s, b, e, "bound", to);
    }
    free(now);
}

/* Sibling declarations: the statements from b on, each the one at b but
 * for the name it declares (`__shared__ float ds_M[16][16];` then
 * `__shared__ float ds_N[16][16];`), with no initialiser and bounds
 * [nb, ne) that are all one token. A size written wrong in one is written
 * so in all, and no edit of one mends it: as candidates, each of the
 * file's other number macros in every bound of them all (at most three,
 * those written most first), each a copy of the function of its own like
 * rebound's. end: the first one's ';'. */
static void sibling_bounds(sc *s, size_t b, size_t name, size_t nb, size_t ne, size_t end)
{
    size_t dims = 0;
    if (ne != end)
        return;
    for (size_t k = nb; k < ne; k += 3, dims++)
        if (!at(s, k, "[") || !at(s, k + 2, "]") || !same(s, k + 1, nb + 1) ||
            !(ident(s, k + 1) || s->r.t[k + 1].kind == T_NUM))
            return;
    size_t len = end + 1 - b, last = end, count = 1;
    while (dims > 0 && last + len < s->r.nt) {
        size_t b2 = last + 1, i = 0;
        while (i < len && (b + i == name ? ident(s, b2 + i) && !same(s, name, b2 + i) : same(s, b + i, b2 + i)))
            i++;
        if (i < len)
            break;
        last = b2 + len - 1;
        count++;
    }
    if (count < 2)
        return;
    s->sibling_end = last;
    size_t n = count * dims, *from_at = xrealloc(NULL, n * sizeof *from_at), *to_at = xrealloc(NULL, n * sizeof *to_at);
    char **with = xrealloc(NULL, n * sizeof *with);
    for (size_t d = 0; d < count; d++)
        for (size_t i = 0; i < dims; i++) {
            from_at[d * dims + i] = d * len + nb + 1 + 3 * i;
            to_at[d * dims + i] = from_at[d * dims + i] + 1;
        }
    char *now = sch_span_text(s, nb + 1, nb + 2);
    struct size_macro best[NAMES_PER_SITE];
    int nbest = number_macros(s, now, best);
    for (int m = 0; m < nbest && m < 3 && s->nstatic < MAX_STATIC; m++) {
        char *macro = xasprintf("%.*s", (int)best[m].len, best[m].name);
        for (size_t i = 0; i < n; i++)
            with[i] = macro;
        char *from = sch_span_text(s, b, last + 1), *to = sch_span_subst(s, b, last + 1, from_at, to_at, with, n, 0);
        group *g = sch_new_group(s, G_STATIC, b, last + 1);
        g->ctx_b = b;
        g->ctx_e = last; /* the declarations, less the last ';' */
        sch_add_alt(s, g, "bound", from, to, sch_span_subst(s, b, last + 1, from_at, to_at, with, n, 1));
        s->nstatic++;
        free(from);
        free(to);
        free(macro);
    }
    free(now);
    free(from_at);
    free(to_at);
    free(with);
}

/* A declaration at *p, in a function (in_block: a statement of a block, not
 * a for's first part), up to its ';' (left at *p). */
static void declaration(sc *s, size_t *p, int in_block)
{
    size_t k = *p, end = stmt_end(s, k);
    int constant = 0, shared = 0;
    char spec[64] = "";
    /* the type's words */
    while (k < end && (sch_is_type_name(s, k) || qualifier(s, k) || at(s, k, "struct"))) {
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
            sch_add_sym(s, names[i], "#", V_OTHER);
        *p = end;
        return;
    }
    int names = 0;
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
        while (at(s, k, "[")) { /* bounds: constant expressions, never edited in place */
            array = 1;
            k = sch_after(s, k);
        }
        size_t name_end = k;
        snprintf(key, sizeof key, "%s%s%.*s%s", spec, stars ? " " : "", stars, "**********", array ? "[" : "");
        if (ref || shared)
            key[0] = '#', key[1] = 0;
        size_t first = s->ng, init_at = k;
        int init = 0, is_constant = 0;
        if (at(s, k, "(") && !array) {
            init = 1;
            size_t p2 = k + 1;
            s->bail = 0;
            sch_parse_args(s, &p2, ")", (size_t)-1);
            if (s->bail) {
                sch_drop_groups(s, first);
                s->bail = 0;
                p2 = sch_after(s, k);
            } else if (strcmp(spec, "dim3") == 0 && !stars) {
                shape(s, k + 1, p2 - 1, first);
            }
            k = p2;
        } else if (at(s, k, "=") && at(s, k + 1, "{")) {
            init = 1;
            k = sch_after(s, k + 1);
        } else if (at(s, k, "=")) {
            init = 1;
            size_t p2 = k + 1;
            s->bail = 0;
            /* a kernel's int computed from names (`int mCol = ph *
             * TILE_WIDTH + tx;`) is an index too: its names exchanged as a
             * subscript's are (`tx * TILE_WIDTH + ph`) */
            int index_like = in_block && s->in_kernel && !array && !stars && !ref && sch_key_kind(key) == V_INT;
            size_t n0 = s->nnames;
            s->nest += index_like;
            sch_parse_expr(s, &p2, 2);
            s->nest -= index_like;
            if (index_like && !s->bail && (at(s, p2, ",") || p2 == end))
                sch_index_swaps(s, n0);
            if (!s->bail && (at(s, p2, ",") || p2 == end))
                sch_squared_names(s, first);
            s->nnames = index_like ? n0 : s->nnames;
            if (s->bail || !(at(s, p2, ",") || p2 == end)) {
                sch_drop_groups(s, first);
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
                    sym *y = sch_lookup(s, q);
                    varies |= (y && y->depth > 0 && !y->constant) || sch_builtin_at(s, q);
                }
                if (!varies) {
                    sch_drop_groups(s, first);
                    is_constant = 1;
                }
            }
            k = p2;
        }
        if (shared)
            sch_drop_groups(s, first);
        if (init && in_block && s->in_kernel && !array && !stars && !ref && !constant && at(s, init_at, "=") &&
            !at(s, init_at + 1, "{") && sch_key_kind(key) == V_INT && k > init_at + 1) {
            coordinate_swap(s, init_at + 1, k);
            coordinate_unscaled(s, init_at + 1, k);
            if (names == 0 && k == end) {
                twin_names(s, *p, end, init_at + 1, k, first);
                twin_term(s, *p, name, init_at + 1, k);
                s->twin.b = *p, s->twin.end = end, s->twin.init_b = init_at + 1, s->twin.init_e = k;
                s->twin.g0 = first, s->twin.g1 = s->ng, s->twin.name = name;
            }
        }
        sym *y = sch_add_sym(s, name, key, array ? V_OTHER : sch_key_kind(key));
        y->floating = strstr(spec, "float") != NULL || strstr(spec, "double") != NULL;
        if (array && !ref && !stars) {
            char *bounds = sch_span_text(s, name + 1, name_end);
            snprintf(y->array_key, sizeof y->array_key, "%s%s %s", shared ? "__shared__ " : "", spec, bounds);
            free(bounds);
        }
        y->constant = is_constant;
        /* any local's initialiser, a kernel's too (reads_thread_index) */
        if (init && at(s, init_at, "=") && !at(s, init_at + 1, "{") && k > init_at + 1 && (k == end || at(s, k, ","))) {
            y->value_b = init_at + 1;
            y->value_e = k;
        }
        if (init && !is_constant && !constant && at(s, init_at, "=") && !at(s, init_at + 1, "{") &&
            k > init_at + 1 && (k == end || at(s, k, ",")) && !s->in_kernel) {
            y->init_b = init_at + 1;
            y->init_e = k;
        }
        y->shared = at(s, *p, "__shared__") || strstr(spec, "__shared__") != NULL;
        for (size_t q = *p; q < name; q++)
            y->shared |= at(s, q, "__shared__");
        /* a kernel's arrays declared alike, one after another: their bounds at once */
        if (in_block && s->in_kernel && names == 0 && array && !stars && !ref && *p > s->sibling_end)
            sibling_bounds(s, *p, name, name + 1, name_end, end);
        /* a kernel's __shared__ array or local scalar: its type, an array's bounds */
        if (in_block && s->in_kernel && names == 0 && !stars && !ref && (y->shared || !array)) {
            retype(s, *p, name, end);
            if (array)
                rebound(s, name + 1, name_end);
        }
        if (!init && in_block && !array && !shared && !constant && (y->vk == V_INT || y->vk == V_FLOAT) &&
            end < s->r.nt) {
            char *decl = sch_span_text(s, *p, end + 1);
            insertion(s, G_INIT, end, "initialise", decl,
                      xasprintf("%s %.*s = 0;", decl, (int)tl(s, name), tk(s, name)),
                      xasprintf(" if (gpulab_emu_mutant == %%d) %.*s = 0;", (int)tl(s, name), tk(s, name)));
        }
        /* a sum started at a value of its own (`float acc = N_ds[ty][tx];`,
         * the centre pixel) that the kernel then adds into: as a
         * candidate, the sum started at 0 (kind `initialise`) */
        if (init && in_block && s->in_kernel && !array && !stars && !ref && !shared && !constant &&
            y->vk == V_FLOAT && at(s, init_at, "=") && k == end && end < s->r.nt && names == 0 &&
            !zero_literal(s, init_at + 1, k) && added_into_later(s, name, end)) {
            char *decl = sch_span_text(s, *p, end + 1), *head = sch_span_text(s, *p, init_at);
            insertion(s, G_INIT, end, "initialise", decl, xasprintf("%s = 0;", head),
                      xasprintf(" if (gpulab_emu_mutant == %%d) %.*s = 0;", (int)tl(s, name), tk(s, name)));
            free(head);
        }
        if (!init && in_block && s->in_kernel && k == end && end < s->r.nt && names == 0 &&
            sch_one_line(s, *p, end + 1))
            unshare(s, *p, name, end);
        names++;
        if (at(s, k, ","))
            k++;
        else
            break;
    }
    *p = end;
}

/* Whether tokens [b, e) read the thread's own index: threadIdx, or a
 * local whose initialiser does (tx, then Row from tx), `levels` deep. */
static int reads_thread_index(sc *s, size_t b, size_t e, int levels)
{
    for (size_t q = b; q < e; q++) {
        if (at(s, q, "threadIdx"))
            return 1;
        sym *y = sch_lookup(s, q);
        if (levels > 0 && y && y->depth > 0 && y->value_e > y->value_b &&
            reads_thread_index(s, y->value_b, y->value_e, levels - 1))
            return 1;
    }
    return 0;
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
    sch_pop_scope(s);
    *p = k + 1;
}

/* ( condition ) at *p; *p after it. */
static void condition(sc *s, size_t *p)
{
    if (!at(s, *p, "(")) {
        s->bail = 1;
        return;
    }
    size_t c = sch_after(s, *p);
    size_t ob = s->ctx_b, oe = s->ctx_e;
    s->ctx_b = *p + 1;
    s->ctx_e = c - 1;
    size_t first = s->ng;
    if (expr_unit(s, *p + 1, c - 1) == 0) {
        sch_same_comparisons(s, first, *p + 1, c - 1);
        sch_derived_together(s, first, *p + 1, c - 1);
    }
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
        size_t first_c = s->nc;
        condition(s, p);
        size_t body = *p, body_c = s->nc;
        statement(s, p, 0);
        /* a test on the thread's index that guards a __syncthreads(): an
         * edit of it that mends the emulator's run keeps the barrier from
         * some threads or from all (`BLOCK_WIDTH < O_TILE_WIDTH`), a
         * barrier deleted in effect, which a run of the plain build cannot
         * tell from a fix (see the statement dropped, below); the checkers
         * say where it belongs. A test every thread of the block answers
         * alike (`ph > 0`) keeps its edits: it gives the barrier to all
         * the threads or to none, and a barrier missing for all shows in
         * the run as a wrong tile. */
        if (reads_thread_index(s, k + 1, body, 3))
            for (size_t q = body; q < *p; q++)
                if (is_barrier(s, q)) {
                    for (size_t i = first_c; i < body_c; i++)
                        s->c[i].dead = 1;
                    break;
                }
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
        size_t c = sch_after(s, k + 1);
        s->depth++;
        size_t q = k + 2, e1 = stmt_end(s, q);
        s->ctx_b = q;
        s->ctx_e = c - 1;
        size_t first_init = s->ng, init = q, outer_var = s->loop_var, var = 0;
        if (is_declaration(s, q)) {
            size_t before = s->nsyms;
            declaration(s, &q, 0);
            var = s->nsyms == before + 1 ? s->nsyms : 0; /* `int i = 0`: one name */
            /* a kernel's loop started at a name (`int i = tx`, a thread's
             * coordinate carried over from a load): started at 0 as a
             * candidate, where a sum over a tile covers the whole of it */
            if (s->in_kernel && e1 >= init + 3 && at(s, e1 - 2, "=") && ident(s, e1 - 1) && ident(s, e1 - 3))
                loop_start_zero(s, e1 - 1, first_init);
        } else
            expr_unit(s, q, e1);
        if (e1 < c) {
            size_t e2 = stmt_end(s, e1 + 1), first_cond = s->ng;
            if (e2 < c && expr_unit(s, e1 + 1, e2) == 0) {
                sch_same_comparisons(s, first_cond, e1 + 1, e2);
                sch_loop_range(s, init, e1, e2, first_init, first_cond);
            }
            if (e2 < c)
                expr_unit(s, e2 + 1, c - 1);
        }
        *p = c;
        s->loop_depth++;
        s->loop_var = var;
        statement(s, p, 0);
        s->loop_var = outer_var;
        s->loop_depth--;
        s->depth--;
        sch_pop_scope(s);
        if (s->in_kernel && e1 < c) {
            /* the candidate's context: the loop's header */
            s->ctx_b = k + 2;
            s->ctx_e = c - 1;
            unrolled_step(s, stmt_end(s, e1 + 1) + 1, c - 1, c, *p);
            strided_step(s, stmt_end(s, e1 + 1) + 1, c - 1, c, *p);
        }
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
        int parsed = expr_unit(s, k, end) == 0 && end < s->r.nt;
        if (parsed) {
            sch_exchanged_operands(s, first);
            sch_squared_names(s, first);
        }
        if (parsed && sch_one_line(s, k, k + 1) && !is_barrier(s, k)) {
            /* the statement dropped; never a __syncthreads(): a run of
             * the plain build cannot show that the accesses it ordered no
             * longer race (a barrier some threads skip is the checkers'
             * finding, which says where it belongs) */
            group *g = sch_new_group(s, G_DROP, k, end + 1);
            char *from = sch_span_text(s, k, end + 1);
            sch_add_alt(s, g, "drop", from, "", NULL);
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
        sym *y = sch_lookup(s, k);
        if (s->loop_depth > 0 || (y && y->shared)) {
            char *from = sch_span_text(s, k, end + 1);
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
    s->params[0] = 0;
    s->params_ok = 1;
    if (k + 1 == c && at(s, k, "void"))
        return;
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
                array = 1, q = sch_after(s, q) - 1;
            else if (ident(s, q) && !qualifier(s, q) &&
                     (sch_is_type_name(s, q) || name != (size_t)-1 || !ident(s, q + 1))) {
                if (sch_is_type_name(s, q) && !(q + 1 == e || at(s, q + 1, "["))) {
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
        size_t used = strlen(s->params);
        if (name == (size_t)-1 || used + tl(s, name) + 3 >= sizeof s->params)
            s->params_ok = 0;
        else
            snprintf(s->params + used, sizeof s->params - used, "%s%.*s", used ? ", " : "", (int)tl(s, name),
                     tk(s, name));
        if (name != (size_t)-1) {
            char key[64];
            snprintf(key, sizeof key, "%s%s%.*s", spec, stars ? " " : "", stars, "**********");
            if (ref || array)
                key[0] = '#', key[1] = 0;
            sch_add_sym(s, name, key, array ? V_PTR : sch_key_kind(key));
        }
        k = e + 1;
    }
}

/* ---- an index written as another access's, its names its own ---------- */

/* Whether the n characters at w name one of the function's parameters. */
static int is_param(const sc *s, const char *w, size_t n)
{
    for (const char *p = s->params; *p;) {
        size_t m = strcspn(p, ",");
        if (m == n && strncmp(p, w, n) == 0)
            return 1;
        p += m;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return 0;
}

/* A subscript of global memory in a kernel: `NAME[...]` or `NAME.m[...]`
 * (`NAME->m[...]`) where NAME is a parameter. */
typedef struct {
    size_t base;   /* the parameter's token */
    size_t ob, cb; /* the '[' and the ']' */
    int store;     /* `= ...` after it */
} gsub;

/* The names of tokens [b, e) that a renaming may change: identifiers
 * that are not a parameter, a member (after `.` or `->`), a built-in, or
 * a macro's (all capitals), each once, in order of first use. */
static size_t own_names(const sc *s, size_t b, size_t e, size_t *out, size_t most)
{
    size_t n = 0;
    for (size_t k = b; k < e; k++) {
        if (!ident(s, k) || (k > b && (at(s, k - 1, ".") || at(s, k - 1, "->"))) || sch_builtin_at(s, k) ||
            is_param(s, tk(s, k), tl(s, k)))
            continue;
        int lower = 0;
        for (size_t c = 0; c < tl(s, k); c++)
            lower |= tk(s, k)[c] >= 'a' && tk(s, k)[c] <= 'z';
        int seen = !lower;
        for (size_t i = 0; i < n && !seen; i++)
            seen = same(s, out[i], k);
        if (!seen) {
            if (n == most)
                return most + 1;
            out[n++] = k;
        }
    }
    return n;
}

/* Whether tokens [b, e) hold a token like the one at k. */
static int span_has(const sc *s, size_t b, size_t e, size_t k)
{
    for (size_t q = b; q < e; q++)
        if (same(s, q, k) && !(q > b && (at(s, q - 1, ".") || at(s, q - 1, "->"))))
            return 1;
    return 0;
}

/* Whether [b, e) holds a word other than its own names (a parameter, a
 * macro's, a built-in) like the one at k, the token like `from` taken as
 * `to`. */
static int has_word(const sc *s, size_t b, size_t e, size_t k, size_t from, size_t to)
{
    for (size_t q = b; q < e; q++) {
        if (!ident(s, q) || (q > b && (at(s, q - 1, ".") || at(s, q - 1, "->"))))
            continue;
        size_t w = from != to && same(s, q, from) ? to : q;
        if (same(s, w, k))
            return 1;
    }
    return 0;
}

/* Whether the words two indexes share the layout by (parameters, macros,
 * built-ins: `width`, `channels`, `TILE_WIDTH`) are those of one of them
 * and more of the other's: `y * width + x + k` beside `(srcY * width +
 * srcX) * channels + k` (one term left out), not `Row * l + Col` beside
 * `Row * k + mCol` (M's rows are k long, P's l: another array's shape).
 * The token like `from` in [ob, oe) counts as `to`. */
static int shared_words_nest(const sc *s, size_t sb, size_t se, size_t ob, size_t oe, size_t from, size_t to)
{
    int mine_in_theirs = 1, theirs_in_mine = 1;
    size_t own[8];
    for (size_t q = sb; q < se; q++) {
        if (!ident(s, q) || (q > sb && (at(s, q - 1, ".") || at(s, q - 1, "->"))) ||
            own_names(s, q, q + 1, own, 1) == 1)
            continue;
        mine_in_theirs &= has_word(s, ob, oe, q, from, to);
    }
    for (size_t q = ob; q < oe; q++) {
        if (!ident(s, q) || (q > ob && (at(s, q - 1, ".") || at(s, q - 1, "->"))) ||
            own_names(s, q, q + 1, own, 1) == 1)
            continue;
        size_t w = from != to && same(s, q, from) ? to : q;
        theirs_in_mine &= has_word(s, sb, se, w, 0, 0);
    }
    return mine_in_theirs || theirs_in_mine;
}

/* Tokens [ob, oe) written with the names that only they use made those
 * that only [sb, se) uses (as many in each, in order of first use; none
 * when each uses the same names), and, where `from` is not `to`, the
 * token like `from` as `to` (a parameter through which one reads and the
 * other stores). NULL where the names do not pair up, or the text comes
 * out as [sb, se)'s own (malloc'd). */
static char *analogous_text(const sc *s, size_t sb, size_t se, size_t ob, size_t oe, size_t from, size_t to)
{
    enum { MOST_NAMES = 4, MOST_EDITS = 2 * MOST_NAMES + 8 };
    size_t mine[MOST_NAMES + 1], theirs[MOST_NAMES + 1], only_mine[MOST_NAMES], only_theirs[MOST_NAMES];
    size_t nm = own_names(s, sb, se, mine, MOST_NAMES), nt = own_names(s, ob, oe, theirs, MOST_NAMES);
    if (nm > MOST_NAMES || nt > MOST_NAMES)
        return NULL;
    size_t um = 0, ut = 0;
    for (size_t a = 0; a < nm; a++)
        if (!span_has(s, ob, oe, mine[a]))
            only_mine[um++] = mine[a];
    for (size_t a = 0; a < nt; a++)
        if (!span_has(s, sb, se, theirs[a]))
            only_theirs[ut++] = theirs[a];
    if (um != ut || !shared_words_nest(s, sb, se, ob, oe, from, to))
        return NULL;
    size_t at_[MOST_EDITS], end_[MOST_EDITS];
    char *with[MOST_EDITS];
    size_t w = 0;
    for (size_t q = ob; q < oe && w < MOST_EDITS; q++) {
        if (q > ob && (at(s, q - 1, ".") || at(s, q - 1, "->")))
            continue;
        for (size_t a = 0; a < ut; a++)
            if (same(s, q, only_theirs[a])) {
                at_[w] = q, end_[w] = q + 1;
                with[w++] = xasprintf("%.*s", (int)tl(s, only_mine[a]), tk(s, only_mine[a]));
            }
        if (from != to && same(s, q, from) && !same(s, from, to)) {
            at_[w] = q, end_[w] = q + 1;
            with[w++] = xasprintf("%.*s", (int)tl(s, to), tk(s, to));
        }
    }
    char *text = sch_span_subst(s, ob, oe, at_, end_, with, w, 0);
    char *now = sch_span_text(s, sb, se);
    for (size_t a = 0; a < w; a++)
        free(with[a]);
    if (strcmp(text, now) == 0) {
        free(text);
        text = NULL;
    }
    free(now);
    return text;
}

/* Whether two values are the same but for one term the longer adds (`+
 * X` or `- X`, at its top level): `blockIdx.x * TILE_WIDTH + destX`
 * beside `blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS`, a term one of
 * two parallel statements left out or has too many. */
static int one_term_apart(const sc *s, size_t ab, size_t ae, size_t bb, size_t be)
{
    if (ae - ab == be - bb)
        return 0;
    size_t lb = ae - ab > be - bb ? ab : bb, le = lb == ab ? ae : be;
    size_t sb = lb == ab ? bb : ab, se = lb == ab ? be : ae;
    size_t head = 0, tail = 0, ns = se - sb, nl = le - lb;
    while (head < ns && same(s, lb + head, sb + head))
        head++;
    while (tail < ns - head && same(s, le - 1 - tail, se - 1 - tail))
        tail++;
    if (head + tail != ns)
        return 0;
    /* the gap [lb + head, le - tail): `+ X` or `- X` with X of no lower
     * precedence (no top-level + or - inside), or `X +` at the start */
    size_t gb = lb + head, ge = le - tail;
    if (ge - gb < 2 || !(at(s, gb, "+") || at(s, gb, "-")))
        return 0;
    int depth = 0;
    for (size_t q = gb + 1; q < ge; q++) {
        if (at(s, q, "(") || at(s, q, "["))
            depth++;
        else if (at(s, q, ")") || at(s, q, "]"))
            depth--;
        else if (depth == 0 && (at(s, q, "+") || at(s, q, "-")) && !(at(s, q - 1, "*") || at(s, q - 1, "/")))
            return 0;
    }
    (void)nl;
    return depth == 0;
}

/* Whether the function declares the name at k an int (`int k`, `const int k`). */
static int declared_int(const sc *s, size_t k)
{
    for (size_t q = s->fn_open + 1; q < s->fn_close; q++)
        if (same(s, q, k) && q > 0 && at(s, q - 1, "int"))
            return 1;
    return 0;
}

/* The statement that holds tokens [b, e), less its ';', as the context of
 * a candidate there (the words name it: `P[...] = acc`). */
static void statement_context(sc *s, size_t b, size_t e)
{
    while (b > s->fn_open + 1 && !at(s, b - 1, ";") && !at(s, b - 1, "{") && !at(s, b - 1, "}") &&
           !at(s, b - 1, ")"))
        b--;
    while (e < s->fn_close && !at(s, e, ";"))
        e++;
    s->ctx_b = b, s->ctx_e = e;
}

/* The context [*b, *e) of an edit at token k narrowed, in a declaration
 * of several names (`int bx = blockIdx.x, by = blockIdx.x`), to the
 * declarator that holds k (`by = blockIdx.x`): the same text written
 * twice in one statement would not say which is edited. */
static void declarator_context(const sc *s, size_t k, size_t *b, size_t *e)
{
    if (k < *b || k >= *e)
        return;
    int depth = 0;
    size_t from = *b, to = *e;
    for (size_t t = *b; t < *e; t++) {
        if (at(s, t, "(") || at(s, t, "[") || at(s, t, "{"))
            depth++;
        else if (at(s, t, ")") || at(s, t, "]") || at(s, t, "}"))
            depth--;
        else if (depth == 0 && at(s, t, ",")) {
            if (t < k)
                from = t + 1;
            else if (to == *e)
                to = t;
        }
    }
    *b = from;
    *e = to;
}

/* A kernel's store into global memory whose index is another global
 * access's index written with the store's own names: `P[y * width + x +
 * k]` beside the read `I[(srcY * width + srcX) * channels + k]`, where
 * the names only one of them uses (y, x; srcY, srcX) pair up. As a
 * candidate, the other index with them renamed, `(y * width + x) *
 * channels + k` (and the parameter the read goes through named as the
 * store's: `in.pitch` as `out.pitch`). And a kernel's int local given
 * two values (each batch of a two-batch load sets srcX): each value as
 * the other is written (`blockIdx.x * TILE_WIDTH + destX` as
 * `blockIdx.x * TILE_WIDTH + destX - MASK_RADIUS`). Two of each to a
 * function: each is a copy of it. */
static void sibling_indexes(sc *s)
{
    enum { MOST_SUBS = 24, MOST_EDITS = 2 };
    gsub subs[MOST_SUBS];
    char *given[MOST_EDITS];
    int n = 0, made = 0;
    for (size_t k = s->fn_open + 1; k < s->fn_close && n < MOST_SUBS; k++) {
        if (!ident(s, k) || (at(s, k - 1, ".") || at(s, k - 1, "->")) || !is_param(s, tk(s, k), tl(s, k)))
            continue;
        size_t q = k + 1;
        if ((at(s, q, ".") || at(s, q, "->")) && ident(s, q + 1))
            q += 2;
        if (!at(s, q, "["))
            continue;
        size_t close = sch_after(s, q) - 1;
        if (close >= s->fn_close || close <= q + 1 || at(s, close + 1, "["))
            continue;
        subs[n].base = k;
        subs[n].ob = q;
        subs[n].cb = close;
        subs[n].store = (at(s, close + 1, "=") && !at(s, close + 2, "=")) ||
                        ((at(s, close + 1, "+") || at(s, close + 1, "-")) && at(s, close + 2, "="));
        n++;
        k = close;
    }
    for (int i = 0; i < n && made < MOST_EDITS; i++) {
        if (!subs[i].store)
            continue;
        for (int j = 0; j < n && made < MOST_EDITS; j++) {
            if (j == i || subs[j].store || same(s, subs[j].base, subs[i].base))
                continue;
            char *to = analogous_text(s, subs[i].ob + 1, subs[i].cb, subs[j].ob + 1, subs[j].cb, subs[j].base,
                                      subs[i].base);
            /* two reads written alike (each batch's load) give it once */
            for (int d = 0; d < made && to; d++)
                if (!strcmp(to, given[d])) {
                    free(to);
                    to = NULL;
                }
            if (to && !strstr(to, "[") && made < MOST_EDITS) {
                given[made] = xstrdup(to);
                statement_context(s, subs[i].base, subs[i].cb);
                static_edit(s, subs[i].ob + 1, subs[i].cb, "sibling", to);
                made++;
            }
            free(to);
        }
    }
    for (int d = 0; d < made; d++)
        free(given[d]);
    /* an int local's values: `srcX = ...;` (or `int srcX = ...;`), at the start of a statement */
    struct { size_t name, b, e; } sets[MOST_SUBS];
    int ns = 0;
    made = -2; /* four of these */
    for (size_t k = s->fn_open + 1; k + 2 < s->fn_close && ns < MOST_SUBS; k++) {
        if (!ident(s, k) || !at(s, k + 1, "=") || at(s, k + 2, "=") ||
            !(at(s, k - 1, ";") || at(s, k - 1, "{") || at(s, k - 1, "}") || at(s, k - 1, "int")))
            continue;
        size_t e = k + 2;
        while (e < s->fn_close && !at(s, e, ";") && !at(s, e, ","))
            e++;
        if (!at(s, e, ";") || e == k + 2)
            continue;
        sets[ns].name = k, sets[ns].b = k + 2, sets[ns].e = e;
        ns++;
    }
    for (int i = 0; i < ns && made < MOST_EDITS; i++)
        for (int j = 0; j < ns && made < MOST_EDITS; j++) {
            if (j == i || !same(s, sets[i].name, sets[j].name) || !declared_int(s, sets[i].name) ||
                span_has(s, sets[i].b, sets[i].e, sets[i].name) || span_has(s, sets[j].b, sets[j].e, sets[j].name) ||
                !one_term_apart(s, sets[i].b, sets[i].e, sets[j].b, sets[j].e))
                continue;
            char *to = analogous_text(s, sets[i].b, sets[i].e, sets[j].b, sets[j].e, 0, 0);
            if (to && !strstr(to, "[")) {
                statement_context(s, sets[i].name, sets[i].e);
                static_edit(s, sets[i].b, sets[i].e, "sibling", to);
                made++;
            }
            free(to);
        }
}

/* Whether token k is a name that is no keyword or type (`ph`, `bx`). */
static int plain_name(const sc *s, size_t k)
{
    return ident(s, k) && !is_keyword(&s->r, k) && !sch_is_type_name(s, k);
}

/* An int local of a kernel written out again where the local belongs, with
 * one name of its initialiser slipped (`ph * TILE_WIDTH + tx` for `Col =
 * bx * TILE_WIDTH + tx`, the N tile's column from the phase): each such
 * run of tokens, in the local's scope after its declaration, as the local
 * (kind `name`, at most four a kernel). The run must stand as a whole
 * operand of a sum, a subscript or an argument (`a + RUN]`, not `RUN *
 * b`), so that the local's value stands where the run's did. */
static void inlined_locals(sc *s)
{
    enum { MOST_EDITS = 4 };
    int made = 0;
    for (size_t k = s->fn_open + 1; k + 3 < s->fn_close && made < MOST_EDITS; k++) {
        /* `int NAME = INIT;` or `, NAME = INIT` of an int declaration */
        if (!plain_name(s, k) || !at(s, k + 1, "=") || at(s, k + 2, "=") || !declared_int(s, k) ||
            !(at(s, k - 1, "int") || at(s, k - 1, ",")))
            continue;
        size_t ib = k + 2, ie = ib;
        int depth = 0, ops = 0;
        while (ie < s->fn_close && !at(s, ie, ";") && !(depth == 0 && at(s, ie, ","))) {
            depth += at(s, ie, "(") ? 1 : at(s, ie, ")") ? -1 : 0;
            ops += at(s, ie, "+") || at(s, ie, "*") || at(s, ie, "-");
            ie++;
        }
        size_t len = ie - ib;
        if (len < 3 || !ops || depth != 0 || !sch_one_line(s, ib, ie))
            continue;
        /* the runs after it, while its block is open */
        int open = 0;
        for (size_t w = ie; w + len < s->fn_close && made < MOST_EDITS; w++) {
            open += at(s, w, "{") ? 1 : at(s, w, "}") ? -1 : 0;
            if (open < 0)
                break;
            int differ = 0;
            size_t slip = 0;
            for (size_t q = 0; q < len && differ < 2; q++)
                if (!same(s, w + q, ib + q)) {
                    differ++;
                    slip = q;
                }
            if (differ != 1 || !plain_name(s, w + slip) || !plain_name(s, ib + slip) || same(s, w + slip, k))
                continue;
            size_t before = w - 1, after = w + len;
            if (!(at(s, before, "+") || at(s, before, "(") || at(s, before, "[") || at(s, before, ",")) ||
                !(at(s, after, ")") || at(s, after, "]") || at(s, after, ";") || at(s, after, ",") ||
                  at(s, after, "+") || at(s, after, "-") || at(s, after, "<") || at(s, after, ">")))
                continue;
            /* `a - RUN`'s sign and `a * RUN`'s reach are the run's own */
            if (at(s, before, "+") && w >= 2 && (at(s, w - 2, "-") || at(s, w - 2, "*") || at(s, w - 2, "/")))
                continue;
            /* the statement, whole: a bracket inside it is no header's */
            size_t cb = w, ce = w + len;
            while (cb > s->fn_open + 1 && !at(s, cb - 1, ";") && !at(s, cb - 1, "{") && !at(s, cb - 1, "}"))
                cb--;
            while (ce < s->fn_close && !at(s, ce, ";"))
                ce++;
            s->ctx_b = cb, s->ctx_e = ce;
            char *to = xasprintf("%.*s", (int)tl(s, k), tk(s, k));
            static_edit(s, w, w + len, "name", to);
            free(to);
            made++;
            w += len - 1;
        }
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
    size_t saved = s->nsyms, first = s->ng;
    s->depth = 1;
    s->params_ok = 0;
    size_t name = (size_t)-1;
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
        if (open > stmt && ident(s, open - 1))
            name = open - 1;
    }
    s->loop_depth = 0;
    s->loop_var = 0;
    s->twin.end = 0;
    size_t p = b;
    s->depth = 1;
    s->fn_open = b;
    s->fn_close = closing(&s->r, b);
    block(s, &p);
    if (s->in_kernel && s->params_ok) {
        sibling_indexes(s);
        inlined_locals(s);
    }
    s->depth = 0;
    s->nsyms = saved;
    s->fn_open = s->fn_close = 0;
    /* a copy needs the function's first token to start its line (the copy
     * goes before it, its lines numbered as the original's by #line), a
     * name, parameters that all have names (the original calls it), and
     * no template or linkage (extern "C") that an attribute cannot precede */
    int line_start = 1;
    for (size_t i = s->r.t[stmt].b; i > 0 && s->r.src[i - 1] != '\n'; i--)
        line_start &= s->r.src[i - 1] == ' ' || s->r.src[i - 1] == '\t';
    int ok = s->params_ok && name != (size_t)-1 && line_start && !at(s, stmt, "template") &&
             !at(s, stmt, "extern") && p <= s->r.nt &&
             !is_keyword(&s->r, name);
    if (!ok) {
        sch_drop_groups(s, first);
        return;
    }
    s->fns = xrealloc(s->fns, (s->nfns + 1) * sizeof *s->fns);
    s->fns[s->nfns++] = (struct fn){ stmt, name, b, p - 1, xstrdup(s->params), 1 };
}

/* #define NAME VALUE with VALUE an integer constant (digits, operators,
 * parentheses, other such names): a name of type int, at file scope. The
 * included headers' first (header_defines: the lab's MASK_RADIUS), then the
 * file's own directives. */
static void one_define(sc *s, const char *x, const char *e);

static void macros(sc *s, const char *header_defines)
{
    for (const char *p = header_defines; p && *p;) {
        const char *eol = strchr(p, '\n');
        const char *e = eol ? eol : p + strlen(p);
        while (p < e && *p != '#')
            p++;
        if (p < e)
            one_define(s, p, e);
        p = eol ? eol + 1 : e;
    }
    for (size_t d = 0; d < s->r.ndirs; d++)
        one_define(s, s->r.src + s->r.dirs[d].b, s->r.src + s->r.dirs[d].e);
}

/* One directive, x at its '#', e its end. */
static void one_define(sc *s, const char *x, const char *e)
{
    x++;
    while (x < e && (*x == ' ' || *x == '\t'))
        x++;
    if (e - x < 7 || strncmp(x, "define", 6) != 0 || (x[6] != ' ' && x[6] != '\t'))
        return;
    x += 7;
    while (x < e && (*x == ' ' || *x == '\t'))
        x++;
    const char *name = x;
    while (x < e && is_id((unsigned char)*x))
        x++;
    size_t len = (size_t)(x - name);
    if (len == 0 || !is_id0((unsigned char)*name) || (x < e && *x == '('))
        return;
    int ok = 0, digits = 0, loose = 0;
    for (const char *q = x; q < e; q++) {
        if (*q >= '0' && *q <= '9')
            digits = ok = 1;
        else if (is_id0((unsigned char)*q)) {
            const char *w = q;
            while (q < e && is_id((unsigned char)*q))
                q++;
            sym *y = sch_lookup_text(s, w, (size_t)(q - w));
            if (y && strcmp(y->key, "int") != 0) {
                ok = 0;
                break;
            }
            loose |= !y; /* a header's macro (MASK_WIDTH): a number, of a type not known */
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
    if (ok && !loose)
        sch_add_sym_text(s, name, len, "int", V_INT);
    else if (ok && s->nsizes < sizeof s->sizes / sizeof *s->sizes)
        s->sizes[s->nsizes++] = (struct size_macro){ name, len };
}

static void file(sc *s, const char *header_defines)
{
    s->depth = 0;
    macros(s, header_defines);
    /* cudaMemcpyKind's values, of one type */
    static const char *const kinds[] = { "cudaMemcpyHostToDevice", "cudaMemcpyDeviceToHost",
                                         "cudaMemcpyDeviceToDevice", "cudaMemcpyHostToHost", NULL };
    for (int i = 0; kinds[i]; i++)
        sch_add_sym_text(s, kinds[i], strlen(kinds[i]), "cudaMemcpyKind", V_OTHER);
    for (size_t k = 0; k + 2 < s->r.nt; k++)
        if (sch_builtin_at(s, k))
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
                sch_drop_groups(s, first);
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
    int any = 0, also = g->kind == G_BIN && g->also && !s->c[g->also - 1].dead;
    for (int a = 0; a < g->nalts; a++)
        any |= live(s, g, a);
    if (!any && !also) {
        content(s, o, gi);
        return;
    }
    /* (a G_BIN whose own candidates were cut, its `also` live: an id no candidate has) */
    int id = any ? s->c[g->cand[0]].id : -1000000000;
    switch (g->kind) {
    case G_ATOM:
    case G_ARG:
        puts_(o, "(");
        for (int a = 0; a < g->nalts; a++) {
            if (!live(s, g, a))
                continue;
            /* an array's alternative is another array of its type: the
             * conditional of the two is an lvalue of that type, no cast;
             * nor for a comparison regrouped into a sum (`uncast`) */
            int array = g->kind == G_ATOM && g->helper && (!strcmp(g->helper, "array") || !strcmp(g->helper, "uncast"));
            putf(o, "gpulab_emu_mutant == %d ? (", s->c[g->cand[a]].id);
            if (!array) {
                puts_(o, "decltype(");
                content(s, o, gi);
                puts_(o, "))(");
            }
            if (g->kind == G_ATOM)
                puts_(o, g->alt[a]);
            else
                content(s, o, g->other[a]);
            puts_(o, ") : ");
        }
        content(s, o, gi);
        puts_(o, ")");
        break;
    case G_SHAPE:
        puts_(o, "(");
        for (int a = 0; a < g->nalts; a++) {
            if (!live(s, g, a))
                continue;
            putf(o, "gpulab_emu_mutant == %d ? dim3(", s->c[g->cand[a]].id);
            puts_(o, g->alt[a]);
            puts_(o, ") : ");
        }
        puts_(o, "dim3(");
        content(s, o, gi);
        puts_(o, "))");
        break;
    case G_SCALE:
        putf(o, "::gpulab_emu_::scale(%d, ", id);
        content(s, o, gi);
        puts_(o, ", sizeof(");
        puts_(o, g->alt[0]);
        puts_(o, "))");
        break;
    case G_BIN:
        puts_(o, "::gpulab_emu_::");
        puts_(o, g->helper);
        putf(o, "(%d, ", id);
        if (also)
            putf(o, "%d, ", s->c[g->also - 1].id);
        render_range(s, o, g->bb, s->r.t[g->op].b, g->kids, g->nkids);
        puts_(o, ",");
        render_range(s, o, s->r.t[g->ope - 1].e, g->be, g->kids, g->nkids);
        puts_(o, ")");
        break;
    case G_LOGIC: {
        /* L && R, with its three edits (L || R, L alone, R alone) each
         * rendering L and R once, short-circuits kept: with m the
         * operator's edit, dr L alone, dl R alone,
         *   &&: ((L != m) || dl) ? (R || dr) : m
         *   ||: ((L == m) || dl) ? (R && !dr) : !m
         * (for `||`, m is L && R) */
        int and = strcmp(g->helper, "and") == 0;
        int ids[3];
        for (int a = 0; a < 3; a++)
            ids[a] = a < g->nalts && live(s, g, a) ? s->c[g->cand[a]].id : -1000000000;
        puts_(o, "((((bool)(");
        render_range(s, o, g->bb, s->r.t[g->op].b, g->kids, g->nkids);
        putf(o, and ? ") != (gpulab_emu_mutant == %d))" : ") == (gpulab_emu_mutant == %d))", ids[0]);
        putf(o, " || gpulab_emu_mutant == %d) ? ((bool)(", ids[2]);
        render_range(s, o, s->r.t[g->ope - 1].e, g->be, g->kids, g->nkids);
        putf(o, and ? ") || gpulab_emu_mutant == %d)" : ") && gpulab_emu_mutant != %d)", ids[1]);
        putf(o, and ? " : (gpulab_emu_mutant == %d))" : " : !(gpulab_emu_mutant == %d))", ids[0]);
        break;
    }
    case G_DROP:
        putf(o, "{ if (gpulab_emu_mutant != %d) ", id);
        content(s, o, gi);
        puts_(o, " }");
        break;
    case G_UNSHARE: {
        /* the shared variable and a thread's own, under other names; the
         * name itself a reference to one of them */
        size_t nb = s->r.t[g->op].b, ne = s->r.t[g->op].e;
        const char *name = s->r.src + nb;
        int len = (int)(ne - nb);
        for (int own = 0; own < 2; own++) {
            for (size_t k = g->tb; k < g->te; k++) {
                if (k > g->tb)
                    put(o, s->r.src + s->r.t[k - 1].e, s->r.t[k].b - s->r.t[k - 1].e);
                if (k == g->op)
                    putf(o, own ? "gpulab_emu_own_%d_" : "gpulab_emu_shared_%d_", id);
                if (!(own && at(s, k, "__shared__")))
                    put(o, s->r.src + s->r.t[k].b, s->r.t[k].e - s->r.t[k].b);
            }
            puts_(o, " ");
        }
        char *ref = xasprintf("auto &%.*s = gpulab_emu_mutant == %d ? gpulab_emu_own_%d_%.*s : "
                              "gpulab_emu_shared_%d_%.*s;",
                              len, name, id, id, len, name, id, len, name);
        puts_(o, ref);
        free(ref);
        break;
    }
    case G_SYNC:
    case G_INIT:
        putf(o, g->text, id);
        break;
    case G_STATIC: /* in a copy of its own (emu_schemata) */
        content(s, o, gi);
        break;
    case G_HOLD: /* no tokens: its edits are its places' */
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

/* ---- macros whose value regroups ---------------------------------------------- *
 *
 * `#define TILE_WIDTH 32 / 2` is pasted as text: `Width / TILE_WIDTH` is
 * (Width / 32) / 2. A switch of this build puts a name alone in a branch
 * (`Width / (gpulab_emu_mutant == 7 ? 1 : TILE_WIDTH)`, a drop-right
 * candidate), where the pasted value is grouped whole, (32 / 2): with any
 * candidate live the precedence mistake would be gone, and every candidate
 * would seem to mend it. So each use of such a macro (an object-like
 * #define of the file whose value has an operator outside parentheses) is
 * pasted here, as the preprocessor would, before the candidates are made:
 * the build holds the file, and the candidates edit what it says. */
#define LOOSE_MACROS 16

static int value_regroups(const char *b, const char *e)
{
    int depth = 0, operand = 0;
    for (const char *q = b; q < e; q++) {
        if (q + 1 < e && q[0] == '/' && (q[1] == '/' || q[1] == '*'))
            break;
        if (*q == '(' || *q == ')')
            depth += *q == '(' ? 1 : -1;
        else if (depth == 0 && operand && strchr("+-*/%<>&|^?", *q))
            return 1;
        if (!strchr(" \t()", *q))
            operand = !strchr("+-*/%<>&|^?!~", *q);
    }
    return 0;
}

/* The source with those uses pasted, or NULL when it has none. */
static char *paste_regrouping_macros(const rw *r)
{
    struct loose_macro {
        const char *name;
        size_t len;
        const char *value;
        size_t vlen;
    } m[LOOSE_MACROS];
    int nm = 0;
    for (size_t d = 0; d < r->ndirs && nm < LOOSE_MACROS; d++) {
        const char *x = r->src + r->dirs[d].b + 1, *e = r->src + r->dirs[d].e;
        while (x < e && (*x == ' ' || *x == '\t'))
            x++;
        if (e - x < 8 || strncmp(x, "define", 6) != 0 || (x[6] != ' ' && x[6] != '\t'))
            continue;
        x += 7;
        while (x < e && (*x == ' ' || *x == '\t'))
            x++;
        const char *name = x;
        while (x < e && is_id((unsigned char)*x))
            x++;
        if (x == name || !is_id0((unsigned char)*name) || (x < e && *x == '(') || e[-1] == '\\')
            continue;
        const char *v = x, *ve = e;
        while (v < ve && (*v == ' ' || *v == '\t'))
            v++;
        for (const char *q = v; q + 1 < ve; q++)
            if (q[0] == '/' && (q[1] == '/' || q[1] == '*'))
                ve = q;
        while (ve > v && (ve[-1] == ' ' || ve[-1] == '\t' || ve[-1] == '\r'))
            ve--;
        if (v < ve && value_regroups(v, ve))
            m[nm++] = (struct loose_macro){ name, (size_t)(x - name), v, (size_t)(ve - v) };
    }
    if (!nm)
        return NULL;
    size_t cap = r->len * 2 + 64, n = 0, from = 0;
    char *out = xrealloc(NULL, cap);
    for (size_t k = 0; k < r->nt; k++) {
        if (r->t[k].kind != T_IDENT)
            continue;
        size_t tl = r->t[k].e - r->t[k].b;
        for (int i = 0; i < nm; i++) {
            if (tl != m[i].len || memcmp(r->src + r->t[k].b, m[i].name, tl) != 0)
                continue;
            size_t need = n + (r->t[k].b - from) + m[i].vlen + 1;
            if (need > cap)
                out = xrealloc(out, cap = 2 * need);
            memcpy(out + n, r->src + from, r->t[k].b - from);
            n += r->t[k].b - from;
            memcpy(out + n, m[i].value, m[i].vlen);
            n += m[i].vlen;
            from = r->t[k].e;
            break;
        }
    }
    if (n + (r->len - from) + 1 > cap)
        out = xrealloc(out, cap = n + (r->len - from) + 1);
    memcpy(out + n, r->src + from, r->len - from);
    n += r->len - from;
    out[n] = 0;
    return out;
}

char *emu_schemata(const char *text, size_t len, const char *header_defines, int max, char **json, char **err)
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
    char *pasted = paste_regrouping_macros(&s.r);
    if (pasted) {
        rw_free(&s.r);
        memset(&s.r, 0, sizeof s.r);
        s.r.src = pasted;
        s.r.len = strlen(pasted);
        if (tokenize(&s.r) != 0) {
            *err = s.r.err ? s.r.err : xstrdup("cannot read the source");
            rw_free(&s.r);
            free(pasted);
            return NULL;
        }
    }
    token_lines(&s);
    file(&s, header_defines);
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
    /* first the least alike names of each use (the last of its names), from the end: all of the other host
     * code's but its first names, then the host's copies and launches', then the kernels' (where most
     * mistakes are: a kernel's fourth name for a size is worth more than a copy's) */
    for (int pri = 2; pri >= 0 && max >= 0 && nlive > (size_t)max; pri--) {
        /* ... each part's dropped clauses of a condition and its arrays
         * for others before its names: rarer slips than a name */
        for (size_t i = s.nc; i-- > 0 && nlive > (size_t)max;)
            if (!s.c[i].dead && s.g[s.c[i].origin].priority == pri &&
                ((s.g[s.c[i].origin].kind == G_LOGIC && s.c[i].alt > 0) ||
                 (s.g[s.c[i].origin].kind == G_ATOM && s.g[s.c[i].origin].helper &&
                  !strcmp(s.g[s.c[i].origin].helper, "array")))) {
                s.c[i].dead = 1;
                nlive--;
            }
        for (int rank = NAMES_PER_SITE - 1; rank > 0 && nlive > (size_t)max; rank--)
            for (size_t i = s.nc; i-- > 0 && nlive > (size_t)max;)
                if (!s.c[i].dead && s.c[i].alt == rank && strcmp(s.c[i].kind, "name") == 0 &&
                    s.g[s.c[i].origin].priority == pri) {
                    s.c[i].dead = 1;
                    nlive--;
                }
    }
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
        size_t cb = g->ctx_b, ce = g->ctx_e;
        declarator_context(&s, g->tb, &cb, &ce);
        char *ctx = ce > cb ? sch_span_text(&s, cb, ce) : xstrdup("");
        /* where in the context the edit starts (a word the statement
         * writes twice, `k` of `nRow < k && Col < k`, is told which) */
        long at = -1;
        if (ce > cb && g->tb >= cb && g->tb < ce) {
            char *prefix = g->tb > cb ? sch_span_text(&s, cb, g->tb) : xstrdup("");
            at = (long)strlen(prefix) + (g->tb > cb && s.r.t[g->tb].b > s.r.t[g->tb - 1].e);
            free(prefix);
        }
        char *head = xasprintf("%s\n{\"id\":%d,\"line\":%d,\"at\":%ld,\"kind\":", i ? "," : "", c->id, g->line,
                               at);
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
        /* a static edit renders in a copy of its own (below); here its
         * tokens are as written, and it is no node of the tree: its run
         * may cross a group (`ph * TILE_WIDTH + ty` of `Row * Width + ph *
         * TILE_WIDTH + ty`, whose first `+` is the left side's), and as a
         * node it took the edits inside it from their groups, unrendered */
        if (g->kind == G_STATIC)
            continue;
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
    /* each function with candidates twice: a mutated copy, then the
     * function itself, which calls the copy when a candidate is live */
    buf o = { 0 };
    size_t pos = 0;
    for (size_t f = 0; f < s.nfns; f++) {
        struct fn *fn = &s.fns[f];
        size_t bb = s.r.t[fn->open].e, be = s.r.t[fn->close].b;
        int any = 0, statics = 0;
        for (size_t i = 0; i < s.nc; i++)
            if (!s.c[i].dead && s.g[s.c[i].origin].bb >= bb && s.g[s.c[i].origin].be <= be) {
                if (s.g[s.c[i].origin].kind == G_STATIC)
                    statics++;
                else
                    any = 1;
            }
        if (!any && !statics)
            continue;
        size_t start = s.r.t[fn->stmt].b;
        char *copy = xasprintf("gpulab_emu_mutated_%zu_%.*s", f, (int)(s.r.t[fn->name].e - s.r.t[fn->name].b),
                               s.r.src + s.r.t[fn->name].b);
        put(&o, s.r.src + pos, start - pos);
        puts_(&o, "GPULAB_EMU_MUTATED ");
        put(&o, s.r.src + start, s.r.t[fn->name].b - start);
        puts_(&o, copy);
        put(&o, s.r.src + s.r.t[fn->name].e, bb - s.r.t[fn->name].e);
        render_range(&s, &o, bb, be, top, ntop);
        char *line = xasprintf("}\n#line %d\n", s.line_of[fn->stmt]);
        puts_(&o, line);
        /* a copy of the function as written for each static edit in it,
         * with that edit alone */
        buf dispatch = { 0 };
        puts_(&dispatch, " if (__builtin_expect(gpulab_emu_mutant != 0, 0)) {");
        for (size_t i = 0; i < n; i++) {
            cand *c = &s.c[cs[i]];
            group *g = &s.g[c->origin];
            if (g->kind != G_STATIC || g->bb < bb || g->be > be)
                continue;
            char *name = xasprintf("gpulab_emu_static_%d_%.*s", c->id,
                                   (int)(s.r.t[fn->name].e - s.r.t[fn->name].b), s.r.src + s.r.t[fn->name].b);
            puts_(&o, "GPULAB_EMU_MUTATED ");
            put(&o, s.r.src + start, s.r.t[fn->name].b - start);
            puts_(&o, name);
            put(&o, s.r.src + s.r.t[fn->name].e, g->bb - s.r.t[fn->name].e);
            puts_(&o, g->alt[c->alt]);
            put(&o, s.r.src + g->be, s.r.t[fn->close].e - g->be);
            puts_(&o, "\n");
            puts_(&o, line + 2);
            char *call = xasprintf(" if (gpulab_emu_mutant == %d) return %s(%s);", c->id, name, fn->args);
            puts_(&dispatch, call);
            free(call);
            free(name);
        }
        put(&o, s.r.src + start, bb - start);
        char *call = xasprintf(" return %s(%s); }", copy, fn->args);
        puts_(&dispatch, call);
        puts_(&o, dispatch.s);
        free(dispatch.s);
        free(line);
        free(call);
        free(copy);
        pos = bb;
    }
    put(&o, s.r.src + pos, len - pos);
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
    for (size_t f = 0; f < s.nfns; f++)
        free(s.fns[f].args);
    free(s.fns);
    rw_free(&s.r);
    free(pasted);
    return o.s;
}
