/*
 * timing.c - see timing.h. Compiled for both backends: on the emulator the
 * events read the host's clock, and the grader shows no figures from them.
 */
#include "timing.h"
#include "guard.h"

/* The events of the call in progress. Created once, on the first call. */
static cudaEvent_t call_start, call_stop, inputs_in, result_out;
static int events_ready;
static int in_call;          /* between timing_call_begin and timing_call_stop */
static int saw_upload;       /* the student copied something to the device */
static int saw_download;     /* ... and started copying the result back */
static cudaError_t first_error = cudaSuccess;

static void note(cudaError_t err)
{
    if (err != cudaSuccess && first_error == cudaSuccess)
        first_error = err;
}

static void make_events(void)
{
    if (events_ready)
        return;
    note(cudaEventCreate(&call_start));
    note(cudaEventCreate(&call_stop));
    note(cudaEventCreate(&inputs_in));
    note(cudaEventCreate(&result_out));
    events_ready = 1;
}

/* Twice the L2 cache, written once: whatever the last call left in the cache
 * is evicted. Allocated on first use and kept (the program ends soon). */
static void flush_l2(void)
{
    static void *buffer;
    static size_t bytes;
    if (!buffer) {
        struct cudaDeviceProp prop;
        if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess || prop.l2CacheSize <= 0)
            return;
        bytes = 2 * (size_t)prop.l2CacheSize;
        /* The runtime's own cudaMalloc: this buffer is the kit's, not a
         * student buffer that needs guard zones. */
        if (cudaMalloc(&buffer, bytes) != cudaSuccess) {
            buffer = NULL;
            return;
        }
    }
    static int pass;
    note(cudaMemset(buffer, ++pass & 0xFF, bytes));
}

void timing_call_begin(int flush)
{
    make_events();
    if (flush)
        flush_l2();
    saw_upload = saw_download = 0;
    note(cudaEventRecord(call_start, 0));
    in_call = 1;
}

void timing_call_stop(void)
{
    in_call = 0;
    /* After a fault this fails too; the harness reports the fault itself. */
    (void)cudaEventRecord(call_stop, 0);
}

cudaError_t timing_call_result(double *call_ms, double *kernel_ms)
{
    float ms = 0;
    *call_ms = *kernel_ms = -1;
    note(cudaEventSynchronize(call_stop));
    note(cudaEventElapsedTime(&ms, call_start, call_stop));
    if (first_error != cudaSuccess)
        return first_error;
    *call_ms = ms;
    if (!saw_upload && !saw_download) {
        *kernel_ms = ms;        /* device pointers: the call is the kernel */
    } else if (saw_upload && saw_download) {
        note(cudaEventElapsedTime(&ms, inputs_in, result_out));
        if (first_error == cudaSuccess)
            *kernel_ms = ms;
    }
    return first_error;
}

static int is_upload(enum cudaMemcpyKind kind)
{
    return kind == cudaMemcpyHostToDevice;
}

static int is_download(enum cudaMemcpyKind kind)
{
    return kind == cudaMemcpyDeviceToHost;
}

/* Marks around one of the student's copies. Copies made after the first
 * copy back do not move the "inputs are in" mark: the kernel is over. */
static void before_copy(enum cudaMemcpyKind kind)
{
    if (in_call && is_download(kind) && !saw_download) {
        note(cudaEventRecord(result_out, 0));
        saw_download = 1;
    }
}

static void after_copy(enum cudaMemcpyKind kind)
{
    if (in_call && is_upload(kind) && !saw_download) {
        note(cudaEventRecord(inputs_in, 0));
        saw_upload = 1;
    }
}

cudaError_t lab_cuda_memcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind, const char *file,
                            int line)
{
    if (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice)
        guard_note_copy_out(src, count, file, line);
#ifdef GPULAB_EMU
    emu_copy_caller_(__builtin_return_address(0)); /* a refused copy names the student's line */
#endif
    before_copy(kind);
    cudaError_t err = cudaMemcpy(dst, src, count, kind);
    after_copy(kind);
    return err;
}

cudaError_t lab_cuda_memcpy_2d(void *dst, size_t dpitch, const void *src, size_t spitch,
                               size_t width, size_t height, enum cudaMemcpyKind kind, const char *file, int line)
{
    if (height > 0 && (kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice))
        guard_note_copy_out(src, (height - 1) * spitch + width, file, line);
#ifdef GPULAB_EMU
    emu_copy_caller_(__builtin_return_address(0));
#endif
    before_copy(kind);
    cudaError_t err = cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
    after_copy(kind);
    return err;
}
