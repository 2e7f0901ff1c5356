/*
 * harness.c - shared body of every lab's harness main(); see harness.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "lab_common.h"
#include "smem_poison.h"
#include "timing.h"

#include <math.h>

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

/* A field of an "@gpulab" line: tabs separate fields, so tabs and newlines
 * inside one become spaces. */
static void print_field(FILE *f, const char *s)
{
    fputc('\t', f);
    for (; s && *s; s++)
        fputc(*s == '\n' || *s == '\r' || *s == '\t' ? ' ' : *s, f);
}

static void report_cuda_error(cudaError_t err, const char *call, const char *file, int line)
{
    fflush(stdout);
    char line_text[32];
    snprintf(line_text, sizeof line_text, "%d", line);
    printf("@gpulab\tcuda_error");
    print_field(stdout, cudaGetErrorName(err));
    print_field(stdout, call);
    print_field(stdout, file);
    print_field(stdout, line_text);
    print_field(stdout, cudaGetErrorString(err));
    printf("\n");
    fflush(stdout);
    fprintf(stderr, "%s:%d: CUDA error %s (%s) from %s\n", file, line, cudaGetErrorName(err),
            cudaGetErrorString(err), call);
    exit(HARNESS_EXIT_CUDA);
}

void lab_cuda_fail(cudaError_t err, const char *call, const char *file, int line)
{
    report_cuda_error(err, call, file, line);
}

void harness_check(cudaError_t err, const char *call, const char *file, int line)
{
    if (err != cudaSuccess)
        report_cuda_error(err, call, file, line);
}

void harness_dataset_error(const harness_ctx *h, const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "harness: dataset %s: ", h ? h->dataset_dir : "?");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(HARNESS_EXIT_DATASET);
}

void harness_fail_wrong(const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fflush(stdout);
    printf("@gpulab\twrong");
    print_field(stdout, msg);
    printf("\n");
    fflush(stdout);
    fprintf(stderr, "harness: %s\n", msg);
    harness_exit(HARNESS_EXIT_WRONG);
}

void harness_begin(harness_ctx *h, int argc, char **argv)
{
    memset(h, 0, sizeof *h);
    if (argc != 3) {
        fprintf(stderr, "usage: %s DATASET_DIR OUTPUT_FILE\n", argc > 0 ? argv[0] : "lab");
        exit(HARNESS_EXIT_USAGE);
    }
    h->dataset_dir = argv[1];
    h->output_path = argv[2];
    h->calls = 1;
    h->kept_call = -1;
    const char *calls = getenv(HARNESS_CALLS_ENV);
    if (calls && *calls) {
        char *end;
        long n = strtol(calls, &end, 10);
        if (*end || n < 1 || n > HARNESS_MAX_CALLS) {
            fprintf(stderr, "%s=%s: give a number of calls from 1 to %d\n", HARNESS_CALLS_ENV, calls,
                    HARNESS_MAX_CALLS);
            exit(HARNESS_EXIT_USAGE);
        }
        h->calls = (int)n;
    }
    /* The student's printf and ours share stdout: line buffering keeps the
     * "@gpulab" lines whole even when output is a pipe. */
    setvbuf(stdout, NULL, _IOLBF, 0);
}

void harness_load(const harness_ctx *h, const char *name, gl_matrix *m)
{
    char path[4096];
    gl_error err;
    snprintf(path, sizeof path, "%s/%s", h->dataset_dir, name);
    if (gl_read_matrix(path, m, &err))
        harness_dataset_error(h, "%s", err.msg);
}

void harness_load_image_and_mask(const harness_ctx *h, gl_matrix *image, gl_matrix *mask, int mask_width)
{
    static const char *const names[] = { "input0.ppm", "input0.pgm" };
    const char *name = NULL;
    for (int i = 0; i < 2 && !name; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", h->dataset_dir, names[i]);
        FILE *f = fopen(path, "rb");
        if (f) {
            fclose(f);
            name = names[i];
        }
    }
    if (!name)
        harness_dataset_error(h, "no input0.ppm or input0.pgm (the input image)");
    harness_load(h, name, image);
    harness_load(h, "input1.raw", mask);
    if (mask->rows != mask_width || mask->cols != mask_width || mask->channels != 1)
        harness_dataset_error(h, "the mask is %d x %d; this lab needs %d x %d", mask->rows, mask->cols,
                              mask_width, mask_width);
}

/* Host outputs live in guarded memory (never freed: the program ends after
 * harness_finish), so a cudaMemcpy of too many bytes back into them shows. */
#define MAX_HOST_OUTPUTS 4
static const void *host_outputs[MAX_HOST_OUTPUTS];
static int nhost_outputs;

void harness_alloc_output(gl_matrix *m, int rows, int cols, int channels)
{
    gl_error err;
    if (gl_check_dims(rows, cols, channels, "output", &err))
        harness_dataset_error(NULL, "%s", err.msg);
    m->rows = rows;
    m->cols = cols;
    m->channels = channels;
    size_t bytes = gl_matrix_count(m) * sizeof(float);
    m->data = guard_host_alloc(bytes, "P");
    if (!m->data)
        harness_dataset_error(NULL, "out of memory for a %d x %d x %d output", rows, cols, channels);
    gl_fill_poison(m->data, gl_matrix_count(m));
    if (nhost_outputs < MAX_HOST_OUTPUTS)
        host_outputs[nhost_outputs++] = m->data;
}

float *harness_device_upload(const gl_matrix *m)
{
    float *d = NULL;
    size_t bytes = gl_matrix_count(m) * sizeof(float);
    HARNESS_CHECK(cudaMalloc((void **)&d, bytes));
    HARNESS_CHECK(cudaMemcpy(d, m->data, bytes, cudaMemcpyHostToDevice));
    guard_name(d, "an input buffer");
    return d;
}

float *harness_device_alloc(size_t count, const char *name)
{
    float *d = NULL;
    HARNESS_CHECK(cudaMalloc((void **)&d, count * sizeof(float)));
    guard_name(d, name);
    return d;
}

void harness_device_fill(float *device, const float *host, size_t count)
{
    HARNESS_CHECK(cudaMemcpy(device, host, count * sizeof(float), cudaMemcpyHostToDevice));
}

void harness_device_poison(float *device, size_t count)
{
    static float *poison;
    static size_t poison_count;
    if (poison_count < count) {
        free(poison);
        poison = malloc(count * sizeof(float));
        if (!poison)
            harness_dataset_error(NULL, "out of memory for %zu floats", count);
        gl_fill_poison(poison, count);
        poison_count = count;
    }
    harness_device_fill(device, poison, count);
}

/* One scaled copy per input matrix, reused from call to call. */
#define MAX_SCALED_INPUTS 4
static struct {
    const gl_matrix *source;
    float *data;
} scaled[MAX_SCALED_INPUTS];

const float *harness_call_input(const harness_ctx *h, const gl_matrix *m)
{
    int e = harness_call_exponent(h->call);
    if (e == 0)
        return m->data;
    int i = 0;
    while (i < MAX_SCALED_INPUTS && scaled[i].source && scaled[i].source != m)
        i++;
    if (i == MAX_SCALED_INPUTS)
        harness_dataset_error(h, "more than %d scaled inputs (the kit's harness is wrong)",
                              MAX_SCALED_INPUTS);
    size_t n = gl_matrix_count(m);
    if (!scaled[i].source) {
        scaled[i].source = m;
        scaled[i].data = malloc(n * sizeof(float));
        if (!scaled[i].data)
            harness_dataset_error(h, "out of memory for a copy of an input (%zu floats)", n);
    }
    for (size_t k = 0; k < n; k++)
        scaled[i].data[k] = ldexpf(m->data[k], e);
    return scaled[i].data;
}

void harness_keep_output(harness_ctx *h, const gl_matrix *out)
{
    char path[4096];
    gl_error err;
    harness_call_output_path(path, sizeof path, h->output_path, h->call);
    if (gl_write_output(path, out, &err))
        harness_dataset_error(h, "%s", err.msg);
    h->kept_call = h->call;
}

void harness_device_download(gl_matrix *m, const float *device)
{
    HARNESS_CHECK(cudaMemcpy(m->data, device, gl_matrix_count(m) * sizeof(float),
                             cudaMemcpyDeviceToHost));
}

void harness_device_free(float *device)
{
    HARNESS_CHECK(cudaFree(device));
}

void harness_call_begin(harness_ctx *h)
{
    harness_poison_shared_memory();
    /* Make sure earlier uploads are done, so the time is the student's. */
    HARNESS_CHECK(cudaDeviceSynchronize());
    timing_call_begin(h->calls > 1);
    h->t_start = now_ms();
}

/* Defined by the grading build's source pass (emucc --kernel-token) in the
 * student's own file, absent elsewhere (a benchmark build, check without
 * it): the value the submission's kernels stored since the last read. */
extern unsigned long long gpulab_kernel_token(void) __attribute__((weak));

void harness_call_end(harness_ctx *h)
{
    /* A kernel's fault surfaces at the next synchronisation; a bad launch
     * configuration only in cudaGetLastError. Check both, in that order. */
    timing_call_stop();
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
        report_cuda_error(err, "cudaDeviceSynchronize() after your entry point", "harness", 0);
    err = cudaGetLastError();
    if (err != cudaSuccess)
        report_cuda_error(err, "cudaGetLastError() after your entry point", "harness", 0);
    double wall_ms = now_ms() - h->t_start, call_ms, kernel_ms;
    err = timing_call_result(&call_ms, &kernel_ms);
    if (err != cudaSuccess)
        report_cuda_error(err, "the kit's timing events", "harness", 0);
    /* on a line of its own even when the student's last print did not end one */
    if (gpulab_kernel_token)
        printf("\n@gpulab\tkernel_token\t%llx\n", gpulab_kernel_token());
    if (h->call == 0)
        printf("@gpulab\ttime_ms\tcall\t%.3f\n", wall_ms);
    printf("@gpulab\tcall\t%d\t%.4f\t%.4f\n", h->call, call_ms, kernel_ms);
}

void harness_ready(void)
{
    /* The context now, so its cost falls before the clock starts. A failure
     * here (no device) is not sticky: cleared, and the harness's own first
     * call reports it where the student can see which call it was. */
    (void)cudaFree(0);
    (void)cudaGetLastError();
    const char *fd_text = getenv(HARNESS_READY_FD_ENV);
    if (!fd_text)
        return;
    char *end;
    long fd = strtol(fd_text, &end, 10);
    if (*end || fd < 3 || fd > 1024)
        return;
    if (write((int)fd, "r", 1) != 1) {
        /* the grader has gone or closed its end: it is not waiting, nothing to do */
    }
    close((int)fd);
}

static char noted_wrong[1024];

void harness_reset(void)
{
    noted_wrong[0] = '\0';
    nhost_outputs = 0;
    for (int i = 0; i < MAX_SCALED_INPUTS; i++) {
        free(scaled[i].data);
        scaled[i].source = NULL;
        scaled[i].data = NULL;
    }
}

void harness_note_wrong(const char *fmt, ...)
{
    if (noted_wrong[0])
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(noted_wrong, sizeof noted_wrong, fmt, ap);
    va_end(ap);
}

void harness_finish(const harness_ctx *h, const gl_matrix *out)
{
    gl_error err;
    /* The output first: even a run that ends in a memory error or a noted
     * wrong result leaves the grader something to compare and draw. */
    if (h->kept_call < 0 && gl_write_output(h->output_path, out, &err))
        harness_dataset_error(h, "%s", err.msg);
    guard_check_all();
    for (int i = 0; i < nhost_outputs; i++)
        guard_host_check(host_outputs[i]);
    const char *damage = guard_failure();
    if (damage) {
        fflush(stdout);
        printf("@gpulab\tmemory_error");
        print_field(stdout, damage);
        printf("\n");
        fflush(stdout);
        fprintf(stderr, "harness: memory error: %s\n", damage);
        exit(HARNESS_EXIT_MEMORY);
    }
    if (noted_wrong[0])
        harness_fail_wrong("%s", noted_wrong);
    fflush(stdout);
    harness_exit(HARNESS_EXIT_OK);
}
