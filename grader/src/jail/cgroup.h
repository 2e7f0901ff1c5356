/*
 * cgroup.h - each sandboxed build and run in a control group of its own.
 *
 * The kernel shares the processors between control groups before it shares
 * them between their threads: a run of 256 spinning threads gets one run's
 * share, not 256 threads' worth, so the runs beside it (a class graded with
 * --parallel) still finish within their limits. Each group also has a
 * memory limit (a quarter of the machine's memory, at least 2 GiB), so that
 * no run can take the machine's memory from the others or the grader.
 *
 * Best effort, as root: cgroup v1's cpu and memory hierarchies, or cgroup
 * v2 where the grader's own group can hand the cpu and memory controllers
 * down (a group of its own, or the root). Where neither is possible (not
 * root, a read-only /sys/fs/cgroup in a container, a v2 group shared with
 * other processes), runs have the process limits alone and cgroup_mode()
 * says why.
 */
#ifndef GPULAB_CGROUP_H
#define GPULAB_CGROUP_H

/* In the grader, once, before any run: finds the hierarchies and makes the
 * grader's parent group for its runs (removed when the grader exits). */
void cgroup_init(void);
/* "cgroup v1" or "cgroup v2", or "none (why)". */
const char *cgroup_mode(void);
/* In the grader, before starting a run: the name of the run's group to be
 * (malloc'd), or NULL where runs go without. */
char *cgroup_run_name(void);
/* In the run's first process, still root, before anything of the student's
 * starts: moves it into a new group of that name (everything it starts
 * follows). Failures leave it where it was. */
void cgroup_join_run(const char *name);
/* In the grader, once every process of that run is gone: removes its group. */
void cgroup_run_ended(const char *name);

#endif
