/*
 * sandbox.h - what a student's program can see and do while it runs.
 *
 * process.c already gives every run its own process group, a time limit,
 * capture caps and a file-size cap, in a fresh directory holding only the
 * dataset's inputs. With the sandbox on (gpulab grade), each run also gets,
 * where the machine allows it (root, Linux namespaces):
 *   - a private mount view: the kit's datasets, the records, the hidden
 *     datasets, the other submissions and the reference solutions are empty;
 *     /tmp, /var/tmp and /dev/shm are fresh and empty (only the submission's
 *     own work directory is there); /proc shows only the run's processes;
 *   - no network (an empty network namespace);
 *   - a pid namespace: when the program's first process ends, or at the time
 *     limit, every process it started is killed, daemons included;
 *   - an unprivileged user of its own for each run, no new privileges, a limit on processes
 *     (RLIMIT_NPROC) and on CPU time (RLIMIT_CPU). No address-space limit:
 *     it breaks CUDA's start-up.
 * sandbox_mode() says which of this was achieved, for the records:
 * "unshare", or "none (why)".
 */
#ifndef GPULAB_SANDBOX_H
#define GPULAB_SANDBOX_H

/* requested: "auto" (the best this machine allows), "unshare" (fail if it
 * cannot be had) or "none". Probes once; dies when "unshare" is impossible. */
void sandbox_init(const char *requested);

/* Whether runs are sandboxed, and how, in words. */
int sandbox_active(void);
const char *sandbox_mode(void);

/* A path (file or folder) the program must not see. Call before the runs. */
void sandbox_hide(const char *path);

/* For process.c, in the child that will become the run's first process:
 * the namespaces to ask clone() for. */
int sandbox_clone_flags(void);

/* For process.c, in the new namespaces (pid 1): makes the private mount view
 * for a run whose working directory is cwd (in the submission's work
 * directory, its parent). Only cwd and the files under the work directory
 * that env_add names ("NAME=/path") are writable. Returns 0, or -1 with a
 * message in why (why_len bytes). */
int sandbox_enter(const char *cwd, const char *const *env_add, double timeout_s, char *why, int why_len);

/* For process.c, in the program's own process just before exec: the
 * unprivileged user and the limits. Returns 0 or -1 with why. */
int sandbox_drop(double timeout_s, char *why, int why_len);

/* Picks a fresh user id for the next sandboxed run (call before starting
 * it): limits on processes then apply to each run alone. */
void sandbox_next_run_user(void);

#endif
