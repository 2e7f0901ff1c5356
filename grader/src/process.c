/*
 * process.c - see process.h.
 */
#define _GNU_SOURCE
#include "process.h"
#include "util.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

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

typedef struct {
    int fd;
    strbuf sb;
    size_t dropped;
} capture;

static void drain(capture *c, size_t cap)
{
    char buf[65536];
    ssize_t n = read(c->fd, buf, sizeof buf);
    if (n > 0) {
        size_t keep = c->sb.len < cap ? cap - c->sb.len : 0;
        if (keep > (size_t)n)
            keep = (size_t)n;
        sb_append(&c->sb, buf, keep);
        c->dropped += (size_t)n - keep;
    } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        close(c->fd);
        c->fd = -1;
    }
}

void proc_run(const proc_spec *spec, proc_result *r)
{
    memset(r, 0, sizeof *r);
    int out_pipe[2], err_pipe[2], exec_pipe[2];
    if (pipe2(out_pipe, O_CLOEXEC) || pipe2(err_pipe, O_CLOEXEC) || pipe2(exec_pipe, O_CLOEXEC))
        die("pipe: %s", strerror(errno));
    char **env = build_env(spec->env_add);
    double t0 = now_s();
    pid_t pid = fork();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        setpgid(0, 0);
        dup2(out_pipe[1], 1);
        dup2(err_pipe[1], 2);
        int devnull = open("/dev/null", O_RDONLY);
        if (devnull >= 0)
            dup2(devnull, 0);
        struct rlimit core = { 0, 0 };
        setrlimit(RLIMIT_CORE, &core);
        if (spec->file_size_cap > 0) {
            struct rlimit fs = { (rlim_t)spec->file_size_cap, (rlim_t)spec->file_size_cap };
            setrlimit(RLIMIT_FSIZE, &fs);
        }
        signal(SIGPIPE, SIG_DFL);
        const char *why = "chdir";
        if (!spec->cwd || chdir(spec->cwd) == 0) {
            why = "exec";
            execve(spec->argv[0], (char *const *)spec->argv, env);
        }
        /* Tell the parent why we could not start, through the exec pipe. */
        char msg[512];
        int len = snprintf(msg, sizeof msg, "cannot %s %s: %s", why,
                           strcmp(why, "chdir") == 0 ? spec->cwd : spec->argv[0], strerror(errno));
        if (write(exec_pipe[1], msg, (size_t)len) < 0)
            _exit(127);
        _exit(127);
    }
    setpgid(pid, pid); /* also done in the child: whichever runs first wins the race */
    free(env);
    close(out_pipe[1]);
    close(err_pipe[1]);
    close(exec_pipe[1]);

    char why[512];
    ssize_t wn = read(exec_pipe[0], why, sizeof why - 1);
    close(exec_pipe[0]);
    if (wn > 0) {
        why[wn] = '\0';
        waitpid(pid, NULL, 0);
        close(out_pipe[0]);
        close(err_pipe[0]);
        r->out_text = xstrdup(why);
        r->err_text = xstrdup("");
        return;
    }
    r->started = 1;

    capture cap[2] = { { out_pipe[0], { 0 }, 0 }, { err_pipe[0], { 0 }, 0 } };
    sb_init(&cap[0].sb);
    sb_init(&cap[1].sb);
    int status = 0, reaped = 0;
    double deadline = t0 + spec->timeout_s, grace_end = 0;
    while (cap[0].fd >= 0 || cap[1].fd >= 0 || !reaped) {
        double now = now_s();
        if (!reaped && !r->timed_out && now >= deadline) {
            kill(-pid, SIGKILL);
            r->timed_out = 1;
            grace_end = now + 1.0;
        }
        if (!reaped) {
            pid_t w = waitpid(pid, &status, WNOHANG);
            if (w == pid) {
                reaped = 1;
                r->wall_s = now_s() - t0;
                /* Anything the program left behind in its group goes now, so
                 * no stray process holds the pipes open or outlives the run. */
                kill(-pid, SIGKILL);
                if (!grace_end)
                    grace_end = now_s() + 1.0;
            }
        }
        if (reaped && grace_end && now_s() > grace_end)
            break; /* a process that escaped the group still holds a pipe */
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
        int ready = poll(pfd, (nfds_t)np, 20);
        if (ready > 0) {
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
    if (!reaped) {
        kill(-pid, SIGKILL);
        waitpid(pid, &status, 0);
        r->wall_s = now_s() - t0;
    }
    if (WIFEXITED(status) && !r->timed_out) {
        r->exited = 1;
        r->exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status) && !r->timed_out) {
        r->signaled = 1;
        r->signal_number = WTERMSIG(status);
    }
    r->out_text = sb_detach(&cap[0].sb);
    r->err_text = sb_detach(&cap[1].sb);
    r->out_dropped = cap[0].dropped;
    r->err_dropped = cap[1].dropped;
}

void proc_result_free(proc_result *r)
{
    free(r->out_text);
    free(r->err_text);
    memset(r, 0, sizeof *r);
}
