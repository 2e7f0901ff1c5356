/*
 * wb.h - `gpulab wb`: a Teaching Kit program (libwb's API) built, run and
 * judged by the kit (docs/teaching-kit.md).
 */
#ifndef GPULAB_WB_H
#define GPULAB_WB_H

/* gpulab wb FILE.cu [--backend gpu|emu] [--libwb-tolerance] [--timeout S]
 * [--keep] -- ARGS. Exit status: 0 the solution is correct, 1 it is not (or
 * the program did not build, crashed, or never called wbSolution), 2 usage
 * or grader error. */
int cmd_wb(int argc, char **argv);

#include "process.h"

/* Runs a built Teaching Kit program with its libwb arguments, in cwd (NULL:
 * the current folder), under a time limit; wbSolution also writes what it
 * was given to solution_path (.tensor); libwb_tolerance: its verdict uses
 * libwb's rule. In the sandbox where one is on (import-wb), which needs a
 * cwd of the program's own holding the files the arguments name and
 * solution_path. */
void wb_run_program(const char *program, char *const *args, int nargs, const char *solution_path,
                    int libwb_tolerance, double timeout_s, const char *cwd, proc_result *p);
/* What the run alone says went wrong (a crash, a time-out, an exit status
 * other than 0), or NULL when it ended normally (malloc'd). */
char *wb_run_problem(const proc_result *p, double timeout_s);

#endif
