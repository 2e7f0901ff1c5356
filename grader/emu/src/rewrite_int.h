/* rewrite_int.h - what rewrite.c's parts share: the token stream of a
 * source (rw) and the readers of it that facts.c uses too. Private to emucc:
 * rewrite.h is the rewriter's interface. */
#ifndef EMU_REWRITE_INT_H
#define EMU_REWRITE_INT_H
#include <ctype.h>
#include <stddef.h>

enum tk { T_IDENT, T_NUM, T_STR, T_CHAR, T_PUNCT, T_LAUNCH_OPEN, T_LAUNCH_CLOSE };

typedef struct { int kind; size_t b, e; } tok;

typedef struct { size_t b, e; char *text; int order; } edit;

typedef struct {
    const char *src;
    size_t len;
    tok *t;
    size_t nt, capt;
    edit *ed;
    size_t ned, caped;
    char *err;
    int counter;
    /* file-scope substitutions: name -> replacement, from token index */
    struct subst { char *name; char *repl; size_t from; } *subs;
    size_t nsubs;
    /* the preprocessor lines, [b, e) each, e at their newline (or the end) */
    struct { size_t b, e; } *dirs;
    size_t ndirs, capdirs;
} rw;

static inline int is_id0(int c) { return isalpha(c) || c == '_' || c == '$'; }
static inline int is_id(int c) { return isalnum(c) || c == '_' || c == '$'; }

/* rewrite.c: the token k is text (an identifier or a punctuator) */
int is(const rw *r, size_t k, const char *text);
/* rewrite.c: the token k is a C or CUDA keyword */
int is_keyword(const rw *r, size_t k);
/* rewrite.c: the names a declaration in tokens [a, e) declares, up to max */
size_t declared_names(const rw *r, size_t a, size_t e, size_t *out, size_t max);
/* rewrite.c: the token after the declaration that starts at i */
size_t declaration_end(const rw *r, size_t i);
/* rewrite.c: what kind of block the statement at stmt opens at i */
char block_kind(const rw *r, size_t stmt, size_t i);
/* rewrite.c: the token after the bracket that closes the one at k */
size_t closing(const rw *r, size_t k);
/* rewrite.c: tokens k and k + 1 are a and b */
int pair_at(const rw *r, size_t k, const char *a, const char *b);
void rw_free(rw *r);
/* rewrite.c: r->src split into r->t; 0, or -1 with r->err set */
int tokenize(rw *r);
#endif
