/*
 * smem_poison_device.cuh - unset shared memory made visible inside the
 * student's own blocks (GPU builds).
 *
 * The build stage runs `emucc --poison-shared` over the student's file: after
 * each __shared__ declaration at the top of a kernel's body it calls one of
 * these, and nvcc includes this file first (--pre-include). Every thread of
 * the block fills its share of the array with NaN (all bits set, the value
 * the harness's own fill and the emulator use), then the block waits, so a
 * read of an element no thread stored gives NaN. Unlike the harness's fill
 * before the student's call (smem_poison.h), another process's kernels on the
 * same GPU cannot undo it: it happens in the block itself.
 */
#ifndef GPULAB_SMEM_POISON_DEVICE_CUH
#define GPULAB_SMEM_POISON_DEVICE_CUH

/* requirements.c leaves this barrier out of the count */
#define GPULAB_POISON_BARRIER_TEXT "15"

static __device__ __forceinline__ void gpulab_poison_bytes_(void *p, unsigned bytes)
{
    unsigned t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    unsigned n = blockDim.x * blockDim.y * blockDim.z;
    volatile unsigned *w = (volatile unsigned *)p;
    for (unsigned i = t; i < bytes / 4; i += n)
        w[i] = 0xFFFFFFFFu;
    volatile unsigned char *b = (volatile unsigned char *)p;
    for (unsigned i = bytes / 4 * 4 + t; i < bytes; i += n)
        b[i] = 0xFFu;
    /* The block waits as __syncthreads() would, on a barrier of its own
     * number (GPULAB_POISON_BARRIER, all the block's threads): the PTX's
     * bar.sync 0 stays the student's alone, so the [barrier] requirement,
     * read from the PTX, is not earned by the poison. */
    asm volatile("barrier.sync " GPULAB_POISON_BARRIER_TEXT ";" ::: "memory");
}

static __device__ __forceinline__ void gpulab_poison_shared_(void *p, unsigned long long bytes)
{
    gpulab_poison_bytes_(p, (unsigned)bytes);
}

/* extern __shared__ arrays: the launch's dynamic shared memory, all of it. */
static __device__ __forceinline__ void gpulab_poison_dynamic_shared_(void *p)
{
    unsigned bytes;
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(bytes));
    gpulab_poison_bytes_(p, bytes);
}

#endif
