/*
 * run-init.c - the first process of a sandboxed run (pid 1 of its pid
 * namespace), once the grader's child has made the run's private view and
 * started the program (process.c, sandbox_init_process).
 *
 *     gpulab-run-init KID STATUS_FD
 *
 * It waits for process KID, reaping every other process of the namespace
 * that ends meanwhile (orphans come to pid 1), writes KID's wait status
 * (an int) to STATUS_FD and exits; the kernel then kills whatever is left
 * in the namespace. Exit 126: the wait failed.
 *
 * Why a program of its own: the grader's child that made the namespace is a
 * fork of the grader, so without an exec pid 1 would show the grader's
 * command line in /proc/1/cmdline (an instructor's --secret or --seed) and
 * hold the grader's memory. Exec'd, its command line and memory are these.
 * It is linked statically, so that it needs nothing of the run's root.
 */
#include <errno.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static long number(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return (errno || end == s || *end || v < 0) ? -1 : v;
}

int main(int argc, char **argv)
{
    long kid = argc == 3 ? number(argv[1]) : -1, fd = argc == 3 ? number(argv[2]) : -1;
    if (kid <= 0 || fd < 0)
        return 2;
    /* In a user namespace the run has this process's user: not dumpable,
     * it cannot be traced or have its memory read by the run. */
    prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
    for (;;) {
        int status;
        pid_t w = wait(&status);
        if (w == (pid_t)kid)
            return write((int)fd, &status, sizeof status) == (ssize_t)sizeof status ? 0 : 126;
        if (w < 0 && errno != EINTR)
            return 126;
    }
}
