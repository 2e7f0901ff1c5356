/* facts.c - what a source shows, for emucc --facts (emu_facts, rewrite.h):
 * its tokens counted, and the reuse of a tile (shared_accumulations), from
 * the rewriter's tokens (rewrite.c). */
#include "rewrite.h"
#include "rewrite_int.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Counts what the source shows at token i (struct emu_facts). */
static void count_fact(const rw *r, size_t i, struct emu_facts *f)
{
    int call = i + 1 < r->nt && is(r, i + 1, "(");
    if (is(r, i, "__global__"))
        f->kernels++;
    else if (is(r, i, "<<<"))
        f->launches++;
    else if (is(r, i, "__shared__"))
        f->shared++;
    else if (is(r, i, "__constant__"))
        f->constants++;
    else if (call && is(r, i, "__syncthreads"))
        f->barriers++;
    else if (call && is(r, i, "cudaMemcpyToSymbol"))
        f->symbol_copies++;
}

/* ---- the reuse a source shows (emu_facts.shared_accumulations) ------------ *
 * A kernel that reuses a tile accumulates, in its innermost loop, values
 * read from shared memory, and reads its thread's global data outside that
 * loop. The launch log's counts, which [global_reuse] judges, come from the
 * student's own process; this is the source's side, which no run can
 * write. Each function on its own, flow-insensitive: a name holds every
 * kind of value anything assigned to it held. A read of global memory
 * counts where its index (or the pointer) depends on the thread (threadIdx,
 * blockIdx, a function that reads them): the same element for every thread,
 * as a mask kept in global memory, is not what tiles are for (the counts
 * leave such small buffers out too). What sits inside [ ] is an index, not
 * a read of the data; a macro's name reads what its body names. */

/* FROM_GLOBAL: a thread's data read from global memory; GLOBAL_MEMORY: a
 * pointer to (or a structure holding) global memory; BY_THREAD: depends on
 * which thread runs it. */
enum { FROM_SHARED = 1, FROM_GLOBAL = 2, GLOBAL_MEMORY = 4, BY_THREAD = 8 };
#define REUSE_NAMES 1024
#define REUSE_STMTS 8192
#define REUSE_LOOPS 1024
#define REUSE_NESTING 200

typedef struct {
    const rw *r;
    /* each name by the token of its first sight, with what it was read from */
    size_t name[REUSE_NAMES];
    int flags[REUSE_NAMES];
    size_t nnames;
    size_t file_names; /* the first file_names are the file's (shared, __device__) */
    /* the functions whose value depends on the thread: their names' tokens */
    size_t thread_function[REUSE_NAMES];
    size_t nthread_functions;
    /* the function's statements, tokens [b, e) each, with the innermost loop
     * around them (-1: none), and each loop's enclosing loop */
    struct { size_t b, e; int loop; } st[REUSE_STMTS];
    size_t nst;
    int parent[REUSE_LOOPS];
    char global_loop[REUSE_LOOPS]; /* find_global_loops */
    int nloops;
} reuse;

static int same_text(const rw *r, size_t k, const char *s, size_t n)
{
    return r->t[k].kind == T_IDENT && r->t[k].e - r->t[k].b == n && memcmp(r->src + r->t[k].b, s, n) == 0;
}

static int name_index(const reuse *u, const char *s, size_t n)
{
    for (size_t i = 0; i < u->nnames; i++)
        if (same_text(u->r, u->name[i], s, n))
            return (int)i;
    return -1;
}

/* Adds flags to the name at token k; whether anything changed. */
static int mark_name(reuse *u, size_t k, int flags)
{
    const rw *r = u->r;
    int i = name_index(u, r->src + r->t[k].b, r->t[k].e - r->t[k].b);
    if (i < 0) {
        if (u->nnames == REUSE_NAMES)
            return 0;
        i = (int)u->nnames++;
        u->name[i] = k;
        u->flags[i] = 0;
    }
    if ((size_t)i < u->file_names && (u->flags[i] & FROM_SHARED))
        return 0; /* a shared array holds what is stored in it, and reading it reads shared memory */
    int before = u->flags[i];
    u->flags[i] |= flags;
    return u->flags[i] != before;
}

/* What the identifier s (n bytes) was read from: a name's flags, or for a
 * macro's name what the identifiers of its body were (depth: macros in
 * macros, to a few levels). */
static int text_flags(const reuse *u, const char *s, size_t n, int depth)
{
    int i = name_index(u, s, n);
    if (i >= 0)
        return u->flags[i];
    if ((n == 9 && (memcmp(s, "threadIdx", 9) == 0 || memcmp(s, "blockIdx", 8) == 0)) ||
        (n == 8 && memcmp(s, "blockIdx", 8) == 0))
        return BY_THREAD;
    for (size_t f = 0; f < u->nthread_functions; f++)
        if (same_text(u->r, u->thread_function[f], s, n))
            return BY_THREAD;
    const rw *r = u->r;
    int flags = 0;
    for (size_t k = 0; depth < 4 && k < r->ndirs; k++) {
        const char *d = r->src + r->dirs[k].b, *end = r->src + r->dirs[k].e;
        while (d < end && (*d == '#' || *d == ' ' || *d == '\t'))
            d++;
        if (end - d < 7 || memcmp(d, "define", 6) != 0 || (d[6] != ' ' && d[6] != '\t'))
            continue;
        d += 6;
        while (d < end && (*d == ' ' || *d == '\t'))
            d++;
        const char *nm = d;
        while (d < end && is_id((unsigned char)*d))
            d++;
        if ((size_t)(d - nm) != n || memcmp(nm, s, n) != 0)
            continue;
        while (d < end) { /* the body's identifiers (the parameters' names too: harmless) */
            if (!is_id0((unsigned char)*d)) {
                d++;
                continue;
            }
            const char *id = d;
            while (d < end && is_id((unsigned char)*d))
                d++;
            if ((size_t)(d - id) != n || memcmp(id, s, n) != 0)
                flags |= text_flags(u, id, (size_t)(d - id), depth + 1);
        }
    }
    return flags;
}

/* A member's name (after . or ->), which is its object's. */
static int is_member(const rw *r, size_t k)
{
    return k > 0 && (is(r, k - 1, ".") || (is(r, k - 1, ">") && k > 1 && pair_at(r, k - 2, "-", ">")));
}

/* The '[' of a subscript of the name at token k (after its members: in.data[i]), or z. */
static size_t subscript_after(const rw *r, size_t k, size_t z)
{
    k++;
    while (k + 1 < z && (is(r, k, ".") || pair_at(r, k, "-", ">"))) {
        k += is(r, k, ".") ? 1 : 2;
        if (k >= z || r->t[k].kind != T_IDENT)
            return z;
        k++;
    }
    return k < z && is(r, k, "[") ? k : z;
}

static int range_flags(const reuse *u, size_t a, size_t z, size_t skip);

/* What tokens [a, z) read from: their names outside [ ], less skip's
 * (a name's token, or nt); a subscript of global memory by an index that
 * depends on the thread is the thread's data (FROM_GLOBAL), and so is
 * global memory reached through the thread's own pointer arithmetic. */
static int range_flags(const reuse *u, size_t a, size_t z, size_t skip)
{
    static int nested; /* subscripts in subscripts: a hostile file's a[b[c[...]]] */
    if (nested > 64)
        return BY_THREAD;
    const rw *r = u->r;
    int flags = 0, square = 0;
    for (size_t k = a; k < z; k++) {
        if (is(r, k, "["))
            square++;
        else if (is(r, k, "]"))
            square--;
        else if (square == 0 && r->t[k].kind == T_IDENT && !is_member(r, k) &&
                 !(skip < r->nt && same_text(r, k, r->src + r->t[skip].b, r->t[skip].e - r->t[skip].b))) {
            int f = text_flags(u, r->src + r->t[k].b, r->t[k].e - r->t[k].b, 0);
            size_t sub = subscript_after(r, k, z);
            if ((f & GLOBAL_MEMORY) && sub < z) {
                int index = 0; /* every subscript of the chain: M[i][j] */
                for (size_t b = sub; b < z && is(r, b, "[");) {
                    size_t e = closing(r, b);
                    if (e >= z)
                        break;
                    nested++;
                    index |= range_flags(u, b + 1, e, r->nt);
                    nested--;
                    b = e + 1;
                }
                /* an index read from the thread's data depends on the thread too */
                flags |= (f & (FROM_SHARED | FROM_GLOBAL)) |
                         ((f | index) & (BY_THREAD | FROM_GLOBAL) ? FROM_GLOBAL : 0);
            } else {
                flags |= f;
            }
        }
    }
    if ((flags & GLOBAL_MEMORY) && (flags & BY_THREAD))
        flags |= FROM_GLOBAL;
    return flags;
}

/* The assignment in tokens [a, z) at their top level: its '=' (z if none),
 * and *op the operator before it ('+' for +=, '=' for a plain one). */
static size_t assignment_at(const rw *r, size_t a, size_t z, char *op)
{
    int depth = 0;
    for (size_t k = a; k < z; k++) {
        if (is(r, k, "(") || is(r, k, "[") || is(r, k, "{"))
            depth++;
        else if (is(r, k, ")") || is(r, k, "]") || is(r, k, "}"))
            depth--;
        else if (depth == 0 && is(r, k, "=")) {
            if (k + 1 < z && pair_at(r, k, "=", "=")) {
                k++;
                continue;
            }
            char before = k > a && r->t[k - 1].e == r->t[k].b ? r->src[r->t[k - 1].b] : 0;
            if (before == '=' || before == '!')
                continue;
            if ((before == '<' || before == '>') &&
                !(k > a + 1 && pair_at(r, k - 2, before == '<' ? "<" : ">", before == '<' ? "<" : ">")))
                continue; /* <= and >=, not <<= and >>= */
            *op = before && strchr("+-*/%&|^<>", before) ? before : '=';
            return k;
        }
    }
    return z;
}

/* The name an assignment's left side [a, z) stores to: its last name
 * outside [ ] that is not a member or a keyword (nt if none). */
static size_t assigned_name(const rw *r, size_t a, size_t z)
{
    size_t name = r->nt;
    int square = 0;
    for (size_t k = a; k < z; k++) {
        if (is(r, k, "["))
            square++;
        else if (is(r, k, "]"))
            square--;
        else if (square == 0 && r->t[k].kind == T_IDENT && !is_keyword(r, k) && !is_member(r, k))
            name = k;
    }
    return name;
}

/* The end of the piece of tokens [a, z) that starts at a: its first
 * top-level comma, or z (a declaration's declarators, a comma
 * expression's parts). */
static size_t piece_end(const rw *r, size_t a, size_t z)
{
    int depth = 0;
    for (size_t k = a; k < z; k++) {
        if (is(r, k, "(") || is(r, k, "[") || is(r, k, "{"))
            depth++;
        else if (is(r, k, ")") || is(r, k, "]") || is(r, k, "}"))
            depth--;
        else if (depth == 0 && is(r, k, ","))
            return k;
    }
    return z;
}

#define FOR_EACH_PIECE(r, a, z, pb, pe) for (size_t pb = (a), pe = piece_end(r, pb, z); pb < (z); \
                                             pb = pe + 1, pe = pb < (z) ? piece_end(r, pb, z) : pb)

static void add_statement(reuse *u, size_t b, size_t e, int loop)
{
    if (e > b && u->nst < REUSE_STMTS) {
        u->st[u->nst].b = b;
        u->st[u->nst].e = e;
        u->st[u->nst].loop = loop;
        u->nst++;
    }
}

static int new_loop(reuse *u, int parent)
{
    if (u->nloops == REUSE_LOOPS)
        return parent;
    u->parent[u->nloops] = parent;
    return u->nloops++;
}

/* The statement at token k, inside the function's body that ends at end,
 * in loop: its simple statements recorded; returns the token after it. */
static size_t parse_statement(reuse *u, size_t k, size_t end, int loop, int nesting)
{
    const rw *r = u->r;
    if (k >= end || nesting > REUSE_NESTING)
        return end;
    if (is(r, k, "{")) {
        k++;
        while (k < end && !is(r, k, "}"))
            k = parse_statement(u, k, end, loop, nesting + 1);
        return k + 1;
    }
    if ((is(r, k, "for") || is(r, k, "while") || is(r, k, "if") || is(r, k, "switch")) && is(r, k + 1, "(")) {
        size_t open = k + 1, close = closing(r, open);
        if (close >= end)
            return end;
        int inner = is(r, k, "for") || is(r, k, "while") ? new_loop(u, loop) : loop;
        if (is(r, k, "for")) { /* init; condition; step: the first before the loop, the others in it */
            size_t a = open + 1;
            int part = 0;
            for (size_t j = open + 1; j <= close; j++)
                if (j == close || is(r, j, ";")) {
                    add_statement(u, a, j, part++ == 0 ? loop : inner);
                    a = j + 1;
                }
        } else {
            add_statement(u, open + 1, close, inner);
        }
        size_t next = parse_statement(u, close + 1, end, inner, nesting + 1);
        if (is(r, k, "if") && next < end && is(r, next, "else"))
            next = parse_statement(u, next + 1, end, loop, nesting + 1);
        return next;
    }
    if (is(r, k, "do")) {
        int inner = new_loop(u, loop);
        size_t next = parse_statement(u, k + 1, end, inner, nesting + 1);
        if (next < end && is(r, next, "while") && is(r, next + 1, "(")) {
            size_t close = closing(r, next + 1);
            add_statement(u, next + 2, close, inner);
            next = close + 1;
        }
        return next < end && is(r, next, ";") ? next + 1 : next;
    }
    if (is(r, k, "case") || is(r, k, "default")) {
        while (k < end && !is(r, k, ":"))
            k++;
        return k + 1;
    }
    if (is(r, k, "else"))
        return parse_statement(u, k + 1, end, loop, nesting + 1);
    /* a simple statement: to its ';' */
    size_t e = k;
    int depth = 0;
    for (; e < end; e++) {
        if (is(r, e, "(") || is(r, e, "[") || is(r, e, "{"))
            depth++;
        else if (is(r, e, ")") || is(r, e, "]") || is(r, e, "}")) {
            if (--depth < 0)
                break;
        } else if (depth == 0 && is(r, e, ";"))
            break;
    }
    add_statement(u, k, e, loop);
    return e < end && is(r, e, ";") ? e + 1 : e;
}

/* Whether the statement piece [a, z) reads global memory: its right side,
 * or the whole piece where it assigns nothing (a call, a test) and is no
 * declaration; a compound assignment reads its left side too. */
static int piece_reads_global(const reuse *u, size_t a, size_t z)
{
    const rw *r = u->r;
    char op = 0;
    size_t eq = assignment_at(r, a, z, &op);
    if (eq == z)
        return !is_keyword(r, a) && (range_flags(u, a, z, r->nt) & FROM_GLOBAL);
    if (op != '=' && (range_flags(u, a, eq, r->nt) & FROM_GLOBAL))
        return 1;
    return (range_flags(u, eq + 1, z, r->nt) & FROM_GLOBAL) != 0;
}

/* Marks each loop that reads global memory, itself or in a loop inside it. */
static void find_global_loops(reuse *u)
{
    const rw *r = u->r;
    memset(u->global_loop, 0, sizeof u->global_loop);
    for (size_t s = 0; s < u->nst; s++) {
        int found = 0;
        FOR_EACH_PIECE(r, u->st[s].b, u->st[s].e, pb, pe)
            found |= piece_reads_global(u, pb, pe);
        for (int l = u->st[s].loop; found && l >= 0; l = u->parent[l])
            u->global_loop[l] = 1;
    }
}

/* The function parameters [a, z): a pointer, array, reference or structure
 * (a type the language does not name) is memory the kernel was handed. */
static void mark_parameters(reuse *u, size_t a, size_t z)
{
    static const char *const scalars[] = { "size_t", "ptrdiff_t", "int8_t", "int16_t", "int32_t", "int64_t",
                                           "uint8_t", "uint16_t", "uint32_t", "uint64_t", "dim3", "uint",
                                           NULL };
    const rw *r = u->r;
    FOR_EACH_PIECE(r, a, z, pb, pe) {
        size_t name = r->nt, type = r->nt;
        int memory = 0, angle = 0;
        for (size_t k = pb; k < pe && !is(r, k, "="); k++) {
            if (is(r, k, "*") || is(r, k, "[") || is(r, k, "&"))
                memory = 1;
            else if (is(r, k, "<"))
                angle++;
            else if (is(r, k, ">"))
                angle--;
            else if (angle == 0 && r->t[k].kind == T_IDENT && !is_keyword(r, k)) {
                if (type == r->nt && name != r->nt)
                    type = name;
                name = k;
            }
        }
        if (type != r->nt && !memory) {
            memory = 1;
            for (int s = 0; scalars[s]; s++)
                if (is(r, type, scalars[s]))
                    memory = 0;
        }
        if (memory && name != r->nt)
            mark_name(u, name, GLOBAL_MEMORY);
    }
}

/* The function body [b, e) (b after its '{', e its '}'), whose parameters
 * are [pa, pz): its accumulations that reuse a tile, counted. */
static int count_reuse_in(reuse *u, size_t pa, size_t pz, size_t b, size_t e)
{
    const rw *r = u->r;
    u->nnames = u->file_names;
    u->nst = 0;
    u->nloops = 0;
    mark_parameters(u, pa, pz);
    for (size_t k = b; k < e;)
        k = parse_statement(u, k, e, -1, 0);
    for (int changed = 1, round = 0; changed && round < 64; round++) {
        changed = 0;
        for (size_t s = 0; s < u->nst; s++)
            FOR_EACH_PIECE(r, u->st[s].b, u->st[s].e, pb, pe) {
                char op = 0;
                size_t eq = assignment_at(r, pb, pe, &op);
                size_t target = eq < pe ? assigned_name(r, pb, eq) : r->nt;
                if (target < r->nt)
                    changed |= mark_name(u, target, range_flags(u, eq + 1, pe, r->nt));
            }
    }
    find_global_loops(u);
    int count = 0;
    for (size_t s = 0; s < u->nst; s++) {
        if (u->st[s].loop < 0)
            continue;
        int loop = u->st[s].loop, reused = 0;
        FOR_EACH_PIECE(r, u->st[s].b, u->st[s].e, pb, pe) {
            char op = 0;
            size_t eq = assignment_at(r, pb, pe, &op);
            size_t target = eq < pe ? assigned_name(r, pb, eq) : r->nt;
            if (target < r->nt && (op == '+' || op == '-' || op == '=')) {
                int accumulates = op != '=';
                for (size_t k = eq + 1; k < pe && !accumulates; k++)
                    accumulates = same_text(r, k, r->src + r->t[target].b, r->t[target].e - r->t[target].b);
                int from = range_flags(u, eq + 1, pe, target);
                if (op != '=')
                    from |= range_flags(u, pb, eq, target) & FROM_GLOBAL;
                if (accumulates && (from & FROM_SHARED) && !(from & FROM_GLOBAL))
                    reused = 1;
            }
        }
        if (reused && !u->global_loop[loop])
            count++;
    }
    return count;
}

/* The file's names: __shared__ arrays, and __device__ variables (global
 * memory), wherever declared. */
static void mark_file_names(reuse *u)
{
    const rw *r = u->r;
    size_t names[64];
    for (size_t i = 0; i < r->nt; i++) {
        int shared = is(r, i, "__shared__");
        if (!shared && !is(r, i, "__device__"))
            continue;
        size_t e = declaration_end(r, i), k = i + 1;
        while (k < e && !is(r, k, "(") && !is(r, k, "{") && !is(r, k, "=") && !is(r, k, "["))
            k++;
        if (!shared && k < e && (is(r, k, "(") || is(r, k, "{")))
            continue; /* a function */
        int constant = 0;
        for (size_t j = i; j < e; j++)
            constant |= is(r, j, "__constant__");
        if (constant)
            continue;
        size_t nn = declared_names(r, i + 1, e, names, 64);
        for (size_t j = 0; j < nn; j++)
            mark_name(u, names[j], shared ? FROM_SHARED : GLOBAL_MEMORY);
    }
    u->file_names = u->nnames;
}

/* A function of the file: its name's token, its parameters [pa, pz), its
 * body (b after its '{', e its '}'). */
typedef struct { size_t name, pa, pz, b, e; } function_at;

/* The file's function bodies into out (at most max); how many. */
static size_t find_functions(const rw *r, function_at *out, size_t max)
{
    size_t n = 0, stmt = 0;
    int depth = 0, body_depth = -1;
    for (size_t i = 0; i < r->nt; i++) {
        if (is(r, i, "{")) {
            if (body_depth < 0 && block_kind(r, stmt, i) == 'b') {
                size_t close = i;
                while (close > stmt && !is(r, close, ")"))
                    close--;
                size_t open = close;
                for (int d = 0; open > stmt; open--) {
                    if (is(r, open, ")"))
                        d++;
                    else if (is(r, open, "(") && --d == 0)
                        break;
                }
                size_t end = closing(r, i);
                if (is(r, close, ")") && is(r, open, "(") && open > 0 && end < r->nt) {
                    if (n < max)
                        out[n++] = (function_at){ open - 1, open + 1, close, i + 1, end };
                    i = end;
                    stmt = i + 1;
                    continue;
                }
                body_depth = depth + 1;
            }
            depth++;
            stmt = i + 1;
        } else if (is(r, i, "}")) {
            if (depth > 0)
                depth--;
            if (depth < body_depth)
                body_depth = -1;
            stmt = i + 1;
        } else if (is(r, i, ";")) {
            stmt = i + 1;
        }
    }
    return n;
}

/* The functions whose body depends on the thread (threadIdx, blockIdx, or
 * a call of such a function), into u->thread_function. */
static void find_thread_functions(reuse *u, const function_at *f, size_t n)
{
    const rw *r = u->r;
    char *by_thread = calloc(n ? n : 1, 1);
    if (!by_thread)
        return;
    for (int changed = 1; changed;) {
        changed = 0;
        for (size_t i = 0; i < n; i++) {
            if (by_thread[i] || r->t[f[i].name].kind != T_IDENT)
                continue;
            for (size_t k = f[i].b; k < f[i].e && !by_thread[i]; k++)
                if (r->t[k].kind == T_IDENT &&
                    (text_flags(u, r->src + r->t[k].b, r->t[k].e - r->t[k].b, 0) & BY_THREAD))
                    by_thread[i] = 1;
            if (by_thread[i] && u->nthread_functions < REUSE_NAMES) {
                u->thread_function[u->nthread_functions++] = f[i].name;
                changed = 1;
            }
        }
    }
    free(by_thread);
}

static int count_shared_accumulations(const rw *r)
{
    reuse *u = calloc(1, sizeof *u);
    function_at *f = calloc(REUSE_LOOPS, sizeof *f);
    int count = 0;
    if (u && f) {
        u->r = r;
        mark_file_names(u);
        size_t n = find_functions(r, f, REUSE_LOOPS);
        find_thread_functions(u, f, n);
        for (size_t i = 0; i < n; i++)
            count += count_reuse_in(u, f[i].pa, f[i].pz, f[i].b, f[i].e);
    }
    free(u);
    free(f);
    return count;
}

int emu_count_facts(const char *text, size_t len, struct emu_facts *facts, char **err)
{
    rw r;
    memset(&r, 0, sizeof r);
    r.src = text;
    r.len = len;
    if (tokenize(&r) != 0) {
        *err = r.err;
        return -1;
    }
    for (size_t i = 0; i < r.nt; i++)
        if (r.t[i].kind != T_STR && r.t[i].kind != T_CHAR)
            count_fact(&r, i, facts);
    facts->shared_accumulations += count_shared_accumulations(&r);
    rw_free(&r);
    return 0;
}
