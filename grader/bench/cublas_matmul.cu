/*
 * cublas_matmul.cu - the matrix labs' baseline for gpulab bench: P = M x N by
 * cuBLAS, built like a lab 03 submission (so lab 03's harness times it the
 * way it times a student's file) and linked with -lcublas.
 *
 * Strict FP32: CUBLAS_COMPUTE_32F with the default math mode never uses the
 * tensor cores' TF32 (the bench also sets NVIDIA_TF32_OVERRIDE=0), so this is
 * what the GPU's FP32 units do for a library that knows them well.
 *
 * cuBLAS is column-major. A row-major j x l matrix is a column-major l x j
 * one, its transpose; P^T = N^T x M^T, so asking cuBLAS for N x M with the
 * dimensions swapped gives row-major P without a transpose.
 */
#include <cublas_v2.h>
#include <stdio.h>
#include <stdlib.h>
#include "lab.h"

static void check_cublas(cublasStatus_t st, const char *call)
{
    if (st != CUBLAS_STATUS_SUCCESS) {
        fprintf(stderr, "cublas_matmul: %s failed with status %d\n", call, (int)st);
        exit(1);
    }
}

void arbitrary_matmul(const float *M, const float *N, float *P, int j, int k, int l)
{
    /* One handle for all calls: creating it is setup, not multiplication;
     * the warm-up call pays for it. */
    static cublasHandle_t handle;
    if (!handle) {
        check_cublas(cublasCreate(&handle), "cublasCreate");
        check_cublas(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH), "cublasSetMathMode");
    }
    const float one = 1.0f, zero = 0.0f;
    check_cublas(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, l, j, k, &one, N, CUDA_R_32F, l, M,
                              CUDA_R_32F, k, &zero, P, CUDA_R_32F, l, CUBLAS_COMPUTE_32F,
                              CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
}
