/*
 * wb_runtime.h - the C half of the kit's libwb-compatible API: what wb.h's
 * C++ overloads and macros call, implemented in wb.c (libgpulab_wb.a).
 * Teaching Kit programs include wb.h (or gputk.h), never this file.
 */
#ifndef GPULAB_WB_RUNTIME_H
#define GPULAB_WB_RUNTIME_H

#ifdef __cplusplus
extern "C" {
#endif

/* The program's command line, libwb's form:
 *   -i in0,in1,...  -e expected  -o output  -t matrix|vector|image|... */
typedef struct {
    int ninputs;
    char **inputs;
    char *expected;     /* NULL when not given */
    char *output;       /* NULL when not given */
    char *type;         /* NULL when not given */
} wbArg_t;

/* An image: height rows of width pixels of channels interleaved floats in
 * [0, 1] (an 8-bit PPM's byte b is b / 255). */
typedef struct wb_image {
    int width, height, channels, pitch;
    float *data;
} *wbImage_t;

/* wbTime_start/stop's kinds and wbLog's levels, named as the macros paste them. */
typedef enum {
    wbTimeKind_Generic, wbTimeKind_IO, wbTimeKind_GPU, wbTimeKind_Copy, wbTimeKind_Driver,
    wbTimeKind_CopyAsync, wbTimeKind_Compute, wbTimeKind_CPUGPUOverlap, wbTimeKind_count
} wb_time_kind;
typedef enum {
    wbLogLevel_OFF, wbLogLevel_FATAL, wbLogLevel_ERROR, wbLogLevel_WARN, wbLogLevel_INFO,
    wbLogLevel_DEBUG, wbLogLevel_TRACE, wbLogLevel_count
} wb_log_level;

/* A problem the program cannot go past (a missing argument, an unreadable
 * file) ends it with this status, after one line on stderr saying what and
 * where. */
#define WB_EXIT_ERROR 3

/* Environment read by wbSolution (set by `gpulab wb`, docs/teaching-kit.md):
 * GPULAB_WB_TOLERANCE=libwb judges with libwb's rule (|got - expected| <= 0.2)
 * instead of the kit's; GPULAB_WB_SOLUTION=PATH also writes what the program
 * handed to wbSolution there (.tensor), for the grader to judge again in its
 * own process. */
#define WB_ENV_TOLERANCE "GPULAB_WB_TOLERANCE"
#define WB_ENV_SOLUTION "GPULAB_WB_SOLUTION"
/* Set by an imported lab's harness (wb_harness.c): there is no -e, the
 * grader judges, and wbSolution only hands the output over. */
#define WB_ENV_GRADED "GPULAB_WB_GRADED"

/* Not in a lab of the kit's own (GPULAB_LAB_BUILD, wb.h): there the harness
 * owns the command line. */
#ifndef GPULAB_LAB_BUILD
wbArg_t wbArg_read(int argc, char **argv);
void wbArg_delete(wbArg_t args);
int wbArg_getInputCount(wbArg_t args);
char *wbArg_getInputFile(wbArg_t args, int index);
char *wbArg_getExpectedOutputFile(wbArg_t args);
char *wbArg_getOutputFile(wbArg_t args);
char *wbArg_getType(wbArg_t args);
#endif

/* A matrix or vector from a .raw/.csv/.txt file (malloc'd; free() it).
 * cols NULL: the file's element count goes to *rows (a vector). */
float *wb_import_floats(const char *file, int *rows, int *cols);
wbImage_t wb_import_image(const char *file);
/* libwb's "Integer" import: the same files, every value a whole number a
 * float holds exactly (malloc'd ints). */
int *wb_import_ints(const char *file, int *rows, int *cols);
/* libwb's wbImport_flag: a file that holds one whole number and nothing
 * else (the Kit's BfsQueue picks its mode by one). */
int wb_import_flag(const char *file);
/* libwb's "Text" import: the file's bytes (malloc'd, NUL after them), their
 * count in *length. */
char *wb_import_text(const char *file, int *length);
void wb_export_floats(const char *file, const float *data, int rows, int cols);
void wb_export_image(const char *file, wbImage_t image);

/* What the Kit's dataset generators (dataset_generator.cpp) call besides
 * the above: wbDirectory_current() (getcwd, malloc'd), wbDirectory_create()
 * (the folder and its parents; returns a malloc'd copy of the path) and
 * wbDataset_generate(), which writes random data: a matrix of rows x cols
 * values in [minVal, maxVal] (wbExportKind_raw; wbType_float or
 * wbType_integer) or an 8-bit image of pixels in [minVal, maxVal] of 1
 * (wbExportKind_ppm), the file's folder made first. rand() draws them, so a
 * generator that never calls srand() writes the same files every run. */
typedef enum { wbType_unknown = -1, wbType_ascii = 1, wbType_bit8, wbType_ubit8, wbType_integer, wbType_float,
               wbType_double } wbType_t;
typedef enum { wbExportKind_unknown = -1, wbExportKind_raw = 1, wbExportKind_csv, wbExportKind_tsv,
               wbExportKind_ppm, wbExportKind_text } wbExportKind_t;
typedef struct {
    int rows, cols;
    double minVal, maxVal;
    wbType_t type;
} wbRaw_GenerateParams_t;
typedef wbRaw_GenerateParams_t wbCSV_GenerateParams_t;
typedef struct {
    int height, width, channels;
    double minVal, maxVal;
} wbPPM_GenerateParams_t;
typedef union {
    wbRaw_GenerateParams_t raw;
    wbCSV_GenerateParams_t csv;
    wbPPM_GenerateParams_t ppm;
} wbGenerateParams_t;
#ifndef GPULAB_LAB_BUILD
char *wbDirectory_current(void);
char *wbDirectory_create(const char *path);
void wbDataset_generate(const char *file, wbExportKind_t kind, wbGenerateParams_t params);
#endif

/* A new image's pixels hold the kit's poison (a NaN, dataset.h) until
 * written: one never written is reported as such. */
wbImage_t wbImage_new(int width, int height, int channels);
void wbImage_delete(wbImage_t image);
int wbImage_getWidth(wbImage_t image);
int wbImage_getHeight(wbImage_t image);
int wbImage_getChannels(wbImage_t image);
int wbImage_getPitch(wbImage_t image);
float *wbImage_getData(wbImage_t image);

/* Judges data (rows x cols x channels) against the -e file and prints
 * "The solution is correct" or "The solution is NOT correct" with the worst
 * elements; returns 1 when correct. Also writes -o's file when given. */
int wb_solution(wbArg_t args, const float *data, int rows, int cols, int channels);

void wb_time_start(int kind, const char *file, int line, const char *message);
void wb_time_stop(int kind, const char *file, int line, const char *message);
void wb_log_line(int level, const char *file, int line, const char *text);
/* wbAssert's failure: one line on stderr naming the file, the line, the
 * condition (and the message, when not NULL), then abort(). */
void wb_assert_fail(const char *file, int line, const char *condition, const char *message)
    __attribute__((noreturn));

#ifdef __cplusplus
}
#endif

#endif
