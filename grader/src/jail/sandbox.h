/*
 * sandbox.h - what a student's program can see and do while it runs.
 *
 * process.c already gives every run its own process group, a time limit,
 * capture caps and a file-size cap, in a fresh directory holding only the
 * dataset's inputs. With the sandbox on (gpulab grade), every compile and every
 * run also gets, where the machine allows it (root, Linux namespaces):
 *   - a root of its own that holds only the machine's software, read-only
 *     with every mount under it (/usr, /bin, /lib*, /etc, /sys and its
 *     control groups), and the submission's work directory
 *     (writable: only the build or run folder; a run's folder is a 1 GB
 *     tmpfs of its own, sandbox_limit_run_dir()). The kit, the class, the
 *     records, the hidden datasets, the secret, the homes are not there,
 *     wherever they live (a path among the software, e.g. a kit under
 *     /usr/local, is covered by an empty folder); /tmp, /var/tmp and /dev/shm
 *     are fresh, empty and 256 MB each; every tmpfs has a limit on files too
 *     (TMPFS_INODES); /proc shows only the run's own user's processes
 *     (hidepid); a compile gets /dev/null and /dev/urandom only, a run a few
 *     devices and the GPU's (no terminal: process.c also gives every child a
 *     session of its own);
 *   - no network (an empty network namespace);
 *   - a pid namespace: when the program's first process ends, or at the time
 *     limit, every process it started is killed, daemons included; its pid 1
 *     is gpulab-run-init, exec'd (grader/src/libexec/run-init.c), not a fork
 *     of the grader;
 *   - a fresh session keyring of its own, and a seccomp filter refusing
 *     the key calls (the grader's keys, the TA's user keyring in the userns
 *     mode, out of reach) and io_uring;
 *   - an unprivileged user of its own for each run, no new privileges, a limit
 *     on processes (RLIMIT_NPROC) and on CPU time (RLIMIT_CPU); a compile also
 *     an address-space limit (4 GiB; a run cannot have one: it breaks CUDA's
 *     start-up).
 * Not root: the grader first enters a user namespace of its own (where the
 * machine allows it) and does the same from there; runs keep its user, with
 * no capabilities ("userns"). Root where namespaces are refused (a
 * container): each submission's builds and runs get a user of their own,
 * folders only that user can enter, a seccomp filter against the network
 * and System V IPC, everything that user has under the work directory
 * measured, and the paths the grader hides must be closed to other users
 * ("uid").
 * sandbox_mode() says which of this was achieved, for the records:
 * "unshare", "userns", "uid", or "none (why)".
 */
#ifndef GPULAB_SANDBOX_H
#define GPULAB_SANDBOX_H
#include <stddef.h>

/* requested: "auto" or "unshare" (namespaces; auto falls back to "uid"
 * as root where they are refused), "uid" (that mode alone), all of them: isolation, or exit with
 * SANDBOX_UNAVAILABLE_EXIT and a message saying why and what to do) or
 * "none" (explicit: no isolation, a warning, and sandbox_mode() saying so in
 * every output). Probes once. With isolation the grader gets a mount
 * namespace of its own, for sandbox_limit_run_dir(), unless keep_files
 * (--keep: the work folders must outlive the grader). */
void sandbox_init(const char *requested, int keep_files);
/* For sandbox_init (sandbox.c, sandbox_none.c): 1 when requested is "none"
 * (mode then says so, and a warning is printed), 0 for the other modes;
 * anything else is an error. */
int sandbox_refused(const char *requested, char *mode, size_t len);
/* The exit status of gpulab grade when runs cannot be isolated here: the
 * Gradescope package's script tells it from other failures. */
#define SANDBOX_UNAVAILABLE_EXIT 3

/* Whether runs are sandboxed, and how, in words. */
int sandbox_active(void);
const char *sandbox_mode(void);

/* A path (file or folder) the program must not see. Call before the runs. */
void sandbox_hide(const char *path);
/* In the uid mode, every path given to sandbox_hide that other users can
 * read, all named at once, and exit SANDBOX_UNAVAILABLE_EXIT; nothing when
 * there is none (or in another mode). Call once everything is hidden,
 * before the first build; the first sandboxed process checks it too. */
void sandbox_check_hidden(void);

/* A run's folder, just made and still empty, becomes a size-limited tmpfs
 * (SANDBOX_RUN_DIR_SIZE): a run that fills its disk stops itself alone, not
 * the grader or the next student. Nothing without isolation. */
void sandbox_limit_run_dir(const char *dir);
/* Unmounts the run folders under dir (a work directory about to be
 * removed). */
void sandbox_release(const char *dir);
/* Removes a work directory (a submission's, a benchmark run's), its run
 * folders' mounts first; a failure is a warning. */
void remove_work_dir(const char *dir);

/* For process.c, in the child that will become the run's first process:
 * the namespaces to ask clone() for. */
int sandbox_clone_flags(void);

/* For process.c, in the new namespaces (pid 1): makes the private mount view
 * for a run whose working directory is cwd (in the submission's work
 * directory, its parent). Only cwd and the files under the work directory
 * that env_add names ("NAME=/path") are writable. Returns 0, or -1 with a
 * message in why (why_len bytes). */
int sandbox_enter(const char *cwd, const char *const *env_add, int for_build, char *why, int why_len);

/* For process.c, in the program's own process just before exec: the
 * unprivileged user and the limits (for_build: a compiler's). Returns 0 or
 * -1 with why. */
int sandbox_drop(double timeout_s, int for_build, char *why, int why_len);

/* After a sandboxed run (or build) in cwd has ended and been reaped: in the
 * uid mode, every process of its user is killed and what it left in the
 * machine's shared temporary folders removed; nothing otherwise (the pid
 * namespace and the run's own folders did that). */
void sandbox_run_ended(const char *cwd);

/* In the uid mode, while the run in cwd goes on: 1 with why when its
 * folder or its files in the shared temporary folders have grown past the
 * limits the other modes' tmpfs mounts set (its user's processes are then
 * to be stopped); 0 otherwise, and always in the other modes. */
int sandbox_run_over_limits(const char *cwd, char *why, int len);
/* Whether runs are isolated by a user of their own only (--sandbox uid). */
int sandbox_uid_mode(void);

/* Picks a fresh user id for the next sandboxed run (call before starting
 * it): limits on processes then apply to each run alone. */
void sandbox_next_run_user(void);

#endif
