/*
 * slurm.h - grading a class on a Slurm cluster (gpulab slurm): one array job
 * of N tasks, task K running `gpulab grade ... --shard K/N` into one shared
 * records folder. Slurm is driven through its own commands (sbatch to
 * submit, squeue to wait, scancel named for the user); nothing of it is
 * reimplemented here. What a task grades, and what a second submission
 * leaves alone, is grade's business (batch.h: shards and records).
 */
#ifndef GPULAB_SLURM_H
#define GPULAB_SLURM_H

#include "batch.h"
#include "manifest.h"

typedef struct {
    const lab_manifest *m;
    int tasks;                      /* N: the array's size, 1 or more */
    int wait;                       /* wait for the job, then print the class summary */
    int gpu;                        /* GPU backend: a GPU per task (--gres=gpu:1) */
    const char *records_dir;        /* absolute: every task's, and the logs' (RECORDS/slurm/) */
    char **task_argv;               /* the grade command each task runs, NULL-terminated; the
                                       task adds --shard K/N */
    char **sbatch_options;          /* the user's, after "--" (they override the kit's) */
    int nsbatch_options;
    const batch_entry *entries;     /* the class, as grade finds it */
    int nentries;
} slurm_job;

/* Submits the job and says how to follow it; with j->wait, waits for it and
 * prints the class summary from the records. Exit status: 0 (submitted; with
 * wait, every submission has a record), 1 (with wait: some have none: a task
 * failed or was cancelled), 2 (Slurm refused, or a command failed). */
int slurm_run(const slurm_job *j);

/* Whether the partition the job would go to (sbatch's --partition=P or -pP
 * among options, else $SBATCH_PARTITION, else the cluster's default) has
 * GPUs, as sinfo's generic resources say: 1, 0, or -1 when sinfo cannot
 * tell. *partition: its name, or NULL (malloc'd). */
int slurm_partition_has_gpus(char *const *options, int n, char **partition);

#endif
