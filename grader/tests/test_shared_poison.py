"""Unset shared memory is poisoned inside the student's own blocks.

The GPU build runs `emucc --poison-shared` over the student's file, so every
__shared__ array at the top of a kernel starts as NaN in the block itself
(grader/runtime/smem_poison_device.cuh). A mistake that reads shared memory
no thread stored (ghost cells not zeroed, tile slots not filled) then gives
the same verdict whatever else runs on the GPU: here, sixteen checks at once
beside a process whose kernels fill shared memory with finite values.
"""
import concurrent.futures
import os
import shutil
import subprocess
import time

import pytest

import kit

MUTANTS = [("04-conv-2batch", "ghost-not-zeroed"), ("05-pitched-conv", "ghost-not-zeroed"),
           ("03-arbitrary-matmul", "no-zero-fill")]

EMUCC = kit.ROOT / "build" / "emu" / "emucc"


def mutant(lab, name):
    return kit.ROOT / "solutions" / lab / "mutants" / f"{name}.cu"


def test_the_source_pass_keeps_lines_and_poisons_each_kernel_array(tmp_path):
    src = (
        "#include <cstdio>\n"
        "__global__ void k(float *out)\n"
        "{\n"
        "    __shared__ float ds_M[16][16], ds_N[16][16];\n"
        "    extern __shared__ float dyn[];\n"
        "    if (threadIdx.x == 0) { __shared__ int nested; nested = 1; }\n"
        "    out[0] = ds_M[0][0] + ds_N[0][0] + dyn[0]; // __shared__ in a comment\n"
        "}\n"
        "__device__ void helper() { __shared__ float not_a_kernel[4]; (void)not_a_kernel; }\n"
        "__global__ void early(float *out) { if (out == 0) return; __shared__ float late[4]; out[0] = late[0]; }\n"
    )
    (tmp_path / "in.cu").write_text(src)
    p = kit.run([EMUCC, "--poison-shared", tmp_path / "in.cu", tmp_path / "out.cu"])
    assert p.returncode == 0, p.stderr
    out = (tmp_path / "out.cu").read_text()
    lines = out.splitlines()
    assert len(lines) == len(src.splitlines())
    assert "gpulab_poison_shared_((void *)&(ds_M), sizeof(ds_M));" in lines[3]
    assert "gpulab_poison_shared_((void *)&(ds_N), sizeof(ds_N));" in lines[3]
    assert "gpulab_poison_dynamic_shared_((void *)(dyn));" in lines[4]
    # not in a nested block (not every thread passes there), not in a
    # __device__ function, not after a return
    assert "gpulab_poison" not in lines[5] + lines[8] + lines[9]


@pytest.mark.gpu
@pytest.mark.gpu_exclusive  # it loads the GPU on purpose: other tests' time limits would suffer
def test_verdicts_of_unset_shared_memory_do_not_depend_on_the_gpus_load(tmp_path):
    nvcc = shutil.which("nvcc") or "/usr/local/cuda/bin/nvcc"
    # the load: kernels that fill all the shared memory they can get with 1.0f, for as long as the checks run
    (tmp_path / "load.cu").write_text(r'''
#include <cstdio>
#include <cstdlib>
#include <ctime>
__global__ void fill(float v, int words)
{
    extern __shared__ float s[];
    volatile float *t = s;
    for (int i = threadIdx.x; i < words; i += blockDim.x)
        t[i] = v;
}
int main(int argc, char **argv)
{
    int seconds = argc > 1 ? atoi(argv[1]) : 60, optin = 0, sms = 0;
    cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, 0);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    cudaFuncSetAttribute(fill, cudaFuncAttributeMaxDynamicSharedMemorySize, optin);
    cudaEvent_t e;
    cudaEventCreate(&e);
    time_t end = time(0) + seconds;
    while (time(0) < end) {
        fill<<<sms * 4, 1024, optin>>>(1.0f, optin / 4);
        cudaDeviceSynchronize();
    }
    return 0;
}
''')
    p = kit.run([nvcc, "-O2", "-o", tmp_path / "load", tmp_path / "load.cu"])
    assert p.returncode == 0, p.stderr

    def verdict(lab, name):
        _, rep = kit.check_json(lab, mutant(lab, name), "gpu")
        return rep["score"], sorted(kit.statuses(rep).items())

    alone = {m: verdict(*m) for m in MUTANTS}
    for (lab, name), (score, sts) in alone.items():
        assert any(s != "pass" for _, s in sts), f"{lab}/{name} passes even alone: {sts}"

    load = subprocess.Popen([str(tmp_path / "load"), "240"])
    try:
        time.sleep(1)
        jobs = [MUTANTS[i % len(MUTANTS)] for i in range(16)]
        with concurrent.futures.ThreadPoolExecutor(max_workers=16) as pool:
            results = list(pool.map(lambda m: (m, verdict(*m)), jobs))
    finally:
        load.kill()
        load.wait()
    for m, v in results:
        assert v == alone[m], f"{m}: under load {v}, alone {alone[m]}"
