/* launch.c - the worker pool, a run out of time (SIGUSR1), and a launch:
 * its configuration checked, its blocks run, its fault reported and its
 * line in the launch log. */

#include "rt_int.h"

/* The workers, started at the first launch, and the launch they run. */
static struct emu_pool {
    worker *workers;
    int nworkers;
    pthread_mutex_t lock;      /* guards generation, ndone and launch */
    pthread_cond_t start;      /* a launch is there: generation moved on */
    pthread_cond_t done;       /* every worker has finished it */
    unsigned long generation;  /* launches handed to the workers */
    int ndone;                 /* workers done with this generation's launch */
    launch *launch;
    pthread_mutex_t launch_lock; /* one launch at a time */
    atomic_int stuck_told, stuck_passed_on; /* a run out of time: the line said, the signal passed on */
} pool = {
    .lock = PTHREAD_MUTEX_INITIALIZER,
    .start = PTHREAD_COND_INITIALIZER,
    .done = PTHREAD_COND_INITIALIZER,
    .launch_lock = PTHREAD_MUTEX_INITIALIZER,
};

static void *worker_main(void *arg)
{
    worker *W = arg;
    tls.self = W;
    stack_t ss;
    ss.ss_sp = W->altstack;
    ss.ss_size = 65536;
    ss.ss_flags = 0;
    sigaltstack(&ss, NULL);
#ifdef EMU_CHECK
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) == 0) {
        void *addr;
        size_t sz;
        pthread_attr_getstack(&at, &addr, &sz);
        W->sched_bottom = addr;
        W->sched_size = sz;
        pthread_attr_destroy(&at);
    }
#endif
    unsigned long seen = 0;
    for (;;) {
        pthread_mutex_lock(&pool.lock);
        while (pool.generation == seen)
            pthread_cond_wait(&pool.start, &pool.lock);
        seen = pool.generation;
        launch *L = pool.launch;
        pthread_mutex_unlock(&pool.lock);
        run_launch(W, L);
        pthread_mutex_lock(&pool.lock);
        if (++pool.ndone == pool.nworkers)
            pthread_cond_signal(&pool.done);
        pthread_mutex_unlock(&pool.lock);
    }
    return NULL;
}

/* The SIGSEGV and SIGBUS handler (faults.c), once: at the first launch, or
 * at the graded build's first cudaMalloc, whose pages host code may not
 * touch. The handlers it replaces are kept for the faults it cannot name. */
void install_fault_handlers(void)
{
    static int installed;
    if (installed)
        return;
    installed = 1;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_fault;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGSEGV, &sa, &rt.old_segv);
    sigaction(SIGBUS, &sa, &rt.old_bus);
}

static void start_pool(void)
{
    if (pool.workers)
        return;
    int n = worker_count();
    pool.workers = calloc((size_t)n, sizeof *pool.workers);
    if (!pool.workers)
        abort();
    install_fault_handlers();
    for (int i = 0; i < n; i++) {
        worker *W = &pool.workers[i];
        W->index = i;
        W->fibers = calloc(MAX_THREADS, sizeof *W->fibers);
        W->altstack = malloc(65536);
#ifndef EMU_CHECK
        W->arena = mmap(NULL, SHM_RESERVE, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
        if (W->arena == MAP_FAILED)
            abort();
#endif
        if (!W->fibers || !W->altstack)
            abort();
    }
    pool.nworkers = n;
    for (int i = 0; i < n; i++) {
        pthread_attr_t at;
        pthread_attr_init(&at);
        pthread_attr_setstacksize(&at, 8u << 20);
        if (pthread_create(&pool.workers[i].th, &at, worker_main, &pool.workers[i]) != 0) {
            diag("gpulab-emu: internal: cannot start worker thread %d", i);
            abort();
        }
        pthread_attr_destroy(&at);
    }
}


/* ---- a run out of time ------------------------------------------------------------ */
/* The grader sends SIGUSR1 when a run's time is up, a moment before it kills
 * the run: the worker running a kernel's thread says where that thread is
 * (the FILE:LINE of the instruction it was interrupted at), so the report
 * can name the loop that never ends. A signal that lands on a thread running
 * no kernel (the host thread, waiting for the launch) is passed on to the
 * workers; one line in all. */

/* Whether FILE:LINE, where a thread was interrupted, is a line of the
 * student's program: not the emulator's own (a part of the runtime, its device header)
 * nor the C++ library's headers (the launch's std::apply between two
 * threads), which the report would show them as if it were theirs. */
static int students_line(const char *where)
{
    /* the debug information may name a part of the runtime as it was
     * compiled or by its whole path: the folder of this file (every part's)
     * ends the file's folder either way */
    const char *colon = strrchr(where, ':');
    size_t n = colon ? (size_t)(colon - where) : strlen(where);
    const char *own_slash = strrchr(__FILE__, '/');
    size_t own = own_slash ? (size_t)(own_slash - __FILE__) + 1 : 0; /* "grader/emu/src/" */
    while (n > 0 && where[n - 1] != '/')
        n--; /* where's folder, its '/' included */
    int ours = own > 0 && n >= own && memcmp(where + n - own, __FILE__, own) == 0 &&
               (n == own || where[n - own - 1] == '/');
    return where[0] && !ours && !emu_own_header(where) && !strstr(where, "/include/c++/");
}

static void on_stuck(int sig, siginfo_t *si, void *ucv)
{
    (void)si;
    worker *W = tls.self;
    if (W && W->in_block && W->cur && W->L) {
        if (atomic_exchange(&pool.stuck_told, 1))
            return;
        void *pc = NULL;
        const ucontext_t *uc = ucv;
#if defined(__APPLE__) && defined(__aarch64__)
        pc = (void *)uc->uc_mcontext->__ss.__pc;
#elif defined(__x86_64__)
        pc = (void *)uc->uc_mcontext.gregs[REG_RIP];
#elif defined(__aarch64__)
        pc = (void *)uc->uc_mcontext.pc;
#else
        (void)uc;
#endif
        char where[512], line[1536];
        resolve_pc(pc, where, sizeof where);
        if (!students_line(where))
            where[0] = 0;
        const launch *L = W->L;
        const struct emu_launch_cfg *c = L->cfg;
        /* how far the launch got: blocks handed to the workers (a chunk
         * at a time), so that a grid far too large, whose blocks do
         * finish, is not taken for a loop that never ends */
        unsigned long long started = atomic_load(&L->next);
        if (started > L->nblocks)
            started = L->nblocks;
        int n = snprintf(line, sizeof line,
                         "gpulab-emu: stuck %s kernel %s grid (%u,%u,%u) block (%u,%u,%u) thread (%u,%u,%u): still "
                         "running when the time ran out; the launch at %s:%d had started %llu of its %llu blocks "
                         "of (%u,%u,%u) threads\n",
                         where[0] ? where : "-", c->kernel, c->grid.x, c->grid.y, c->grid.z, emu_blockIdx_.x,
                         emu_blockIdx_.y, emu_blockIdx_.z, W->cur->tid.x, W->cur->tid.y, W->cur->tid.z, c->file,
                         c->line, started, L->nblocks, c->block.x, c->block.y, c->block.z);
        if (n > 0 && write(2, line, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1) < 0)
            return;
        return;
    }
    if (atomic_exchange(&pool.stuck_passed_on, 1))
        return;
    for (int i = 0; i < pool.nworkers; i++)
        if (&pool.workers[i] != W)
            pthread_kill(pool.workers[i].th, sig);
}

/* From the program's start, so that the grader's SIGUSR1 never ends a run
 * (its default action) before the time limit, even before a launch. */
__attribute__((constructor)) static void install_stuck_handler(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_stuck;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGUSR1, &sa, NULL);
}

/* One "launch" line. A launch that did not succeed also says whether its
 * blocks ran ("ran": true for a kernel fault: the kernel ran, and what it
 * did is evidence) or not (a refused configuration, or a launch after a
 * sticky error). */
static void log_launch(const struct emu_launch_cfg *c, size_t st, unsigned long long barriers, cudaError_t e,
                       int ran)
{
    FILE *f = log_open();
    if (!f)
        return;
    fputs("{\"event\":\"launch\",\"kernel\":", f);
    json_str(f, c->kernel);
    /* where the program launched it: the grader names the launch line */
    fputs(",\"where\":", f);
    char where[1024];
    snprintf(where, sizeof where, "%s:%d", c->file ? c->file : "-", c->line);
    json_str(f, where);
    fprintf(f, ",\"grid\":[%u,%u,%u],\"block\":[%u,%u,%u],\"shared_static_bytes\":%zu,"
               "\"shared_dynamic_bytes\":%zu,\"barriers\":%llu,\"status\":\"%s\"",
            c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y, c->block.z, st, c->shmem,
            barriers, cudaGetErrorName(e));
    if (e != cudaSuccess)
        fprintf(f, ",\"ran\":%s", ran ? "true" : "false");
#ifdef EMU_RACE
    if (ran)
        hooks.count_log(f);
#endif
    fputs("}\n", f);
    fclose(f);
}

/* " (`TEXT`)": the at-th (1 = first) of a launch's arguments as written
 * ("d_M, d_N, P, width"), or "" where they cannot be told apart. */
static void argument_text(const char *args, int at, char *out, size_t n)
{
    out[0] = 0;
    if (!args || !*args)
        return;
    const char *p = args;
    int depth = 0;
    for (int k = 1; *p && k < at; p++) {
        if (*p == '(' || *p == '[' || *p == '{')
            depth++;
        else if (*p == ')' || *p == ']' || *p == '}')
            depth--;
        else if (*p == ',' && depth == 0)
            k++;
    }
    while (*p == ' ')
        p++;
    const char *e = p;
    for (depth = 0; *e && !(*e == ',' && depth == 0); e++)
        if (*e == '(' || *e == '[' || *e == '{')
            depth++;
        else if (*e == ')' || *e == ']' || *e == '}')
            depth--;
    while (e > p && e[-1] == ' ')
        e--;
    if (e > p)
        snprintf(out, n, " (`%.*s`)", (int)(e - p), p);
}

static cudaError_t bad_launch(const struct emu_launch_cfg *c, cudaError_t e, const char *why)
{
    diag("gpulab-emu: invalid-launch %s:%d kernel %s grid (%u,%u,%u) block (%u,%u,%u): %s (%s)",
         c->file, c->line, c->kernel, c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y,
         c->block.z, why, cudaGetErrorName(e));
    log_launch(c, 0, 0, e, 0);
    return set_error(e);
}

/* A kernel given a pointer to host memory (d_P's host twin P, say). On a
 * GPU its first access through it is an illegal address; the emulator,
 * which shares one address space with the host, would read host memory as
 * if it were the device's, so a program that passes P where d_P belongs
 * would come out right here and fail on every GPU. The launch fails as the
 * GPU's would, sticky, before its blocks run, at the launch's line with the
 * argument named. Returns whether it failed. */
static int host_pointer_argument(const struct emu_launch_cfg *c)
{
    for (int i = 0; i < c->npointers; i++) {
        pthread_mutex_lock(&rt.lock);
        const char *why = kernel_pointer_problem(c->pointers[i]);
        pthread_mutex_unlock(&rt.lock);
        if (!why)
            continue;
        char what[256];
        argument_text(c->args, c->pointer_at[i], what, sizeof what);
        if (c->references & (1u << i))
            why = "is bound to a reference parameter (`&`): the kernel gets the address of the host's object, and "
                  "a kernel can reach only device memory, so declare that parameter by value (without the `&`), "
                  "as CUDA copies a kernel's arguments";
        diag("gpulab-emu: host-pointer %s:%d kernel %s grid (%u,%u,%u) block (%u,%u,%u): argument %d%s of kernel %s "
             "%s (cudaErrorIllegalAddress)",
             c->file, c->line, c->kernel, c->grid.x, c->grid.y, c->grid.z, c->block.x, c->block.y, c->block.z,
             c->pointer_at[i], what, c->kernel, why);
        rt.sticky = cudaErrorIllegalAddress;
        set_error(cudaErrorIllegalAddress);
        log_launch(c, 0, 0, cudaErrorIllegalAddress, 0);
        return 1;
    }
    return 0;
}

cudaError_t emu_launch(const struct emu_launch_cfg *c, void (*run_thread)(void *), void *arg)
{
    if (rt.sticky != cudaSuccess) {
        log_launch(c, 0, 0, rt.sticky, 0);
        return rt.sticky;
    }
    rt.launched = 1;
    /* CUDA 13 answers every invalid configuration with cudaErrorInvalidValue
     * (checked on an H200; older releases said cudaErrorInvalidConfiguration). */
    const cudaError_t bad = cudaErrorInvalidValue;
    const dim3 g = c->grid, b = c->block;
    if (!g.x || !g.y || !g.z || !b.x || !b.y || !b.z)
        return bad_launch(c, bad, "a grid or block dimension is 0");
    if (b.x > 1024 || b.y > 1024 || b.z > 64)
        return bad_launch(c, bad,
                          "block dimensions are limited to (1024, 1024, 64)");
    if ((unsigned long long)b.x * b.y * b.z > MAX_THREADS)
        return bad_launch(c, bad, "more than 1024 threads per block");
    if (g.x > 2147483647u || g.y > 65535 || g.z > 65535)
        return bad_launch(c, bad,
                          "grid dimensions are limited to (2147483647, 65535, 65535)");
    if (c->max_threads && (unsigned long long)b.x * b.y * b.z > c->max_threads) {
        char why[160];
        snprintf(why, sizeof why, "a block of %llu threads, more than the kernel's __launch_bounds__ (%u) allows",
                 (unsigned long long)b.x * b.y * b.z, c->max_threads);
        return bad_launch(c, bad, why); /* what CUDA 13 says on an H200 (grader/tests/emu/launch_bounds.cu) */
    }
    if (c->shmem > SHARED_LIMIT)
        return bad_launch(c, cudaErrorInvalidValue, "more than 48 KiB (49152 bytes) of dynamic shared memory");

    if (host_pointer_argument(c))
        return cudaErrorIllegalAddress;

    short_copies_in();
    pthread_mutex_lock(&pool.launch_lock);
    start_pool();
    launch L;
    memset(&L, 0, sizeof L);
    L.cfg = c;
    L.run_thread = run_thread;
    L.arg = arg;
    L.nblocks = (unsigned long long)g.x * g.y * g.z;
    L.nthreads = b.x * b.y * b.z;
    /* A worker takes blocks a chunk at a time (one atomic add a chunk, not
     * a block: a grid of millions of blocks that return at once is mostly
     * that add), small enough that the workers share the work evenly. */
    L.chunk = L.nblocks / ((unsigned long long)pool.nworkers * 256 + 1);
    L.chunk = L.chunk < 1 ? 1 : L.chunk > 256 ? 256 : L.chunk;
    atomic_init(&L.next, 0);
    atomic_init(&L.failed, 0);
    atomic_init(&L.stop, 0);
    atomic_init(&L.bad_accesses, 0);
    atomic_init(&L.static_max, 0);

#ifdef EMU_RACE
    hooks.race_launch_begin();
    hooks.tiles_launch_begin();
    hooks.unset_launch_begin();
#endif
    device_memory_open(); /* the kernel's, for as long as its blocks run (alloc.c) */
    pthread_mutex_lock(&pool.lock);
    pool.launch = &L;
    pool.ndone = 0;
    pool.generation++;
    pthread_cond_broadcast(&pool.start);
    while (pool.ndone < pool.nworkers)
        pthread_cond_wait(&pool.done, &pool.lock);
    pool.launch = NULL;
    pthread_mutex_unlock(&pool.lock);
    device_memory_close();
    pthread_mutex_unlock(&pool.launch_lock);
#ifdef EMU_RACE
    hooks.race_launch_end(c);
    hooks.tiles_launch_end(c);
    if (launch_runs_edge_only(c))
        hooks.unset_all_stored(); /* what the skipped blocks would have stored is not known */
#endif

    cudaError_t e = cudaSuccess;
    if (atomic_load(&L.failed)) {
        fault *f = &L.f;
        e = f->code;
        char where[1024];
        const char *msg = f->msg;
        if (f->where[0])
            snprintf(where, sizeof where, "%s", f->where);
        else
            resolve_pc(f->pc, where, sizeof where);
        if (!where[0])
            snprintf(where, sizeof where, "-");
        diag("gpulab-emu: %s %s kernel %s block (%u,%u,%u) thread (%u,%u,%u): %s (%s)", f->category,
             where, c->kernel, f->block.x, f->block.y, f->block.z, f->thread.x, f->thread.y,
             f->thread.z, msg, cudaGetErrorName(e));
        if (e == cudaErrorInvalidValue) {
            set_error(e); /* a launch error, not sticky */
        } else {
            rt.sticky = e;
            set_error(e);
        }
    }
    /* A refused configuration (cudaErrorInvalidValue, also for too much
     * static shared memory, found once blocks ran) counts as not run, as on
     * a GPU, which refuses such a launch before any block starts. */
    log_launch(c, atomic_load(&L.static_max), L.barriers, e, e != cudaErrorInvalidValue);
    return e;
}


