/*
 * smem_poison.h - fill the GPU's shared memory with NaN before the student's
 * kernels run.
 *
 * Shared memory is not initialised: a kernel that reads an element no thread
 * wrote (a ghost cell never set to 0, a tile element never loaded) reads
 * whatever the previous kernel left there. On a GPU that is often a right-
 * looking value, and the verdict then depends on the run. Filling every
 * multiprocessor's shared memory with NaN first makes such a read poison the
 * result every time, as the CPU emulator does at the start of each block.
 */
#ifndef GPULAB_SMEM_POISON_H
#define GPULAB_SMEM_POISON_H

#ifdef __cplusplus
extern "C" {
#endif

/* GPU build: one launch that fills all shared memory; emulator build: nothing
 * (the emulator poisons each block's shared memory itself). */
void harness_poison_shared_memory(void);

#ifdef __cplusplus
}
#endif

#endif
