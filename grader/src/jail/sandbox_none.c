/*
 * sandbox_none.c - --sandbox none, on every system (sandbox_refused), and
 * sandbox.h where there are no Linux namespaces (macOS): no isolation is
 * possible, so `gpulab grade` stops as it does on a Linux machine that
 * refuses them, unless --sandbox none; `check` (a student's own file, never
 * sandboxed) works as on Linux. sandbox.c is the Linux one.
 */
#include "sandbox.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sandbox_refused(const char *requested, char *mode, size_t len)
{
    if (strcmp(requested, "none") == 0) {
        snprintf(mode, len, "none (--sandbox none: submissions were NOT isolated)");
        fprintf(stderr, "gpulab: warning: --sandbox none: submissions run with the grader's rights and can read "
                        "the kit, other submissions and the records, and change them; every output says so\n");
        return 1;
    }
    if (strcmp(requested, "auto") != 0 && strcmp(requested, "unshare") != 0 && strcmp(requested, "uid") != 0)
        die("--sandbox %s: expected auto, unshare, uid or none", requested);
    return 0;
}

#ifndef __linux__
static char mode[200] = "none (not requested)";

void sandbox_init(const char *requested, int keep_files)
{
    (void)keep_files;
    if (!requested)
        requested = "auto";
    if (sandbox_refused(requested, mode, sizeof mode))
        return;
    fprintf(stderr,
            "gpulab: cannot isolate submissions on this machine (it is not Linux: grading isolates runs in Linux\n"
            "gpulab: namespaces or under users of their own, which this grader has only on Linux); grade on a\n"
            "gpulab: Linux machine or in a Linux container, or pass --sandbox none to grade without isolation\n"
            "gpulab: (only for code you trust; every output will say so)\n");
    exit(SANDBOX_UNAVAILABLE_EXIT);
}

int sandbox_active(void) { return 0; }
const char *sandbox_mode(void) { return mode; }
void sandbox_hide(const char *path) { (void)path; }
void sandbox_limit_run_dir(const char *dir) { (void)dir; }
void sandbox_release(const char *dir) { (void)dir; }
int sandbox_clone_flags(void) { return 0; }
int sandbox_uid_mode(void) { return 0; }
void sandbox_next_run_user(void) {}
void sandbox_run_ended(const char *cwd) { (void)cwd; }

void remove_work_dir(const char *dir)
{
    if (remove_tree(dir) != 0)
        fprintf(stderr, "gpulab: warning: could not remove %s: %s\n", dir, strerror(errno));
}

int sandbox_run_over_limits(const char *cwd, char *why, int len)
{
    (void)cwd, (void)why, (void)len;
    return 0;
}

/* Never called: sandbox_active() is 0, so process.c starts no sandboxed run. */
int sandbox_enter(const char *cwd, const char *const *env_add, int for_build, char *why, int why_len)
{
    (void)cwd, (void)env_add, (void)for_build;
    snprintf(why, (size_t)why_len, "sandbox: Linux only");
    return -1;
}

int sandbox_drop(double timeout_s, int for_build, char *why, int why_len)
{
    (void)timeout_s, (void)for_build;
    snprintf(why, (size_t)why_len, "sandbox: Linux only");
    return -1;
}
#endif
