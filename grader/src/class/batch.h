/*
 * batch.h - grading a class: many submissions, builds in parallel and runs
 * one at a time, or (--parallel) several graded at once spread over the
 * GPUs; one record per submission written atomically to a records
 * directory, so a killed batch resumes where it stopped.
 *
 * A record (docs/formats.md, "Grading records") is report_json()'s record
 * plus who and what was graded: the submission's id and sha256, the grader's
 * version, the datasets' hashes and seed, the sandbox. A submission whose
 * record already matches (same submission sha256, grader, backend, datasets)
 * is not graded again.
 */
#ifndef GPULAB_BATCH_H
#define GPULAB_BATCH_H

#include <cJSON.h>
#include "backend.h"
#include "grade.h"
#include "manifest.h"
#include "result.h"

typedef struct {
    char *id;           /* unique within the batch; safe as a file name */
    char *name;         /* the folder's or file's name the id was made from */
    char *clash;        /* when another entry's name made the same id: what happened, else NULL */
    char *path;         /* the student's .cu, or NULL when the folder has none */
    char *problem;      /* why there is nothing to grade, or NULL */
    int misnamed;       /* a folder's only .cu file, not named as the lab asks */
    int student_folder; /* a sub-folder of an argument: one student's among a class's */
} batch_entry;

/* The id a folder's or file's name gives: every byte but letters, digits,
 * '-', '_' and '.' made '_' (so "s1099 smith" is s1099_smith), never a
 * leading dot; "submission" for an empty name (malloc'd). Adjustments'
 * ids (export.h) are cleaned the same way. */
char *batch_clean_id(const char *raw);

/* Finds the submissions in the command line's arguments: a folder holding the
 * lab's source file is one submission; any other folder holds one per
 * sub-folder (its source file, or its only .cu) and per .cu file. Dies on an
 * argument that does not exist. Entries whose names make the same id
 * ("s1001 smith", "s1001_smith") are all graded, under distinct ids, each
 * with its `clash` said (named on standard error too). */
batch_entry *batch_collect(const lab_manifest *m, const char *const *args, int nargs, int *n);
void batch_entries_free(batch_entry *e, int n);

typedef struct {
    const char *records_dir;    /* where each <id>.json goes */
    const char *grader_version;
    int jobs;                   /* builds at once (one grading process) */
    int parallel;               /* >1: this many submissions built and graded at once, in worker
                                   processes spread over the backend's GPUs */
    int text_reports;           /* make each submission's text report for on_record */
    int color;                  /* ... with colour */
    int verbose;                /* ... every failing dataset's details (report_text) */
    grade_options go;           /* dataset selection, timeout, keep */
    int use_seed;               /* regenerate the datasets with `seed` */
    unsigned long long seed;
    const char *secret;         /* regenerate with a seed from this and the id */
    int progress;               /* draw a progress bar on stderr */
    int quiet;                  /* no summary line on stderr */
} batch_options;

typedef struct {
    int total, graded, skipped, grader_errors;
    double seconds;
} batch_summary;

/* Grades every entry (or reuses its matching record) and returns the records,
 * in the entries' order. on_record (may be NULL) is called as each record is
 * ready, in the entries' order, with the text report of the submission just
 * graded (when o->text_reports; else NULL), or NULL for a reused record. */
cJSON *batch_run(const lab_manifest *m, const backend *b, const batch_entry *e, int n,
                 const batch_options *o,
                 void (*on_record)(const cJSON *rec, const char *report, void *ctx),
                 void *ctx, batch_summary *sum);

/* The shard (0 to nshards - 1) a submission's id falls to (grade --shard
 * K/N): the first 52 bits of sha256("gpulab-shard 1", a NUL, the id) mod
 * nshards (docs/formats.md). The id alone decides it, so every task of a
 * Slurm job agrees, whatever the class looks like when each one starts. */
int batch_shard_of(const char *id, int nshards);
/* Keeps, at the front of e, the entries of shard k of nshards, in their
 * order, and frees the others; returns how many it kept. */
int batch_keep_shard(batch_entry *e, int n, int k, int nshards);

/* The seed a secret gives one submission (documented in docs/formats.md). */
unsigned long long batch_secret_seed(const char *secret, const char *id);

#endif
