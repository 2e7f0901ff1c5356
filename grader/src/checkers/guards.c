/*
 * guards.c - see guards.h.
 *
 * The emulator names the test that let a thread through to an invalid
 * access, with every clause of it as that thread evaluated it. Which of
 * them is the mistake is judged from those numbers:
 *  - a clause that passed at its own bound (`Row <= Width` with Row equal
 *    to Width: the one value a `<` stops) admitted the value past the end;
 *  - a test whose upper bounds, multiplied, are the array's shape (k x l
 *    for an array of k * l elements, or that times a few channels) keeps
 *    every thread inside the array whatever the index does: if the access
 *    went out anyway, the index is wrong, and where it multiplies a
 *    variable by the bound the test puts on that same variable (nRow * k
 *    under nRow < k), that is the term that differs from the array's
 *    shape (its rows are the other bound apart);
 *  - else the test is named as it is.
 */
#define _GNU_SOURCE
#include "guards.h"
#include "source.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define GUARD_CLAUSES 4
#define GUARD_TEXT 48
#define GUARD_OTHERS 8
/* an array may hold a few values per element of the test's shape: an
 * image's channels */
#define GUARD_MAX_CHANNELS 4

typedef struct {
    int line, operand, at_bound, values; /* values: a, op, b of the named operand read */
    double a, b;
    char op[3];
    int nclauses;
    struct {
        int k;
        double a, b;
        char op[3];
    } clause[GUARD_CLAUSES];
    /* the thread's other tests passed on the way ("; also line 28: 0:15<225") */
    int nothers;
    struct {
        int line, k;
        double a, b;
        char op[3];
    } other[GUARD_OTHERS];
} guard_record;

/* Reads the record at `at` (" (let through by ..."). */
static int parse_record(const char *at, guard_record *g)
{
    memset(g, 0, sizeof *g);
    g->operand = -1;
    if (sscanf(at, " (let through by the test at line %d", &g->line) != 1 || g->line <= 0)
        return -1;
    const char *p = strstr(at, ", operand ");
    if (p) {
        char bound[16] = "";
        if (sscanf(p, ", operand %d at its %15[^:]: %lf %2[<>=!] %lf", &g->operand, bound, &g->a, g->op, &g->b) == 5 &&
            strcmp(bound, "bound") == 0)
            g->at_bound = g->values = 1;
        else if (sscanf(p, ", operand %d: %lf %2[<>=!] %lf", &g->operand, &g->a, g->op, &g->b) == 4)
            g->values = 1;
    }
    const char *c = strstr(at, "; clauses ");
    for (c = c ? c + 10 : NULL; c && *c && *c != ')' && g->nclauses < GUARD_CLAUSES;) {
        int used = 0;
        if (sscanf(c, "%d:%lf%2[<>=!]%lf%n", &g->clause[g->nclauses].k, &g->clause[g->nclauses].a,
                   g->clause[g->nclauses].op, &g->clause[g->nclauses].b, &used) != 4 || used <= 0)
            break;
        g->nclauses++;
        c += used;
        while (*c == ' ')
            c++;
    }
    /* each other test's clauses, one entry a clause */
    for (const char *o = strstr(at, "; also line "); o && g->nothers < GUARD_OTHERS; o = strstr(o + 1, "; also line ")) {
        int line = 0, used = 0;
        if (sscanf(o, "; also line %d:%n", &line, &used) != 1 || used <= 0)
            break;
        const char *p = o + used;
        for (;;) {
            int k, n = 0;
            double a, b;
            char op[3];
            if (sscanf(p, " %d:%lf%2[<>=!]%lf%n", &k, &a, op, &b, &n) != 4 || n <= 0 || g->nothers == GUARD_OTHERS)
                break;
            g->other[g->nothers].line = line;
            g->other[g->nothers].k = k;
            g->other[g->nothers].a = a;
            g->other[g->nothers].b = b;
            snprintf(g->other[g->nothers].op, sizeof g->other[g->nothers].op, "%s", op);
            g->nothers++;
            p += n;
        }
    }
    return 0;
}

/* The array the access left, in elements of the access's size: "read of 4
 * bytes, 0 bytes past the end of a 388-byte array" -> 97; 0 if not said. */
static double array_elements(const char *msg)
{
    size_t access = 0, bytes = 0;
    const char *of = strstr(msg, " of ");
    const char *arr = strstr(msg, "-byte array");
    if (!of || !arr || sscanf(of, " of %zu bytes", &access) != 1 || access == 0)
        return 0;
    const char *d = arr;
    while (d > msg && d[-1] >= '0' && d[-1] <= '9')
        d--;
    if (d == arr || sscanf(d, "%zu", &bytes) != 1 || bytes % access)
        return 0;
    return (double)(bytes / access);
}

/* Whether an array of `elements` is the bounds' shape (`product`
 * elements) a whole number of times, one to GUARD_MAX_CHANNELS: a value
 * per channel of each element. */
static int shape_fits(double elements, double product)
{
    return product >= 1 && elements >= product && elements / product <= GUARD_MAX_CHANNELS &&
           elements / product == (double)(long long)(elements / product);
}

/* How many values of each element of that shape the array holds, for the
 * sentence (malloc'd). */
static char *holds_words(double elements, double product)
{
    return elements > product ? xasprintf("; the array holds %g values of each", elements / product)
                              : xstrdup(", as many as the array holds");
}

/* The index past a right test: each clause an upper bound (`v < B`) on a
 * variable the access's line uses, their bounds' product the array's
 * shape, and a term of the index that multiplies a variable by its own
 * bound. "the index of the access at line 60 multiplies nRow by k, ..." */
static char *index_words(const guard_record *g, const char *student, int access, double elements, const char *q)
{
    char left[GUARD_CLAUSES][GUARD_TEXT], right[GUARD_CLAUSES][GUARD_TEXT];
    double product = 1;
    int n = 0;
    for (int i = 0; i < g->nclauses; i++) {
        int below = strcmp(g->clause[i].op, "<") == 0, upto = strcmp(g->clause[i].op, "<=") == 0;
        if (!(below || upto) ||
            source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, left[n], right[n], GUARD_TEXT) ||
            !source_line_has_word(student, access, left[n]))
            continue;
        product *= g->clause[i].b + upto;
        n++;
    }
    if (n < 2 || n != g->nclauses || !shape_fits(elements, product))
        return NULL;
    for (int i = 0; i < n; i++) {
        if (!source_line_has_product(student, access, left[i], right[i]))
            continue;
        /* the row's stride is the bound of the clause whose variable is
         * added to it: the other one (of two; of more, the last) */
        int j = i == n - 1 ? n - 2 : n - 1;
        if (source_line_has_product(student, access, left[i], right[j]))
            continue;
        char *holds = holds_words(elements, product);
        char *w = xasprintf("the index of the access at line %d multiplies %s by %s, the bound the test at %s puts "
                            "on %s itself: that test keeps each thread inside a %s x %s array (%g elements%s), "
                            "whose rows are %s apart (%s * %s)",
                            access, left[i], right[i], q, left[i], right[i], right[j], product, holds, right[j],
                            left[i], right[j]);
        free(holds);
        return w;
    }
    return NULL;
}

static int held_all(const guard_record *g);

/* The index past a right test whose row stride is another size: each
 * upper bound (`<`; lower bounds shape nothing) held inside it, on a
 * variable the access uses,
 * their bounds' product the array's shape (j x l for j * l elements), and
 * the index multiplying a clause's variable by a word that is neither
 * bound (`Row * k` under `Row < j && Col < l`): the array's rows are the
 * other clause's bound apart, so the stride is the mistake, not the test.
 * "the index of the access at line 82 steps Row by k, ..." */
static char *row_stride_words(const guard_record *g, const char *student, int access, double elements,
                              const char *q)
{
    char left[GUARD_CLAUSES][GUARD_TEXT], right[GUARD_CLAUSES][GUARD_TEXT];
    double product = 1;
    int n = 0;
    if (!held_all(g))
        return NULL;
    /* the upper bounds (`Row < j`); lower ones (`row_i >= 0`) shape nothing */
    for (int i = 0; i < g->nclauses; i++) {
        if (g->clause[i].op[0] == '>')
            continue;
        if (strcmp(g->clause[i].op, "<") != 0 || g->clause[i].a < 0 ||
            source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, left[n], right[n], GUARD_TEXT) ||
            !source_line_has_word(student, access, left[n]))
            return NULL;
        product *= g->clause[i].b;
        n++;
    }
    if (n != 2 || !shape_fits(elements, product))
        return NULL;
    for (int i = 0; i < n; i++) {
        char factor[GUARD_TEXT];
        int j = 1 - i;
        if ((!source_line_factor(student, access, left[i], factor, sizeof factor) &&
             !source_line_group_factor(student, access, left[i], factor, sizeof factor)) ||
            strcmp(factor, right[i]) == 0 || strcmp(factor, right[j]) == 0 ||
            source_line_has_product(student, access, left[j], factor))
            continue;
        char *holds = holds_words(elements, product);
        char *w = xasprintf("the index of the access at line %d steps %s by %s (`%s * %s`), but the test at %s, "
                            "which held, keeps each thread inside a %s x %s array (%g elements%s), whose rows "
                            "are %s apart: the test is right and the stride is not: write %s * %s",
                            access, left[i], factor, left[i], factor, q, right[i], right[j], product, holds,
                            right[j], left[i], right[j]);
        free(holds);
        return w;
    }
    return NULL;
}

/* A tile indexed by a global row or column (`ds_N[i][Col]`, Col made
 * from blockIdx.x): whatever test let the thread through, the index is
 * what is wrong, not the tile's size. */
static char *tile_global_words(const char *student, int access)
{
    char name[64], sub[GUARD_TEXT];
    if (source_tile_subscript_global(student, access, name, sizeof name, sub, sizeof sub) <= 0)
        return NULL;
    return xasprintf("the access at line %d indexes the tile %s with `%s`, which varies with the block (blockIdx): "
                     "a tile's subscripts are the thread's place in the tile (its threadIdx, a loop's counter), not "
                     "a global row or column, so blocks past the first reach past %s; use the tile's own index "
                     "there",
                     access, name, sub, name);
}

/* A read past a shared array by a thread whose loop is on its last value
 * (`j < MASK_WIDTH` with j = 4 against 5), every clause an upper bound
 * that held by one: the loop is right, so the array is declared smaller
 * than what the loops reach. "the loop at line 75 ... is on its last
 * value ...: N_ds, declared at line 30 ..., is smaller than what it reads:
 * its size w, set at line 29 (...)" */
static char *loose_test_words(const guard_record *g, const char *student, int access, const char *q);
static int plain_name(const char *text);

/* The named test is a loop's on its last value, right; the access adds its
 * variable to a name the kernel set again before it (`N_ds[destY + i][...]`
 * with destY set for the first batch and again for the second): that name
 * holds its last value, not the one the window's origin needs, so the
 * name is named, with both lines, not the array's size. NULL when no such
 * name. */
static char *reassigned_origin_words(const guard_record *g, const char *student, int access, const char *q)
{
    char loop_var[GUARD_TEXT], right[GUARD_TEXT], name[GUARD_TEXT];
    if (source_compared_sides(student, g->line, g->clause[0].k, g->clause[0].op, loop_var, right, sizeof right) != 0 ||
        !plain_name(loop_var))
        return NULL;
    int first = 0, last = source_subscript_set_again(student, access, loop_var, name, sizeof name, &first);
    if (last <= 0)
        return NULL;
    char *ql = sanitize_quote(student, last);
    char *w = xasprintf("the test at %s is on its last value (%g, against %g), so it is right, and the access at line "
                        "%d adds %s to %s, which the kernel set at line %d and set again at %s: there it holds its "
                        "last value, not the one this access needs, so the reads run past the array; use the name "
                        "(or the thread coordinate) the access means, not one another statement reused",
                        q, g->clause[0].a, g->clause[0].b, access, loop_var, name, first, ql);
    free(ql);
    return w;
}

/* A shared array's subscript made of a name the kernel set again before
 * the access (whatever test let the thread through): that name holds its
 * last value there, which another statement set for its own use. */
static char *set_again_words(const char *student, int access)
{
    char name[GUARD_TEXT];
    int first = 0, last = source_subscript_set_again(student, access, "", name, sizeof name, &first);
    if (last <= 0)
        return NULL;
    char *ql = sanitize_quote(student, last);
    char *w = xasprintf("the access at line %d indexes with %s, which the kernel set at line %d and set again at %s: "
                        "there it holds its last value, not the one this access needs; use the name (or the thread "
                        "coordinate) the access means, not one another statement reused",
                        access, name, first, ql);
    free(ql);
    return w;
}

/* A name of the access's subscripts set before the loop around it and
 * set again in the loop after it: from the second pass on it holds the
 * later value (the second batch's slot), and the access runs off the
 * array there. */
static char *set_later_in_loop_words(const char *student, int access)
{
    char name[GUARD_TEXT];
    int before = 0, loop = 0, later = source_subscript_set_later_in_loop(student, access, name, sizeof name, &before,
                                                                          &loop);
    if (later <= 0)
        return NULL;
    char *qb = sanitize_quote(student, before), *ql = sanitize_quote(student, later);
    char *w = xasprintf("the access at line %d indexes with %s, set at %s, before the loop at line %d, and set again "
                        "inside that loop at %s, after the access: from the loop's second pass on, %s holds that "
                        "later value, not the one this access needs; set %s inside the loop, before line %d, so that "
                        "each pass computes it",
                        access, name, qb, loop, ql, name, name, access);
    free(qb);
    free(ql);
    return w;
}

static char *too_small_words(const guard_record *g, const char *student, int access, const char *q)
{
    if (!g->nclauses)
        return NULL;
    for (int i = 0; i < g->nclauses; i++)
        if (strcmp(g->clause[i].op, "<") != 0 || g->clause[i].a != g->clause[i].b - 1)
            return NULL;
    /* an if before the loop that bounds another name of the index: its
     * bound, not the array, is what lets the last pass run off the end */
    char *loose = loose_test_words(g, student, access, q);
    if (loose)
        return loose;
    char *stale = reassigned_origin_words(g, student, access, q);
    if (stale)
        return stale;
    char name[64];
    int size_line = 0, decl = source_shared_array_at(student, access, name, sizeof name, &size_line);
    if (!decl)
        return NULL;
    char *d = sanitize_quote(student, decl);
    char *z = size_line > 0 ? sanitize_quote(student, size_line) : NULL;
    char *w = xasprintf("the test at %s is on its last value (%g, against %g), so it is right and %s is too small "
                        "for what the access at line %d reads: look at its size%s%s (declared at %s)",
                        q, g->clause[0].a, g->clause[0].b, name, access, z ? ", set at " : "", z ? z : "", d);
    free(d);
    free(z);
    return w;
}

/* The named test is a loop's on its last value (`j < 5` with j = 4), right;
 * an `if` the thread passed before it bounds another name that the access
 * adds the loop's variable to (`tx < BLOCK_WIDTH - MASK_RADIUS` with tx =
 * 12, the access at `N_ds[ty + i][tx + j]`): that bound lets through
 * threads whose last pass lands past the array, so the if is named, with
 * the value it let through. NULL when no such if. */
static char *loose_test_words(const guard_record *g, const char *student, int access, const char *q)
{
    char loop_var[GUARD_TEXT], right[GUARD_TEXT];
    if (source_compared_sides(student, g->line, g->clause[0].k, g->clause[0].op, loop_var, right, sizeof right) != 0 ||
        !plain_name(loop_var) || !source_line_has_word(student, access, loop_var))
        return NULL;
    for (int i = 0; i < g->nothers; i++) {
        const char *op = g->other[i].op;
        char name[GUARD_TEXT], bound[GUARD_TEXT];
        if (g->other[i].line >= g->line || (strcmp(op, "<") != 0 && strcmp(op, "<=") != 0) ||
            !source_line_has_word(student, g->other[i].line, "if") ||
            source_compared_sides(student, g->other[i].line, g->other[i].k, op, name, bound, sizeof name) != 0 ||
            !plain_name(name) || strcmp(name, loop_var) == 0 ||
            !source_subscript_with_both(student, access, name, loop_var))
            continue;
        char *qt = sanitize_quote(student, g->other[i].line);
        char *w = xasprintf("the test at %s lets this thread through with %s = %g (`%s %s %s`, %g %s %g), and the "
                            "loop's test at %s then runs %s up to %g, its last value, so the access at line %d, "
                            "which adds %s to %s, goes past the end: the test's bound on %s is too loose for the "
                            "reads each thread makes (the array's size is not what is wrong)",
                            qt, name, g->other[i].a, name, op, bound, g->other[i].a, op, g->other[i].b, q, loop_var,
                            g->clause[0].a, access, loop_var, name, name);
        free(qt);
        return w;
    }
    return NULL;
}

/* Whether every clause of the named test held inside its bound (`k < 15`
 * with k = 14): a value the array has, so not the test to blame. */
static int held_inside(const guard_record *g)
{
    if (!g->nclauses || g->at_bound)
        return 0;
    for (int i = 0; i < g->nclauses; i++)
        if (strcmp(g->clause[i].op, "<") != 0 || g->clause[i].a >= g->clause[i].b || g->clause[i].a < 0)
            return 0;
    return 1;
}

/* An enclosing test that bounds a sum of indices by the whole array
 * (`Row * Width + Col < Width * Width`, 225 for a 225-element array, or
 * the same sum kept in a variable the access does not use): it
 * keeps the sum inside, not each index, so a column past its row's end
 * passes it; where the named test held inside its bound, that one let the
 * access out. */
static char *flattened_words(const guard_record *g, const char *student, int access, double elements,
                             const char *q)
{
    if (!held_inside(g))
        return NULL;
    for (int i = 0; i < g->nothers; i++) {
        char left[GUARD_TEXT], right[GUARD_TEXT];
        /* (a loop's counter against its count is no flattened index,
         * whatever the count: `ph < numPhases` with one phase and a
         * one-element array) */
        if (strcmp(g->other[i].op, "<") != 0 || g->other[i].b != elements ||
            source_compared_sides(student, g->other[i].line, g->other[i].k, g->other[i].op, left, right,
                                  sizeof left) != 0 ||
            (!strpbrk(left, "+*") && source_line_has_word(student, access, left)) ||
            (plain_name(left) && source_loop_step(student, g->other[i].line, left) > 0))
            continue;
        char *o = sanitize_quote(student, g->other[i].line);
        char *w = xasprintf("the test at %s bounds `%s` (%g) by the whole array's %g element%s: it keeps that "
                            "one value inside, not each index, so a thread whose column is past the end of its row "
                            "passes it (the test at %s held: %g < %g); test each index against its own "
                            "bound",
                            o, left, g->other[i].a, elements, elements == 1 ? "" : "s", q, g->clause[0].a,
                            g->clause[0].b);
        free(o);
        return w;
    }
    return NULL;
}

/* Whether every clause of the named test held with room to spare, lower
 * bounds included (`row_i >= 0 && row_i < in.height` with row_i = 3 of 12). */
static int held_all(const guard_record *g)
{
    if (!g->nclauses || g->at_bound)
        return 0;
    for (int i = 0; i < g->nclauses; i++) {
        double a = g->clause[i].a, b = g->clause[i].b;
        const char *op = g->clause[i].op;
        int held = (!strcmp(op, "<") && a < b) || (!strcmp(op, "<=") && a < b) || (!strcmp(op, ">=") && a >= b) ||
                   (!strcmp(op, ">") && a > b);
        if (!held)
            return 0;
    }
    return 1;
}

/* A test that held on every clause, bounding one name the access reads
 * by the columns' count (`col_i < in.width`) and another by the rows'
 * (`row_i < in.height`), before an index that multiplies the column's
 * name by the row stride (the member the host sets, `in.pitch`, else the
 * column's factor) and not the row's: the row and the column are
 * exchanged in the index; the stride's value is not the mistake. */
static int axis_of_name(const char *w, int bound);
static char *exchanged_axes_words(const guard_record *g, const char *student, int access, const char *q)
{
    char col[GUARD_TEXT] = "", col_bound[GUARD_TEXT] = "", row[GUARD_TEXT] = "", row_bound[GUARD_TEXT] = "";
    char left[GUARD_TEXT], right[GUARD_TEXT], stride[GUARD_TEXT];
    for (int k = 0; k < 8; k++) {
        if (source_compared_sides(student, g->line, k, "<", left, right, sizeof left) != 0 || !plain_name(left) ||
            !source_line_has_word(student, access, left))
            continue;
        int axis = axis_of_name(right, 1);
        if (axis == 2 && !col[0])
            snprintf(col, sizeof col, "%s", left), snprintf(col_bound, sizeof col_bound, "%s", right);
        else if (axis == 1 && !row[0])
            snprintf(row, sizeof row, "%s", left), snprintf(row_bound, sizeof row_bound, "%s", right);
    }
    if (!col[0] || !row[0] || !strcmp(col, row))
        return NULL;
    if (source_stride_set_at(student, access, stride, sizeof stride) <= 0 &&
        !source_line_factor(student, access, col, stride, sizeof stride))
        return NULL;
    if (!source_line_has_product(student, access, col, stride) ||
        source_line_has_product(student, access, row, stride))
        return NULL;
    char *fixed = source_line_words_exchanged(student, access, col, row);
    if (!fixed)
        return NULL;
    const char *f = fixed;
    while (*f == ' ' || *f == '\t')
        f++;
    char *w = xasprintf("the index of the access at line %d multiplies %s by %s, the step from one row to the next, "
                        "but the test at %s, which held, bounds %s by %s, the columns' count, and %s by %s, the "
                        "rows': the row and the column are exchanged in the index (write `%s`)",
                        access, col, stride, q, col, col_bound, row, row_bound, f);
    free(fixed);
    return w;
}

/* A test that held on every clause before an access that left its array:
 * the test is right, so the index is not; where it multiplies by a member
 * set elsewhere in the file (a pitch or stride the host fills in), that
 * assignment is the line to look at. */
static char *stride_words(const guard_record *g, const char *student, int access, double elements, const char *q)
{
    /* a test whose upper bounds together admit more than the array holds
     * may be the wrong one, however it held */
    double product = 1;
    for (int i = 0; i < g->nclauses; i++)
        if (g->clause[i].op[0] == '<')
            product *= g->clause[i].b + (strcmp(g->clause[i].op, "<=") == 0);
    char member[GUARD_TEXT];
    int set = held_all(g) && product <= elements ? source_stride_set_at(student, access, member, sizeof member) : 0;
    if (set <= 0)
        return NULL;
    char *s = sanitize_quote(student, set);
    char *w = xasprintf("%s, the stride the index of the access at line %d multiplies by, is set at %s: the test "
                        "at %s held on every clause, so the index is right in form and the stride's value is "
                        "not (rows of the array are not that far apart: a count in bytes where the index "
                        "counts elements, or the wrong row length)",
                        member, access, s, q);
    free(s);
    return w;
}

/* A test that held but bounds other names than the access's index uses:
 * every variable the test compares (`row_o`, `col_o`) is absent from the
 * access's line (which reads at `row_i`, `col_i`), so the test checks an
 * element other than the one the access reaches. */
/* Whether the array the access reaches through sibling (`out` of
 * `out.data[row_i * ...]`) starts with the last part of tested (`row_o`:
 * o) and not with sibling's own (i): the test's name is the array's, the
 * index took the other of the pair. Where the array's name says nothing
 * (or says the index's), the index may be the right one. */
static int pair_names_the_array(const char *student, int access, const char *tested, const char *sibling)
{
    char base[GUARD_TEXT];
    const char *pt = strrchr(tested, '_'), *ps = strrchr(sibling, '_');
    if (!pt || !ps || !source_subscripted_base(student, access, sibling, base, sizeof base))
        return 0;
    pt++, ps++;
    size_t lt = strlen(pt), ls = strlen(ps);
    int says_test = strncasecmp(base, pt, lt) == 0, says_index = strncasecmp(base, ps, ls) == 0;
    return says_test && !says_index;
}

static char *other_names_words(const guard_record *g, const char *student, int access, const char *q)
{
    char names[GUARD_TEXT * 2] = "", left[GUARD_TEXT], used[GUARD_TEXT * 2] = "", sibling[GUARD_TEXT];
    int n = 0, siblings = 0, index_wrong = 1;
    for (int i = 0; i < g->nclauses; i++) {
        if (source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, left, NULL, sizeof left) != 0)
            return NULL;
        int plain = left[0] != '\0' && !(left[0] >= '0' && left[0] <= '9');
        for (const char *c = left; *c && plain; c++)
            plain = source_is_identifier_char(*c);
        if (!plain || source_line_has_word(student, access, left))
            return NULL; /* an expression, or a name the access uses: nothing to say */
        char quoted[GUARD_TEXT + 4];
        snprintf(quoted, sizeof quoted, "`%s`", left);
        if (strstr(names, quoted))
            continue;
        /* the access's own name for it: `row_i` where the test has `row_o` */
        if (source_line_sibling_name(student, access, left, sibling, sizeof sibling)) {
            size_t u = strlen(used);
            snprintf(used + u, sizeof used - u, "%s`%s`", siblings++ ? " and " : "", sibling);
            index_wrong &= pair_names_the_array(student, access, left, sibling);
        }
        size_t len = strlen(names);
        snprintf(names + len, sizeof names - len, "%s%s", n++ ? " and " : "", quoted);
    }
    if (!n)
        return NULL;
    if (siblings == n && index_wrong) {
        /* each tested name has a twin in the index: the index took the
         * wrong one of each pair, the test is right */
        char *qa = sanitize_quote(student, access);
        char *w = xasprintf("the access at %s indexes with %s where the test at %s checks %s: the index takes the "
                            "other name of each pair, so it reaches an element the test never bounded; write %s "
                            "in the index",
                            qa, used, q, names, names);
        free(qa);
        return w;
    }
    /* a loop's test: the access inside it whose index never reaches the
     * counter reads the same element on every pass; the index is what is
     * wrong (it took another loop's counter), not the test */
    char counter[GUARD_TEXT], other[GUARD_TEXT];
    if (n == 1 && source_loop_counter_unused(student, g->line, access, counter, sizeof counter, other, sizeof other)) {
        char *qa = sanitize_quote(student, access);
        char *took = other[0] ? xasprintf(" (it uses %s, an outer loop's counter, where %s belongs)", other, counter)
                              : xstrdup("");
        char *w = xasprintf("the access at %s is inside the loop at %s, but its index never uses %s, the loop's "
                            "counter%s: every pass reaches the same element, and the passes past the array's end run "
                            "off it; index with %s",
                            qa, q, counter, took, counter);
        free(qa);
        free(took);
        return w;
    }
    /* every tested name is one the index reaches only through a name of
     * its own (`row_o = blockIdx.y * O_TILE_WIDTH + ty`), and the test
     * bounds it by a constant: the test keeps the thread inside its tile,
     * and it is the index's own names that no test bounds by the data
     * (the output's test left out) */
    char vias[GUARD_TEXT * 2] = "";
    int through = 0, constant = 1;
    for (int i = 0; i < g->nclauses && constant; i++) {
        char l[GUARD_TEXT], r[GUARD_TEXT], via[GUARD_TEXT], quoted[GUARD_TEXT + 4];
        if (source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, l, r, sizeof l) != 0 ||
            !source_constant_text(student, g->line, r) ||
            !source_line_name_through(student, access, l, via, sizeof via)) {
            constant = 0;
            break;
        }
        snprintf(quoted, sizeof quoted, "`%s`", via);
        if (!strstr(vias, quoted)) {
            size_t len = strlen(vias);
            snprintf(vias + len, sizeof vias - len, "%s%s", through++ ? " and " : "", quoted);
        }
    }
    if (constant && through > 0)
        return xasprintf("no test bounds %s, which the index of the access at line %d reads, by the data's size: "
                         "the test at %s checks only %s against constants (it keeps the thread inside its tile); "
                         "put the access at line %d under a test of %s against the size of %s dimension",
                         vias, access, q, names, access, vias, through > 1 ? "each one's" : "its");
    /* the index reaches the tested name through another name's assignment
     * (`nRow = ph * TILE_WIDTH + ty`): it does use it, so nothing to say */
    if (n == 1 && source_line_reaches_name(student, access, left))
        return NULL;
    return xasprintf("the test at %s checks %s, but the index of the access at line %d %s: the test "
                     "bounds another element than the one the access reaches, so it held where that one is "
                     "outside the array: test the coordinates the access's index is made of",
                     q, names, access, n > 1 ? "uses neither" : "does not use it");
}

/* Whether text is a plain name (an identifier, not a number). */
static int plain_name(const char *text)
{
    if (!text[0] || (text[0] >= '0' && text[0] <= '9'))
        return 0;
    for (const char *c = text; *c; c++)
        if (!source_is_identifier_char(*c))
            return 0;
    return 1;
}

/* Keeps the plain names of clause k of the test at line (its two sides). */
static void keep_bounded(const char *student, int line, int k, const char *op, char names[][GUARD_TEXT], int *n,
                         int most)
{
    char left[GUARD_TEXT], right[GUARD_TEXT];
    if (source_compared_sides(student, line, k, op, left, right, sizeof left) != 0)
        return;
    if (plain_name(left) && *n < most)
        snprintf(names[(*n)++], GUARD_TEXT, "%s", left);
    if (plain_name(right) && *n < most)
        snprintf(names[(*n)++], GUARD_TEXT, "%s", right);
}

/* The test bounds names the read does not index with, each the source of
 * one it does (`if (destY >= 0 && destY < height ...)` around `... =
 * I[(srcY * width + srcX) ...]`, srcY set from destY): the test is on the
 * wrong names, the tile's coordinates where the image's belong; it keeps
 * nothing of the read inside the array. NULL unless every name the test
 * bounds (its left sides) is such a source. */
static char *tested_source_words(const guard_record *g, const char *student, int access, const char *q)
{
    char tested[GUARD_CLAUSES][GUARD_TEXT], via[GUARD_CLAUSES][GUARD_TEXT];
    int n = 0;
    /* an if's test (a loop's bounds its own counter) */
    const char *code = strstr(q, "(`");
    if (!code || strncmp(code + 2, "if", 2) != 0 || source_is_identifier_char(code[4]))
        return NULL;
    for (int i = 0; i < g->nclauses; i++) {
        char left[GUARD_TEXT], right[GUARD_TEXT], v[GUARD_TEXT];
        if (source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, left, right, sizeof left) != 0 ||
            !plain_name(left))
            return NULL;
        int seen = 0;
        for (int j = 0; j < n && !seen; j++)
            seen = !strcmp(tested[j], left);
        if (seen)
            continue;
        if (!source_read_index_via(student, access, left, v, sizeof v))
            return NULL;
        snprintf(tested[n], GUARD_TEXT, "%s", left);
        snprintf(via[n++], GUARD_TEXT, "%s", v);
    }
    if (n == 0)
        return NULL;
    char *t = xstrdup(""), *r = xstrdup("");
    for (int j = 0; j < n; j++) {
        char *t2 = xasprintf("%s%s%s", t, j == 0 ? "" : j == n - 1 ? " and " : ", ", tested[j]);
        char *r2 = xasprintf("%s%s%s", r, j == 0 ? "" : j == n - 1 ? " and " : ", ", via[j]);
        free(t);
        free(r);
        t = t2;
        r = r2;
    }
    char *w = xasprintf("the test at %s bounds %s, but the read at line %d indexes with %s, made from %s and not "
                        "the same: the test keeps nothing of that read inside its array; test %s there in place of "
                        "%s",
                        q, t, access, r, n == 1 ? "it" : "them", r, t);
    free(t);
    free(r);
    return w;
}

/* The test's bounded side a term of a name the read indexes with, not the
 * name (`ph * TILE_WIDTH < k` where the read takes mCol = ph * TILE_WIDTH +
 * tx): the test bounds the tile's start, the same for every thread, where
 * each thread's own value belongs. NULL when no clause is one. */
static char *tested_part_words(const guard_record *g, const char *student, int access, const char *q)
{
    for (int i = 0; i < g->nclauses; i++) {
        char left[GUARD_TEXT], right[GUARD_TEXT], via[GUARD_TEXT];
        int set = 0;
        if (source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, left, right, sizeof left) != 0 ||
            plain_name(left) || !source_read_index_part_of(student, access, left, via, sizeof via, &set))
            continue;
        return xasprintf("the test at %s bounds `%s`, which is only a part of %s (line %d sets %s from it and more), "
                         "the name the read at line %d indexes with: a thread whose %s is past the bound still gets "
                         "through; test %s there (`%s %s %s`)",
                         q, left, via, set, via, access, via, via, via, g->clause[i].op, right);
    }
    return NULL;
}

/* Clause i of every test the thread passed: the named test's clauses
 * first (0 .. nclauses - 1), then the others' ("; also line ..."). */
typedef struct {
    int line, k;
    double a, b;
    const char *op;
} passed_clause;

static passed_clause clause_passed(const guard_record *g, int i)
{
    if (i < g->nclauses)
        return (passed_clause){ g->line, g->clause[i].k, g->clause[i].a, g->clause[i].b, g->clause[i].op };
    i -= g->nclauses;
    return (passed_clause){ g->other[i].line, g->other[i].k, g->other[i].a, g->other[i].b, g->other[i].op };
}

/* A name the read indexes with that the tests the thread passed bound
 * from below only (`srcY >= 0`, no `srcY < height`), where another if of
 * the kernel bounds it from above (the first batch's ghost test): this
 * thread's value was past the data and got through. NULL when none. */
static char *lower_only_words(const guard_record *g, const char *student, int access)
{
    for (int i = 0; i < g->nothers + g->nclauses; i++) {
        passed_clause pc = clause_passed(g, i);
        int line = pc.line, k = pc.k;
        double a = pc.a;
        const char *op = pc.op;
        char left[GUARD_TEXT], right[GUARD_TEXT];
        if ((strcmp(op, ">=") != 0 && strcmp(op, ">") != 0) ||
            source_compared_sides(student, line, k, op, left, right, sizeof left) != 0 || !plain_name(left) ||
            !source_read_index_has(student, access, left))
            continue;
        /* no test passed bounds it from above */
        int upper = 0;
        for (int j = 0; j < g->nothers + g->nclauses && !upper; j++) {
            passed_clause pj = clause_passed(g, j);
            char l2[GUARD_TEXT], r2[GUARD_TEXT];
            upper = pj.op[0] == '<' && source_compared_sides(student, pj.line, pj.k, pj.op, l2, r2, sizeof l2) == 0 &&
                    !strcmp(l2, left);
        }
        char clause[96];
        int twin = upper ? 0 : source_upper_test_of(student, access, left, clause, sizeof clause);
        if (twin <= 0 || twin == line)
            continue;
        char *q = sanitize_quote(student, line);
        char *w = xasprintf("the test at %s bounds %s from below only (`%s %s %s`), where the test at line %d also has "
                            "`%s`: this thread's %s = %g is past the data and gets through; add `%s` there",
                            q, left, left, op, right, twin, clause, left, a, clause);
        free(q);
        return w;
    }
    return NULL;
}

/* A test the thread passed that bounds a name with `!=` (`Row != Width`)
 * where its value was past the bound (Row = 17 against 16): `!=` stops the
 * one value equal to the bound, and lets every one past it through. NULL
 * when no clause of the tests passed is one. */
static char *not_equal_words(const guard_record *g, const char *student)
{
    for (int i = 0; i < g->nothers + g->nclauses; i++) {
        passed_clause pc = clause_passed(g, i);
        int line = pc.line, k = pc.k;
        double a = pc.a, b = pc.b;
        const char *op = pc.op;
        char left[GUARD_TEXT], right[GUARD_TEXT];
        if (strcmp(op, "!=") != 0 || a <= b ||
            source_compared_sides(student, line, k, "!=", left, right, sizeof left) != 0 || !plain_name(left))
            continue;
        char *q = sanitize_quote(student, line);
        char *w = xasprintf("the test at %s bounds %s with `!=` (`%s != %s`): that stops %s only where it equals %s "
                            "(%g here), and this thread's %s = %g, past it, gets through; write `%s < %s` there "
                            "(and `<` for each `!=` bound of that test)",
                            q, left, left, right, left, right, b, left, a, left, right);
        free(q);
        return w;
    }
    return NULL;
}

/* A position in the grid that the access's index uses and that no test the
 * thread passed compares (`if (Row < Width)` around a read at `Col`): the
 * bounds test is missing that coordinate, named at the first `if` among
 * the tests (not a loop's, whose bound is the loop's own). */
static char *unbounded_words(const guard_record *g, const char *student, int access)
{
    enum { MOST = 2 * GUARD_CLAUSES * (GUARD_OTHERS + 1) };
    char names[MOST][GUARD_TEXT];
    const char *list[MOST];
    int n = 0;
    for (int i = 0; i < g->nclauses; i++)
        keep_bounded(student, g->line, g->clause[i].k, g->clause[i].op, names, &n, MOST);
    for (int i = 0; i < g->nothers; i++)
        keep_bounded(student, g->other[i].line, g->other[i].k, g->other[i].op, names, &n, MOST);
    if (n == 0)
        return NULL;
    for (int i = 0; i < n; i++)
        list[i] = names[i];
    char name[GUARD_TEXT], counter[GUARD_TEXT];
    if (!source_unbounded_coordinate(student, access, list, n, name, sizeof name, counter, sizeof counter))
        return NULL;
    /* a name any test the thread passed writes is bounded there, whether
     * the thread evaluated that clause or not (`Row < j || Col < l` stops
     * at its first clause): nothing to say of it */
    for (int i = -1; i < g->nothers; i++) {
        char *text = sanitize_quote(student, i < 0 ? g->line : g->other[i].line);
        const char *code = strstr(text, "(`");
        int written = 0;
        for (const char *p = code ? strstr(code, name) : NULL; p && !written; p = strstr(p + 1, name))
            written = !source_is_identifier_char(p[-1]) && !source_is_identifier_char(p[strlen(name)]);
        free(text);
        if (written)
            return NULL;
    }
    int at = 0;
    for (int i = -1; i < g->nothers && !at; i++) {
        int line = i < 0 ? g->line : g->other[i].line;
        char *text = sanitize_quote(student, line); /* "line N (`...`)" */
        const char *code = strstr(text, "(`");
        if (code && strncmp(code + 2, "if", 2) == 0 && !source_is_identifier_char(code[4]))
            at = line;
        free(text);
    }
    for (int i = 0; at == 0 && i < g->nothers; i++)
        at = g->other[i].line < g->line ? g->other[i].line : at;
    if (!at)
        at = g->line;
    char *q = sanitize_quote(student, at);
    char *words = counter[0]
                      ? xasprintf("no test this thread passed bounds `%s`, which the access at line %d uses: the "
                                  "test at %s leaves it out, and `%s` is made from %s, the loop's counter, which the "
                                  "last pass over a size that is no multiple of the tile takes past the array: test "
                                  "`%s` there too",
                                  name, access, q, name, counter, name)
                      : xasprintf("no test this thread passed bounds `%s`, which the access at line %d uses: the "
                                  "test at %s leaves it out, and `%s` is a position in the grid, which a grid "
                                  "rounded up to whole blocks takes past the array: test `%s` there too",
                                  name, access, q, name, name);
    free(q);
    return words;
}

/* An access made before the `if` that tests its index's names (a read
 * hoisted out of its bounds test): whatever test let the thread through,
 * that one comes too late. */
static char *test_after_words(const char *student, int access)
{
    int test = source_test_after_access(student, access);
    if (test <= 0)
        return NULL;
    char *qa = sanitize_quote(student, access), *qt = sanitize_quote(student, test);
    char *w = xasprintf("the access at %s comes before the test at %s, which bounds the names of its index: the "
                        "access is made whether the test holds or not; make it inside the test",
                        qa, qt);
    free(qa);
    free(qt);
    return w;
}

/* An access before the start of its array, by a thread a loop's test let
 * through with its variable negative (a mask loop from -MASK_RADIUS): the
 * test's bound is not the trouble, the index is. Where the access's line
 * offsets the variable in one subscript (`Mc[j + MASK_RADIUS]`) and not in
 * another (`N_ds[tx + j]`), the bare one is what reads before the start. */
static char *negative_start_words(const guard_record *g, const char *student, int access, const char *q)
{
    char var[GUARD_TEXT], offset[64], bare[96];
    if (!strstr(q, "(`for") ||
        source_compared_operand(student, g->line, g->operand, g->op, var, sizeof var) != 0 ||
        !source_offset_missing(student, access, var, offset, sizeof offset, bare, sizeof bare))
        return NULL;
    char *qa = sanitize_quote(student, access);
    char *w = xasprintf("the loop at %s runs %s from a negative value (%s = %g here), and the access at %s offsets it "
                        "(`%s %s`) in one subscript but not in `%s`, which %s = %g makes point before the start of "
                        "the array: add `%s` there too (or run the loop from 0)",
                        q, var, var, g->a, qa, var, offset, bare, var, g->a, offset);
    free(qa);
    return w;
}

/* An access before the start of its array, by a thread whose test bounds
 * a name of the index only from above (`col_i < in.width`, col_i = -2
 * here) where nothing in it bounds that name from below: the lower bound
 * the test leaves out (as `row_i >= 0` keeps row_i in, where the test
 * has one for another name). */
static char *missing_lower_words(const guard_record *g, const char *student, int access, const char *q)
{
    char left[GUARD_TEXT], right[GUARD_TEXT], sibling[3 * GUARD_TEXT + 16] = "";
    /* a loop from a negative start (a mask's window) means its counter
     * to go below 0: the index must offset it (negative_start_words) */
    if (strstr(q, "(`for") || strstr(q, "(`while"))
        return NULL;
    for (int i = 0; i < g->nclauses; i++) {
        if (g->clause[i].op[0] != '<' || g->clause[i].a >= 0 ||
            source_compared_sides(student, g->line, g->clause[i].k, g->clause[i].op, left, right, sizeof left) != 0 ||
            !plain_name(left) || !source_line_has_word(student, access, left))
            continue;
        /* any lower bound on it (`col_i >= 0`, `0 <= col_i`) and it is not left out */
        if (source_test_bounds_below(student, g->line, left, sibling, sizeof sibling))
            continue;
        char *as = sibling[0] ? xasprintf(" (as %s)", sibling) : xstrdup("");
        char *w = xasprintf("the test at %s bounds %s only from above (`%s %s %s`), and %s is %g here: nothing in it "
                            "keeps %s from going below 0%s: add `%s >= 0` to the test",
                            q, left, left, g->clause[i].op, right, left, g->clause[i].a, left, as, left);
        free(as);
        return w;
    }
    return NULL;
}

/* A loop whose counter runs over exactly one dimension of the accessed
 * array, held (`j < MASK_WIDTH`, j = 4), where the access's subscript
 * there adds to the counter (`Mc[threadIdx.y + i][threadIdx.x + j]`):
 * the loop is right and the subscript goes past; index by the counter
 * alone. NULL where the source does not show that shape. */
static char *counter_extent_words(const guard_record *g, const char *student, int access, const char *q,
                                  const char *counter, const char *bound)
{
    static const char *const two[] = { "rows", "columns" }, *const one[] = { "row", "column" };
    char array[64], sub[160], other[64], dim[64];
    int which = 0, dims = 0, owhich = 0, odims = 0;
    if (!source_counter_subscript_extra(student, access, counter, bound, array, sizeof array, sub, sizeof sub,
                                        &which, &dims))
        return NULL;
    /* the counter also indexes another array alone, whose extent there is
     * another bound (`Mc[i][j]` beside `N_ds[ty + i][tx + j]`, under `j <
     * w`): the loop is that array's, and its bound the mistake */
    int odecl = source_counter_bare_subscript(student, access, counter, other, sizeof other, dim, sizeof dim,
                                              &owhich, &odims);
    if (odecl > 0 && strcmp(other, array) != 0) {
        char squeezed[64], b2[GUARD_TEXT];
        size_t o = 0, p2 = 0;
        for (const char *c = dim; *c && o + 1 < sizeof squeezed; c++)
            if (*c != ' ')
                squeezed[o++] = *c;
        squeezed[o] = '\0';
        for (const char *c = bound; *c && p2 + 1 < sizeof b2; c++)
            if (*c != ' ')
                b2[p2++] = *c;
        b2[p2] = '\0';
        if (strcmp(squeezed, b2) == 0)
            return NULL;
        char *qd = sanitize_quote(student, odecl), *qa = sanitize_quote(student, access);
        const char *place = odims == 2 ? two[owhich] : "elements";
        char *w = xasprintf("the loop at %s runs %s up to %s (%g here), but %s indexes %s with %s alone, whose %s %s "
                            "%s = %g already passes (declared at %s): a loop over %s runs its extent, %s, not %s",
                            q, counter, bound, g->b, qa, other, counter, dim, place, counter, g->a, qd, other, dim,
                            bound);
        free(qd);
        free(qa);
        return w;
    }
    char *part = dims == 2 ? xstrdup(two[which]) : dims == 1 ? xstrdup("elements") : xasprintf("dimension %d", which + 1);
    char *last = dims == 2 ? xstrdup(one[which]) : dims == 1 ? xstrdup("element") : xasprintf("place in dimension %d", which + 1);
    char *qa = sanitize_quote(student, access);
    char *w = xasprintf("the loop at %s keeps %s inside %s's %s %s (%s = %g, against %g), but the access at %s indexes "
                        "them with `%s`, which adds to %s and so reaches past %s's last %s: index %s's %s with %s "
                        "alone",
                        q, counter, array, bound, part, counter, g->a, g->b, qa, sub, counter, array, last, array, part,
                        counter);
    free(part);
    free(last);
    free(qa);
    return w;
}

/* A bounds test whose clauses are joined by `||` alone (and not written
 * the other way round, `x >= w || y >= h` before a return): one clause
 * that holds lets the thread through, where a bounds test needs every one
 * to; that is the mistake, whatever the values of the clause that held. */
static char *or_joined_words(const char *q)
{
    if (!strstr(q, "||") || strstr(q, "&&"))
        return NULL;
    return xasprintf("the test at %s joins its bounds with `||`: its `||` lets a thread through when any one clause "
                     "holds, where a bounds test needs all of them: join them with `&&`",
                     q);
}

/* A shared array reached past its end on a row (its first subscript, a
 * plain name made from another local) that no test around the access
 * has: nothing keeps the
 * threads whose row is past the tile's from it (a second batch with fewer
 * slots left than the block has threads, its `if (destY < w)` left out).
 * Said before the tile's size: the size is right, the test is missing. */
static char *untested_row_words(const char *student, int access, const char *msg)
{
    char name[64], sub[GUARD_TEXT], dim[GUARD_TEXT];
    int size_line = 0, decl, if_line = 0;
    if (!strstr(msg, "past the end") || !(decl = source_shared_array_at(student, access, name, sizeof name, &size_line)) ||
        !source_tile_row_untested(student, access, name, decl, sub, dim, sizeof sub, &if_line))
        return NULL;
    /* a row made from another local (`destY = dest / w`, dest from the
     * thread), not the thread's own index under another name (`ty =
     * threadIdx.y`, inside the tile in every block of its shape: there the
     * column or the block is what ran past) */
    int lines[4];
    char origins[4][48];
    if (source_value_origins(student, access, sub, lines, origins, 4) < 2)
        return NULL;
    char *d = sanitize_quote(student, decl);
    /* the if whose branches store (the load and its else's 0), whole */
    char *what = xstrdup("the access");
    if (if_line > 0) {
        char *qi = sanitize_quote(student, if_line);
        free(what);
        what = xasprintf("the if at %s, with its else,", qi);
        free(qi);
    }
    char *w = xasprintf("no test around the access at line %d has %s, its row in %s, and %s has %s rows (declared at "
                        "%s): a thread whose %s is %s or more goes past its end; only those whose %s is below %s have "
                        "a row there: put %s under `if (%s < %s)`",
                        access, sub, name, name, dim, d, sub, dim, sub, dim, what, sub, dim);
    free(what);
    free(d);
    return w;
}

/* A test that is another if's of the kernel, as written (copied with its
 * load), none of whose compared names the access reads: it bounds that
 * other access's indices, not this one's. */
static char *copied_test_words(const guard_record *g, const char *student, int access, const char *q)
{
    int other = source_same_test_elsewhere(student, g->line);
    if (other <= 0)
        return NULL;
    static const char *const ops[] = { "<", "<=", ">", ">=" };
    char left[GUARD_TEXT], right[GUARD_TEXT], names[4 * GUARD_TEXT] = "";
    int n = 0;
    for (int k = 0; k < 8; k++)
        for (int o = 0; o < 4; o++) {
            if (source_compared_sides(student, g->line, k, ops[o], left, right, sizeof left) != 0 ||
                !plain_name(left))
                continue;
            if (source_line_has_word(student, access, left))
                return NULL; /* it bounds a name of this access too */
            if (n < 4 && !strstr(names, left)) {
                size_t used = strlen(names);
                snprintf(names + used, sizeof names - used, "%s%s", n ? " and " : "", left);
                n++;
            }
        }
    if (n == 0)
        return NULL;
    char *qo = sanitize_quote(student, other);
    char *w = xasprintf("the test at %s is the test at %s, as written: it bounds %s, which the access at line %d does "
                        "not read: a test copied with the other load; bound the indices this access reads, each by "
                        "its own array's size",
                        q, qo, names, access);
    free(qo);
    return w;
}

/* An if the thread passed on its way that bounds a name of the access's
 * index by a constant (`Col < BLOCK_WIDTH`, 16) larger than the size the
 * named test bounds by (a loop's `k < Width`, 1 here): the block's size or
 * a tile's where the data's belongs; threads past the data pass it. */
static char *constant_bound_words(const guard_record *g, const char *student, int access, const char *q)
{
    char left[GUARD_TEXT], right[GUARD_TEXT], l2[GUARD_TEXT], r2[GUARD_TEXT];
    if (!g->values || strcmp(g->op, "<") != 0 ||
        source_compared_sides(student, g->line, g->operand, g->op, left, right, sizeof left) != 0 ||
        source_constant_text(student, g->line, right))
        return NULL;
    for (int i = 0; i < g->nothers; i++) {
        if (g->other[i].op[0] != '<' || g->other[i].line == g->line || g->other[i].b <= g->b ||
            source_compared_sides(student, g->other[i].line, g->other[i].k, g->other[i].op, l2, r2, sizeof l2) != 0 ||
            !plain_name(l2) || !source_line_has_word(student, access, l2) ||
            !source_constant_text(student, g->other[i].line, r2))
            continue;
        /* every name that test bounds by that constant (`Row` and `Col`) */
        char names[2 * GUARD_TEXT + 8], l3[GUARD_TEXT], r3[GUARD_TEXT];
        snprintf(names, sizeof names, "%s", l2);
        for (int k = 0; k < 8; k++)
            if (source_compared_sides(student, g->other[i].line, k, g->other[i].op, l3, r3, sizeof l3) == 0 &&
                strcmp(l3, l2) != 0 && strcmp(r3, r2) == 0 && plain_name(l3) &&
                strlen(names) + strlen(l3) + 6 < sizeof names) {
                strcat(names, " and ");
                strcat(names, l3);
                break;
            }
        char *qo = sanitize_quote(student, g->other[i].line);
        char value[48] = "";
        if (!isdigit((unsigned char)r2[0]))
            snprintf(value, sizeof value, " (%g)", g->other[i].b);
        char *w = xasprintf("the test at %s bounds %s by %s%s, a constant, where the data's size belongs (%s = %g "
                            "here, as the test at %s bounds %s): threads past the data pass it; test %s against the "
                            "data's size",
                            qo, names, r2, value, right, g->b, q, left, names);
        free(qo);
        return w;
    }
    return NULL;
}

/* A bounds test written as a value beside the access, in its own
 * statement (`M[Row * k + mCol] * (Row < j && mCol < k)`): whatever the
 * test let the thread through, the access does not wait for this one; it
 * is made first, and a 0 from the test only scales what it read. */
static char *beside_words(const char *student, int access)
{
    char test[GUARD_TEXT];
    if (source_test_beside_access(student, access, test, sizeof test) <= 0)
        return NULL;
    char *qa = sanitize_quote(student, access);
    char *w = xasprintf("the access at %s is made whatever `%s` says: a test worked out as a value in the same "
                        "statement does not keep the access from being made, it only changes what is done with "
                        "what was read (and 0 times a NaN or an infinity read past the end is still NaN); make the "
                        "access only inside `if %s`, with the value for outside it in an else",
                        qa, test, test);
    free(qa);
    return w;
}

/* The access at line access indexes an extern __shared__ array that has
 * 0 bytes (the launch passed no dynamic shared memory): its declaration
 * is the cause, said with the launch's part in it. NULL where the source
 * does not show the array. */
static char *empty_extern_words(const char *student, int access)
{
    char name[64];
    int size_line = 0, decl = source_shared_array_at(student, access, name, sizeof name, &size_line);
    if (decl <= 0 || !source_line_has_word(student, decl, "extern"))
        return NULL;
    char *d = sanitize_quote(student, decl);
    char *w = xasprintf("%s is declared at %s as an extern __shared__ array, whose size is the bytes of dynamic "
                        "shared memory the launch gives in its third <<< >>> argument, and the launch gives none: "
                        "it has 0 bytes, so every index of it is past its end; declare it with its size, as a "
                        "__shared__ array of fixed bounds (or give the launch its bytes)",
                        name, d);
    free(d);
    return w;
}

/* A clause of a test the thread passed (the last, or one before it)
 * that bounds a name of the access's index by the grid's extent (`Col <
 * gridDim.x * blockDim.x`): every thread the grid launches is inside it,
 * so it holds for all of them, past the array too. */
static char *grid_extent_words(const guard_record *g, const char *student, int access)
{
    char left[GUARD_TEXT], right[GUARD_TEXT];
    /* the last test's clauses, then the others' */
    for (int i = 0; i < g->nclauses + g->nothers; i++) {
        int own = i < g->nclauses, o = i - g->nclauses;
        int line = own ? g->line : g->other[o].line, k = own ? g->clause[i].k : g->other[o].k;
        const char *op = own ? g->clause[i].op : g->other[o].op;
        double a = own ? g->clause[i].a : g->other[o].a, b = own ? g->clause[i].b : g->other[o].b;
        if (source_compared_sides(student, line, k, op, left, right, sizeof left) != 0 ||
            !source_line_has_word(student, access, left) || (!strstr(right, "gridDim") && !strstr(right, "blockDim")))
            continue;
        char *q = sanitize_quote(student, line);
        char *w = xasprintf("the test at %s bounds %s by `%s`, the extent of the grid, which every thread it launches "
                            "is inside (%s = %g, against %g): it lets every thread through, past the array's end too; "
                            "bound %s by the size of the data the access reads",
                            q, left, right, left, a, b, left);
        free(q);
        return w;
    }
    return NULL;
}

/* The access in the false branch of its own bounds test, whose true branch
 * is a constant (`(nRow < k && Col < l) ? 0.0f : N[...]`): the branches
 * are the wrong way round, whatever test let the thread reach the line. */
static char *false_branch_words(const char *student, int access)
{
    char test[GUARD_TEXT];
    int at = 0;
    if (!source_read_in_false_branch(student, access, test, sizeof test, &at))
        return NULL;
    char *q = sanitize_quote(student, at);
    char *w = at == access
                  ? xasprintf("the conditional at %s makes its read in the branch taken when `%s` is false, where "
                              "that test says the element lies outside the array, and puts the constant where it "
                              "lies inside: its two branches are the wrong way round; swap them", q, test)
                  : xasprintf("the if at %s makes the read at line %d in its else, taken when `%s` is false, where "
                              "that test says the element lies outside the array, and stores the constant where it "
                              "lies inside: its two branches are the wrong way round; swap them",
                              q, access, test);
    free(q);
    return w;
}

/* A write out of its array in the else of an if whose test bounds a name
 * of the write's index (`if (destY < w && srcY >= 0 ...) load; else
 * N_ds[destY][destX] = 0;`): the clause keeps the threads past the bound
 * from the if's branch, and sends them to the else, which stores with that
 * index all the same. The bound must keep them from both branches. */
static char *else_past_bound_words(const char *student, int access, const char *msg)
{
    char test[GUARD_TEXT * 4], left[GUARD_TEXT], right[GUARD_TEXT];
    int in_else = 0, at = source_test_around(student, access, test, sizeof test, &in_else);
    if (at <= 0 || !in_else || !strstr(msg, "write of ") || strstr(test, "||") || strncmp(test, "if", 2) != 0)
        return NULL;
    int found = -1;
    for (int k = 0; k < 8 && found < 0; k++) { /* a test's clauses, a ghost test's four and the bound */
        if (source_compared_sides(student, at, k, "<", left, right, sizeof left) == 0 && plain_name(left) &&
            source_line_has_word(student, access, left))
            found = k;
    }
    if (found < 0)
        return NULL;
    char *q = sanitize_quote(student, at), *qa = sanitize_quote(student, access);
    int alone = !strstr(test, "&&");
    char *w = alone ? xasprintf("the if at %s sends every thread with `%s < %s` false to its else, and the else at %s "
                                "stores with %s all the same, past the array's end: a thread past that bound must "
                                "store nothing (drop the else, or give it the same test)",
                                q, left, right, qa, left)
                    : xasprintf("the test at %s joins `%s < %s` to its other clauses, so a thread with %s past that "
                                "bound goes to the else at %s, which stores with %s all the same, past the array's "
                                "end: the bound must keep such a thread from both branches: take `%s < %s` out of "
                                "that test and put the if and its else inside an if of their own that tests it",
                                q, left, right, left, qa, left, left, right);
    free(q);
    free(qa);
    return w;
}

/* The test bounds a name (`k < Width`) and the access reads that name plus
 * a number (`M[Row * Width + k + 1]`): the value the test admits, plus the
 * number, reaches the bound. In a loop that steps by more than one (an
 * unroll by two), the last pass of a count that is no multiple of the step
 * is where it does. */
static char *offset_past_bound_words(const guard_record *g, const char *student, int access, const char *q)
{
    char left[GUARD_TEXT], right[GUARD_TEXT];
    if (!g->values || strcmp(g->op, "<") != 0 ||
        source_compared_sides(student, g->line, g->operand, g->op, left, right, sizeof left) != 0 || !plain_name(left))
        return NULL;
    int c = source_line_name_offset(student, access, left);
    if (c < 1 || g->a + c < g->b)
        return NULL;
    int step = source_loop_step(student, g->line, left);
    /* a body unrolled (`ds_M[ty][i] * ds_N[i][tx] + ds_M[ty][i + 1] *
     * ds_N[i + 1][tx]`: each read at i again at i + c) in a loop that
     * steps by fewer than the terms it reads a pass; one read at i + 1
     * beside others at i is a slip of that subscript, not this */
    int bare = 0, offset = 0;
    source_line_name_reads(student, access, left, c, &bare, &offset);
    if (step >= 1 && step <= c && bare >= 2 && offset == bare)
        return xasprintf("the loop at %s steps %s by %d, and each pass at line %d reads %s and `%s + %d`, a body "
                         "unrolled to %d terms: the passes overlap, so each term is added more than once, and the "
                         "last pass reads past the end (%s + %d = %g, against %g): step by %d (`%s += %d`)",
                         q, left, step, access, left, left, c, c + 1, left, c, g->a + c, g->b, c + 1, left, c + 1);
    if (step > c)
        return xasprintf("the loop at %s steps %s by %d, and each pass reads `%s + %d` as well as %s at line %d, where "
                         "the test bounds %s alone: where the count is no multiple of %d, the last pass has %s = %g, "
                         "against %g, and reads %s + %d = %g, past the end: give the last terms a test of their own "
                         "(`%s + %d < %s`) or a pass of their own after the loop (or step by 1)",
                         q, left, step, left, c, left, access, left, step, left, g->a, g->b, left, c, g->a + c, left, c,
                         right);
    return xasprintf("the test at %s bounds %s (`%s < %s`), but the access at line %d reads `%s + %d`: with %s = %g, "
                     "against %g, it reads at %g, past the end: bound what the access reads (`%s + %d < %s`)",
                     q, left, left, right, access, left, c, left, g->a, g->b, g->a + c, left, c, right);
}

/* A loop over a tile whose bound is another size (`for (i = 0; i < k; ++i)`
 * over ds_M's columns): the first pass past the tile's extent reads past
 * it, though the test held (i = 16, against 97). A loop over a tile runs
 * the tile's extent, as its declaration sets it. */
static char *tile_loop_bound_words(const guard_record *g, const char *student, int access, const char *q,
                                   double elements)
{
    char left[GUARD_TEXT], right[GUARD_TEXT], name[64];
    int size_line = 0, decl = 0;
    if (!g->values || strcmp(g->op, "<") != 0 || g->a < 1 || g->b <= g->a || elements <= 0 ||
        source_compared_sides(student, g->line, g->operand, g->op, left, right, sizeof left) != 0 ||
        !plain_name(left) || source_loop_step(student, g->line, left) != 1 ||
        !source_line_has_word(student, access, left) ||
        /* the value it let through is one of the tile's extents */
        elements / g->a != (double)(long long)(elements / g->a) ||
        (decl = source_shared_array_at(student, access, name, sizeof name, &size_line)) <= 0)
        return NULL;
    char *d = sanitize_quote(student, decl);
    char *w = xasprintf("the loop at %s runs %s up to %s (%g here), but line %d reads the tile %s with %s, and %s = %g "
                        "is already past it (declared at %s): a loop over a tile runs the tile's extent, as its "
                        "declaration sets it, not %s",
                        q, left, right, g->b, access, name, left, left, g->a, d, right);
    free(d);
    return w;
}

/* A loop that counts down from the bound (`for (k = Width; k > 0; --k)`):
 * its first pass reads with the counter at the bound, one past the end,
 * and it stops before 0. */
static char *count_down_words(const guard_record *g, const char *student, int access, const char *q)
{
    char left[GUARD_TEXT], right[GUARD_TEXT];
    if (!g->values || g->op[0] != '>' ||
        source_compared_sides(student, g->line, g->operand, g->op, left, right, sizeof left) != 0 ||
        !plain_name(left) || source_loop_step(student, g->line, left) >= 0 ||
        !source_line_has_word(student, access, left))
        return NULL;
    return xasprintf("the loop at %s counts %s down, and its first pass reads with %s = %g, past the end of the array "
                     "at line %d%s: a count down over n elements runs from n - 1 to 0 (`%s = n - 1; %s >= 0`)",
                     q, left, left, g->a, access,
                     !strcmp(g->op, ">") && g->b == 0 ? ", and `> 0` stops it before 0, which it never reads" : "",
                     left, left);
}

/* What a name says it counts: 1 a row (`row_o`, `Row`, `y`), 2 a column
 * (`col_o`, `Col`, `x`), 0 neither; of a bound, 1 rows (`height`), 2
 * columns (`width`). */
static int axis_of_name(const char *w, int bound)
{
    char low[GUARD_TEXT];
    size_t n = strlen(w) < sizeof low - 1 ? strlen(w) : sizeof low - 1;
    for (size_t i = 0; i < n; i++)
        low[i] = (char)(w[i] >= 'A' && w[i] <= 'Z' ? w[i] - 'A' + 'a' : w[i]);
    low[n] = '\0';
    /* a bound is a data's extent as a name or a member (`out.width`),
     * not a tile's size nor an expression of one (`numPhases *
     * TILE_WIDTH`: the tiles' extent, whatever its words) */
    const char *minus = strchr(low, '-');
    if (bound && (strstr(low, "tile") || strpbrk(low, "*+/() ") || (minus && minus[1] != '>')))
        return 0;
    if (bound)
        return strstr(low, "height") || strstr(low, "rows") ? 1 : strstr(low, "width") || strstr(low, "cols") ? 2 : 0;
    return strstr(low, "row") || !strcmp(low, "y") ? 1 : strstr(low, "col") || !strcmp(low, "x") ? 2 : 0;
}

/* A test that held on every clause, one of which bounds a name the access
 * reads by the phase loop's count times a tile (`nRow < numPhases *
 * TILE_WIDTH`): the extent rounded up to whole tiles, which in the last
 * phase lets the name past the matrix's end. The bound to write instead,
 * where another test of the kernel bounds a name made from the phase as
 * this one is by a plain size (`mCol < k`). */
static char *padded_bound_words(const guard_record *g, const char *student, int access, const char *q)
{
    char counter[GUARD_TEXT], count[GUARD_TEXT], left[GUARD_TEXT], right[GUARD_TEXT];
    int loop = source_enclosing_loop(student, g->line, counter, count, sizeof counter);
    if (loop <= 0 || !plain_name(count))
        return NULL;
    for (int k = 0; k < g->nclauses; k++) {
        if (strcmp(g->clause[k].op, "<") != 0 ||
            source_compared_sides(student, g->line, g->clause[k].k, "<", left, right, sizeof left) != 0 ||
            !plain_name(left) || !source_line_has_word(student, access, left) || !strchr(right, '*'))
            continue;
        /* the count as a whole word of the bound */
        const char *p = strstr(right, count);
        size_t cl = strlen(count);
        if (!p || (p > right && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) ||
            isalnum((unsigned char)p[cl]) || p[cl] == '_')
            continue;
        /* a twin: another test between the loop and the access bounding a
         * name whose value reads the counter by a plain size */
        char twin[GUARD_TEXT * 6] = "", l2[GUARD_TEXT], r2[GUARD_TEXT];
        for (int line = loop + 1; line < access + 24 && !twin[0]; line++) {
            if (line == g->line || !source_line_has_word(student, line, "if"))
                continue;
            for (int j = 0; j < 4 && !twin[0]; j++) {
                int origin[2];
                char names[2][48];
                if (source_compared_sides(student, line, j, "<", l2, r2, sizeof l2) != 0 || !plain_name(l2) ||
                    !plain_name(r2) || !strcmp(l2, left) ||
                    source_value_origins(student, line, l2, origin, names, 1) != 1 ||
                    !source_line_has_word(student, origin[0], counter))
                    continue;
                snprintf(twin, sizeof twin, ", as the test at line %d bounds %s by %s: `%s < %s`", line, l2, r2,
                         left, r2);
            }
        }
        return xasprintf("the test at %s bounds %s by `%s` (%g here), the loop's %s phases times a tile: the extent "
                         "rounded up to whole tiles, not the matrix's own, so in the last phase it lets %s past the "
                         "matrix's end (%s = %g): bound %s by the matrix's size%s",
                         q, left, right, g->clause[k].b, count, left, left, g->clause[k].a, left,
                         twin[0] ? twin : "");
    }
    return NULL;
}

/* A test that held on every clause, one of which bounds a row by the
 * columns' count (`row_o < out.width`) or a column by the rows': the
 * bound of the other axis let the thread past the array; with the other
 * clause the other way round too, the two are swapped. */
static char *crossed_bounds_words(const guard_record *g, const char *student, int access, const char *q)
{
    char left[GUARD_TEXT], right[GUARD_TEXT], other[GUARD_TEXT], other_right[GUARD_TEXT];
    for (int k = 0; k < 8; k++) {
        if (source_compared_sides(student, g->line, k, "<", left, right, sizeof left) != 0 || !plain_name(left) ||
            !source_line_has_word(student, access, left))
            continue;
        int a = axis_of_name(left, 0), b = axis_of_name(right, 1);
        if (!a || !b || a == b)
            continue;
        /* the other clause, the other way round */
        for (int j = 0; j < 8; j++) {
            if (j == k || source_compared_sides(student, g->line, j, "<", other, other_right, sizeof other) != 0 ||
                axis_of_name(other, 0) != b || axis_of_name(other_right, 1) != a)
                continue;
            return xasprintf("the test at %s bounds %s by %s and %s by %s: the two bounds are swapped (write `%s < "
                             "%s` and `%s < %s`): %s, a %s, passed against the %s' count",
                             q, other, other_right, left, right, left, other_right, other, right, left,
                             a == 1 ? "row" : "column", a == 1 ? "columns" : "rows");
        }
        /* a bound the test gives both axes (`Row < Width && Col < Width`)
         * is a square's side, the rows' count as much as the columns' */
        int shared = 0;
        for (int j = 0; j < 8 && !shared; j++)
            shared = j != k && source_compared_sides(student, g->line, j, "<", other, other_right, sizeof other) == 0 &&
                     axis_of_name(other, 0) == b && strcmp(other_right, right) == 0;
        if (shared)
            continue;
        return xasprintf("the test at %s bounds %s, a %s, by %s, the %s' count: test it against the %s' (`%s < ...`)",
                         q, left, a == 1 ? "row" : "column", right, b == 1 ? "rows" : "columns",
                         a == 1 ? "rows" : "columns", left);
    }
    return NULL;
}

/* A bounds test written the other way round: every comparison it made is a
 * `>=` or `>` (none a `<`), the one that let the thread through holds with
 * a name the access's index uses at or past its bound (`Col >= Width`): the
 * test admits exactly the threads whose element lies outside, and keeps out
 * those inside. */
static char *inverted_words(const guard_record *g, const char *student, int access, const char *q)
{
    if (!g->values || (strcmp(g->op, ">=") != 0 && strcmp(g->op, ">") != 0) || g->a < g->b)
        return NULL;
    for (int k = 0; k < g->nclauses; k++)
        if (g->clause[k].op[0] != '>')
            return NULL;
    if (source_line_has_char(student, g->line, '<'))
        return NULL;
    char left[GUARD_TEXT], right[GUARD_TEXT];
    if (source_compared_sides(student, g->line, g->operand, g->op, left, right, sizeof left) != 0 || !plain_name(left) ||
        !source_line_has_word(student, access, left))
        return NULL;
    /* a loop that counts down tests its lower end with `>`: rightly */
    if (source_loop_step(student, g->line, left) < 0)
        return NULL;
    return xasprintf("the test at %s is the wrong way round: it lets a thread in where `%s %s %s` (%s = %g, against "
                     "%g), that is where its element lies outside the array, and keeps out every thread whose "
                     "element lies inside; test that each index is below its bound (`%s < %s`), the clauses joined "
                     "by `&&`",
                     q, left, g->op, right, left, g->a, g->b, left, right);
}

/* A global read at the access's line that no test of its index's names
 * stands over, where the same read elsewhere in the kernel stands under an
 * if that tests them (the second batch's load without the first's ghost
 * test): that if, to be given to this read too. */
static char *unguarded_twin_words(const char *student, int access)
{
    char read[GUARD_TEXT * 2], test[GUARD_TEXT * 4];
    int twin = 0, has_else = 0, in_else = 0;
    int t = source_twin_read_guarded(student, access, read, sizeof read, &twin, &has_else);
    if (t <= 0 || source_test_around(student, twin, test, sizeof test, &in_else) != t)
        return NULL;
    return xasprintf("line %d reads `%s` under no test of its index, where line %d reads it under the test at line "
                     "%d (`%s`)%s: give line %d that test%s",
                     access, read, twin, t, test, has_else ? ", whose else stores in its place" : "", access,
                     has_else ? " and its else" : "");
}

/* A pointer walked past its array: read through `*` and stepped twice a
 * pass (`*n++` in a loop whose header steps n by Width as well). */
static char *pointer_walk_words(const char *student, int access)
{
    char name[64], steps[600];
    int loop;
    if (!source_pointer_stepped_twice(student, access, name, sizeof name, steps, sizeof steps, &loop))
        return NULL;
    char *qa = sanitize_quote(student, access);
    char *w = xasprintf("the access at %s reads through the pointer %s, which each pass of the loop steps more than "
                        "once, by %s: it moves by their sum a pass where one step belongs, off the elements it "
                        "should read and, in the last passes, past the array's end; step %s once a pass (keep one "
                        "of the steps)",
                        qa, name, steps, name);
    free(qa);
    return w;
}

/* An if over the access whose test could not tell this thread's element:
 * it read names its own body sets only after it, or, in a loop, a
 * comparison worked out once before the loop while the access's index
 * moves with each pass (source_stale_test). */
static char *stale_test_words(const char *student, int access)
{
    source_test_stale t;
    if (!source_stale_test(student, access, &t))
        return NULL;
    char *qt = sanitize_quote(student, t.test_line), *qs = sanitize_quote(student, t.set_line), *w;
    if (t.kind == SOURCE_TEST_READ_BEFORE_SET) {
        int several = strchr(t.names, ',') != NULL;
        char *comma = strstr(t.names, ", ");
        if (comma && !strchr(comma + 2, ',')) { /* two: "Row and Col" */
            char last[64];
            snprintf(last, sizeof last, "%s", comma + 2);
            snprintf(comma, sizeof t.names - (size_t)(comma - t.names), " and %s", last);
        }
        char *held = t.held_line > 0 ? sanitize_quote(student, t.held_line) : NULL;
        char *was = held ? xasprintf("still the value%s of %s", several ? "s" : "", held)
                         : xstrdup("whatever they held before");
        w = xasprintf("the test at %s reads %s before %s sets %s: at the test %s %s, not this thread's, so the test "
                      "does not tell where its element lies and lets it through to the access at line %d; work out "
                      "%s before the test",
                      qt, t.names, qs, several ? "them" : "it", several ? "they are" : "it is", was, access, t.names);
        free(held);
    } else if (t.kind == SOURCE_TEST_SET_BEFORE_ITS_NAMES) {
        w = xasprintf("the test at %s tests %s, worked out at %s from %s, which line %d sets again after it: the test "
                      "still gives the verdict for the old %s, not for the one the access at line %d uses, and lets "
                      "this thread through; work the test out again from the new %s",
                      qt, t.name, qs, t.index_name, t.index_line, t.index_name, access, t.index_name);
    } else {
        char *moves = t.index_line == t.loop_line ? xstrdup("the loop steps each pass")
                                                  : xasprintf("line %d sets anew each pass", t.index_line);
        w = xasprintf("the test at %s tests %s, worked out once at %s, before the loop at line %d: it has the same "
                      "value in every pass, while the access at line %d reads at %s, which %s, so in a later pass "
                      "the test lets this thread past the array; test the pass's own index inside the loop",
                      qt, t.name, qs, t.loop_line, access, t.index_name, moves);
        free(moves);
    }
    free(qt);
    free(qs);
    return w;
}

/* The test that let the thread through compares a difference with 0 in
 * unsigned arithmetic (`k - mCol > 0`, mCol unsigned): it never goes below
 * 0, it wraps round to a huge number, so the clause holds past the bound. */
static char *unsigned_difference_words(const guard_record *g, const char *student, const char *q)
{
    char diff[128], name[64];
    int decl = 0;
    if (!source_unsigned_difference_test(student, g->line, diff, sizeof diff, name, sizeof name, &decl))
        return NULL;
    return xasprintf("the test at %s works out `%s` in unsigned arithmetic (%s is declared unsigned at line %d): an "
                     "unsigned difference is never below 0, it wraps round to a huge number, so the clause holds "
                     "where %s is past its bound and lets this thread through; compare the two names directly "
                     "(`<`), not their difference with 0",
                     q, diff, name, decl, name);
}

/* An array read through a base the loop around it moves (`in.data += k;`):
 * the steps add up from pass to pass, so later passes read elsewhere. */
char *guards_base_stepped_words(const char *student, int access)
{
    char base[64], step[128];
    int loop = 0, line = source_base_stepped_in_loop(student, access, base, sizeof base, step, sizeof step, &loop);
    if (line <= 0)
        return NULL;
    char *qs = sanitize_quote(student, line), *qa = sanitize_quote(student, access);
    char *w = xasprintf("the access at %s reads through %s, which %s moves on every pass of the loop at line %d: the "
                        "steps add up from pass to pass (each pass starts where the last one left %s), so after the "
                        "first pass it reads elements that are not the ones meant, and past its row; keep %s where it "
                        "is and add the pass's offset in the index",
                        qa, base, qs, loop, base, base);
    free(qs);
    free(qa);
    return w;
}

char *guards_words(char *msg, const char *student, int access)
{
    char *at = strstr(msg, " (let through by the test at line ");
    if (!at || !student)
        return NULL;
    guard_record g;
    int parsed = parse_record(at, &g);
    *at = '\0';
    if (parsed != 0)
        return NULL;
    char *q = sanitize_quote(student, g.line);
    char left[GUARD_TEXT], right[GUARD_TEXT];
    char *words = NULL;
    if (access > 0)
        words = pointer_walk_words(student, access);
    if (!words && access > 0)
        words = guards_base_stepped_words(student, access);
    if (!words && access > 0)
        words = stale_test_words(student, access);
    if (!words && access > 0)
        words = unsigned_difference_words(&g, student, q);
    /* an extern __shared__ array of 0 bytes: no test is the mistake, every
     * index is past its end; the launch gave it no dynamic size */
    if (!words && access > 0 && strstr(msg, " 0-byte array in shared memory (the dynamic extern __shared__ array)"))
        words = empty_extern_words(student, access);
    if (!words && access > 0)
        words = false_branch_words(student, access);
    if (!words && access > 0)
        words = else_past_bound_words(student, access, msg);
    if (!words && access > 0)
        words = offset_past_bound_words(&g, student, access, q);
    if (!words && access > 0 && !strstr(msg, "in shared memory"))
        words = unguarded_twin_words(student, access);
    if (!words && access > 0)
        words = count_down_words(&g, student, access, q);
    if (!words && access > 0)
        words = not_equal_words(&g, student);
    int inverted = 0;
    if (!words && access > 0)
        inverted = (words = inverted_words(&g, student, access, q)) != NULL;
    if (!words && access > 0 && !inverted)
        words = or_joined_words(q);
    if (!words && access > 0)
        words = copied_test_words(&g, student, access, q);
    if (!words && access > 0 && strstr(msg, "before the start"))
        words = missing_lower_words(&g, student, access, q);
    if (!words && access > 0 && !strstr(msg, "in shared memory"))
        words = tested_source_words(&g, student, access, q);
    if (!words && access > 0 && !strstr(msg, "in shared memory"))
        words = lower_only_words(&g, student, access);
    if (!words && access > 0 && !strstr(msg, "in shared memory"))
        words = tested_part_words(&g, student, access, q);
    if (!words && g.at_bound && source_compared_sides(student, g.line, g.operand, g.op, left, right, sizeof left) == 0)
        words = xasprintf("the test at %s let this thread through at its bound: `%s %s %s` holds with %s = %g, "
                          "equal to %s, the one value %s would stop (write `%s %c %s` there)", q, left, g.op, right,
                          left, g.a, right, g.op[0] == '<' ? "`<`" : "`>`", left, g.op[0], right);
    if (!words && access > 0)
        words = beside_words(student, access);
    if (!words && access > 0)
        words = grid_extent_words(&g, student, access);
    if (!words && access > 0)
        words = test_after_words(student, access);
    if (!words && access > 0 && g.values && g.a < 0 && strstr(msg, "before the start"))
        words = negative_start_words(&g, student, access, q);
    if (!words && access > 0 && !strstr(msg, "in shared memory"))
        words = unbounded_words(&g, student, access);
    if (!words && access > 0 && strstr(msg, "in shared memory"))
        words = tile_global_words(student, access);
    if (!words && access > 0 && strstr(msg, "in shared memory"))
        words = set_later_in_loop_words(student, access);
    if (!words && access > 0 && strstr(msg, "in shared memory"))
        words = untested_row_words(student, access, msg);
    if (!words && access > 0 && strstr(msg, "in shared memory"))
        words = too_small_words(&g, student, access, q);
    if (!words && access > 0 && strstr(msg, "in shared memory"))
        words = tile_loop_bound_words(&g, student, access, q, array_elements(msg));
    if (!words && access > 0 && strstr(msg, "in shared memory"))
        words = set_again_words(student, access);
    if (!words && access > 0)
        words = constant_bound_words(&g, student, access, q);
    if (!words && access > 0) {
        double elements = array_elements(msg);
        if (elements > 0)
            words = index_words(&g, student, access, elements, q);
        if (!words && elements > 0)
            words = row_stride_words(&g, student, access, elements, q);
        if (!words && elements > 0)
            words = flattened_words(&g, student, access, elements, q);
        if (!words && elements > 0 && held_all(&g))
            words = other_names_words(&g, student, access, q);
        if (!words && elements > 0 && held_all(&g))
            words = crossed_bounds_words(&g, student, access, q);
        if (!words && elements > 0 && held_all(&g))
            words = padded_bound_words(&g, student, access, q);
        if (!words && elements > 0 && !strstr(msg, "in shared memory"))
            words = source_read_planar(student, access);
        if (!words && elements > 0 && held_all(&g))
            words = exchanged_axes_words(&g, student, access, q);
        if (!words && elements > 0)
            words = stride_words(&g, student, access, elements, q);
    }
    /* a loop that runs its counter over just one dimension of the array
     * (`j < MASK_WIDTH` for `Mc[...][MASK_WIDTH]`), held, and a subscript
     * that adds more to the counter there: that subscript is the mistake */
    if (!words && access > 0 && g.values && (!strcmp(g.op, "<") || !strcmp(g.op, "<=")) &&
        source_compared_sides(student, g.line, g.operand, g.op, left, right, sizeof left) == 0 && plain_name(left) &&
        source_loop_step(student, g.line, left) > 0)
        words = counter_extent_words(&g, student, access, q, left, right);
    /* a loop's test that held inside its bound, on a name the access
     * reads: the counter is in range, so the index made from it is what
     * reaches past the array */
    /* (on its last value, against a bound that is no constant: a size of
     * the data, not a loop bounded by the wrong thing, `ph < Width`) */
    if (!words && access > 0 && g.values && !strcmp(g.op, "<") && g.a == g.b - 1 &&
        source_compared_sides(student, g.line, g.operand, g.op, left, right, sizeof left) == 0 && plain_name(left) &&
        !source_constant_text(student, g.line, right) && source_loop_step(student, g.line, left) > 0 &&
        source_line_has_word(student, access, left)) {
        char *qa = sanitize_quote(student, access);
        words = xasprintf("the loop at %s kept %s inside its bound (%s = %g, against %g), yet the access at %s goes "
                          "past its array's end: its index is what is wrong, not the loop: look at each of its terms "
                          "and what multiplies them (a row-major element is row * row length + column)",
                          q, left, left, g.a, g.b, qa);
        free(qa);
    }
    /* a passed test of several comparisons: each was true, the values of
     * the last one evaluated say nothing of which bound is wrong */
    int compound = strstr(q, "&&") || strstr(q, "||");
    if (!words && g.values && !compound &&
        source_compared_operand(student, g.line, g.operand, g.op, left, sizeof left) == 0)
        words = xasprintf("the test at %s let this thread through (%s = %g, against %g)", q, left, g.a, g.b);
    else if (!words && g.values && !compound)
        words = xasprintf("the test at %s let this thread through (%g %s %g)", q, g.a, g.op, g.b);
    else if (!words)
        words = xasprintf("the test at %s let this thread through", q);
    /* an `||` between bounds: one clause that holds is enough, where a
     * bounds test needs every one to */
    if (strstr(q, "||") && !strstr(q, "&&") && !inverted && !strstr(words, "joins its bounds with `||`")) {
        char *more = xasprintf("%s: its `||` lets a thread through when any one clause holds, where a bounds test "
                               "needs all of them (`&&`)", words);
        free(words);
        words = more;
    }
    free(q);
    return words;
}

char *guards_outside_test(const char *student, int access)
{
    int body_end = 0, test = student && access > 0 ? source_test_before_access(student, access, &body_end) : 0;
    if (test <= 0)
        return NULL;
    char *qt = sanitize_quote(student, test);
    char *w = xasprintf("the access at line %d is outside the test at %s, whose body ends at line %d, though that "
                        "test bounds the names of its index: the threads the test keeps out make the access all the "
                        "same; move it inside the test",
                        access, qt, body_end);
    free(qt);
    return w;
}

char *guards_unstored_region(const char *student, const char *dataset, int column, int from, int total,
                             const char *size, const char *right_size)
{
    char left[GUARD_TEXT], right[GUARD_TEXT];
    int line = source_store_test_on(student, size, column, left, right, sizeof left);
    if (line <= 0)
        return NULL;
    const char *what = column ? "columns" : "rows";
    char *q = sanitize_quote(student, line);
    /* "the height", but a matrix's "j" as it is */
    const char *the_size = strlen(size) > 1 ? "the " : "", *the_right = strlen(right_size) > 1 ? "the " : "";
    char *named = strcmp(right, size) == 0 ? xstrdup("") : xasprintf(" (%s%s)", the_size, size);
    /* one row or column left, or several */
    char *lost = from == total - 1 ? xasprintf("%.*s %d is", (int)strlen(what) - 1, what, from)
                                   : xasprintf("%s %d to %d are", what, from, total - 1);
    /* the other clause bounding another name by the size this one wants
     * (`y < width && x < height`): the two bounds are swapped */
    char other[GUARD_TEXT] = "", other_right[GUARD_TEXT] = "", *swapped = xstrdup("");
    for (int k = 0; k < 4 && !other[0]; k++) {
        if (source_compared_sides(student, line, k, "<", other, other_right, sizeof other) != 0 ||
            strcmp(other, left) == 0 || !strstr(other_right, right_size))
            other[0] = '\0';
    }
    if (other[0]) {
        free(swapped);
        swapped = xasprintf("; it also bounds %s by %s: the two bounds are swapped (write `%s < %s` and `%s < %s`)",
                            other, other_right, other, right, left, other_right);
    }
    char *w = xasprintf("the test at %s bounds %s by %s%s, but the output has %d %s (%s%s): on %s the "
                        "output's %s never stored, exactly those at or past %s%s (%d), so what "
                        "reads them after the kernel finds memory nothing stored: test %s against %s%s%s",
                        q, left, right, named, total, what, the_right, right_size, dataset, lost, the_size, size,
                        from, left, the_right, right_size, swapped);
    free(swapped);
    free(lost);
    free(named);
    free(q);
    return w;
}

/* ---- an output region no thread stored: the test that kept its threads out ---------
 *
 * The emulator's checked build ends each block whose tiles it keeps with
 * each thread's stores into device memory and its last outcome of each
 * test line ("block_end", tiles.h). A thread that stored nothing, whose
 * test before a store into global memory was false, was kept from the
 * store by that test; when its deciding comparison's bound is exactly
 * where the output's unstored region starts (`col_o < 12` false, and
 * every column from 12 on never stored), the bound is the mistake. A loop
 * that controls the store and whose body no test of the thread's ran
 * never ran its body: when nothing of the output was stored at all, its
 * bound is what was wrong (`k < in.channels` false at 0 < 0). */

/* Where a false comparison stops a value going up: `x < B` false from B
 * on, `x <= B` from B + 1, `B > x` from B, `B >= x` from B + 1; -1 for a
 * comparison that bounds nothing from above. */
static double stops_from(const tile_test *t)
{
    switch (t->op) {
    case 0: return t->b;
    case 1: return t->b + 1;
    case 2: return t->a;
    case 3: return t->a + 1;
    default: return -1;
    }
}

static const char *const op_text[] = { "<", "<=", ">", ">=", "==", "!=" };

/* Whether thread th of e has an outcome of a test on lines [from, to]
 * other than the loop's own (line). */
static int tested_within(const tile_block_end *e, long th, int line, int from, int to)
{
    for (int k = 0; k < e->ntests; k++)
        if (e->tests[k].thread == th && e->tests[k].line != line && e->tests[k].line >= from &&
            e->tests[k].line <= to)
            return 1;
    return 0;
}

typedef struct {
    int line, kind, store, operand, op, threads;
    double lo, hi, b;       /* the tested value's range over those threads, and the bound */
    double a_lo, a_hi, b_lo, b_hi; /* each side's range: which is the value is known from the text */
    const tile_block_end *e;
} kept_out;

/* The first false test that matched names the test; each other thread of
 * that block it kept out the same way counts, with its tested value. */
static void consider(kept_out *best, const tile_block_end *e, const tile_test *t, int kind, int store)
{
    double v = t->op == 2 || t->op == 3 ? t->b : t->a; /* the tested side */
    if (!best->threads) {
        *best = (kept_out){ t->line, kind, store, t->operand, t->op, 1, v, v, t->op == 2 || t->op == 3 ? t->a : t->b,
                            t->a, t->a, t->b, t->b, e };
        return;
    }
    if (best->e != e || best->line != t->line || best->operand != t->operand || best->op != t->op)
        return;
    best->threads++;
    best->lo = v < best->lo ? v : best->lo;
    best->hi = v > best->hi ? v : best->hi;
    best->a_lo = t->a < best->a_lo ? t->a : best->a_lo;
    best->a_hi = t->a > best->a_hi ? t->a : best->a_hi;
    best->b_lo = t->b < best->b_lo ? t->b : best->b_lo;
    best->b_hi = t->b > best->b_hi ? t->b : best->b_hi;
}

/* Whether text is a number as written (`0`, `-1`, `2.5f`). */
static int is_number_text(const char *text)
{
    char *end;
    strtod(text, &end);
    while (*end == 'f' || *end == 'F' || *end == 'u' || *end == 'U' || *end == 'l' || *end == 'L')
        end++;
    return end != text && *end == '\0';
}

static char *region_words(int rows, int cols, int r0, int c0)
{
    if (r0 <= 0 && c0 <= 0)
        return xstrdup("no element of the output is ever stored");
    if (r0 >= rows && c0 == cols - 1)
        return xasprintf("the output's column %d is never stored", c0);
    if (r0 >= rows)
        return xasprintf("the output's columns %d to %d are never stored", c0, cols - 1);
    if (c0 >= cols && r0 == rows - 1)
        return xasprintf("the output's row %d is never stored", r0);
    if (c0 >= cols)
        return xasprintf("the output's rows %d to %d are never stored", r0, rows - 1);
    return xasprintf("every element of the output in row %d or below, or in column %d or right of it, is never "
                     "stored (all but its top-left %d x %d)", r0, c0, r0, c0);
}

/* Whether the value term `operand` of the test at line compares is its
 * left side (`row_i >= 0`: the side that is no number, else the left of
 * `<` and the right of `>`); -1 where the source does not show it. */
static int value_on_left(const char *student, int line, int operand, int op, char *left, char *right, size_t n)
{
    if (op < 0 || op > 3 || source_compared_sides(student, line, operand, op_text[op], left, right, n) != 0)
        return -1;
    return is_number_text(right) && !is_number_text(left)   ? 1
           : is_number_text(left) && !is_number_text(right) ? 0
                                                            : !(op == 2 || op == 3);
}

char *guards_kept_from_store(const tile_snapshots *t, const char *student, const char *dataset, int rows, int cols,
                             int r0, int c0, int r1, int c1)
{
    int frame = r0 > 0 && c0 > 0 && r1 > 0 && c1 > 0;
    int head = frame || (r0 < 0 && c0 < 0 && (r1 > 0 || c1 > 0));
    int nothing = !head && r0 <= 0 && c0 <= 0;
    kept_out best = { 0 };
    for (int i = 0; i < t->nends && !best.threads; i++) {
        const tile_block_end *e = &t->ends[i];
        /* the lines already asked of the source: a test line and its answer */
        int asked[16][5], nasked = 0;
        for (int k = 0; k < e->ntests; k++) {
            const tile_test *x = &e->tests[k];
            if (x->result || x->op < 0 || x->op > 3 || x->thread < 0 || x->thread >= e->nthreads ||
                e->stores[x->thread] != 0)
                continue;
            int *a = NULL;
            for (int q = 0; q < nasked && !a; q++)
                if (asked[q][0] == x->line)
                    a = asked[q];
            if (!a && nasked < 16) {
                a = asked[nasked++];
                a[0] = x->line;
                a[1] = source_test_guards_store(student, x->line, &a[2], &a[3]);
            }
            if (!a || !a[1])
                continue;
            double from = stops_from(x);
            /* the axis the test's names say it bounds (`col_o < out.width`:
             * columns) is the one its stop must match, where they say one */
            char tl_[GUARD_TEXT], tr_[GUARD_TEXT];
            int tv = value_on_left(student, x->line, x->operand, x->op, tl_, tr_, sizeof tl_);
            int axis = tv < 0 ? 0 : axis_of_name(tv ? tl_ : tr_, 0);
            if (tv >= 0 && !axis)
                axis = axis_of_name(tv ? tr_ : tl_, 1);
            int by_col = axis != 1 && c0 > 0 && c0 < cols && from == c0;
            int by_row = axis != 2 && r0 > 0 && r0 < rows && from == r0;
            int matches = a[1] == 1 ? by_col || by_row || (nothing && from == 0)
                                    /* a loop whose body this thread never entered */
                                    : nothing && !tested_within(e, x->thread, x->line, a[3], a[4]);
            if (head && a[1] == 1) {
                /* a lower bound false here, the value within the head's
                 * width of it: `col_i >= 0` with col_i -2 or -1, and the
                 * first 2 columns never stored */
                char l[GUARD_TEXT], r[GUARD_TEXT];
                int vl = value_on_left(student, x->line, x->operand, x->op, l, r, sizeof l);
                double v = vl ? x->a : x->b, bound = vl ? x->b : x->a;
                int lower = vl >= 0 && vl == (x->op == 2 || x->op == 3);
                int strict = (x->op == 2 && vl == 1) || (x->op == 0 && vl == 0);
                double below = bound - v + strict;
                matches = lower && below >= 1 && ((c1 > 0 && below <= c1) || (r1 > 0 && below <= r1));
            }
            if (matches)
                consider(&best, e, x, a[1], a[2]);
        }
    }
    if (!best.threads)
        return NULL;
    char left[GUARD_TEXT], right[GUARD_TEXT];
    if (source_compared_sides(student, best.line, best.operand, op_text[best.op], left, right, sizeof left) != 0)
        return NULL;
    /* the value tested: the side that is no number where one is (`row_i >=
     * 0`: row_i), else the left of `<` and the right of `>` */
    int var_left = is_number_text(right) && !is_number_text(left)   ? 1
                   : is_number_text(left) && !is_number_text(right) ? 0
                                                                    : !(best.op == 2 || best.op == 3);
    if (var_left != !(best.op == 2 || best.op == 3)) {
        best.lo = var_left ? best.a_lo : best.b_lo;
        best.hi = var_left ? best.a_hi : best.b_hi;
        best.b = var_left ? best.b_lo : best.a_lo;
    }
    /* a lower bound (`row_i >= 0`): it keeps out the values below it */
    int lower = var_left == (best.op == 2 || best.op == 3);
    const char *var = var_left ? left : right;
    char *q = sanitize_quote(student, best.line);
    char *region = frame                 ? xasprintf("the output's border, %d wide on every side, is never stored", r1)
                   : !head               ? region_words(rows, cols, r0, c0)
                   : r1 > 0 && c1 > 0    ? xasprintf("the output's first %d rows and first %d columns are never "
                                                     "stored", r1, c1)
                   : c1 == 1             ? xstrdup("the output's first column is never stored")
                   : c1 > 0              ? xasprintf("the output's first %d columns are never stored", c1)
                   : r1 == 1             ? xstrdup("the output's first row is never stored")
                                         : xasprintf("the output's first %d rows are never stored", r1);
    char *range = best.lo == best.hi ? xasprintf("%s = %g", var, best.lo)
                                     : xasprintf("%s from %g to %g", var, best.lo, best.hi);
    const tile_block_end *e = best.e;
    char *w;
    /* a bound that is a member of an argument the host never set: the
     * argument's initialiser is where the value came from */
    const char *bound = var_left ? right : left;
    char object[GUARD_TEXT], init[GUARD_TEXT];
    int decl = source_member_never_set(student, best.line, bound, object, sizeof object, init, sizeof init);
    char *origin = decl > 0 && init[0]
                       ? xasprintf("%s is %s%s of the launch, which line %d starts as `%s` and no line sets "
                                   "%s%s after: give it its value there (a copy of the image it describes)",
                                   bound, object, strchr(bound, '.'), decl, init, object, strchr(bound, '.'))
                   : decl > 0 ? xasprintf("%s is %s%s of the launch, which line %d declares with no value and no line "
                                          "sets after: give %s its value there (a copy of the image it describes)",
                                          bound, object, strchr(bound, '.'), decl, object)
                              : NULL;
    /* how the declaration starts the object: `= {0}`, or no value at all */
    char *started = init[0] ? xasprintf("starts %s as `%s`", object, init)
                            : xasprintf("declares %s with no value", object);
    if (origin && best.kind == 2)
        w = xasprintf("line %d %s, so the kernel's %s is %g: the loop at %s never runs its body "
                      "(`%s %s %s` is false from the start for the %d threads of block (%ld, %ld)), no thread "
                      "reaches the store at line %d, and on %s %s; %s",
                      decl, started, bound, best.b, q, left, op_text[best.op], right, best.threads,
                      e->block[0], e->block[1], best.store, dataset, region, origin);
    else if (origin)
        w = xasprintf("line %d %s, so the kernel's %s is %g: the test at %s is false for the %d "
                      "threads of block (%ld, %ld) (`%s %s %s`: %s), no thread reaches the store at line %d, and on "
                      "%s %s; %s",
                      decl, started, bound, best.b, q, best.threads, e->block[0], e->block[1], left,
                      op_text[best.op], right, range, best.store, dataset, region, origin);
    else if (best.kind == 2)
        w = xasprintf("the loop at %s never runs its body in block (%ld, %ld): `%s %s %s` is false from the start "
                      "(%s, against %g) for its %d threads, so none of them reaches the store at line %d, and on "
                      "%s %s; what makes that bound %g is the mistake",
                      q, e->block[0], e->block[1], left, op_text[best.op], right, range, best.b, best.threads,
                      best.store, dataset, region, best.b);
    else if (lower && frame)
        w = xasprintf("the test at %s keeps threads from the store at line %d: in block (%ld, %ld) `%s %s %s` is "
                      "false for %d threads (%s, below %g), and on %s %s; the test keeps out the output's border, "
                      "which the output has as much as its inside: test only that the element lies inside the "
                      "output",
                      q, best.store, e->block[0], e->block[1], left, op_text[best.op], right, best.threads, range,
                      best.b, dataset, region);
    else if (lower)
        w = xasprintf("the test at %s keeps threads from the store at line %d: in block (%ld, %ld) `%s %s %s` is "
                      "false for %d threads (%s, below %g), and on %s %s; that term keeps out outputs the image "
                      "has: take it out of the store's test",
                      q, best.store, e->block[0], e->block[1], left, op_text[best.op], right, best.threads, range,
                      best.b, dataset, region);
    else
        w = xasprintf("the test at %s keeps threads from the store at line %d exactly where the output stops "
                      "being stored: in block (%ld, %ld) `%s %s %s` is false for %d threads (%s, against %g), and "
                      "on %s %s, exactly those at or past %g; fix that test's bound, not the store",
                      q, best.store, e->block[0], e->block[1], left, op_text[best.op], right, best.threads, range,
                      best.b, dataset, region, best.b);
    free(origin);
    free(started);
    free(range);
    free(region);
    free(q);
    return w;
}
