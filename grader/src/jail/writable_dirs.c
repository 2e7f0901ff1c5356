/*
 * writable_dirs.c - see writable_dirs.h.
 *
 * In the uid mode a run's user writes into the machine's own /tmp, /var/tmp,
 * /dev/shm and /run/lock, and its limit there is kept by measuring what it
 * has while it runs. A course's scratch folder at 1777 behind a folder at
 * 0755 (/tmp/course/scratch) is writable to it but not on the measuring
 * walk's way, which goes only through folders anyone may write (walking
 * every folder others may enter ten times a second costs too much): a run
 * filled one past the limit. Those folders are found here once, before the
 * runs, by a walk of everything the run's user may enter, and measured with
 * the others. A folder made later by another user (a classmate's batch, a
 * course's folder made while the class is graded) would not be among them:
 * the walk is done again while runs go on (writable_dirs_refresh), as often
 * as its own cost allows.
 */
#define _GNU_SOURCE
#include "writable_dirs.h"
#include "util.h"

#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Folders looked at, at most: a walk of a busy /tmp stays short. */
#define MAX_LOOKED_AT 200000
#define MAX_FOUND 4096

typedef struct {
    char *path;
    dev_t dev;
    ino_t ino;
} found_dir;

static found_dir found[MAX_FOUND];
static int nfound;
static long looked_at;

/* The walk asked for, kept for its refreshes, and when the last one was
 * done and what it cost. */
static const char *const *walk_roots;
static gid_t walk_gid;
static int walk_max_depth;
static double walked_at, walk_cost;
static int said_too_many;

/* A refresh at most every REFRESH_MIN_S, and no oftener than keeps the
 * walks to 1/REFRESH_COST_SHARE of the time: a /tmp of 200,000 folders
 * (a walk of half a second) is walked every 10 s, a quiet one each second. */
#define REFRESH_MIN_S 1.0
#define REFRESH_COST_SHARE 20

/* Whether a user that owns nothing here, with no group but gid, may do
 * what bit (4 read, 2 write, 1 enter) asks in st: the group's bits where
 * st's group is gid, else the others'. */
static int may(const struct stat *st, gid_t gid, unsigned bit)
{
    unsigned bits = st->st_gid == gid ? (st->st_mode >> 3) & 7 : st->st_mode & 7;
    return (bits & bit) != 0;
}

/* The measuring walk's way down (sandbox.c's add_usage): folders anyone may
 * write and enter. */
static int on_the_walks_way(const struct stat *st)
{
    return (st->st_mode & S_IWOTH) && (st->st_mode & S_IXOTH);
}

/* Looks into the folder dirfd (taken and closed), path, whose walk the
 * measuring covers when walked. */
static void look_into(int dirfd, const char *path, gid_t gid, int walked, int depth, int max_depth)
{
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL && looked_at < MAX_LOOKED_AT) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
            !may(&st, gid, 1))
            continue;
        looked_at++;
        char *sub = xasprintf("%s/%s", path, e->d_name);
        int sub_walked = walked && on_the_walks_way(&st);
        if (!sub_walked && may(&st, gid, 2) && nfound < MAX_FOUND) {
            found[nfound].path = xstrdup(sub);
            found[nfound].dev = st.st_dev;
            found[nfound].ino = st.st_ino;
            nfound++;
            sub_walked = 1; /* measured from here down */
        }
        int fd = depth + 1 < max_depth ? openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                                       : -1;
        if (fd >= 0)
            look_into(fd, sub, gid, sub_walked, depth + 1, max_depth);
        free(sub);
    }
    closedir(d);
}

int writable_dirs_find(const char *const *roots, gid_t gid, int max_depth)
{
    double start = monotonic_s();
    walk_roots = roots;
    walk_gid = gid;
    walk_max_depth = max_depth;
    for (int i = 0; i < nfound; i++)
        free(found[i].path);
    nfound = 0;
    looked_at = 0;
    for (int i = 0; roots[i]; i++) {
        int fd = open(roots[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
            look_into(fd, roots[i], gid, 1, 0, max_depth);
    }
    walked_at = monotonic_s();
    walk_cost = walked_at - start;
    if (looked_at >= MAX_LOOKED_AT || nfound >= MAX_FOUND) {
        if (!said_too_many)
            fprintf(stderr, "gpulab: the shared temporary folders hold more than %d folders; those past them are "
                            "not measured while a run goes on, only swept when it ends\n", MAX_LOOKED_AT);
        said_too_many = 1;
        return -1;
    }
    return 0;
}

void writable_dirs_refresh(void)
{
    if (!walk_roots)
        return;
    double wait = walk_cost * REFRESH_COST_SHARE;
    if (wait < REFRESH_MIN_S)
        wait = REFRESH_MIN_S;
    if (monotonic_s() - walked_at >= wait)
        writable_dirs_find(walk_roots, walk_gid, walk_max_depth);
}

int writable_dirs_count(void)
{
    return nfound;
}

int writable_dirs_open(int i)
{
    if (i < 0 || i >= nfound)
        return -1;
    const char *p = found[i].path;
    /* the root's own name, then each component below it */
    const char *slash = strchr(p + 1, '/');
    char *root = slash ? strndup(p, (size_t)(slash - p)) : xstrdup(p);
    int fd = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    free(root);
    while (fd >= 0 && slash) {
        const char *name = slash + 1;
        slash = strchr(name, '/');
        char *part = slash ? strndup(name, (size_t)(slash - name)) : xstrdup(name);
        int next = openat(fd, part, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        free(part);
        close(fd);
        fd = next;
    }
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) != 0 || st.st_dev != found[i].dev || st.st_ino != found[i].ino)) {
        close(fd);
        fd = -1;
    }
    return fd;
}
