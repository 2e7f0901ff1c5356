/*
 * similar.h - gpulab similar: which submissions of a class are alike in
 * what the students wrote themselves, pairs ranked, for a person to read
 * (docs/instructor-guide.md, "Similar submissions"; docs/formats.md).
 *
 * Each file becomes tokens (similar.c has its own tokeniser: comments,
 * layout and preprocessor lines gone, literals one kind each, identifiers
 * renamed within each k-gram), k-grams of tokens are hashed, and winnowing
 * (Schleimer, Wilkerson and Aiken, SIGMOD 2003) keeps the fingerprints: a
 * shared run of at least SIMILAR_K + SIMILAR_W - 1 tokens always shares one.
 * Fingerprints of the lab's skeleton, and those in more than half of a
 * class of five or more, are left out: they are not the students' own.
 */
#ifndef GPULAB_SIMILAR_H
#define GPULAB_SIMILAR_H

#include "batch.h"
#include "manifest.h"

#define SIMILAR_K 8     /* tokens in a k-gram */
#define SIMILAR_W 4     /* k-grams in a winnowing window */

typedef struct {
    const lab_manifest *m;
    const batch_entry *entries;     /* batch_collect's: an entry without a path is left out, and said */
    int n;
    int json;                       /* --format json, else text */
    const char *out;                /* the report's file, or NULL / "-": standard output */
    const char *html;               /* the side-by-side page, or NULL */
} similar_job;

/* Compares every pair; writes the report (and the page). Returns 0. */
int similar_run(const similar_job *j);

#endif
