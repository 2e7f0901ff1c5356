/* util.h - the small helpers emucc (emucc.c) and its rewriter (rewrite.c)
 * share: a fatal error, allocation that cannot fail, whole files. Each failure
 * ends the program with one "emucc: ..." line on stderr and status 1. */
#ifndef EMU_UTIL_H
#define EMU_UTIL_H
#include <stddef.h>

void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* The whole file, NUL-terminated (malloc'd), its length in *len. */
char *read_file(const char *path, size_t *len);
void write_file(const char *path, const char *text, size_t len);
#endif
