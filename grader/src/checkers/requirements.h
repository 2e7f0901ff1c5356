/*
 * requirements.h - static requirements on a submission's kernels ("did you
 * tile?"): shared memory, a barrier, the mask in constant memory, lab 04's
 * two-batch loading.
 *
 * Evidence comes from what the kit itself derives, never from text the
 * student's build or process prints: on the GPU, the PTX the compiler kept
 * (each kernel's shared memory and barriers, reads of __constant__ memory),
 * with comments skipped; on the emulator, the launch log (GPULAB_EMU_LOG,
 * what each launch did) confirmed by what the source shows, counted by emucc
 * at build time (--facts): the log is written by the student's process and
 * alone earns nothing. On both, the block each kernel stored with the kernel
 * token (build.h), which the program cannot print without the token.
 */
#ifndef GPULAB_REQUIREMENTS_H
#define GPULAB_REQUIREMENTS_H

#include "manifest.h"
#include "result.h"

typedef struct kernel_evidence_s {
    int observed;           /* some evidence was read (a build report, or a launch) */
    long shared_bytes;      /* most shared memory any kernel used */
    long barriers;          /* most barriers any kernel used */
    long constant_bytes;    /* bytes copied to __constant__ symbols (emulator), or 1 if the PTX reads one */
    int constant_seen_in_ptx;
    char shared_kernel[128], barrier_kernel[128];
    int shared_unsized;         /* a kernel's PTX declares extern __shared__ memory: its size is the launch's */
    /* the least shared memory of any kernel that has some, and that kernel:
     * the tile two_batch judges (the token says the block, not which
     * kernel ran it, so a larger array in another kernel earns nothing) */
    long tile_bytes;
    char tile_kernel[128];
    unsigned token_block[3];    /* the largest block a kernel stored with the kernel token (both backends), else 0s */
    /* the emulator's static facts (emucc --facts) */
    int static_known;
    int static_kernels, static_launches, static_shared, static_barriers, static_constants, static_symbol_copies;
    /* accumulations in a loop that read shared memory and no global memory
     * (emu_facts.shared_accumulations): the source's side of global_reuse;
     * -1 where the facts do not say */
    int static_shared_accumulations;
} kernel_evidence;

/* The PTX files nvcc kept in dir (GPU builds). */
void evidence_from_ptx_dir(const char *dir, kernel_evidence *e);
/* The facts emucc wrote about the source (emulator builds). */
void evidence_from_emu_facts(const char *path, kernel_evidence *e);
/* Adds what one run's emulator log shows; a missing log adds nothing. */
void evidence_from_emu_log(const char *path, kernel_evidence *e);

/* Adds the block a run's kernels stored with the kernel token
 * (build_kernel_ran), kept when it has more threads than the one before. */
void evidence_from_kernel_token(const unsigned block[3], kernel_evidence *e);

/* Whether a build's evidence alone (the PTX, or emucc's facts) shows the
 * technique of requirement kind k (shared memory, a barrier, constant
 * memory; 0 for the others): what gpulab import-wb asks of a Kit lab whose
 * solution shows it. */
int requirement_shown(const kernel_evidence *e, requirement_kind k);

/* Fills s->requirements from the manifest and the evidence, adding their
 * points to s->score and s->max_score. */
void requirements_judge(const lab_manifest *m, const kernel_evidence *e, submission_result *s);

/* The points of s's requirements that were not checked (ST_NOT_CHECKED)
 * into *points, and one sentence saying which and how to check them, for
 * the score line and the record: "6 points not checked: [global_reuse] and
 * [no_hazards] need the checkers; run without --no-sanitize". NULL (and 0)
 * when every requirement was checked. The caller frees it. */
char *requirements_unchecked(const submission_result *s, double *points);

#endif
