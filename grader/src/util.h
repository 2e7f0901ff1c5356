/*
 * util.h - small helpers the grader's stages share: memory, strings, files.
 */
#ifndef GPULAB_UTIL_H
#define GPULAB_UTIL_H

#include <stddef.h>
#include <stdarg.h>

/* Prints "gpulab: ..." to stderr and exits 2 (the grader's error status). */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* A growable string. */
typedef struct {
    char *buf;
    size_t len, cap;
} strbuf;

void sb_init(strbuf *sb);
void sb_append(strbuf *sb, const char *s, size_t n);
void sb_puts(strbuf *sb, const char *s);
void sb_printf(strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
char *sb_detach(strbuf *sb);
void sb_free(strbuf *sb);

int file_exists(const char *path);
int dir_exists(const char *path);
int is_executable(const char *path);
/* Whole file into a NUL-terminated buffer; NULL (errno set) on failure. */
char *read_file(const char *path, size_t *len);
/* Writes len bytes to path through a temporary file and rename(2), so a
 * reader never sees half a file. Returns 0, or -1 with errno set. */
int write_file_atomic(const char *path, const char *data, size_t len);
int copy_file(const char *from, const char *to);
/* mkdir -p */
int make_dirs(const char *path);
/* rm -rf; never follows symbolic links out of the tree. */
int remove_tree(const char *path);
/* A fresh private directory under $TMPDIR (or /tmp). */
char *make_temp_dir(const char *prefix);
/* Whether s ends with suffix. */
int ends_with(const char *s, const char *suffix);
/* The final component of a path, without copying. */
const char *path_base(const char *path);
/* Finds an executable on $PATH; returns a malloc'd path or NULL. */
char *find_in_path(const char *name);

#endif
