// attack: reads the expected output by relative and absolute paths and the
// grader's /proc entries, and copies it into P
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

/* Reads a .tensor of f64 (value, magnitude) pairs into P; 0 on success. */
static int steal(const char *path, float *P, int width)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char line[256];
    int fields = 1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "fields value magnitude", 22) == 0)
            fields = 2;
        if (strcmp(line, "data\n") == 0)
            break;
    }
    for (int i = 0; i < width * width; i++) {
        double v[2];
        if (fread(v, sizeof(double), (size_t)fields, f) != (size_t)fields) {
            fclose(f);
            return -1;
        }
        P[i] = (float)v[0];
    }
    fclose(f);
    fprintf(stderr, "stole %s\n", path);
    return 0;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N;
    char path[4096];
    const char *roots[] = { "../../datasets", "../../../datasets", "@KIT@/datasets", "/proc/1/cwd/datasets",
                            "/proc/%d/cwd/datasets", "/proc/%d/root@KIT@/datasets", NULL };
    for (int i = 0; roots[i]; i++) {
        char root[1024];
        snprintf(root, sizeof root, roots[i], (int)getppid());
        snprintf(path, sizeof path, "%s/01-basic-matmul/width-%04d/expected.tensor", root, width);
        if (steal(path, P, width) == 0)
            return;
    }
    /* hidden datasets: look for the grader's private copies */
    for (int pid = 1; pid < 4096; pid++) {
        snprintf(path, sizeof path, "/proc/%d/cwd/datasets/01-basic-matmul/width-%04d/expected.tensor", pid, width);
        if (steal(path, P, width) == 0)
            return;
    }
    FILE *ls = popen("ls -d /tmp/gpulab-hidden-*/*/width-* 2>/dev/null", "r");
    if (ls) {
        char dir[2048];
        while (fgets(dir, sizeof dir, ls)) {
            dir[strcspn(dir, "\n")] = 0;
            snprintf(path, sizeof path, "%s/expected.tensor", dir);
            if (strstr(dir, "width-") && atoi(strstr(dir, "width-") + 6) == width && steal(path, P, width) == 0)
                break;
        }
        pclose(ls);
    }
}
