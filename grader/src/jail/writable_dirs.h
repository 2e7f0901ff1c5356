/* writable_dirs.h - the folders below the machine's shared temporary
 * folders that a run's user could write, found before the runs and again
 * while they go on (the uid mode). */
#ifndef GPULAB_WRITABLE_DIRS_H
#define GPULAB_WRITABLE_DIRS_H

#include <sys/types.h>

/* Finds, once, every folder below roots, at any depth to max_depth, that a
 * user of its own with no group but gid could write: world-writable, or
 * group-writable with group gid, every folder on the way open to it (it
 * owns none of them), not following links. Left out: those a walk of the
 * roots through folders anyone may write and enter reaches anyway (the
 * measuring walk's own), and those below a folder found (the measuring walk
 * goes on from there). 0, or -1 when there were more folders than it looks
 * at (then said on standard error). */
int writable_dirs_find(const char *const *roots, gid_t gid, int max_depth);

/* Walks again, as writable_dirs_find was last asked, if the last walk is
 * old enough for its cost (at least a second, and no more than a
 * twentieth of the time spent walking): a folder another user makes while
 * the runs go on is measured from then on. */
void writable_dirs_refresh(void);

/* How many were found. */
int writable_dirs_count(void);

/* The i-th found folder, opened one component at a time without following
 * links, if it is still the folder found; else -1. */
int writable_dirs_open(int i);

#endif
