/*
 * kit.c - see kit.h.
 */
#define _GNU_SOURCE
#include "kit.h"
#include "util.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char *root;

static int looks_like_kit(const char *dir)
{
    char *labs = xasprintf("%s/labs", dir);
    char *grader = xasprintf("%s/grader", dir);
    int ok = dir_exists(labs) && dir_exists(grader);
    free(labs);
    free(grader);
    return ok;
}

void kit_locate(const char *argv0)
{
    const char *home = getenv("GPULAB_HOME");
    char buf[PATH_MAX];
    if (home && *home) {
        if (!realpath(home, buf) || !looks_like_kit(buf))
            die("GPULAB_HOME=%s is not the kit's directory (no labs/ and grader/ there)", home);
        root = xstrdup(buf);
        return;
    }
    ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n > 0) {
        buf[n] = '\0';
    } else if (!realpath(argv0, buf)) {
        die("cannot tell where the gpulab executable is; set GPULAB_HOME to the kit's directory");
    }
    char *slash = strrchr(buf, '/');
    if (slash)
        *slash = '\0';
    if (!looks_like_kit(buf))
        die("%s is not the kit's directory (no labs/ and grader/ there); set GPULAB_HOME", buf);
    root = xstrdup(buf);
}

const char *kit_root(void)
{
    return root;
}

char *kit_path(const char *fmt, ...)
{
    va_list ap;
    char *rel;
    va_start(ap, fmt);
    if (vasprintf(&rel, fmt, ap) < 0)
        die("out of memory");
    va_end(ap);
    char *full = xasprintf("%s/%s", root, rel);
    free(rel);
    return full;
}
