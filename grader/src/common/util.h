/*
 * util.h - small helpers the grader's stages share: memory, strings, files.
 */
#ifndef GPULAB_UTIL_H
#define GPULAB_UTIL_H

#include <stddef.h>
#include <stdarg.h>
#include <sys/types.h>

/* Prints "gpulab: ..." to stderr and exits 2 (the grader's error status). */
void die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* s with every occurrence of from replaced by to (malloc'd); from must not be empty. */
char *str_replace_all(const char *s, const char *from, const char *to);

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
/* Writes a whole file in place (no fsync, no rename). 0 or -1 with errno. */
int write_file(const char *path, const char *data, size_t len);
/* Writes text, in one write, to a file that must exist (a kernel's
 * control file: /proc/self/uid_map, a cgroup's). 0, or -1 with errno. */
int write_control_file(const char *path, const char *text);
/* Writes len bytes to path through a temporary file of its own beside it
 * (path.tmp.XXXXXX, O_EXCL), fsync and rename(2), then syncs the folder: a
 * reader, or a writer on another machine of a shared folder, never sees half
 * a file. Returns 0, or -1 with errno set. */
int write_file_atomic(const char *path, const char *data, size_t len);
/* The same, mode 0600: what only the instructor may read (records,
 * exports, the class page, seeds), whatever the umask. */
int write_private_file(const char *path, const char *data, size_t len);
/* An output the user named (--out, --csv, --junit): "-" is standard output;
 * an existing path that is not a regular file (a link such as /dev/stdout,
 * a FIFO) is written through and stays what it was; anything else is
 * written atomically, mode 0600 (write_private_file). 0, or -1 with errno. */
int write_output(const char *path, const char *data, size_t len);
int copy_file(const char *from, const char *to);
/* A hard link of from at to where the file system allows it (a large file
 * that no one writes, shared at no cost), else a copy. 0, or -1 with errno. */
int link_or_copy_file(const char *from, const char *to);
/* fork(2), stdout and stderr flushed first, so that what they hold is not
 * written twice (by the child too); its result, -1 with errno included. */
pid_t fork_flushed(void);
/* mkdir -p */
int make_dirs(const char *path);
/* mkdir -p, each folder it makes 0700 (records, exports, logs). */
int make_private_dirs(const char *path);
/* rm -rf; never follows symbolic links out of the tree. */
int remove_tree(const char *path);
/* A fresh private directory under $TMPDIR (or /tmp). */
char *make_temp_dir(const char *prefix);
/* Whether s ends with suffix. */
int ends_with(const char *s, const char *suffix);
/* The final component of a path, without copying. */
const char *path_base(const char *path);
/* one when n is 1, else many: "1 element is", "2 elements are". */
const char *plural(size_t n, const char *one, const char *many);
/* The "FILE:LINE" right after `word` in s (up to a space, `)` or `,`), as
 * the checkers' messages write a place: the line, FILE into file (len
 * bytes; file may be NULL) and *rest just past the colon (rest may be
 * NULL); 0 where s has none. */
int location_after(const char *s, const char *word, char *file, size_t len, const char **rest);
/* Finds an executable on $PATH; returns a malloc'd path or NULL. */
char *find_in_path(const char *name);
/* The length of the well-formed UTF-8 character at c (1 to 4), or 0 when the
 * bytes there are not one (a stray byte, a truncated or overlong sequence, a
 * surrogate). */
int utf8_char_length(const unsigned char *c);
/* A copy of text that came from a student (their program's output, their
 * compiler's messages) that is safe to print on a terminal: control
 * characters (ESC of colour and cursor sequences, carriage returns, C1
 * controls) and bytes that are not UTF-8 become visible escapes such as
 * \x1b; newlines and tabs stay. */
char *printable(const char *s);
/* The cores this process may run on (its CPU affinity: under Slurm, or
 * taskset, the CPUs it was given), else those online; at least 1. */
int usable_cores(void);
/* pipe(2) with both ends close-on-exec (and non-blocking where nonblock):
 * pipe2 on Linux, pipe and fcntl elsewhere. 0, or -1 with errno. */
int pipe_cloexec(int fds[2], int nonblock);
/* Seconds on the monotonic clock (for durations). */
double monotonic_s(void);
/* path made absolute against the current folder, links left as they are
 * (a link a student made must still be seen as one); malloc'd. */
char *path_absolute(const char *path);
/* The folder part of a path ("." when there is none), malloc'd. */
char *path_dirname(const char *path);

/* A lab's source is a few kilobytes; a megabyte is no one's honest file:
 * a larger one is refused on its size, before a byte of it is read (by
 * the build, a class's intake, and the readers of the source alike). */
#define SUBMISSION_MAX_BYTES (1LL << 20)

/* Files that a student handed in or that a student's run left behind. They
 * are opened without blocking (a FIFO or a device never hangs the grader)
 * and must be regular files of at most max_bytes (0: any size); unless
 * follow_links, a symbolic link or a hard link is refused too. On failure,
 * *why says what was wrong, naming the path (malloc'd). */
int untrusted_open(const char *path, long long max_bytes, int follow_links, char **why);
/* The whole file (NUL-terminated; *len without the NUL), or NULL and *why. */
char *untrusted_read(const char *path, long long max_bytes, int follow_links, size_t *len, char **why);
/* 0: a file the grader may read; 1: there is none; -1: refused (*why). */
int untrusted_check(const char *path, long long max_bytes, char **why);

#endif
