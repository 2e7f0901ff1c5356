/*
 * requirements.h - static requirements on a submission's kernels ("did you
 * tile?"): shared memory, a barrier, the mask in constant memory.
 *
 * Evidence comes from what the build or the run shows, never from grepping
 * the source: on the GPU, ptxas's resource report (nvcc --resource-usage
 * prints each kernel's shared memory and barriers, and the module's user
 * constant memory); on the emulator, its launch log (GPULAB_EMU_LOG), which
 * records what each launch actually did.
 */
#ifndef GPULAB_REQUIREMENTS_H
#define GPULAB_REQUIREMENTS_H

#include "manifest.h"
#include "result.h"

typedef struct {
    int observed;           /* some evidence was read (a build report, or a launch) */
    long shared_bytes;      /* most shared memory any kernel used */
    long barriers;          /* most barriers any kernel used */
    long constant_bytes;    /* bytes copied to __constant__ symbols (emulator), or 1 if the PTX reads one */
    int constant_seen_in_ptx;
    char shared_kernel[128], barrier_kernel[128];
} kernel_evidence;

void evidence_from_ptxas(const char *build_log, kernel_evidence *e);
/* Looks through the PTX files nvcc kept in dir for reads of __constant__
 * memory (CUDA 13's ptxas no longer reports user constant banks). */
void evidence_from_ptx_dir(const char *dir, kernel_evidence *e);
/* Adds what one run's emulator log shows; a missing log adds nothing. */
void evidence_from_emu_log(const char *path, kernel_evidence *e);

/* Fills s->requirements from the manifest and the evidence, adding their
 * points to s->score and s->max_score. */
void requirements_judge(const lab_manifest *m, const kernel_evidence *e, submission_result *s);

#endif
