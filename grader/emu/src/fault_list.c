/* fault_list.c - the checking builds' invalid accesses (linked into the
 * emucc --race and --check runtimes): how one is described, reported, and
 * listed.
 *
 * Both builds keep device allocations and shared arrays inside margins of
 * their own, so an invalid access is named from its address alone: what
 * array it is next to, and how far. The race build's bounds check (race.c)
 * and AddressSanitizer's report hook (check.c) both end here.
 *
 * Linked with `emucc --list-faults` (the grader's sanitizer stage, where a
 * dataset's run left no output), this file is compiled with EMU_LIST_FAULTS:
 * a launch is not stopped by an invalid access: it runs to its end, the
 * accesses landing in the margins, and every thread that made one is
 * appended to the launch log (GPULAB_EMU_LOG), one JSON object a line
 * (docs/emulator.md):
 *     {"event":"fault_launch","kernel":K,"file":F,"line":N,"grid":[x,y,z],"block":[x,y,z]}
 *     {"event":"fault","block":[x,y,z],"thread":[x,y,z],"where":"FILE:LINE"}
 *     {"event":"fault_stopped","accesses":N}
 * the first when the launch's first invalid access is seen, the second once
 * per faulting thread (its first invalid access), the third if the launch
 * was stopped after FAULT_ACCESS_CAP invalid accesses, so that more threads
 * may have faulted than are listed. A choice of the build, not of the run's
 * environment, which stays that of any other run.
 */

#include "rt_int.h"

/* AddressSanitizer's report of an invalid access costs about 2 ms; the race
 * build's check, a lookup */
#ifdef EMU_CHECK
#define FAULT_ACCESS_CAP 4096
#else
#define FAULT_ACCESS_CAP (1 << 20)
#endif

#ifdef EMU_LIST_FAULTS
const int g_list_faults = 1;
#else
const int g_list_faults = 0;
#endif

static struct {
    const char *path;   /* --list-faults: GPULAB_EMU_LOG, or NULL */
    FILE *file;
    pthread_mutex_t lock;
} fault_list = { .lock = PTHREAD_MUTEX_INITIALIZER };

/* An access of `size` bytes at a that lies outside the n-byte array at base
 * (in its margins), in words: "read of 4 bytes, 0 bytes past the end of a
 * 1024-byte array in global memory (cudaMalloc)". */
void describe_near(char *msg, size_t len, const char *what, size_t size, const char *a, const char *base,
                          size_t n, const char *kind)
{
    int before = a < base;
    size_t off = before ? (size_t)(base - a) : a >= base + n ? (size_t)(a - (base + n)) : 0;
    snprintf(msg, len, "%s of %zu bytes, %zu bytes %s a %zu-byte array in %s", what, size, off,
             before ? "before the start of" : "past the end of", n, kind);
}

/* The log the faults are listed in, opened on first use; NULL when it
 * cannot be. Caller holds fault_list.lock. */
static FILE *faults_file(void)
{
    if (!fault_list.file && fault_list.path)
        fault_list.file = fopen(fault_list.path, "a");
    return fault_list.file;
}

/* Appends W's running thread to the fault list, once per thread per block
 * (the launch's line first). */
static void record_thread(worker *W, const char *where)
{
    int i = (int)(W->cur - W->fibers);
    unsigned char bit = (unsigned char)(1u << (i % 8));
    if (i < 0 || i >= MAX_THREADS || (W->faulted[i / 8] & bit))
        return;
    W->faulted[i / 8] |= bit;
    launch *L = W->L;
    const struct emu_launch_cfg *c = L->cfg;
    pthread_mutex_lock(&fault_list.lock);
    FILE *f = faults_file();
    if (f && !L->faults_logged) {
        fputs("{\"event\":\"fault_launch\",\"kernel\":", f);
        json_str(f, c->kernel);
        fputs(",\"file\":", f);
        json_str(f, c->file);
        fprintf(f, ",\"line\":%d,\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u]}\n", c->line, c->grid.x, c->grid.y,
                c->grid.z, c->block.x, c->block.y, c->block.z);
        L->faults_logged = 1;
    }
    if (f) {
        fprintf(f, "{\"event\":\"fault\",\"block\":[%u,%u,%u],\"thread\":[%u,%u,%u],\"where\":", emu_blockIdx_.x,
                emu_blockIdx_.y, emu_blockIdx_.z, W->cur->tid.x, W->cur->tid.y, W->cur->tid.z);
        json_str(f, where[0] ? where : "-");
        fputs("}\n", f);
        fflush(f); /* a process that dies later keeps what was seen */
    }
    pthread_mutex_unlock(&fault_list.lock);
}

/* Counts an invalid access of a launch that runs past its faults; at the
 * cap, stops the launch and says so in the fault list. */
static void count_access(launch *L)
{
    if (atomic_fetch_add(&L->bad_accesses, 1) + 1 != FAULT_ACCESS_CAP)
        return;
    atomic_store(&L->stop, 1);
    pthread_mutex_lock(&fault_list.lock);
    FILE *f = faults_file();
    if (f) {
        fprintf(f, "{\"event\":\"fault_stopped\",\"accesses\":%d}\n", FAULT_ACCESS_CAP);
        fflush(f);
    }
    pthread_mutex_unlock(&fault_list.lock);
}

/* set_fault without stopping the launch: the first fault is kept for the
 * launch's error line and code, and the launch goes on. */
static void note_fault(launch *L, const char *where, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void note_fault(launch *L, const char *where, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    keep_first_fault(L, "out-of-bounds", cudaErrorIllegalAddress, NULL, where[0] ? where : NULL, fmt, ap);
    va_end(ap);
}

/* An invalid access by W's running thread at where ("FILE:LINE", or ""),
 * described by msg: the launch's out-of-bounds fault. With --list-faults the
 * launch goes on (the first fault is kept for its error line and code) and
 * the thread is listed; else the launch stops at the thread's next barrier
 * or return. */
void report_invalid_access(worker *W, const char *where, const char *msg)
{
    if (g_list_faults) {
        note_fault(W->L, where, "%s", msg);
        record_thread(W, where);
        count_access(W->L);
    } else {
        set_fault(W->L, "out-of-bounds", cudaErrorIllegalAddress, NULL, where[0] ? where : NULL, "%s", msg);
    }
}

__attribute__((constructor)) static void emu_faults_init(void)
{
    const char *path = getenv("GPULAB_EMU_LOG");
    fault_list.path = g_list_faults && path && *path ? path : NULL;
}

/* This part's hooks (rt_int.h), set before main(). */
__attribute__((constructor)) static void fault_list_hooks(void)
{
    hooks.record_thread = record_thread;
}
