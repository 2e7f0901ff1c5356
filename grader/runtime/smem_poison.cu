/*
 * smem_poison.cu - see smem_poison.h (the GPU build).
 */
#include <cuda_runtime.h>
#include "smem_poison.h"

/* Each block takes as much shared memory as a block may have and sets every
 * word of it to NaN (all bits set). volatile: the stores must happen even
 * though nothing reads them. */
__global__ void fill_shared_memory_with_nan(unsigned words)
{
    extern __shared__ unsigned smem[];
    volatile unsigned *s = smem;
    for (unsigned i = threadIdx.x; i < words; i += blockDim.x)
        s[i] = 0xFFFFFFFFu;
}

extern "C" void harness_poison_shared_memory(void)
{
    int device = 0, sms = 0, optin = 0, per_sm = 0;
    if (cudaGetDevice(&device) != cudaSuccess ||
        cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device) != cudaSuccess ||
        cudaDeviceGetAttribute(&per_sm, cudaDevAttrMaxSharedMemoryPerMultiprocessor, device) != cudaSuccess)
        return;
    if (cudaFuncSetAttribute(fill_shared_memory_with_nan, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             optin) != cudaSuccess)
        optin = 48 * 1024;
    /* Enough blocks that every multiprocessor runs at least one, several
     * times over, whatever the scheduler does. */
    int per_block = optin, blocks_per_sm = per_sm / optin > 0 ? per_sm / optin : 1;
    fill_shared_memory_with_nan<<<sms * blocks_per_sm * 4, 1024, per_block>>>(per_block / 4);
    cudaDeviceSynchronize();
    cudaGetLastError(); /* a failure here is the kit's, never the student's: forget it */
}
