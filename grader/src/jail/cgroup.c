/*
 * cgroup.c - see cgroup.h.
 */
#define _GNU_SOURCE
#include "cgroup.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define CGROUP_ROOT "/sys/fs/cgroup"
#define RUN_MEMORY_FLOOR (2ULL << 30)

/* The grader's parent groups for its runs, one per hierarchy used (v1: the
 * cpu and the memory hierarchies; v2: one), and each one's memory limit
 * file, or NULL. */
static char *parents[2];
static const char *memory_file[2];
static int nparents;
static pid_t owner; /* the process that made them: --parallel's workers exit too */
static char mode[200] = "none (not set up)";

const char *cgroup_mode(void) { return mode; }

/* This process's group in the hierarchy whose /proc/self/cgroup line names
 * controller (v1), or the v2 line's (controller NULL); malloc'd. */
static char *own_group(const char *controller)
{
    FILE *f = fopen("/proc/self/cgroup", "r");
    if (!f)
        return NULL;
    char line[4096];
    char *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *list = c1 + 1;
        int match = 0;
        if (!controller) {
            match = *list == '\0';
        } else {
            char *copy = xstrdup(list), *save = NULL;
            for (char *t = strtok_r(copy, ",", &save); t && !match; t = strtok_r(NULL, ",", &save))
                match = strcmp(t, controller) == 0;
            free(copy);
        }
        if (match)
            found = xstrdup(c2 + 1);
    }
    fclose(f);
    return found;
}

/* Makes MOUNT/GROUP/gpulab-PID; returns it (malloc'd) or NULL. */
static char *make_parent(const char *mount, const char *group)
{
    char *dir = xasprintf("%s%s%sgpulab-%d", mount, group, group[strlen(group) - 1] == '/' ? "" : "/",
                          (int)getpid());
    if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
        free(dir);
        return NULL;
    }
    return dir;
}

static void remove_parents(void)
{
    if (getpid() != owner)
        return;
    for (int i = 0; i < nparents; i++)
        rmdir(parents[i]);
}

static int setup_v1(char *why, size_t len)
{
    const char *names[2] = { "cpu", "memory" };
    for (int i = 0; i < 2; i++) {
        char *mount = xasprintf(CGROUP_ROOT "/%s", names[i]);
        char *group = own_group(names[i]);
        char *dir = group ? make_parent(mount, group) : NULL;
        if (!dir) {
            snprintf(why, len, "cannot make a group under %s%s: %s", mount, group ? group : "", strerror(errno));
            free(mount);
            free(group);
            return -1;
        }
        parents[nparents] = dir;
        memory_file[nparents++] = i == 1 ? "memory.limit_in_bytes" : NULL;
        free(mount);
        free(group);
    }
    return 0;
}

static int setup_v2(char *why, size_t len)
{
    char *group = own_group(NULL);
    if (!group) {
        snprintf(why, len, "no cgroup v2 line in /proc/self/cgroup");
        return -1;
    }
    /* the controllers must be handed down from the grader's own group: the
     * kernel refuses that where the group holds processes and is not the
     * root (another user's shell, say), and then runs go without */
    char *own = xasprintf(CGROUP_ROOT "%s", group);
    char *control = xasprintf("%s/cgroup.subtree_control", own);
    int rc = write_control_file(control, "+cpu +memory");
    if (rc != 0)
        snprintf(why, len, "cannot hand the cpu and memory controllers down from %s: %s", own, strerror(errno));
    char *dir = rc == 0 ? make_parent(CGROUP_ROOT, group) : NULL;
    if (rc == 0 && !dir)
        snprintf(why, len, "cannot make a group under %s: %s", own, strerror(errno));
    char *sub = dir ? xasprintf("%s/cgroup.subtree_control", dir) : NULL;
    if (dir && write_control_file(sub, "+cpu +memory") != 0) {
        snprintf(why, len, "cannot hand the controllers down to %s: %s", dir, strerror(errno));
        rmdir(dir);
        free(dir);
        dir = NULL;
    }
    free(sub);
    free(control);
    free(own);
    free(group);
    if (!dir)
        return -1;
    parents[nparents] = dir;
    memory_file[nparents++] = "memory.max";
    return 0;
}

void cgroup_init(void)
{
    char why[400] = "";
    struct stat st;
    owner = getpid();
    int v2 = stat(CGROUP_ROOT "/cgroup.controllers", &st) == 0;
    int v1 = !v2 && stat(CGROUP_ROOT "/cpu/cgroup.procs", &st) == 0 && stat(CGROUP_ROOT "/memory/cgroup.procs", &st) == 0;
    if (geteuid() != 0)
        snprintf(why, sizeof why, "not root");
    else if (!v1 && !v2)
        snprintf(why, sizeof why, "no cgroup v2, nor v1's cpu and memory hierarchies, under " CGROUP_ROOT);
    else if ((v1 ? setup_v1 : setup_v2)(why, sizeof why) == 0) {
        snprintf(mode, sizeof mode, "cgroup %s", v1 ? "v1" : "v2");
        atexit(remove_parents);
        return;
    }
    remove_parents();
    nparents = 0;
    snprintf(mode, sizeof mode, "none (%s)", why);
    fprintf(stderr, "gpulab: note: runs get no control group of their own here (%s): a run's threads share the "
                    "processors with its neighbours' as the kernel schedules threads, and its memory is not "
                    "limited\n", why);
}

/* A quarter of the machine's memory, at least RUN_MEMORY_FLOOR. */
static unsigned long long run_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    unsigned long long total = pages > 0 && size > 0 ? (unsigned long long)pages * (unsigned long long)size : 0;
    return total / 4 > RUN_MEMORY_FLOOR ? total / 4 : RUN_MEMORY_FLOOR;
}

char *cgroup_run_name(void)
{
    static unsigned n;
    return nparents ? xasprintf("run-%d-%u", (int)getpid(), n++) : NULL;
}

void cgroup_join_run(const char *name)
{
    char limit[32];
    snprintf(limit, sizeof limit, "%llu", run_memory());
    for (int i = 0; name && i < nparents; i++) {
        char *dir = xasprintf("%s/%s", parents[i], name);
        if (mkdir(dir, 0755) == 0) {
            char *file = memory_file[i] ? xasprintf("%s/%s", dir, memory_file[i]) : NULL;
            char *procs = xasprintf("%s/cgroup.procs", dir);
            if (file)
                write_control_file(file, limit);
            write_control_file(procs, "0"); /* this process; what it starts follows */
            free(file);
            free(procs);
        }
        free(dir);
    }
}

void cgroup_run_ended(const char *name)
{
    for (int i = 0; name && i < nparents; i++) {
        char *dir = xasprintf("%s/%s", parents[i], name);
        /* the kernel lets a group go once its last process has been reaped:
         * a few tries, a millisecond apart */
        for (int tries = 0; rmdir(dir) != 0 && errno == EBUSY && tries < 50; tries++) {
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
        free(dir);
    }
}
