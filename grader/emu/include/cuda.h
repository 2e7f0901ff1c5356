/* cuda.h - the gpulab CPU emulator's stand-in for CUDA's driver API header:
 * a program that includes it, as nvcc accepts, gets CUDA_VERSION and the
 * emulator's runtime and device side (cuda_runtime.h), never the machine's
 * CUDA headers (emucc refuses those: docs/emulator.md). The driver API
 * itself (cu* calls) is not emulated. */
#ifndef GPULAB_EMU_CUDA_H
#define GPULAB_EMU_CUDA_H
#include "cuda_runtime.h"
#ifndef CUDA_VERSION
#define CUDA_VERSION CUDART_VERSION
#endif
#endif
