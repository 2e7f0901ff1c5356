// attack: writes forged reports, results and output files everywhere it can reach
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

static void put(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) { fputs(text, f); fclose(f); fprintf(stderr, "wrote %s\n", path); }
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    const char *fake = "{\"score\": 8, \"max_score\": 8, \"status\": \"pass\"}\n";
    const char *paths[] = { "report.json", "../report.json", "../../report.json", "results.json",
                            "/tmp/results.json", "/autograder/results/results.json",
                            "../build.json", "@KIT@/grades.json", "@KIT@/gpulab-records/01-basic-matmul/alice.json",
                            "../output.tensor", "expected.tensor", NULL };
    for (int i = 0; paths[i]; i++)
        put(paths[i], fake);
    /* an output file that claims to be the harness's, written before it runs */
    put("output.tensor", "gpulab-tensor 1\nshape 1 1\ndtype f32\nfields value\ndata\n");
}
