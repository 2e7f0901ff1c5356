// attack: a constructor that runs before the harness: sets LD_PRELOAD and
// other variables, re-runs itself, prints fake lines, and an atexit handler
// that rewrites the output file after the harness wrote it
// expect: zero
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>

#include <sys/wait.h>
extern char **environ;

static void forge(void)
{
    FILE *f = fopen("output.tensor", "r+b");
    if (!f)
        return;
    /* keep the harness's header, fill every value with 1.0 */
    char line[256];
    while (fgets(line, sizeof line, f) && strcmp(line, "data\n") != 0)
        ;
    long at = ftell(f);
    fseek(f, 0, SEEK_END);
    long end = ftell(f);
    fseek(f, at, SEEK_SET);
    float one = 1.0f;
    for (long i = at; i + 4 <= end; i += 4)
        fwrite(&one, 4, 1, f);
    fclose(f);
}

__attribute__((constructor)) static void before_main(void)
{
    setenv("LD_PRELOAD", "/tmp/evil.so", 1);
    setenv("GPULAB_EMU_LOG", "/dev/null", 1);
    /* hides the GPU (the emulator's too): every CUDA call then fails, on
     * either backend, though a grading worker names its GPU in this variable */
    setenv("CUDA_VISIBLE_DEVICES", "", 1);
    printf("@gpulab\tpass\n");
    atexit(forge);
    if (!getenv("ATTACK_CHILD")) {
        setenv("ATTACK_CHILD", "1", 1);
        if (fork() == 0) {
            char self[4096];
            ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
            if (n > 0) {
                self[n] = 0;
                char *args[] = { self, (char *)".", (char *)"output.tensor", NULL };
                execve(self, args, environ);
            }
            _exit(0);
        }
        wait(NULL);
    }
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
}
