/*
 * repair.h - the repair search: for a submission whose output was wrong
 * (or that crashed or faulted) on some dataset, find the one local edit
 * of the student's source that makes every dataset right, and name its
 * line (mutation-based fault localisation: the edit that mends the
 * evidence locates the cause, whatever the mistake was).
 *
 * One build holds every candidate edit (emucc --schemata: the global
 * gpulab_emu_mutant picks the live one, 0 the program as written); the
 * smallest failing dataset runs once per candidate in one process
 * (harness --series-mutants, run_mutants: each entry its own output and
 * its own time, a candidate that crashes or hangs costing only itself);
 * the grader compares each output; the candidates that make it right run
 * on every dataset, and one that makes them all right is a repair. On a
 * GPU the search runs on the emulator, as the checkers do, so both
 * backends say the same.
 */
#ifndef GPULAB_REPAIR_H
#define GPULAB_REPAIR_H

#include "backend.h"
#include "manifest.h"
#include "result.h"

/* The search's bounds (docs/performance.md, "The repair search"): the
 * candidates screened, the repairs confirmed on every dataset, and the
 * seconds the screening may take. */
#define REPAIR_MAX_CANDIDATES 800
#define REPAIR_MAX_CONFIRMED 4
#define REPAIR_SCREEN_BUDGET_S 3.0
#define REPAIR_BATCH 64 /* candidates screened before a confirming, at least (whole tiers) */
/* The failing datasets tried for the screening, smallest first, where the
 * program as written comes out right in the search's build on one */
#define REPAIR_SCREEN_TRIES 3
/* A candidate's processor time: four times the program's own run of the
 * dataset and this much more (a child's start, its first launch's worker) */
#define REPAIR_CANDIDATE_FLOOR_S 0.5
/* a candidate's run of every dataset: at most this many times the graded
 * runs' seconds, and this many more */
#define REPAIR_CONFIRM_FACTOR 10.0
#define REPAIR_CONFIRM_FLOOR_S 8.0

/* A full repair confirmed on enough datasets to be the evidence itself:
 * on one or two (check --dataset) many an edit mends by coincidence (an
 * `l` for a `j` where the two sizes are equal), so it ranks as a partial
 * repair does. */
#define REPAIR_STRONG_DATASETS 3
int repair_strong(const repair_result *r);

/* A dataset's status the search can mend: wrong, crashed or faulted (not
 * a timeout: a loop that never ends is no single wrong value; not a right
 * output, unsafe or not). */
int repair_failed(status_t st);
/* Whether the search has anything to do on s: a dataset wrong, crashed or
 * faulted (not a timeout: a loop that never ends is no single wrong
 * value), the file built. */
int repair_wanted(const submission_result *s);

/* The search on s, whose datasets' input folders are dirs[0..s->ndatasets);
 * failing[0..nfailing): the positions in s->datasets of the datasets that
 * failed as repair_failed() says, smallest first (the candidates are
 * screened on the first, the few that mend it on the next ones);
 * lines[0..nlines): the lines a finding or the kit's record of a run
 * points at, preferred among repairs. Fills s->repair (found 0 when the
 * schemata build failed or nothing mended). */
void repair_stage(const lab_manifest *m, const backend *b, const char *student_file, const char *const *dirs,
                  const int *failing, int nfailing, const int *lines, int nlines, double timeout_s, int keep,
                  submission_result *s);

#endif
