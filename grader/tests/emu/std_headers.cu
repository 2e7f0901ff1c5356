/* Host code that uses the C++ standard library beside a kernel, as wb.h and
 * many students' files do. libstdc++ writes __attribute__((__noinline__)) in
 * <bits/shared_ptr_base.h> (reached from <memory>, and from <sstream> and
 * <string> with newer GCCs), which must still compile after CUDA's
 * __noinline__ qualifier exists. */
#include <cstdio>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

__device__ __noinline__ float twice(float x) { return 2.0f * x; }

__global__ void scale(float *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = twice(v[i]);
}

int main(void)
{
    const int n = 100;
    std::vector<float> host(n, 1.5f);
    std::shared_ptr<float> device(nullptr, [](float *p) { cudaFree(p); });
    float *d = nullptr;
    cudaMalloc(&d, n * sizeof(float));
    device.reset(d, [](float *p) { cudaFree(p); });
    cudaMemcpy(d, host.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<(n + 31) / 32, 32>>>(d, n);
    cudaMemcpy(host.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost);
    std::ostringstream out;
    out << "sum=" << [&] { float s = 0; for (float x : host) s += x; return s; }();
    printf("%s\n", out.str().c_str());
    return 0;
}
