/* A C11 harness for lab_style.cu: compiled with gcc -std=c11 -Wall -Wextra
 * against the emulator's cuda_runtime_api.h, linked by emucc. */
#include <cuda_runtime_api.h>
#include <stdio.h>

void vec_add(const float *a, const float *b, float *c, int n);

int main(void)
{
    enum { N = 1000 };
    static float a[N], b[N], c[N];
    for (int i = 0; i < N; i++) {
        a[i] = (float)i;
        b[i] = (float)(2 * i);
    }
    vec_add(a, b, c, N);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += c[i] != 3.0f * (float)i;
    int count = 0;
    cudaGetDeviceCount(&count);
    printf("c harness: %s devices=%d last=%s\n", bad ? "WRONG" : "OK", count, cudaGetErrorName(cudaGetLastError()));
    return bad != 0;
}
