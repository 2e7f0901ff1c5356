/*
 * build.h - the build stage: the student's file, compiled once for the
 * chosen backend and linked with the lab's prebuilt harness and runtime.
 */
#ifndef GPULAB_BUILD_H
#define GPULAB_BUILD_H

#include "backend.h"
#include "manifest.h"

typedef struct {
    int ok;
    int grader_fault;   /* the kit, not the student, is at fault (harness not built) */
    char *program;      /* the linked lab program */
    char *log;          /* everything the compiler and linker said */
    char *message;      /* one line when !ok; when ok, a note or NULL (a removed API run as its
                           replacement in a whole Kit program) */
    double seconds;     /* the whole build's time (the monotonic clock) */
    double token_s;     /* of it, a GPU grading build's second compile: the kernel token's device code */
} build_result;

void build_submission(const lab_manifest *m, const backend *b, const char *student_path,
                      const char *workdir, build_result *r);

/* The sanitizer stage's builds. Each goes in a folder of its own laid out
 * like a work directory (its program at build_program_path(folder)), and
 * is linked with the harness's runtime without guard zones, a choice of
 * the build: a checker's run looks like a graded one to the program.
 * The emulator's: mode "race" (emucc --race: its race detector and bounds
 * check, the sanitizer stage's one build) or "check" (emucc --check,
 * AddressSanitizer), with the kernel token like the grading build, and
 * with what the source shows (emucc --facts) when facts is set. */
void build_emu_checker(const lab_manifest *m, const backend *b, const char *student_path,
                       const char *folder, const char *mode, int facts, build_result *r);
/* The repair search's build (repair.h): the grading build's, compiled by
 * emucc with --schemata, which puts every candidate single edit of the
 * source into the one program (the global gpulab_emu_mutant picks the live
 * one, 0: none) and lists them in build/BUILD_SCHEMATA_NAME. */
#define BUILD_SCHEMATA_NAME "schemata.json"
void build_emu_schemata(const lab_manifest *m, const backend *b, const char *student_path, const char *folder,
                        build_result *r);
/* The program of the build in from's build folder (a GPU's grading build,
 * for compute-sanitizer; an emulator's "race" build, with list_faults:
 * emucc --race --list-faults), linked again in folder for the checkers. */
void build_checker_relink(const lab_manifest *m, const backend *b, const char *from, const char *folder,
                          int list_faults, build_result *r);
/* A Teaching Kit program (gpulab wb): a file with its own main() that
 * includes wb.h (or gputk.h), built like a submission (the GPU's
 * shared-memory poison, the emulator's checks) and linked with
 * libgpulab_wb.a instead of a lab's harness; the program is
 * build_program_path(workdir). */
void build_wb_program(const backend *b, const char *path, const char *workdir, build_result *r);
/* A timing build (gpulab bench): like a submission's, but on a GPU without
 * the shared-memory poison (emucc --poison-shared) that the grading build
 * adds, and linked with one more library when library is not NULL
 * ("-lcublas": the baselines). */
void build_with_library(const lab_manifest *m, const backend *b, const char *path,
                        const char *workdir, const char *library, build_result *r);

void build_result_free(build_result *r);

/* Once, at start-up, before any build (and any fork): the grader's secret
 * for the kernel tokens. */
void build_init(void);
/* The kernel token of the grading build in workdir, "NAME=HEX" (malloc'd):
 * the source pass (emucc --kernel-token) makes each of the submission's
 * kernels store HEX, its low 29 bits XORed with the block's shape, in the
 * __device__ variable NAME, and the harness prints what it read after the
 * call. Derived from the grader's secret and workdir, written nowhere a run
 * can read (the marked source is removed once compiled). */
char *build_kernel_token(const char *workdir);
/* Whether one of the lines in seen (the values the harness printed, one per
 * line) is the token of workdir's build with a block's shape in its low
 * bits: a kernel of the submission ran. When block is not NULL it gets the
 * shape with the most threads among those lines (0s when none ran). */
int build_kernel_ran(const char *workdir, const char *seen, unsigned block[3]);

/* Where a build leaves its program: workdir/build/lab-program (malloc'd). */
char *build_program_path(const char *workdir);

/* text (a run's error output) with the build folder's names for the
 * student's file (WORKDIR/build/..., and the kit's marked or poisoned copy,
 * whose lines are the student's) replaced by the name the student gave
 * (malloc'd): the emulator's lines then point at their own file. */
char *build_student_named(const char *text, const char *workdir, const char *student_file);
/* The folder of the PTX a GPU build keeps (the requirements' evidence). */
char *build_keep_dir(const char *workdir);
/* What emucc saw in the source (emucc --facts; emulator builds). */
char *build_facts_path(const char *workdir);

/* What the grading build in workdir shows of the lab's techniques
 * (requirements.h): its PTX on a GPU, emucc's facts about the source on the
 * emulator. */
struct kernel_evidence_s;
void build_evidence(const backend *b, const char *workdir, struct kernel_evidence_s *e);

#endif
