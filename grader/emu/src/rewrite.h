/* rewrite.h - emucc's CUDA-to-C++ source rewriter (rewrite.c). */
#ifndef EMU_REWRITE_H
#define EMU_REWRITE_H
#include <stddef.h>
/* What the source itself shows, counted from its tokens (never from comments
 * or strings): the grader's evidence for a lab's requirements on the emulator
 * (emucc --facts), since nothing the student's process writes can be
 * trusted. emucc counts them in the file as its preprocessor's directives
 * leave it (-fdirectives-only: what #if 0 hides is gone, macros are not
 * expanded), in the student's own lines only. */
struct emu_facts {
    int kernels;        /* __global__ functions */
    int launches;       /* kernel<<<...>>> sites */
    int shared;         /* __shared__ declarations */
    int barriers;       /* calls of __syncthreads() */
    int constants;      /* __constant__ declarations */
    int symbol_copies;  /* calls of cudaMemcpyToSymbol() */
    /* accumulations in a loop (x += ..., x = x + ...) whose right side
     * reads a __shared__ array (directly, or through a local assigned from
     * one) and no global memory (a function's pointer or structure
     * parameters, a __device__ variable, or a local assigned from them),
     * in a loop that reads no global memory either: the reuse of a tile,
     * which [global_reuse] asks of the launch log's counts too */
    int shared_accumulations;
};
/* Adds what text shows to *facts (count_fact's tokens, outside literals and
 * preprocessor lines). 0, or -1 with *err set. */
int emu_count_facts(const char *text, size_t len, struct emu_facts *facts, char **err);
/* Returns the rewritten text (malloc'd), which keeps every line of text where
 * it was, behind a first line `#line 1 "path"`; or NULL with *err set.
 * tests: the race build's, whose kernels' conditions report which way they
 * went (emu_test_, emu_device.h). */
char *emu_rewrite(const char *path, const char *text, size_t len, int tests, char **err);
/* For the GPU build (emucc --poison-shared): the CUDA source with, after
 * each __shared__ declaration at the top of a kernel's body (before any
 * return, where every thread of the block passes), a call that fills it
 * with NaN and waits for the block (grader/runtime/smem_poison_device.cuh).
 * A kernel reading shared memory no thread stored then reads NaN, whatever
 * other processes do on the GPU. Lines stay where they were. NULL with *err
 * when the source cannot be tokenised. */
char *emu_poison_shared_source(const char *text, size_t len, char **err);
/* The grading build's source pass (emucc --source-pass), both backends: with
 * poison, as emu_poison_shared_source(); with a kernel token ("NAME=HEX", a
 * fresh name and value per build, from the grader), also a first statement
 * in each kernel's body by which the launch's thread 0 of block 0 stores the
 * value in the __device__ variable NAME, declared before the file with
 * NAME_read(), the harness's reader (read and clear), which the build links
 * to the harness's call of gpulab_kernel_token() (build.c). The harness
 * prints what it read after the student's call; the grader counts the
 * dataset only when it is the build's value: a kernel of the submission ran,
 * which no line the student's code prints can claim without it. Lines stay
 * where they were (the file starts with its #line directive). for_gpu: an
 * nvcc build, else the emulator's. */
char *emu_source_pass(const char *text, size_t len, int poison, const char *kernel_token, int for_gpu,
                      char **err);
/* emucc --schemata (schemata.c): the source rewritten so that each of its
 * candidate single edits is live only while gpulab_emu_mutant (emu_schemata.h)
 * is its id; with 0, none is. Lines stay where they were. At most max
 * candidates (max < 0: all); *json gets their list (docs/emulator.md,
 * FILE.json). header_defines: the #define lines of the headers the source
 * includes (or NULL), whose integer macros are names the edits may use.
 * NULL with *err when the source cannot be tokenised. */
char *emu_schemata(const char *text, size_t len, const char *header_defines, int max, char **json, char **err);
#endif
