// attack: writes into the records folder (other students' records and its
// own) and appends to the kit's expected outputs
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include <dirent.h>
void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    DIR *d = opendir("@RECORDS@");
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            char path[4096];
            snprintf(path, sizeof path, "@RECORDS@/%s", e->d_name);
            FILE *f = fopen(path, "w");
            if (f) { fputs("{\"id\": \"x\", \"score\": 1000}\n", f); fclose(f); fprintf(stderr, "clobbered %s\n", path); }
        }
        closedir(d);
    }
    FILE *f = fopen("@RECORDS@/write_results.json", "w");
    if (f) { fputs("{\"score\": 8}\n", f); fclose(f); }
    char path[4096];
    snprintf(path, sizeof path, "@KIT@/datasets/01-basic-matmul/width-%04d/expected.tensor", width);
    int fd = open(path, O_WRONLY | O_APPEND);
    if (fd >= 0) { if (write(fd, "x", 1) == 1) fprintf(stderr, "corrupted %s\n", path); close(fd); }
    fd = open(path, O_WRONLY | O_TRUNC);
    if (fd >= 0) close(fd);
}
