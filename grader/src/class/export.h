/*
 * export.h - what a class's records become for other tools: a CSV gradebook
 * (export_csv.c), JUnit XML (export_junit.c), Gradescope's results.json
 * (export_gradescope.c) and the class summary (summary.c), with what they
 * share in export.c (the Gradescope autograder zip: package.h).
 * Every format is documented in docs/formats.md. The exports are made from
 * the grading records (batch.h) alone, so they can be made again later.
 */
#ifndef GPULAB_EXPORT_H
#define GPULAB_EXPORT_H

#include <cJSON.h>
#include <stddef.h>
#include "util.h"

/* Every record of lab id in a records folder (its *.json files), in name
 * order; a .json file that is not one is named on standard error and left
 * out, other files are not read. Dies when the folder cannot be read. */
cJSON *export_load_records(const char *dir, const char *id);

/* One row per record: id, total, max, status, one column per dataset, one
 * per requirement ("req:<name>"). */
char *export_csv(const cJSON *records, const char *source);
/* The class at a glance, as text: mean, median, a score histogram,
 * each dataset's pass rate, counts of statuses and checker findings, the
 * sandbox, and where the datasets came from (the seed, hidden or public).
 * The figures come from class_summary_make (html.c draws the same ones). */
char *export_summary(const cJSON *records);

/* Names with a count each, in the order first seen. */
typedef struct {
    char **names;
    int *counts;
    int n;
} name_tally;

typedef struct {
    int n;                          /* submissions; nothing else is set when 0 */
    double max, mean, median, lowest, highest;
    int buckets[11];                /* scores by tenth of the maximum; [10] is the maximum */
    char **datasets;                /* every dataset named in a record (borrowed from the records) */
    int ndatasets;
    int *passed, *graded;           /* per dataset */
    name_tally status;              /* export_status() of each submission */
    name_tally dataset_status;      /* of each dataset of each submission */
    name_tally findings;            /* the checkers' findings by kind */
    name_tally sandbox;             /* the records' "sandbox" */
    const char *seed, *seed_from;   /* the first record's, or NULL (borrowed) */
    int hidden;                     /* some dataset was hidden (regenerated) */
} class_summary;

/* The records must outlive the summary. */
void class_summary_make(const cJSON *records, class_summary *cs);
void class_summary_free(class_summary *cs);
/* "0-9%" ... "90-99%", "100%" for bucket b (0..10), in buf. */
const char *class_summary_bucket_label(int b, char *buf, size_t len);

/* Why a record has its status, in a few words (the gradebook's "reason"
 * column): "misnamed file (...)", "race at lines 41/52", "timeout on 8
 * datasets"; empty for a pass. source: the lab's file name, or NULL. */
char *export_reason(const cJSON *rec, const char *source);

/* text with every absolute path of the grading machine in it ("/home/ta/
 * class/alice/basic_matmul.cu:12: error", "the folder /srv/c/bob has no")
 * cut to its last component, for what students see: the gradebook's
 * reasons, the web pages, Gradescope's output (malloc'd). A path is a word
 * that starts with '/' and holds another '/'; "lines 41/52" and "//" are not. */
char *export_private_paths(const char *text);

/* Text escaped for XML and HTML (&, <, >, ", '): characters XML does not
 * allow (controls, U+FFFE/U+FFFF) and bytes that are not UTF-8 become '?'. */
void export_xml_text(strbuf *sb, const char *s);

/* One <testsuite> per record, one <testcase> per dataset and requirement. */
char *export_junit(const char *lab, const cJSON *records);

/* Gradescope's results.json for one record. */
cJSON *export_gradescope(const cJSON *record);

/* A small name -> count table, for the export files: adds one to the
 * count of name (copies of the names) and returns the new count, so 1
 * means seen for the first time; export_free_counts frees the table. */
int export_count_name(char ***names, int **counts, int *n, const char *name);
/* Adds name (borrowed, not copied) to a list of names unless it is there. */
void export_add_name(char ***names, int *n, const char *name);
/* The entry of a JSON list whose "name" is name, or NULL. */
const cJSON *export_find_named(const cJSON *list, const char *name);
void export_free_counts(char **names, int *counts, int n);

/* A record's overall word: pass, fail, compile_error, missing, grader_error. */
const char *export_status(const cJSON *record);

#endif
