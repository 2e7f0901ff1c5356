/*
 * export.h - what a class's records become for other tools: a CSV gradebook,
 * JUnit XML, Gradescope's results.json, and the Gradescope autograder zip.
 * Every format is documented in docs/formats.md. The exports are made from
 * the grading records (batch.h) alone, so they can be made again later.
 */
#ifndef GPULAB_EXPORT_H
#define GPULAB_EXPORT_H

#include <cJSON.h>

/* One row per record: id, total, max, status, one column per dataset, one
 * per requirement ("req:<name>"). */
char *export_csv(const cJSON *records, const char *source);
/* The class at a glance, as text: mean, median, a score histogram,
 * each dataset's pass rate, counts of statuses and checker findings, and
 * where the datasets came from (the seed, hidden or public). */
char *export_summary(const cJSON *records);

/* One <testsuite> per record, one <testcase> per dataset and requirement. */
char *export_junit(const char *lab, const cJSON *records);

/* Gradescope's results.json for one record. */
cJSON *export_gradescope(const cJSON *record);

/* A record's overall word: pass, fail, compile_error, missing, grader_error. */
const char *export_status(const cJSON *record);

/* Replaces every invalid UTF-8 sequence in the tree's strings with U+FFFD,
 * so a program's raw bytes never make a record unreadable. */
void json_fix_utf8(cJSON *item);

/* gpulab gradescope-package LAB OUT.zip [--seed S | --secret K] [--backend B] */
int cmd_gradescope_package(int argc, char **argv);

/* Writes a zip of files (paths relative to base) with no compression.
 * Returns 0, or -1 with *why set. */
int zip_store(const char *zip_path, const char *base, char **files, int nfiles, char **why);

#endif
