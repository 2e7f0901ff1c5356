/*
 * counts.h - what a kernel reads from and writes to global and shared
 * memory, as the emulator's checked build (emucc --race) counts it in the
 * sanitizer stage's runs: every access its instrumentation sees, the same
 * on every machine for the same build (docs/emulator.md, "counts").
 *
 * From the counts of a dataset and its sizes, the report's line ("global
 * reads: 0.125 per multiply-add ...") and the global_reuse requirement:
 * a kernel whose global reads are not cut by the tiling it declares (its
 * shared memory and its block) loses it.
 *
 * The counts come from the launch log, which the student's own process
 * writes (as the requirements' evidence does): a program could write
 * counts of its own there. global_reuse is met only where the source
 * declares __shared__ memory (emucc's facts) as well.
 */
#ifndef GPULAB_COUNTS_H
#define GPULAB_COUNTS_H

#include "manifest.h"
#include "result.h"

#include <cJSON.h>

/* How many times what the declared tiling reads a kernel may read from
 * global memory and still meet global_reuse: room for a kernel that loads
 * its tiles in a way of its own (a halo loaded twice at the corners, a
 * value reread outside the inner loop). A kernel that reads its operands
 * from global memory in the inner loop reads at least the tile width times
 * more. */
#define COUNTS_MARGIN 1.5

/* Adds up the "counts" of every launch in a checker run's launch log; c->known
 * stays 0 when there were none (a missing file, a build without counts). */
void counts_read_emu_log(const char *path, access_counts *c);

/* The output tile of a convolution launch of `block` threads with
 * shared_bytes of shared memory and a halo of h: the block when its shared
 * tile holds the block and its halo (lab 04), else the block less the halo
 * (lab 05), else a square from the shared memory alone; 0s when none. */
void counts_image_tile(long shared_bytes, const unsigned block[3], int h, int t[2]);

/* s->reads: the counts of the checked dataset with the most work (index:
 * the manifest's index of each of s's datasets), in the lab's unit of
 * work, with what lab 01's kernel and the declared tiling would read. */
void counts_summarise(const lab_manifest *m, const int *index, submission_result *s);

/* The report's line, without its label: "0.125 per multiply-add on
 * width-0064 (lab 01's kernel: 2.0); yours reuse each element they read
 * 16.0 times" (malloc'd), or NULL when nothing was counted. */
char *counts_sentence(const access_summary *a);

/* A record's "global_reads" (report.c writes it) back into a: the
 * figures counts_sentence and counts_figure need; a->dataset points into
 * g. 0, or -1 when g is null or not such an object. */
int counts_from_record(const cJSON *g, access_summary *a);

/* "0.125 per multiply-add" (malloc'd), or NULL when nothing was counted:
 * the class page's column. */
char *counts_figure(const access_summary *a);

/* The global_reuse requirement, from s->reads: met when the global reads
 * are at most COUNTS_MARGIN times what the declared tiling reads, and the
 * source declares shared memory (static_shared, from emucc's facts; -1:
 * not known, a GPU build) and has a loop whose accumulation reads it and
 * no global memory (static_reuse, emucc's shared_accumulations; -1: not
 * known). The counts come from the student's own process, which can
 * write them; the source's count comes from the kit. */
void counts_judge(const requirement_spec *q, const submission_result *s, int static_shared, int static_reuse,
                  requirement_result *r);

#endif
