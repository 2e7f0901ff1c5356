/* check.c - emucc --check: AddressSanitizer's report hook.
 *
 * Every invalid access in a kernel becomes an `out-of-bounds` fault of its
 * launch (fault_list.c). Device allocations and shared arrays have poisoned
 * margins of the runtime's own (margined_block), so the hook can say what a
 * bad address is next to, and how far, from the address alone; beyond them
 * AddressSanitizer's own redzones reach local arrays and globals too. With
 * --list-faults, every access is reported, not only the first of each
 * instruction; the hook then prints only the first of each (echo_first_at_pc).
 */

#include "rt_int.h"

void __asan_set_error_report_callback(void (*callback)(const char *));
void *__asan_get_report_address(void);
void *__asan_get_report_pc(void);
void __sanitizer_set_report_fd(void *fd);

const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    /* Keep going after a report (the launch is failed, the harness reports
     * it). Listing faulting threads needs a report for every invalid
     * access, not only the first of each instruction; the hook then prints
     * only the first of each, as AddressSanitizer would (echo_first_at_pc). */
    return g_list_faults
               ? "halt_on_error=0:detect_leaks=0:allow_user_segv_handler=1:detect_stack_use_after_return=0:"
                 "suppress_equal_pcs=0"
               : "halt_on_error=0:detect_leaks=0:allow_user_segv_handler=1:detect_stack_use_after_return=0";
}

/* With --list-faults, AddressSanitizer's own printing goes to /dev/null
 * (emu_check_init): this prints a report on stderr the first time its
 * instruction reports, so stderr reads as usual however many threads fault. */
static void echo_first_at_pc(const char *report)
{
    static void *seen[1024];
    static size_t nseen;
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    void *pc = __asan_get_report_pc();
    int first = 1;
    pthread_mutex_lock(&lock);
    for (size_t i = 0; i < nseen && first; i++)
        first = seen[i] != pc;
    if (first && nseen < sizeof seen / sizeof *seen)
        seen[nseen++] = pc;
    pthread_mutex_unlock(&lock);
    if (!first)
        return;
    size_t n = strlen(report);
    while (n > 0) {
        ssize_t w = write(2, report, n);
        if (w <= 0)
            break;
        report += w;
        n -= (size_t)w;
    }
}

/* The FILE:LINE of the report's frame at p: "    #1 0x.. in Kernel(float*)
 * /path/file.cu:12:5" -> "/path/file.cu:12"; "" if it names none. */
static void frame_where(const char *p, char *out, size_t n)
{
    out[0] = 0;
    const char *eol = strchr(p, '\n');
    if (!eol)
        eol = p + strlen(p);
    const char *sp = eol;
    while (sp > p && sp[-1] != ' ')
        sp--;
    size_t l = (size_t)(eol - sp);
    if (l >= n)
        l = n - 1;
    memcpy(out, sp, l);
    out[l] = 0;
    /* drop a column: file:line:col */
    char *c1 = strrchr(out, ':');
    if (c1) {
        *c1 = 0;
        char *c2 = strrchr(out, ':');
        if (!c2 || !strspn(c2 + 1, "0123456789") || strspn(c2 + 1, "0123456789") != strlen(c2 + 1))
            *c1 = ':';
    }
    if (!strchr(out, ':'))
        out[0] = 0;
}

/* The first frame's FILE:LINE or, where that is the emulator's own device
 * header (atomicAdd's body), its caller's. */
static void first_frame(const char *report, char *out, size_t n)
{
    out[0] = 0;
    const char *p = strstr(report, "    #0 ");
    if (!p)
        return;
    frame_where(p, out, n);
    for (int k = 1; k < 8 && emu_own_header(out); k++) {
        char tag[16], caller[512];
        snprintf(tag, sizeof tag, "    #%d ", k);
        const char *q = strstr(p, tag);
        if (!q)
            break;
        frame_where(q, caller, sizeof caller);
        if (!caller[0])
            break;
        snprintf(out, n, "%s", caller);
        p = q;
    }
}

/* The array a bad address belongs to (counting its margins): one of the
 * block's shared arrays or a live device allocation. */
typedef struct {
    const char *base;
    size_t size;
    const char *kind;
} near_array;

static int find_near_array(worker *W, const char *a, near_array *out)
{
    for (int k = 0; k < W->nregions; k++) {
        const struct shm_region *r = &W->regions[k];
        if (a + SHARED_LIMIT >= r->base && a < r->base + r->size + SHARED_LIMIT) {
            *out = (near_array){ r->base, r->size, "shared memory" };
            return 1;
        }
    }
    /* no cudaMalloc or cudaFree runs while a launch does: rt.allocs holds still */
    for (size_t i = 0; i < rt.nallocs; i++) {
        const alloc *al = &rt.allocs[i];
        if (a >= al->map && a < al->map + al->maplen) {
            *out = (near_array){ al->base, al->size, alloc_kind(al) };
            return 1;
        }
    }
    return 0;
}

/* The fault's message, as in docs/emulator.md: from the address where it is
 * near an array of the runtime's, else from AddressSanitizer's report (an
 * access to freed memory, to a local array, to a host buffer...). */
static void describe_access(worker *W, const char *report, char *msg, size_t n)
{
    const char *what = strstr(report, "WRITE of size") ? "write" : strstr(report, "READ of size") ? "read" : "access";
    int size = 0;
    const char *s = strstr(report, " of size ");
    if (s)
        size = atoi(s + 9);
    const char *a = __asan_get_report_address();
    near_array na;
    if (!strstr(report, "heap-use-after-free") && find_near_array(W, a, &na)) {
        describe_near(msg, n, what, (size_t)(size > 0 ? size : 0), a, na.base, na.size, na.kind);
        return;
    }
    const char *kind = "memory";
    if (strstr(report, "emu_shared_static_") || strstr(report, "run_block"))
        kind = "shared memory";
    else if (strstr(report, "device_alloc"))
        kind = "global memory (cudaMalloc)";
    long off = 0, region = 0;
    const char *side = NULL;
    const char *loc = strstr(report, " is located ");
    if (loc) {
        off = atol(loc + 12);
        const char *r = strstr(loc, "-byte region");
        if (r) {
            const char *q = r;
            while (q > loc && q[-1] >= '0' && q[-1] <= '9')
                q--;
            region = atol(q);
        }
        if (strstr(loc, "to the right of") || strstr(loc, " after "))
            side = "past the end of";
        else if (strstr(loc, "to the left of") || strstr(loc, " before "))
            side = "before the start of";
    }
    /* "... to the right of global variable 'Mc' defined in 'f.cu:4:8' (0x...) of size 100" */
    const char *global = loc ? strstr(loc, "global variable '") : NULL;
    char named[160] = "";
    if (global) {
        const char *name = global + 17, *q = strchr(name, '\'');
        const char *of = strstr(global, ") of size ");
        if (q && of) {
            region = atol(of + 10);
            snprintf(named, sizeof named, "__constant__ or __device__ memory (%.*s)", (int)(q - name), name);
            kind = named;
        }
    }
    if (strstr(report, "heap-use-after-free"))
        snprintf(msg, n, "%s of %d bytes of freed %s (use after cudaFree?)", what, size, kind);
    else if (side)
        snprintf(msg, n, "%s of %d bytes, %ld bytes %s a %ld-byte array in %s", what, size, off, side, region, kind);
    else
        snprintf(msg, n, "invalid %s of %d bytes in %s", what, size, kind);
}

static void on_asan_report(const char *report)
{
    if (g_list_faults)
        echo_first_at_pc(report);
    worker *W = tls.self;
    if (!W || !W->in_block || !W->L || !W->cur)
        return; /* host code: AddressSanitizer's own report says it all */
    char where[512], msg[512];
    first_frame(report, where, sizeof where);
    describe_access(W, report, msg, sizeof msg);
    report_invalid_access(W, where, msg);
}

__attribute__((constructor)) static void emu_check_init(void)
{
    if (g_list_faults) {
        int null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
        if (null_fd >= 0)
            __sanitizer_set_report_fd((void *)(intptr_t)null_fd);
    }
    __asan_set_error_report_callback(on_asan_report);
}
