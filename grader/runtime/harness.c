/*
 * harness.c - shared body of every lab's harness main(); see harness.h.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "lab_common.h"
#include "smem_poison.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

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
    exit(HARNESS_EXIT_WRONG);
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

float *harness_device_alloc_poisoned(size_t count)
{
    float *d = NULL;
    HARNESS_CHECK(cudaMalloc((void **)&d, count * sizeof(float)));
    float *poison = malloc(count * sizeof(float));
    if (!poison)
        harness_dataset_error(NULL, "out of memory for %zu floats", count);
    gl_fill_poison(poison, count);
    HARNESS_CHECK(cudaMemcpy(d, poison, count * sizeof(float), cudaMemcpyHostToDevice));
    free(poison);
    guard_name(d, "the output buffer");
    return d;
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
    h->t_start = now_ms();
}

void harness_call_end(harness_ctx *h)
{
    /* A kernel's fault surfaces at the next synchronisation; a bad launch
     * configuration only in cudaGetLastError. Check both, in that order. */
    cudaError_t err = cudaDeviceSynchronize();
    if (err != cudaSuccess)
        report_cuda_error(err, "cudaDeviceSynchronize() after your entry point", "harness", 0);
    err = cudaGetLastError();
    if (err != cudaSuccess)
        report_cuda_error(err, "cudaGetLastError() after your entry point", "harness", 0);
    printf("@gpulab\ttime_ms\tcall\t%.3f\n", now_ms() - h->t_start);
}

static char noted_wrong[1024];

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
    if (gl_write_output(h->output_path, out, &err))
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
    exit(HARNESS_EXIT_OK);
}
