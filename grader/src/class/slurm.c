/*
 * slurm.c - see slurm.h.
 *
 * The batch script is fixed text: the number of tasks and the whole grade
 * command (the class's paths among its arguments) reach it as sbatch's
 * arguments after the script, so nothing a student named (a folder, a file)
 * is ever part of shell text.
 */
#define _GNU_SOURCE
#include "slurm.h"
#include "export.h"
#include "process.h"
#include "util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Resources a task asks for unless the options after "--" say otherwise
 * (sbatch takes an option's last value). The emulator's runs use the
 * task's cores; on a GPU the builds and the emulator's checkers do. */
#define EMU_CPUS_PER_TASK "2"
#define GPU_CPUS_PER_TASK "8"

static const char batch_script[] =
    "#!/bin/sh\n"
    "# Written by gpulab slurm (grader/src/class/slurm.c). Array task K of N\n"
    "# grades shard K/N of the class. Arguments: N, then the grade command.\n"
    "n=$1\n"
    "shift\n"
    "umask 077 # the task's files are the instructor's (gpulab's work folders get what its runs need)\n"
    "if [ -z \"${SLURM_ARRAY_TASK_ID:-}\" ]; then\n"
    "    echo 'gpulab slurm: not an array task (no SLURM_ARRAY_TASK_ID)' >&2\n"
    "    exit 2\n"
    "fi\n"
    "echo \"gpulab slurm: task $SLURM_ARRAY_TASK_ID of $n, job ${SLURM_ARRAY_JOB_ID:-?}, on $(hostname),"
    " $(date -u +%Y-%m-%dT%H:%M:%SZ)\"\n"
    "exec \"$@\" --shard \"$SLURM_ARRAY_TASK_ID/$n\"\n";

/* A Slurm command: its path on $PATH, or a death that says what to install. */
static char *slurm_command(const char *name)
{
    char *path = find_in_path(name);
    if (!path)
        die("%s is not on PATH: gpulab slurm runs Slurm's own commands (sbatch, squeue); run it on a machine "
            "that submits jobs to the cluster (a login node)", name);
    return path;
}

/* Runs a Slurm command to its end (at most limit_s); its result. */
static void run_slurm(const char *const *argv, double limit_s, proc_result *r)
{
    proc_spec spec = { argv, NULL, NULL, limit_s, 1 << 16, 0, 0, 0, 0, NULL, NULL };
    proc_run(&spec, r);
    if (!r->started)
        die("cannot run %s: %s", argv[0], r->out_text ? r->out_text : "");
}

/* The batch script in a private folder of its own (sbatch keeps a copy). */
static char *write_script(char **folder)
{
    *folder = make_temp_dir("gpulab-slurm");
    char *path = xasprintf("%s/grade-shard.sh", *folder);
    if (write_file(path, batch_script, strlen(batch_script)) != 0 || chmod(path, 0700) != 0)
        die("cannot write the batch script %s: %s", path, strerror(errno));
    return path;
}

/* Where each task's output goes: RECORDS/slurm/JOB_TASK.log. */
static char *log_folder(const slurm_job *j)
{
    if (strchr(j->records_dir, '%'))
        die("the records folder %s has a %% in its name, which Slurm reads as part of a pattern in the "
            "tasks' log path; choose another --records", j->records_dir);
    char *dir = xasprintf("%s/slurm", j->records_dir);
    if (make_private_dirs(dir) != 0)
        die("cannot create %s (the tasks' logs): %s", dir, strerror(errno));
    return dir;
}

/* sbatch's command line: the kit's options, the user's (which win), the
 * script, the number of tasks, the grade command. */
static const char **sbatch_argv(const slurm_job *j, const char *sbatch, const char *script, const char *logs,
                                char **owned)
{
    int nargs = 0;
    while (j->task_argv[nargs])
        nargs++;
    const char **argv = xcalloc((size_t)(nargs + j->nsbatch_options + 16), sizeof *argv);
    int k = 0;
    argv[k++] = sbatch;
    argv[k++] = "--parsable";
    argv[k++] = owned[0] = xasprintf("--array=0-%d", j->tasks - 1);
    argv[k++] = owned[1] = xasprintf("--job-name=gpulab-%s", j->m->id);
    argv[k++] = owned[2] = xasprintf("--output=%s/%%A_%%a.log", logs);
    if (j->gpu)
        argv[k++] = "--gres=gpu:1";
    argv[k++] = j->gpu ? "--cpus-per-task=" GPU_CPUS_PER_TASK : "--cpus-per-task=" EMU_CPUS_PER_TASK;
    for (int i = 0; i < j->nsbatch_options; i++)
        argv[k++] = j->sbatch_options[i];
    argv[k++] = script;
    argv[k++] = owned[3] = xasprintf("%d", j->tasks);
    for (int i = 0; i < nargs; i++)
        argv[k++] = j->task_argv[i];
    argv[k] = NULL;
    return argv;
}

int slurm_partition_has_gpus(char *const *options, int n, char **partition)
{
    const char *named = getenv("SBATCH_PARTITION");
    for (int i = 0; i < n; i++)
        if (strncmp(options[i], "--partition=", 12) == 0 || (strncmp(options[i], "-p", 2) == 0 && options[i][2]))
            named = options[i] + (options[i][1] == 'p' ? 2 : 12);
    *partition = NULL;
    char *sinfo = find_in_path("sinfo");
    if (!sinfo)
        return -1;
    const char *argv[] = { sinfo, "--noheader", "--format=%P|%G", NULL };
    proc_result r;
    run_slurm(argv, 60, &r);
    int has = -1;
    /* a line a partition (its name ends in '*' where it is the default) and its nodes' resources */
    for (char *line = r.exited && r.exit_code == 0 ? r.out_text : NULL; line && *line;) {
        char *nl = strchr(line, '\n'), *bar = strchr(line, '|');
        if (nl)
            *nl = '\0';
        if (bar) {
            *bar = '\0';
            size_t len = strlen(line);
            int is_default = len && line[len - 1] == '*';
            if (is_default)
                line[--len] = '\0';
            if (named ? strcmp(line, named) == 0 : is_default) {
                if (!*partition)
                    *partition = xstrdup(line);
                has = has == 1 || strstr(bar + 1, "gpu") ? 1 : 0;
            }
        }
        line = nl ? nl + 1 : NULL;
    }
    proc_result_free(&r);
    free(sinfo);
    return has;
}

/* The job id from sbatch --parsable ("123" or "123;cluster"), or NULL. */
static char *parse_job_id(const char *out)
{
    size_t n = strspn(out, "0123456789");
    if (n == 0 || (out[n] != '\0' && out[n] != ';' && out[n] != '\n'))
        return NULL;
    return xasprintf("%.*s", (int)n, out);
}

/* sbatch: the job's id, or a death with what Slurm said. */
static char *submit(const slurm_job *j, const char *logs)
{
    char *sbatch = slurm_command("sbatch");
    char *folder;
    char *script = write_script(&folder);
    char *owned[4] = { NULL, NULL, NULL, NULL };
    const char **argv = sbatch_argv(j, sbatch, script, logs, owned);
    proc_result r;
    /* sbatch hands its umask to the job (SLURM_UMASK): the tasks' logs,
     * like the records, the seed and the exports, are the instructor's
     * alone on a cluster of many accounts */
    mode_t umask_before = umask(077);
    run_slurm(argv, 300, &r);
    umask(umask_before);
    char *job = r.exited && r.exit_code == 0 ? parse_job_id(r.out_text) : NULL;
    remove_tree(folder);
    /* a partition without GPUs refuses --gres=gpu:1 in words of its own */
    int no_gpus = j->gpu && r.err_text && (strstr(r.err_text, "generic resource") || strstr(r.err_text, "gres"));
    if (!job)
        die("sbatch refused the job (%s %d): %s%s%s", r.exited ? "exit status" : "signal",
            r.exited ? r.exit_code : r.signal_number, printable(r.err_text), printable(r.out_text),
            no_gpus ? "\ngpulab: the partition gives no GPU (--gres=gpu:1): pass --backend emu to grade on the "
                      "emulator" : "");
    proc_result_free(&r);
    for (int i = 0; i < 4; i++)
        free(owned[i]);
    free(argv);
    free(script);
    free(folder);
    free(sbatch);
    return job;
}

static void say_how_to_follow(const slurm_job *j, const char *job, const char *logs)
{
    printf("gpulab: submitted Slurm job %s: %d array task%s grade the %d submissions of %s (%s) into %s\n",
           job, j->tasks, j->tasks == 1 ? "" : "s", j->nentries, j->m->id,
           j->gpu ? "GPU backend, a GPU per task" : "emulator backend", j->records_dir);
    printf("  follow:  squeue -j %s   (and where the cluster keeps accounting, after it ends too: sacct -j %s)\n",
           job, job);
    printf("  logs:    %s/%s_K.log   (task K)\n", logs, job);
    printf("  cancel:  scancel %s   (one task: scancel %s_K)\n", job, job);
    printf("  then:    the same gpulab slurm command grades only what has no record (a failed or cancelled "
           "task's share);\n           gpulab export %s %s --summary (--csv FILE, --html FILE) for the class\n",
           j->m->id, j->records_dir);
    fflush(stdout);
}

/* Whether the job has left the queue: squeue lists none of its tasks, or no
 * longer knows it. Dies after several failures in a row. */
static int job_gone(const char *squeue, const char *job, int *failures)
{
    const char *argv[] = { squeue, "--noheader", "--jobs", job, "--format=%i", NULL };
    proc_result r;
    run_slurm(argv, 120, &r);
    int ok = r.exited && r.exit_code == 0;
    int gone = ok ? r.out_text[strspn(r.out_text, " \t\r\n")] == '\0' : strstr(r.err_text, "Invalid job id") != NULL;
    if (!ok && !gone && ++*failures >= 5)
        die("squeue --jobs %s failed 5 times in a row (%s %d): %s", job, r.exited ? "exit status" : "signal",
            r.exited ? r.exit_code : r.signal_number, printable(r.err_text));
    if (ok)
        *failures = 0;
    proc_result_free(&r);
    return gone;
}

/* Polls squeue until the job has ended, every tenth of the time waited so
 * far (at least every second, at most every 30 s): a long job costs the
 * cluster little, and the wait overshoots the job's end by a tenth at most. */
static void wait_for(const char *job)
{
    char *squeue = slurm_command("squeue");
    double start = monotonic_s();
    int failures = 0;
    while (!job_gone(squeue, job, &failures)) {
        double pause = (monotonic_s() - start) / 10;
        usleep((useconds_t)((pause < 1 ? 1 : pause > 30 ? 30 : pause) * 1e6));
    }
    free(squeue);
}

/* After the job: the class summary from the merged records, and the
 * submissions that still have none. 0 when none is missing, else 1. */
static int report_class(const slurm_job *j, const char *job)
{
    cJSON *recs = export_load_records(j->records_dir, j->m->id);
    char *summary = export_summary(recs);
    fputs(summary, stdout);
    free(summary);
    cJSON_Delete(recs);
    int missing = 0;
    strbuf names;
    sb_init(&names);
    for (int i = 0; i < j->nentries; i++) {
        char *path = xasprintf("%s/%s.json", j->records_dir, j->entries[i].id);
        if (!file_exists(path) && missing++ < 10)
            sb_printf(&names, "%s%s", missing > 1 ? ", " : "", j->entries[i].id);
        free(path);
    }
    printf("\ngpulab: Slurm job %s has ended: %d of the class's %d submissions have a record in %s\n", job,
           j->nentries - missing, j->nentries, j->records_dir);
    if (missing)
        printf("gpulab: %d without one (%s%s): a task failed or was cancelled (its log says why); submit the "
               "same command again to grade only those\n", missing, names.buf, missing > 10 ? ", ..." : "");
    sb_free(&names);
    return missing ? 1 : 0;
}

int slurm_run(const slurm_job *j)
{
    char *logs = log_folder(j);
    char *job = submit(j, logs);
    say_how_to_follow(j, job, logs);
    int rc = 0;
    if (j->wait) {
        wait_for(job);
        rc = report_class(j, job);
    }
    free(job);
    free(logs);
    return rc;
}
