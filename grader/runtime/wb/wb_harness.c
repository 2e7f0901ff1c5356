/*
 * wb_harness.c - lab_main() of a lab imported from the Teaching Kit
 * (gpulab import-wb): the student's file is a whole libwb program, compiled
 * as it is, its main() then renamed wb_program_main in its object
 * (build.c). For one dataset this calls it the way the Kit runs it, -i with
 * the dataset's input files in order, and no -e: the expected output never
 * reaches the student's process.
 * wbSolution hands what it is given to the grader (WB_ENV_SOLUTION, the
 * run's output file) and the grader compares it after the process has ended,
 * as for every lab.
 *
 * Each imported lab's labs/<id>/harness.c is one line that includes this
 * file, so the Makefile builds it like any lab's harness.
 */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include "wb/wb_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The most inputs a Kit dataset has in practice is three; this is room. */
#define WB_MAX_INPUTS 16

int wb_program_main(int argc, char **argv);
/* The grading build's kernel token (harness.c, emucc --kernel-token): what
 * the program's kernels stored; absent from builds without the pass. */
extern unsigned long long gpulab_kernel_token(void) __attribute__((weak));

/* DIR/input<k>.<ext>, the first extension that exists, or NULL. */
static char *input_file(const char *dir, int k)
{
    static const char *const exts[] = { "raw", "ppm", "pgm", "csv", "txt" };
    for (size_t i = 0; i < sizeof exts / sizeof *exts; i++) {
        size_t n = strlen(dir) + 32;
        char *path = malloc(n);
        if (!path)
            return NULL;
        snprintf(path, n, "%s/input%d.%s", dir, k, exts[i]);
        struct stat st;
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
            return path;
        free(path);
    }
    return NULL;
}

int lab_main(int argc, char **argv)
{
    harness_ctx h;
    harness_begin(&h, argc, argv);
    char list[WB_MAX_INPUTS * 64 + 4096] = "";
    int n = 0;
    for (char *f; n < WB_MAX_INPUTS && (f = input_file(h.dataset_dir, n)) != NULL; n++) {
        if (strlen(list) + strlen(f) + 2 >= sizeof list)
            harness_dataset_error(&h, "the input files' names are too long");
        if (n)
            strcat(list, ",");
        strcat(list, f);
        free(f);
    }
    if (n == 0)
        harness_dataset_error(&h, "no input0.raw (or .ppm, .pgm, .csv, .txt)");
    if (setenv(WB_ENV_SOLUTION, h.output_path, 1) != 0 || setenv(WB_ENV_GRADED, "1", 1) != 0)
        harness_dataset_error(&h, "cannot set the environment");
    char *program_argv[] = { argv[0], (char *)"-i", list, NULL };
    int rc = wb_program_main(3, program_argv);
    /* A CUDA error the program's own checks stopped at is reported as one. */
    harness_check(cudaDeviceSynchronize(), "cudaDeviceSynchronize() after the program's main()", __FILE__,
                  __LINE__);
    /* on a line of its own even when the program's last print did not end one */
    if (gpulab_kernel_token)
        printf("\n@gpulab\tkernel_token\t%llx\n", gpulab_kernel_token());
    if (rc != 0) {
        fprintf(stderr, "the program's main() returned %d\n", rc);
        fflush(stderr);
        exit(rc & 0xff ? rc & 0xff : 1);
    }
    harness_exit(HARNESS_EXIT_OK);
}
