/*
 * source_code.h - the one reader the source_*.c files share: the student's
 * file as code (comments and literals blanked, line for line) and the walk
 * over it that every reader of the source takes: words and names, brackets,
 * statements, loops, kernels, assignments, a call's arguments. Private to
 * the source readers; what the other checkers call is in source.h.
 */
#ifndef GPULAB_SOURCE_CODE_H
#define GPULAB_SOURCE_CODE_H

#include <stddef.h>

typedef struct {
    char *code;     /* the file, comments and literals blanked (newlines kept), '\0'-ended */
    size_t len;     /* its length, the '\0' not counted */
    size_t *starts; /* where each line starts: line n (from 1) at starts[n - 1] */
    size_t nlines;
} source_code;

/* Reads path as code into s; 0 when path is NULL or cannot be read (s then
 * holds nothing to free). The student's file is read as the build reads
 * it: a regular file of at most SUBMISSION_MAX_BYTES, never through a
 * link. */
int source_code_read(source_code *s, const char *path);
/* The same for a text already read (len bytes): its offsets are the text's. */
void source_code_of_text(source_code *s, const char *text, size_t len);
void source_code_free(source_code *s);

/* ---- places ---- */
/* The line (from 1) of offset k. */
int code_line_at(const source_code *s, size_t k);
/* The offset where line (from 1) starts, len when the file has fewer lines. */
size_t code_line_start(const source_code *s, int line);
/* The offset of the newline that ends the line holding k, or len. */
size_t code_line_end(const source_code *s, size_t k);
/* The offset of the bracket that closes the one at k ('(', '[' or '{'), or len. */
size_t code_matching(const source_code *s, size_t k);
/* k moved past spaces, tabs and newlines. */
size_t code_skip_space(const source_code *s, size_t k);
/* e moved back over spaces and tabs (not newlines): where the text before ends on its line. */
size_t code_blank_before(const source_code *s, size_t e);

/* ---- words ---- */
/* Whether [b, e) of s holds the n characters of name as a whole word. */
int code_span_has_name(const source_code *s, size_t b, size_t e, const char *name, size_t n);
/* Whether the n characters of name stand at k as a whole word. */
int code_name_at(const source_code *s, size_t k, const char *name, size_t n);
/* The same for a '\0'-ended word. */
int code_word_at(const source_code *s, size_t k, const char *word);
/* Whether an identifier starts at k (one does not end just before it). */
int code_word_starts(const source_code *s, size_t k);
/* The end of the identifier that starts at k (k itself when none does). */
size_t code_word_end(const source_code *s, size_t k);
/* The identifier that ends at e, spaces, tabs and newlines before e
 * skipped: its start, *n its length (0 when none). */
size_t code_word_before(const source_code *s, size_t e, size_t *n);
/* The same, skipping spaces and tabs only: the word before e on its line. */
size_t code_word_left_of(const source_code *s, size_t e, size_t *n);
/* Whether the n characters at w are one of the words of list (NULL-ended). */
int code_word_in(const char *w, size_t n, const char *const *list);
/* text[0, len) without its blanks (spaces, tabs, line breaks) into out
 * (size bytes). */
void code_squeezed(const char *text, size_t len, char *out, size_t size);
/* Whether they are a keyword a value follows (return, else, case, sizeof,
 * ...): a word before a name that does not make it a declaration. */
int code_keyword_before_value(const char *w, size_t n);
/* Whether they name a number type (float, int, unsigned, ...): a variable's declaration. */
int code_number_type(const char *w, size_t n);

/* The number a name (n characters) is defined as: `#define NAME 16` or
 * `const int NAME = 16;`, the first such in the file; 1 with it in
 * *value and the definition's offset of the name in *at, else 0. */
int code_defined_number(const source_code *s, const char *name, size_t n, long *value, size_t *at);

/* ---- statements ---- */
/* Whether a plain `=` (not `==`) stands at q: an assignment's. */
int code_assigns_at(const source_code *s, size_t q);
/* The first ';' in [from, to), or to. */
size_t code_semicolon(const source_code *s, size_t from, size_t to);
/* Where the statement holding k starts: after the last ';', '{' or '}'
 * before it, never before floor. */
size_t code_statement_start(const source_code *s, size_t k, size_t floor);
/* What an if or a loop controls from b (after its header): the '}' of its
 * braced body, or its one statement's ';' (len when none; b when b >= len). */
size_t code_body_end(const source_code *s, size_t b);
/* Whether the subscripted name at k (n characters) is stored into: its
 * subscripts followed by `=` (not `==`). */
int code_stored_at(const source_code *s, size_t k, size_t n);
/* The first '[' on [k, end) that opens the subscripts of a store
 * (`NAME[...] =`), or len. */
size_t code_store_between(const source_code *s, size_t k, size_t end);
/* The last assignment of the name at name (n characters) in [from, before)
 * (`name = ...;`, a declaration's too, not `==` or `+=`): the offset of its
 * value, *end its ';' (or before, or the top-level ',' that ends it in a
 * list of declarations); len when none. */
size_t code_assignment_of(const source_code *s, size_t from, size_t before, const char *name, size_t n,
                          size_t *end);

/* Whether the name at n (nl characters) is declared __shared__ in code
 * (on a `__shared__` line). In source_store.c. */
int code_declared_shared(const char *code, const char *n, size_t nl);

/* The thread and block coordinates code[b, e) varies with, through the
 * assignments of its names before `before` in the kernel from `kernel`:
 * bit 3 * which + axis (which 0 threadIdx, 1 blockIdx; axis 0 x .. 2 z).
 * In source_index.c. */
unsigned code_coordinates(const source_code *s, size_t kernel, size_t before, size_t b, size_t e);

/* ---- loops, kernels, calls ---- */
/* The body of the loop whose keyword (for, while, do) is at head: the
 * offset of what follows its header (`for (...)`), or len when the header
 * is not one. */
size_t code_loop_body(const source_code *s, size_t head);
/* The counter of the for loop whose keyword is at loop: the offset of the
 * first name of its header after a type (`for (int k = 0; ...`: k), *n
 * its length; len when there is none. */
size_t code_for_counter(const source_code *s, size_t loop, size_t *n);
/* The '{' of the innermost block holding k, or len at file scope. */
size_t code_block_around(const source_code *s, size_t k);
/* The innermost for or while whose body (braced, or one statement) holds
 * offset pos: its keyword's offset, or len when none does. */
size_t code_loop_around(const source_code *s, size_t pos);
/* The innermost if, for or while whose body, or an if whose else, holds
 * offset pos: its keyword's offset (*in_else 1 for an else), or len when
 * none does. */
size_t code_test_around(const source_code *s, size_t pos, int *in_else);
/* The last `__global__` before k: the kernel that k is in, or len. */
size_t code_kernel_before(const source_code *s, size_t k);
/* The body of the kernel whose `__global__` is at g: its '{' (its '}'
 * into *close), or len for a declaration without one (`...);`). */
size_t code_kernel_body(const source_code *s, size_t g, size_t *close);
/* The '(' of the call of name at k (`name (`), or len when name is not called there. */
size_t code_call_open(const source_code *s, size_t k, const char *name);
/* The n-th argument (from 0) of the call whose '(' is at open, as
 * written, spaces trimmed, into out ("" when there is none, or it is
 * longer than size). */
void code_call_argument(const source_code *s, size_t open, int n, char *out, size_t size);

/* ---- the raw text of one line (comments and literals kept: for quoting) ---- */
/* Line n (from 1) of file, trimmed, cut to about max characters ("...");
 * "" if none (malloc'd). In source_line.c, with the quoting it serves. */
char *source_line_text(const char *file, int n, size_t max);
/* Whether word stands at p of text as a whole word. */
int text_word_at(const char *text, const char *p, const char *word);
/* The end of the clause of a condition that starts at from: its next
 * top-level && or || before to, else to. */
size_t text_clause_end(const char *t, size_t from, size_t to);

#endif
