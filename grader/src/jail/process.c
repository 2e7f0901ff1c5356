/*
 * process.c - see process.h.
 */
#define _GNU_SOURCE
#include "process.h"
#include "cgroup.h"
#include "kit.h"
#include "sandbox.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

/* The file descriptor a lab program says it is ready on (process.h). */
#define READY_FD 3
#define READY_FD_TEXT "3"


const char *signal_description(int sig)
{
    switch (sig) {
    case SIGSEGV: return "Segmentation fault (SIGSEGV): a bad host pointer or an access past the end of an array";
    case SIGBUS: return "Bus error (SIGBUS)";
    case SIGFPE: return "Arithmetic exception (SIGFPE), e.g. an integer division by zero";
    case SIGABRT: return "Aborted (SIGABRT), e.g. a failed assert or a corrupted heap";
    case SIGILL: return "Illegal instruction (SIGILL)";
    case SIGKILL: return "Killed (SIGKILL)";
    case SIGTERM: return "Terminated (SIGTERM)";
    case SIGXFSZ: return "File size limit exceeded (SIGXFSZ)";
    default: return strsignal(sig);
    }
}

/* Builds environ plus the additions (an addition replaces a same-named entry). */
static char **build_env(const char *const *add)
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    while (add && add[k])
        k++;
    char **env = xcalloc(n + k + 1, sizeof(char *));
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        int replaced = 0;
        for (size_t j = 0; j < k; j++) {
            size_t len = strcspn(add[j], "=");
            if (strncmp(environ[i], add[j], len) == 0 && environ[i][len] == '=')
                replaced = 1;
        }
        if (!replaced)
            env[m++] = environ[i];
    }
    for (size_t j = 0; j < k; j++)
        env[m++] = (char *)add[j];
    return env;
}

/* A sandboxed run gets a small environment, not the grader's (which may
 * hold an instructor's tokens): the toolchain's and driver's variables. */
static int keep_in_sandbox(const char *entry)
{
    static const char *const prefixes[] = { "PATH=", "LANG=", "LC_", "TZ=", "CUDA_", "NVIDIA_",
                                            "LD_LIBRARY_PATH=", "GPULAB_EMU", NULL };
    for (int i = 0; prefixes[i]; i++)
        if (strncmp(entry, prefixes[i], strlen(prefixes[i])) == 0)
            return 1;
    return 0;
}

static char **sandbox_env(const char *const *add)
{
    size_t n = 0, k = 0;
    while (environ[n])
        n++;
    while (add && add[k])
        k++;
    char **env = xcalloc(n + k + 3, sizeof(char *));
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (keep_in_sandbox(environ[i]) && strncmp(environ[i], "LD_PRELOAD", 10) != 0)
            env[m++] = environ[i];
    env[m++] = "HOME=/tmp";
    env[m++] = "TMPDIR=/tmp";
    for (size_t j = 0; j < k; j++)
        env[m++] = (char *)add[j];
    return env;
}

/* Past the capture cap the lines that begin with the spec's keep_lines (a
 * lab harness's own: a student's debugging flood must not hide its verdict
 * or the kernel token) are still kept, up to this much more, lines up to
 * KEPT_LINE_MAX. */
#define KEPT_LINES_EXTRA (16 * 1024)
#define KEPT_LINE_MAX 1024

typedef struct {
    int fd;
    strbuf sb;
    size_t dropped;
    const char *keep;   /* past the cap, the lines that begin with this are kept; NULL: none */
    strbuf line;        /* past the cap: the line so far, while it may be one to keep */
    int skipping;       /* past the cap: the current line is not one; drop it to its end */
    size_t extra;       /* bytes of lines kept past the cap */
} capture;

/* Past the cap: keeps the complete lines of p that begin with c->keep,
 * drops the rest. */
static void keep_lines(capture *c, const char *p, size_t n)
{
    if (!c->keep) {
        c->dropped += n;
        return;
    }
    const size_t plen = strlen(c->keep);
    while (n > 0) {
        const char *nl = memchr(p, '\n', n);
        size_t k = nl ? (size_t)(nl - p) : n;
        if (c->skipping) {
            c->dropped += k;
        } else {
            sb_append(&c->line, p, k);
            size_t cmp = c->line.len < plen ? c->line.len : plen;
            if (memcmp(c->line.buf, c->keep, cmp) != 0 || c->line.len > KEPT_LINE_MAX) {
                c->dropped += c->line.len;
                c->line.len = 0;
                c->skipping = 1;
            }
        }
        if (nl) {
            if (!c->skipping && c->line.len >= plen && c->extra + c->line.len + 2 <= KEPT_LINES_EXTRA) {
                if (c->sb.len && c->sb.buf[c->sb.len - 1] != '\n')
                    sb_append(&c->sb, "\n", 1);
                sb_append(&c->sb, c->line.buf, c->line.len);
                sb_append(&c->sb, "\n", 1);
                c->extra += c->line.len + 2;
            } else {
                c->dropped += c->line.len + 1;
            }
            c->line.len = 0;
            c->skipping = 0;
            k++;
        }
        p += k;
        n -= k;
    }
}

static void drain(capture *c, size_t cap)
{
    char buf[65536];
    ssize_t n = read(c->fd, buf, sizeof buf);
    if (n > 0) {
        size_t keep = c->sb.len < cap ? cap - c->sb.len : 0;
        if (keep > (size_t)n)
            keep = (size_t)n;
        int was_under = c->sb.len < cap;
        sb_append(&c->sb, buf, keep);
        if (keep < (size_t)n) {
            /* the line the cap cut is not a whole line: skip its rest */
            if (was_under && c->sb.len && c->sb.buf[c->sb.len - 1] != '\n')
                c->skipping = 1;
            keep_lines(c, buf + keep, (size_t)n - keep);
        }
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(c->fd);
        c->fd = -1;
    }
}

/* ---- what a run leaves behind -------------------------------------------------
 *
 * Without the sandbox's pid namespace, a process that a run started can leave
 * the run's process group (setsid()) and its parent (a double fork), and
 * would outlive the grader, free to rewrite the records. A process that runs
 * programs is therefore a child subreaper: such an orphan becomes its child,
 * not init's. When a run ends, every process descended from it goes: the
 * grader's children that were not its children before the run started, and
 * their descendants. The children it had before (a batch's build workers, a
 * checker's job) are the grader's own and keep running; none of them can end
 * and free its pid meanwhile, since the grader reaps only the run itself
 * until this is done. */

typedef struct {
    pid_t pid, ppid;
    unsigned long long ticks; /* processor time, its own and its waited-for children's */
} proc_entry;

/* The parent and the processor time of /proc/PID: 0, or -1 when it has
 * gone. The command name in parentheses is the program's to choose, spaces
 * and ')' included: the fields that follow start after its last ')'
 * (proc(5): state, ppid, ... utime is the 14th field, cstime the 17th). */
static int stat_of(const char *pid_name, pid_t *ppid, unsigned long long *ticks)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%s/stat", pid_name);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0)
        return -1;
    buf[n] = '\0';
    const char *close_paren = strrchr(buf, ')');
    char state;
    int parent;
    unsigned long long utime = 0, stime = 0;
    long long cutime = 0, cstime = 0;
    if (!close_paren || sscanf(close_paren + 1, " %c %d", &state, &parent) != 2)
        return -1;
    /* fields 5 to 13 skipped, then utime stime cutime cstime */
    if (sscanf(close_paren + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %lld %lld",
               &utime, &stime, &cutime, &cstime) != 4)
        utime = stime = 0, cutime = cstime = 0;
    *ppid = (pid_t)parent;
    *ticks = utime + stime + (unsigned long long)(cutime > 0 ? cutime : 0) +
             (unsigned long long)(cstime > 0 ? cstime : 0);
    return 0;
}

/* Every process of the machine with its parent and processor time, or NULL
 * when /proc cannot be read. */
static proc_entry *list_processes(size_t *n)
{
    DIR *d = opendir("/proc");
    if (!d)
        return NULL;
    proc_entry *list = NULL;
    size_t cap = 0;
    *n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9' || strspn(e->d_name, "0123456789") != strlen(e->d_name))
            continue;
        pid_t ppid;
        unsigned long long ticks;
        if (stat_of(e->d_name, &ppid, &ticks) != 0)
            continue;
        if (*n == cap) {
            cap = cap ? 2 * cap : 512;
            list = xrealloc(list, cap * sizeof *list);
        }
        list[*n].pid = (pid_t)atol(e->d_name);
        list[*n].ppid = ppid;
        list[*n].ticks = ticks;
        (*n)++;
    }
    closedir(d);
    return list ? list : xcalloc(1, sizeof *list);
}

typedef struct {
    pid_t *pids;
    size_t n;
} pid_set;

static int in_set(const pid_set *s, pid_t pid)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->pids[i] == pid)
            return 1;
    return 0;
}

/* This process's children now: the ones a run must not take with it. */
static void own_children(pid_set *s)
{
    size_t n;
    proc_entry *all = list_processes(&n);
    s->pids = xcalloc(n + 1, sizeof *s->pids);
    s->n = 0;
    pid_t self = getpid();
    for (size_t i = 0; all && i < n; i++)
        if (all[i].ppid == self)
            s->pids[s->n++] = all[i].pid;
    free(all);
}

static int by_pid(const void *a, const void *b)
{
    pid_t x = ((const proc_entry *)a)->pid, y = ((const proc_entry *)b)->pid;
    return (x > y) - (x < y);
}

/* Marks the processes descended from this one through a child not in keep
 * (all sorted by pid); returns how many, and in *direct how many of them
 * are its own children. */
static size_t mark_strays(const proc_entry *all, size_t n, const pid_set *keep, char *mark, size_t *direct)
{
    pid_t self = getpid();
    size_t count = 0;
    for (size_t i = 0; i < n; i++) {
        mark[i] = all[i].ppid == self && !in_set(keep, all[i].pid);
        count += (size_t)mark[i];
    }
    *direct = count;
    for (int grew = 1; grew;) {
        grew = 0;
        for (size_t i = 0; i < n; i++) {
            proc_entry key = { all[i].ppid, 0, 0 };
            const proc_entry *parent = mark[i] ? NULL : bsearch(&key, all, n, sizeof *all, by_pid);
            if (parent && mark[parent - all]) {
                mark[i] = 1;
                count++;
                grew = 1;
            }
        }
    }
    return count;
}

/* Kills and reaps everything the run left (see above). A process dying
 * hands its own children to this one, so it goes round until none is left,
 * for at most 10 s (a process stuck in the kernel cannot be reaped). */
static void kill_strays(const pid_set *keep)
{
    const double give_up = monotonic_s() + 10;
    for (;;) {
        size_t n, direct;
        proc_entry *all = list_processes(&n);
        if (!all)
            return;
        qsort(all, n, sizeof *all, by_pid);
        char *mark = xcalloc(n + 1, 1);
        size_t count = mark_strays(all, n, keep, mark, &direct);
        for (size_t i = 0; i < n; i++)
            if (mark[i])
                kill(all[i].pid, SIGKILL);
        for (size_t i = 0; i < n; i++)
            if (mark[i] && all[i].ppid == getpid())
                while (waitpid(all[i].pid, NULL, 0) < 0 && errno == EINTR)
                    ;
        free(mark);
        free(all);
        if (count == 0)
            return;
        if (monotonic_s() > give_up) {
            fprintf(stderr, "gpulab: warning: %zu processes that a run left could not be ended\n", count);
            return;
        }
        if (direct == 0) { /* their parents are still dying: give them a moment */
            struct timespec ts = { 0, 1000000 };
            nanosleep(&ts, NULL);
        }
    }
}

/* Where the kernel cannot make this process a subreaper (before Linux 3.4,
 * or under qemu-user, which answers EINVAL for this prctl instead of passing
 * it through: grader/tests/run-on-arm64.sh), a daemon that leaves its
 * parent escapes; said once. */
static void become_subreaper(void)
{
#ifdef __linux__
    static int warned;
    if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0 && !warned) {
        fprintf(stderr, "gpulab: warning: cannot collect what a run leaves behind (PR_SET_CHILD_SUBREAPER: %s)\n",
                strerror(errno));
        warned = 1;
    }
#endif /* elsewhere (macOS) there is no subreaper: an orphan of a run goes to launchd */
}

/* In a child about to run a program: a session of its own, so the
 * program has no controlling terminal. In the grader's session /dev/tty
 * would be the terminal the instructor graded from, where TIOCSTI pushes
 * a command line for the shell to run after gpulab exits, and tcsetpgrp
 * or raw escapes reach the screen. The new session is also the run's
 * process group (its id is the child's pid), which the time limit kills. */
static void leave_the_graders_terminal(void)
{
    if (setsid() < 0)
        setpgid(0, 0); /* already a group leader: cannot happen after fork */
}

/* Every descriptor from 3 up closes at exec: the program inherits its
 * standard input (/dev/null), the capture pipes and, where set up after
 * this, the ready pipe, nothing else of the grader's, whatever a library or
 * the shell that started gpulab left open (a terminal, a batch's pipes). */
static void inherit_no_descriptors(void)
{
#ifdef SYS_close_range
    if (syscall(SYS_close_range, 3u, ~0u, 4u /* CLOSE_RANGE_CLOEXEC */) == 0)
        return;
#endif
    long max = sysconf(_SC_OPEN_MAX);
    if (max < 0 || max > 65536)
        max = 65536;
    for (int fd = 3; fd < max; fd++)
        fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* Tells the parent, through the exec pipe, why the program could not start. */
static void start_failed(int fd, const char *msg) __attribute__((noreturn));
static void start_failed(int fd, const char *msg)
{
    if (write(fd, msg, strlen(msg)) < 0)
        _exit(127);
    _exit(127);
}

/* The program that becomes a sandboxed run's first process once the run
 * has started (grader/src/libexec/run-init.c), built by make. */
static const char *run_init_program(void)
{
    static char *path;
    if (!path)
        path = kit_path("build/libexec/gpulab-run-init");
    return path;
}

/* The sandboxed run's first process, pid 1 of its namespaces: makes the
 * private view, starts the program as the run's own user, then becomes
 * gpulab-run-init (exec'd: nothing of the grader's memory or command line
 * stays in the run's namespace), which waits for the program, reaping
 * whatever else ends meanwhile, and reports its wait status through
 * status_fd. When it ends, the kernel kills every process left in the
 * namespace. */
static void sandbox_init_process(const proc_spec *spec, char **env, int exec_fd, int status_fd,
                                 const char *init_program, const char *group)
{
#ifndef __linux__
    /* never: off Linux sandbox_active() is 0 (sandbox_none.c) */
    (void)spec, (void)env, (void)status_fd, (void)init_program, (void)group;
    start_failed(exec_fd, "sandbox: Linux only");
#else
    char why[512];
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* the grader gone: the run goes (kept across exec) */
    cgroup_join_run(group); /* before the run's root hides /sys/fs/cgroup */
    /* opened before the kit goes out of sight */
    int init_fd = open(init_program, O_PATH | O_CLOEXEC);
    if (init_fd < 0) {
        snprintf(why, sizeof why, "sandbox: cannot open %s (%s): run make", init_program, strerror(errno));
        start_failed(exec_fd, why);
    }
    if (sandbox_enter(spec->cwd, spec->env_add, spec->build, why, sizeof why) != 0)
        start_failed(exec_fd, why);
    pid_t kid = fork();
    if (kid < 0) {
        snprintf(why, sizeof why, "sandbox: fork: %s", strerror(errno));
        start_failed(exec_fd, why);
    }
    if (kid == 0) {
        pid_t init = getppid();
        if (sandbox_drop(spec->timeout_s + spec->startup_s, spec->build, why, sizeof why) != 0)
            start_failed(exec_fd, why);
        /* the run's init gone (the grader killed: its PR_SET_PDEATHSIG),
         * the run goes too: in the uid mode no pid namespace takes it
         * along, and the change of user above cleared the signal the fork
         * kept; set again after it, and kept across exec */
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != init)
            _exit(127); /* the init was gone before the signal was set */
        execve(spec->argv[0], (char *const *)spec->argv, env);
        snprintf(why, sizeof why, "cannot exec %s: %s", spec->argv[0], strerror(errno));
        start_failed(exec_fd, why);
    }
    close(exec_fd);
    if (spec->startup_s > 0)
        close(READY_FD); /* only the program holds the ready pipe's write end */
    char kid_text[32], fd_text[32];
    snprintf(kid_text, sizeof kid_text, "%d", (int)kid);
    snprintf(fd_text, sizeof fd_text, "%d", status_fd);
    char *const init_argv[] = { "gpulab-run-init", kid_text, fd_text, NULL };
    char *const init_env[] = { NULL };
    if (fcntl(status_fd, F_SETFD, 0) == 0)
        syscall(SYS_execveat, init_fd, "", init_argv, init_env, AT_EMPTY_PATH);
    /* exec refused (a kernel before 3.19): wait here instead; hidepid still
     * keeps this process out of the run's sight */
    for (;;) {
        int st;
        pid_t w = wait(&st);
        if (w == kid) {
            if (write(status_fd, &st, sizeof st) < 0)
                _exit(126);
            _exit(0);
        }
        if (w < 0 && errno != EINTR)
            _exit(126);
    }
#endif
}

/* Whether a thread of process pid is running or waiting for a processor
 * (state R in /proc/PID/task/TID/stat), not asleep on something. */
static int has_runnable_thread(pid_t pid)
{
    char dir_path[64];
    snprintf(dir_path, sizeof dir_path, "/proc/%d/task", (int)pid);
    DIR *d = opendir(dir_path);
    if (!d)
        return 0;
    int runnable = 0;
    struct dirent *e;
    while (!runnable && (e = readdir(d)) != NULL) {
        if (e->d_name[0] < '1' || e->d_name[0] > '9')
            continue;
        char path[384], buf[512];
        snprintf(path, sizeof path, "%s/%s/stat", dir_path, e->d_name);
        int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
            continue;
        ssize_t n = read(fd, buf, sizeof buf - 1);
        close(fd);
        if (n <= 0)
            continue;
        buf[n] = '\0';
        const char *close_paren = strrchr(buf, ')');
        char state;
        runnable = close_paren && sscanf(close_paren + 1, " %c", &state) == 1 && state == 'R';
    }
    closedir(d);
    return runnable;
}

/* The processor seconds a run has used so far: every process descended from
 * this one through a child not in keep (the run and whatever it left, as
 * kill_strays sees them), each with its threads and the children it has
 * waited for; -1 when /proc cannot be read. *runnable: whether one of their
 * threads is running or waiting for a processor now. */
static double run_cpu_s(const pid_set *keep, int *runnable)
{
    size_t n, direct;
    proc_entry *all = list_processes(&n);
    *runnable = 0;
    if (!all)
        return -1;
    qsort(all, n, sizeof *all, by_pid);
    char *mark = xcalloc(n + 1, 1);
    mark_strays(all, n, keep, mark, &direct);
    unsigned long long ticks = 0;
    for (size_t i = 0; i < n; i++)
        if (mark[i]) {
            ticks += all[i].ticks;
            if (!*runnable)
                *runnable = has_runnable_thread(all[i].pid);
        }
    free(mark);
    free(all);
    long hz = sysconf(_SC_CLK_TCK);
    return (double)ticks / (double)(hz > 0 ? hz : 100);
}

/* A run whose limit is its work (proc_spec's cpu_limit_s): when it is out
 * of time. Its processor time is looked at four times a second. Past the
 * wall-clock limit, a run that used less than IDLE_SHARE of a processor
 * since the last look and has no thread running or waiting for a processor
 * is waiting on something (a sleep, a read that never returns), not
 * working, and is out of time then; one still working goes on until its
 * processor time is spent, or until WALL_BACKSTOP times the wall-clock
 * limit on a machine too busy to give it even a little. */
#define CPU_LOOK_S 0.25
#define IDLE_SHARE 0.05
#define WALL_BACKSTOP 10.0
typedef struct {
    double next_look, last_wall, last_cpu;
    double base;            /* the processor time at the limit's start, -1 until then */
} cpu_watch;

static int out_of_work_time(const proc_spec *spec, const pid_set *keep, cpu_watch *c, double now, double limit_start)
{
    if (now < c->next_look)
        return 0;
    int runnable;
    double cpu = run_cpu_s(keep, &runnable);
    if (cpu < 0) /* no /proc: the wall clock alone */
        return now >= limit_start + spec->timeout_s;
    if (c->base < 0) /* the first look: the start-up's time is not the limit's */
        c->base = cpu;
    double rate = now > c->last_wall ? (cpu - c->last_cpu) / (now - c->last_wall) : 1;
    c->next_look = now + CPU_LOOK_S;
    c->last_wall = now;
    c->last_cpu = cpu;
    if (cpu - c->base >= spec->cpu_limit_s)
        return 1;
    if (now >= limit_start + spec->timeout_s && rate < IDLE_SHARE && !runnable)
        return 1;
    return now >= limit_start + WALL_BACKSTOP * spec->timeout_s;
}

/* The ready pipe: 1 when the program has written its byte, 0 while it has
 * not, -1 when its end closed without one (the program ended or closed the
 * descriptor: it can no longer say it is ready, and start-up goes on). */
static int ready_state(int fd)
{
    struct pollfd p = { fd, POLLIN, 0 };
    if (poll(&p, 1, 0) <= 0)
        return 0;
    char c;
    ssize_t n = read(fd, &c, 1);
    if (n == 1)
        return 1;
    return n < 0 && (errno == EINTR || errno == EAGAIN) ? 0 : -1;
}

/* When to send the stuck signal: a tenth of the limit before its end, 0.5 s at most. */
static double ask_where_stuck_at(double deadline, double timeout_s)
{
    return deadline - (timeout_s / 10 < 0.5 ? timeout_s / 10 : 0.5);
}

/* The pipes of one run: its standard output and error, the exec pipe (why
 * it could not start), the sandbox's status pipe (the program's wait
 * status, from its first process) and the ready pipe (the end of its
 * start-up); -1 where a run has none. */
typedef struct {
    int out[2], err[2], exec[2], status[2], ready[2];
} run_pipes;

static void free_env_with_ready_fd(const char **with_ready)
{
    if (!with_ready)
        return;
    size_t k = 0;
    while (with_ready[k + 1])
        k++;
    free((char *)with_ready[k]);
    free(with_ready);
}

static void open_run_pipes(run_pipes *p, int sandboxed, int with_ready)
{
    p->status[0] = p->status[1] = p->ready[0] = p->ready[1] = -1;
    if (pipe_cloexec(p->out, 0) || pipe_cloexec(p->err, 0) || pipe_cloexec(p->exec, 0) ||
        (sandboxed && pipe_cloexec(p->status, 1)) || (with_ready && pipe_cloexec(p->ready, 0)))
        die("pipe: %s", strerror(errno));
}

/* env_add plus the ready pipe's variable, last (a new array, env_add's
 * strings shared; free_env_with_ready_fd frees it). */
static const char **env_with_ready_fd(const char *const *env_add, const char *ready_env)
{
    size_t k = 0;
    while (env_add && env_add[k])
        k++;
    const char **with_ready = xcalloc(k + 2, sizeof *with_ready);
    for (size_t j = 0; j < k; j++)
        with_ready[j] = env_add[j];
    with_ready[k] = xasprintf("%s=" READY_FD_TEXT, ready_env);
    return with_ready;
}

/* In the forked (or cloned) child: the run's session, standard streams,
 * limits and descriptors, then the sandbox (if any) and the program.
 * Never returns; why it could not start goes back through the exec pipe. */
static void start_child(const proc_spec *spec, const run_pipes *p, int sandboxed, char **env,
                        const char *init_program, const char *group)
{
    leave_the_graders_terminal();
    dup2(p->out[1], 1);
    dup2(p->err[1], 2);
    /* never the grader's standard input, which may be its terminal */
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull > 0) {
        dup2(devnull, 0);
        close(devnull);
    } else if (devnull < 0) {
        close(0);
    }
    struct rlimit core = { 0, 0 };
    setrlimit(RLIMIT_CORE, &core);
    if (spec->file_size_cap > 0) {
        struct rlimit fs = { (rlim_t)spec->file_size_cap, (rlim_t)spec->file_size_cap };
        setrlimit(RLIMIT_FSIZE, &fs);
    }
    signal(SIGPIPE, SIG_DFL);
    inherit_no_descriptors();
    if (p->ready[1] >= 0) {
        /* the ready pipe's write end on READY_FD, open across exec */
        if (p->ready[1] == READY_FD)
            fcntl(READY_FD, F_SETFD, 0);
        else
            dup2(p->ready[1], READY_FD);
    }
    if (sandboxed)
        sandbox_init_process(spec, env, p->exec[1], p->status[1], init_program, group);
#ifdef __linux__
    /* the grader gone (killed, or its terminal closed): an unsandboxed run
     * goes too, as a sandboxed one's namespace does with its init (a run
     * in a session of its own would otherwise spin on, unwatched: a
     * killed test run's lab program held a core for an hour); kept across
     * exec */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
#endif
    const char *why = "chdir";
    if (!spec->cwd || chdir(spec->cwd) == 0) {
        why = "exec";
        execve(spec->argv[0], (char *const *)spec->argv, env);
    }
    char msg[512];
    int len = snprintf(msg, sizeof msg, "cannot %s %s: %s", why,
                       strcmp(why, "chdir") == 0 ? spec->cwd : spec->argv[0], strerror(errno));
    if (write(p->exec[1], msg, (size_t)len) < 0)
        _exit(127);
    _exit(127);
}

/* What the parent learns while a started run goes on. */
typedef struct {
    capture cap[2];     /* standard output and error */
    int status;         /* the wait status of the child */
    int told;           /* stuck_signal was sent */
    int starting;       /* still in its start-up when it ended */
    int out_of_work;    /* its work limit was spent: a timeout, however it ends */
} run_watch;

/* The parent's side of a started run until it has ended and its pipes
 * are drained: the start-up and time limits, the "where are you stuck"
 * signal, the uid mode's folder limits, the capture of both streams, and
 * the reaping of the child and whatever it left behind. */
static void watch_run(const proc_spec *spec, proc_result *r, pid_t pid, int sandboxed, int stuck_signal,
                      const run_pipes *p, pid_set *keep, double t0, run_watch *w)
{
    memset(w, 0, sizeof *w);
    w->cap[0].fd = p->out[0];
    w->cap[1].fd = p->err[0];
    for (int i = 0; i < 2; i++) {
        sb_init(&w->cap[i].sb);
        sb_init(&w->cap[i].line);
        w->cap[i].keep = spec->keep_lines;
    }
    capture *cap = w->cap;
    int reaped = 0;
    /* Open to the end of the run, not only until the byte: a process of the
     * run that writes it again (a program that runs itself) must not die of
     * SIGPIPE. A program that fills the pipe blocks only itself. */
    int ready_fd = p->ready[0];
    w->starting = ready_fd >= 0;   /* in its start-up: the start-up limit applies */
    double deadline = t0 + (ready_fd >= 0 ? spec->startup_s : spec->timeout_s), grace_end = 0;
    double tell_at = ask_where_stuck_at(deadline, spec->timeout_s);
    double next_look = t0 + 0.1;
    /* a limit on work: the clock's deadline only for the start-up; after
     * it, out_of_work_time decides, and the stuck signal and the kill
     * follow it as they follow the clock's deadline */
    const int on_work = spec->cpu_limit_s > 0;
    cpu_watch work = { 0, t0, 0, -1 };
    double limit_start = t0;
    if (on_work && !w->starting)
        deadline = tell_at = 1e300;
    while (cap[0].fd >= 0 || cap[1].fd >= 0 || !reaped) {
        double now = monotonic_s();
        int ready = w->starting && ready_fd >= 0 && !reaped && !r->timed_out ? ready_state(ready_fd) : 0;
        if (ready == -1) {
            close(ready_fd);
            ready_fd = -1;
        }
        if (ready == 1) { /* the limit starts now */
            w->starting = 0;
            r->startup_s = now - t0;
            deadline = now + spec->timeout_s;
            tell_at = ask_where_stuck_at(deadline, spec->timeout_s);
            if (on_work) {
                limit_start = now;
                deadline = tell_at = 1e300;
            }
        }
        if (on_work && !w->starting && !reaped && deadline > 1e299 &&
            out_of_work_time(spec, keep, &work, now, limit_start)) {
            /* the same moment's grace as the clock gives before its kill;
             * a run that ends in it (the stuck signal wakes a sleep) is out
             * of time all the same */
            w->out_of_work = 1;
            tell_at = now;
            deadline = now + (spec->timeout_s / 10 < 0.5 ? spec->timeout_s / 10 : 0.5);
        }
        if (!reaped && !w->told && stuck_signal > 0 && now >= tell_at) {
            /* to the run's group: in the sandbox its first process (pid 1 of
             * the namespace, no handler) never sees it, the program does; a
             * program without a handler is stopped by it a moment early,
             * which counts as the timeout it was about to be */
            kill(-pid, stuck_signal);
            w->told = 1;
        }
        if (!reaped && !r->timed_out && now >= deadline) {
            kill(-pid, SIGKILL);
            r->timed_out = 1;
            grace_end = now + 1.0;
        }
        /* the uid mode's folders have no size of their own: looked at ten
         * times a second, and every process of the run's user stopped once
         * over (wherever it went) */
        if (sandboxed && !spec->build && !reaped && !r->timed_out && !r->over_limit && now >= next_look) {
            char why[256];
            next_look = now + 0.1;
            if (sandbox_run_over_limits(spec->cwd, why, sizeof why)) {
                r->over_limit = xstrdup(why);
                sandbox_run_ended(spec->cwd);
            }
        }
        if (!reaped) {
            pid_t got = waitpid(pid, &w->status, WNOHANG);
            if (got == pid) {
                reaped = 1;
                r->wall_s = monotonic_s() - t0;
                /* Anything the program left behind goes now, in its group
                 * or not, so no stray process holds the pipes open or
                 * outlives the run. */
                kill(-pid, SIGKILL);
                kill_strays(keep);
                if (!grace_end)
                    grace_end = monotonic_s() + 1.0;
            }
        }
        if (reaped && grace_end && monotonic_s() > grace_end)
            break; /* a pipe handed to a process that is not the run's (through a socket) */
        struct pollfd pfd[2];
        int np = 0;
        for (int i = 0; i < 2; i++)
            if (cap[i].fd >= 0) {
                pfd[np].fd = cap[i].fd;
                pfd[np].events = POLLIN;
                np++;
            }
        if (np == 0) {
            if (!reaped) {
                struct timespec ts = { 0, 2000000 };
                nanosleep(&ts, NULL);
            }
            continue;
        }
        if (poll(pfd, (nfds_t)np, w->starting && ready_fd >= 0 ? 5 : 20) > 0) {
            for (int i = 0, k = 0; i < 2; i++) {
                if (cap[i].fd < 0)
                    continue;
                if (pfd[k].revents & (POLLIN | POLLHUP | POLLERR))
                    drain(&cap[i], spec->capture_cap);
                k++;
            }
        }
    }
    for (int i = 0; i < 2; i++)
        if (cap[i].fd >= 0)
            close(cap[i].fd);
    if (ready_fd >= 0)
        close(ready_fd);
    if (!reaped) {
        kill(-pid, SIGKILL);
        waitpid(pid, &w->status, 0);
        r->wall_s = monotonic_s() - t0;
        kill_strays(keep); /* (a reaped run's strays went when it was reaped) */
    }
}

/* r's outcome from what watch_run saw (and, sandboxed, from the status
 * pipe: the program's own wait status, as its first process saw it). */
static void settle_result(proc_result *r, run_watch *w, int status_fd, int stuck_signal)
{
    int status = w->status;
    if (w->out_of_work)
        r->timed_out = 1;
    if (status_fd >= 0) {
        int st;
        if (!r->timed_out && read(status_fd, &st, sizeof st) == (ssize_t)sizeof st)
            status = st;
        else if (!r->timed_out)
            status = SIGKILL; /* killed before it could tell: as if by SIGKILL */
        close(status_fd);
    }
    if (w->told && WIFSIGNALED(status) && WTERMSIG(status) == stuck_signal)
        r->timed_out = 1;
    r->never_ready = r->timed_out && w->starting;
    if (w->starting && !r->timed_out)
        r->startup_s = r->wall_s; /* ended without saying it was ready */
    if (WIFEXITED(status) && !r->timed_out) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status) && !r->timed_out) {
        r->signaled = 1;
        r->signal_number = WTERMSIG(status);
    }
    r->out_text = sb_detach(&w->cap[0].sb);
    r->err_text = sb_detach(&w->cap[1].sb);
    r->out_dropped = w->cap[0].dropped;
    r->err_dropped = w->cap[1].dropped;
    sb_free(&w->cap[0].line);
    sb_free(&w->cap[1].line);
}

static void proc_run_impl(const proc_spec *spec, proc_result *r, int sandboxed, int stuck_signal)
{
    memset(r, 0, sizeof *r);
    run_pipes p;
    open_run_pipes(&p, sandboxed, spec->startup_s > 0);
    if (spec->startup_s > 0 && !spec->ready_env)
        die("internal error: a start-up limit without the variable that names the ready descriptor");
    const char **with_ready = spec->startup_s > 0 ? env_with_ready_fd(spec->env_add, spec->ready_env) : NULL;
    const char *const *env_add = with_ready ? with_ready : spec->env_add;
    char **env = sandboxed ? sandbox_env(env_add) : build_env(env_add);
    const char *init_program = sandboxed ? run_init_program() : NULL;
    char *group = sandboxed ? cgroup_run_name() : NULL;
    become_subreaper();
    pid_set keep;
    own_children(&keep);
    double t0 = monotonic_s();
    fflush(stdout);
    fflush(stderr);
    if (sandboxed)
        sandbox_next_run_user();
#ifdef __linux__
    pid_t pid = sandboxed ? (pid_t)syscall(SYS_clone, SIGCHLD | sandbox_clone_flags(), NULL, NULL, NULL, NULL)
                          : fork();
#else
    pid_t pid = fork(); /* never sandboxed there */
#endif
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0)
        start_child(spec, &p, sandboxed, env, init_program, group);
    /* No setpgid(pid, pid) here: a process group leader cannot setsid(),
     * so the child makes its own session. Nothing signals the group before
     * the exec pipe closes, which is after the child's setsid(). */
    free(env);
    free_env_with_ready_fd(with_ready);
    int write_ends[] = { p.ready[1], p.out[1], p.err[1], p.exec[1], p.status[1] };
    for (size_t i = 0; i < sizeof write_ends / sizeof *write_ends; i++)
        if (write_ends[i] >= 0)
            close(write_ends[i]);

    char why[512];
    ssize_t wn = read(p.exec[0], why, sizeof why - 1);
    close(p.exec[0]);
    if (wn > 0) { /* it never started: why, in out_text */
        why[wn] = '\0';
        waitpid(pid, NULL, 0);
        int read_ends[] = { p.out[0], p.err[0], p.status[0], p.ready[0] };
        for (size_t i = 0; i < sizeof read_ends / sizeof *read_ends; i++)
            if (read_ends[i] >= 0)
                close(read_ends[i]);
        r->out_text = xstrdup(why);
        r->err_text = xstrdup("");
        free(keep.pids);
        cgroup_run_ended(group);
        free(group);
        return;
    }
    r->started = 1;
    run_watch w;
    watch_run(spec, r, pid, sandboxed, stuck_signal, &p, &keep, t0, &w);
    free(keep.pids);
    if (sandboxed)
        sandbox_run_ended(spec->cwd);
    cgroup_run_ended(group);
    free(group);
    settle_result(r, &w, sandboxed ? p.status[0] : -1, stuck_signal);
}

void proc_run(const proc_spec *spec, proc_result *r)
{
    proc_run_impl(spec, r, 0, 0);
}

void proc_run_sandboxed(const proc_spec *spec, proc_result *r)
{
    proc_run_impl(spec, r, sandbox_active(), 0);
}

void proc_run_sandboxed_asking(const proc_spec *spec, int stuck_signal, proc_result *r)
{
    proc_run_impl(spec, r, sandbox_active(), stuck_signal);
}

void proc_result_free(proc_result *r)
{
    free(r->out_text);
    free(r->err_text);
    free(r->over_limit);
    memset(r, 0, sizeof *r);
}
