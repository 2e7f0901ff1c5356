/*
 * rt_int.h - the gpulab CPU emulator runtime's private header: what its
 * parts share (as SQLite's vdbeInt.h is for its VDBE). Never included by a
 * lab or by emu_device.h: the program sees the runtime only through
 * cuda_runtime_api.h.
 *
 * Host side: the CUDA runtime API subset of cuda_runtime_api.h, with device
 * allocations tracked so that misuse fails as on a GPU.
 * Device side: a kernel launch runs its grid on a pool of OS worker threads;
 * a worker takes whole blocks; each CUDA thread of a block is a fiber with its
 * own lazily committed stack. The schedule runs thread 0 of a block up to its
 * next __syncthreads() (or its end), then thread 1, and so on: a round. When
 * every thread has reached the barrier the next round starts. See
 * docs/emulator.md for the whole design.
 *
 * The parts, each using only those above it in this list (a lower part
 * reaches a checking part above it only through its hooks, struct
 * emu_hooks below):
 *   base.c        built-in variables, errors, the diagnostic line, the JSON log, source lines
 *   alloc.c       device allocations: made, released, found, freed ones kept
 *   copies.c      copies whose pitch, width or count disagrees with their buffer
 *   memory.c      cudaMalloc, cudaFree, the copies and cudaMemset
 *   device.c      the device, events, streams
 *   sched.c       fibers and the block scheduler
 *   faults.c      SIGSEGV / SIGBUS inside kernels
 *   launch.c      the worker pool, a run out of time, emu_launch
 *   fault_list.c  the checking builds' invalid accesses (EMU_CHECKED)
 *   check.c       AddressSanitizer's report hook (EMU_CHECK)
 *   unset.c       device memory nothing stored (EMU_RACE)
 *   race.c        the race detector and bounds check (EMU_RACE)
 *   tiles.c       what the shared tiles hold at a barrier (EMU_RACE)
 *
 * A part that reads a mode's fields of worker or alloc, or has a mode's
 * code, is compiled once per mode: default, EMU_RACE (the kit's own race
 * and bounds checks on ThreadSanitizer's instrumentation, for emucc --race)
 * and EMU_CHECK (AddressSanitizer, for emucc --check); fault_list.c also
 * with EMU_LIST_FAULTS (emucc --list-faults). emu.mk lists the objects each
 * library links. Everything declared below is hidden, and a library's
 * parts are linked into one object whose hidden names are then made local
 * (emu.mk): to the program they are what file-scope statics were, and a
 * student's function of the same name does not clash with one of them.
 */
#ifndef EMU_RT_INT_H
#define EMU_RT_INT_H
#define _GNU_SOURCE
#include "cuda_runtime_api.h"
#include "emu_switch.h"

/* the runtime's own names are hidden (see above); what the program calls
 * is declared in cuda_runtime_api.h, with default visibility, or marked so */
#define EMU_PUBLIC __attribute__((visibility("default")))

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#ifndef __APPLE__ /* there ucontext_t comes with <signal.h>, and <ucontext.h> wants _XOPEN_SOURCE */
#include <ucontext.h>
#endif
#include <unistd.h>

#pragma GCC visibility push(hidden)

#ifdef EMU_CHECK
EMU_PUBLIC void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom, size_t size);
EMU_PUBLIC void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old, size_t *size_old);
EMU_PUBLIC void __asan_poison_memory_region(void const volatile *addr, size_t size);
#endif

#define SHARED_LIMIT 49152u
#define STACK_SIZE (256u * 1024u)
#define MAX_THREADS 1024
#define SHM_RESERVE ((size_t)16 << 20)
#define SHM_SLOTS 64
#define ARENA_SIZE SHM_RESERVE

/* The checking builds: device allocations and shared arrays inside margins
 * of their own, and a fault list (fault_list.c) */
#if defined(EMU_CHECK) || defined(EMU_RACE)
#define EMU_CHECKED 1
#endif

/* ctx.S: where a fresh fiber starts; it calls emu_fiber_main (sched.c) */
EMU_PUBLIC void emu_fiber_entry(void);
EMU_PUBLIC void emu_fiber_main(void);

/* ---- device allocations ------------------------------------------------------ */
typedef struct alloc {
    char *base;
    size_t size;
    char *map;       /* the mapping, guard pages included (--check: the heap block, margins included) */
    size_t maplen;
    int pitched;
    size_t pitch, row_bytes; /* cudaMallocPitch's pitch and the row width asked for (copies.c) */
    /* What the host side wrote into it and the program's copies read back,
     * and the program's copies that may have moved too few bytes: whether
     * the rest was filled, or read, is judged later (copies.c) */
    struct byte_range { size_t lo, hi; } written[8], read[8];
    int nwritten, nread;
    void *into_caller, *back_caller;
    size_t into_off, into_count, back_off;
    /* the program's cudaMalloc and cudaFree calls (return addresses), for
     * the lines that name a buffer: a use after cudaFree names both */
    void *made_by, *freed_by;
    unsigned char *stored; /* --race: which bytes anything stored (unset.c) */
    size_t unstored;       /* --race: how many bytes nothing stored */
    void *filled_by;       /* --race: the program's first copy in (host to device), any shape */
    uint32_t kernel_store; /* --race: a kernel's first store into it after that copy (its pc), or 0 */
    char *pages;           /* the graded build: its data pages, which host code may not touch (alloc.c) */
    size_t npages_bytes;
} alloc;

/* ---- fibers and the block scheduler ----------------------------------------------- */
enum { F_RUN = 0, F_WAIT = 1, F_EXIT = 2 };

typedef struct fiber {
    struct emu_ctx ctx; /* where the fiber resumes */
    uint3 tid;
    int state;
    const char *wfile;
    int wline;
    const char *retfile; /* the kernel's return statement it took (emu_note_return_), if retserial */
    int retline;
    unsigned long long retserial; /* is the block's (worker.serial): else it took none */
    int store_line;     /* the race build's mark of its next store's line (emu_race_store_line_), until that store */
    char *map;          /* guard page + stack */
    size_t maplen;
} fiber;

/* The first fault of a launch, printed by the host thread once the launch ends. */
typedef struct fault {
    const char *category;
    cudaError_t code;
    uint3 block, thread;
    void *pc;
    char where[512];    /* FILE:LINE if known when the fault happened */
    char msg[512];
} fault;

typedef struct launch {
    const struct emu_launch_cfg *cfg;
    void (*run_thread)(void *); /* runs one CUDA thread of the kernel (emu_launch's invoke) */
    void *arg;
    unsigned long long nblocks;
    unsigned long long chunk; /* blocks a worker takes at a time (run_launch) */
    unsigned nthreads;
    atomic_int failed;  /* the first fault is in f */
    atomic_int stop;    /* run no further thread or block (set with the first fault, except
                           for the faults --list-faults records and runs past: fault_list.c) */
    fault f;
    atomic_size_t static_max;
    unsigned long long barriers;
    /* --list-faults (fault_list.c): the invalid accesses seen, and
     * whether the launch's line is in the log yet */
    atomic_ullong bad_accesses;
    int faults_logged;
    /* The next block to run: every worker adds to it, so it has a cache
     * line of its own, away from the fields every thread reads (stop). */
    _Alignas(64) atomic_ullong next;
    char next_alone[64 - sizeof(atomic_ullong)];
} launch;

typedef struct worker {
    pthread_t th;
    int index;
    fiber *fibers;
    int nstacks;        /* fibers with a stack */
    fiber *cur;
    fiber *end;         /* one past the block's last fiber */
    fiber *fresh;       /* the block's first thread not started yet (they start in order) */
    int nwait, nexit;   /* this round: threads at a barrier, threads returned */
    int odd;            /* this round: a thread waits at a different barrier */
    const char *rfile;  /* the barrier of this round's first waiting thread */
    int rline;
    struct emu_ctx sched; /* the worker's scheduler loop */
    struct emu_ctx dead;  /* where a returning fiber's context goes */
    sigjmp_buf jb;
    volatile int in_block;
    int block0;
    launch *L;
    void *arg;          /* the launch's arguments: the worker's own copy (run_launch) */
    _Alignas(64) char args[4096];
    unsigned long long serial; /* the running block's, unique in this worker (shared arrays' sites are per worker) */
    char *arena;        /* shared memory (SHM_RESERVE bytes): see shm_place() */
    size_t arena_used, static_used, dyn_size;
    struct shm_slot { size_t size, align, base, end; } layout[SHM_SLOTS];
    int nlayout, nplaced;
    void *dyn;
    void **frees;
    int nfrees, capfrees;
    void *altstack;
#ifdef EMU_RACE
    unsigned long long rblock; /* the running block's linear index (race.c) */
    unsigned round;     /* rounds run by this worker: a block's barrier interval (race.c) */
    int tiles_kept;     /* the running block's shared tiles are kept at its barriers (tiles.c) */
    int access_line;    /* the running access's store line, as the race build marked it, else 0 (race.c) */
#endif
#ifdef EMU_CHECK
    const void *sched_bottom;
    size_t sched_size;
    /* the block's shared arrays, to name what a bad address is next to */
    struct shm_region { char *base; size_t size; } regions[SHM_SLOTS];
    int nregions;
#endif
#ifdef EMU_CHECKED
    unsigned char faulted[MAX_THREADS / 8]; /* threads of the block already recorded (fault_list.c) */
#endif
} worker;

/* ---- the run's shared state ---------------------------------------------------------- */
/* The sticky error, if any: every API call that touches the device returns it. */
#define RETURN_IF_STICKY()                                      \
    do {                                                        \
        if (device_hidden())                                    \
            return set_error(cudaErrorNoDevice);                \
        if (rt.sticky != cudaSuccess)                            \
            return rt.sticky;                                    \
    } while (0)

/* The emulated device's memory, as cudaGetDeviceProperties reports it: an
 * allocation past it fails with cudaErrorMemoryAllocation at once, as on a
 * GPU, instead of the emulator touching terabytes of host memory. */
#define EMU_DEVICE_MEMORY ((size_t)8 << 30)

#define GONE_KEPT 64     /* freed allocations remembered, in every build (alloc.c) */
#define FREED_KEPT 64    /* freed allocations kept mapped, race build (alloc.c) */
#define RESOLVED_KEPT 16 /* addr2line's answers a thread keeps (base.c) */
#define HOST_SEEN_KEPT 32 /* host buffers the program's copies used (copies.c) */

/* The process's emulated device: its errors and allocations (base.c). */
struct emu_run {
    pthread_mutex_t lock;      /* guards last, allocated and the allocations */
    cudaError_t last;          /* cudaGetLastError: reset on read */
    cudaError_t sticky;        /* a kernel fault: never reset */
    int refused;               /* some call returned an error: never reset */
    size_t allocated;          /* bytes of live device allocations */
    alloc *allocs;             /* the live device allocations */
    size_t nallocs, capallocs;
    alloc gone[GONE_KEPT];     /* the last freed, to name a use after cudaFree */
    size_t ngone;
    alloc freed[FREED_KEPT];   /* race build: freed allocations kept mapped for the bounds check */
    size_t nfreed;
    uint32_t fill;             /* what fresh device memory holds, if fill_set (GPULAB_EMU_FILL) */
    int fill_set;              /* else 0xFF bytes; 0 so that rt lies in .bss */
    size_t page;               /* the page size, once read */
    int nworkers_cfg;          /* the workers a launch runs on, once read (GPULAB_EMU_THREADS) */
    struct sigaction old_segv, old_bus; /* the handlers before the fault handler's (faults.c) */
    int device_open;           /* the graded build: the depth of calls that opened device memory (alloc.c) */
    int launched;              /* a kernel launch has run: a copy after one brings results back,
                                  a copy before it sends inputs (memory.c's copy_check) */
    /* cudaMallocHost's page-locked blocks: with unified addressing a kernel
     * may read them, as it may not read any other host memory (alloc.c) */
    struct pinned_block { char *base; size_t size; } *pinned;
    size_t npinned, cappinned;
    /* The host side of the program's own copies (the source of a copy in,
     * the destination of a copy back), the first HOST_SEEN_KEPT: memory a
     * kernel must not reach. The race build names a kernel's access there
     * (race.c), which the emulator's shared address space would let through
     * and a GPU would not: a struct argument whose pointer was left at the
     * host's buffer (copies.c, note_host_side). */
    struct host_side {
        const char *base;
        size_t size;
        void *caller;     /* the first copy's return address into the program, or NULL */
        const char *call; /* that copy's call: "cudaMemcpy", "cudaMemcpy2D" */
        int back;         /* the destination of a copy back, else the source of a copy in */
        char name[32];    /* the harness's name for it ("out->data"), or "" */
    } host_seen[HOST_SEEN_KEPT];
    size_t nhost_seen;
};
extern struct emu_run rt;

/* What each OS thread keeps: the worker it is, the copy it is in (base.c). */
struct emu_thread {
    worker *self;              /* the worker this thread is, or NULL: the host thread */
    void *copy_caller;         /* the return address a wrapper of the kit's named for its next copy */
    int copy_by_program;       /* the running copy is the program's own, not one of the kit's */
    struct { void *pc; char where[512]; } resolved[RESOLVED_KEPT]; /* addr2line's last answers */
    unsigned resolved_next;
};
extern __thread struct emu_thread tls;
EMU_PUBLIC extern const char __executable_start[]; /* the linker's (ELF): the program's first byte */
EMU_PUBLIC extern int gpulab_emu_mutant; /* base.c: the live candidate edit of a schemata build, 0 for none */
extern const int g_list_faults; /* fault_list.c: 1 when built with EMU_LIST_FAULTS */

static inline size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

/* GPULAB_EMU_CHECKS=bounds (race.c's race_mode_init): the kernels' tests
 * are left unrecorded (tiles.c) in the every-dataset series, whose only use
 * of them is the guard words of an invalid access; the grader runs such a
 * dataset again alone with bounds-guards, which records them. */
struct emu_check_modes {
    int tests_off;
    int edge_blocks; /* GPULAB_EMU_BLOCKS=edge: a large grid runs its edge only (sched.c) */
    int full;        /* no GPULAB_EMU_CHECKS: every access and every test recorded (tiles.c's block ends) */
};
extern struct emu_check_modes check_modes;

/* race.c's shadow of memory, which tiles.c reads too */
/* One access as a shadow cell remembers it. */
typedef struct race_access {
    uint32_t block;  /* the block's linear index in the launch, plus one (0: no access) */
    uint32_t round;  /* the worker's round counter: one per barrier interval of a block */
    uint32_t pc;     /* return address of the instrumentation call, from __executable_start */
    uint16_t thread; /* the thread's linear index in its block */
    uint8_t bytes;   /* which bytes of the granule */
    uint8_t write;
} race_access;

typedef struct race_cell {
    uint32_t tag; /* the block's serial (shared memory) or the launch's (device memory) */
    race_access w, r[2];
} race_cell;

/* Shadow cells in chunks, one per 64 KiB of memory, found by hashing the address. */
#define RACE_CHUNK_SHIFT 16
#define RACE_CHUNK_CELLS ((size_t)1 << (RACE_CHUNK_SHIFT - 2))

/* ---- what each part offers the parts above it ---------------------------------------- */
/* base.c */
const char *caller_line(void *ret, char *out, size_t n);
void *copy_caller(void *ret);
int device_hidden(void);
void diag(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int emu_own_header(const char *where);
void json_str(FILE *f, const char *s);
FILE *log_open(void);
char *resolve_pc(void *pc, char *out, size_t outsz);
char *resolve_return(void *ret, char *out, size_t outsz);
cudaError_t set_error(cudaError_t e);

/* alloc.c */
void *alloc_aligned(size_t align, size_t size);
cudaError_t device_alloc(void **out, size_t size, int pitched, void *made_by);
const char *alloc_call(const alloc *a);
const char *alloc_kind(const alloc *a);
const char *check_side(const void *p, size_t n, int want_dev);
alloc *find_alloc(const void *p, size_t n);
const alloc *freed_at(const void *p);
int is_device_ptr(const void *p);
void device_memory_open(void);
void device_memory_close(void);
const alloc *sealed_alloc_at(const void *p);
void install_fault_handlers(void);
const char *kernel_pointer_problem(const void *p);
void note_pinned(void *p, size_t size);
/* 1 where p was page-locked memory (now forgotten), 0 where it was not. */
int forget_pinned(const void *p);
const char *kind_name(int k);
int margined_block(size_t size, size_t align, size_t margin, char **block, size_t *len, char **base);
size_t page_size(void);
void release_alloc(alloc *a);

/* copies.c */
void check_copy_1d(void *caller, void *dst, const void *src, size_t count, int dd, int sd);
/* The rows and the bytes of pixels in a row of the host image described
 * at p (guard_host_rows); 0 when p is none. Caller holds rt.lock. */
int host_image_shape(const void *p, size_t *rows, size_t *row_bytes);
void check_copy_2d(void *caller, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
    size_t height, int dd, int sd);
void note_write(const void *p, size_t n);
void short_copies_in(void);
void short_copy_back(const alloc *a);
void track_copy(void *caller, void *dst, const void *src, size_t count, int dd, int sd);
void note_host_side(void *caller, const char *call, const void *p, size_t n, int back);
void note_filled(void *caller, const void *dst);
const struct host_side *host_side_at(const void *p, size_t n);

/* device.c */
int worker_count(void);

/* sched.c */
void keep_first_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
    const char *fmt, va_list ap);
void run_launch(worker *W, launch *L);
int launch_runs_edge_only(const struct emu_launch_cfg *c);
void set_fault(launch *L, const char *category, cudaError_t code, void *pc, const char *where,
    const char *fmt, ...) __attribute__((format(printf, 6, 7)));

/* faults.c */
void on_fault(int sig, siginfo_t *si, void *ucv);

/* fault_list.c */
void describe_near(char *msg, size_t len, const char *what, size_t size, const char *a, const char *base,
    size_t n, const char *kind);
void report_invalid_access(worker *W, const char *where, const char *msg);

/* race.c */
race_cell *race_cells(uintptr_t key);

/* unset.c */
void race_where(uint32_t pc, char *out, size_t n);
void unset_access(const alloc *ac, const char *addr, size_t n, int reads, int writes, uint32_t pc);
void unset_constant_read(const char *a, size_t n, uint32_t pc);

/* tiles.c */

/* ---- the checking parts' hooks ------------------------------------------------------- *
 * What a lower part calls in a checking part above it, under EMU_RACE or
 * EMU_CHECKED: through these pointers, which each checking part sets before
 * main() (its *_hooks constructor), so that no part names a function of a
 * part above it. In a library without that part they stay NULL, and no
 * call to them is compiled. */
struct emu_hooks {
    /* fault_list.c */
    void (*record_thread)(worker *W, const char *where);
    /* unset.c */
    void (*unset_new)(alloc *a);
    void (*unset_forget)(alloc *a);
    void (*unset_stored)(const void *p, size_t n);
    void (*unset_copied_in)(void *p, const void *src, size_t n);
    void (*unset_copy_read)(void *caller, const char *call, const void *src, size_t pitch, size_t width, size_t rows);
    void (*unset_launch_begin)(void);
    void (*unset_all_stored)(void);
    void (*unset_constant_copied)(void *caller, const void *symbol, size_t offset, size_t count);
    /* race.c */
    void (*race_constant_copied)(const void *symbol, const char *name, size_t size);
    void (*race_launch_begin)(void);
    void (*race_launch_end)(const struct emu_launch_cfg *c);
    void (*count_log)(FILE *f);
    /* tiles.c */
    void (*tiles_launch_begin)(void);
    void (*tiles_block_begin)(const struct launch *L, unsigned long long b);
    void (*tiles_round_end)(struct worker *W);
    void (*tiles_block_end)(struct worker *W);
    void (*tiles_access)(struct worker *W, const void *addr, unsigned size, int write, int space, uint32_t pc);
    void (*tiles_guard_words)(struct worker *W, int line, char *out, size_t n);
    void (*tiles_launch_end)(const struct emu_launch_cfg *c);
};
extern struct emu_hooks hooks;

/* unset.c: a dataset of a series begins (race.c's gpulab_emu_dataset_begin):
 * the copies reported once a process are reported again */
void unset_dataset_begin(void);

#pragma GCC visibility pop
#endif /* EMU_RT_INT_H */
