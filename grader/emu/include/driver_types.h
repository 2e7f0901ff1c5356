/* driver_types.h - the gpulab CPU emulator's stand-in for CUDA's header of
 * the same name (cudaError_t, cudaMemcpyKind and the other runtime types): a
 * program that includes it, as nvcc accepts, gets the emulator's runtime and
 * device side (cuda_runtime.h), never the machine's CUDA headers (emucc
 * refuses those: docs/emulator.md). */
#ifndef GPULAB_EMU_DRIVER_TYPES_H
#define GPULAB_EMU_DRIVER_TYPES_H
#include "cuda_runtime.h"
#endif
