/* schemata_int.h - what the parts of emucc --schemata share (schemata.c,
 * schemata_expr.c): the names in scope, the candidate edits and the places
 * they go, the parser's state. Private to emucc. */
#ifndef EMU_SCHEMATA_INT_H
#define EMU_SCHEMATA_INT_H
#include "rewrite_int.h"

#include <stddef.h>
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
    size_t init_b, init_e; /* its initialiser's tokens [init_b, init_e) (init_e 0: none followed) */
    size_t value_b, value_e; /* the same for any local, a kernel's too (value_e 0: none) */
    int scaled;            /* its initialiser has its sizeof candidate */
    int floating;          /* its declared type (or what it points at) is float or double */
    char array_key[96];    /* an array's: its type, memory space and bounds as written ("" for a non-array) */
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
/* (in this order where two cover the same tokens: the first outside) */
/* (G_HOLD: no tokens, the place of a candidate made at several places,
 * whose groups there hold it too) */
/* (G_STATIC renders in a copy of the function of its own, and is no node
 * of the tree of groups that renders the mutated copy: a run it edits may
 * cross an operator's group, and the edits within it went unrendered) */
enum gk { G_DROP, G_UNSHARE, G_SHAPE, G_SCALE, G_STATIC, G_ARG, G_ATOM, G_BIN, G_LOGIC, G_SYNC, G_INIT, G_HOLD };
#define MAX_ALTS 12
/* the most names one use of a name may be replaced by */
#define NAMES_PER_SITE 4
/* the most names a literal bound may be replaced by, and members a member */
#define BOUNDS_PER_SITE 3
#define MEMBERS_PER_SITE 2
/* the most distinct members a site weighs */
#define MAX_MEMBERS 16
typedef struct {
    int kind;
    size_t bb, be;       /* the source bytes it renders, [bb, be) (bb == be: an insertion) */
    size_t tb, te;       /* its tokens [tb, te) */
    size_t op, ope;      /* G_BIN, G_LOGIC: the operator's tokens [op, ope) */
    const char *helper;  /* G_BIN: emu_schemata.h's function; G_LOGIC: "and", "or"; G_SCALE: sizeof's type */
    int also;            /* G_BIN: index + 1 of a candidate of several places that makes its first edit here too */
    int derived;         /* G_ATOM: index + 1 of its first alt that is a local computed from it (derived_names) */
    int nalts;
    int cand[MAX_ALTS];  /* its candidates */
    char *alt[MAX_ALTS]; /* G_ATOM, G_STATIC: the replacing text; G_SHAPE: a dim3's arguments */
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
    size_t loop_var;  /* syms index + 1 of the innermost for loop's declared variable (0: none) */
    /* the last int local declared with an initialiser in a kernel's block,
     * for its twin on the next line (schemata.c's twin_names): its
     * statement's tokens [b, end], its initialiser's [init_b, init_e), the
     * initialiser's groups [g0, g1); end 0 when there is none */
    struct { size_t b, end, init_b, init_e, g0, g1, name; } twin;
    size_t ctx_b, ctx_e;
    int bail;         /* the statement holds what the parser does not follow */
    int host_cuda;    /* the host statement calls cuda* or launches */
    int components;   /* built-in components the file uses: 1 x, 2 y, 4 z */
    size_t fn_open;   /* the '{' of the function's body */
    size_t fn_close;  /* the '}' of the function's body */
    int nstatic;      /* G_STATIC candidates made: each a copy of its function */
    /* names of types the file declares (struct, typedef) */
    size_t types[256];
    size_t ntypes;
    int *line_of;     /* each token's line (#line directives honoured) */
    /* the functions, each to be written twice (emu_schemata) */
    struct fn {
        size_t stmt, name, open, close; /* first token, name, body's braces */
        char *args;                     /* its parameters' names, for the call */
        int ok;                         /* it can have a mutated copy */
    } *fns;
    size_t nfns;
    /* #define NAME VALUE, a number of a header's macros (no sym: its type is not known) */
    struct size_macro { const char *name; size_t len; } sizes[32];
    size_t nsizes;
    /* the plain names read in the subscripts being parsed, each with how
     * deep in subscripts and calls it is (schemata_expr.c's swaps in one subscript) */
    struct sub_name { size_t b; sym *var; int nest; } names[64];
    size_t nnames;
    int nest;
    size_t sibling_end; /* the last declaration of a run of sibling declarations seen */
    char params[1024];                  /* parameters(): the names, comma-separated */
    int params_ok;
} sc;

static inline const char *tk(const sc *s, size_t k) { return s->r.src + s->r.t[k].b; }
static inline size_t tl(const sc *s, size_t k) { return s->r.t[k].e - s->r.t[k].b; }
static inline int ident(const sc *s, size_t k) { return k < s->r.nt && s->r.t[k].kind == T_IDENT; }
static inline int same(const sc *s, size_t a, size_t b)
{
    return tl(s, a) == tl(s, b) && memcmp(tk(s, a), tk(s, b), tl(s, a)) == 0;
}
static inline int at(const sc *s, size_t k, const char *text) { return is(&s->r, k, text); }

/* an expression parsed (schemata_expr.c) */
typedef struct {
    size_t b, e;  /* tokens [b, e) */
    int vk;
    int atom_group; /* index + 1 of the atom's group, or 0 */
    sym *var;       /* a plain name of a variable */
    int addr_of;    /* &name */
    int base_group; /* a member's (`in->width`): index + 1 of its base name's group, or 0 */
} node;

/* schemata_expr.c: tokens, names, candidates, expressions */
size_t sch_after(const sc *s, size_t k);
char *sch_span_text(const sc *s, size_t tb, size_t te);
int sch_one_line(const sc *s, size_t tb, size_t te);
void sch_add_sym_text(sc *s, const char *name, size_t len, const char *key, int vk);
sym *sch_add_sym(sc *s, size_t tok, const char *key, int vk);
void sch_pop_scope(sc *s);
sym *sch_lookup_text(sc *s, const char *name, size_t len);
sym *sch_lookup(sc *s, size_t k);
int sch_is_type_name(const sc *s, size_t k);
int sch_key_kind(const char *key);
group *sch_new_group(sc *s, int kind, size_t tb, size_t te);
void sch_add_alt(sc *s, group *g, const char *kind, const char *from, const char *to, char *text);
void sch_drop_groups(sc *s, size_t first);
int sch_add_multi(sc *s, size_t tb, const char *kind, const char *from, const char *to);
/* A static edit (G_STATIC) of tokens [b, e) to text, its candidate's from
 * and to given apart (words for the report): a change made in a copy of
 * its function (schemata.c's static_edit, with its cap). */
void sch_static_alt(sc *s, size_t b, size_t e, const char *kind, const char *from, const char *to, const char *text);
/* The operator before the last top-level term of tokens [b, e), or e. */
size_t sch_last_term_operator(const sc *s, size_t b, size_t e);
void sch_derived_together(sc *s, size_t first, size_t b, size_t e);
char *sch_span_subst(const sc *s, size_t tb, size_t te, const size_t *at, const size_t *end, char *const *with,
                     size_t n, int raw);
void sch_same_comparisons(sc *s, size_t first, size_t b, size_t e);
void sch_exchanged_operands(sc *s, size_t first);
void sch_squared_names(sc *s, size_t first);
/* Two names of an index exchanged (schemata_expr.c): the names s->names[n0, nnames) one nest deeper. */
void sch_index_swaps(sc *s, size_t n0);
void sch_loop_range(sc *s, size_t b, size_t e1, size_t e2, size_t first_init, size_t first_cond);
int sch_int_literal(const sc *s, size_t k);
node sch_parse_expr(sc *s, size_t *p, int min_prec);
void sch_parse_args(sc *s, size_t *p, const char *close, size_t callee);
int sch_builtin_at(const sc *s, size_t k);
int sch_count_word(const sc *s, const char *name, size_t len);
#endif
