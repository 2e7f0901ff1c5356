// attack: starts 256 threads that spin (from a constructor, in the start-up
// that has a limit of its own, then in the call until the time limit), to
// take the processors from the submissions graded beside it (grade
// --parallel), hoping their runs time out
// expect: zero
#include "lab.h"
#include <pthread.h>
#include <stdio.h>
#include <time.h>

static volatile unsigned long counters[257];

static void *spin(void *arg)
{
    volatile unsigned long *n = (volatile unsigned long *)arg;
    for (;;)
        (*n)++;
    return NULL;
}

__attribute__((constructor)) static void start_spinning(void)
{
    int started = 0;
    for (int i = 0; i < 256; i++) {
        pthread_t t;
        started += pthread_create(&t, NULL, spin, (void *)&counters[i]) == 0;
    }
    printf("spinners: %d threads spinning\n", started);
    fflush(stdout);
    time_t until = time(NULL) + 10; /* and this thread too, for 10 s of start-up */
    while (time(NULL) < until)
        counters[256]++;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    (void)M; (void)N; (void)P; (void)width;
    spin((void *)&counters[256]);
}
