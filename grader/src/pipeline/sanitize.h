/*
 * sanitize.h - the sanitizer stage, after the comparison: the lab program
 * runs again under checkers that see what the hardware forgives, and every
 * finding becomes a sentence tied to the student's own lines.
 *
 * GPU: compute-sanitizer's memcheck (out-of-bounds and misaligned accesses),
 * racecheck (shared-memory hazards: a missing __syncthreads()) and synccheck
 * (a barrier not every thread reaches). Emulator: its race-check and
 * bounds-check builds (sanitize_start). A dataset whose output matched but that has a
 * finding is `unsafe`: right by luck, worth no points.
 */
#ifndef GPULAB_SANITIZE_H
#define GPULAB_SANITIZE_H

/* The advice of a race whose barrier stands after the read it was to keep
 * after the stores; grade.c finds the finding by it (a barrier a repair
 * adds elsewhere only happens to order this run). */
#define BARRIER_AFTER_READ_ADVICE "move it up, to between the stores into the tile and the reads of it"

#include "backend.h"
#include "findings.h"
#include "manifest.h"
#include "result.h"

/* The checkers' programs of one submission, each in a folder of its own
 * laid out like the submission's work directory, so that a checker's run
 * of a dataset looks to the program like its graded run: the program
 * build/lab-program, the run folder run-DATASET, the same arguments and
 * the same environment (on the emulator, its launch log run-DATASET/gpulab-emu.log).
 * The harness's guard zones are off in these builds (build.h), so that the
 * checker sees every access. Emulator: the checked build (emucc --race:
 * races and bounds), and (want_faults) the same linked again to list
 * faulting threads (--race --list-faults);
 * GPU: the grading build linked again, once per compute-sanitizer tool
 * (they run at once) and for the hazards' run. */
enum { SAN_FOLDERS = 4 };
typedef struct {
    char *folder[SAN_FOLDERS];   /* NULL where none is needed */
    char *problem[SAN_FOLDERS];  /* why that folder's program was not built, or NULL */
} sanitize_builds;

/* The emulator's checked build of a submission, started beside its
 * grading build (grade_build) so that it costs little time: built after
 * the runs, the checkers' builds were three quarters of their cost on two
 * cores. It builds in a child process; sanitize_prebuild_wait() waits for
 * it, after which builds holds its folder and problem. */
typedef struct {
    int pid;                 /* the builder, until waited for; 0 */
    int report;              /* the pipe its problems come back on, or -1 */
    double started_s;        /* when it started (monotonic_s) */
    double allowed_s;        /* how long it may take from then (sanitize_prebuild_allow); 0: no limit of ours */
    double graded_s;         /* how long the grading build took */
    sanitize_builds builds;  /* the checked build's folder; none when none was started */
} sanitize_prebuild;

/* Nothing started: no folders, no builder (grade_build when the checkers
 * will not run on the emulator). */
void sanitize_prebuild_init(sanitize_prebuild *p);
/* facts: with what the source shows (emucc --facts, sanitize_source_facts),
 * which only a grading build that is not the emulator's needs: the
 * emulator's grading build has its own. */
void sanitize_prebuild_start(const lab_manifest *m, const backend *emu, const char *student_file, int facts,
                             sanitize_prebuild *p);
/* Once the grading build has taken graded_s: the checked build, started
 * with it and compiling the same file, may take CHECKER_BUILD_RATIO times
 * as long (at least CHECKER_BUILD_FLOOR_S); past that, waiting stops it
 * and says so as its problem. A file whose checked build is much slower
 * than its graded one costs the class no more. */
void sanitize_prebuild_allow(sanitize_prebuild *p, double graded_s);
void sanitize_prebuild_wait(sanitize_prebuild *p);
/* Waits, then removes the folders sanitize_build() did not take (keep:
 * leaves them, and names them). */
void sanitize_prebuild_free(sanitize_prebuild *p, int keep);

/* The checkers' programs, into sb. On the emulator (b), the prebuild's
 * folders when pre started them (else built now), plus the fault list's
 * relink when want_faults; on a GPU, the grading build in workdir linked
 * again. */
void sanitize_build(const lab_manifest *m, const backend *b, const char *student_file, const char *workdir,
                    int want_faults, sanitize_prebuild *pre, sanitize_builds *sb);
/* Removes the folders (keep: leaves them, and names them on stderr). */
void sanitize_builds_free(sanitize_builds *sb, int keep);
/* Whether every checker program sanitize_build() meant to make was made. */
int sanitize_builds_complete(const sanitize_builds *sb);
/* The emulator's checked build's reading of the source (emucc --facts):
 * 1 and the loops that accumulate from shared memory reading no global
 * memory, or 0 where there is no such build (compute-sanitizer's). Read
 * before that build's program runs: the run could rewrite its folder. */
int sanitize_source_facts(const sanitize_builds *sb, int *shared_accumulations);
/* Why the first one that was not made was not; NULL when all were. */
const char *sanitize_builds_problem(const sanitize_builds *sb);

/* A dataset's checker runs, started by sanitize_start() and collected by
 * sanitize_collect(), which frees it: the grader may start several
 * datasets' runs before collecting any, so that they run at once.
 *
 * On a GPU: compute-sanitizer's three tools, at once. want: when racecheck
 * reports a race, run it once more asking for every hazard, and record the
 * threads they name (r->races: slower, ask only where a race map is
 * wanted).
 *
 * On the emulator: one run of its checked build (emucc --race: its own
 * race detector, races in shared and global memory and their two lines,
 * and its bounds check, any access outside a device allocation or a shared
 * array). want: record every thread that makes an invalid access
 * (r->faults: the build made with want_faults, which goes on past its
 * faults, a relink: ask only where a fault map is wanted).
 *
 * The program runs on the dataset (its inputs in dataset_dir, its name
 * dataset); student_file: the student's source, to quote its lines. sb
 * must outlive the pending runs. */
typedef struct sanitize_pending sanitize_pending;
sanitize_pending *sanitize_start(const backend *b, const sanitize_builds *sb, const char *dataset_dir,
                                 const char *dataset, double timeout_s, int want);
void sanitize_collect(sanitize_pending *p, const char *student_file, sanitize_result *r);

/* The threads named in racecheck's hazard report (--racecheck-report
 * hazard), added to r->races: the reading and the writing thread of each
 * hazard, in the block it names, of the first kernel with a hazard; then
 * r->race_summary. */
void sanitize_parse_hazards(const char *text, sanitize_result *r);

/* The threads that raced on dataset's run on the GPU itself, for the race
 * map of an output that matched by luck, when the emulator's checkers found
 * the race: compute-sanitizer's racecheck once, every hazard printed, on
 * workdir's grading build linked again. Adds nothing without the tool. */
void sanitize_races_on_gpu(const lab_manifest *m, const backend *gpu, const char *workdir, const char *dataset_dir,
                           const char *dataset, double timeout_s, sanitize_result *r);

/* Draws r->races as a race map (errormap_write_faults: racing threads in the
 * fault map's loud colour) at ppm_path, sets r->race_map; 0, or -1. */
int sanitize_draw_race_map(sanitize_result *r, const char *ppm_path);

/* Reads the fault list of the emulator's --race --list-faults build, in
 * its launch log (docs/emulator.md), into r->faults and sets
 * r->fault_summary; a missing file adds nothing. */
void sanitize_read_emu_faults(const char *path, sanitize_result *r);

/* Draws r->faults as a fault map (errormap_write_faults) at ppm_path and
 * sets r->fault_map; returns 0, or -1 when there is nothing to draw or the
 * file cannot be written. */
int sanitize_draw_fault_map(sanitize_result *r, const char *ppm_path);

/* What sanitize_series checks: SERIES_BOUNDS the bounds check and the
 * check of device memory nothing stored alone (GPULAB_EMU_CHECKS=bounds: a
 * fraction of the full run's cost); SERIES_RACES the race check besides
 * (GPULAB_EMU_CHECKS=races), for a file whose full checks found a race. */
typedef enum { SERIES_BOUNDS, SERIES_RACES } series_checks;

/* The emulator's checked build (sb's) on each of n datasets, in series,
 * checking what, each dataset's findings into results[i] (ran set where
 * it was checked); at most timeout_s a dataset, a large grid's edge
 * blocks only. Returns how many were checked: none without the
 * emulator's checked build. */
int sanitize_series(const sanitize_builds *sb, series_checks what, const char *const *dataset_dirs, int n,
                    double timeout_s, const char *student_file, sanitize_result *results);

/* Whether the reads of device memory nothing stored that a dataset's
 * checked run reported can change its output: the checked build runs the
 * dataset again with fresh device memory filled with NaN, then with 1e9
 * (GPULAB_EMU_FILL), each output compared with the expected one under the
 * lab's tolerance. 0: both right (the values were thrown away); 1: either
 * was not, or the checked build is missing. */
int sanitize_unset_reaches_output(const sanitize_builds *sb, const lab_manifest *m, const char *dataset_dir,
                                  const char *dataset, double timeout_s, const char *student_file);
/* Moves r's "uninitialised" findings into r->notes, each as a note that
 * names the buffer and the line and says its value did not reach the
 * output (after sanitize_unset_reaches_output() said 0). */
void sanitize_unset_to_notes(sanitize_result *r);
/* Adds line to *notes (lines ending in newlines, each once). */
void sanitize_note_add(char **notes, const char *line);

/* Reads the emulator's "gpulab-emu:" diagnostic lines (docs/emulator.md). */
void sanitize_parse_emu(const char *text, const char *student_file, sanitize_result *r);

/* Parses compute-sanitizer's report (exposed for the tests through
 * `gpulab explain-sanitizer`). */
void sanitize_parse_compute_sanitizer(const char *text, const char *student_file, sanitize_result *r);


#endif
