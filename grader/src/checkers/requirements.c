/*
 * requirements.c - see requirements.h.
 */
#define _GNU_SOURCE
#include "requirements.h"
#include "source.h"
#include "emu_log.h"
#include "counts.h"
#include "findings.h"
#include "util.h"

#include <cJSON.h>
#include <dirent.h>

/* PTX of a lab file is tens of kilobytes. */
#define PTX_MAX_BYTES (64LL << 20)
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The readable name of a kernel from its PTX name: "_Z15MatrixMulKernelPKfS0_Pfi"
 * -> "MatrixMulKernel" (the Itanium ABI's length-prefixed name); an extern "C"
 * name as it is. */
static void kernel_name(const char *ptx_name, size_t n, char *out, size_t cap)
{
    if (n > 2 && strncmp(ptx_name, "_Z", 2) == 0) {
        const char *p = ptx_name + 2;
        char *end;
        long k = strtol(p, &end, 10);
        if (k > 0 && end + k <= ptx_name + n) {
            snprintf(out, cap, "%.*s", (int)k, end);
            return;
        }
    }
    snprintf(out, cap, "%.*s", (int)n, ptx_name);
}

/* The bytes of a PTX variable declaration's type: .b8/.u8/.s8 -> 1, .f32 -> 4 ... */
static long ptx_type_bytes(const char *decl)
{
    static const char *const types[] = { "8", "16", "32", "64" };
    for (const char *t = decl; (t = strpbrk(t, ".")) != NULL; t++) {
        if (strchr("bfsu", t[1]))
            for (int i = 0; i < 4; i++)
                if (strncmp(t + 2, types[i], strlen(types[i])) == 0 &&
                    (t[2 + strlen(types[i])] == ' ' || t[2 + strlen(types[i])] == '\t'))
                    return 1L << i;
    }
    return 1;
}

/* One PTX file: what the compiler made of the student's kernels. Comments
 * are skipped (ptx_without_comments); a kernel's shared memory is its own static declarations
 * (function-local __shared__ arrays appear at module scope named
 * _ZZ<kernel>E<name>) plus 1 for extern (dynamic) shared memory. */
/* PTX without its comments (// to the end of the line, and block comments,
 * newlines kept), so text a student smuggles in through an inline asm
 * comment counts for nothing. */
static char *ptx_without_comments(const char *text)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *c = text; *c; c++) {
        if (c[0] == '/' && c[1] == '/') {
            while (c[1] && c[1] != '\n')
                c++;
        } else if (c[0] == '/' && c[1] == '*') {
            const char *close = strstr(c + 2, "*/");
            for (const char *k = c; k < (close ? close : c + strlen(c)); k++)
                if (*k == '\n')
                    sb_append(&sb, "\n", 1);
            if (!close)
                break;
            c = close + 1;
        } else {
            sb_append(&sb, c, 1);
        }
    }
    return sb_detach(&sb);
}

/* Whether a PTX line declares shared memory: ".shared ..." or ".extern
 * .shared ..." at its start, not an instruction on it (st.shared, cvta...). */
static const char *shared_declaration(const char *line)
{
    line += strspn(line, " \t");
    if (strncmp(line, ".extern", 7) == 0)
        line += 7 + strspn(line + 7, " \t");
    return strncmp(line, ".shared", 7) == 0 && (line[7] == ' ' || line[7] == '\t') ? line : NULL;
}

/* A kernel with `bytes` of shared memory, for the tile two_batch judges. */
static void note_tile(kernel_evidence *e, const char *kernel, long bytes)
{
    if (bytes <= 0)
        return;
    if (e->tile_bytes == 0 || bytes < e->tile_bytes) {
        e->tile_bytes = bytes;
        snprintf(e->tile_kernel, sizeof e->tile_kernel, "%.127s", kernel);
    }
}

/* The grading build's shared-memory poison waits on a barrier of its own
 * number: "barrier.sync 15;", which is not the student's. The number is
 * GPULAB_POISON_BARRIER_TEXT of grader/runtime/smem_poison_device.cuh (a
 * CUDA header, which C cannot include); test_requirements' kernel with
 * shared tiles and no barrier fails if the two differ. */
#define GPULAB_POISON_BARRIER_TEXT "15"
static int is_poison_barrier(const char *line)
{
    const char *p = strstr(line, "barrier.sync");
    if (!p)
        return 0;
    p += strlen("barrier.sync");
    while (*p == ' ' || *p == '\t')
        p++;
    return strncmp(p, GPULAB_POISON_BARRIER_TEXT, strlen(GPULAB_POISON_BARRIER_TEXT)) == 0 &&
           (p[strlen(GPULAB_POISON_BARRIER_TEXT)] == ';' || p[strlen(GPULAB_POISON_BARRIER_TEXT)] == ' ');
}

static void evidence_from_ptx(const char *ptx, kernel_evidence *e)
{
    char *text = ptx_without_comments(ptx);
    char kernel[128] = "";
    long barriers = 0;
    /* each kernel's shared bytes: the sum of its arrays */
    struct { char name[128]; long bytes; } owners[32];
    int nowners = 0;
    for (const char *line = text; *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *l = xasprintf("%.*s", (int)n, line);
        const char *entry = strstr(l, ".entry ");
        if (entry) {
            if (barriers > e->barriers) {
                e->barriers = barriers;
                snprintf(e->barrier_kernel, sizeof e->barrier_kernel, "%s", kernel);
            }
            barriers = 0;
            entry += strlen(".entry ");
            kernel_name(entry, strcspn(entry, "( \t"), kernel, sizeof kernel);
            e->observed = 1;
        }
        const char *shared = shared_declaration(l);
        if (shared) {
            const char *bracket = strrchr(l, '[');
            long count = bracket ? strtol(bracket + 1, NULL, 10) : 1;
            long bytes = strstr(l, ".extern") ? 1 : ptx_type_bytes(shared) * (count > 0 ? count : 1);
            e->shared_unsized = e->shared_unsized || strstr(l, ".extern") != NULL;
            /* owner: _ZZ<len><kernel>E... names the kernel the array is local to */
            char owner[128] = "";
            const char *zz = strstr(l, "_ZZ");
            if (zz) {
                char *end;
                long k = strtol(zz + 3, &end, 10);
                if (k > 0 && (size_t)k <= strlen(end))
                    snprintf(owner, sizeof owner, "%.*s", (int)k, end);
            }
            const char *who = owner[0] ? owner : kernel;
            int k = 0;
            while (k < nowners && strcmp(owners[k].name, who) != 0)
                k++;
            if (k == nowners && nowners < 32) {
                snprintf(owners[k].name, sizeof owners[k].name, "%s", who);
                owners[k].bytes = 0;
                nowners++;
            }
            long total = k < 32 ? (owners[k].bytes += bytes) : bytes;
            if (total > e->shared_bytes) {
                e->shared_bytes = total;
                snprintf(e->shared_kernel, sizeof e->shared_kernel, "%s", who);
            }
        }
        if ((strstr(l, "bar.sync") || strstr(l, "barrier.sync") || strstr(l, "bar.red") ||
             strstr(l, "barrier.red") || strstr(l, "barrier.cta.sync")) &&
            !is_poison_barrier(l))
            barriers++;
        for (const char *p = l; (p = strstr(p, "ld.const.")) != NULL; p++) {
            if (p > l && (p[-1] == ' ' || p[-1] == '\t')) {
                e->constant_bytes = e->constant_bytes > 0 ? e->constant_bytes : 1;
                e->constant_seen_in_ptx = 1;
                break;
            }
        }
        free(l);
        line = end ? end + 1 : line + n;
    }
    if (barriers > e->barriers) {
        e->barriers = barriers;
        snprintf(e->barrier_kernel, sizeof e->barrier_kernel, "%s", kernel);
    }
    for (int k = 0; k < nowners && k < 32; k++)
        note_tile(e, owners[k].name, owners[k].bytes);
    free(text);
}

void evidence_from_ptx_dir(const char *dir, kernel_evidence *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        if (!ends_with(ent->d_name, ".ptx"))
            continue;
        char *path = xasprintf("%s/%s", dir, ent->d_name);
        char *why = NULL;
        char *text = untrusted_read(path, PTX_MAX_BYTES, 0, NULL, &why);
        free(path);
        free(why);
        if (!text)
            continue;
        evidence_from_ptx(text, e);
        free(text);
    }
    closedir(d);
}

void evidence_from_emu_facts(const char *path, kernel_evidence *e)
{
    char *why = NULL;
    char *text = untrusted_read(path, 4096, 0, NULL, &why);
    free(why);
    if (!text)
        return;
    cJSON *o = cJSON_Parse(text);
    free(text);
    if (!o)
        return;
    e->static_known = 1;
    const char *keys[] = { "kernels", "launches", "shared", "barriers", "constants", "symbol_copies" };
    int *fields[] = { &e->static_kernels, &e->static_launches, &e->static_shared, &e->static_barriers,
                      &e->static_constants, &e->static_symbol_copies };
    for (int i = 0; i < 6; i++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, keys[i]);
        *fields[i] = cJSON_IsNumber(v) ? (int)v->valuedouble : 0;
    }
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "shared_accumulations");
    e->static_shared_accumulations = cJSON_IsNumber(v) ? (int)v->valuedouble : -1;
    cJSON_Delete(o);
}

/* emu_log_each's callback: a line of the launch log into the evidence (arg). */
static void evidence_from_line(const cJSON *o, void *arg)
{
    kernel_evidence *e = arg;
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
    const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
    const cJSON *ran = cJSON_GetObjectItemCaseSensitive(o, "ran");
    int launched = !cJSON_IsString(status) || strcmp(status->valuestring, "cudaSuccess") == 0 || cJSON_IsTrue(ran);
    if (cJSON_IsString(ev) && strcmp(ev->valuestring, "launch") == 0 && launched) {
        /* A refused launch (a bad configuration) ran nothing: no evidence.
         * A launch that faulted ("ran": true) did run: what it did counts. */
        e->observed = 1;
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kernel");
        const char *name = cJSON_IsString(k) ? k->valuestring : "";
        const cJSON *ss = cJSON_GetObjectItemCaseSensitive(o, "shared_static_bytes");
        const cJSON *sd = cJSON_GetObjectItemCaseSensitive(o, "shared_dynamic_bytes");
        const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "barriers");
        long smem = (long)((cJSON_IsNumber(ss) ? ss->valuedouble : 0) +
                           (cJSON_IsNumber(sd) ? sd->valuedouble : 0));
        long barriers = cJSON_IsNumber(b) ? (long)b->valuedouble : 0;
        if (smem > e->shared_bytes) {
            e->shared_bytes = smem;
            snprintf(e->shared_kernel, sizeof e->shared_kernel, "%s", name);
        }
        note_tile(e, name, smem);
        if (barriers > e->barriers) {
            e->barriers = barriers;
            snprintf(e->barrier_kernel, sizeof e->barrier_kernel, "%s", name);
        }
    } else if (cJSON_IsString(ev) && strcmp(ev->valuestring, "memcpy_to_symbol") == 0) {
        const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(o, "bytes");
        if (cJSON_IsNumber(bytes) && bytes->valuedouble > e->constant_bytes)
            e->constant_bytes = (long)bytes->valuedouble;
    }
}

void evidence_from_emu_log(const char *path, kernel_evidence *e)
{
    emu_log_each(path, NULL, evidence_from_line, e);
}

void evidence_from_kernel_token(const unsigned block[3], kernel_evidence *e)
{
    unsigned long long threads = (unsigned long long)block[0] * block[1] * block[2];
    unsigned long long had = (unsigned long long)e->token_block[0] * e->token_block[1] * e->token_block[2];
    if (threads > had)
        memcpy(e->token_block, block, sizeof e->token_block);
}

/* "16 x 16" (a 2-D block), "256" or "8 x 8 x 4". */
static char *block_words(const unsigned b[3])
{
    if (b[2] > 1)
        return xasprintf("%u x %u x %u", b[0], b[1], b[2]);
    if (b[1] > 1)
        return xasprintf("%u x %u", b[0], b[1]);
    return xasprintf("%u", b[0]);
}

/* Lab 04's technique: blocks the size of the output tile, one thread per
 * output pixel, which load the larger input tile (the output tile and its
 * halo) in two batches. The kit sees the block (the kernel token) and the
 * shared tile (PTX, or the emulator's launch log; with several kernels
 * with shared memory, the smallest, since the token does not say which
 * kernel ran the block: a dummy kernel's large array earns nothing): fewer threads than the
 * tile has floats means each thread loads more than one element; as many
 * or more means one thread per tile element, whose halo-ring threads only
 * load and then idle (or a halo read from global memory). Sets *met. */
static char *judge_two_batch(const kernel_evidence *e, const access_summary *a, int *met)
{
    const unsigned *b = e->token_block;
    unsigned long long threads = (unsigned long long)b[0] * b[1] * b[2];
    long floats = e->tile_bytes / (long)sizeof(float);
    *met = 0;
    if (threads == 0)
        return xstrdup("could not be checked: no call of your entry point finished with a kernel of yours, so "
                       "the kit did not see your blocks");
    if (e->tile_bytes == 0)
        return xstrdup("no kernel uses __shared__ memory: lab 04 loads each block's input tile, with its halo, "
                       "into shared memory, in two batches");
    char *blk = block_words(b);
    /* several kernels with shared memory: the token gives the largest
     * block, not which kernel ran it, so the smallest tile is judged */
    char *which = strcmp(e->tile_kernel, e->shared_kernel) != 0
                      ? xasprintf(" (the smallest of your kernels' tiles: the kit sees your largest block but not "
                                  "which kernel ran it, so every kernel's tile must have more floats than that "
                                  "block has threads; kernel %s has %ld floats)",
                                  e->shared_kernel, e->shared_bytes / (long)sizeof(float))
                      : xstrdup("");
    char *msg;
    /* A pass of the block per channel: the checkers' counts say how many
     * floats the block stored into shared memory per thread and channel;
     * two batches store more than one (a tile of every channel at once,
     * filled one channel a pass, has more floats than threads, but each
     * pass is one element a thread). */
    double per_thread = a->known && a->c.threads > 0 && a->channels >= 1
                            ? (double)a->c.shared_stores / ((double)a->c.threads * a->channels)
                            : 0;
    if ((unsigned long long)floats > threads && a->known && a->c.shared_stores > 0 && per_thread <= 1.0) {
        msg = xasprintf("blocks of %s = %llu threads stored %.2f floats a thread into shared memory per channel on "
                        "%s: one pass of the block per channel, one element a thread, so the halo ring's threads "
                        "only load, then idle, though kernel %s's %ld-float tile has more floats than the block has "
                        "threads. Lab 04 uses one thread per output pixel (TILE_WIDTH x TILE_WIDTH blocks) and loads "
                        "each channel's larger tile in two batches: the element at each thread's flattened index, "
                        "then the one TILE_WIDTH * TILE_WIDTH further on",
                        blk, threads, per_thread, a->dataset, e->tile_kernel, floats);
    } else if ((unsigned long long)floats > threads) {
        *met = 1;
        unsigned long long batches = ((unsigned long long)floats + threads - 1) / threads;
        msg = xasprintf("blocks of %s = %llu threads load kernel %s's %ld-float shared tile in %llu batches: "
                        "fewer threads than tile elements, so no thread only loads",
                        blk, threads, e->tile_kernel, floats, batches);
    } else if (e->shared_unsized) {
        msg = xasprintf("could not be measured: kernel %s's tile is an extern __shared__ array, whose size is set "
                        "at the launch, which the kit does not see on a GPU; declare the tile with its size "
                        "(__shared__ float N_ds[w][w], w = TILE_WIDTH + MASK_WIDTH - 1)",
                        e->tile_kernel);
    } else {
        msg = xasprintf("blocks of %s = %llu threads for kernel %s's %ld-float shared tile%s: one thread per tile "
                        "element, so the halo ring's threads only load, then idle (or the halo is not in the "
                        "tile). Lab 04 uses one thread per output pixel (TILE_WIDTH x TILE_WIDTH blocks) and "
                        "loads the larger tile in two batches: the element at each thread's flattened index, then "
                        "the one TILE_WIDTH * TILE_WIDTH further on",
                        blk, threads, e->tile_kernel, floats, which);
    }
    free(which);
    free(blk);
    return msg;
}

static void judge_one(const requirement_spec *q, const kernel_evidence *e, const submission_result *s,
                      int timed_out, requirement_result *r)
{
    const char *backend = s->backend;
    int gpu = strcmp(backend, "gpu") == 0;
    r->name = q->name;
    r->max_points = q->points;
    int met = 0;
    switch (q->kind) {
    case REQ_SHARED_MEMORY:
        met = e->shared_bytes > 0;
        r->message = met ? xasprintf("kernel %s uses %ld bytes of shared memory", e->shared_kernel,
                                     e->shared_bytes)
                         : xstrdup("no kernel uses __shared__ memory: this lab is about tiling, so the "
                                   "kernel must load its tiles into shared memory");
        break;
    case REQ_BARRIER:
        met = e->barriers > 0;
        /* Only that a barrier exists: whether each one is where it is
         * needed is for the datasets and the checkers to say, and this line
         * must not read as "your barriers are fine" above a race finding. */
        r->message = met ? xasprintf("a __syncthreads() is present in kernel %s%s", e->barrier_kernel,
                                     gpu ? "" : " (seen at run time)")
                         : xstrdup("no kernel calls __syncthreads(): the threads of a block must wait "
                                   "for the whole tile to be loaded before using it, and for everyone to "
                                   "finish with it before it is overwritten");
        break;
    case REQ_CONSTANT_MEMORY:
        met = e->constant_bytes > 0;
        r->message = met ? (e->constant_seen_in_ptx
                                ? xstrdup("a kernel reads __constant__ memory")
                                : xasprintf("%ld bytes were copied to __constant__ memory", e->constant_bytes))
                         : xstrdup("the mask is not in constant memory: declare it __constant__ and "
                                   "fill it with cudaMemcpyToSymbol");
        break;
    case REQ_TWO_BATCH:
        r->message = judge_two_batch(e, &s->reads, &met);
        break;
    default:
        r->message = xstrdup("unknown requirement");
    }
    /* On the emulator the launch log comes from the student's own process,
     * which could write anything: a point needs the source to show the same
     * thing (emucc --facts, counted by the kit at build time). */
    if (met && !gpu && e->static_known) {
        const char *missing = NULL;
        if ((q->kind == REQ_SHARED_MEMORY || q->kind == REQ_TWO_BATCH) && e->static_shared == 0)
            missing = "the source declares no __shared__ memory";
        else if (q->kind == REQ_BARRIER && e->static_barriers == 0)
            missing = "the source calls no __syncthreads()";
        else if (q->kind == REQ_CONSTANT_MEMORY && (e->static_constants == 0 || e->static_symbol_copies == 0))
            missing = "the source declares no __constant__ memory filled with cudaMemcpyToSymbol()";
        if (missing) {
            met = 0;
            free(r->message);
            r->message = xasprintf("not met: %s (the run's log claimed otherwise)", missing);
        }
    }
    char symbol[64];
    int copy = 0, decl = !met && q->kind == REQ_CONSTANT_MEMORY && s->file
                            ? source_device_symbol(s->file, symbol, sizeof symbol, &copy)
                            : 0;
    if (decl > 0) {
        /* the mask filled and read, but from global memory: say where */
        free(r->message);
        r->message = xasprintf("not met: line %d declares %s __device__, which puts it in ordinary global memory, "
                               "not in constant memory (the cudaMemcpyToSymbol at line %d fills it all the same): "
                               "declare %s __constant__ at line %d",
                               decl, symbol, copy, symbol, decl);
    }
    if (!met && !e->observed) {
        free(r->message);
        /* A launch is logged when it ends: a kernel that never ends is never
         * seen, though it ran. */
        r->message = timed_out ? xstrdup("could not be checked: no run finished a kernel of yours (the program "
                                         "ran out of time; fix the loop that never ends first)")
                               : xstrdup("could not be checked: no kernel of yours was seen (it did not build, "
                                         "or no run launched one)");
    }
    r->status = met ? ST_PASS : ST_REQUIREMENT_FAILED;
    r->points = met ? q->points : 0;
}

/* no_hazards: the checkers' findings on every dataset they looked at (the
 * sanitizer stage, grade.c), whatever that dataset's verdict: one finding
 * of any kind fails it, and the message names each kind found once, with
 * its lines. Nothing checked to the end fails it too: a submission cannot
 * escape the checkers by making them fail; and so does a submission with
 * no dataset right, whose code is hazard-free only because it does not yet
 * compute anything (a skeleton). */
static void judge_no_hazards(const requirement_spec *q, const submission_result *s, requirement_result *r)
{
    r->name = q->name;
    r->max_points = q->points;
    strbuf sb;
    sb_init(&sb);
    int nkinds = 0, checked = 0, passed = 0;
    char kinds[SAN_MAX_FINDINGS][24];
    const char *problem = NULL;
    for (int i = 0; i < s->ndatasets; i++) {
        const struct sanitize_result_s *z = s->datasets[i].sanitizer;
        passed += s->datasets[i].status == ST_PASS;
        if (!z)
            continue;
        checked += z->ran;
        if (!z->ran && z->problem && !problem)
            problem = z->problem;
        for (int f = 0; f < z->nfindings; f++) {
            int seen = 0;
            for (int k = 0; k < nkinds; k++)
                seen = seen || strcmp(kinds[k], z->findings[f].kind) == 0;
            if (seen || nkinds == SAN_MAX_FINDINGS)
                continue;
            snprintf(kinds[nkinds++], sizeof kinds[0], "%s", z->findings[f].kind);
            char *part = xasprintf("%s%s (on %s)", nkinds > 1 ? "; " : "", z->findings[f].message,
                                   s->datasets[i].name);
            sb_append(&sb, part, strlen(part));
            free(part);
        }
    }
    char *found = sb_detach(&sb);
    int met = nkinds == 0 && checked > 0 && passed > 0;
    if (nkinds > 0)
        r->message = xasprintf("the checkers found %d kind%s of hazard: %s", nkinds, nkinds > 1 ? "s" : "", found);
    else if (checked > 0 && passed == 0)
        r->message = xstrdup("not earned: the checkers found nothing, but no dataset passed; these points are "
                             "for a kernel that computes the result without hazards");
    else if (!met)
        r->message = xasprintf("could not be checked: %s", problem ? problem
                                                                    : "no dataset ran to its end, so the checkers "
                                                                      "had nothing to run");
    else
        r->message = xasprintf("the checkers (races, out-of-bounds accesses, barriers, unset memory) found "
                               "nothing on %d dataset%s", checked, checked > 1 ? "s" : "");
    free(found);
    r->consequential = nkinds == 0 && checked > 0 && passed == 0;
    r->status = met ? ST_PASS : ST_REQUIREMENT_FAILED;
    r->points = met ? q->points : 0;
}

int requirement_shown(const kernel_evidence *e, requirement_kind k)
{
    /* on a GPU the PTX's numbers, on the emulator the source's counts */
    switch (k) {
    case REQ_SHARED_MEMORY:
        return e->shared_bytes > 0 || e->static_shared > 0;
    case REQ_BARRIER:
        return e->barriers > 0 || e->static_barriers > 0;
    case REQ_CONSTANT_MEMORY:
        return e->constant_seen_in_ptx || e->constant_bytes > 0 ||
               (e->static_constants > 0 && e->static_symbol_copies > 0);
    default:
        return 0;
    }
}

void requirements_judge(const lab_manifest *m, const kernel_evidence *e, submission_result *s)
{
    int timed_out = 0;
    for (int i = 0; i < s->ndatasets; i++)
        timed_out = timed_out || s->datasets[i].status == ST_TIMEOUT;
    s->nrequirements = 0;
    s->requirements = xcalloc((size_t)m->nrequirements + 1, sizeof *s->requirements);
    for (int i = 0; i < m->nrequirements; i++) {
        /* Without the checkers (--no-sanitize), no_hazards is neither
         * earned nor lost: it is not checked; so is global_reuse, counted
         * in the checkers' runs, and where compute-sanitizer was the
         * checker, which counts nothing. Its points stay in the maximum,
         * unearned: the score never looks like full marks for what was not
         * looked at. */
        requirement_kind kind = m->requirements[i].kind;
        if (((kind == REQ_NO_HAZARDS || kind == REQ_GLOBAL_REUSE) && s->checkers_skipped) ||
            (kind == REQ_GLOBAL_REUSE && strcmp(s->checkers, "compute-sanitizer") == 0)) {
            requirement_result *r = &s->requirements[s->nrequirements++];
            r->name = m->requirements[i].name;
            r->max_points = m->requirements[i].points;
            r->status = ST_NOT_CHECKED;
            r->message = xstrdup(s->checkers_skipped ? "needs the checkers, which --no-sanitize skipped"
                                                     : "compute-sanitizer, the checkers that ran, counts no reads");
            s->max_score += r->max_points;
            continue;
        }
        requirement_result *r = &s->requirements[s->nrequirements++];
        if (!s->built) {
            r->name = m->requirements[i].name;
            r->max_points = m->requirements[i].points;
            r->status = ST_COMPILE_ERROR;
            r->message = xstrdup("not checked: the file did not build");
        } else {
            if (kind == REQ_NO_HAZARDS)
                judge_no_hazards(&m->requirements[i], s, r);
            else if (kind == REQ_GLOBAL_REUSE)
                counts_judge(&m->requirements[i], s, e->static_known ? e->static_shared : -1,
                             e->static_known        ? e->static_shared_accumulations
                             : s->source_facts_known ? s->source_shared_accumulations
                                                     : -1,
                             r);
            else
                judge_one(&m->requirements[i], e, s, timed_out, r);
        }
        s->score += r->points;
        s->max_score += r->max_points;
    }
}

char *requirements_unchecked(const submission_result *s, double *points)
{
    *points = 0;
    int n = 0;
    strbuf names;
    sb_init(&names);
    for (int i = 0; i < s->nrequirements; i++) {
        const requirement_result *r = &s->requirements[i];
        if (r->status != ST_NOT_CHECKED)
            continue;
        *points += r->max_points;
        sb_printf(&names, "%s[%s]", n++ ? " and " : "", r->name);
    }
    if (n == 0) {
        sb_free(&names);
        return NULL;
    }
    const char *need = n > 1 ? "need" : "needs";
    char *text;
    if (s->checkers_skipped)
        text = xasprintf("%g point%s not checked: %s %s the checkers; run without --no-sanitize", *points,
                         *points == 1 ? "" : "s", names.buf, need);
    else
        text = xasprintf("%g point%s not checked: %s %s the emulator's checkers (compute-sanitizer counts no "
                         "reads)%s", *points, *points == 1 ? "" : "s", names.buf, need,
                         s->checkers_fallback ? "" : "; run without --checkers compute-sanitizer");
    sb_free(&names);
    return text;
}
