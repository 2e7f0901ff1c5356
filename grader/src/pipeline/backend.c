/*
 * backend.c - see backend.h.
 */
#define _GNU_SOURCE
#include "backend.h"
#include "kit.h"
#include "process.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char gpu_problem[512];
static int probed;
static backend gpu;

/* Turns "9.0", "90" or "sm_90" into "sm_90"; returns 0 on success. */
static int normalise_arch(const char *in, char *out, size_t len)
{
    int major, minor;
    char suffix[8] = "";
    if (sscanf(in, "sm_%d%7[a-z]", &major, suffix) >= 1 && strncmp(in, "sm_", 3) == 0) {
        snprintf(out, len, "sm_%d%s", major, suffix);
        return 0;
    }
    if (sscanf(in, "%d.%d", &major, &minor) == 2) {
        snprintf(out, len, "sm_%d%d", major, minor);
        return 0;
    }
    if (sscanf(in, "%d", &major) == 1 && major >= 10) {
        snprintf(out, len, "sm_%d", major);
        return 0;
    }
    return -1;
}

/* The GPUs runs may use: those CUDA_VISIBLE_DEVICES names when it is set
 * (as the CUDA runtime would), else every one nvidia-smi lists. */
static void list_gpus(const char *smi)
{
    const char *visible = getenv("CUDA_VISIBLE_DEVICES");
    gpu.ngpus = 0;
    if (visible) {
        char *copy = xstrdup(visible);
        for (char *save = NULL, *t = strtok_r(copy, ",", &save); t && gpu.ngpus < 16;
             t = strtok_r(NULL, ",", &save))
            if (*t)
                snprintf(gpu.gpu_ids[gpu.ngpus++], sizeof gpu.gpu_ids[0], "%s", t);
        free(copy);
        return;
    }
    const char *argv[] = { smi, "--query-gpu=index", "--format=csv,noheader", NULL };
    proc_spec spec = { argv, NULL, NULL, 20.0, 8192, 0, 0, 0, 0, NULL, NULL };
    proc_result r;
    proc_run(&spec, &r);
    if (r.exited && r.exit_code == 0) {
        char *copy = xstrdup(r.out_text);
        for (char *save = NULL, *t = strtok_r(copy, "\n", &save); t && gpu.ngpus < 16;
             t = strtok_r(NULL, "\n", &save)) {
            t += strspn(t, " ");
            if (*t >= '0' && *t <= '9')
                snprintf(gpu.gpu_ids[gpu.ngpus++], sizeof gpu.gpu_ids[0], "%.*s", (int)strspn(t, "0123456789"), t);
        }
        free(copy);
    }
    proc_result_free(&r);
    if (gpu.ngpus == 0) /* the runtime's default device */
        snprintf(gpu.gpu_ids[gpu.ngpus++], sizeof gpu.gpu_ids[0], "0");
}

static void probe_gpu(void)
{
    if (probed)
        return;
    probed = 1;
    memset(&gpu, 0, sizeof gpu);
    gpu.kind = BACKEND_GPU;
    strcpy(gpu.name, "gpu");
    char *nvcc = find_in_path("nvcc");
    if (!nvcc && is_executable("/usr/local/cuda/bin/nvcc"))
        nvcc = xstrdup("/usr/local/cuda/bin/nvcc");
    if (!nvcc) {
        snprintf(gpu_problem, sizeof gpu_problem, "nvcc (the CUDA compiler) is not on PATH");
        return;
    }
    char *harness_lib = kit_path("build/harness/gpu/libgpulab_runtime.a");
    int built = file_exists(harness_lib);
    free(harness_lib);
    if (!built) {
        snprintf(gpu_problem, sizeof gpu_problem,
                 "the GPU harness is not built (run make with nvcc on PATH)");
        free(nvcc);
        return;
    }
    char *smi = find_in_path("nvidia-smi");
    if (!smi) {
        snprintf(gpu_problem, sizeof gpu_problem, "nvidia-smi is not on PATH (no NVIDIA driver)");
        free(nvcc);
        return;
    }
    const char *argv[] = { smi, "--query-gpu=name,compute_cap,driver_version",
                           "--format=csv,noheader", NULL };
    proc_spec spec = { argv, NULL, NULL, 20.0, 8192, 0, 0, 0, 0, NULL, NULL };
    proc_result r;
    proc_run(&spec, &r);
    char name[256] = "", cap[32] = "", driver[64] = "";
    if (r.exited && r.exit_code == 0 &&
        sscanf(r.out_text, " %255[^,], %31[^,], %63[^\n]", name, cap, driver) == 3) {
        if (normalise_arch(cap, gpu.arch, sizeof gpu.arch) != 0) {
            snprintf(gpu_problem, sizeof gpu_problem, "nvidia-smi reported an unknown compute capability '%s'", cap);
        } else {
            snprintf(gpu.device, sizeof gpu.device, "%s", name);
            snprintf(gpu.driver, sizeof gpu.driver, "%s", driver);
            gpu.compiler = nvcc;
            nvcc = NULL;
        }
    } else {
        char first[200] = "";
        const char *text = *r.err_text ? r.err_text : r.out_text;
        sscanf(text ? text : "", " %199[^\n]", first);
        snprintf(gpu_problem, sizeof gpu_problem, "nvidia-smi finds no usable GPU%s%s",
                 *first ? ": " : "", first);
    }
    proc_result_free(&r);
    if (gpu.compiler)
        list_gpus(smi);
    free(smi);
    free(nvcc);

    const char *override = getenv("NVCC_ARCH");
    if (gpu.compiler && override && *override) {
        if (normalise_arch(override, gpu.arch, sizeof gpu.arch) != 0)
            die("NVCC_ARCH=%s: expected a compute capability such as sm_90, 90 or 9.0", override);
    }
}

const char *backend_gpu_problem(void)
{
    probe_gpu();
    return gpu.compiler ? "" : gpu_problem;
}

int backend_emulator(backend *b)
{
    char *emucc = kit_path("build/emu/emucc");
    char *lib = kit_path("build/harness/emu/libgpulab_runtime.a");
    int ok = is_executable(emucc) && file_exists(lib);
    free(lib);
    if (!ok) {
        free(emucc);
        return 0;
    }
    memset(b, 0, sizeof *b);
    b->kind = BACKEND_EMU;
    strcpy(b->name, "emu");
    snprintf(b->device, sizeof b->device, "CPU emulator");
    b->compiler = emucc;
    return 1;
}

void backend_choose(const char *requested, backend *b)
{
    if (requested && strcmp(requested, "gpu") != 0 && strcmp(requested, "emu") != 0)
        die("--backend %s: expected gpu or emu", requested);
    if (requested && strcmp(requested, "emu") == 0) {
        if (!backend_emulator(b))
            die("the CPU emulator is not built: run make in %s", kit_root());
        return;
    }
    probe_gpu();
    if (gpu.compiler) {
        *b = gpu;
        b->compiler = xstrdup(gpu.compiler);
        return;
    }
    if (requested)
        die("no usable GPU: %s", gpu_problem);
    if (!backend_emulator(b))
        die("no usable GPU (%s) and the CPU emulator is not built: run make in %s", gpu_problem, kit_root());
    fprintf(stderr, "note: no usable GPU (%s); results come from the CPU emulator, "
                    "and its timings are not GPU timings.\n", gpu_problem);
}
