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

#endif
