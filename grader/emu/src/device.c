/* device.c - the device, its properties, events and streams. */

#include "rt_int.h"

/* ---- device, events, streams ---------------------------------------------------- */

int worker_count(void)
{
    if (!rt.nworkers_cfg) {
        const char *s = getenv("GPULAB_EMU_THREADS");
        int n = s ? atoi(s) : 0;
#ifdef EMU_RACE
        /* One worker, whatever is asked: the race detector's shadow
         * (race.c) is unlocked, and it finds races between blocks from
         * the blocks' numbers, not from their running at once. */
        n = 1;
#endif
        if (n <= 0) {
            long c = sysconf(_SC_NPROCESSORS_ONLN);
            n = c > 0 ? (int)c : 1;
        }
        if (n > 256)
            n = 256;
        rt.nworkers_cfg = n;
    }
    return rt.nworkers_cfg;
}

cudaError_t cudaGetDeviceCount(int *count)
{
    if (!count)
        return set_error(cudaErrorInvalidValue);
    *count = device_hidden() ? 0 : 1;
    return device_hidden() ? set_error(cudaErrorNoDevice) : cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *p, int device)
{
    if (!p)
        return set_error(cudaErrorInvalidValue);
    if (device != 0)
        return set_error(cudaErrorInvalidDevice);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "gpulab CPU emulator");
    p->totalGlobalMem = EMU_DEVICE_MEMORY;
    p->sharedMemPerBlock = SHARED_LIMIT;
    p->sharedMemPerBlockOptin = SHARED_LIMIT;
    p->sharedMemPerMultiprocessor = 2 * SHARED_LIMIT;
    p->regsPerBlock = 65536;
    p->regsPerMultiprocessor = 65536;
    p->warpSize = 32;
    p->memPitch = (size_t)1 << 31;
    p->maxThreadsPerBlock = MAX_THREADS;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->clockRate = 1000000;
    p->totalConstMem = 65536;
    p->major = 8;
    p->minor = 0;
    p->textureAlignment = 512;
    p->multiProcessorCount = worker_count();
    p->maxThreadsPerMultiProcessor = 2048;
    p->concurrentKernels = 0;
    p->unifiedAddressing = 1;
    p->canMapHostMemory = 0;
    p->memoryClockRate = 1000000;
    p->memoryBusWidth = 64;
    p->l2CacheSize = 1 << 20;
    return cudaSuccess;
}

cudaError_t cudaSetDevice(int device)
{
    return device == 0 ? cudaSuccess : set_error(cudaErrorInvalidDevice);
}

cudaError_t cudaGetDevice(int *device)
{
    if (!device)
        return set_error(cudaErrorInvalidValue);
    *device = 0;
    return cudaSuccess;
}

/* Launches run to completion before emu_launch returns: nothing is pending. */
cudaError_t cudaDeviceSynchronize(void) { RETURN_IF_STICKY(); return cudaSuccess; }

cudaError_t cudaDeviceReset(void)
{
    pthread_mutex_lock(&rt.lock);
    size_t n = rt.nallocs;
    alloc *all = rt.allocs;
    rt.allocs = NULL;
    rt.nallocs = rt.capallocs = 0;
    pthread_mutex_unlock(&rt.lock);
    for (size_t i = 0; i < n; i++)
        release_alloc(&all[i]);
    free(all);
    pthread_mutex_lock(&rt.lock);
    rt.sticky = cudaSuccess;
    rt.last = cudaSuccess;
    pthread_mutex_unlock(&rt.lock);
    return cudaSuccess;
}

cudaError_t cudaMemGetInfo(size_t *free_bytes, size_t *total_bytes)
{
    pthread_mutex_lock(&rt.lock);
    size_t used = rt.allocated;
    pthread_mutex_unlock(&rt.lock);
    if (free_bytes)
        *free_bytes = EMU_DEVICE_MEMORY - used;
    if (total_bytes)
        *total_bytes = EMU_DEVICE_MEMORY;
    return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *v) { if (v) *v = CUDART_VERSION; return cudaSuccess; }
cudaError_t cudaDriverGetVersion(int *v) { if (v) *v = CUDART_VERSION; return cudaSuccess; }

struct CUevent_st { unsigned magic; int recorded; struct timespec t; };
#define EVENT_MAGIC 0x45564e54u

cudaError_t cudaEventCreate(cudaEvent_t *event)
{
    if (!event)
        return set_error(cudaErrorInvalidValue);
    RETURN_IF_STICKY();
    struct CUevent_st *e = calloc(1, sizeof *e);
    if (!e)
        return set_error(cudaErrorMemoryAllocation);
    e->magic = EVENT_MAGIC;
    *event = e;
    return cudaSuccess;
}

cudaError_t cudaEventRecord(cudaEvent_t e, cudaStream_t stream)
{
    (void)stream;
    RETURN_IF_STICKY();
    if (!e || e->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    clock_gettime(CLOCK_MONOTONIC, &e->t);
    e->recorded = 1;
    return cudaSuccess;
}

cudaError_t cudaEventSynchronize(cudaEvent_t e)
{
    RETURN_IF_STICKY();
    if (!e || e->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    return cudaSuccess;
}

cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t a, cudaEvent_t b)
{
    RETURN_IF_STICKY();
    if (!ms)
        return set_error(cudaErrorInvalidValue);
    if (!a || !b || a->magic != EVENT_MAGIC || b->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    if (!a->recorded || !b->recorded)
        return set_error(cudaErrorInvalidResourceHandle);
    *ms = (float)((double)(b->t.tv_sec - a->t.tv_sec) * 1e3 + (double)(b->t.tv_nsec - a->t.tv_nsec) / 1e6);
    return cudaSuccess;
}

cudaError_t cudaEventDestroy(cudaEvent_t e)
{
    if (!e || e->magic != EVENT_MAGIC)
        return set_error(cudaErrorInvalidResourceHandle);
    e->magic = 0;
    free(e);
    return cudaSuccess;
}

struct CUstream_st { int unused; };
cudaError_t cudaStreamCreate(cudaStream_t *s)
{
    if (!s)
        return set_error(cudaErrorInvalidValue);
    *s = calloc(1, sizeof **s);
    return *s ? cudaSuccess : set_error(cudaErrorMemoryAllocation);
}
cudaError_t cudaStreamSynchronize(cudaStream_t s) { (void)s; RETURN_IF_STICKY(); return cudaSuccess; }
cudaError_t cudaStreamDestroy(cudaStream_t s) { free(s); return cudaSuccess; }

