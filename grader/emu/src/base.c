/* base.c - the emulator runtime's floor: the built-in variables of the
 * running fiber, CUDA errors, the diagnostic line and the JSON launch log,
 * and the program's source lines (addr2line) that findings name. */

#include "rt_int.h"

/* ---- built-in variables of the running fiber ------------------------------- */
__thread uint3 emu_threadIdx_;
__thread uint3 emu_blockIdx_;
__thread dim3 emu_blockDim_;
__thread dim3 emu_gridDim_;

/* ---- the live candidate of a mutant schemata build ------------------------ */
/* emucc --schemata (emu_schemata.h): candidate k of the program's source is
 * live while this is k; 0, none. GPULAB_EMU_MUTANT sets it at start. Every
 * program has it, so a schemata build links with the usual runtime. */
EMU_PUBLIC int gpulab_emu_mutant;

__attribute__((constructor)) static void mutant_init(void)
{
    const char *v = getenv("GPULAB_EMU_MUTANT");
    if (v && *v) {
        char *end;
        long n = strtol(v, &end, 10);
        if (*end || n < 0 || n > 2147483647L) {
            diag("gpulab emulator: GPULAB_EMU_MUTANT=%s is not a candidate's number (0 or more)", v);
            exit(2);
        }
        gpulab_emu_mutant = (int)n;
    }
}

/* ---- errors ------------------------------------------------------------------ */
struct emu_run rt = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .last = cudaSuccess,
    .sticky = cudaSuccess,
};
__thread struct emu_thread tls;
struct emu_hooks hooks;

cudaError_t set_error(cudaError_t e)
{
    if (e != cudaSuccess) {
        rt.last = e;
        rt.refused = 1;
    }
    return e;
}

/* CUDA_VISIBLE_DEVICES that hides device 0 (empty, or a list that does not
 * start with 0) leaves no device, as on a GPU machine: every call that
 * touches the device then fails with cudaErrorNoDevice. */
int device_hidden(void)
{
    static int hidden = -1;
    if (hidden < 0) {
        const char *v = getenv("CUDA_VISIBLE_DEVICES");
        hidden = v != NULL && !(v[0] == '0' && (v[1] == '\0' || v[1] == ','));
    }
    return hidden;
}

void diag(const char *fmt, ...)
{
    char buf[2048];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf - 1, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    if (n > (int)sizeof buf - 2)
        n = (int)sizeof buf - 2;
    buf[n++] = '\n';
    fflush(stdout);
    ssize_t w = write(2, buf, (size_t)n);
    (void)w;
}

struct err_name { cudaError_t e; const char *name, *text; };
static const struct err_name err_names[] = {
    { cudaSuccess, "cudaSuccess", "no error" },
    { cudaErrorInvalidValue, "cudaErrorInvalidValue", "invalid argument" },
    { cudaErrorMemoryAllocation, "cudaErrorMemoryAllocation", "out of memory" },
    { cudaErrorInitializationError, "cudaErrorInitializationError", "initialization error" },
    { cudaErrorCudartUnloading, "cudaErrorCudartUnloading", "driver shutting down" },
    { cudaErrorInvalidConfiguration, "cudaErrorInvalidConfiguration", "invalid configuration argument" },
    { cudaErrorInvalidPitchValue, "cudaErrorInvalidPitchValue", "invalid pitch argument" },
    { cudaErrorInvalidSymbol, "cudaErrorInvalidSymbol", "invalid device symbol" },
    { cudaErrorInvalidHostPointer, "cudaErrorInvalidHostPointer", "invalid host pointer" },
    { cudaErrorInvalidDevicePointer, "cudaErrorInvalidDevicePointer", "invalid device pointer" },
    { cudaErrorInvalidMemcpyDirection, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy" },
    { cudaErrorInvalidDeviceFunction, "cudaErrorInvalidDeviceFunction", "invalid device function" },
    { cudaErrorNoDevice, "cudaErrorNoDevice", "no CUDA-capable device is detected" },
    { cudaErrorInvalidDevice, "cudaErrorInvalidDevice", "invalid device ordinal" },
    { cudaErrorInvalidResourceHandle, "cudaErrorInvalidResourceHandle", "invalid resource handle" },
    { cudaErrorNotReady, "cudaErrorNotReady", "device not ready" },
    { cudaErrorIllegalAddress, "cudaErrorIllegalAddress", "an illegal memory access was encountered" },
    { cudaErrorLaunchOutOfResources, "cudaErrorLaunchOutOfResources", "too many resources requested for launch" },
    { cudaErrorLaunchTimeout, "cudaErrorLaunchTimeout", "the launch timed out and was terminated" },
    { cudaErrorAssert, "cudaErrorAssert", "device-side assert triggered" },
    { cudaErrorIllegalInstruction, "cudaErrorIllegalInstruction", "an illegal instruction was encountered" },
    { cudaErrorLaunchFailure, "cudaErrorLaunchFailure", "unspecified launch failure" },
    { cudaErrorNotSupported, "cudaErrorNotSupported", "operation not supported" },
    { cudaErrorUnknown, "cudaErrorUnknown", "unknown error" },
};

const char *cudaGetErrorName(cudaError_t e)
{
    for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++)
        if (err_names[i].e == e)
            return err_names[i].name;
    return "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t e)
{
    for (size_t i = 0; i < sizeof err_names / sizeof err_names[0]; i++)
        if (err_names[i].e == e)
            return err_names[i].text;
    return "unrecognized error code";
}

cudaError_t cudaGetLastError(void)
{
    pthread_mutex_lock(&rt.lock);
    cudaError_t e = rt.last;
    rt.last = cudaSuccess;
    if (rt.sticky != cudaSuccess)
        e = rt.sticky;
    pthread_mutex_unlock(&rt.lock);
    return e;
}

cudaError_t cudaPeekAtLastError(void)
{
    return rt.sticky != cudaSuccess ? rt.sticky : rt.last;
}

/* ---- the JSON log (GPULAB_EMU_LOG) --------------------------------------------- */
void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

FILE *log_open(void)
{
    const char *path = getenv("GPULAB_EMU_LOG");
    if (!path || !*path)
        return NULL;
    return fopen(path, "a");
}

/* FILE:LINE of the call instruction that returned to ret, or "". */
char *resolve_return(void *ret, char *out, size_t outsz)
{
    return resolve_pc(ret ? (char *)ret - 1 : NULL, out, outsz);
}

/* The return address a wrapper of the kit's named for its next copy
 * (emu_copy_caller_), this thread's. */

void emu_copy_caller_(void *ret)
{
    tls.copy_caller = ret;
}

/* The caller a copy is blamed on: the one a wrapper named, else ret (the
 * copy function's own return address). Taken at every copy's start, so a
 * name never outlives its copy. */

void *copy_caller(void *ret)
{
    void *named = tls.copy_caller;
    tls.copy_caller = NULL;
    /* a copy the program's own code made (through the kit's wrapper), not
     * one of the kit's (the guard zones' checks): only those are judged
     * against their buffers (copies.c) */
    tls.copy_by_program = named != NULL;
    return named ? named : ret;
}

/* FILE:LINE of the call that returned to ret (the program's own code), or
 * "-": where a refused copy is named. */
const char *caller_line(void *ret, char *out, size_t n)
{
    resolve_return(ret, out, n);
    if (!out[0])
        snprintf(out, n, "-");
    return out;
}

/* Whether FILE:LINE is in the emulator's own device header: an inline
 * function of the kit's (atomicAdd), whose caller is the line to name. */
int emu_own_header(const char *where)
{
    return strstr(where, "emu_device.h:") != NULL;
}

/* addr2line is a process: each thread keeps the last few answers (a fault
 * list names the same line for hundreds of threads). Per thread, so that
 * the workers of a multi-threaded build need no lock. */

static char *resolve_pc_uncached(void *pc, char *out, size_t outsz);

char *resolve_pc(void *pc, char *out, size_t outsz)
{
    out[0] = 0;
    /* A run with a candidate edit live (the repair search's) is judged by
     * its output alone: nothing reads the lines its messages name, and a
     * third of the candidates fault, each line an addr2line process (a
     * fork of this one, and a shell's) that was a third of the search's
     * processor time. */
    if (!pc || gpulab_emu_mutant > 0)
        return out;
    for (unsigned i = 0; i < RESOLVED_KEPT; i++)
        if (tls.resolved[i].pc == pc) {
            snprintf(out, outsz, "%s", tls.resolved[i].where);
            return out;
        }
    unsigned i = tls.resolved_next++ % RESOLVED_KEPT;
    resolve_pc_uncached(pc, tls.resolved[i].where, sizeof tls.resolved[i].where);
    tls.resolved[i].pc = pc;
    snprintf(out, outsz, "%s", tls.resolved[i].where);
    return out;
}

static char *resolve_pc_uncached(void *pc, char *out, size_t outsz)
{
    out[0] = 0;
    Dl_info di, own;
    if (!dladdr(pc, &di) || !di.dli_fname)
        return out;
    /* Only the program's own code: a fault inside a sanitizer's runtime
     * (ThreadSanitizer reading the shadow of a wild address) would name a
     * line of that library's sources as if it were the student's. */
    if (!dladdr((void *)resolve_pc, &own) || own.dli_fbase != di.dli_fbase)
        return out;
    uintptr_t off = (uintptr_t)pc - (uintptr_t)di.dli_fbase;
    const char *exe = di.dli_fname;
    char self[4096];
    if (!exe[0] || strchr(exe, '/') == NULL) {
        ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
        if (k <= 0)
            return out;
        self[k] = 0;
        exe = self;
    }
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "addr2line -i -e '%s' 0x%lx 2>/dev/null", exe, (unsigned long)off);
    FILE *p = popen(cmd, "r");
    if (!p)
        return out;
    /* -i: the inlined function's line, then its callers'; the first that is
     * not the emulator's own device header (atomicAdd's body, say) */
    char line[1024];
    while (fgets(line, sizeof line, p)) {
        line[strcspn(line, "\r\n")] = 0;
        char *d = strstr(line, " (discriminator");
        if (d)
            *d = 0;
        if (strncmp(line, "??", 2) == 0)
            continue;
        if (!out[0] || emu_own_header(out)) {
            size_t l = strlen(line) < outsz ? strlen(line) : outsz - 1;
            memcpy(out, line, l);
            out[l] = 0;
        }
    }
    pclose(p);
    return out;
}
