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
#ifdef __linux__ /* elsewhere: sandbox_none.c, no isolation */
#include "sandbox.h"
#include "cgroup.h"
#include "kit.h"
#include "util.h"
#include "writable_dirs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SANDBOX_GID 65534 /* nogroup */
/* The uid mode's users: 200000 + a work folder's inode (uid_of_workdir). */
#define UID_MODE_FIRST_UID 200000u
#if defined(__x86_64__)
#define SECCOMP_AUDIT_ARCH AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define SECCOMP_AUDIT_ARCH AUDIT_ARCH_AARCH64
#endif
#define KEYCTL_JOIN_SESSION_KEYRING 1 /* <linux/keyctl.h> */
#define NVIDIA_PERSISTENCED_DIR "/run/nvidia-persistenced"
/* Each temporary folder of a run or build (/tmp, /var/tmp, /dev/shm). */
#define SANDBOX_TMP_SIZE "256m"
/* All a run may leave in its own folder (outputs, logs, anything else): the
 * largest a lab writes is a benchmark's six 4096x4096 outputs, 400 MB. */
#define SANDBOX_RUN_DIR_SIZE "1g"
/* Mount option of every tmpfs a run or build can write, beside its size:
 * a number of files, so that neither bytes nor a million empty files (the
 * kernel's memory for their inodes) hurt the machine. */
#define TMPFS_INODES "nr_inodes=16384"
/* A build's address space: cicc, ptxas and g++ on a lab file need well under 1 GiB. */
#define SANDBOX_BUILD_MEMORY ((rlim_t)4 << 30)

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
/* An ordinary user's sandbox: the grader has entered a user namespace of
 * its own (enter_user_namespace), where it may make the other namespaces
 * and mounts; runs keep its user id, with no capabilities. */
static int in_user_namespace;
/* Root where namespaces and mounts are refused (a container): runs have
 * a user of their own and nothing else (see "the uid mode" below). */
static int uid_mode;
static int run_dir_limits; /* run folders are size-limited tmpfs mounts (sandbox_limit_run_dir) */
static char mode[400] = "none (not requested)";
static char **hidden;
static int nhidden;

int sandbox_active(void) { return active; }
const char *sandbox_mode(void) { return mode; }
/* In a user namespace, each run gets one more of its own, a child of the
 * grader's: RLIMIT_NPROC is counted per user namespace and user (Linux
 * 5.14 on), so a run's fork bomb fills its own count, not the builds' and
 * runs' beside it, which all have the grader's user. */
int sandbox_clone_flags(void)
{
    sandbox_check_hidden(); /* in the parent, before any run of the uid mode */
    return active && !uid_mode ? NS_FLAGS | (in_user_namespace ? CLONE_NEWUSER : 0) : 0;
}

static void uid_mode_check_private(const char *path);

void sandbox_hide(const char *path)
{
    char real[4096];
    const char *p = realpath(path, real) ? real : path;
    if (strcmp(p, "/") == 0)
        return;
    if (uid_mode)
        uid_mode_check_private(p);
    for (int i = 0; i < nhidden; i++)
        if (strcmp(hidden[i], p) == 0)
            return;
    hidden = xrealloc(hidden, (size_t)(nhidden + 1) * sizeof *hidden);
    hidden[nhidden++] = xstrdup(p);
}

/* Writes text to a file of /proc/self; 0 or -1 with errno. */
static int write_proc_self(const char *name, const char *text)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/self/%s", name);
    return write_control_file(path, text);
}

/* Not root: the grader enters a user namespace of its own, mapping only its
 * own user and group to themselves, which lets it make the other namespaces
 * and mounts for its runs, as root does, with rights over nothing of the
 * machine that it did not have. */
static uid_t own_uid;
static gid_t own_gid;

/* Maps the grader's user and group, and nothing else, into the user
 * namespace this process has just entered or been made in. */
static int map_own_user(void)
{
    char map[64];
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)own_uid, (unsigned)own_uid);
    if (write_proc_self("uid_map", map) != 0)
        return -1;
    if (write_proc_self("setgroups", "deny") != 0 && errno != ENOENT)
        return -1;
    snprintf(map, sizeof map, "%u %u 1\n", (unsigned)own_gid, (unsigned)own_gid);
    return write_proc_self("gid_map", map);
}

/* Whether a seccomp filter is on this process (/proc/self/status
 * "Seccomp: 2"): a container's, which refuses what the machine allows. */
static int under_seccomp_filter(void)
{
    char *status = read_file("/proc/self/status", NULL);
    const char *at = status ? strstr(status, "\nSeccomp:") : NULL;
    int filtered = at && atoi(at + 9) == 2;
    free(status);
    return filtered;
}

/* Whether the machine's settings allow user namespaces (those of them that
 * exist here: user.max_user_namespaces, Debian's unprivileged_userns_clone). */
static int user_namespaces_allowed(void)
{
    char *max = read_file("/proc/sys/user/max_user_namespaces", NULL);
    char *clone = read_file("/proc/sys/kernel/unprivileged_userns_clone", NULL);
    int allowed = (!max || atoi(max) > 0) && (!clone || atoi(clone) != 0);
    free(max);
    free(clone);
    return allowed;
}

static int enter_user_namespace(char *why, size_t len)
{
    own_uid = geteuid();
    own_gid = getegid();
    if (unshare(CLONE_NEWUSER) != 0) {
        int e = errno;
        if (e == EPERM && under_seccomp_filter() && user_namespaces_allowed())
            snprintf(why, len,
                     "not root, and a seccomp filter on this process (a container's) refuses user namespaces "
                     "(%s), though the machine allows them: run the container with one that allows unshare "
                     "(docker run --security-opt seccomp=unconfined), or grade as root in it", strerror(e));
        else
            snprintf(why, len,
                     "not root, and this machine refuses user namespaces (%s): enable them "
                     "(sysctl kernel.unprivileged_userns_clone=1 or user.max_user_namespaces > 0; on Ubuntu 24.04 "
                     "an AppArmor profile that allows them, as the bubblewrap package installs), or grade as root",
                     strerror(e));
        return -1;
    }
    if (map_own_user() != 0) {
        snprintf(why, len, "cannot map this user into a user namespace: %s", strerror(errno));
        return -1;
    }
    in_user_namespace = 1;
    return 0;
}

/* Whether this machine lets us make the namespaces and mounts a run needs. */
static int probe(char *why, size_t len)
{
    if (geteuid() != 0 && !in_user_namespace && enter_user_namespace(why, len) != 0)
        return -1;
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

/* The grader's own mount namespace: the run folders' size-limited mounts
 * are its alone, invisible to the machine, and all go when the grader ends,
 * however it ends (an error, a kill). */
static void private_mounts(int keep_files)
{
    if (keep_files) {
        fprintf(stderr, "gpulab: --keep: run folders are not size-limited, so that they outlive the grader\n");
        return;
    }
    if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        die("sandbox: cannot give the grader a mount namespace of its own: %s", strerror(errno));
    run_dir_limits = 1;
}

static void uid_mode_init(const char *why_not_namespaces);

/* Whether this root can become the users the uid mode gives submissions: a
 * root inside a user namespace that maps no other user (unshare -r, a
 * rootless container) cannot, and would fail at the first build. 1, or 0
 * with why. */
static int users_of_its_own(char *why, int len)
{
    pid_t pid = fork();
    if (pid == 0)
        _exit(setgid(SANDBOX_GID) == 0 && setuid(UID_MODE_FIRST_UID) == 0 ? 0 : 1);
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        snprintf(why, (size_t)len, "root here cannot become another user (a user namespace that maps only "
                                   "root?), which the uid mode needs");
        return 0;
    }
    return 1;
}

void sandbox_init(const char *requested, int keep_files)
{
    if (!requested)
        requested = "auto";
    if (sandbox_refused(requested, mode, sizeof mode)) {
        active = 0;
        return;
    }
    /* The work folders are read by the builds' and runs' own users (the
     * kit's copies, emucc, the inputs): made with the usual modes whatever
     * the instructor's umask (under 077 every build was a compile_error).
     * What the grader writes for the instructor has modes of its own,
     * whatever the umask: records, exports, seeds 0600, their folders 0700
     * (write_private_file, make_private_dirs). */
    umask(022);
    char why[320];
    /* A root that cannot become other users (inside a user namespace that
     * maps only it: unshare -r, a rootless container) grades as an ordinary
     * user does, in a user namespace of its own. */
    if (geteuid() == 0 && !in_user_namespace && strcmp(requested, "uid") != 0 && !users_of_its_own(why, sizeof why))
        enter_user_namespace(why, sizeof why);
    int namespaces = strcmp(requested, "uid") != 0 && probe(why, sizeof why) == 0;
    if (namespaces) {
        active = 1;
        snprintf(mode, sizeof mode, in_user_namespace ? "userns" : "unshare");
        if (!in_user_namespace)
            cgroup_init();
        /* A run's root holds only the machine's software and its own work
         * directory; the kit is hidden too in case it lives among that
         * software (/usr/local/...). */
        sandbox_hide(kit_root());
        private_mounts(keep_files);
        return;
    }
    /* Root in a container that refuses namespaces: a user of its own per
     * submission is the isolation left (--sandbox auto, or uid). */
    if (geteuid() == 0 && !in_user_namespace && strcmp(requested, "unshare") != 0 &&
        users_of_its_own(why, sizeof why)) {
        uid_mode_init(strcmp(requested, "uid") == 0 ? "--sandbox uid" : why);
        return;
    }
    if (strcmp(requested, "uid") == 0)
        snprintf(why, sizeof why, "--sandbox uid needs root, to give each submission a user of its own");
    /* No isolation, no grade: a submission run without it can read the
     * answers and rewrite the class's records after the grader has gone. */
    fprintf(stderr,
            "gpulab: cannot isolate submissions on this machine (%s).\n"
            "gpulab: grading runs them in Linux namespaces (as root, or as any user where user namespaces are\n"
            "gpulab: allowed), or as root under a user of their own (--sandbox uid); fix the above, or pass\n"
            "gpulab: --sandbox none to grade without isolation (only for code you trust; every output will say so)\n",
            why);
    exit(SANDBOX_UNAVAILABLE_EXIT);
}

void sandbox_limit_run_dir(const char *dir)
{
    if (!run_dir_limits)
        return;
    if (mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, "size=" SANDBOX_RUN_DIR_SIZE "," TMPFS_INODES ",mode=755") != 0)
        die("cannot mount a size-limited folder on %s: %s", dir, strerror(errno));
}

/* A mount point from /proc/self/mountinfo, whose spaces and the like are
 * octal escapes ("\040"). */
static void unescape_mount_point(char *s)
{
    char *w = s;
    for (const char *r = s; *r; r++) {
        if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' && r[3] >= '0' && r[3] <= '7') {
            *w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
            r += 3;
        } else {
            *w++ = *r;
        }
    }
    *w = '\0';
}

static int is_under(const char *path, const char *dir);

/* The mount points at or under dir (a real path), oldest first, from
 * /proc/self/mountinfo; *n says how many. */
static char **mounts_under(const char *dir, int *n)
{
    FILE *f = fopen("/proc/self/mountinfo", "r");
    if (!f)
        die("cannot read /proc/self/mountinfo: %s", strerror(errno));
    char **points = NULL;
    *n = 0;
    char line[8192];
    while (fgets(line, sizeof line, f)) {
        char point[4096];
        /* ID PARENT MAJOR:MINOR ROOT MOUNT_POINT ... */
        if (sscanf(line, "%*s %*s %*s %*s %4095s", point) != 1)
            continue;
        unescape_mount_point(point);
        if (is_under(point, dir)) {
            points = xrealloc(points, (size_t)(*n + 1) * sizeof *points);
            points[(*n)++] = xstrdup(point);
        }
    }
    fclose(f);
    return points;
}

void sandbox_release(const char *dir)
{
    if (!run_dir_limits)
        return;
    char real[4096];
    if (!realpath(dir, real))
        return; /* already gone */
    int n;
    char **points = mounts_under(real, &n);
    /* the newest first: a folder mounted over twice comes free in two steps */
    for (int i = n - 1; i >= 0; i--) {
        if (umount2(points[i], MNT_DETACH) != 0 && errno != EINVAL && errno != ENOENT)
            die("cannot unmount %s: %s", points[i], strerror(errno));
        free(points[i]);
    }
    free(points);
}

void remove_work_dir(const char *dir)
{
    sandbox_release(dir);
    if (remove_tree(dir) != 0)
        fprintf(stderr, "gpulab: warning: could not remove %s: %s\n", dir, strerror(errno));
}

/* ---- the uid mode ------------------------------------------------------------
 *
 * Root where the machine refuses namespaces and mounts (a container under
 * Docker's default seccomp profile, as Gradescope's autograder). What is
 * left is the kernel's oldest isolation, users:
 *   - every build and run of one work directory has a user of its own
 *     (uid_of_workdir; no groups but nogroup), a different one from every
 *     other submission's and checker's, and its process limit;
 *   - the work directory stays root's (0711: passable, not listable), and
 *     each build or run folder becomes that user's, 0700, so no other
 *     submission's user can enter it;
 *   - what the grader keeps (sandbox_hide: the kit's answers, the class,
 *     the records, the secret, the hidden datasets) must be out of other
 *     users' reach, which is checked when it is named: the grader refuses
 *     to start rather than grade beside a readable answer key;
 *   - the network and System V IPC are refused by a seccomp filter
 *     (sandbox_filter);
 *   - when a run ends, every process of its user is killed and the files
 *     it left in the machine's shared temporary folders are removed;
 *   - the other modes' tmpfs limits on sizes and files are kept by looking
 *     while a run goes on (sandbox_run_over_limits), not by mounts: a run
 *     over them is stopped ("the program was stopped: ...").
 * Not had: a root of its own (the machine's world-readable files are
 * visible), a pid namespace and hidepid; the folders' limits are met a
 * tenth of a second late (what a run writes meanwhile). */

static int fail(char *why, int len, const char *what, const char *path);
static char *parent_of(const char *path);
static void find_writable_dirs(void);

static void uid_mode_init(const char *why_not_namespaces)
{
    active = 1;
    uid_mode = 1;
    cgroup_init();
    snprintf(mode, sizeof mode, "uid");
    fprintf(stderr, "gpulab: no namespaces here (%s): each submission is built and run as a user of its own "
                    "(--sandbox uid)\n", why_not_namespaces);
    /* the kit's answer keys and the datasets' expected outputs; the rest of
     * the kit is what students have */
    const char *const secret_parts[] = { "solutions", "docs/instructor", "datasets", NULL };
    for (int i = 0; secret_parts[i]; i++) {
        char *p = kit_path("%s", secret_parts[i]);
        sandbox_hide(p);
        free(p);
    }
    find_writable_dirs();
}

int sandbox_uid_mode(void) { return uid_mode; }

/* Whether a user that neither owns path nor is in its group can reach it:
 * NULL if some folder on the way, or path itself, is closed to others (a
 * folder not searchable, a file not readable) or the path does not exist;
 * else the path (malloc'd). A folder that others may search but not list
 * counts as open: the kit's answers have names anyone can guess. */
static char *open_to_others(const char *path)
{
    char *prefix = xstrdup(path);
    char *opened = NULL;
    for (char *slash = prefix;; slash = strchr(slash + 1, '/')) {
        char saved = slash ? *slash : '\0';
        if (slash && slash != prefix)
            *slash = '\0';
        const char *now = slash == prefix ? "/" : prefix;
        struct stat st;
        int closed = stat(now, &st) != 0 ||
                     (S_ISDIR(st.st_mode) ? !(st.st_mode & S_IXOTH) : !(st.st_mode & S_IROTH));
        if (closed) {
            free(opened);
            opened = NULL;
            break;
        }
        if (!slash || saved == '\0') {
            opened = xstrdup(now);
            break;
        }
        *slash = saved;
    }
    free(prefix);
    return opened;
}

/* The hidden paths other users can read, said together by
 * sandbox_check_hidden: one refused run names them all. */
static char **open_paths;
static int nopen;

static void uid_mode_check_private(const char *path)
{
    char *open = open_to_others(path);
    if (!open)
        return;
    free(open);
    for (int i = 0; i < nopen; i++)
        if (strcmp(open_paths[i], path) == 0)
            return;
    open_paths = xrealloc(open_paths, (size_t)(nopen + 1) * sizeof *open_paths);
    open_paths[nopen++] = xstrdup(path);
}

void sandbox_check_hidden(void)
{
    if (nopen == 0)
        return;
    fprintf(stderr, "gpulab: --sandbox uid: other users can read %s, so a submission could read %s; close %s "
                    "first:\n", nopen == 1 ? "this" : "these", nopen == 1 ? "it" : "them", nopen == 1 ? "it" : "them");
    for (int i = 0; i < nopen; i++)
        fprintf(stderr, "  %s\n", open_paths[i]);
    fputs("gpulab: for example chmod o-rwx", stderr);
    for (int i = 0; i < nopen; i++)
        fprintf(stderr, " '%s'", open_paths[i]);
    fputs("\ngpulab: or give the grader namespaces (in a container: a seccomp profile that allows unshare and "
          "mount, such as docker run --security-opt seccomp=unconfined)\n", stderr);
    exit(SANDBOX_UNAVAILABLE_EXIT);
}

/* The user of a work directory's builds and runs: one per work directory
 * that exists at once (its inode number), never an account's. */
static uid_t uid_of_workdir(const char *workdir)
{
    struct stat st;
    if (stat(workdir, &st) != 0)
        return (uid_t)65534;
    return (uid_t)(UID_MODE_FIRST_UID + (unsigned long)(st.st_ino % 1000000000ul));
}

/* In the run's first process: the run's folder becomes its user's alone. */
static int uid_mode_enter(const char *real_cwd, const char *workdir, char *why, int len)
{
    run_uid = uid_of_workdir(workdir);
    if (chmod(workdir, 0711) != 0 || chown(real_cwd, run_uid, SANDBOX_GID) != 0 || chmod(real_cwd, 0700) != 0)
        return fail(why, len, "hand over", real_cwd);
    if (chdir(real_cwd) != 0)
        return fail(why, len, "enter", real_cwd);
    return 0;
}

/* The seccomp filter every build and run gets (sandbox_filter), in every
 * mode:
 *   - the kernel's key calls (keyctl, add_key, request_key): in the userns
 *     mode a run keeps the grader's user id, and with it the user keyring
 *     of the instructor or TA (tokens, tickets), which a fresh session
 *     keyring does not hide;
 *   - io_uring, whose requests make sockets and open files without the
 *     system calls the rest of the filter looks at, and x86-64's x32
 *     numbers, which would name the same calls under other numbers;
 * and in the uid mode, which has no IPC or network namespace:
 *   - System V IPC (shared memory, semaphores, message queues): its objects
 *     outlive the process that made them, under no limit, a channel from
 *     one run to the next;
 *   - sockets of any family but AF_UNIX (the GPU driver's persistence
 *     daemon): no network. */
#define FILTER_MAX 64
typedef struct {
    struct sock_filter op[FILTER_MAX];
    int n;
} seccomp_program;

static void filter_op(seccomp_program *p, struct sock_filter op)
{
    if (p->n >= FILTER_MAX)
        die("sandbox: the seccomp filter outgrew FILTER_MAX");
    p->op[p->n++] = op;
}

/* The system call nr answers errno instead of running. */
static void filter_refuse(seccomp_program *p, long nr, int err)
{
    filter_op(p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (unsigned)nr, 0, 1));
    filter_op(p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err));
}

static const long key_calls[] = { __NR_keyctl, __NR_add_key, __NR_request_key };
static const long sysv_ipc_calls[] = { __NR_shmget, __NR_shmat,  __NR_shmdt,  __NR_shmctl,     __NR_semget,
                                       __NR_semop,  __NR_semctl, __NR_msgget, __NR_msgsnd,     __NR_msgrcv,
                                       __NR_msgctl, __NR_semtimedop };

static int sandbox_filter(char *why, int len)
{
    seccomp_program p = { .n = 0 };
    filter_op(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)));
    filter_op(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_AUDIT_ARCH, 1, 0));
    filter_op(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    filter_op(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)));
    filter_op(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1)); /* __X32_SYSCALL_BIT */
    filter_op(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ENOSYS));
    filter_refuse(&p, __NR_io_uring_setup, ENOSYS);
    for (size_t i = 0; i < sizeof key_calls / sizeof key_calls[0]; i++)
        filter_refuse(&p, key_calls[i], ENOSYS);
    if (uid_mode) {
        for (size_t i = 0; i < sizeof sysv_ipc_calls / sizeof sysv_ipc_calls[0]; i++)
            filter_refuse(&p, sysv_ipc_calls[i], ENOSYS);
        filter_op(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 4)); /* to the last ALLOW */
        filter_op(&p, (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])));
        filter_op(&p, (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_UNIX, 0, 1));
        filter_op(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
        filter_op(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES));
    }
    filter_op(&p, (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    struct sock_fprog prog = { (unsigned short)p.n, p.op };
    if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
        return fail(why, len, "install", "the seccomp filter");
    return 0;
}

#define UID_MODE_DEPTH 32 /* see add_usage */

/* A folder of another user's where a run's user can make entries: one
 * others may write and enter (the run's user has no group but nogroup), as
 * a course's /tmp/scratch at 1777, and the folders of that kind below it.
 * Only those are looked into: walking every folder others may enter (a
 * kit's copy in /tmp, other programs' trees) ten times a second took an
 * attack batch past 15 minutes. Not the run's own work directory (own, in
 * /tmp too): what is there is measured on its own and removed with it. */
static int reachable_folder(const struct stat *st, const struct stat *own)
{
    return S_ISDIR(st->st_mode) && (st->st_mode & S_IWOTH) && (st->st_mode & S_IXOTH) &&
           !(st->st_dev == own->st_dev && st->st_ino == own->st_ino);
}

/* Removes dirfd's entry name, which the run's user owns, with everything
 * below it, at any depth and without following links, holding one
 * descriptor at a time (a run may nest folders deeper than descriptors or
 * a path allow): down to a folder with no folder in it, its other entries
 * removed, then up through "..", where the folder just emptied (found by
 * its inode) is removed. The run's processes are gone: nothing moves the
 * tree meanwhile. Stops where an entry cannot be removed. */
static void remove_owned_tree(int dirfd, const char *name)
{
    int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        unlinkat(dirfd, name, 0); /* a file, a link, a FIFO */
        return;
    }
    long depth = 0;
    while (fd >= 0) {
        int listed = dup(fd);
        DIR *d = listed >= 0 ? fdopendir(listed) : NULL;
        if (!d) {
            if (listed >= 0)
                close(listed);
            break;
        }
        char sub[256] = "";
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            struct stat st;
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
                fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
                continue;
            if (!S_ISDIR(st.st_mode))
                unlinkat(fd, e->d_name, 0);
            else if (!*sub && strlen(e->d_name) < sizeof sub)
                strcpy(sub, e->d_name);
        }
        closedir(d);
        if (*sub) { /* down */
            int child = openat(fd, sub, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (child < 0)
                break;
            close(fd);
            fd = child;
            depth++;
            continue;
        }
        if (depth == 0) { /* the top: emptied */
            close(fd);
            unlinkat(dirfd, name, AT_REMOVEDIR);
            return;
        }
        struct stat here; /* up, and the emptied folder removed */
        int up = fstat(fd, &here) == 0 ? openat(fd, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        close(fd);
        fd = -1;
        int removed = 0;
        int listed_up = up >= 0 ? dup(up) : -1;
        DIR *u = listed_up >= 0 ? fdopendir(listed_up) : NULL;
        while (u && !removed && (e = readdir(u)) != NULL) {
            struct stat st;
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
                fstatat(up, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && st.st_dev == here.st_dev &&
                st.st_ino == here.st_ino)
                removed = unlinkat(up, e->d_name, AT_REMOVEDIR) == 0;
        }
        if (u)
            closedir(u);
        else if (listed_up >= 0)
            close(listed_up);
        if (!removed) {
            if (up >= 0)
                close(up);
            return;
        }
        fd = up;
        depth--;
    }
    if (fd >= 0)
        close(fd);
}

/* Removes, under the folder dirfd (taken and closed), every entry the
 * run's user owns, at any depth below it, not following links: in every
 * folder of another user's that others may enter (a course's /tmp/course
 * at 0755 may hold a scratch folder at 1777, where a run can write, as
 * /tmp itself), to UID_MODE_DEPTH of those folders. Once, when a run has
 * ended: the measuring while it runs looks only into folders anyone may
 * write (reachable_folder). Not the run's own work directory (own): it
 * goes with the work directory. */
static void remove_owned_by(int dirfd, uid_t uid, const struct stat *own, int depth)
{
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (st.st_uid == uid) {
            remove_owned_tree(dirfd, e->d_name);
        } else if (S_ISDIR(st.st_mode) && (st.st_mode & S_IXOTH) && depth < UID_MODE_DEPTH &&
                   !(st.st_dev == own->st_dev && st.st_ino == own->st_ino)) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                remove_owned_by(sub, uid, own, depth + 1);
        }
    }
    closedir(d);
}

/* The machine's folders every user may write (in the uid mode a run sees
 * them as they are): what a run's user leaves there is measured while it
 * runs (sandbox_run_over_limits) and removed when it ends. */
static const char *const uid_mode_shared_dirs[] = { "/tmp", "/var/tmp", "/dev/shm", "/run/lock", NULL };

/* Every folder below them a run's user could write, wherever it is (a
 * course's /tmp/course/scratch at 1777 behind /tmp/course at 0755, which
 * the measuring walk through folders anyone may write passes by), found
 * before the batch's runs, and again while they go on (writable_dirs_refresh),
 * and measured with them: a run filled one with 400 MB past the 256 MB
 * limit, unmeasured until the sweep at its end. */
static void find_writable_dirs(void)
{
    writable_dirs_find(uid_mode_shared_dirs, SANDBOX_GID, UID_MODE_DEPTH);
}

void sandbox_run_ended(const char *cwd)
{
    if (!uid_mode || !cwd)
        return;
    char real_cwd[4096];
    if (!realpath(cwd, real_cwd))
        return;
    char *workdir = parent_of(real_cwd);
    uid_t uid = uid_of_workdir(workdir);
    struct stat own;
    int have_own = stat(workdir, &own) == 0;
    free(workdir);
    if (!have_own)
        return;
    /* every process of the run's user, wherever it went: a process with
     * that user signals all of its user's with kill(-1) */
    pid_t killer = fork();
    if (killer == 0) {
        if (setgid(SANDBOX_GID) == 0 && setuid(uid) == 0)
            kill(-1, SIGKILL);
        _exit(0);
    }
    if (killer > 0)
        while (waitpid(killer, NULL, 0) < 0 && errno == EINTR)
            ;
    for (int i = 0; uid_mode_shared_dirs[i]; i++) {
        int fd = open(uid_mode_shared_dirs[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd >= 0)
            remove_owned_by(fd, uid, &own, 0);
    }
    /* and the folders it could write that others may not enter (a group's,
     * 0770), which the sweep through folders others may enter passes by */
    for (int i = 0; i < writable_dirs_count(); i++) {
        int fd = writable_dirs_open(i);
        if (fd >= 0)
            remove_owned_by(fd, uid, &own, 0);
    }
}

/* ---- the uid mode's folder limits, applied by looking ---------------------- */

/* The namespaced modes' tmpfs limits (SANDBOX_RUN_DIR_SIZE, SANDBOX_TMP_SIZE,
 * TMPFS_INODES), which the uid mode, with no mounts of its own, applies by
 * measuring while the run goes on (sandbox_run_over_limits): its folder,
 * and what its user keeps in /tmp, /var/tmp and /dev/shm together. */
#define UID_MODE_RUN_DIR_BYTES (1ULL << 30)
#define UID_MODE_TMP_BYTES (256ULL << 20)
#define UID_MODE_FILES 16384ULL
/* Folders deeper than UID_MODE_DEPTH are not looked into (each level holds
 * a descriptor while its children are counted): a run that nests folders
 * deeper is over its limits, or it could hide what it writes below them. */

typedef struct {
    unsigned long long bytes, files;
    int too_deep;   /* a folder below UID_MODE_DEPTH levels */
} disk_usage;

/* Adds what the folder dirfd holds to u (dirfd is taken and closed), not
 * following links; with owner other than (uid_t)-1, only the entries of
 * that user, at any depth (everything below one of them counts; another
 * user's folder is looked into for that user's entries: a folder anyone
 * may write). Stops counting a little past the files' limit: an
 * attacker's million files cost one look. */
static void add_usage(int dirfd, uid_t owner, const struct stat *own, disk_usage *u, int depth)
{
    DIR *d = fdopendir(dirfd);
    if (!d) {
        close(dirfd);
        return;
    }
    struct dirent *e;
    while (u->files <= UID_MODE_FILES && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        struct stat st;
        if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            continue;
        if (owner != (uid_t)-1 && st.st_uid != owner) {
            int sub = reachable_folder(&st, own) && depth < UID_MODE_DEPTH
                          ? openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                          : -1;
            if (sub >= 0)
                add_usage(sub, owner, own, u, depth + 1);
            continue;
        }
        u->files++;
        u->bytes += (unsigned long long)st.st_blocks * 512; /* what it takes: a sparse file's holes are free */
        if (S_ISDIR(st.st_mode) && depth >= UID_MODE_DEPTH) {
            u->too_deep = 1;
        } else if (S_ISDIR(st.st_mode)) {
            int sub = openat(dirfd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0)
                add_usage(sub, (uid_t)-1, own, u, depth + 1);
        }
    }
    closedir(d);
}

static void add_usage_of(const char *dir, uid_t owner, const struct stat *own, disk_usage *u)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd >= 0)
        add_usage(fd, owner, own, u, 0);
}

int sandbox_run_over_limits(const char *cwd, char *why, int len)
{
    char real_cwd[4096];
    if (!uid_mode || !cwd || !realpath(cwd, real_cwd))
        return 0;
    char *workdir = parent_of(real_cwd);
    uid_t uid = uid_of_workdir(workdir);
    struct stat own;
    if (stat(workdir, &own) != 0) {
        free(workdir);
        return 0;
    }
    disk_usage run = { 0, 0, 0 }, shared = { 0, 0, 0 };
    /* all the run's user has under the work directory, not only the run's
     * folder: its build folder and the other runs' folders are that user's
     * too, and as writable to it */
    add_usage_of(workdir, uid, &own, &run);
    free(workdir);
    writable_dirs_refresh(); /* a folder made since the last walk */
    for (int i = 0; uid_mode_shared_dirs[i]; i++)
        add_usage_of(uid_mode_shared_dirs[i], uid, &own, &shared);
    for (int i = 0; i < writable_dirs_count(); i++) {
        int fd = writable_dirs_open(i);
        if (fd >= 0)
            add_usage(fd, uid, &own, &shared, 0);
    }
    if (run.too_deep || shared.too_deep) {
        snprintf(why, (size_t)len, "its folders nest more than %d deep, past what the grader measures",
                 UID_MODE_DEPTH);
        return 1;
    }
    if (run.bytes > UID_MODE_RUN_DIR_BYTES || run.files > UID_MODE_FILES) {
        snprintf(why, (size_t)len, "its folder held more than %llu MB or %llu files, a run's limit",
                 UID_MODE_RUN_DIR_BYTES >> 20, UID_MODE_FILES);
        return 1;
    }
    if (shared.bytes > UID_MODE_TMP_BYTES || shared.files > UID_MODE_FILES) {
        snprintf(why, (size_t)len, "it kept more than %llu MB or %llu files in /tmp, /var/tmp, /dev/shm and "
                 "/run/lock, a run's limit", UID_MODE_TMP_BYTES >> 20, UID_MODE_FILES);
        return 1;
    }
    return 0;
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

static int mount_fresh_tmp(const char *dir, const char *size, char *why, int len)
{
    if (make_dirs(dir) != 0)
        return fail(why, len, "create", dir);
    char *opts = xasprintf("size=%s," TMPFS_INODES ",mode=1777", size);
    int rc = mount("tmpfs", dir, "tmpfs", MS_NOSUID | MS_NODEV, opts);
    free(opts);
    return rc == 0 ? 0 : fail(why, len, "mount a fresh tmpfs on", dir);
}

/* Where the run's root is built, in this mount namespace only. */
#define NEW_ROOT "/tmp"

/* A path inside the new root. */
static char *in_root(const char *path)
{
    return xasprintf(NEW_ROOT "%s", path);
}

/* The flags of the mount a path is on that a remount must keep: in a user
 * namespace the kernel refuses one that would drop them (nodev, noexec,
 * the atime rules of /sys or /proc, say). */
static unsigned long locked_flags(const char *path)
{
    struct statvfs v;
    if (statvfs(path, &v) != 0)
        return 0;
    unsigned long f = 0;
    if (v.f_flag & ST_NODEV)
        f |= MS_NODEV;
    if (v.f_flag & ST_NOEXEC)
        f |= MS_NOEXEC;
    if (v.f_flag & ST_NOATIME)
        f |= MS_NOATIME;
    if (v.f_flag & ST_NODIRATIME)
        f |= MS_NODIRATIME;
    if (v.f_flag & ST_RELATIME)
        f |= MS_RELATIME;
    return f;
}

#ifndef __NR_mount_setattr
#define __NR_mount_setattr 442 /* the same number on every architecture */
#endif
#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

/* Every mount under a folder just bound with MS_REC, read-only too: a bind
 * remount changes the top mount alone, and under /sys lie the control
 * groups' files (/sys/fs/cgroup), which in the userns mode belong to the
 * grader's user: a run could freeze or kill the TA's own processes. One
 * mount_setattr(AT_RECURSIVE) where the kernel has it (5.12), else a
 * remount of each mount under the folder. 0, or -1 with errno. */
static int readonly_below(const char *dir)
{
    struct {
        unsigned long long attr_set, attr_clr, propagation, userns_fd;
    } attr = { MOUNT_ATTR_RDONLY, 0, 0, 0 };
    if (syscall(__NR_mount_setattr, AT_FDCWD, dir, AT_RECURSIVE, &attr, sizeof attr) == 0)
        return 0;
    if (errno != ENOSYS)
        return -1;
    int n, rc = 0;
    char **points = mounts_under(dir, &n);
    for (int i = 0; i < n; i++) {
        if (rc == 0 && mount(NULL, points[i], NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID |
                             locked_flags(points[i]), NULL) != 0)
            rc = -1;
        free(points[i]);
    }
    free(points);
    return rc;
}

/* Binds a path of the machine read-only at the same place in the new root:
 * a folder (and the mounts under it) or a file; a symbolic link (/bin ->
 * usr/bin on merged-/usr systems) is recreated as a link. A path the machine
 * lacks is skipped. */
static int bind_readonly(const char *path, char *why, int len)
{
    struct stat st;
    if (lstat(path, &st) != 0)
        return 0;
    char *to = in_root(path);
    int rc = 0;
    char *parent = parent_of(to);
    if (make_dirs(parent) != 0) {
        rc = fail(why, len, "create", parent);
    } else if (S_ISLNK(st.st_mode)) {
        char target[4096];
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n < 0)
            rc = fail(why, len, "read the link", path);
        else {
            target[n] = '\0';
            if (symlink(target, to) != 0 && errno != EEXIST)
                rc = fail(why, len, "recreate the link", path);
        }
    } else {
        if (S_ISDIR(st.st_mode) ? make_dirs(to) != 0 : close(open(to, O_WRONLY | O_CREAT | O_CLOEXEC, 0644)) != 0)
            rc = fail(why, len, "create", to);
        else if (mount(path, to, NULL, MS_BIND | MS_REC, NULL) != 0)
            rc = fail(why, len, "bind", path);
        else if (mount(NULL, to, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | locked_flags(path), NULL) != 0)
            rc = fail(why, len, "make read-only", to);
        else if (S_ISDIR(st.st_mode) && readonly_below(to) != 0)
            rc = fail(why, len, "make read-only the mounts under", to);
    }
    free(parent);
    free(to);
    return rc;
}

/* The machine's own software, read-only: programs, libraries, the CUDA
 * toolkit (/usr/local/cuda), configuration. Nothing else of the machine is
 * in the run's root: not the kit, the class, the records, the homes. */
static const char *const system_paths[] = { "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                                            "/etc", "/sys", NULL };

/* The few devices a compiler needs. Without /dev/zero, `#include
 * "/dev/zero"` ends at once. */
static const char *const build_devices[] = { "/dev/null", "/dev/urandom", "/dev/random", NULL };

/* A run's devices: these, the GPU's (run_devices_gpu) and nothing else of
 * the machine's /dev. No terminal (tty, pts, console, ptmx): a run must not
 * reach the one the instructor graded from. */
static const char *const run_devices[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/urandom", "/dev/random",
                                           NULL };

/* Binds a device file of the machine at the same place in the new root,
 * writable (its own permissions decide). */
static int bind_device(const char *path, char *why, int len)
{
    char *to = in_root(path);
    int fd = open(to, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    int rc = 0;
    if (fd < 0 || close(fd) != 0)
        rc = fail(why, len, "create", to);
    else if (mount(path, to, NULL, MS_BIND, NULL) != 0)
        rc = fail(why, len, "bind", path);
    free(to);
    return rc;
}

/* The run's /dev: a small tmpfs with run_devices, the NVIDIA driver's
 * device files (/dev/nvidia*, and /dev/nvidia-caps for MIG) where the
 * machine has them, and the usual links to /proc/self/fd. */
static int make_run_devices(char *why, int len)
{
    char *dev = in_root("/dev");
    int rc = make_dirs(dev) != 0 ? fail(why, len, "create", dev)
             : mount("tmpfs", dev, "tmpfs", MS_NOSUID | MS_NOEXEC, "size=64k,nr_inodes=256,mode=755") != 0
                 ? fail(why, len, "mount a tmpfs on", dev)
                 : 0;
    free(dev);
    for (int i = 0; rc == 0 && run_devices[i]; i++) {
        struct stat st;
        if (stat(run_devices[i], &st) == 0)
            rc = bind_device(run_devices[i], why, len);
    }
    DIR *d = rc == 0 ? opendir("/dev") : NULL;
    struct dirent *e;
    while (d && rc == 0 && (e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "nvidia", 6) != 0)
            continue;
        char *path = xasprintf("/dev/%s", e->d_name);
        struct stat st;
        if (lstat(path, &st) == 0 && S_ISCHR(st.st_mode))
            rc = bind_device(path, why, len);
        else if (S_ISDIR(st.st_mode)) { /* nvidia-caps */
            char *to = in_root(path);
            if (make_dirs(to) != 0 || mount(path, to, NULL, MS_BIND | MS_REC, NULL) != 0)
                rc = fail(why, len, "bind", path);
            free(to);
        }
        free(path);
    }
    if (d)
        closedir(d);
    static const char *const links[][2] = { { "/proc/self/fd", "/dev/fd" },       { "/proc/self/fd/0", "/dev/stdin" },
                                            { "/proc/self/fd/1", "/dev/stdout" }, { "/proc/self/fd/2", "/dev/stderr" } };
    for (size_t i = 0; rc == 0 && i < sizeof links / sizeof links[0]; i++) {
        char *to = in_root(links[i][1]);
        if (symlink(links[i][0], to) != 0)
            rc = fail(why, len, "make the link", links[i][1]);
        free(to);
    }
    return rc;
}

int sandbox_enter(const char *cwd, const char *const *env_add, int for_build, char *why, int len)
{
    if (!cwd)
        return fail(why, len, "run without a working directory", "");
    char real_cwd[4096];
    if (!realpath(cwd, real_cwd))
        return fail(why, len, "resolve", cwd);
    char *workdir = parent_of(real_cwd);   /* the submission's own work directory */
    if (uid_mode) {
        int rc = uid_mode_enter(real_cwd, workdir, why, len);
        free(workdir);
        return rc;
    }
    if (in_user_namespace && map_own_user() != 0)
        return fail(why, len, "map the grader's user into", "the run's user namespace");
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0)
        return fail(why, len, "make private", "/");
    /* The program writes its output (and the emulator its log) as the run's
     * user. The work directory stays the grader's, passable but not
     * listable: several runs and builds of one submission (the checking
     * builds, the checkers) go on at once, each as a user of its own, and
     * each must reach its own folder and the programs in it. */
    if (chmod(workdir, 0711) != 0 || (!in_user_namespace && chown(real_cwd, run_uid, SANDBOX_GID) != 0))
        return fail(why, len, "hand over", real_cwd);
    int keep = open(workdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (keep < 0)
        return fail(why, len, "open", workdir);
    /* the run's folder may be a mount of its own (sandbox_limit_run_dir),
     * which binding the work directory alone does not carry */
    int keep_cwd = open(real_cwd, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (keep_cwd < 0)
        return fail(why, len, "open", real_cwd);

    /* A new, empty root: whatever is not put there, the run cannot see,
     * wherever the kit, the class or the records happen to live. */
    if (mount("tmpfs", NEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "size=1m,mode=755") != 0)
        return fail(why, len, "mount the new root on", NEW_ROOT);
    for (int i = 0; system_paths[i]; i++)
        if (bind_readonly(system_paths[i], why, len) != 0)
            return -1;
    if (for_build) {
        for (int i = 0; build_devices[i]; i++)
            if (bind_readonly(build_devices[i], why, len) != 0)
                return -1;
    } else {
        if (make_run_devices(why, len) != 0)
            return -1;
        /* The NVIDIA persistence daemon's socket, where there is one: without
         * it every run would initialise the GPU from cold. */
        char *socket_dir = in_root(NVIDIA_PERSISTENCED_DIR);
        struct stat st;
        if (stat(NVIDIA_PERSISTENCED_DIR, &st) == 0 && S_ISDIR(st.st_mode) &&
            (make_dirs(socket_dir) != 0 || mount(NVIDIA_PERSISTENCED_DIR, socket_dir, NULL, MS_BIND, NULL) != 0))
            return fail(why, len, "bind", NVIDIA_PERSISTENCED_DIR);
        free(socket_dir);
    }
    /* The kit or a class folder under one of the system paths (/usr/local/...):
     * an empty, read-only folder in its place. */
    for (int i = 0; i < nhidden; i++) {
        if (is_under(workdir, hidden[i]))
            continue; /* the work directory itself is bound below */
        char *h = in_root(hidden[i]);
        struct stat st;
        int rc = 0;
        if (lstat(h, &st) != 0)
            ; /* not among what the root shows */
        else if (S_ISDIR(st.st_mode))
            rc = mount("tmpfs", h, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "size=4k,mode=555");
        else if (S_ISREG(st.st_mode))
            rc = mount("/dev/null", h, NULL, MS_BIND, NULL);
        free(h);
        if (rc != 0)
            return fail(why, len, "hide", hidden[i]);
    }
    /* Fresh, empty, size-limited temporary folders: nothing from other runs
     * or other submissions, nothing that outlives this run, and a full disk
     * stops this run alone. */
    const char *tmps[] = { "/tmp", "/var/tmp", "/dev/shm", NULL };
    for (int i = 0; tmps[i]; i++) {
        char *t = in_root(tmps[i]);
        int rc = mount_fresh_tmp(t, SANDBOX_TMP_SIZE, why, len);
        free(t);
        if (rc != 0)
            return -1;
    }
    /* ... and, at its own path, the submission's work directory. */
    char *work_in_root = in_root(workdir);
    if (make_dirs(work_in_root) != 0)
        return fail(why, len, "recreate", workdir);
    char *from = xasprintf("/proc/self/fd/%d", keep);
    /* In a run's own user namespace the run folders mounted under the work
     * directory are locked to it: the kernel refuses a bind that would
     * leave them behind, so they come along (the other run folders of this
     * submission then stay writable to this run; nothing of the grader's
     * or another submission's is among them). */
    if (mount(from, work_in_root, NULL, MS_BIND | (in_user_namespace ? MS_REC : 0), NULL) != 0)
        return fail(why, len, "bind", workdir);
    free(from);
    close(keep);
    /* Writable: the run directory, and files the grader named in the
     * environment (the emulator's log); the rest of the work directory (the
     * program, earlier runs) is read-only, so nothing carries over. */
    char *cwd_in_root = in_root(real_cwd);
    from = xasprintf("/proc/self/fd/%d", keep_cwd);
    if (mount(from, cwd_in_root, NULL, MS_BIND, NULL) != 0)
        return fail(why, len, "bind", real_cwd);
    free(from);
    close(keep_cwd);
    for (int i = 0; env_add && env_add[i]; i++) {
        const char *path = strchr(env_add[i], '=');
        if (!path || path[1] != '/' || !is_under(path + 1, workdir) || is_under(path + 1, real_cwd))
            continue;
        char *p = in_root(path + 1);
        int fd = open(p, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if (fd < 0 || (!in_user_namespace && fchown(fd, run_uid, SANDBOX_GID) != 0))
            return fail(why, len, "create", path + 1);
        close(fd);
        if (mount(p, p, NULL, MS_BIND, NULL) != 0)
            return fail(why, len, "bind", path + 1);
        free(p);
    }
    if (mount(NULL, work_in_root, NULL, MS_REMOUNT | MS_BIND | MS_RDONLY | MS_NOSUID | MS_NODEV, NULL) != 0)
        return fail(why, len, "make read-only", workdir);
    /* /proc for this pid namespace: the run sees only its own processes,
     * and of those only its own user's (hidepid): not the namespace's first
     * process, which is the grader's. */
    char *proc = in_root("/proc");
    if (make_dirs(proc) != 0 ||
        mount("proc", proc, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, "hidepid=2") != 0)
        return fail(why, len, "mount", "/proc");
    free(proc);
    /* Into the new root; the machine's old root is detached, not just out of
     * sight (pivot_root onto itself, then a lazy unmount of what is under). */
    if (chdir(NEW_ROOT) != 0)
        return fail(why, len, "enter", NEW_ROOT);
    if (syscall(SYS_pivot_root, ".", ".") != 0)
        return fail(why, len, "pivot into", "the new root");
    if (umount2(".", MNT_DETACH) != 0)
        return fail(why, len, "detach", "the old root");
    if (chdir(real_cwd) != 0)
        return fail(why, len, "enter", real_cwd);
    free(work_in_root);
    free(cwd_in_root);
    free(workdir);
    return 0;
}

int sandbox_drop(double timeout_s, int for_build, char *why, int len)
{
    /* A compiler gets an address-space limit (a run cannot: it breaks CUDA's
     * start-up): an endless include or a huge constant stops the build. */
    if (for_build) {
        struct rlimit as = { SANDBOX_BUILD_MEMORY, SANDBOX_BUILD_MEMORY };
        if (setrlimit(RLIMIT_AS, &as) != 0)
            return fail(why, len, "limit", "memory");
    }
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    if (ncpu < 1)
        ncpu = 1;
    /* Processes and threads of this run's own user: enough for CUDA's and
     * the emulator's threads, not for a fork bomb to hurt the machine. In
     * a user namespace the run keeps the grader's user, but the count is
     * the run's user namespace's own (sandbox_clone_flags). */
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
    /* No capability can come back: the bounding set is emptied (in a user
     * namespace, the grader's capabilities there; as root, before the
     * change of user drops the rest). */
    for (int cap = 0; cap < 64; cap++)
        if (prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) != 0 && errno != EINVAL)
            return fail(why, len, "drop", "capabilities");
    if (in_user_namespace) {
        /* Only the grader's own user is mapped: the run keeps it, and exec
         * (not as the namespace's root) leaves it no capabilities. */
    } else if (setgroups(0, NULL) != 0 || setgid(SANDBOX_GID) != 0 || setuid(run_uid) != 0) {
        return fail(why, len, "become", "the run's own user");
    }
    /* A fresh, empty session keyring of the run's own: the grader's (an
     * instructor's Kerberos tickets, tokens) is out of reach, and nothing
     * the run adds outlives it. */
    if (syscall(SYS_keyctl, KEYCTL_JOIN_SESSION_KEYRING, NULL) < 0 && errno != ENOSYS)
        return fail(why, len, "make", "a session keyring of the run's own");
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return fail(why, len, "set", "no_new_privs");
    if (uid_mode)
        umask(077); /* what the run leaves in shared folders is its own */
    return sandbox_filter(why, len);
}
#endif /* __linux__ */
