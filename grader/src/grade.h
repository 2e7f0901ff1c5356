/*
 * grade.h - one submission's whole path: build, then for each dataset run
 * and compare, into a submission_result that report.c prints.
 */
#ifndef GPULAB_GRADE_H
#define GPULAB_GRADE_H

#include "backend.h"
#include "manifest.h"
#include "result.h"

typedef struct {
    int dataset;        /* index of the one dataset to use, or -1 for every default dataset */
    double timeout_s;   /* per dataset; 0: the manifest's */
    int keep;           /* keep the work directory (printed to stderr) */
} grade_options;

void grade_submission(const lab_manifest *m, const backend *b, const char *file,
                      const grade_options *opt, submission_result *s);

#endif
