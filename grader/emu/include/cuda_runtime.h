/* cuda_runtime.h - the gpulab CPU emulator: the runtime API, and in C++ the device side. */
#ifndef GPULAB_EMU_CUDA_RUNTIME_H
#define GPULAB_EMU_CUDA_RUNTIME_H
#include "cuda_runtime_api.h"
#ifdef __cplusplus
#include "emu_device.h"
#endif
#endif
