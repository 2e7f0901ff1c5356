/*
 * build_cause.h - the cause of a compile error upstream of the compiler's
 * first error (build_cause.c says how it is read).
 */
#ifndef GPULAB_BUILD_CAUSE_H
#define GPULAB_BUILD_CAUSE_H

#include "manifest.h"

/* A cause the source shows upstream of the compiler's first error in log
 * (a declaration, a #define, an #include the file lacks), which the report
 * gives after that error; NULL where it shows none. file: the student's
 * file; m: its lab (the header and skeleton a missing name came from). A
 * new string. */
char *compile_error_cause(const char *file, const char *log, const lab_manifest *m);

/* A launch of file's whose arguments stand in other parameters' places,
 * each named for another (two exchanged, or three or more moved round),
 * said with where each went and what to pass; only the launch at line
 * `at` where at > 0. NULL where none is. A new string. */
char *launch_arguments_misplaced(const char *file, int at);

#endif
