/*
 * grade.h - one submission's whole path: build, then for each dataset run
 * and compare, into a submission_result that report.c prints.
 */
#ifndef GPULAB_GRADE_H
#define GPULAB_GRADE_H

#include "backend.h"
#include "build.h"
#include "manifest.h"
#include "result.h"
#include "sanitize.h"

/* Whose checkers run the sanitizer stage: by default the emulator's race
 * and bounds builds, on both backends (on a GPU machine they run on its
 * cores); compute-sanitizer on a GPU when asked for (grade.c,
 * checkers_backend). */
enum { CHECKERS_DEFAULT, CHECKERS_EMULATOR, CHECKERS_COMPUTE_SANITIZER };

typedef struct {
    int dataset;        /* index of the one dataset to use, or -1 for every default dataset */
    double timeout_s;   /* per dataset; 0: the manifest's */
    int keep;           /* keep the work directory (printed to stderr) */
    int no_sanitize;    /* skip the sanitizer stage */
    int checkers;       /* CHECKERS_DEFAULT, or the one --checkers asked for */
    const char *maps_dir; /* where image labs' error maps go; NULL: ./gpulab-errormaps */
    const char *datasets_root; /* NULL: the kit's datasets; else <root>/<name>/ (hidden, regenerated) */
} grade_options;

void grade_submission(const lab_manifest *m, const backend *b, const char *file,
                      const grade_options *opt, submission_result *s);

/* The build stage: the grading build into workdir and, beside it when the
 * checkers will run on the emulator (on both backends, by default), their
 * builds (sanitize_prebuild_start), which grade_built() waits for. */
void grade_build(const lab_manifest *m, const backend *b, const char *file, const grade_options *opt,
                 const char *workdir, build_result *r, sanitize_prebuild *pre);

/* The stages after the build, for a submission already built (by
 * grade_build, into workdir, perhaps in another process): run and compare
 * each dataset, run the checkers, judge the requirements. The caller owns
 * workdir; grade_built frees pre (NULL: the checkers build when needed). */
void grade_built(const lab_manifest *m, const backend *b, const char *file,
                 const grade_options *opt, const char *workdir, const build_result *built,
                 sanitize_prebuild *pre, submission_result *s);

#endif
