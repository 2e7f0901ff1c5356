/*
 * util.c - see util.h.
 */
#define _GNU_SOURCE
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#ifdef __linux__
#include <sched.h>
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

void die(const char *fmt, ...)
{
    va_list ap;
    fputs("gpulab: ", stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(2);
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        die("out of memory");
    return p;
}

void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory (%zu bytes)", n);
    return p;
}

char *xstrdup(const char *s)
{
    char *d = strdup(s ? s : "");
    if (!d)
        die("out of memory");
    return d;
}

/* vasprintf, or die; *len its length. */
static char *vxasprintf(size_t *len, const char *fmt, va_list ap)
{
    char *s;
    int n = vasprintf(&s, fmt, ap);
    if (n < 0)
        die("out of memory");
    *len = (size_t)n;
    return s;
}

char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    size_t n;
    va_start(ap, fmt);
    char *s = vxasprintf(&n, fmt, ap);
    va_end(ap);
    return s;
}

void sb_init(strbuf *sb)
{
    sb->buf = NULL;
    sb->len = sb->cap = 0;
}

void sb_append(strbuf *sb, const char *s, size_t n)
{
    if (sb->len + n + 1 > sb->cap) {
        size_t cap = sb->cap ? sb->cap : 256;
        while (cap < sb->len + n + 1)
            cap *= 2;
        sb->buf = xrealloc(sb->buf, cap);
        sb->cap = cap;
    }
    memcpy(sb->buf + sb->len, s, n);
    sb->len += n;
    sb->buf[sb->len] = '\0';
}

void sb_puts(strbuf *sb, const char *s)
{
    sb_append(sb, s, strlen(s));
}

void sb_printf(strbuf *sb, const char *fmt, ...)
{
    va_list ap;
    size_t n;
    va_start(ap, fmt);
    char *s = vxasprintf(&n, fmt, ap);
    va_end(ap);
    sb_append(sb, s, n);
    free(s);
}

char *sb_detach(strbuf *sb)
{
    char *s = sb->buf ? sb->buf : xstrdup("");
    sb_init(sb);
    return s;
}

void sb_free(strbuf *sb)
{
    free(sb->buf);
    sb_init(sb);
}

int file_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int is_executable(const char *path)
{
    return file_exists(path) && access(path, X_OK) == 0;
}

/* Reads fd to its end, or to max_bytes (0: no limit), and closes it: the
 * text (NUL-terminated; *len without the NUL), or NULL with errno set. */
static char *read_and_close(int fd, long long max_bytes, size_t *len)
{
    strbuf sb;
    sb_init(&sb);
    char chunk[65536];
    for (;;) {
        ssize_t n = read(fd, chunk, sizeof chunk);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int e = errno;
            close(fd);
            sb_free(&sb);
            errno = e;
            return NULL;
        }
        if (n == 0 || (max_bytes > 0 && (long long)(sb.len + (size_t)n) > max_bytes))
            break;
        sb_append(&sb, chunk, (size_t)n);
    }
    close(fd);
    if (len)
        *len = sb.len;
    return sb_detach(&sb);
}

char *read_file(const char *path, size_t *len)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    return fd < 0 ? NULL : read_and_close(fd, 0, len);
}

/* A fresh temporary file beside path (path.tmp.XXXXXX, made with O_EXCL, so
 * that no two writers share one, on two machines of a shared folder
 * either), readable as an ordinary file is (0644). Its descriptor, or -1. */
static int open_beside(const char *path, char **tmp, mode_t mode)
{
    *tmp = xasprintf("%s.tmp.XXXXXX", path);
    int fd = mkostemp(*tmp, O_CLOEXEC);
    if (fd >= 0 && fchmod(fd, mode) != 0) {
        int e = errno;
        close(fd);
        unlink(*tmp);
        errno = e;
        return -1;
    }
    return fd;
}

/* fsync of the folder holding path, so that a rename in it is on the disk. */
static int sync_parent(const char *path)
{
    char *dir = path_dirname(path);
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    free(dir);
    if (fd < 0)
        return -1;
    int rc = fsync(fd);
    int e = errno;
    close(fd);
    errno = e;
    /* some file systems cannot sync a folder: the rename stands anyway */
    return rc == 0 || errno == EINVAL || errno == EROFS ? 0 : -1;
}

static int write_atomic_mode(const char *path, const char *data, size_t len, mode_t mode)
{
    char *tmp;
    int fd = open_beside(path, &tmp, mode);
    if (fd < 0) {
        free(tmp);
        return -1;
    }
    size_t off = 0;
    while (off < len) {
        ssize_t n = write(fd, data + off, len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            int e = errno;
            close(fd);
            unlink(tmp);
            free(tmp);
            errno = e;
            return -1;
        }
        off += (size_t)n;
    }
    int rc = fsync(fd), e = errno;
    if (close(fd) != 0 && rc == 0)
        rc = -1, e = errno;
    if (rc == 0 && rename(tmp, path) != 0)
        rc = -1, e = errno;
    if (rc != 0) {
        unlink(tmp);
        free(tmp);
        errno = e;
        return -1;
    }
    free(tmp);
    return sync_parent(path);
}

int write_file_atomic(const char *path, const char *data, size_t len)
{
    return write_atomic_mode(path, data, len, 0644);
}

int write_private_file(const char *path, const char *data, size_t len)
{
    return write_atomic_mode(path, data, len, 0600);
}

int write_file(const char *path, const char *data, size_t len)
{
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0)
        return -1;
    size_t off = 0;
    int rc = 0;
    while (off < len) {
        ssize_t n = write(fd, data + off, len - off);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            rc = -1;
            break;
        }
        off += (size_t)n;
    }
    if (close(fd) != 0)
        rc = -1;
    return rc;
}

int copy_file(const char *from, const char *to)
{
    size_t len;
    char *data = read_file(from, &len);
    if (!data)
        return -1;
    int rc = write_file(to, data, len);
    free(data);
    return rc;
}

int link_or_copy_file(const char *from, const char *to)
{
    if (link(from, to) == 0)
        return 0;
    return copy_file(from, to);
}

pid_t fork_flushed(void)
{
    fflush(stdout);
    fflush(stderr);
    return fork();
}

static int make_dirs_mode(const char *path, mode_t mode)
{
    char *p = xstrdup(path);
    for (char *s = p + 1; *s; s++) {
        if (*s == '/') {
            *s = '\0';
            if (mkdir(p, mode) != 0 && errno != EEXIST) {
                free(p);
                return -1;
            }
            *s = '/';
        }
    }
    int rc = (mkdir(p, mode) != 0 && errno != EEXIST) ? -1 : 0;
    free(p);
    return rc;
}

int make_dirs(const char *path)
{
    return make_dirs_mode(path, 0777);
}

int make_private_dirs(const char *path)
{
    return make_dirs_mode(path, 0700);
}

int remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return errno == ENOENT ? 0 : -1;
    if (!S_ISDIR(st.st_mode))
        return unlink(path);
    /* A student's program may have left a directory it made unreadable. */
    chmod(path, 0700);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    struct dirent *e;
    int rc = 0;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char *child = xasprintf("%s/%s", path, e->d_name);
        if (remove_tree(child) != 0)
            rc = -1;
        free(child);
    }
    closedir(d);
    if (rmdir(path) != 0)
        rc = -1;
    return rc;
}

char *make_temp_dir(const char *prefix)
{
    const char *tmp = getenv("TMPDIR");
    if (!tmp || !*tmp)
        tmp = "/tmp";
    char *templ = xasprintf("%s/%s-XXXXXX", tmp, prefix);
    if (!mkdtemp(templ))
        die("cannot create a temporary directory in %s: %s", tmp, strerror(errno));
    return templ;
}

int ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

const char *path_base(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

char *find_in_path(const char *name)
{
    if (strchr(name, '/'))
        return is_executable(name) ? xstrdup(name) : NULL;
    const char *path = getenv("PATH");
    if (!path)
        return NULL;
    char *copy = xstrdup(path), *save = NULL;
    for (char *dir = strtok_r(copy, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
        char *cand = xasprintf("%s/%s", *dir ? dir : ".", name);
        if (is_executable(cand)) {
            free(copy);
            return cand;
        }
        free(cand);
    }
    free(copy);
    return NULL;
}

int usable_cores(void)
{
#ifdef __linux__
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
        return CPU_COUNT(&set);
#endif
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}

int pipe_cloexec(int fds[2], int nonblock)
{
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC | (nonblock ? O_NONBLOCK : 0));
#else
    /* no pipe2 (macOS): the flags a moment later; the grader starts no
     * program from another thread meanwhile */
    if (pipe(fds) != 0)
        return -1;
    for (int i = 0; i < 2; i++)
        if (fcntl(fds[i], F_SETFD, FD_CLOEXEC) != 0 ||
            (nonblock && fcntl(fds[i], F_SETFL, fcntl(fds[i], F_GETFL) | O_NONBLOCK) != 0)) {
            close(fds[0]);
            close(fds[1]);
            return -1;
        }
    return 0;
#endif
}

double monotonic_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

char *path_absolute(const char *path)
{
    if (path[0] == '/')
        return xstrdup(path);
    char cwd[4096];
    if (!getcwd(cwd, sizeof cwd))
        die("cannot tell the current folder (to make %s absolute): %s", path, strerror(errno));
    return xasprintf("%s/%s", cwd, path);
}

char *path_dirname(const char *path)
{
    const char *slash = strrchr(path, '/');
    if (!slash)
        return xstrdup(".");
    if (slash == path)
        return xstrdup("/");
    return xasprintf("%.*s", (int)(slash - path), path);
}

/* Opens a file that a student handed in or that a student's run left,
 * without blocking (a FIFO or a device never hangs the grader); follows a
 * symbolic link only when follow_links. */
int untrusted_open(const char *path, long long max_bytes, int follow_links, char **why)
{
    int flags = O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | (follow_links ? 0 : O_NOFOLLOW);
    int fd = open(path, flags);
    if (fd < 0) {
        int e = errno;
        *why = e == ELOOP ? xasprintf("%s is a symbolic link, which the grader does not follow", path)
                          : xasprintf("cannot open %s: %s", path, strerror(e));
        errno = e;
        return -1;
    }
    struct stat st;
    const char *problem = NULL;
    if (fstat(fd, &st) != 0)
        problem = strerror(errno);
    else if (!S_ISREG(st.st_mode))
        problem = "not a regular file";
    else if (!follow_links && st.st_nlink > 1)
        problem = "a hard link to a file with other names";
    else if (max_bytes > 0 && st.st_size > max_bytes)
        problem = "larger than the grader reads";
    if (problem) {
        *why = max_bytes > 0 && st.st_size > max_bytes && S_ISREG(st.st_mode)
                   ? xasprintf("%s is %lld bytes, more than the %lld the grader reads", path,
                               (long long)st.st_size, max_bytes)
                   : xasprintf("%s is %s", path, problem);
        close(fd);
        errno = EPERM;
        return -1;
    }
    /* Reads from here on may block if they should: a regular file never does. */
    int fl = fcntl(fd, F_GETFL);
    if (fl >= 0)
        fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
    return fd;
}

char *untrusted_read(const char *path, long long max_bytes, int follow_links, size_t *len, char **why)
{
    int fd = untrusted_open(path, max_bytes, follow_links, why);
    if (fd < 0)
        return NULL;
    char *text = read_and_close(fd, max_bytes, len);
    if (!text)
        *why = xasprintf("cannot read %s: %s", path, strerror(errno));
    return text;
}

int untrusted_check(const char *path, long long max_bytes, char **why)
{
    struct stat st;
    if (lstat(path, &st) != 0 && errno == ENOENT)
        return 1;
    int fd = untrusted_open(path, max_bytes, 0, why);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

int utf8_char_length(const unsigned char *c)
{
    if (*c < 0x80)
        return 1;
    int n = *c >= 0xf0 && *c <= 0xf4 ? 4 : *c >= 0xe0 && *c <= 0xef ? 3 : *c >= 0xc2 && *c <= 0xdf ? 2 : 0;
    for (int i = 1; i < n; i++)
        if ((c[i] & 0xc0) != 0x80)
            return 0;
    if (n == 3 && *c == 0xe0 && c[1] < 0xa0)
        return 0; /* overlong */
    if (n == 3 && *c == 0xed && c[1] >= 0xa0)
        return 0; /* a UTF-16 surrogate */
    if (n == 4 && ((*c == 0xf0 && c[1] < 0x90) || (*c == 0xf4 && c[1] >= 0x90)))
        return 0; /* overlong, or past U+10FFFF */
    return n;
}

char *printable(const char *s)
{
    strbuf sb;
    sb_init(&sb);
    for (const unsigned char *c = (const unsigned char *)(s ? s : ""); *c; c++) {
        int n = utf8_char_length(c);
        if ((*c < 0x20 && *c != '\n' && *c != '\t') || *c == 0x7f || n == 0) {
            sb_printf(&sb, "\\x%02x", *c);
        } else if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) { /* C1 controls, U+0080..U+009F */
            sb_printf(&sb, "\\u%04x", c[1]);
            c++;
        } else {
            sb_append(&sb, (const char *)c, (size_t)n);
            c += n - 1;
        }
    }
    return sb_detach(&sb);
}

int write_output(const char *path, const char *data, size_t len)
{
    if (strcmp(path, "-") == 0) {
        int rc = fwrite(data, 1, len, stdout) == len && fflush(stdout) == 0 ? 0 : -1;
        return rc;
    }
    struct stat st;
    if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        /* A link (/dev/stdout, a file kept elsewhere), a FIFO, a device:
         * written through, in place, and left what it was. */
        if (S_ISDIR(st.st_mode)) {
            errno = EISDIR;
            return -1;
        }
        int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
        if (fd < 0)
            return -1;
        size_t off = 0;
        while (off < len) {
            ssize_t n = write(fd, data + off, len - off);
            if (n < 0 && errno == EINTR)
                continue;
            if (n < 0) {
                int e = errno;
                close(fd);
                errno = e;
                return -1;
            }
            off += (size_t)n;
        }
        return close(fd);
    }
    return write_private_file(path, data, len);
}

char *str_replace_all(const char *s, const char *from, const char *to)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "");
    size_t n = strlen(from);
    for (const char *p = s; p && *p;) {
        const char *hit = n ? strstr(p, from) : NULL;
        if (!hit) {
            sb_puts(&sb, p);
            break;
        }
        sb_append(&sb, p, (size_t)(hit - p));
        sb_puts(&sb, to);
        p = hit + n;
    }
    return sb_detach(&sb);
}

int write_control_file(const char *path, const char *text)
{
    int fd = open(path, O_WRONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = write(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return n == (ssize_t)strlen(text) ? 0 : -1;
}

const char *plural(size_t n, const char *one, const char *many)
{
    return n == 1 ? one : many;
}

int location_after(const char *s, const char *word, char *file, size_t len, const char **rest)
{
    const char *p = strstr(s, word);
    if (!p)
        return 0;
    p += strlen(word);
    size_t n = strcspn(p, " ),");
    const char *colon = NULL;
    for (const char *c = p; c < p + n; c++)
        if (*c == ':')
            colon = c;
    if (!colon)
        return 0;
    if (file)
        snprintf(file, len, "%.*s", (int)(colon - p), p);
    if (rest)
        *rest = colon + 1;
    return atoi(colon + 1);
}
