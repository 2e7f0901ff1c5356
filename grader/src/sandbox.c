/*
 * sandbox.c - see sandbox.h.
 *
 * Linux namespaces through clone(2) and mount(2), no helper program: the
 * grader runs as root on grading machines, so it can make a mount, pid,
 * network, IPC and UTS namespace for each run, then hand the program to an
 * unprivileged user id of the run's own (no account, no groups). Where that
 * is not possible (not root, no namespaces) the mode is "none (why)" and runs are protected only by
 * process.c's limits; the records say so.
 */
#define _GNU_SOURCE
#include "sandbox.h"
#include "kit.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SANDBOX_GID 65534 /* nogroup */

/* Each run has a user of its own, not a shared "nobody": RLIMIT_NPROC counts
 * every process and thread of a user across the machine, so with one shared
 * user, runs going on at the same time (a batch on several GPUs, a parallel
 * test suite; CUDA starts several threads per process) would eat each other's
 * limit and fail to start ("Resource temporarily unavailable", seen on an
 * H200 machine). The grader picks the user before it starts the run. */
static uid_t run_uid = 65534;

void sandbox_next_run_user(void)
{
    static unsigned run_number;
    run_uid = (uid_t)(100000u + (unsigned)getpid() * 512u + (run_number++ % 512u));
}
#define NS_FLAGS (CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS)

static int active;
static char mode[400] = "none (not requested)";
static char **hidden;
static int nhidden;

int sandbox_active(void) { return active; }
const char *sandbox_mode(void) { return mode; }
int sandbox_clone_flags(void) { return active ? NS_FLAGS : 0; }

void sandbox_hide(const char *path)
{
    char real[4096];
    const char *p = realpath(path, real) ? real : path;
    if (strcmp(p, "/") == 0)
        return;
    for (int i = 0; i < nhidden; i++)
        if (strcmp(hidden[i], p) == 0)
            return;
    hidden = xrealloc(hidden, (size_t)(nhidden + 1) * sizeof *hidden);
    hidden[nhidden++] = xstrdup(p);
}

/* Whether this machine lets us make the namespaces and mounts a run needs. */
static int probe(char *why, size_t len)
{
    if (geteuid() != 0) {
        snprintf(why, len, "not root: the namespaces need root here, so runs only get process limits");
        return -1;
    }
    int pipefd[2];
    if (pipe(pipefd) != 0) {
        snprintf(why, len, "pipe: %s", strerror(errno));
        return -1;
    }
    pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD | NS_FLAGS, NULL, NULL, NULL, NULL);
    if (pid < 0) {
        snprintf(why, len, "clone with namespaces failed: %s", strerror(errno));
        close(pipefd[0]);
        close(pipefd[1]);
        return -1;
    }
    if (pid == 0) {
        close(pipefd[0]);
        const char *step = "make / private";
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0) {
            step = "mount a tmpfs";
            if (mount("tmpfs", "/tmp", "tmpfs", MS_NOSUID | MS_NODEV, "size=1m") == 0) {
                step = "mount /proc";
                if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) == 0)
                    _exit(0);
            }
        }
        char msg[256];
        int n = snprintf(msg, sizeof msg, "cannot %s in a new mount namespace: %s", step, strerror(errno));
        if (write(pipefd[1], msg, (size_t)n) < 0)
            _exit(1);
        _exit(1);
    }
    close(pipefd[1]);
    char msg[256];
    ssize_t n = read(pipefd[0], msg, sizeof msg - 1);
    close(pipefd[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    msg[n > 0 ? n : 0] = '\0';
    snprintf(why, len, "%s", n > 0 ? msg : "the namespace probe failed");
    return -1;
}

void sandbox_init(const char *requested)
{
    if (!requested)
        requested = "auto";
    if (strcmp(requested, "none") == 0) {
        active = 0;
        snprintf(mode, sizeof mode, "none (--sandbox none)");
        return;
    }
    if (strcmp(requested, "auto") != 0 && strcmp(requested, "unshare") != 0)
        die("--sandbox %s: expected auto, unshare or none", requested);
    char why[320];
    if (probe(why, sizeof why) == 0) {
        active = 1;
        snprintf(mode, sizeof mode, "unshare");
        /* what a run must never see */
        char *p = kit_path("datasets");
        sandbox_hide(p);
        free(p);
        p = kit_path("build/datasets");
        sandbox_hide(p);
        free(p);
        p = kit_path("solutions");
        sandbox_hide(p);
        free(p);
        return;
    }
    if (strcmp(requested, "unshare") == 0)
        die("--sandbox unshare: %s", why);
    active = 0;
    snprintf(mode, sizeof mode, "none (%s)", why);
}

/* ---- in the run's first process (pid 1 of its namespace) -------------------- */

static int fail(char *why, int len, const char *what, const char *path)
{
    snprintf(why, (size_t)len, "sandbox: cannot %s %s: %s", what, path, strerror(errno));
    return -1;
}

static char *parent_of(const char *path)
{
    char *p = xstrdup(path);
    char *slash = strrchr(p, '/');
    if (slash && slash != p)
        *slash = '\0';
    else if (slash)
        p[1] = '\0';
    return p;
}

static int is_under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

static int mount_fresh_tmp(const char *dir, char *why, int len)
{
    if (!dir_exists(dir))
        return 0;
    if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=256m,mode=1777") != 0)
        return fail(why, len, "mount a fresh tmpfs on", dir);
    return 0;
}

int sandbox_enter(const char *cwd, const char *const *env_add, double timeout_s, char *why, int len)
{
    (void)timeout_s;
    if (!cwd)
        return fail(why, len, "run without a working directory", "");
    char real_cwd[4096];
    if (!realpath(cwd, real_cwd))
        return fail(why, len, "resolve", cwd);
    char *workdir = parent_of(real_cwd);   /* the submission's own work directory */
    char *tmproot = parent_of(workdir);    /* where the grader makes its temporary folders */
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return fail(why, len, "make private", "/");
    /* The program writes its output (and the emulator its log) as the run's user. */
    if (chown(workdir, run_uid, SANDBOX_GID) != 0 || chown(real_cwd, run_uid, SANDBOX_GID) != 0)
        return fail(why, len, "hand over", workdir);
    int keep = open(workdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (keep < 0)
        return fail(why, len, "open", workdir);

    for (int i = 0; i < nhidden; i++) {
        const char *h = hidden[i];
        struct stat st;
        if (lstat(h, &st) != 0 || is_under(workdir, h))
            continue;
        if (S_ISDIR(st.st_mode)) {
            if (mount("tmpfs", h, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=555") != 0)
                return fail(why, len, "hide", h);
        } else if (S_ISREG(st.st_mode)) {
            if (mount("/dev/null", h, NULL, MS_BIND, NULL) != 0)
                return fail(why, len, "hide", h);
        }
    }
    /* Fresh, empty temporary folders: nothing from other runs or other
     * submissions, nothing that outlives this run. */
    const char *tmps[] = { "/tmp", "/var/tmp", "/dev/shm", "/run/lock", NULL };
    for (int i = 0; tmps[i]; i++)
        if (mount_fresh_tmp(tmps[i], why, len) != 0)
            return -1;
    int covered = strcmp(tmproot, "/") == 0;
    for (int i = 0; tmps[i]; i++)
        if (is_under(tmproot, tmps[i]))
            covered = 1;
    if (!covered && mount_fresh_tmp(tmproot, why, len) != 0)
        return -1;
    /* ... and in it, at the same path, the submission's own work directory. */
    if (make_dirs(workdir) != 0)
        return fail(why, len, "recreate", workdir);
    char *from = xasprintf("/proc/self/fd/%d", keep);
    if (mount(from, workdir, NULL, MS_BIND, NULL) != 0)
        return fail(why, len, "bind", workdir);
    free(from);
    close(keep);
    /* Writable: the run directory, and files the grader named in the
     * environment (the emulator's log); the rest of the work directory (the
     * program, earlier runs) is read-only, so nothing carries over. */
    if (mount(real_cwd, real_cwd, NULL, MS_BIND, NULL) != 0)
        return fail(why, len, "bind", real_cwd);
    for (int i = 0; env_add && env_add[i]; i++) {
        const char *path = strchr(env_add[i], '=');
        if (!path || path[1] != '/' || !is_under(path + 1, workdir) || is_under(path + 1, real_cwd))
            continue;
        path++;
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd < 0 || fchown(fd, run_uid, SANDBOX_GID) != 0)
            return fail(why, len, "create", path);
        close(fd);
        if (mount(path, path, NULL, MS_BIND, NULL) != 0)
            return fail(why, len, "bind", path);
    }
    if (mount(NULL, workdir, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
        return fail(why, len, "make read-only", workdir);
    /* /proc for this pid namespace: the run sees only its own processes. */
    if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL) != 0)
        return fail(why, len, "mount", "/proc");
    if (chdir(real_cwd) != 0)
        return fail(why, len, "enter", real_cwd);
    free(workdir);
    free(tmproot);
    return 0;
}

int sandbox_drop(double timeout_s, char *why, int len)
{
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1)
        ncpu = 1;
    /* Processes and threads of this run's own user: enough for CUDA's and
     * the emulator's threads, not for a fork bomb to hurt the machine. */
    rlim_t nproc = (rlim_t)(ncpu * 8 + 256);
    struct rlimit rl = { nproc, nproc };
    if (setrlimit(RLIMIT_NPROC, &rl) != 0)
        return fail(why, len, "limit", "processes");
    /* CPU seconds per process: the wall limit on every core, and a margin,
     * so a process that escaped the wall clock still stops. */
    rlim_t cpu = (rlim_t)(timeout_s * (double)ncpu) + 10;
    struct rlimit cl = { cpu, cpu + 5 };
    if (setrlimit(RLIMIT_CPU, &cl) != 0)
        return fail(why, len, "limit", "CPU time");
    if (setgroups(0, NULL) != 0 || setgid(SANDBOX_GID) != 0 || setuid(run_uid) != 0)
        return fail(why, len, "become", "the run's own user");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return fail(why, len, "set", "no_new_privs");
    return 0;
}
