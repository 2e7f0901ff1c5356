/*
 * wb.h - the libwb API of the NVIDIA/Illinois GPU Teaching Kit, for this kit.
 *
 * A Teaching Kit program (#include "wb.h" or <wb.h>) builds unchanged with
 * nvcc or with the kit's emulator (emucc) and runs with libwb's command line,
 *     PROGRAM -i input0.raw,input1.raw -e output.raw [-o out.raw] [-t matrix]
 * `gpulab wb FILE.cu -- ARGS` does both (docs/teaching-kit.md). What differs
 * from libwb: wbSolution judges with the kit's comparison rule
 * (docs/tolerance.md) and lists the worst elements, not the first; device
 * memory is never zeroed (on the emulator it starts as NaN).
 *
 * The API is written for this kit from libwb's documented behaviour; its C
 * half is wb_runtime.h (implemented in wb.c, linked as libgpulab_wb.a); here
 * are the C++ overloads and the macros that take a kind or a level by name.
 */
#ifndef GPULAB_WB_H
#define GPULAB_WB_H

#ifndef __cplusplus
#error "wb.h is for CUDA C++ programs (.cu files), compiled by nvcc or the kit's emucc"
#endif

#include "wb_runtime.h"

#include <initializer_list>
#include <sstream>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <string>

/* A lab imported from the Kit (gpulab import-wb) builds the program with
 * main renamed for its harness (-Dmain=wb_program_main, wb_harness.c),
 * which calls it from C: the renamed main keeps C linkage. */
#ifdef main
extern "C" int main(int argc, char **argv);
#endif

/* Any list of things that `std::ostream <<` prints, as one string. */
template <typename... T>
static inline std::string wb_text(const T &...parts)
{
    std::ostringstream s;
    (void)std::initializer_list<int>{ ((void)(s << parts), 0)... };
    return s.str();
}

/* wbLog(LEVEL, things...): LEVEL is TRACE, DEBUG, INFO, WARN, ERROR or FATAL. */
#define wbLog(level, ...) wb_log_line(wbLogLevel_##level, __FILE__, __LINE__, wb_text(__VA_ARGS__).c_str())

/* wbTime_start(KIND, message...) ... wbTime_stop(KIND, message...): KIND is
 * Generic, IO, GPU, Copy, Driver, CopyAsync, Compute or CPUGPUOverlap; a stop
 * matches the latest start of the same kind and message and prints the time. */
#define wbTime_start(kind, ...) wb_time_start(wbTimeKind_##kind, __FILE__, __LINE__, wb_text(__VA_ARGS__).c_str())
#define wbTime_stop(kind, ...) wb_time_stop(wbTimeKind_##kind, __FILE__, __LINE__, wb_text(__VA_ARGS__).c_str())

/* wbImport: a vector (its length in *length), a matrix, or an image. */
static inline float *wbImport(const char *file, int *length)
{
    return wb_import_floats(file, length, NULL);
}
static inline float *wbImport(const char *file, int *rows, int *cols)
{
    return wb_import_floats(file, rows, cols);
}
/* libwb's typed form; the kit's datasets hold real numbers ("Real"). */
static inline float *wbImport(const char *file, int *rows, int *cols, const char *kind)
{
    if (kind && strcmp(kind, "Real") != 0) {
        fprintf(stderr, "wbImport(%s, ..., \"%s\"): this kit imports real numbers only (\"Real\")\n",
                file ? file : "(null)", kind);
        exit(WB_EXIT_ERROR);
    }
    return wb_import_floats(file, rows, cols);
}
static inline wbImage_t wbImport(const char *file)
{
    return wb_import_image(file);
}

static inline void wbExport(const char *file, const float *data, int length)
{
    wb_export_floats(file, data, length, 1);
}
static inline void wbExport(const char *file, const float *data, int rows, int cols)
{
    wb_export_floats(file, data, rows, cols);
}
static inline void wbExport(const char *file, wbImage_t image)
{
    wb_export_image(file, image);
}

/* An image of 3 channels unless told otherwise. */
static inline wbImage_t wbImage_new(int width, int height)
{
    return wbImage_new(width, height, 3);
}

/* wbSolution: compares with -e's file, prints "The solution is correct" or
 * "The solution is NOT correct" (with the worst elements); true when correct. */
static inline bool wbSolution(wbArg_t args, const float *data, int length)
{
    return wb_solution(args, data, length, 1, 1) != 0;
}
static inline bool wbSolution(wbArg_t args, const float *data, int rows, int cols)
{
    return wb_solution(args, data, rows, cols, 1) != 0;
}
static inline bool wbSolution(wbArg_t args, wbImage_t image)
{
    if (!image) {
        printf("The solution is NOT correct: wbSolution was given no image (a NULL wbImage_t)\n");
        return false;
    }
    return wb_solution(args, wbImage_getData(image), wbImage_getHeight(image), wbImage_getWidth(image),
                       wbImage_getChannels(image)) != 0;
}

#endif
