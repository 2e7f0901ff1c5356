/*
 * cuda_runtime_api.h - the gpulab CPU emulator's CUDA runtime API subset.
 *
 * Valid C11 and C++. Declares, with C linkage and under CUDA's own names and
 * numeric values, the part of the CUDA runtime that the kit's labs use. The
 * implementation is libemu (grader/emu/src/, its parts listed in rt_int.h); see docs/emulator.md.
 */
#ifndef GPULAB_EMU_CUDA_RUNTIME_API_H
#define GPULAB_EMU_CUDA_RUNTIME_API_H

#include <stddef.h>
#include "emu_switch.h"

#define GPULAB_EMU 1
#define CUDART_VERSION 13000

#ifdef __cplusplus
extern "C" {
#endif

/* Error codes: the values are CUDA's (driver_types.h). */
typedef enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorInitializationError = 3,
    cudaErrorCudartUnloading = 4,
    cudaErrorInvalidConfiguration = 9,
    cudaErrorInvalidPitchValue = 12,
    cudaErrorInvalidSymbol = 13,
    cudaErrorInvalidHostPointer = 16,
    cudaErrorInvalidDevicePointer = 17,
    cudaErrorInvalidMemcpyDirection = 21,
    cudaErrorInvalidDeviceFunction = 98,
    cudaErrorNoDevice = 100,
    cudaErrorInvalidDevice = 101,
    cudaErrorInvalidResourceHandle = 400,
    cudaErrorNotReady = 600,
    cudaErrorIllegalAddress = 700,
    cudaErrorLaunchOutOfResources = 701,
    cudaErrorLaunchTimeout = 702,
    cudaErrorAssert = 710,
    cudaErrorIllegalInstruction = 715,
    cudaErrorLaunchFailure = 719,
    cudaErrorNotSupported = 801,
    cudaErrorUnknown = 999
} cudaError_t;

typedef enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
} cudaMemcpyKind;

#ifdef __cplusplus
}
#endif

typedef struct uint3 { unsigned int x, y, z; } uint3;

#ifdef __cplusplus
struct dim3 {
    unsigned int x, y, z;
    constexpr dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
    constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
    constexpr operator uint3() const { return uint3{x, y, z}; }
};
#else
typedef struct dim3 { unsigned int x, y, z; } dim3;
#endif

#ifdef __cplusplus
extern "C" {
#endif

typedef struct CUevent_st *cudaEvent_t;
typedef struct CUstream_st *cudaStream_t;

struct cudaDeviceProp {
    char name[256];
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int clockRate;
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    int deviceOverlap;
    int multiProcessorCount;
    int kernelExecTimeoutEnabled;
    int integrated;
    int canMapHostMemory;
    int computeMode;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryClockRate;
    int memoryBusWidth;
    int l2CacheSize;
    int maxThreadsPerMultiProcessor;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    size_t sharedMemPerBlockOptin;
};
#ifndef __cplusplus
typedef struct cudaDeviceProp cudaDeviceProp;
#endif

/* Errors */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorString(cudaError_t error);
const char *cudaGetErrorName(cudaError_t error);

/* Device */
cudaError_t cudaGetDeviceCount(int *count);
cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDevice(int *device);
cudaError_t cudaDeviceSynchronize(void);
cudaError_t cudaDeviceReset(void);
/* Not declared, as in CUDA 13, which removed them: cudaThreadSynchronize,
 * cudaThreadExit and the other cudaThread* calls (the grader's report
 * names the cudaDevice* call to use: build.c, removed_api). */
cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes);
cudaError_t cudaRuntimeGetVersion(int *version);
cudaError_t cudaDriverGetVersion(int *version);

/* Memory */
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMallocHost(void **ptr, size_t size);
/* Pinned host memory is ordinary memory here; the flags are checked. */
#define cudaHostAllocDefault 0x00
#define cudaHostAllocPortable 0x01
#define cudaHostAllocMapped 0x02
#define cudaHostAllocWriteCombined 0x04
cudaError_t cudaHostAlloc(void **ptr, size_t size, unsigned int flags);
cudaError_t cudaFreeHost(void *ptr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                         size_t height, enum cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind,
                            cudaStream_t stream);
cudaError_t cudaMemset(void *devPtr, int value, size_t count);
/* C form: symbol is the address of a __constant__ or __device__ variable. */
cudaError_t emu_memcpy_to_symbol(const void *symbol, const char *name, size_t symbol_size,
                                 const void *src, size_t count, size_t offset,
                                 enum cudaMemcpyKind kind);
cudaError_t emu_memcpy_from_symbol(void *dst, const void *symbol, const char *name,
                                   size_t symbol_size, size_t count, size_t offset,
                                   enum cudaMemcpyKind kind);

/* Events and streams (launches are synchronous in the emulator) */
cudaError_t cudaEventCreate(cudaEvent_t *event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaStreamCreate(cudaStream_t *stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamDestroy(cudaStream_t stream);

/* Kernel launch, used by the code emucc generates for kernel<<<...>>>(...). */
struct emu_launch_cfg {
    const char *kernel;   /* the kernel's name as written at the launch */
    const char *file;     /* __FILE__ and __LINE__ of the launch */
    int line;
    dim3 grid, block;
    size_t shmem;
    cudaStream_t stream;
    size_t arg_size;      /* the bytes of the launch's arguments (emu_launch's arg) */
    const char *args;     /* the launch's arguments as written, for the lines that name one */
    /* The arguments of pointer type and their places (1 = the first): a
     * kernel can reach only device memory, so emu_launch refuses a host one. */
    int npointers;
    const void *pointers[16];
    unsigned char pointer_at[16];
    /* Of those, the ones a reference parameter binds (`Image_t &in`): the
     * kernel gets the address of the caller's object (bit i: pointers[i]). */
    unsigned references;
    /* The kernel's __launch_bounds__ maximum of threads per block (emucc
     * passes it), or 0: a GPU refuses a larger block. */
    unsigned max_threads;
};
cudaError_t emu_launch(const struct emu_launch_cfg *cfg, void (*invoke)(void *), void *arg);

/* Device side, used by emu_device.h and the code emucc generates. */
struct emu_shared_site { unsigned long long serial; void *ptr; };
void *emu_shared_static_(struct emu_shared_site *site, size_t size, size_t align);
void *emu_dynamic_shared_(void);
void emu_syncthreads_(const char *file, int line);
/* A kernel's return statement (emucc's rewriter puts it before each): where
 * the running thread left, for a barrier it leaves the others waiting at. */
void emu_note_return_(const char *file, int line);
/* The kit's own wrappers of cudaMemcpy and cudaMemcpy2D (timing.c) name the
 * program's return address, so that a refused copy names the student's line
 * rather than the wrapper's. */
void emu_copy_caller_(void *ret);
/* The kit's harness describes a host image it hands the student's code
 * (guard_host_rows): its rows are pitch bytes apart, row_bytes of pixels
 * each, so that a copy with another pitch or width is named (copies.c). */
void emu_note_host_rows_(const void *base, size_t pitch, size_t row_bytes, size_t rows, const char *name);
/* The kit's harness names a host buffer it allocated for the student's
 * code (guard_host_alloc): a kernel's access there is named (race.c). */
void emu_note_host_buffer_(const void *base, size_t size, const char *name);
struct emu_swap emu_sync_enter_(const char *file, int line);
extern __thread uint3 emu_threadIdx_;
extern __thread uint3 emu_blockIdx_;
extern __thread dim3 emu_blockDim_;
extern __thread dim3 emu_gridDim_;

#ifdef __cplusplus
}
#endif

#ifndef __cplusplus
#define cudaMemcpyToSymbol(symbol, src, count, offset, kind) \
    emu_memcpy_to_symbol(&(symbol), #symbol, sizeof(symbol), (src), (count), (offset), (kind))
#define cudaMemcpyFromSymbol(dst, symbol, count, offset, kind) \
    emu_memcpy_from_symbol((dst), &(symbol), #symbol, sizeof(symbol), (count), (offset), (kind))
#endif

#endif
