/*
 * sanitize.c - see sanitize.h.
 */
#define _GNU_SOURCE
#include "sanitize.h"
#include "build.h"
#include "compare.h"
#include "counts.h"
#include "diagnose.h"
#include "guards.h"
#include "launches.h"
#include "json.h"
#include "process.h"
#include "requirements.h"
#include "run.h"
#include "sandbox.h"
#include "source.h"
#include "util.h"

#include <cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define SAN_CAPTURE (256 * 1024)

/* memcheck prints one record (with a host backtrace, about 1 KiB) per
 * faulting thread: enough of them for a fault map of a lab's small datasets,
 * and room to capture them */
#define MEMCHECK_PRINT_LIMIT "10000"
#define MEMCHECK_CAPTURE (16 * 1024 * 1024)

/* The fault map's data is final: sorted, without duplicates, extents set,
 * and its sentence written (again, if more threads came in). */
static void faults_finish(sanitize_result *r)
{
    if (r->faults.n == 0)
        return;
    fault_threads_finish(&r->faults);
    free(r->fault_summary);
    r->fault_summary = diagnose_faults(&r->faults);
}






/* "at KERNEL(args)+0x90 in FILE:LINE" -> kernel, file, line */
static int parse_at(const char *s, char *kernel, size_t klen, char *file, size_t flen, int *line)
{
    const char *at = strstr(s, "at ");
    const char *in = strstr(s, " in ");
    if (!at || !in)
        return -1;
    at += 3;
    size_t k = strcspn(at, "(+");
    snprintf(kernel, klen, "%.*s", (int)k, at);
    in += 4;
    const char *colon = strrchr(in, ':');
    if (!colon)
        return -1;
    snprintf(file, flen, "%.*s", (int)(colon - in), in);
    *line = atoi(colon + 1);
    return 0;
}

static int already(const sanitize_result *r, const char *kind, const char *file, int line, int line2)
{
    if (r->student_file[0])
        file = r->student_file; /* as add() stores it */
    for (int i = 0; i < r->nfindings; i++)
        if (strcmp(r->findings[i].kind, kind) == 0 && strcmp(r->findings[i].file, file) == 0 &&
            r->findings[i].line == line && r->findings[i].line2 == line2)
            return 1;
    return 0;
}

static void add(sanitize_result *r, const char *kind, const char *file, int line, int line2, char *message)
{
    if (r->nfindings == SAN_MAX_FINDINGS || already(r, kind, file, line, line2)) {
        free(message);
        return;
    }
    finding *f = &r->findings[r->nfindings++];
    snprintf(f->kind, sizeof f->kind, "%s", kind);
    /* The checkers may name the grader's temporary copy of the file; every
     * kernel is the student's, so a finding names the student's own path. */
    snprintf(f->file, sizeof f->file, "%s", r->student_file[0] ? r->student_file : file);
    f->line = line;
    f->line2 = line2;
    f->message = message;
}

/* A tile's load placed after the reads of it in the same pass: the read
 * at line lr comes before the store at line lw into the same __shared__
 * array (`ds_N[ty][tx] = N[...]` below the sum that reads ds_N), after a
 * barrier the other loads come before. The reads see the tile the pass
 * before loaded (nothing, in the first), and the store races with them: the
 * load is misplaced, not a barrier missing. NULL where the source does not
 * show it. */
static char *load_after_use_message(const char *student, int lr, int lw, const char *kernel)
{
    char tile[64];
    if (lw <= lr || source_stored_array(student, lw, tile, sizeof tile) <= 0 ||
        !source_line_has_word(student, lr, tile) || source_stored_array(student, lr, (char[64]){ 0 }, 64) > 0)
        return NULL;
    /* the barrier before the read, within a few lines, with no store into
     * the tile between it and the read */
    int barrier = 0;
    for (int n = lr - 1; n > 0 && n >= lr - 12 && !barrier; n--) {
        char stored[64];
        if (source_stored_array(student, n, stored, sizeof stored) > 0 && !strcmp(stored, tile))
            return NULL;
        if (source_line_has_word(student, n, "__syncthreads"))
            barrier = n;
    }
    if (!barrier)
        return NULL;
    char *qw = sanitize_quote(student, lw), *qb = sanitize_quote(student, barrier);
    if (source_stored_value_reads_array(student, lw) == 0) {
        /* no load: a value of the thread's own (`= 0.0f`) written over a
         * slot the other threads of the block may still be reading */
        char *m = xasprintf("the store into %s at %s in %s comes after the read of %s at line %d, in the same pass, "
                            "with no __syncthreads() between: another thread of the block may still be reading the "
                            "slot it changes (a race), and reads the stored value in place of the tile's; a store "
                            "into the tile must wait until every thread is done with it (after the pass's last "
                            "__syncthreads()), and one the next load overwrites can go",
                            tile, qw, kernel, tile, lr);
        free(qw);
        free(qb);
        return m;
    }
    char *m = xasprintf("the load into %s at %s in %s comes after the read of %s at line %d, in the same pass: the "
                        "read sees the tile the pass before loaded (nothing, in the first pass), and the load "
                        "races with it; move the load up before the __syncthreads() at %s, with the other loads",
                        tile, qw, kernel, tile, lr, qb);
    free(qw);
    free(qb);
    return m;
}

/* The lines of one report block (compute-sanitizer separates them with an
 * empty "=========" line), without the prefix. */
typedef struct {
    char *lines[16];
    int n;
} block;

static char *loop_race_message(const char *student, int lw, int lr, const char *qw, const char *qr,
                               const char *kernel);
static char *barrier_place_words(const char *student, int lw, int lr);
static char *weak_barrier_words(const char *student, int lw, int lr);

static void parse_block(const block *b, const char *student, sanitize_result *r)
{
    if (b->n == 0)
        return;
    const char *head = b->lines[0];
    char kernel[128] = "", file[256] = "", where[160] = "";
    int line = 0;
    unsigned blk[3], thr[3];
    int have_thread = 0;
    for (int i = 1; i < b->n; i++) {
        int bx, by, bz, tx, ty, tz;
        if (sscanf(b->lines[i], " by thread (%d,%d,%d) in block (%d,%d,%d)", &tx, &ty, &tz, &bx, &by, &bz) == 6) {
            snprintf(where, sizeof where, " (first seen in block (%d,%d,%d), thread (%d,%d,%d))", bx, by,
                     bz, tx, ty, tz);
            have_thread = bx >= 0 && by >= 0 && bz >= 0 && tx >= 0 && ty >= 0 && tz >= 0;
            blk[0] = (unsigned)bx, blk[1] = (unsigned)by, blk[2] = (unsigned)bz;
            thr[0] = (unsigned)tx, thr[1] = (unsigned)ty, thr[2] = (unsigned)tz;
        }
    }
    char access[16] = "", space[16] = "";
    int size = 0;
    if (sscanf(head, "Invalid __%15[a-z]__ %15s of size %d", space, access, &size) == 3) {
        if (b->n < 2 || parse_at(b->lines[1], kernel, sizeof kernel, file, sizeof file, &line))
            return;
        /* memcheck prints one record per faulting thread: each goes on the
         * fault map (of the first kernel that faulted: the launch that ended
         * the run) */
        if (have_thread && (r->faults.n == 0 || strcmp(r->faults.kernel, kernel) == 0)) {
            snprintf(r->faults.kernel, sizeof r->faults.kernel, "%s", kernel);
            if (fault_threads_add(&r->faults, blk, thr) != 0)
                r->faults.incomplete = 1;
        }
        long after = -1, before = -1, alloc = 0;
        int misaligned = 0;
        for (int i = 2; i < b->n; i++) {
            const char *s = b->lines[i];
            const char *p;
            if ((p = strstr(s, "bytes after the nearest allocation")) != NULL) {
                sscanf(strstr(s, "is ") ? strstr(s, "is ") : s, "is %ld", &after);
                const char *sz = strstr(p, "of size ");
                if (sz)
                    alloc = strtol(sz + 8, NULL, 10);
            } else if ((p = strstr(s, "bytes before the nearest allocation")) != NULL) {
                sscanf(strstr(s, "is ") ? strstr(s, "is ") : s, "is %ld", &before);
                const char *sz = strstr(p, "of size ");
                if (sz)
                    alloc = strtol(sz + 8, NULL, 10);
            } else if (strstr(s, "misaligned")) {
                misaligned = 1;
            }
        }
        /* thousands of records may name the same line: quote it once */
        if (r->nfindings == SAN_MAX_FINDINGS || already(r, misaligned ? "misaligned" : "out-of-bounds", file, line, 0))
            return;
        char *q = sanitize_quote(student, line);
        const char *what = strcmp(access, "write") == 0 ? "write" : "read";
        char *msg;
        if (misaligned)
            msg = xasprintf("the %s at %s in %s is misaligned%s", what, q, kernel, where);
        else if (strcmp(space, "shared") == 0)
            msg = xasprintf("the %s at %s in %s is outside its shared-memory array%s: check the tile "
                            "indices", what, q, kernel, where);
        else if (after >= 0 && alloc > 0 && size > 0)
            msg = xasprintf("the %s at %s in %s goes past the end of an array: element %ld of a "
                            "%ld-element array%s", what, q, kernel, (alloc + after - 1) / size, alloc / size, where);
        else if (before >= 0)
            msg = xasprintf("the %s at %s in %s lands %ld bytes before the start of an array%s: look "
                            "for a negative index", what, q, kernel, before, where);
        else
            msg = xasprintf("the %s at %s in %s is outside every array%s", what, q, kernel, where);
        free(q);
        add(r, misaligned ? "misaligned" : "out-of-bounds", file, line, 0, msg);
        return;
    }
    if (strstr(head, "Race reported between")) {
        char kind1[16] = "", kind2[16] = "", k2[128], file2[256];
        int line2 = 0;
        const char *between = strstr(head, "between ");
        if (!between || sscanf(between, "between %15s", kind1) != 1 ||
            parse_at(strstr(head, " access at ") + 8, kernel, sizeof kernel, file, sizeof file, &line))
            return;
        if (b->n < 2 || sscanf(b->lines[1], " and %15s", kind2) != 1)
            return;
        const char *at2 = strstr(b->lines[1], " access at ");
        if (!at2 || parse_at(at2 + 8, k2, sizeof k2, file2, sizeof file2, &line2))
            return;
        const char *hz = strchr(b->lines[1], '[');
        long hazards = hz ? strtol(hz + 1, NULL, 10) : 0;
        for (char *c = kind1; *c; c++)
            *c = (char)(*c | 0x20);
        for (char *c = kind2; *c; c++)
            *c = (char)(*c | 0x20);
        int l1 = line < line2 ? line : line2, l2 = line < line2 ? line2 : line;
        const char *a1 = line <= line2 ? kind1 : kind2, *a2 = line <= line2 ? kind2 : kind1;
        char *q1 = sanitize_quote(student, l1), *q2 = sanitize_quote(student, l2);
        char *loop = strcmp(a1, "write") == 0 && strcmp(a2, "read") == 0
                         ? loop_race_message(student, l1, l2, q1, q2, kernel)
                         : NULL;
        char *place = !loop && strcmp(a1, "write") == 0 && strcmp(a2, "read") == 0 ? barrier_place_words(student, l1, l2)
                                                                                : xstrdup("");
        char *weak = !loop && strcmp(a1, "write") == 0 && strcmp(a2, "read") == 0 ? weak_barrier_words(student, l1, l2)
                                                                               : xstrdup("");
        if (weak[0]) /* a barrier of the wrong kind at that place is the place itself */
            place[0] = '\0';
        char *msg = loop ? xasprintf("%s (%ld hazards)", loop, hazards)
                         : xasprintf("%sthe %s of shared memory at %s and the %s at %s race in %s: no "
                                     "__syncthreads() separates them, so some threads can get there before "
                                     "others are done%s (%ld hazards)", weak, a1, q1, a2, q2, kernel, place, hazards);
        free(weak);
        free(place);
        free(loop);
        free(q1);
        free(q2);
        add(r, "race", file, l1, l2, msg);
        return;
    }
    if (strstr(head, "Barrier error detected")) {
        if (b->n < 2 || parse_at(b->lines[1], kernel, sizeof kernel, file, sizeof file, &line))
            return;
        char *q = sanitize_quote(student, line);
        char *msg = xasprintf("the __syncthreads() at %s in %s is not reached by every thread of the "
                              "block%s: a barrier inside a condition that some threads skip hangs or "
                              "breaks the block", q, kernel, where);
        free(q);
        add(r, "barrier", file, line, 0, msg);
        return;
    }
    if (strstr(head, "Uninitialized __global__ memory read")) {
        if (b->n < 2 || parse_at(b->lines[1], kernel, sizeof kernel, file, sizeof file, &line))
            return;
        char *q = sanitize_quote(student, line);
        add(r, "uninitialised", file, line, 0,
            xasprintf("the read at %s in %s reads device memory nothing wrote%s", q, kernel, where));
        free(q);
    }
}

void sanitize_parse_compute_sanitizer(const char *text, const char *student, sanitize_result *r)
{
    if (student)
        snprintf(r->student_file, sizeof r->student_file, "%s", student);
    size_t faults_before = r->faults.n;
    block b = { { 0 }, 0 };
    const char *prefix = "========= ";
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n >= 9 && strncmp(p, "=========", 9) == 0) {
            const char *body = p + 9;
            size_t blen = n - 9;
            if (blen > 0 && *body == ' ') {
                body++;
                blen--;
            }
            int blank = blen == 0;
            int starts = strncmp(body, "Invalid __", 10) == 0 || strstr(body, "Race reported") == body ||
                         strncmp(body, "Error: Race", 11) == 0 || strncmp(body, "Warning: Race", 13) == 0 ||
                         strncmp(body, "Barrier error", 13) == 0 ||
                         strncmp(body, "Uninitialized __", 16) == 0;
            if (blank || starts) {
                parse_block(&b, student, r);
                for (int i = 0; i < b.n; i++)
                    free(b.lines[i]);
                b.n = 0;
            }
            if (starts || (!blank && b.n > 0 && b.n < 16))
                b.lines[b.n++] = xasprintf("%.*s", (int)blen, body);
        }
        (void)prefix;
        p = end ? end + 1 : p + n;
    }
    parse_block(&b, student, r);
    for (int i = 0; i < b.n; i++)
        free(b.lines[i]);
    /* "ERROR SUMMARY: 31 errors were not printed" under the records of
     * faulting threads: the fault map misses some */
    if (r->faults.n > faults_before && strstr(text, "errors were not printed"))
        r->faults.incomplete = 1;
    faults_finish(r);
}

/* A race's words. In shared memory the threads are one block's, and a
 * __syncthreads() between the two accesses is the fix. In global memory they
 * can be of different blocks, which no barrier orders: two stores to one
 * element (a thread of the halo ring writing its neighbour block's output,
 * say) need a guard so that one thread writes it; a read of what another
 * thread writes needs the two kept apart (inputs are only read). */
/* Where the missing barrier between a write of shared memory at line lw
 * and a read at a later line lr goes ("; put one after line 49 ..."), or
 * "" where the source does not show a place both are outside of. */
static char *barrier_place_words(const char *student, int lw, int lr)
{
    int before = 0, after = student ? source_barrier_place(student, lw, lr, &before) : 0;
    if (after <= 0)
        return xstrdup("");
    int stray = source_barrier_before_write(student, lw, lr);
    char *move = stray > 0 ? xasprintf(": the __syncthreads() at line %d, before the store, orders nothing between "
                                       "them; move it there",
                                       stray)
                           : xstrdup("");
    char *w = xasprintf("; put one after line %d, where the statement that stores the tile ends, before line %d, "
                        "where every thread of the block reaches it%s",
                        after, before, move);
    free(move);
    return w;
}

/* A cudaMemcpy2D refused for a width more than a pitch ("width W bytes
 * is more than a pitch (dpitch D, spitch S)"), where the width and one
 * pitch exchanged fit (each the other's value, the width then within both
 * pitches): the two arguments, by their place and text, given in each
 * other's places. The advice (malloc'd), or NULL. */
static char *copy2d_pitch_exchanged(const char *student, int line, const char *msg)
{
    size_t w = 0, dp = 0, sp = 0;
    const char *m = strstr(msg, "width ");
    if (!student || !m || sscanf(m, "width %zu bytes is more than a pitch (dpitch %zu, spitch %zu)", &w, &dp, &sp) != 3)
        return NULL;
    /* the source pitch (argument 3) or the destination's (1): the one
     * whose value as the width fits within both pitches */
    int k = w > sp && sp <= dp ? 3 : w > dp && dp <= sp ? 1 : -1;
    size_t pitch = k == 3 ? sp : dp;
    char p[128], wd[128];
    /* and the width written as a pitch (`in->pitch * sizeof(float)`),
     * where too large a width of its own kind (a row counted twice) is a
     * count, not an exchange */
    if (k < 0 || !source_call_argument(student, line, "cudaMemcpy2D", k, p, sizeof p) ||
        !source_call_argument(student, line, "cudaMemcpy2D", 4, wd, sizeof wd) || !strstr(wd, "pitch") ||
        strstr(p, "pitch"))
        return NULL;
    return xasprintf("; its %s pitch, `%s` (%zu bytes), and its width, `%s` (%zu), are in each other's places: "
                     "the arguments go (dst, dpitch, src, spitch, width, height, kind), a row's bytes as the width "
                     "and the distance between rows as the pitch, never less than the width; exchange the two",
                     k == 3 ? "source" : "destination", p, pitch, wd, w);
}

/* A barrier of less than the block (`__syncwarp()`, a fence) where the
 * missing __syncthreads() between a write of shared memory at line lw and
 * a read at lr belongs: the barrier the student chose, of the wrong kind,
 * said first ("the __syncwarp() at line 67 ...: make it __syncthreads();
 * "); "" where none stands there. */
static char *weak_barrier_words(const char *student, int lw, int lr)
{
    int before = 0, after = student ? source_barrier_place(student, lw, lr, &before) : 0;
    char weak[32];
    int line = after > 0 ? source_weak_barrier_between(student, after + 1, before - 1, weak, sizeof weak)
               : student ? source_weak_barrier_between(student, lw + 1, lr - 1, weak, sizeof weak)
                         : 0;
    if (line <= 0)
        return xstrdup("");
    return xasprintf("the %s at line %d, between the tile's stores and its reads, %s: make it __syncthreads(); ",
                     weak, line,
                     strncmp(weak, "__syncwarp", 10) == 0
                         ? "waits only for the threads of one warp (32), and the block has several"
                         : "orders memory but waits for no thread");
}

/* The store at line `store` into global memory races with itself, and the
 * if around it bounds one value made of two names by a product (`Row * l +
 * Col < j * l`): a thread whose column is past its row's end passes it and
 * stores into the next row's element. Its words, or NULL. */
static char *flattened_store_test(const char *student, int store, const char *kernel, const char *who)
{
    char test[256], left[128], right[128];
    int in_else = 0, line = source_test_around(student, store, test, sizeof test, &in_else);
    if (line <= 0 || in_else || strstr(test, "&&") || strstr(test, "||") ||
        source_compared_sides(student, line, 0, "<", left, right, sizeof left) != 0 || !strchr(right, '*') ||
        !strpbrk(left, "+*"))
        return NULL;
    char *q = sanitize_quote(student, line);
    char *w = xasprintf("the test at %s bounds one value made of both indices, `%s`, by the whole output's count, "
                        "`%s`: it keeps that value inside, not each index, so a thread whose column is past its "
                        "row's end passes it and stores into the next row's element, which that row's own thread "
                        "stores too (the race check saw the store at line %d race with itself in %s%s); test each "
                        "index against its own bound",
                        q, left, right, store, kernel, who);
    free(q);
    return w;
}

static char *race_message(const char *x1, const char *space, const char *q1, const char *x2, const char *q2,
                          const char *kernel, const char *who, const char *place)
{
    if (strcmp(space, "shared memory") == 0)
        return xasprintf("the %s of %s at %s and the %s at %s race in %s: no __syncthreads() separates them, "
                         "so some threads can get there before others are done%s",
                         x1, space, q1, x2, q2, kernel, place);
    if (strcmp(x1, "write") == 0 && strcmp(x2, "write") == 0 && strcmp(q1, q2) == 0)
        return xasprintf("the write of global memory at %s races with itself in %s: two threads store "
                         "to the same element%s, and nothing orders them (a __syncthreads() orders only the "
                         "threads of one block, never two blocks): each output element must be written by one "
                         "thread alone, so look first at the test before the store (which threads store at "
                         "all), then at the output index",
                         q1, kernel, who);
    if (strcmp(x1, "write") == 0 && strcmp(x2, "write") == 0)
        return xasprintf("the write of global memory at %s and the write at %s race in %s: two threads store "
                         "to the same element%s, and nothing orders them (a __syncthreads() orders only the "
                         "threads of one block, never two blocks): each output element must be written by one "
                         "thread alone, so look first at the test before the store (which threads store at "
                         "all), then at the output index",
                         q1, q2, kernel, who);
    return xasprintf("the %s of global memory at %s and the %s at %s race in %s: one thread reads an element "
                     "that another writes during the same launch%s, and nothing orders them (a __syncthreads() "
                     "orders only the threads of one block, never two blocks): read only the inputs, and "
                     "write each output element from one thread",
                     x1, q1, x2, q2, kernel, who);
}

/* A race between two stores of a tile (lines l1 and l2) where one of them
 * stores at [r][c] with r the remainder and c the quotient of one flat
 * index by one width (source_split_swapped): that store walks the tile
 * column by column and lands on slots the other store covers, while slots
 * past its columns stay empty. NULL when neither does. */
static char *split_race_message(const char *student, int l1, int l2, const char *kernel)
{
    char row[64], col[64], rw[64], cw[64];
    int rl = 0, cl = 0, at = l1, right = 0;
    /* the row and the column of one flat index split by two widths: the
     * one the tile's declared row length is not */
    for (int i = 0; i < 2; i++) {
        int line = i ? l2 : l1;
        if (line <= 0 || (i && l2 == l1) ||
            !source_split_widths_differ(student, line, row, col, rw, cw, sizeof row, &rl, &cl, &right))
            continue;
        int wrong = right == 1 ? cl : right == 2 ? rl : 0;
        char *qw = wrong ? sanitize_quote(student, wrong) : NULL, *qr = sanitize_quote(student, rl),
             *qc = sanitize_quote(student, cl);
        char *s = wrong ? xasprintf("%s %s the flat index by %s, where %s %s it by %s, the tile's row length as "
                                    "declared: a flat index's row and column come from one width, so the store at line "
                                    "%d puts two threads' elements in one slot (the race check saw the two race in %s) "
                                    "and leaves others never stored: write %s there",
                                    qw, right == 1 ? "takes the remainder of" : "divides", right == 1 ? cw : rw,
                                    right == 1 ? qr : qc, right == 1 ? "divides" : "takes the remainder of",
                                    right == 1 ? rw : cw, line, kernel, right == 1 ? rw : cw)
                        : xasprintf("%s divides the flat index by %s and %s takes its remainder by %s: a flat "
                                    "index's row and column come from one width, the tile's row length, so the store "
                                    "at line %d puts two threads' elements in one slot (the race check saw the two "
                                    "race in %s): use the same width in both",
                                    qr, rw, qc, cw, line, kernel);
        free(qw);
        free(qr);
        free(qc);
        return s;
    }
    if (!source_split_swapped(student, l1, row, col, sizeof row, &rl, &cl)) {
        at = l2;
        if (l2 <= 0 || !source_split_swapped(student, l2, row, col, sizeof row, &rl, &cl))
            return NULL;
    }
    char *qr = sanitize_quote(student, rl), *qc = sanitize_quote(student, cl);
    char *s = xasprintf("%s and %s split the flat index the wrong way round: %s takes the remainder and %s the "
                        "quotient, so the store at line %d walks the tile column by column, onto slots the store "
                        "at line %d also covers (the race check saw the two race in %s), and leaves others "
                        "never stored: the row is the quotient and the column the remainder",
                        qr, qc, row, col, at, at == l1 ? l2 : l1, kernel);
    free(qr);
    free(qc);
    return s;
}

/* The flat index the store at line `store` reads, followed back from its
 * subscripts' first name to the assignment that reads the thread's place
 * (`dest = threadIdx.y * TILE_WIDTH + threadIdx.x`): its line, its name
 * into name; 0 where the source shows none. */
static int store_flat_index(const char *student, int store, char *name, size_t n)
{
    char names[160];
    int lines[8], origin[4];
    char chain[4][48];
    if (source_store_index_made(student, store, names, sizeof names, lines, 8) <= 0)
        return 0;
    names[strcspn(names, ", ")] = '\0';
    int k = source_value_origins(student, store, names, origin, chain, 4);
    if (k <= 0)
        return 0;
    snprintf(name, n, "%s", chain[k - 1]);
    return origin[k - 1];
}

/* Two stores of one tile, a batch each, whose flat indices are made at
 * two lines and differ by one amount for every thread, so that one
 * thread's second element is the other's first (t1 and t2, the race
 * check's pair): the later batch starts inside the earlier one, and its
 * offset is the mistake. The values from the source (source_eval.c), for
 * the two threads and thread (0,0,0); NULL where they do not show it. */
static char *batch_offset_message(const char *student, const char *header, int l1, int l2, const char *t1,
                                  const char *t2, const char *stores, const char *kernel, const char *array)
{
    long a[3], b[3], zero[3] = { 0, 0, 0 };
    char n1[48], n2[48];
    if (!t1 || !t2 || l1 == l2 || sscanf(t1, "(%ld,%ld,%ld)", &a[0], &a[1], &a[2]) != 3 ||
        sscanf(t2, "(%ld,%ld,%ld)", &b[0], &b[1], &b[2]) != 3)
        return NULL;
    int f1 = store_flat_index(student, l1, n1, sizeof n1), f2 = store_flat_index(student, l2, n2, sizeof n2);
    if (f1 <= 0 || f2 <= 0 || f1 == f2)
        return NULL;
    if (f1 > f2) { /* the earlier batch is the one made first */
        int t = f1;
        f1 = f2;
        f2 = t;
        char keep[48];
        snprintf(keep, sizeof keep, "%s", n1);
        snprintf(n1, sizeof n1, "%s", n2);
        snprintf(n2, sizeof n2, "%s", keep);
    }
    long fa, fb, fz, sa, sb, sz;
    if (source_assignment_at(student, header, f1, n1, zero, a, &fa) || source_assignment_at(student, header, f1, n1, zero, b, &fb) ||
        source_assignment_at(student, header, f1, n1, zero, zero, &fz) ||
        source_assignment_at(student, header, f2, n2, zero, a, &sa) || source_assignment_at(student, header, f2, n2, zero, b, &sb) ||
        source_assignment_at(student, header, f2, n2, zero, zero, &sz))
        return NULL;
    long c = sz - fz;
    if (c == 0 || sa - fa != c || sb - fb != c || (fa != sb && fb != sa))
        return NULL;
    /* the thread whose second element is the other's first */
    const char *second = fa == sb ? t2 : t1, *first = fa == sb ? t1 : t2;
    long slot = fa == sb ? fa : fb;
    char *q1 = sanitize_quote(student, f1), *q2 = sanitize_quote(student, f2);
    if (fz != 0) {
        /* The tile's first slot is thread (0,0,0)'s first element: a first
         * batch that starts elsewhere is the one that is off, whatever the
         * second batch's offset from it (`dest = ... + 1`). */
        char *m = xasprintf("%s makes %s %ld for thread (0,0,0), where the tile's first slot, 0, belongs: the first "
                            "batch starts %ld %s into the tile, so thread %s's second element (%ld) is thread %s's "
                            "first: %s in %s, two threads store to the same slot of %s, and slot 0 is stored by no "
                            "one; start the first batch at the thread's own place in the block (0 for thread "
                            "(0,0,0)), the second one block of threads after it",
                            q1, n1, fz, fz > 0 ? fz : -fz, (fz == 1 || fz == -1) ? "slot" : "slots", second, slot,
                            first, stores, kernel, array);
        free(q1);
        free(q2);
        return m;
    }
    char *other = strcmp(n1, n2) == 0 ? xstrdup("does") : xasprintf("makes %s", n1);
    char *m = xasprintf("%s makes %s %ld %s than %s %s, for every thread, so the second batch starts inside "
                        "the first: thread %s's second element (%ld) is thread %s's first: %s in %s, two threads "
                        "store to the same slot of %s, and the slots past the second batch's last are stored by no "
                        "one; start the second batch one past the first batch's last element, as many elements on "
                        "as the block has threads",
                        q2, n2, c > 0 ? c : -c, c > 0 ? "more" : "less", q1, other, second, slot, first, stores,
                        kernel, array);
    free(other);
    free(q1);
    free(q2);
    return m;
}

/* Stores into a shared array that race because a thread's column (its last
 * subscript) reaches past the row its declaration gives (`ds_M[TILE_WIDTH
 * - 1][TILE_WIDTH - 1]` stored at `[ty][tx]`, tx = 15): that slot is the
 * next row's first, another thread's; the declaration is the mistake. The
 * values from the source (source_eval.c) for the race check's two
 * threads; NULL where they do not show it. */
static char *narrow_tile_message(const char *student, const char *header, int l1, int l2, const char *t1,
                                 const char *t2, const char *stores, const char *kernel, const char *array)
{
    long t[2][3];
    char name[64];
    int size_line = 0;
    if (!t1 || !t2 || sscanf(t1, "(%ld,%ld,%ld)", &t[0][0], &t[0][1], &t[0][2]) != 3 ||
        sscanf(t2, "(%ld,%ld,%ld)", &t[1][0], &t[1][1], &t[1][2]) != 3)
        return NULL;
    int decl = source_shared_array_at(student, l1, name, sizeof name, &size_line);
    if (decl <= 0 || strcmp(name, array) != 0)
        return NULL;
    const int lines[2] = { l1, l2 };
    for (int w = 0; w < 2; w++)
        for (int at = 0; at < 2; at++) {
            long sub[2], dims[2];
            int rank = source_store_subscripts(student, header, lines[at], decl, t[w], sub, dims);
            if (rank != 2 || sub[1] < dims[1] || sub[0] >= dims[0])
                continue;
            char *qd = sanitize_quote(student, decl);
            char *m = xasprintf("%s's rows are %ld long (declared at %s), but the store at line %d gives thread %s "
                                "column %ld, past its row's end: that slot is the next row's first, which thread %s stores too: "
                                "%s in %s, two threads store to the same slot of %s, and some slot is stored by no "
                                "one; declare %s as wide as its column subscript reaches for every thread of the "
                                "block (more than %ld columns: thread %s's alone is %ld)",
                                array, dims[1], qd, lines[at], w ? t2 : t1, sub[1], w ? t1 : t2, stores, kernel,
                                array, array, sub[1], w ? t2 : t1, sub[1]);
            free(qd);
            return m;
        }
    return NULL;
}

/* Stores into one shared array, at lines l1 and l2 (the same line: a store
 * racing with itself), that race: two threads stored to the same slot. A barrier between two stores of one
 * tile orders nothing the tile needs; their indices collide (and so some
 * slot is stored by no one): the lines that make those indices. NULL
 * where the two stores are into different arrays, or the source shows no
 * index made on another line. */
static char *colliding_stores_message(const char *student, const char *header, int l1, int l2, const char *q1,
                                      const char *q2, const char *kernel, const char *t1, const char *t2)
{
    char a1[64], a2[64], names[160];
    int lines[8];
    if (!source_stored_array(student, l1, a1, sizeof a1) || !source_stored_array(student, l2, a2, sizeof a2) ||
        strcmp(a1, a2) != 0)
        return NULL;
    /* two stores of one tile, one with the thread's x in the row subscript
     * (`ds_N[tx][ty]` beside `ds_N[ty][tx]`): that one is the mistake */
    char tile[64], fixed[256];
    for (int w = 0; w < 2 && l1 != l2; w++) {
        int at = w ? l2 : l1;
        if (source_tile_store_axes_exchanged(student, at, tile, sizeof tile, fixed, sizeof fixed) > 0 &&
            !strcmp(tile, a1)) {
            char *qa = sanitize_quote(student, at);
            char *m = xasprintf("the stores into %s at %s and at %s race in %s: %s has the thread's x in the tile's "
                                "row subscript and its y in the column one, where a tile's rows go with y (as the "
                                "other store has them), so the two put different threads in one slot: write `%s`",
                                a1, q1, q2, kernel, qa, fixed);
            free(qa);
            return m;
        }
    }
    int n = source_store_index_made(student, l1, names, sizeof names, lines, 8);
    if (n <= 0)
        return NULL;
    strbuf where = { 0 };
    for (int i = 0; i < n; i++) {
        int seen = 0;
        for (int j = 0; j < i; j++)
            seen |= lines[j] == lines[i];
        if (!seen)
            sb_printf(&where, "%s%d", where.len ? ", " : "", lines[i]);
    }
    char *stores = l1 == l2 ? xasprintf("the store into %s at %s races with itself", a1, q1)
                            : xasprintf("the stores into %s at %s and at %s race", a1, q1, q2);
    /* the two threads the race check saw store to one slot, and the one
     * coordinate they differ in, where only one (the index drops it, or
     * wraps it round: `threadIdx.x % 12`) */
    unsigned a[3], b[3];
    char *pair = xstrdup("");
    if (t1 && t2 && sscanf(t1, "(%u,%u,%u)", &a[0], &a[1], &a[2]) == 3 &&
        sscanf(t2, "(%u,%u,%u)", &b[0], &b[1], &b[2]) == 3) {
        int differ = (a[0] != b[0]) + (a[1] != b[1]) + (a[2] != b[2]);
        char axis = a[0] != b[0] ? 'x' : a[1] != b[1] ? 'y' : 'z';
        free(pair);
        pair = differ == 1 ? xasprintf(" (threads %s and %s of one block stored to one slot: they differ only in "
                                       "threadIdx.%c, and the index gives both the same slot)",
                                       t1, t2, axis)
                           : xasprintf(" (threads %s and %s of one block stored to one slot)", t1, t2);
    }
    /* the one coordinate they differ in, dropped where the index is made:
     * an assignment in its chain without it, whose twin has it */
    char dropped[64] = "", made[160] = "", twin[160] = "";
    int twin_line = 0, drop_line = 0;
    if (t1 && t2 && sscanf(t1, "(%u,%u,%u)", &a[0], &a[1], &a[2]) == 3 &&
        sscanf(t2, "(%u,%u,%u)", &b[0], &b[1], &b[2]) == 3 && (a[0] != b[0]) + (a[1] != b[1]) + (a[2] != b[2]) == 1)
        drop_line = source_index_drops_coordinate(student, l1, a[0] != b[0] ? 1u : a[1] != b[1] ? 2u : 4u, dropped,
                                                  sizeof dropped, made, sizeof made, &twin_line, twin, sizeof twin);
    int at = l2;
    char *m, *stale = drop_line > 0 ? NULL : source_store_index_stale(student, l2);
    if (!stale && drop_line <= 0 && l1 != l2)
        stale = source_store_index_stale(student, at = l1);
    if (stale) {
        /* an index name not made again for this store (the second batch's
         * destX left as the first batch's): the slot the earlier value picked */
        char *qa = sanitize_quote(student, at);
        m = xasprintf("the store at %s %s: %s in %s, two threads store to the same slot of %s%s, and some slot is "
                      "stored by no one; set it again from the new value right after the line that sets that "
                      "value again (not just before the store: every line between uses it too)",
                      qa, stale, stores, kernel, a1, pair);
        free(qa);
        free(stale);
    } else if (drop_line > 0) {
        char *qd = sanitize_quote(student, drop_line);
        char axis = a[0] != b[0] ? 'x' : a[1] != b[1] ? 'y' : 'z';
        m = xasprintf("%s sets %s to `%s`, which does not vary with threadIdx.%c, where line %d sets it to `%s`, "
                      "which does: %s in %s, two threads store to the same slot of %s%s, and some slot is stored "
                      "by no one; give %s its threadIdx.%c term as line %d does",
                      qd, dropped, made, axis, twin_line, twin, stores, kernel, a1, pair, dropped, axis, twin_line);
        free(qd);
    } else if ((m = batch_offset_message(student, header, l1, l2, t1, t2, stores, kernel, a1)) != NULL) {
        /* said: the later batch's offset */
    } else if ((m = narrow_tile_message(student, header, l1, l2, t1, t2, stores, kernel, a1)) != NULL) {
        /* said: the declaration's row length */
    } else
        m = xasprintf("%s in %s: two threads store to the same slot of %s%s, which no __syncthreads() between "
                      "stores of one tile mends: their indices collide (and so some slot is stored by no one); "
                      "look at how %s %s made (line%s %s)",
                      stores, kernel, a1, pair, names, strchr(names, ',') ? "are" : "is",
                      strchr(where.buf ? where.buf : "", ',') ? "s" : "", where.buf ? where.buf : "");
    free(pair);
    free(stores);
    free(where.buf);
    return m;
}

/* A read in a pitched buffer's padding under a test that bounds one of
 * its index's names by an expression of the row stride the index
 * multiplies by (`col_i < in.pitch / in.channels`): the padded row's
 * length, which lets the columns past the image's width through. NULL
 * where the test shows no such clause. */
static char *padded_bound_words(const char *student, int access, const char *buffer, const char *q,
                                const char *kernel)
{
    char header[256], stride[128], left[128], right[128];
    int in_else = 0, test = source_test_around(student, access, header, sizeof header, &in_else);
    if (test <= 0 || in_else || source_stride_set_at(student, access, stride, sizeof stride) <= 0)
        return NULL;
    for (int k = 0; k < 8; k++) {
        if (source_compared_sides(student, test, k, "<", left, right, sizeof left) != 0 ||
            !source_line_has_word(student, access, left) || !strstr(right, stride))
            continue;
        char *qt = sanitize_quote(student, test);
        char *w = xasprintf("the test at %s bounds %s by `%s`, which counts each row's padding too (%s is the "
                            "distance from one row to the next), not the image's own width: the columns past the "
                            "width pass it, and %s reads %s at %s in the padding, where no copy stores; bound %s by "
                            "the width",
                            qt, left, right, stride, kernel, buffer, q, left);
        free(qt);
        return w;
    }
    return NULL;
}

/* A read in a pitched buffer's padding whose index's row stride is a
 * member the host sets (`d_in_img.pitch = in->pitch;`) from no name of the
 * pitch the buffer's cudaMallocPitch at line made gave (`&in_pitch_bytes`):
 * the stride is another buffer's (the host image's), not this one's. NULL
 * where the file does not show that. */
static char *stride_not_the_pitch_words(const char *student, int access, int made, const char *buffer)
{
    char stride[128], pitch[64];
    int set = source_stride_set_at(student, access, stride, sizeof stride);
    if (set <= 0 || !source_pitch_of_allocation(student, made, pitch, sizeof pitch))
        return NULL;
    if (source_line_has_word(student, set, pitch)) {
        /* the pitch, divided by something other than an element's size
         * (`in_pitch_bytes / in->channels`) */
        char divisor[64];
        if (!source_divided_not_by_size(student, set, pitch, divisor, sizeof divisor))
            return NULL;
        char *qs = sanitize_quote(student, set);
        char *w = xasprintf("%s, the row stride the read at line %d steps by, is set at %s from %s divided by `%s`: "
                            "the pitch counts bytes, and the stride counts elements, so divide it by an element's "
                            "size (`%s / sizeof(float)`)",
                            stride, access, qs, pitch, divisor, pitch);
        free(qs);
        return w;
    }
    char *qs = sanitize_quote(student, set);
    char *w = xasprintf("%s, the row stride the read at line %d steps by, is set at %s from another value than "
                        "%s, the pitch the cudaMallocPitch at line %d gave %s: its rows are that far apart, in "
                        "bytes; set it from %s (in elements: %s / sizeof(float))",
                        stride, access, qs, pitch, made, buffer, pitch, pitch);
    free(qs);
    return w;
}

/* A race in shared memory between a write at line lw and a read at a later
 * line lr of one loop's body with a __syncthreads() between them in the
 * source: that barrier orders one iteration's write before its reads, and
 * the race is between iterations (the next one's write, by a thread that
 * got there first, against this one's reads by slower threads): a barrier
 * is missing at the end of the loop, not between the two lines. Unless
 * that barrier is under an if: then the race is where the test is false.
 * NULL when the source does not show either shape. */
static char *loop_race_message(const char *student, int lw, int lr, const char *qw, const char *qr,
                               const char *kernel)
{
    /* the barrier between them is under an if: where its test is false
     * nothing stands between the write and the read, in one iteration or
     * with no loop at all (and a barrier that only some threads of a block
     * reach is undefined) */
    char test[160];
    int test_line = 0, guarded = source_conditional_barrier(student, lw, lr, test, sizeof test, &test_line);
    if (guarded > 0) {
        char *qt = sanitize_quote(student, test_line);
        char *m = xasprintf("the write of shared memory at %s and the read at %s race in %s: the __syncthreads() "
                            "between them, at line %d, is under the test at %s, and where that test is false no "
                            "barrier keeps the reads after the writes: call __syncthreads() for every thread, "
                            "outside the if",
                            qw, qr, kernel, guarded, qt);
        free(qt);
        return m;
    }
    /* no barrier between them, and one right after the read: it was meant
     * between the stores and the reads */
    int late = source_barrier_after_read(student, lw, lr);
    if (late > 0)
        return xasprintf("the write of shared memory at %s and the read at %s race in %s: no __syncthreads() stands "
                         "between them, and the one at line %d comes after the read, where it keeps nothing: "
                         BARRIER_AFTER_READ_ADVICE,
                         qw, qr, kernel, late);
    int loop = 0, barrier = 0;
    if (!source_loop_carried(student, lw, lr, &loop, &barrier))
        return NULL;
    char name[64];
    if (!source_stored_array(student, lw, name, sizeof name))
        snprintf(name, sizeof name, "the tile");
    char *ql = sanitize_quote(student, loop);
    /* a barrier written right after the loop: the one meant for its end;
     * or a barrier of one warp (or a fence) at the loop's end, where the
     * block's belongs */
    char weak[32];
    int after = source_barrier_after_loop(student, loop), warp = source_warp_sync_after(student, lr, loop, weak,
                                                                                      sizeof weak);
    int twin_of = 0, twin = after > 0 || warp > 0 ? 0 : source_barrier_after_barrier(student, loop, &twin_of);
    /* the barrier that is there, in the wrong place or of the wrong
     * kind, is what to mend: said first */
    char *moved = after > 0 ? xasprintf("the __syncthreads() at line %d, after the loop, orders nothing between its "
                                        "iterations: move it to the loop's end; ", after)
                  : warp > 0 ? xasprintf("the %s at line %d %s: make it __syncthreads(); ", weak, warp,
                                         strncmp(weak, "__syncwarp", 10) == 0
                                             ? "waits only for the threads of one warp, and a block has several"
                                             : "orders memory but waits for no thread")
                  : twin > 0 ? xasprintf("the __syncthreads() at line %d stands right after the one at line %d, "
                                         "where it orders nothing the other does not: move it to the loop's end; ",
                                         twin, twin_of)
                             : xstrdup("");
    int close = source_loop_close_line(student, loop);
    char *brace = close > lr ? xasprintf(", before the loop's closing brace at line %d", close) : xstrdup("");
    char *m = xasprintf("%sthe write of shared memory at %s and the read at %s race between iterations of the loop "
                        "at %s in %s: the next iteration's loads (line %d) can overwrite %s while slower threads "
                        "still read it at line %d; the __syncthreads() at line %d only keeps this iteration's "
                        "reads after its loads: %s a __syncthreads() at the end of the loop, after the reads at "
                        "line %d%s",
                        moved, qw, qr, ql, kernel, lw, name, lr, barrier, moved[0] ? "there belongs" : "add",
                        lr, brace);
    free(brace);
    free(moved);
    free(ql);
    return m;
}

/* What to do about threads that returned before a barrier, said the same
 * whether or not the emulator knew the return's line. */
static const char early_return_advice[] =
    "a return before a barrier (say, for threads past the edge of the output) breaks the block: keep every "
    "thread through the barriers and test the bounds only around the loads and the final store";

/* Whether the quote q of a line reads the array the store at store_line
 * stores into (array: its name, `data` of `out.data`), as the store names
 * it: with its object where it is a member (`out.data[`, not `in.data[`).
 * That name, with its object, into whole (n bytes). */
static int reads_the_store(const char *student, int store_line, const char *array, const char *q, char *whole,
                           size_t n)
{
    char *qs = sanitize_quote(student, store_line);
    const char *at = strstr(qs, array);
    size_t on = 0;
    while (at && at > qs + 1 && at[-1] == '.' && at - 2 - on >= qs &&
           source_is_identifier_char(at[-2 - (long)on]))
        on++;
    if (on > 0)
        snprintf(whole, n, "%.*s.%s", (int)on, at - 1 - on, array);
    else
        snprintf(whole, n, "%s", array);
    free(qs);
    char key[160];
    snprintf(key, sizeof key, "%s[", whole);
    /* the key as a word: not the tail of a longer name */
    for (const char *p = strstr(q, key); p; p = strstr(p + 1, key))
        if (p == q || !source_is_identifier_char(p[-1]))
            return 1;
    return 0;
}

/* Whether the quoted line reads name's element as a factor of a product
 * (`* P[...]`, `P[...] *`; not `*=`). */
static int read_as_factor(const char *q, const char *name)
{
    char key[160];
    snprintf(key, sizeof key, "%s[", name);
    for (const char *p = strstr(q, key); p; p = strstr(p + 1, key)) {
        if (p > q && source_is_identifier_char(p[-1]))
            continue;
        const char *b = p;
        while (b > q && b[-1] == ' ')
            b--;
        if (b > q && b[-1] == '*' && !(b - 1 > q && (b[-2] == '*' || b[-2] == '/')))
            return 1;
        int depth = 0;
        const char *e = p + strlen(name);
        for (; *e; e++) {
            depth += *e == '[';
            depth -= *e == ']';
            if (depth == 0 && *e == ']' && e[1] != '[')
                break;
        }
        if (!*e)
            continue;
        for (e++; *e == ' '; e++)
            ;
        if (*e == '*' && e[1] != '=')
            return 1;
    }
    return 0;
}

/* The buffer a cudaMalloc line allocates, as the student named it (`&d_P`
 * in `cudaMalloc((void **)&d_P, bytes)`), into name; "" when the line is
 * not the student's or shows no such name. */
static void malloc_name(const char *student, const char *file, int line, char *name, size_t len)
{
    name[0] = '\0';
    if (!student || !file[0] || line <= 0 || strcmp(path_base(file), path_base(student)) != 0)
        return;
    char *q = sanitize_quote(student, line);
    const char *call = strstr(q, "cudaMalloc");
    const char *amp = call ? strchr(call, '&') : NULL;
    if (amp) {
        size_t n = 0;
        while (source_is_identifier_char(amp[1 + n]))
            n++;
        if (n)
            snprintf(name, len, "%.*s", (int)n, amp + 1);
    }
    free(q);
}

/* "d_P (the buffer of the cudaMalloc at line 45 (`...`))", or without a
 * name "the buffer of the cudaMalloc at ...", for a sentence (malloc'd). */
static char *buffer_words(const char *student, const char *msg)
{
    char file[256] = "", name[64];
    int line = location_after(msg, "(made at ", file, sizeof file, NULL);
    if (line <= 0)
        return xstrdup("a device buffer");
    malloc_name(student, file, line, name, sizeof name);
    char *q = sanitize_quote_at(student, file, line);
    char *w = name[0] ? xasprintf("%s (the buffer of the cudaMalloc at %s)", name, q)
                      : xasprintf("the buffer of the cudaMalloc at %s", q);
    free(q);
    return w;
}

/* The line of an emulator's line, quoted: a kernel's is the student's
 * (the checkers compile a copy of the file under the lab's name), a host
 * call's only when it is in the student's file. */
static char *diag_quote(const char *student, const emu_diag *d)
{
    return d->kernel[0] && student ? sanitize_quote(student, d->line) : sanitize_quote_at(student, d->file, d->line);
}

static const char unset_advice[] =
    "cudaMalloc does not zero memory, so on a GPU it holds whatever was there (often 0, so the output can "
    "match by luck) and on the emulator NaN: store every element before anything reads it (a copy in, a "
    "cudaMemset to 0, or a first `=` before any `+=`)";

/* Whether a quoted line stores into an array with `+=` (or -=, *=, /=):
 * it reads what it adds to. */
static int quotes_compound_store(const char *q)
{
    /* an atomic read-modify-write adds into what is there too */
    return strstr(q, "] +=") || strstr(q, "] -=") || strstr(q, "] *=") || strstr(q, "] /=") ||
           strstr(q, "atomicAdd(&") || strstr(q, "atomicSub(&") || strstr(q, "atomicMax(&") ||
           strstr(q, "atomicMin(&") || strstr(q, "atomicExch(&");
}

/* The emulator's "unset" line (unset.c): a kernel's read, or a copy, of
 * device memory nothing stored. */
static void add_unset(sanitize_result *r, const char *student, const emu_diag *d)
{
    char made_file[256] = "";
    int made = location_after(d->message, "(made at ", made_file, sizeof made_file, NULL);
    char *buffer = buffer_words(student, d->message);
    char *q = diag_quote(student, d);
    char *msg;
    char plain[256];
    /* a buffer the student did not allocate (the harness's output) is
     * named by the array the kernel's line reads and stores (`P[...] +=`) */
    char array[64];
    if (d->kernel[0] && strncmp(buffer, "the buffer of", 13) == 0 && student && d->line > 0 &&
        quotes_compound_store(q) && source_stored_array(student, d->line, array, sizeof array)) {
        char *named = xasprintf("%s, %s,", array, buffer);
        free(buffer);
        buffer = named;
    }
    /* a copy out of a buffer that a launch after it computes: the order
     * of the two is the mistake, not the memory's state */
    char name[64] = "", sfile[256] = "";
    const char *pad = NULL, *instead = NULL;
    int later = 0, store = 0;
    if (!d->kernel[0] && made > 0 && student && strcmp(path_base(d->file), path_base(student)) == 0) {
        malloc_name(student, made_file, made, name, sizeof name);
        later = name[0] ? source_launch_after(student, d->line, name) : 0;
    }
    /* a kernel's input no call of the file ever fills: the copy in is
     * missing, not the memory's first value (a kernel's own store, a
     * second launch that computes it, or a `+=` into an output is another
     * story: those are left to the general advice) */
    int beside = 0, first = 0, late_fill = 0, late_launch = 0, out_store = 0;
    char out_array[64] = "", out_name[160] = "";
    if (d->kernel[0] && made > 0 && student && strcmp(path_base(made_file), path_base(student)) == 0 &&
        !quotes_compound_store(q)) {
        malloc_name(student, made_file, made, name, sizeof name);
        int fill = name[0] ? source_fill_of(student, name, &beside) : 0;
        first = name[0] && fill == 0 ? source_launch_after(student, 0, name) : 0;
        if (first > 0 && source_launch_after(student, first, name) > 0)
            first = 0;
        /* ... or filled only after the first launch that reads it */
        late_launch = fill > 0 ? source_launch_after(student, 0, name) : 0;
        late_fill = late_launch > 0 && late_launch < fill ? fill : 0;
    }
    if (late_fill > 0) {
        char *qf = sanitize_quote(student, late_fill), *ql = sanitize_quote(student, late_launch);
        msg = xasprintf("the copy at %s, the first call that stores into %s, comes after the launch at %s, which "
                        "reads %s at %s: the kernel reads memory that does not hold your data yet (on a GPU "
                        "whatever was there, on the emulator NaN); move that copy before the launch",
                        qf, buffer, ql, name, q);
        free(qf);
        free(ql);
    } else if (d->kernel[0] && student && !quotes_compound_store(q) &&
               (out_store = source_output_store_line(student)) > 0 && out_store != d->line &&
               source_stored_array(student, out_store, out_array, sizeof out_array) &&
               source_line_has_word(student, d->line, out_array) &&
               reads_the_store(student, out_store, out_array, q, out_name, sizeof out_name)) {
        /* the kernel reads the very array it computes, which no call
         * filled: its output, read as if it held a starting value, or
         * multiplied where a product wants an input (`M[...] * P[...]`) */
        char unused[64], twin_name[64];
        int declared = source_kernel_input_unused(student, d->line, strchr(out_name, '.') ? out_name : out_array,
                                                  unused, sizeof unused);
        int twin = declared > 0 ? 0 : source_twin_with_other_name(student, d->line, out_name, twin_name,
                                                                   sizeof twin_name);
        if (twin > 0) {
            /* ... where a line written the same way reads an input there
             * (the second batch's load from P, the first's from I) */
            char *qt = sanitize_quote(student, twin);
            msg = xasprintf("%s at %s reads %s, the output it stores at line %d, where %s, written the same way, "
                            "reads %s: write %s there (nothing stored %s before the kernel: on a GPU it holds "
                            "whatever was there, on the emulator NaN)",
                            d->kernel, q, out_name, out_store, qt, twin_name, twin_name, out_name);
            free(qt);
        } else if (declared > 0)
            /* ... where an input the kernel never reads belongs (`ds_M[ty][tx]
             * = P[...]` in a kernel that reads M nowhere) */
            msg = xasprintf("%s at %s reads %s, the output it stores at line %d, where an input belongs: the kernel "
                            "never reads %s, its input (line %d), anywhere: write %s there (nothing stored %s "
                            "before the kernel: on a GPU it holds whatever was there, on the emulator NaN)",
                            d->kernel, q, out_name, out_store, unused, declared, unused, out_name);
        else if (read_as_factor(q, out_name))
            msg = xasprintf("%s at %s multiplies by %s, the output it stores at line %d, where the product wants an "
                            "input: nothing stored %s before the kernel (on a GPU it holds whatever was there, on the "
                            "emulator NaN); read the input that belongs there",
                            d->kernel, q, out_name, out_store, out_name);
        else
        msg = xasprintf("%s at %s reads %s, the output it stores at line %d, which nothing stored before the "
                        "kernel (on a GPU it holds whatever was there, on the emulator NaN): the kernel's output "
                        "holds no value to start from; start from 0 (a sum's first value) instead of reading it",
                        d->kernel, q, out_name, out_store);
    } else if (first > 0) {
        char *where = beside > 0 ? xasprintf("beside the copy at line %d, ", beside) : xstrdup("");
        msg = xasprintf("no call of the file ever stores into %s: no cudaMemcpy (or cudaMemset) has it as its "
                        "destination, so %s reads at %s memory that never held your data (on a GPU whatever was "
                        "there, on the emulator NaN): copy the input into %s with cudaMemcpy(%s, ..., "
                        "cudaMemcpyHostToDevice) %sbefore the launch at line %d",
                        buffer, d->kernel, q, name, name, where, first);
        free(where);
    } else if (d->kernel[0] && (pad = strstr(d->message, " (in the padding of row ")) != NULL) {
        /* the pitched buffer's padding, which no copy stores: a row
         * stride other than the pitch reached it */
        size_t row = 0, pitch = 0, row_bytes = 0;
        sscanf(pad, " (in the padding of row %zu: its rows are %zu bytes apart, %zu bytes", &row, &pitch, &row_bytes);
        char *padded = student ? guards_base_stepped_words(student, d->line) : NULL;
        if (!padded && student)
            padded = padded_bound_words(student, d->line, buffer, q, d->kernel);
        if (!padded && student && made > 0 && strcmp(path_base(made_file), path_base(student)) == 0)
            padded = stride_not_the_pitch_words(student, d->line, made, buffer);
        if (padded)
            msg = padded;
        else
        msg = xasprintf("%s is read at %s in %s in the padding after its row %zu, which no copy stores: its rows are "
                        "%zu bytes apart (the pitch), %zu bytes of them pixels, so an index that steps from row to "
                        "row by the pixels' width (or any stride but the pitch) lands there: step the rows by the "
                        "pitch, in elements",
                        buffer, q, d->kernel, row, pitch, row_bytes);
    } else if (d->kernel[0] && student && quotes_compound_store(q) &&
               ((out_store = source_output_store_line(student)) == d->line || out_store == 0) &&
               source_store_as_assignment(student, d->line, plain, sizeof plain)) {
        /* the kernel's output store adds its value into the output,
         * which nothing set: each thread computes its element whole (no
         * plain store in the kernel at all: the atomic is its output's) */
        msg = xasprintf("%s is read at %s in %s before anything stored it: that store adds its value into the output "
                        "instead of storing it, and cudaMalloc does not zero memory (on a GPU whatever was there, "
                        "often 0, so the output can match by luck; on the emulator NaN); each thread computes its "
                        "element whole, so store it: write `%s`",
                        buffer, q, d->kernel, plain);
    } else if (d->kernel[0])
        msg = xasprintf("%s is read at %s in %s before anything stored it: %s", buffer, q, d->kernel, unset_advice);
    else if (later > 0) {
        char *ql = sanitize_quote(student, later);
        msg = xasprintf("the %.*s at %s copies bytes of %s that nothing stored yet: the launch at %s, which "
                        "computes %s, comes after it, so the copy takes %s before the kernel wrote it; make the "
                        "copy after the launch",
                        (int)strcspn(d->message, " "), d->message, q, buffer, ql, name, name);
        free(ql);
    } else if ((instead = strstr(d->message, "; a kernel stored into another buffer instead, at ")) != NULL &&
               (store = location_after(instead, " instead, at ", sfile, sizeof sfile, NULL)) > 0 && student &&
               strcmp(path_base(sfile), path_base(student)) == 0) {
        /* the kernel's stores went into a buffer a copy filled, an input:
         * the store is the mistake, the copy back where it showed */
        char *other = buffer_words(student, strstr(instead, ", the ") ? strstr(instead, ", the ") : instead);
        char ffile[256] = "";
        int filled = location_after(instead, "that the copy at ", ffile, sizeof ffile, NULL);
        char *qs = sanitize_quote(student, store);
        char *qfl = filled > 0 ? sanitize_quote_at(student, ffile, filled) : NULL;
        char *qf = qfl ? xasprintf("the copy at %s", qfl) : xstrdup("a copy");
        free(qfl);
        msg = xasprintf("the store at %s writes into %s, which %s filled with an input, and nothing stores into %s, "
                        "which the %.*s at %s copies back: the kernel's result goes into the output's buffer, not "
                        "an input's",
                        qs, other, qf, buffer, (int)strcspn(d->message, " "), d->message, q);
        free(qs);
        free(qf);
        free(other);
        add(r, "uninitialised", d->file, store, d->line, msg);
        free(q);
        free(buffer);
        return;
    } else
        msg = xasprintf("the %.*s at %s copies bytes of %s that nothing stored: %s", (int)strcspn(d->message, " "),
                        d->message, q, buffer, unset_advice);
    add(r, "uninitialised", d->file, d->line, made > 0 ? made : 0, msg);
    free(q);
    free(buffer);
}

/* Whether the __constant__ array of the emulator's unset line d is
 * declared double in the student's file, and the copies stored exactly
 * the bytes of as many floats as it has elements (stored of its size):
 * then *decl is its declaration quoted. */
static int declared_double(const char *student, const emu_diag *d, size_t stored, size_t size, char **decl)
{
    char dfile[256] = "";
    int line = location_after(d->message, "(declared at ", dfile, sizeof dfile, NULL);
    /* the run names the file as its build saw it, the declaration as the source names it: same base name */
    if (line <= 0 || strcmp(path_base(dfile), path_base(d->file)) != 0 || stored == 0 || stored * 2 != size ||
        !source_line_has_word(student, line, "double"))
        return 0;
    *decl = sanitize_quote(student, line);
    return 1;
}

/* The emulator's "unset" line for a __constant__ array (unset.c): a
 * kernel read bytes of it no cudaMemcpyToSymbol stored before the launch.
 * The run's "unset-late" line, when there is one, names the copy that came
 * only after that launch; none means nothing ever copies into it. On a GPU
 * the array holds zeros, so the kernel used a mask it was never given on
 * both: the finding is the cause either way. */
/* The bytes of the lab's convolution mask, MASK_WIDTH x MASK_WIDTH floats
 * by the lab's header (lab.h's `#define MASK_WIDTH 5`); 0 where the
 * header defines no MASK_WIDTH (the matmul labs). */
static long lab_mask_bytes(const char *header)
{
    char names[64][48];
    long values[64];
    int lines[64];
    int n = header ? source_number_defines(header, names, values, lines, 64) : 0;
    for (int i = 0; i < n; i++)
        if (strcmp(names[i], "MASK_WIDTH") == 0 && values[i] > 0)
            return values[i] * values[i] * (long)sizeof(float);
    return 0;
}

static void add_unset_constant(sanitize_result *r, const char *student, const emu_diag *d, const char *text)
{
    const char *arr = strstr(d->message, "__constant__ array ");
    char name[64] = "", lfile[256] = "";
    if (!arr || sscanf(arr + strlen("__constant__ array "), "%63[A-Za-z0-9_]", name) != 1)
        return;
    int launch = location_after(d->message, "before the launch at ", lfile, sizeof lfile, NULL);
    size_t stored = 0, size = 0;
    const char *part = strstr(d->message, "stored ");
    int partial = part && sscanf(part, "stored %zu of its %zu bytes", &stored, &size) == 2;
    /* the copy after the launch: "unset-late FILE:LINE: cudaMemcpyToSymbol stores NAME (declared at ..." */
    int late = 0;
    char *stores = xasprintf(": cudaMemcpyToSymbol stores %s (declared at ", name);
    for (const char *p = text ? strstr(text, "gpulab-emu: unset-late ") : NULL; p && !late;
         p = strstr(p + 1, "gpulab-emu: unset-late ")) {
        const char *end = strchr(p, '\n');
        const char *hit = strstr(p, stores);
        if (!hit || (end && hit > end))
            continue;
        char *one = xasprintf("%.*s", (int)(end ? end - p : (long)strlen(p)), p + strlen("gpulab-emu: "));
        emu_diag ld;
        if (emu_diag_parse(one, &ld) == 0)
            late = ld.line;
        free(one);
    }
    free(stores);
    char *q = diag_quote(student, d);
    char *by = launch > 0 ? xasprintf(" by the launch at line %d", launch) : xstrdup("");
    char *msg, *decl = NULL, size_arg[96];
    int copy_line = 0, out = 0;
    if (late > 0) {
        char *ql = sanitize_quote(student, late);
        msg = xasprintf("%s is read at %s in %s%s before anything stored it: the cudaMemcpyToSymbol at %s comes "
                        "after the launch, so the kernel read %s before it held any value of yours (zeros on a GPU); "
                        "make that copy before the launch",
                        name, q, d->kernel, by, ql, name);
        free(ql);
    } else if (partial && stored == sizeof(void *) && size > stored &&
               (copy_line = source_symbol_copy_line(student, name, size_arg, sizeof size_arg)) > 0 &&
               strstr(size_arg, "sizeof")) {
        /* 8 bytes: a sizeof of a pointer, which counts the pointer, not
         * what it points at */
        char *qc = sanitize_quote(student, copy_line);
        msg = xasprintf("the cudaMemcpyToSymbol at %s copies %s = %zu bytes into %s, the size of a pointer, not of "
                        "the data it points at: %s is %zu bytes, and the kernel reads the rest at %s in %s%s, where "
                        "nothing was stored (zeros on a GPU); copy sizeof %s bytes",
                        qc, size_arg, stored, name, name, size, q, d->kernel, by, name);
        free(qc);
    } else if (partial && stored > 0 && (size == 4 * stored || size == 8 * stored) &&
               (copy_line = source_symbol_copy_line(student, name, size_arg, sizeof size_arg)) > 0 &&
               !strstr(size_arg, "sizeof")) {
        /* the copy stored exactly one byte per element: its size counts
         * the elements, where cudaMemcpyToSymbol takes bytes */
        char *qc = sanitize_quote(student, copy_line);
        msg = xasprintf("the cudaMemcpyToSymbol at %s copies `%s` = %zu bytes into %s, which is its count of "
                        "elements, not of bytes (%s holds %zu bytes, %zu to an element): its size is in bytes, so "
                        "only the first %zu elements' worth arrived, and the kernel reads the rest at %s in %s%s, "
                        "where nothing was stored (zeros on a GPU); multiply the size by %s",
                        qc, size_arg, stored, name, name, size, size / stored, stored / (size / stored), q,
                        d->kernel, by, size == 4 * stored ? "sizeof(float)" : "sizeof(double)");
        free(qc); /* the finding's line: the copy's (copy_line) */
    } else if (partial && declared_double(student, d, stored, size, &decl))
        /* a double array given floats: the copy counted the host's 4-byte
         * elements, the kernel reads 8-byte ones made of two of them */
        msg = xasprintf("%s is declared double at %s, 8 bytes an element, but the cudaMemcpyToSymbol calls before "
                        "the launch stored %zu of its %zu bytes, 4 bytes an element: the data copied in are floats, "
                        "so the kernel reads two floats' bytes as one double at %s in %s%s, and the second half of "
                        "%s holds no value of yours; declare %s float",
                        name, decl, stored, size, q, d->kernel, by, name, name);
    else if (partial && (copy_line = source_symbol_copy_line(student, name, size_arg, sizeof size_arg)) > 0 &&
             location_after(d->message, "(declared at ", lfile, sizeof lfile, NULL) > 0) {
        /* the declaration and the copy disagree on the size: the
         * declaration is as likely the mistake (`Mc[5][6]` for a 5 x 5
         * mask) as the copy, and it is what the kernel indexes */
        int dl = location_after(d->message, "(declared at ", lfile, sizeof lfile, NULL);
        char *qd = sanitize_quote(student, dl);
        /* the lab's mask, MASK_WIDTH x MASK_WIDTH floats (its header),
         * tells which of the two is the mask's size */
        long mask = lab_mask_bytes(r->lab_header[0] ? r->lab_header : NULL);
        const char *advice = mask > 0 && (size_t)mask == size && stored < size
                                 ? "; the lab's mask is MASK_WIDTH x MASK_WIDTH floats, as many bytes as %s holds: "
                                   "copy all of them (`MASK_WIDTH * MASK_WIDTH * sizeof(float)`)"
                             : mask > 0 && (size_t)mask == stored
                                 ? "; the copy holds the lab's mask, MASK_WIDTH x MASK_WIDTH floats: declare %s "
                                   "with that shape (`[MASK_WIDTH][MASK_WIDTH]`)"
                                 : "; declare %s with the shape of what you copy, or copy as much as it holds";
        char *tail = xasprintf(advice, name);
        msg = xasprintf("%s is declared at %s with %zu bytes, but the cudaMemcpyToSymbol at line %d stores %zu "
                        "(`%s`): the kernel reads the rest at %s in %s%s, where nothing was stored (zeros on a GPU), "
                        "and its indexes run over the declared shape, not the data's%s",
                        name, qd, size, copy_line, stored, size_arg, q, d->kernel, by, tail);
        free(tail);
        free(qd);
        copy_line = 0;
        decl = xstrdup("");
    } else if (partial)
        msg = xasprintf("%s is read at %s in %s%s at bytes nothing stored: the cudaMemcpyToSymbol calls before the "
                        "launch stored %zu of its %zu bytes, and the rest hold no value of yours (zeros on a GPU); "
                        "copy all of %s (sizeof %s bytes) before the launch",
                        name, q, d->kernel, by, stored, size, name, name);
    else if ((out = source_symbol_copied_out(student, name)) > 0) {
        /* the copy is there, the other way round: it names the line */
        char *qo = sanitize_quote(student, out);
        msg = xasprintf("%s copies out of %s with cudaMemcpyFromSymbol, the other way round: nothing copies into "
                        "%s, so the kernel read it at %s in %s%s without it ever holding a value of yours (zeros on a "
                        "GPU); copy into it with cudaMemcpyToSymbol (the symbol first, then the host's values)",
                        qo, name, name, q, d->kernel, by);
        free(qo);
    } else {
        /* where it belongs: beside the last copy of the inputs to the
         * device before the launch (a call may end on the line after) */
        int beside = launch > 0 ? source_input_copy_before(student, launch) : 0;
        char *where = beside > 0 ? xasprintf(", beside the copy of the inputs at line %d", beside) : xstrdup("");
        msg = xasprintf("%s is read at %s in %s%s before anything stored it: no cudaMemcpyToSymbol copies into %s, "
                        "before the launch or after it, so the kernel read %s without it ever holding a value of "
                        "yours (zeros on a GPU); copy into %s with cudaMemcpyToSymbol before the launch%s",
                        name, q, d->kernel, by, name, name, name, where);
        free(where);
    }
    int decl_line = decl ? location_after(d->message, "(declared at ", lfile, sizeof lfile, NULL) : out > 0 ? out : copy_line;
    add(r, "uninitialised", d->file, decl_line > 0 ? decl_line : d->line,
        decl_line > 0 ? d->line : late > 0 ? late : launch > 0 ? launch : 0, msg);
    free(decl);
    free(by);
    free(q);
}

/* Whether text, a subscript on line of a kernel, is the thread's own
 * coordinate along one axis: threadIdx's member itself, or one name whose
 * value, computed from the source (source_eval.c), is 0 for thread
 * (0,0,0) and steps by one with the thread along one axis and not the
 * others (`int tx = threadIdx.x`). Its range is then the block's, and no
 * test keeps it smaller without leaving threads out: the axis (0 x, 1 y,
 * 2 z), or -1. */
static int thread_coordinate_axis(const char *student, const char *header, int line, const char *text)
{
    if (strncmp(text, "threadIdx.", 10) == 0 && text[10] >= 'x' && text[10] <= 'z' && text[11] == '\0')
        return text[10] - 'x';
    if (!student || !*text || isdigit((unsigned char)*text))
        return -1;
    for (const char *c = text; *c; c++)
        if (!source_is_identifier_char(*c))
            return -1;
    int lines[4];
    char names[4][48];
    if (source_value_origins(student, line, text, lines, names, 4) <= 0)
        return -1;
    long zero[3] = { 0, 0, 0 }, v0;
    if (source_assignment_at(student, header, lines[0], text, zero, zero, &v0) || v0 != 0)
        return -1;
    int axis = -1;
    for (int a = 0; a < 3; a++) {
        long t[3] = { 0, 0, 0 }, v;
        t[a] = 1;
        if (source_assignment_at(student, header, lines[0], text, zero, t, &v))
            return -1;
        if (v == 1 && axis < 0)
            axis = a;
        else if (v != 0)
            return -1;
    }
    return axis;
}

/* The emulator's "subscript" line (race.c): a subscript of a
 * multi-dimensional array outside its own dimension, with the values it
 * took. Such an access can land inside the array (another row's element),
 * where no bounds check sees it and the threads that share the slot
 * race: this finding goes before those races (subscripts_in_place). */
static void add_subscript(sanitize_result *r, const char *student, const emu_diag *d)
{
    static const char *const ordinal[] = { "first", "second", "third", "fourth" };
    int k = 0, rank = 0, declared = 0;
    char array[64] = "", text[256] = "";
    unsigned long long dim = 0;
    const char *takes = strstr(d->message, "`, takes "), *outside = strstr(d->message, ", outside its dimension of ");
    const char *decl = strstr(d->message, " declared at line ");
    if (sscanf(d->message, "subscript %d of %d of %63[A-Za-z0-9_], `%255[^`]`", &k, &rank, array, text) != 4 ||
        !takes || !outside || outside < takes || !decl || k < 1 || k > 4 ||
        sscanf(outside, ", outside its dimension of %llu", &dim) != 1 || dim == 0)
        return;
    declared = atoi(decl + strlen(" declared at line "));
    takes += strlen("`, takes ");
    char *q = diag_quote(student, d);
    char *qd = declared > 0 && student ? sanitize_quote(student, declared) : xasprintf("its declaration");
    const char *lands = k == 1 ? "past the end of the array (or before its start)"
                               : "in a neighbouring row of the array (or past its end), on another element's slot";
    int axis = thread_coordinate_axis(student, r->lab_header[0] ? r->lab_header : NULL, d->line, text);
    /* a name set on another line (`destX += ...` above the store): where
     * its values came from, said with them */
    int set_line = axis < 0 && student && source_is_identifier_text(text) ? source_last_set_before(student, d->line, text)
                                                                          : 0;
    char *set_at = NULL;
    if (set_line > 0) {
        char *qo = sanitize_quote(student, set_line);
        set_at = xasprintf(" (last set at %s)", qo);
        free(qo);
    }
    char *msg = axis >= 0 ? xasprintf(
                          "%s is declared at %s with %llu in its %s dimension (0 to %llu), but its %s subscript at %s "
                          "in %s, `%s`, is the thread's %c in its block and takes %.*s: each such access lands %s; "
                          "declare %s with room for every thread of the block along %c",
                          array, qd, dim, ordinal[k - 1], dim - 1, ordinal[k - 1], q, d->kernel, text, "xyz"[axis],
                          (int)(outside - takes), takes, lands, array, "xyz"[axis]) : xasprintf("the %s subscript of %s at %s in %s, `%s`%s, takes %.*s, but %s is declared at %s with %llu "
                          "there (0 to %llu): each such access lands %s; declare %s with room for every value of "
                          "`%s`, or keep it below %llu",
                          ordinal[k - 1], array, q, d->kernel, text, set_at ? set_at : "", (int)(outside - takes), takes, array, qd, dim,
                          dim - 1, lands, array, text, dim);
    free(set_at);
    add(r, "out-of-bounds", d->file, d->line, declared, msg);
    free(qd);
    free(q);
}

/* Whether f is add_subscript's. */
static int subscript_finding(const finding *f)
{
    static const char *const starts[] = { "the first subscript of ", "the second subscript of ",
                                          "the third subscript of ", "the fourth subscript of " };
    for (size_t k = 0; k < sizeof starts / sizeof *starts; k++)
        if (strcmp(f->kind, "out-of-bounds") == 0 && strncmp(f->message, starts[k], strlen(starts[k])) == 0)
            return 1;
    /* add_subscript's other form, led by the declaration */
    return strcmp(f->kind, "out-of-bounds") == 0 && strstr(f->message, " with room for every thread of the block along ");
}

/* After the run's lines, the subscript findings (printed first, when the
 * launch ends) go just before the first race they cause: a race of shared
 * memory told only as a missing __syncthreads() or as two threads storing
 * one slot (colliding_stores_message), at one of their lines (the rows
 * that overlap are stored and read by two threads). A finding
 * that explains more stays ahead of them (a bounds finding whose test let
 * the thread through at its bound, `i <= TILE_WIDTH`; a race of two stores
 * that split the flat index the wrong way round), and with no such race
 * they go after the run's other findings: the subscript left its dimension
 * for a cause another finding may name. */
/* Whether a bounds finding only says which test let the thread through
 * (`the test at line 54 (...) let this thread through (destY = 16, against
 * 20), so the access ...`): no reading of why, which another finding may
 * give. */
static int bare_guard(const char *message)
{
    const char *held = strstr(message, ") let this thread through"), *so = strstr(message, ", so the access at ");
    if (strncmp(message, "the test at line ", 17) != 0 || !held || !so || so < held)
        return 0;
    for (const char *p = held; p < so; p++)
        if (*p == ':' || *p == ';')
            return 0;
    return 1;
}

/* Whether a name the guard's test compares (its quoted text after "the
 * test at line N (`") stands in the subscript a subscript finding quotes
 * (`threadIdx.x + j` for `for (int j = 0; j < MASK_WIDTH; j++)`): the test
 * bounded that very subscript, and its verdict (the array too small)
 * holds. */
static int tested_in_subscript(const char *guard, const char *subscript)
{
    static const char *const keywords[] = { "for", "if", "while", "int", "unsigned", "long", NULL };
    const char *t = strstr(guard, " (`"), *te = t ? strstr(t + 3, "`)") : NULL;
    const char *u = strstr(subscript, ", `"), *ue = u ? strchr(u + 3, '`') : NULL;
    if (!te || !ue)
        return 1; /* not told: keep the verdict where it stood */
    char text[256];
    snprintf(text, sizeof text, "%.*s", (int)(ue - u - 3), u + 3);
    for (const char *p = t + 3; p < te; p++) {
        if (!source_is_identifier_char(*p) || (p > t + 3 && source_is_identifier_char(p[-1])) ||
            (*p >= '0' && *p <= '9'))
            continue;
        size_t n = 0;
        while (p + n < te && source_is_identifier_char(p[n]))
            n++;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(n < 63 ? n : 63), p);
        int keyword = 0;
        for (int k = 0; keywords[k]; k++)
            keyword |= !strcmp(name, keywords[k]);
        for (const char *q = text; !keyword && (q = strstr(q, name)) != NULL; q += n)
            if ((q == text || !source_is_identifier_char(q[-1])) && !source_is_identifier_char(q[n]))
                return 1;
        p += n - 1;
    }
    return 0;
}

static void subscripts_in_place(sanitize_result *r)
{
    finding subs[SAN_MAX_FINDINGS], rest[SAN_MAX_FINDINGS];
    int ns = 0, nr = 0;
    for (int i = 0; i < r->nfindings; i++) {
        if (subscript_finding(&r->findings[i]))
            subs[ns++] = r->findings[i];
        else
            rest[nr++] = r->findings[i];
    }
    if (!ns)
        return;
    int at = nr;
    for (int i = 0; i < nr && at == nr; i++) {
        if (strcmp(rest[i].kind, "race") != 0 || (!strstr(rest[i].message, "no __syncthreads() separates them") &&
                                                  !strstr(rest[i].message, "two threads store to the same slot of")))
            continue;
        for (int k = 0; k < ns; k++)
            if (strcmp(subs[k].file, rest[i].file) == 0 &&
                (subs[k].line == rest[i].line || subs[k].line == rest[i].line2))
                at = i;
    }
    /* a bounds finding at the same access that found its test right and
     * took the array for too small, or that only says which test let the
     * thread through: the test bounded one subscript, and another, outside
     * its own dimension, is what overflowed */
    for (int i = 0; i < at; i++)
        for (int k = 0; k < ns; k++)
            if (!strcmp(rest[i].kind, "out-of-bounds") && subs[k].line == rest[i].line &&
                !strcmp(subs[k].file, rest[i].file) &&
                ((strstr(rest[i].message, " is too small for what the access at ") &&
                  !tested_in_subscript(rest[i].message, subs[k].message)) ||
                 bare_guard(rest[i].message)))
                at = i;
    int n = 0;
    for (int i = 0; i < at; i++)
        r->findings[n++] = rest[i];
    for (int k = 0; k < ns; k++)
        r->findings[n++] = subs[k];
    for (int i = at; i < nr; i++)
        r->findings[n++] = rest[i];
}

/* A barrier that some threads of a block miss goes first: the block's
 * other barriers then order nothing, so the races the run saw around them
 * (a write and a read "between iterations", no __syncthreads() between
 * them) follow from it. */
static void barriers_first(sanitize_result *r)
{
    finding sorted[SAN_MAX_FINDINGS];
    int n = 0;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < r->nfindings; i++)
            if ((strcmp(r->findings[i].kind, "barrier") == 0) == (pass == 0))
                sorted[n++] = r->findings[i];
    memcpy(r->findings, sorted, sizeof(finding) * (size_t)n);
}

/* Adds line to *notes (lines, each once), unless it is there already. */
void sanitize_note_add(char **notes, const char *line)
{
    size_t n = strlen(line);
    for (const char *p = *notes; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, line, n) == 0)
            return;
        p = end ? end + 1 : p + len;
    }
    char *joined = xasprintf("%s%s\n", *notes ? *notes : "", line);
    free(*notes);
    *notes = joined;
}

/* The emulator's "leak" line (unset.c, at exit): device buffers no
 * cudaFree released, a note naming the buffer and its cudaMalloc line.
 * Only the student's own buffers: a lab's harness allocates the lab's
 * buffers itself, and frees them unless the run stopped early. */
static void add_leak(sanitize_result *r, const char *student, const emu_diag *d)
{
    char name[64] = "";
    char *note;
    if (d->line <= 0 || !student || strcmp(path_base(d->file), path_base(student)) != 0)
        return;
    malloc_name(student, d->file, d->line, name, sizeof name);
    char *q = sanitize_quote_at(student, d->file, d->line);
    note = name[0] ? xasprintf("%s (the buffer of the cudaMalloc at %s) is never freed: cudaFree each device "
                               "buffer once nothing uses it (no points depend on it)", name, q)
                   : xasprintf("the buffer of the cudaMalloc at %s is never freed: cudaFree each device buffer "
                               "once nothing uses it (no points depend on it)", q);
    free(q);
    sanitize_note_add(&r->notes, note);
    free(note);
}

/* A copy or a kernel given a buffer after its cudaFree (the emulator names
 * the cudaFree: "freed by the cudaFree at FILE:LINE", "that the cudaFree
 * at FILE:LINE freed"): the finding names both lines. Returns 0 when msg
 * names no cudaFree. */
static int add_use_after_free(sanitize_result *r, const char *student, const emu_diag *d, const char *what)
{
    char ffile[256] = "";
    int freed = location_after(d->message, "the cudaFree at ", ffile, sizeof ffile, NULL);
    if (freed <= 0 || !strstr(d->message, "use after cudaFree"))
        return 0;
    char *buffer = buffer_words(student, d->message);
    char *q = diag_quote(student, d), *qf = sanitize_quote_at(student, ffile, freed);
    char *in = d->kernel[0] ? xasprintf(" in %s", d->kernel) : xstrdup("");
    /* a buffer the file did not allocate (the lab's harness made it and
     * gave it to the student's function): not the function's to free */
    char mfile[256] = "";
    int made = location_after(d->message, "(made at ", mfile, sizeof mfile, NULL);
    int theirs = made > 0 && student && strcmp(path_base(mfile), path_base(student)) != 0 &&
                 student && strcmp(path_base(ffile), path_base(student)) == 0;
    /* the harness's, said at the student's cudaFree: the use is the kit's */
    add(r, "use-after-free", theirs ? ffile : d->file, theirs ? freed : d->line, theirs ? 0 : freed,
        theirs ? xasprintf("the cudaFree at %s frees %s, which this file did not allocate: the lab's harness made it "
                           "and gave it to your function, and the %s at %s%s uses it after; free only the buffers "
                           "your code allocated: delete that cudaFree",
                           qf, buffer, what, q, in)
               : xasprintf("the %s at %s%s uses %s after the cudaFree at %s freed it: a use after cudaFree; free a "
                           "buffer only once nothing reads or writes it any more (after the copy back)",
                           what, q, in, buffer, qf));
    free(in);
    free(q);
    free(qf);
    free(buffer);
    return 1;
}

/* Where a barrier some threads of the block miss stands (the emulator's
 * "waits at this __syncthreads() while thread T of its block waits at
 * another one, FILE:LINE" or "has returned from the kernel"): inside an if
 * (or its else) that holds one of the two barriers and not the other, or,
 * where a thread has returned, inside a loop. Said with the test's line
 * and what the thread that missed it did meanwhile ("inside the test at
 * line 57 (`if (destY < w)`), which thread (0,9,0) of the block does not
 * pass, so it waits at the __syncthreads() at line 88 meanwhile");
 * *barrier is the barrier inside the test. NULL when no test tells them
 * apart (malloc'd). */
static char *barrier_test_words(const char *student, const char *file, int line, const char *msg, int *barrier)
{
    char test[160], test2[160], other[32] = "", ofile[256] = "";
    int in_else = 0, in_else2 = 0;
    *barrier = line;
    if (!student || strcmp(path_base(file), path_base(student)) != 0)
        return NULL;
    emu_triple_after(msg, "while thread ", other, sizeof other);
    int elsewhere = location_after(msg, "waits at another one, ", ofile, sizeof ofile, NULL);
    if (elsewhere > 0 && strcmp(path_base(ofile), path_base(student)) != 0)
        return NULL;
    int at = source_test_around(student, line, test, sizeof test, &in_else);
    int at2 = elsewhere > 0 ? source_test_around(student, elsewhere, test2, sizeof test2, &in_else2) : 0;
    int loop = at > 0 && (strncmp(test, "for", 3) == 0 || strncmp(test, "while", 5) == 0);
    int loop2 = at2 > 0 && (strncmp(test2, "for", 3) == 0 || strncmp(test2, "while", 5) == 0);
    char *then, *who = other[0] ? xasprintf("thread %s of the block", other) : xstrdup("another thread of the block");
    char *w = NULL;
    if (at > 0 && !loop && (at != at2 || in_else != in_else2)) {
        /* this barrier is in the test: the other thread did not pass it */
        then = elsewhere > 0 ? xasprintf("waits at the __syncthreads() at line %d meanwhile", elsewhere)
             : strstr(msg, "has returned from the kernel") ? xstrdup("has returned from the kernel meanwhile")
                                                           : xstrdup("is elsewhere meanwhile");
        w = in_else ? xasprintf("in the else of the test at line %d (`%s`), which %s passes, so it %s", at, test,
                                who, then)
                    : xasprintf("inside the test at line %d (`%s`), which %s does not pass, so it %s", at, test, who,
                                then);
        free(then);
    } else if (at2 > 0 && !loop2 && (at != at2 || in_else != in_else2)) {
        /* the other barrier is: this thread, waiting here, skipped it */
        *barrier = elsewhere;
        w = in_else2 ? xasprintf("in the else of the test at line %d (`%s`), which %s passes and waits there, "
                                 "while others skip it and wait at the __syncthreads() at line %d",
                                 at2, test2, who, line)
                     : xasprintf("inside the test at line %d (`%s`), which %s passes and waits there, while others "
                                 "do not and wait at the __syncthreads() at line %d",
                                 at2, test2, who, line);
    } else if (loop && elsewhere <= 0 && strstr(msg, "has returned from the kernel"))
        w = xasprintf("inside the loop at line %d (`%s`), which %s runs fewer times: it has returned from the kernel "
                      "while others wait there", at, test, who);
    free(who);
    return w;
}

/* A copy refused (a NULL pointer, a pitch of 0) where one of its device
 * pointers is allocated only after it, at a later line: its buffer, and
 * the pitch cudaMallocPitch gives, do not exist yet. Or a NULL pointer
 * that no allocation in the file gives a buffer. The words that follow
 * the message, or NULL where the source shows neither. The caller frees
 * it. */
static char *copy_before_allocation(const char *student, int line, const char *call, const char *msg)
{
    if (!student)
        return NULL;
    /* cudaMemcpy(dst, src, ...), cudaMemcpy2D(dst, dpitch, src, ...) */
    const int sides[2] = { 0, strcmp(call, "cudaMemcpy2D") == 0 ? 2 : 1 };
    for (int i = 0; i < 2; i++) {
        char name[128], alloc[32];
        if (!source_call_argument_name(student, line, call, sides[i], name, sizeof name) || !name[0])
            continue;
        int made = source_allocation_of(student, name, alloc, sizeof alloc);
        int null = strstr(msg, i == 0 ? "the destination pointer is NULL" : "the source pointer is NULL") != NULL;
        char fn[32];
        int over = null ? source_pointer_from_call_result(student, name, fn, sizeof fn) : 0;
        if (over > 0 && over < line) {
            /* the call's value, an error code, stored over the address */
            char *q = sanitize_quote(student, over);
            char *w = xasprintf(": %s stores %s's value in %s: an error code (cudaSuccess, 0), not the buffer's "
                                "address, which %s wrote into %s through its first argument: %s is NULL from then "
                                "on; call %s without storing its value (`CUDA_CHECK(%s(...))`)",
                                q, fn, name, fn, name, name, fn, fn);
            free(q);
            return w;
        }
        if (made > line) {
            char *q = sanitize_quote(student, made);
            char *w = xasprintf(": %s has no buffer yet there: the %s that gives it one comes after, at %s: "
                                "allocate before copying (move this copy after that line)",
                                name, alloc, q);
            free(q);
            return w;
        }
        if (made == 0 && null)
            return xasprintf(": %s is still NULL there, and no cudaMalloc in the file gives it a buffer: allocate "
                             "it (cudaMalloc((void **)&%s, bytes)) before this copy",
                             name, name);
    }
    return NULL;
}

/* An access of a kernel's into a host buffer that one of the program's
 * copies used (the emulator's race build: its message says "of host
 * memory" and names the copy). Where the source shows it, said at the
 * host's line that gave the pointer the kernel subscripts its value (a
 * struct passed by value, copied whole from the host's, whose pointer was
 * never made the device copy's): the finding's line into *at. The caller
 * frees it. */
static char *host_memory_message(const char *student, int ln, const char *kernel, const char *clean,
                                 const char *where, int *at)
{
    *at = ln;
    const char *call = strstr(clean, "the cudaMemcpy2D at ") ? "cudaMemcpy2D" : "cudaMemcpy";
    char key[64], cfile[256] = "";
    snprintf(key, sizeof key, "the %s at ", call);
    int copy = location_after(clean, key, cfile, sizeof cfile, NULL);
    int back = strstr(clean, "the results back into") != NULL;
    int own = copy > 0 && student && strcmp(path_base(cfile), path_base(student)) == 0;
    /* the device side of that copy: its destination for a copy in, its
     * source for a copy back (cudaMemcpy2D's third argument) */
    char dev[128] = "";
    if (own)
        source_call_argument_name(student, copy, call, back ? (strcmp(call, "cudaMemcpy2D") == 0 ? 2 : 1) : 0,
                                  dev, sizeof dev);
    /* the harness's name for the buffer, where it made it ("in->data") */
    char name[64] = "";
    const char *hb = strstr(clean, "-byte host buffer ");
    if (hb)
        sscanf(hb + strlen("-byte host buffer "), "%63[A-Za-z0-9_>.-]", name);
    if (!strcmp(name, "that"))
        name[0] = '\0';
    char *qc = own ? sanitize_quote(student, copy) : NULL;
    char *buffer = qc ? xasprintf("the host buffer%s%s that the %s at %s copied %s", name[0] ? " " : "", name, call,
                                  qc, back ? "the results back into" : "to the device from")
                 : name[0] ? xasprintf("the host buffer %s, which the lab's function was given", name)
                           : xstrdup("a host buffer");
    char *devcopy = dev[0] ? xasprintf(" (%s, which that %s %s)", dev, call, back ? "copied back from" : "filled")
                           : xstrdup("");
    const char *what = strncmp(clean, "write", 5) == 0 ? "writes" : "reads";
    char member[256], object[128], value[256];
    int whole = 0;
    int hl = student ? source_member_from_host(student, ln, member, sizeof member, object, sizeof object, value,
                                                sizeof value, &whole)
                     : 0;
    char *q = sanitize_quote(student, ln), *msg;
    const char *dot = strstr(member, "->") ? strstr(member, "->") + 2 : strchr(member, '.') ? strchr(member, '.') + 1 : "";
    if (hl > 0) {
        char *qh = sanitize_quote(student, hl);
        if (whole)
            msg = xasprintf("%s makes %s a copy of `%s`, the host's, and no line after it sets %s.%s, so the "
                            "kernel's %s still points at host memory, %s: the access at %s in %s %s it%s; a kernel "
                            "can reach only device memory (on a GPU this access is an illegal address): set "
                            "%s.%s to the device copy%s before the launch",
                            qh, object, value, object, dot, member, buffer, q, kernel, what, where, object, dot,
                            devcopy);
        else
            msg = xasprintf("%s sets %s.%s to `%s`, which points at host memory, %s: the access at %s in %s %s it "
                            "through %s%s; a kernel can reach only device memory (on a GPU this access is an "
                            "illegal address): set %s.%s to the device copy%s",
                            qh, object, dot, value, buffer, q, kernel, what, member, where, object, dot, devcopy);
        free(qh);
        *at = hl;
    } else {
        char passed[128], other[128];
        int set_line = 0, launch = student ? source_launch_passes_other_object(student, ln, member, sizeof member,
                                                                               passed, sizeof passed, other,
                                                                               sizeof other, &set_line)
                                           : 0;
        if (launch > 0) {
            /* the launch passes the host's object, where the file made one
             * whose member points at the device copy */
            char *ql = sanitize_quote(student, launch);
            const char *field = strchr(member, '.') ? strchr(member, '.') + 1 : member;
            msg = xasprintf("the launch at %s passes the host's %s for the kernel's %.*s, and its %s is host memory, "
                            "%s: the access at %s in %s %s it%s; a kernel can reach only device memory (on a GPU "
                            "this access is an illegal address): pass %s, whose %s line %d sets to the device copy%s",
                            ql, passed, (int)(field > member ? field - member - 1 : 0), member, field, buffer, q,
                            kernel, what, where, other, field, set_line, devcopy);
            free(ql);
            *at = launch;
        } else
            msg = xasprintf("the access at %s in %s %s host memory, %s%s: a kernel can reach only device memory (on "
                            "a GPU this access is an illegal address), so the pointer it goes through must be the "
                            "device copy%s",
                            q, kernel, what, buffer, where, devcopy);
    }
    free(q);
    free(qc);
    free(buffer);
    free(devcopy);
    return msg;
}

/* A 2D copy refused for a pitch of 0 (`dpitch 0` or `spitch 0` in the
 * emulator's message) whose pitch, as the call passes it, is a variable
 * that keeps its declaration's value: nothing set the pitch. Where the
 * buffer on that side was allocated by a plain cudaMalloc, that is why (a
 * pitch comes from the cudaMallocPitch that allocates a pitched buffer);
 * the words that follow the message, or NULL where the source does not
 * show it. The caller frees it. */
static char *zero_pitch(const char *student, int line, const char *call, const char *msg)
{
    int src = strstr(msg, "spitch 0)") != NULL, dst = strstr(msg, "(dpitch 0,") != NULL;
    if (!student || strcmp(call, "cudaMemcpy2D") != 0 || src == dst)
        return NULL;
    char var[128], base[128], init[128], alloc[32];
    if (!source_call_argument_name(student, line, call, src ? 3 : 1, var, sizeof var))
        return NULL;
    int decl = source_variable_never_set(student, var, init, sizeof init);
    if (decl <= 0)
        return NULL;
    int made = source_call_argument_name(student, line, call, src ? 2 : 0, base, sizeof base)
                   ? source_allocation_of(student, base, alloc, sizeof alloc)
                   : 0;
    if (made > 0 && strcmp(alloc, "cudaMalloc") == 0)
        return xasprintf(": its %s, %s, is still %s from its declaration at line %d, as nothing sets it, because "
                         "%s is allocated by a plain cudaMalloc at line %d: a pitched buffer comes from "
                         "cudaMallocPitch, which sets its pitch (given &%s)",
                         src ? "spitch" : "dpitch", var, init[0] ? init : "unset", decl, base, made, var);
    return xasprintf(": its %s, %s, is still %s from its declaration at line %d: nothing sets it (no call is given "
                     "&%s, as cudaMallocPitch is for the pitch of the buffer it allocates)",
                     src ? "spitch" : "dpitch", var, init[0] ? init : "unset", decl, var);
}

/* A cudaFree of a buffer an earlier cudaFree freed (the emulator's
 * "invalid-free FILE:LINE: ... freed already, by the cudaFree at
 * FILE:LINE"): the finding is this call's, and names the first; its second
 * line is left 0, so that a repair at the first cudaFree follows the
 * finding (either free may be the one to change). */
static void add_double_free(sanitize_result *r, const char *student, const emu_diag *d)
{
    char ffile[256] = "";
    int first = location_after(d->message, "by the cudaFree at ", ffile, sizeof ffile, NULL);
    if (first <= 0 || !student || strcmp(path_base(d->file), path_base(student)) != 0)
        return;
    char *buffer = buffer_words(student, d->message);
    char *q = diag_quote(student, d), *qf = sanitize_quote_at(student, ffile, first);
    /* two names of one buffer: the line that made one the other's */
    char now[128] = "", before[128] = "";
    int made = 0;
    if (source_call_argument_name(student, d->line, "cudaFree", 0, now, sizeof now) &&
        strcmp(path_base(ffile), path_base(student)) == 0 &&
        source_call_argument_name(student, first, "cudaFree", 0, before, sizeof before) && now[0] && before[0] &&
        strcmp(now, before) != 0)
        made = source_pointer_copied_from(student, now, before);
    if (made <= 0 && now[0] && before[0] && strcmp(now, before) != 0)
        made = source_pointer_copied_from(student, before, now);
    if (made > 0) {
        char *qm = sanitize_quote(student, made);
        add(r, "use-after-free", d->file, made, d->line,
            xasprintf("%s makes %s and %s one buffer (the pointer copied, not the data): the buffer cudaMalloc gave the "
                      "other is lost, whatever the program writes through one it writes into the other's data, and "
                      "the cudaFree at %s frees it a second time after the cudaFree at %s; take that assignment out "
                      "(a copy of the data is cudaMemcpy's)",
                      qm, now, before, q, qf));
        free(qm);
    } else
        add(r, "use-after-free", d->file, d->line, 0,
            xasprintf("the cudaFree at %s frees %s a second time: the cudaFree at %s freed it already, and a cudaFree "
                      "of a freed buffer fails (cudaErrorInvalidValue): free each buffer once",
                      q, buffer, qf));
    free(q);
    free(qf);
    free(buffer);
}

void sanitize_parse_emu(const char *text, const char *student, sanitize_result *r)
{
    if (student)
        snprintf(r->student_file, sizeof r->student_file, "%s", student);
    const char *prefix = "gpulab-emu: ";
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, '\n');
        size_t n = end ? (size_t)(end - p) : strlen(p);
        if (n > strlen(prefix) && strncmp(p, prefix, strlen(prefix)) == 0) {
            char *line = xasprintf("%.*s", (int)(n - strlen(prefix)), p + strlen(prefix));
            emu_diag d;
            emu_diag_parse(line, &d);
            const char *category = d.category, *kernel = d.kernel, *block = d.block, *thread = d.thread;
            const char *msg = d.message, *file = d.file;
            int ln = d.line;
            char where[128] = "";
            if (block[0] && thread[0])
                snprintf(where, sizeof where, " (first seen in block %s, thread %s)", block, thread);
            if (strcmp(category, "race") == 0 && ln > 0) {
                /* "write of 4 bytes of shared memory races with the read at FILE:LINE2 ..." */
                char a1[16] = "", a2[16] = "", file2[256] = "";
                int ln2 = 0;
                sscanf(msg, "%15s", a1);
                const char *with = strstr(msg, "races with the ");
                if (with) {
                    sscanf(with, "races with the %15s", a2);
                    const char *at = strstr(with, " at ");
                    if (at) {
                        const char *c2 = strchr(at + 4, ':');
                        if (c2) {
                            ln2 = atoi(c2 + 1);
                            snprintf(file2, sizeof file2, "%.*s", (int)(c2 - (at + 4)), at + 4);
                        }
                    }
                }
                const char *space = strstr(msg, "shared memory") ? "shared memory" : "global memory";
                int first = ln <= ln2 || ln2 == 0;
                int l1 = first ? ln : ln2, l2 = first ? ln2 : ln;
                const char *x1 = first ? a1 : a2, *x2 = first ? a2 : a1;
                const char *f1 = first ? file : file2, *f2 = first ? file2 : file;
                char *q1 = sanitize_quote_at(student, f1, l1), *q2 = sanitize_quote_at(student, f2, l2);
                /* the emulator names the other block's thread: " by thread (x,y,z) of another block, (x,y,z)" */
                char other_t[32] = "", other_b[32] = "", who[160] = "";
                const char *by = strstr(msg, " by thread (");
                if (by && strstr(by, " of another block, (")) {
                    emu_triple_after(by, " by thread ", other_t, sizeof other_t);
                    emu_triple_after(by, " of another block, ", other_b, sizeof other_b);
                }
                if (other_t[0] && other_b[0] && thread[0] && block[0])
                    snprintf(who, sizeof who, " (thread %s of block %s and thread %s of block %s)", thread, block,
                             other_t, other_b);
                char *loop = NULL;
                /* a __shared__ scalar that every thread of the block stores
                 * into: one variable, where each thread's own was meant;
                 * first: whatever else races, it is one variable for all */
                char scalar[64];
                int sdecl = strcmp(space, "shared memory") == 0 && student &&
                                    strcmp(path_base(f1), path_base(student)) == 0
                                ? source_shared_scalar_stored(student, l1, scalar, sizeof scalar)
                                : 0;
                if (sdecl > 0) {
                    char *qd = sanitize_quote(student, sdecl);
                    loop = xasprintf("%s declares %s `__shared__`: one variable for the whole block, which every "
                                     "thread stores into (the %s at %s and the %s at %s race in %s); a value of each "
                                     "thread's own is a plain local: declare it without `__shared__`",
                                     qd, scalar, x1, q1, x2, q2, kernel);
                    free(qd);
                }
                if (!loop && strcmp(space, "shared memory") == 0 && strcmp(x1, "write") == 0 &&
                    strcmp(x2, "read") == 0 && student && file2[0] && strcmp(path_base(f1), path_base(student)) == 0 &&
                    strcmp(path_base(f2), path_base(student)) == 0)
                    loop = loop_race_message(student, l1, l2, q1, q2, kernel);
                if (!loop && strcmp(space, "shared memory") == 0 && strcmp(x1, "read") == 0 &&
                    strcmp(x2, "write") == 0 && student && file2[0] && strcmp(path_base(f1), path_base(student)) == 0 &&
                    strcmp(path_base(f2), path_base(student)) == 0)
                    loop = load_after_use_message(student, l1, l2, kernel);
                /* a store racing with itself in global memory: an index that does not vary with a
                 * coordinate the threads differ in, where the source shows which name lost it */
                char *coord = !loop && strcmp(space, "global memory") == 0 && strcmp(x1, "write") == 0 &&
                                      strcmp(x2, "write") == 0 && l1 == l2 && student &&
                                      strcmp(path_base(f1), path_base(student)) == 0
                                  ? source_index_coordinate_missing(student, l1)
                                  : NULL;
                if (coord) {
                    loop = xasprintf("%s (the race check saw the store at line %d race with itself in %s%s)", coord,
                                     l1, kernel, who);
                    free(coord);
                }
                /* ... or whose test bounds one value made of both indices by the
                 * whole output (`Row * l + Col < j * l`): a column past its row's
                 * end stores into the next row's element */
                if (!loop && strcmp(space, "global memory") == 0 && strcmp(x1, "write") == 0 &&
                    strcmp(x2, "write") == 0 && l1 == l2 && student && strcmp(path_base(f1), path_base(student)) == 0)
                    loop = flattened_store_test(student, l1, kernel, who);
                /* two stores of a tile racing where one splits its flat index the wrong way round: it
                 * walks the tile column by column, onto the other's slots */
                if (!loop && strcmp(space, "shared memory") == 0 && strcmp(x1, "write") == 0 &&
                    strcmp(x2, "write") == 0 && student && strcmp(path_base(f1), path_base(student)) == 0)
                    loop = split_race_message(student, l1, l2, kernel);
                if (!loop && strcmp(space, "shared memory") == 0 && strcmp(x1, "write") == 0 &&
                    strcmp(x2, "write") == 0 && student && strcmp(path_base(f1), path_base(student)) == 0 &&
                    strcmp(path_base(f2), path_base(student)) == 0)
                {
                    /* the other thread of the block: " by thread (x,y,z) of the block" */
                    char same_t[32] = "";
                    const char *byb = strstr(msg, " by thread (");
                    if (byb && strstr(byb, " of the block"))
                        emu_triple_after(byb, " by thread ", same_t, sizeof same_t);
                    loop = colliding_stores_message(student, r->lab_header[0] ? r->lab_header : NULL, l1, l2, q1, q2,
                                                    kernel, thread[0] ? thread : NULL, same_t[0] ? same_t : NULL);
                }
                char *place = !loop && strcmp(x1, "write") == 0 && strcmp(x2, "read") == 0 && student && file2[0] &&
                                      strcmp(path_base(f1), path_base(student)) == 0 &&
                                      strcmp(path_base(f2), path_base(student)) == 0
                                  ? barrier_place_words(student, l1, l2)
                                  : xstrdup("");
                /* a barrier of the wrong kind at that place is the place itself */
                char *weak = !loop && place[0] ? weak_barrier_words(student, l1, l2) : xstrdup("");
                if (weak[0])
                    place[0] = '\0';
                char *said = loop ? NULL : race_message(x1, space, q1, x2, q2, kernel, who, place);
                add(r, "race", file, l1, l2, loop ? loop : xasprintf("%s%s", weak, said));
                free(said);
                free(weak);
                free(place);
                free(q1);
                free(q2);
            } else if (strcmp(category, "unset") == 0 && ln > 0 && d.kernel[0] &&
                       strstr(msg, "__constant__ array ")) {
                add_unset_constant(r, student, &d, text);
            } else if (strcmp(category, "unset") == 0 && ln > 0) {
                add_unset(r, student, &d);
            } else if (strcmp(category, "subscript") == 0 && ln > 0 && d.kernel[0]) {
                add_subscript(r, student, &d);
            } else if (strcmp(category, "leak") == 0) {
                add_leak(r, student, &d);
            } else if (strcmp(category, "invalid-free") == 0 && ln > 0 && strstr(msg, "freed already")) {
                add_double_free(r, student, &d);
            } else if ((strcmp(category, "invalid-memcpy") == 0 || strcmp(category, "invalid-memset") == 0) &&
                       ln > 0 && add_use_after_free(r, student, &d, strstr(line, "cudaMemcpy2D") ? "cudaMemcpy2D"
                                                                  : strstr(line, "cudaMemset") ? "cudaMemset"
                                                                                                : "cudaMemcpy")) {
                /* named with its cudaFree */
            } else if (strcmp(category, "out-of-bounds") == 0 && ln > 0 &&
                       add_use_after_free(r, student, &d, "access")) {
                /* named with its cudaFree */
            } else if ((strcmp(category, "invalid-memcpy") == 0 || strcmp(category, "invalid-memset") == 0) &&
                       ln > 0 && student && strcmp(path_base(file), path_base(student)) == 0) {
                /* a copy the submission asked for that runs outside an
                 * allocation (33 rows into 31): the harness's guard zones
                 * take the bytes in a graded run, the checkers' builds have
                 * none, so only here is it refused, at the student's line */
                char *q = sanitize_quote(student, ln);
                char *clean = xstrdup(msg);
                char *code = strstr(clean, " (cudaError");
                if (code)
                    *code = '\0';
                const char *call = strstr(line, "cudaMemcpy2D") ? "cudaMemcpy2D"
                                 : strstr(line, "cudaMemcpyAsync") ? "cudaMemcpyAsync"
                                 : strstr(line, "cudaMemcpyToSymbol") ? "cudaMemcpyToSymbol"
                                 : strstr(line, "cudaMemcpyFromSymbol") ? "cudaMemcpyFromSymbol"
                                 : strstr(line, "cudaMemset") ? "cudaMemset" : "cudaMemcpy";
                /* a symbol's copy has one pointer of the program's: where
                 * it is not the memory the kind says, the kind is what to
                 * change (the symbol side is device memory whatever it says) */
                int to_symbol = strcmp(call, "cudaMemcpyToSymbol") == 0;
                int symbol_kind = (to_symbol || strcmp(call, "cudaMemcpyFromSymbol") == 0) &&
                                  strstr(clean, "not device memory");
                /* advice that fits what the emulator found: a pitch only for a
                 * pitched copy, none where the pointers or the kind are the
                 * wrong way round, or freed (which cudaFree freed it has one
                 * home, the emulator's record: add_use_after_free names it
                 * where the emulator could; here it could not) */
                const char *freed = "; look at the cudaFree before it, which should come after the last use "
                                    "of the buffer";
                /* a width that is a buffer's pitch, padding and all, where a
                 * row's bytes belong */
                char pw[64], prow[64], pbuf[64];
                int width_is_pitch = strstr(clean, "is more than a pitch") &&
                                     source_copy2d_width_is_pitch(student, ln, pw, prow, pbuf, sizeof pw);
                char *pitch_advice = width_is_pitch
                                         ? xasprintf("; its width, %s, is the pitch cudaMallocPitch gave %s, padding "
                                                     "and all: a row's width counts only its pixels' bytes, the width "
                                                     "that cudaMallocPitch was given (`%s`)",
                                                     pw, pbuf, prow)
                                         : NULL;
                /* a width more than a pitch, where the two exchanged fit:
                 * the arguments' order (dst, dpitch, src, spitch, width) */
                char *exchanged = strcmp(call, "cudaMemcpy2D") == 0 && !width_is_pitch
                                      ? copy2d_pitch_exchanged(student, ln, clean)
                                      : NULL;
                if (exchanged) {
                    free(pitch_advice);
                    pitch_advice = exchanged;
                    width_is_pitch = 1;
                }
                const char *advice = strstr(clean, "swapped") || strstr(clean, "direction should be") ? ""
                                   : symbol_kind && to_symbol
                                       ? "; its last argument, the kind, must say where the source is: "
                                         "cudaMemcpyHostToDevice from host memory, cudaMemcpyDeviceToDevice from a "
                                         "cudaMalloc'd buffer (or leave the kind out: its default is "
                                         "cudaMemcpyHostToDevice)"
                                   : symbol_kind
                                       ? "; its last argument, the kind, must say where the destination is: "
                                         "cudaMemcpyDeviceToHost into host memory, cudaMemcpyDeviceToDevice into a "
                                         "cudaMalloc'd buffer (or leave the kind out: its default is "
                                         "cudaMemcpyDeviceToHost)"
                                   : strstr(clean, "freed") ? freed
                                   : strcmp(call, "cudaMemcpy2D") == 0 && width_is_pitch
                                       ? pitch_advice
                                   : strcmp(call, "cudaMemcpy2D") == 0
                                       ? "; count its rows, its width in bytes and both pitches against what was "
                                         "allocated"
                                       : "; count its bytes (elements times sizeof(float)) against what was allocated";
                char mfile[256] = "";
                int made = strstr(clean, "were given the other way round")
                               ? location_after(clean, "the cudaMallocPitch at ", mfile, sizeof mfile, NULL)
                               : 0;
                size_t rows = 0, bytes = 0;
                const char *shape = strstr(line, "cudaMemcpy2D(");
                if (made > 0 && shape && sscanf(shape, "cudaMemcpy2D(%zu rows of %zu bytes)", &rows, &bytes) == 2) {
                    /* the allocation is the mistake; the copy is where it showed */
                    char *qm = sanitize_quote_at(student, mfile, made);
                    add(r, "out-of-bounds", file, ln, 0,
                        xasprintf("the cudaMallocPitch at %s was given its width and its height the other way "
                                  "round: it made rows of %zu bytes, %zu of them, and the %s at %s copies %zu rows "
                                  "of %zu bytes: its width in bytes comes first, then the number of rows",
                                  qm, rows, bytes, call, q, rows, bytes));
                    free(qm);
                } else {
                    char *why = zero_pitch(student, ln, call, clean);
                    if (!why)
                        why = copy_before_allocation(student, ln, call, clean);
                    add(r, "out-of-bounds", file, ln, 0,
                        xasprintf("the %s at %s: %s%s", call, q, clean, why ? why : advice));
                    free(why);
                }
                free(pitch_advice);
                free(clean);
                free(q);
            } else if (strcmp(category, "host-access") == 0 && ln > 0) {
                /* host code read or wrote device memory, which the race
                 * build keeps sealed as the graded build does: said as the
                 * graded run's crash is (a GPU's run only crashed) */
                char *words = emu_host_access_words(line, student);
                if (words)
                    add(r, "host-access", file, ln, 0, words);
            } else if (strcmp(category, "host-pointer") == 0 && ln > 0) {
                /* a launch given host memory: the emulator named the argument */
                char *q = sanitize_quote(student, ln);
                char *clean = xstrdup(msg);
                char *code = strstr(clean, " (cudaError");
                if (code)
                    *code = '\0';
                /* the argument's host allocation, where the file makes one */
                char arg[64] = "", call[16];
                const char *tick = strstr(clean, " (`");
                if (tick && sscanf(tick, " (`%63[A-Za-z0-9_]`)", arg) == 1) {
                    int made = source_host_allocation_of(student, arg, call, sizeof call);
                    if (made > 0) {
                        char *qm = sanitize_quote(student, made);
                        char *more = xasprintf("%s sets %s with %s, host memory, and the launch at %s passes it to "
                                               "the kernel: a kernel can reach only device memory; allocate %s with "
                                               "cudaMalloc((void **)&%s, ...) (and copy what it must hold with "
                                               "cudaMemcpy)",
                                               qm, arg, call, q, arg, arg);
                        free(qm);
                        free(clean);
                        clean = more;
                        free(q);
                        q = NULL;
                    }
                }
                add(r, "out-of-bounds", file, ln, 0, q ? xasprintf("the launch at %s: %s", q, clean) : xstrdup(clean));
                free(clean);
                free(q);
            } else if (strcmp(category, "out-of-bounds") == 0 && ln > 0 && strstr(msg, " of host memory, ")) {
                int at = ln;
                char *hm = host_memory_message(student, ln, kernel, msg, where, &at);
                add(r, "host-memory", file, at, at == ln ? 0 : ln, hm);
            } else if (strcmp(category, "out-of-bounds") == 0 && ln > 0) {
                char *q = sanitize_quote(student, ln);
                char *clean = xstrdup(msg);
                char *code = strstr(clean, " (cudaError");
                if (code)
                    *code = '\0';
                char *guard = guards_words(clean, student, ln);
                if (!guard && !strstr(clean, " (let through by the test at line "))
                    guard = guards_outside_test(student, ln);
                /* through a null pointer: a buffer the file allocates after the launch */
                char late[64];
                int late_launch = 0, late_malloc = !guard && strstr(clean, "through a null pointer")
                                                       ? source_allocated_after_launch(student, ln, late, sizeof late,
                                                                                       &late_launch)
                                                       : 0;
                if (late_malloc > 0) {
                    char *qm = sanitize_quote(student, late_malloc);
                    guard = xasprintf("the launch at line %d passes %s, but %s allocates %s only after it: at the "
                                      "launch %s is still NULL (or whatever it held); move that cudaMalloc before the "
                                      "launch",
                                      late_launch, late, qm, late, late);
                    free(qm);
                }
                /* the if around it bounds another name than its index's
                 * (`nRow < k` before `M[Row * k + mCol]`): that clause */
                char tested[128], missing[128], clause[128];
                int tl = 0;
                if (student && strcmp(path_base(file), path_base(student)) == 0 && strstr(clean, "shared memory") &&
                    source_tile_index_loop_offset(student, ln, tested, clause, sizeof tested, &tl) &&
                    source_loop_step(student, tl, tested) >= 0) { /* a count down: the guard's words */
                    /* a tile indexed by a loop counter that starts past 0 */
                    char *qt = sanitize_quote(student, tl);
                    free(guard);
                    guard = xasprintf("the loop at %s starts %s at `%s`, and line %d indexes a tile with %s: a tile's "
                                      "indices run from 0 in every phase, whatever its place in the data: start %s "
                                      "at 0 (and run it the tile's width)",
                                      qt, tested, clause, ln, tested, tested);
                    free(qt);
                } else if (student && strcmp(path_base(file), path_base(student)) == 0 &&
                    source_test_bounds_other_name(student, ln, tested, missing, clause, sizeof tested, &tl)) {
                    char *qt = sanitize_quote(student, tl);
                    free(guard);
                    guard = tested[0]
                                ? xasprintf("the test at %s bounds %s (`%s`), which the access at line %d does not "
                                            "read, and not %s, which it reads: test %s there in place of %s",
                                            qt, tested, clause, ln, missing, missing, tested)
                                : xasprintf("the test at %s does not bound %s, which the access at line %d reads: "
                                            "add `%s` to it (the bound the kernel gives %s elsewhere)",
                                            qt, missing, ln, clause, missing);
                    free(qt);
                }
                if (guard)
                    add(r, "out-of-bounds", file, ln, 0,
                        xasprintf("%s, so the access at %s in %s makes a %s%s", guard, q, kernel, clean, where));
                else
                    add(r, "out-of-bounds", file, ln, 0,
                        xasprintf("the access at %s in %s: %s%s", q, kernel, clean, where));
                free(guard);
                free(clean);
                free(q);
            } else if (strcmp(category, "barrier-divergence") == 0 && ln > 0) {
                char *q = sanitize_quote(student, ln), jumpw[16];
                int jump = 0;
                const char *at = strstr(msg, "has returned from the kernel, at ");
                const char *colon = at ? strrchr(at, ':') : NULL;
                int ret = colon ? atoi(colon + 1) : 0;
                if (ret > 0) {
                    /* the emulator knows the return the thread took: the
                     * finding is there, the barrier its second line */
                    char *qr = sanitize_quote(student, ret);
                    add(r, "barrier", file, ret, ln,
                        xasprintf("the return at %s in %s ends some threads before the __syncthreads() at %s%s: "
                                  "they have already returned from the kernel when the rest of the block waits "
                                  "for them there; %s", qr, kernel, q, where, early_return_advice));
                    free(qr);
                } else if ((jump = student ? source_jump_past_barrier(student, ln, jumpw, sizeof jumpw) : 0) > 0) {
                    /* a continue (or break) of the barrier's loop before it:
                     * the threads that take it skip the barrier */
                    char *qj = sanitize_quote(student, jump);
                    add(r, "barrier", file, jump, ln,
                        xasprintf("the %s at %s in %s takes the threads that reach it past the __syncthreads() at "
                                  "%s%s, while the rest of the block waits there for them: a barrier must be "
                                  "reached by every thread of the block; instead of leaving the pass early, let "
                                  "every thread go on to the barriers and put only what it must skip under the test",
                                  jumpw, qj, kernel, q, where));
                    free(qj);
                } else {
                    int bl = ln;
                    char *test = barrier_test_words(student, file, ln, msg, &bl);
                    char *qb = bl != ln ? sanitize_quote(student, bl) : xstrdup(q);
                    if (test)
                        add(r, "barrier", file, bl, 0,
                            xasprintf("the __syncthreads() at %s in %s is %s%s: a barrier must be reached by every "
                                      "thread of the block, or it hangs or breaks the block: put it where every "
                                      "thread gets, outside the test",
                                      qb, kernel, test, where));
                    else if (strstr(msg, "has returned from the kernel"))
                        add(r, "barrier", file, ln, 0,
                            xasprintf("the __syncthreads() at %s in %s is not reached by every thread of the "
                                      "block%s: some threads of the block had already returned from the kernel, "
                                      "and the others wait for them there; %s",
                                      q, kernel, where, early_return_advice));
                    else
                        add(r, "barrier", file, ln, 0,
                            xasprintf("the __syncthreads() at %s in %s is not reached by every thread of the "
                                      "block%s: a barrier inside a condition that some threads skip hangs or "
                                      "breaks the block", q, kernel, where));
                    free(test);
                    free(qb);
                }
                free(q);
            }
            free(line);
        }
        p = end ? end + 1 : p + n;
    }
    subscripts_in_place(r);
    barriers_first(r);
}

/* ---- the checkers' folders --------------------------------------------------
 *
 * A checker's run must look to the program like the graded run of the
 * same dataset, or a submission could behave only when checked: each
 * checker has a folder of its own laid out like a work directory (made
 * like one, by make_temp_dir()), its program at build/lab-program, the run
 * in run-DATASET, on the emulator the launch log run-DATASET/gpulab-emu.log in the
 * environment (run_dir_for(), run_log_for()), and the same arguments.
 * What differs is built in: the harness's guard zones are off, and the
 * emulator's fault list is on, in the checkers' builds (build.h). */

enum { EMU_CHECKED, EMU_FAULTS };                                            /* the emulator's folders */
enum { TOOL_MEMCHECK, TOOL_RACECHECK, TOOL_SYNCCHECK, TOOL_HAZARDS };        /* a GPU's */

static const char *const emu_build_names[] = { "--race", "--race --list-faults" };

/* The emulator's checked build (emucc --race: its race detector and its
 * bounds check, one compile and one link) into sb's folder, with what the
 * source shows when facts is set. Sets sb's problem. */
static void build_emu_checkers(const lab_manifest *m, const backend *b, const char *file, int facts,
                               sanitize_builds *sb)
{
    build_result r;
    build_emu_checker(m, b, file, sb->folder[EMU_CHECKED], "race", facts, &r);
    if (!r.ok) {
        /* what the compiler said first, for the report (an attribute that
         * hides code from the checkers, say: emucc refuses it), else the
         * build's own message (a compile stopped at its time limit) */
        const char *err = r.log ? strstr(r.log, "error: ") : NULL;
        char *why = err         ? xasprintf(": %.*s", (int)strcspn(err + 7, "\n"), err + 7)
                    : r.message ? xasprintf(": %s", r.message)
                                : xstrdup("");
        sb->problem[EMU_CHECKED] = xasprintf("the emulator's %s build failed%s", emu_build_names[EMU_CHECKED], why);
        free(why);
    }
    build_result_free(&r);
}

void sanitize_prebuild_init(sanitize_prebuild *p)
{
    memset(p, 0, sizeof *p);
    p->report = -1;
}

void sanitize_prebuild_start(const lab_manifest *m, const backend *emu, const char *student_file, int facts,
                             sanitize_prebuild *p)
{
    sanitize_prebuild_init(p);
    p->builds.folder[EMU_CHECKED] = make_temp_dir("gpulab");
    /* close-on-exec: no compiler, and no run of the student's program
     * started while the builds go on, holds either end */
    int fds[2];
    if (pipe_cloexec(fds, 0) != 0)
        die("pipe: %s", strerror(errno));
    pid_t pid = fork_flushed();
    if (pid < 0)
        die("fork: %s", strerror(errno));
    if (pid == 0) {
        /* the problems go back one a line: "INDEX PROBLEM" */
        close(fds[0]);
        build_emu_checkers(m, emu, student_file, facts, &p->builds);
        FILE *out = fdopen(fds[1], "w");
        int failed = !out;
        for (int i = 0; i < SAN_FOLDERS && out; i++)
            if (p->builds.problem[i]) {
                for (char *c = p->builds.problem[i]; *c; c++)
                    *c = *c == '\n' ? ' ' : *c;
                failed |= fprintf(out, "%d %s\n", i, p->builds.problem[i]) < 0;
            }
        failed |= out && fclose(out) != 0;
        _exit(failed);
    }
    close(fds[1]);
    p->pid = pid;
    p->report = fds[0];
    p->started_s = monotonic_s();
}

/* The checked build's allowance against the graded build's time: the same
 * file's compile with the race detector's instrumentation takes about as
 * long as the graded one (both start together, on the same cores); the
 * floor keeps a loaded machine's honest builds clear of it. The factor can
 * be set lower for the kit's own tests (GPULAB_CHECKER_BUILD_RATIO, with
 * GPULAB_CHECKER_BUILD_FLOOR_S), never higher. */
#define CHECKER_BUILD_RATIO 8.0
#define CHECKER_BUILD_FLOOR_S 20.0

static double lowered_by_environment(const char *name, double value)
{
    const char *s = getenv(name);
    char *end;
    double v = s ? strtod(s, &end) : value;
    return s && end != s && *end == '\0' && v >= 0 && v < value ? v : value;
}

void sanitize_prebuild_allow(sanitize_prebuild *p, double graded_s)
{
    if (!p->pid)
        return;
    double ratio = lowered_by_environment("GPULAB_CHECKER_BUILD_RATIO", CHECKER_BUILD_RATIO);
    double floor_s = lowered_by_environment("GPULAB_CHECKER_BUILD_FLOOR_S", CHECKER_BUILD_FLOOR_S);
    p->graded_s = graded_s;
    p->allowed_s = ratio * graded_s > floor_s ? ratio * graded_s : floor_s;
    if (p->allowed_s <= 0)
        p->allowed_s = 1e-3;
}

/* Whether the builder's report is ready to read before its allowance runs
 * out; 0 when it ran out (then the builder is stopped, with every process
 * its build started). */
static int prebuild_in_time(sanitize_prebuild *p)
{
    for (;;) {
        int wait_ms = -1;
        if (p->allowed_s > 0) {
            double left = p->started_s + p->allowed_s - monotonic_s();
            wait_ms = left <= 0 ? 0 : (int)(left * 1000) + 1;
        }
        struct pollfd in = { p->report, POLLIN, 0 };
        int n = poll(&in, 1, wait_ms);
        if (n > 0)
            return 1;
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            die("poll: %s", strerror(errno));
        /* its sandboxed compiler goes with it (pid 1 of its namespace dies
         * with its parent); the uid mode's, with the run's user */
        kill(p->pid, SIGKILL);
        char *build = xasprintf("%s/build", p->builds.folder[EMU_CHECKED]);
        sandbox_run_ended(build);
        free(build);
        return 0;
    }
}

void sanitize_prebuild_wait(sanitize_prebuild *p)
{
    if (!p->pid)
        return;
    if (!prebuild_in_time(p) && !p->builds.problem[EMU_CHECKED])
        p->builds.problem[EMU_CHECKED] =
            xasprintf("the emulator's %s build was stopped after %.0f s: a file's checked build may take "
                      "%g times as long as its graded build (%.1f s here), and at least %g s",
                      emu_build_names[EMU_CHECKED], p->allowed_s,
                      lowered_by_environment("GPULAB_CHECKER_BUILD_RATIO", CHECKER_BUILD_RATIO), p->graded_s,
                      lowered_by_environment("GPULAB_CHECKER_BUILD_FLOOR_S", CHECKER_BUILD_FLOOR_S));
    FILE *in = fdopen(p->report, "r");
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while (in && (n = getline(&line, &cap, in)) > 0) {
        line[n - (line[n - 1] == '\n')] = '\0';
        int i = atoi(line);
        const char *space = strchr(line, ' ');
        if (i >= 0 && i < SAN_FOLDERS && space && !p->builds.problem[i])
            p->builds.problem[i] = xstrdup(space + 1);
    }
    free(line);
    if (in)
        fclose(in);
    else
        close(p->report);
    p->report = -1;
    int status = 0;
    pid_t w;
    while ((w = waitpid(p->pid, &status, 0)) < 0 && errno == EINTR)
        ;
    p->pid = 0;
    if (w < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
        if (!p->builds.problem[EMU_CHECKED])
            p->builds.problem[EMU_CHECKED] = xasprintf("the process building the emulator's %s build ended "
                                                       "without saying how it went (%s %d)",
                                                       emu_build_names[EMU_CHECKED],
                                                       WIFEXITED(status) ? "exit status" : "signal",
                                                       WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
}

void sanitize_prebuild_free(sanitize_prebuild *p, int keep)
{
    sanitize_prebuild_wait(p);
    sanitize_builds_free(&p->builds, keep);
}

/* The checked build linked again with --list-faults, in its own folder. */
static void build_fault_list(const lab_manifest *m, const backend *b, sanitize_builds *sb)
{
    sb->folder[EMU_FAULTS] = make_temp_dir("gpulab");
    if (sb->problem[EMU_CHECKED]) {
        sb->problem[EMU_FAULTS] = xasprintf("the emulator's %s build failed", emu_build_names[EMU_FAULTS]);
        return;
    }
    build_result r;
    build_checker_relink(m, b, sb->folder[EMU_CHECKED], sb->folder[EMU_FAULTS], 1, &r);
    if (!r.ok)
        sb->problem[EMU_FAULTS] = xasprintf("the emulator's %s build failed: %s", emu_build_names[EMU_FAULTS],
                                            r.message ? r.message : "?");
    build_result_free(&r);
}

/* compute-sanitizer on the PATH, else beside nvcc; NULL when neither. */
static char *find_compute_sanitizer(const backend *be)
{
    char *tool = find_in_path("compute-sanitizer");
    const char *slash = strrchr(be->compiler, '/');
    if (!tool && slash) {
        tool = xasprintf("%.*s/compute-sanitizer", (int)(slash - be->compiler), be->compiler);
        if (!is_executable(tool)) {
            free(tool);
            tool = NULL;
        }
    }
    return tool;
}

/* A GPU's: the grading build linked again without guard zones, a copy of
 * it in each tool's folder (they run at once); nothing without the tool. */
static void build_gpu_checkers(const lab_manifest *m, const backend *b, const char *workdir, sanitize_builds *sb)
{
    char *tool = find_compute_sanitizer(b);
    int found = tool != NULL;
    free(tool);
    if (!found)
        return; /* sanitize_collect() says so */
    for (int t = TOOL_MEMCHECK; t <= TOOL_HAZARDS; t++)
        sb->folder[t] = make_temp_dir("gpulab");
    build_result r;
    build_checker_relink(m, b, workdir, sb->folder[TOOL_MEMCHECK], 0, &r);
    for (int t = TOOL_RACECHECK; t <= TOOL_HAZARDS && r.ok; t++) {
        char *dir = xasprintf("%s/build", sb->folder[t]);
        char *copy = build_program_path(sb->folder[t]);
        if (make_dirs(dir) != 0 || copy_file(r.program, copy) != 0 || chmod(copy, 0755) != 0)
            die("cannot copy %s to %s: %s", r.program, copy, strerror(errno));
        free(dir);
        free(copy);
    }
    for (int t = TOOL_MEMCHECK; t <= TOOL_HAZARDS && !r.ok; t++)
        sb->problem[t] = xasprintf("the checkers' build failed: %s", r.message ? r.message : "?");
    build_result_free(&r);
}

void sanitize_build(const lab_manifest *m, const backend *b, const char *student_file, const char *workdir,
                    int want_faults, sanitize_prebuild *pre, sanitize_builds *sb)
{
    memset(sb, 0, sizeof *sb);
    if (b->kind != BACKEND_EMU) {
        build_gpu_checkers(m, b, workdir, sb);
        return;
    }
    sanitize_prebuild now;
    if (!pre || !pre->builds.folder[EMU_CHECKED]) { /* not started beside the grading build: now */
        sanitize_prebuild_start(m, b, student_file, 1, &now);
        pre = &now;
    }
    sanitize_prebuild_wait(pre);
    *sb = pre->builds; /* the folders are sb's now */
    memset(&pre->builds, 0, sizeof pre->builds);
    if (want_faults)
        build_fault_list(m, b, sb);
}


const char *sanitize_builds_problem(const sanitize_builds *sb)
{
    for (int i = 0; i < SAN_FOLDERS; i++)
        if (sb->problem[i])
            return sb->problem[i];
    return NULL;
}

int sanitize_source_facts(const sanitize_builds *sb, int *shared_accumulations)
{
    if (!sb->folder[EMU_CHECKED] || sb->problem[EMU_CHECKED])
        return 0;
    kernel_evidence e;
    memset(&e, 0, sizeof e);
    char *facts = build_facts_path(sb->folder[EMU_CHECKED]);
    evidence_from_emu_facts(facts, &e);
    free(facts);
    if (!e.static_known || e.static_shared_accumulations < 0)
        return 0;
    *shared_accumulations = e.static_shared_accumulations;
    return 1;
}

int sanitize_builds_complete(const sanitize_builds *sb)
{
    return sanitize_builds_problem(sb) == NULL;
}

void sanitize_builds_free(sanitize_builds *sb, int keep)
{
    for (int i = 0; i < SAN_FOLDERS; i++) {
        if (sb->folder[i] && keep)
            fprintf(stderr, "gpulab: kept the checkers' folder %s\n", sb->folder[i]);
        else if (sb->folder[i])
            remove_work_dir(sb->folder[i]);
        free(sb->folder[i]);
        free(sb->problem[i]);
    }
    memset(sb, 0, sizeof *sb);
}

/* ---- the checkers' runs -------------------------------------------------------- */

/* What a checker's run of a dataset is called in its folder. */
typedef struct {
    char *program, *dir, *log, *log_env;
} checker_paths;

static void checker_paths_init(checker_paths *c, const char *folder, const char *dataset)
{
    c->program = build_program_path(folder);
    c->dir = run_dir_for(folder, dataset);
    c->log = run_log_for(folder, dataset);
    c->log_env = xasprintf("GPULAB_EMU_LOG=%s", c->log);
}

static void checker_paths_free(checker_paths *c)
{
    free(c->program);
    free(c->dir);
    free(c->log);
    free(c->log_env);
}

/* A checker run's start-up limit: the graded run's, and as long again for
 * the checker's own (compute-sanitizer's is seconds), never more with the
 * checkers' time limit: a constructor that sleeps only under a checker
 * costs this, not ten times the lab's limit. */
#define CHECKER_STARTUP_S (2 * RUN_STARTUP_S)

/* Runs one checker (argv: the checker and the lab program's arguments) on a
 * fresh copy of the dataset's inputs in dir, sandboxed like every run of
 * student code, with env_add (the emulator's launch log, as a graded run
 * has it) or none; capture: how much of each of its outputs to keep.
 * Checkers are slow: ten times the lab's limit, two minutes at least, from
 * when the program is ready, which it says as in a graded run (process.h),
 * so that it cannot tell the runs apart; start-up: CHECKER_STARTUP_S. */
static void run_checker(const char *const *argv, const char *dataset_dir, const char *dir, double timeout_s,
                        const char *const *env_add, size_t capture, proc_result *p)
{
    run_prepare_dir(dataset_dir, dir);
    double limit = timeout_s * 10 > 120 ? timeout_s * 10 : 120;
    proc_spec spec = { argv, dir, env_add, limit, capture, 1LL << 30, 0, CHECKER_STARTUP_S, 0, LAB_READY_ENV,
                       LAB_KEPT_LINES };
    proc_run_sandboxed(&spec, p);
}

/* Why a checker's run gave nothing: "did not finish in time", ... */
static char *checker_run_problem(const proc_result *pr)
{
    if (!pr->started)
        return xstrdup("could not be started");
    if (pr->never_ready)
        return xasprintf("was not ready for its dataset within %g s (a graded run has %g s), and was stopped",
                         (double)CHECKER_STARTUP_S, (double)RUN_STARTUP_S);
    return xstrdup("did not finish in time");
}

/* A checker run in a child of the grader, which leaves what the checker
 * printed, and how it ended, in files beside its run directory. */
typedef struct {
    pid_t pid;              /* -1: no child (fork failed): ran in place */
    char *out, *err, *end;  /* the files */
    proc_result in_place;
} checker_job;

static void checker_start(checker_job *j, const char *const *argv, const char *dataset_dir, const char *dir,
                          double timeout_s, const char *const *env_add, size_t capture)
{
    memset(j, 0, sizeof *j);
    j->out = xasprintf("%s.stdout", dir);
    j->err = xasprintf("%s.stderr", dir);
    j->end = xasprintf("%s.end", dir);
    j->pid = fork_flushed();
    if (j->pid == 0) {
        proc_result p;
        run_checker(argv, dataset_dir, dir, timeout_s, env_add, capture, &p);
        char end[64];
        int n = snprintf(end, sizeof end, "%d %d %d\n", p.started, p.timed_out, p.never_ready);
        int bad = write_file_atomic(j->out, p.out_text ? p.out_text : "", p.out_text ? strlen(p.out_text) : 0) ||
                  write_file_atomic(j->err, p.err_text ? p.err_text : "", p.err_text ? strlen(p.err_text) : 0) ||
                  write_file_atomic(j->end, end, (size_t)n);
        _exit(bad ? 1 : 0);
    }
    if (j->pid < 0) /* no child: run it here, one after the other */
        run_checker(argv, dataset_dir, dir, timeout_s, env_add, capture, &j->in_place);
}

static void checker_finish(checker_job *j, proc_result *p)
{
    memset(p, 0, sizeof *p);
    if (j->pid < 0) {
        *p = j->in_place;
    } else {
        int status;
        while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
            ;
        char *end = read_file(j->end, NULL);
        if (end && sscanf(end, "%d %d %d", &p->started, &p->timed_out, &p->never_ready) == 3) {
            p->out_text = read_file(j->out, NULL);
            p->err_text = read_file(j->err, NULL);
        }
        free(end);
        if (!p->out_text)
            p->out_text = xstrdup("");
        if (!p->err_text)
            p->err_text = xstrdup("");
    }
    free(j->out);
    free(j->err);
    free(j->end);
}

/* One line of the emulator's fault list (in its launch log). */
static void read_fault_line(const cJSON *o, fault_threads *f)
{
    const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
    if (!cJSON_IsString(ev))
        return;
    if (strcmp(ev->valuestring, "fault_launch") == 0) {
        const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kernel");
        if (f->exact) /* one launch faults: a later one is refused by the sticky error */
            return;
        if (json_triple(o, "grid", f->grid) == 0 && json_triple(o, "block", f->block) == 0)
            f->exact = 1;
        snprintf(f->kernel, sizeof f->kernel, "%s", cJSON_IsString(k) ? k->valuestring : "?");
    } else if (strcmp(ev->valuestring, "fault") == 0) {
        unsigned blk[3], thr[3];
        if (json_triple(o, "block", blk) == 0 && json_triple(o, "thread", thr) == 0 &&
            fault_threads_add(f, blk, thr) != 0)
            f->incomplete = 1;
    } else if (strcmp(ev->valuestring, "fault_stopped") == 0) {
        f->incomplete = 1;
    }
}

void sanitize_read_emu_faults(const char *path, sanitize_result *r)
{
    char *text = read_file(path, NULL);
    if (!text)
        return;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(line);
        if (o)
            read_fault_line(o, &r->faults);
        cJSON_Delete(o);
    }
    free(text);
    if (!r->faults.exact) {
        /* threads without their launch's line: nothing to lay them out in */
        fault_threads_free(&r->faults);
        return;
    }
    faults_finish(r);
}

int sanitize_draw_fault_map(sanitize_result *r, const char *ppm_path)
{
    if (r->faults.n == 0 || errormap_write_faults(ppm_path, &r->faults) != 0)
        return -1;
    snprintf(r->fault_map, sizeof r->fault_map, "%s", ppm_path);
    return 0;
}

/* A dataset's checker runs between sanitize_start() and sanitize_collect(). */
struct sanitize_pending {
    int emu;                      /* the emulator's checked build, else compute-sanitizer's three tools */
    int want;                     /* emu: fault lists; GPU: the race map's hazards */
    const sanitize_builds *sb;
    char *dataset_dir, *dataset;
    double timeout_s;
    char *tool;                   /* GPU: compute-sanitizer */
    char *problem;                /* set before any run started: why none could */
    int n;                        /* runs */
    int which[3];                 /* emu: the build (EMU_*); GPU: the tool's index */
    int started[3];
    checker_job jobs[3];
    checker_paths paths[3];
    char *why_not[3];             /* a run that could not be started: why */
};

static const char *const gpu_tools[] = { "memcheck", "racecheck", "synccheck" };

static void start_emu(sanitize_pending *p)
{
    /* One run: the checked build sees races and invalid accesses alike;
     * the fault list's build when a fault map is wanted. */
    int k = p->which[0] = p->want ? EMU_FAULTS : EMU_CHECKED;
    p->n = 1;
    if (!p->sb->folder[k] || p->sb->problem[k]) {
        p->why_not[0] = xstrdup(p->sb->problem[k] ? p->sb->problem[k] : "the emulator's checking build was not made");
        return;
    }
    checker_paths_init(&p->paths[0], p->sb->folder[k], p->dataset);
    const char *argv[] = { p->paths[0].program, ".", "output.tensor", NULL };
    const char *env[] = { p->paths[0].log_env, NULL };
    checker_start(&p->jobs[0], argv, p->dataset_dir, p->paths[0].dir, p->timeout_s, env, SAN_CAPTURE);
    p->started[0] = 1;
}

static void collect_emu(sanitize_pending *p, const char *student_file, sanitize_result *r)
{
    for (int i = 0; i < p->n; i++) {
        int k = p->which[i];
        if (!p->started[i]) {
            r->ran = 0;
            free(r->problem);
            r->problem = p->why_not[i];
            p->why_not[i] = NULL;
            continue;
        }
        proc_result pr;
        checker_finish(&p->jobs[i], &pr);
        if (!pr.started || pr.timed_out) {
            r->ran = 0;
            free(r->problem);
            char *why = checker_run_problem(&pr);
            r->problem = xasprintf("the emulator's %s run %s", emu_build_names[k], why);
            free(why);
        }
        sanitize_parse_emu(pr.err_text, student_file, r);
        counts_read_emu_log(p->paths[i].log, &r->counts);
        if (!r->launch.known && !r->copy.known)
            launches_read_emu_log(p->paths[i].log, student_file, &r->launch, &r->copy);
        tiles_read_emu_log(p->paths[i].log, &r->tiles);
        if (k == EMU_FAULTS)
            sanitize_read_emu_faults(p->paths[i].log, r);
        proc_result_free(&pr);
        checker_paths_free(&p->paths[i]);
    }
}

/* " Read Thread (x,y,z) at KERNEL(...)+0x.. in FILE:LINE": the thread, and
 * the kernel's name (up to its parameter list). */
static int hazard_thread(const char *line, unsigned thr[3], char *kernel, size_t klen)
{
    const char *p = strstr(line, "Read Thread (");
    if (!p)
        p = strstr(line, "Write Thread (");
    int x, y, z;
    if (!p || sscanf(strchr(p, '('), "(%d,%d,%d)", &x, &y, &z) != 3 || x < 0 || y < 0 || z < 0)
        return -1;
    thr[0] = (unsigned)x, thr[1] = (unsigned)y, thr[2] = (unsigned)z;
    const char *at = strstr(p, ") at ");
    kernel[0] = '\0';
    if (at) {
        at += 5;
        size_t n = strcspn(at, "(+ ");
        snprintf(kernel, klen, "%.*s", (int)(n < klen ? n : klen - 1), at);
    }
    return 0;
}

void sanitize_parse_hazards(const char *text, sanitize_result *r)
{
    fault_threads *races = &r->races;
    unsigned blk[3] = { 0, 0, 0 };
    int in_hazard = 0;
    for (const char *line = text; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *copy = xasprintf("%.*s", (int)n, line);
        const char *h = strstr(copy, "hazard detected at __shared__");
        const char *b = h ? strstr(h, " in block (") : NULL;
        int bx, by, bz;
        unsigned thr[3];
        char kernel[128];
        if (b && sscanf(b, " in block (%d,%d,%d)", &bx, &by, &bz) == 3 && bx >= 0 && by >= 0 && bz >= 0) {
            blk[0] = (unsigned)bx, blk[1] = (unsigned)by, blk[2] = (unsigned)bz;
            in_hazard = 1;
        } else if (in_hazard && hazard_thread(copy, thr, kernel, sizeof kernel) == 0) {
            /* the first kernel with a hazard is the one drawn */
            if (races->n == 0 && kernel[0])
                snprintf(races->kernel, sizeof races->kernel, "%s", kernel);
            if (!kernel[0] || strcmp(kernel, races->kernel) == 0)
                if (fault_threads_add(races, blk, thr) != 0)
                    races->incomplete = 1;
        } else if (strstr(copy, "Saved host backtrace") || strstr(copy, "SUMMARY")) {
            in_hazard = 0;
        }
        if (strstr(copy, "RACECHECK SUMMARY") && strstr(copy, "hazards displayed")) {
            /* "N hazards displayed (E errors, W warnings)": fewer shown than found */
            long shown = 0, errors = 0, warnings = 0;
            const char *sum = strstr(copy, "SUMMARY:");
            if (sum && sscanf(sum, "SUMMARY: %ld hazards displayed (%ld errors, %ld warnings)", &shown, &errors,
                              &warnings) == 3 && shown < errors + warnings)
                races->incomplete = 1;
        }
        free(copy);
        line = end ? end + 1 : NULL;
    }
    if (races->n) {
        fault_threads_finish(races);
        free(r->race_summary);
        r->race_summary = diagnose_races(races);
    }
}

int sanitize_draw_race_map(sanitize_result *r, const char *ppm_path)
{
    if (r->races.n == 0 || errormap_write_faults(ppm_path, &r->races) != 0)
        return -1;
    snprintf(r->race_map, sizeof r->race_map, "%s", ppm_path);
    return 0;
}

/* Racecheck once more, every hazard printed (up to the print limit), for the
 * race map: which threads of which blocks raced. */
static void collect_races(const char *tool, const sanitize_builds *sb, const char *dataset_dir, const char *dataset,
                          double timeout_s, sanitize_result *r)
{
    checker_paths c;
    checker_paths_init(&c, sb->folder[TOOL_HAZARDS], dataset);
    const char *argv[] = { tool, "--tool", "racecheck", "--racecheck-report", "hazard", "--print-limit",
                           MEMCHECK_PRINT_LIMIT, c.program, ".", "output.tensor", NULL };
    proc_result p;
    run_checker(argv, dataset_dir, c.dir, timeout_s, NULL, MEMCHECK_CAPTURE, &p);
    if (p.started && !p.timed_out) {
        if (p.out_dropped || p.err_dropped)
            r->races.incomplete = 1;
        sanitize_parse_hazards(p.out_text, r);
        sanitize_parse_hazards(p.err_text, r);
    }
    proc_result_free(&p);
    checker_paths_free(&c);
}

void sanitize_races_on_gpu(const lab_manifest *m, const backend *gpu, const char *workdir, const char *dataset_dir,
                           const char *dataset, double timeout_s, sanitize_result *r)
{
    char *tool = find_compute_sanitizer(gpu);
    if (!tool)
        return;
    sanitize_builds sb;
    memset(&sb, 0, sizeof sb);
    sb.folder[TOOL_HAZARDS] = make_temp_dir("gpulab");
    build_result br;
    build_checker_relink(m, gpu, workdir, sb.folder[TOOL_HAZARDS], 0, &br);
    if (br.ok)
        collect_races(tool, &sb, dataset_dir, dataset, timeout_s, r);
    build_result_free(&br);
    sanitize_builds_free(&sb, 0);
    free(tool);
}

static void start_gpu(sanitize_pending *p, const backend *be)
{
    p->tool = find_compute_sanitizer(be);
    if (!p->tool) {
        p->problem = xstrdup("compute-sanitizer is not installed");
        return;
    }
    const sanitize_builds *sb = p->sb;
    if (!sb->folder[TOOL_MEMCHECK] || sb->problem[TOOL_MEMCHECK]) {
        p->problem = xstrdup(sb->problem[TOOL_MEMCHECK] ? sb->problem[TOOL_MEMCHECK]
                                                        : "the checkers' build was not made");
        return;
    }
    /* The three tools at once, each in a child of the grader: they are
     * independent, and most of their time is instrumentation on the CPU. */
    p->n = 3;
    for (int t = 0; t < 3; t++) {
        checker_paths *c = &p->paths[t];
        p->which[t] = t;
        checker_paths_init(c, sb->folder[TOOL_MEMCHECK + t], p->dataset);
        /* memcheck names every faulting thread, one record each: let enough
         * of them through for the fault map */
        int memcheck = t == 0;
        const char *argv[] = { p->tool, "--tool", gpu_tools[t], "--print-limit", memcheck ? MEMCHECK_PRINT_LIMIT : "32",
                               c->program, ".", "output.tensor", NULL };
        checker_start(&p->jobs[t], argv, p->dataset_dir, c->dir, p->timeout_s, NULL,
                      memcheck ? MEMCHECK_CAPTURE : SAN_CAPTURE);
        p->started[t] = 1;
    }
}

static void collect_gpu(sanitize_pending *p, const char *student_file, sanitize_result *r)
{
    for (int t = 0; t < p->n; t++) {
        proc_result pr;
        checker_finish(&p->jobs[t], &pr);
        if (!pr.started || pr.timed_out) {
            r->ran = 0;
            free(r->problem);
            char *why = checker_run_problem(&pr);
            r->problem = xasprintf("compute-sanitizer --tool %s %s", gpu_tools[t], why);
            free(why);
        }
        sanitize_parse_compute_sanitizer(pr.err_text, student_file, r);
        sanitize_parse_compute_sanitizer(pr.out_text, student_file, r);
        proc_result_free(&pr);
        checker_paths_free(&p->paths[t]);
    }
    if (p->want && sanitize_has_race(r))
        collect_races(p->tool, p->sb, p->dataset_dir, p->dataset, p->timeout_s, r);
}

sanitize_pending *sanitize_start(const backend *be, const sanitize_builds *sb, const char *dataset_dir,
                                 const char *dataset, double timeout_s, int want)
{
    sanitize_pending *p = xcalloc(1, sizeof *p);
    p->emu = be->kind != BACKEND_GPU;
    p->want = want;
    p->sb = sb;
    p->dataset_dir = xstrdup(dataset_dir);
    p->dataset = xstrdup(dataset);
    p->timeout_s = timeout_s;
    if (p->emu)
        start_emu(p);
    else
        start_gpu(p, be);
    return p;
}

void sanitize_collect(sanitize_pending *p, const char *student_file, sanitize_result *r)
{
    /* what the caller set before: the lab's header, for the source's values */
    char header[sizeof r->lab_header];
    snprintf(header, sizeof header, "%s", r->lab_header);
    memset(r, 0, sizeof *r);
    snprintf(r->lab_header, sizeof r->lab_header, "%s", header);
    if (p->problem) {
        r->problem = p->problem;
        p->problem = NULL;
    } else {
        r->ran = 1;
        if (p->emu)
            collect_emu(p, student_file, r);
        else
            collect_gpu(p, student_file, r);
    }
    for (int i = 0; i < 3; i++)
        free(p->why_not[i]);
    free(p->tool);
    free(p->dataset_dir);
    free(p->dataset);
    free(p);
}

/* ---- every dataset: the bounds check and unset memory, in series ---------------------
 *
 * The full checks (races, counts, tile snapshots) run on the few datasets
 * grade.c chooses; a mistake in bounds can show on one shape alone (an M
 * load tested against the wrong size reads past M only where k < l), so
 * the checked build also runs every other dataset, one process for all of
 * them, as the graded series does (run_series: the same arguments and
 * folders), with GPULAB_EMU_CHECKS=bounds: bounds and device memory
 * nothing stored on every access, no race shadow (docs/emulator.md). A
 * dataset that ends the process (an invalid access is a fault: the CUDA
 * error is sticky) has its findings from what it printed; the next series
 * starts after it. A series that runs out of time leaves the datasets it
 * did not finish unchecked. The series records no kernel tests (bounds:
 * their bookkeeping was 40% of its time); a dataset whose series found
 * anything but a read of memory nothing stored runs again alone with them
 * (series_guard_words), so its findings say which test let the thread
 * through, as a full check's do: only a file with the mistake pays it.
 *
 * A large grid runs only its edge there (GPULAB_EMU_BLOCKS=edge: the
 * blocks within a block of the border, and the centre one; a grid of at
 * most 64 blocks runs whole; docs/emulator.md says why that finds what
 * the whole grid would): lab 02's 512 x 512 product ran 3 to 3.5 s of CPU
 * under the bounds check, most of the series. Its output is then no
 * result, and nothing reads it: the series keeps only what the checks
 * printed, and the rerun that judges a read of memory nothing stored by
 * the output (sanitize_unset_reaches_output) runs every block. */
#define SERIES_BLOCKS "GPULAB_EMU_BLOCKS=edge"

static int beyond_unset_reads(const sanitize_result *r)
{
    for (int k = 0; k < r->nfindings; k++)
        if (strcmp(r->findings[k].kind, "uninitialised") != 0)
            return 1;
    return 0;
}

static void series_guard_words(const char *program, const char *folder, const char *dataset_dir, int index,
                               double timeout_s, const char *student_file, sanitize_result *r)
{
    char *name = xasprintf("guards-%d", index);
    char *dir = run_dir_for(folder, name);
    const char *env[] = { "GPULAB_EMU_CHECKS=bounds-guards", SERIES_BLOCKS, NULL };
    run_request q = { timeout_s, env, 0, student_file };
    run_result run;
    run_program(program, dataset_dir, dir, &q, &run);
    sanitize_result again;
    memset(&again, 0, sizeof again);
    sanitize_parse_emu(run.proc.err_text, student_file, &again);
    /* the same run, so the same findings; kept only if it found them
     * again (a rerun that ran out of time leaves the series' own) */
    if (beyond_unset_reads(&again)) {
        again.ran = 1;
        again.from_series = 1;
        sanitize_result_free(r);
        *r = again;
    } else {
        sanitize_result_free(&again);
    }
    run_result_free(&run);
    free(dir);
    free(name);
}

/* What a series checks, in the words of a note on a dataset it did not
 * reach, and the emulator's mode for it */
static const struct {
    const char *env, *unchecked;
} series_modes[] = {
    [SERIES_BOUNDS] = { "GPULAB_EMU_CHECKS=bounds", "for reads past an array or of memory nothing stored" },
    [SERIES_RACES] = { "GPULAB_EMU_CHECKS=races", "for races" },
};

int sanitize_series(const sanitize_builds *sb, series_checks what, const char *const *dataset_dirs, int n,
                    double timeout_s, const char *student_file, sanitize_result *results)
{
    memset(results, 0, (size_t)n * sizeof *results);
    const char *folder = sb->folder[EMU_CHECKED];
    if (n == 0 || !folder || sb->problem[EMU_CHECKED])
        return 0;
    char *program = build_program_path(folder);
    run_result *runs = xcalloc((size_t)n, sizeof *runs);
    int checked = 0;
    /* timeout_s a dataset, for the whole: a series started again after a
     * dataset whose time ran out gets what is left, never more */
    double deadline = monotonic_s() + timeout_s * n;
    for (int start = 0, series = 1; start < n; series++) {
        int np = n - start;
        double left = deadline - monotonic_s();
        if (left < 1) {
            for (int j = start; j < n; j++) {
                char *note = xasprintf("the %s check's time ran out before this dataset: it was not checked %s",
                                       what == SERIES_RACES ? "race" : "bounds", series_modes[what].unchecked);
                sanitize_note_add(&results[j].notes, note);
                free(note);
            }
            break;
        }
        char *series_dir = xasprintf("%s/series-%d", folder, series);
        char *log = run_log_in(series_dir);
        char *log_env = xasprintf("GPULAB_EMU_LOG=%s", log);
        const char *env[] = { log_env, series_modes[what].env, SERIES_BLOCKS, NULL };
        run_request q = { left, env, 0, student_file };
        int timed_out = run_series(program, dataset_dirs + start, np, series_dir, &q, runs);
        int next = n;
        for (int j = 0; j < np; j++) {
            sanitize_result *r = &results[start + j];
            r->from_series = what == SERIES_RACES ? 2 : 1;
            if (runs[j].proc.started) {
                r->ran = 1;
                sanitize_parse_emu(runs[j].proc.err_text, student_file, r);
                checked++;
            } else {
                /* the dataset that ended the process: what it printed
                 * (its fault) is its finding. One whose time ran out was
                 * not checked, and the report says so (a note: it costs
                 * no points, a correct program can be slow under the
                 * checker); the series goes on after it, so that the
                 * datasets after it are checked all the same. */
                if (!timed_out && runs[j].proc.err_text) {
                    r->ran = 1;
                    sanitize_parse_emu(runs[j].proc.err_text, student_file, r);
                    checked++;
                } else if (timed_out) {
                    char *note = xasprintf("the %s check's time ran out during this dataset: it was not checked %s",
                                           what == SERIES_RACES ? "race" : "bounds",
                                           series_modes[what].unchecked);
                    sanitize_note_add(&r->notes, note);
                    free(note);
                }
                next = start + j + 1;
                break;
            }
        }
        for (int j = 0; j < np; j++)
            run_result_free(&runs[j]);
        memset(runs, 0, (size_t)n * sizeof *runs);
        /* the race series' findings are races, which no test explains */
        for (int j = start; j < next && j < n && what == SERIES_BOUNDS; j++)
            if (results[j].ran && beyond_unset_reads(&results[j]))
                series_guard_words(program, folder, dataset_dirs[j], j, timeout_s, student_file, &results[j]);
        free(series_dir);
        free(log);
        free(log_env);
        start = next;
    }
    free(runs);
    free(program);
    return checked;
}


/* ---- reads of memory nothing stored: do they reach the output? -----------------
 *
 * A read of device memory nothing stored is a mistake when its value can
 * change the output: a sum into a buffer nothing zeroed (P[i] += ...)
 * passes on a GPU whose fresh memory held 0. Many correct programs read
 * such memory and throw the value away: a scan's last block reads the
 * slots past the input's end into a shared array, whose sums reach only
 * slots nothing copies back. The checked build runs the dataset again
 * with fresh device memory filled two ways (GPULAB_EMU_FILL: NaN, whose
 * every use shows, and 1e9, a finite value a sum, a max or a test keeps):
 * a value that reaches the output makes one of them wrong. Both right:
 * the reads did not matter on this dataset, a note; either wrong, or a
 * run that did not end, they stay findings. */
static const char *const unset_fills[] = { "ffffffff", "4e6e6b28" };

int sanitize_unset_reaches_output(const sanitize_builds *sb, const lab_manifest *m, const char *dataset_dir,
                                  const char *dataset, double timeout_s, const char *student_file)
{
    const char *folder = sb->folder[EMU_CHECKED];
    if (!folder || sb->problem[EMU_CHECKED])
        return 1;
    char *program = build_program_path(folder);
    char *expected = xasprintf("%s/%s", dataset_dir, m->expected);
    int reaches = 0;
    for (size_t k = 0; k < sizeof unset_fills / sizeof *unset_fills && !reaches; k++) {
        char *name = xasprintf("fill-%s-%s", unset_fills[k], dataset);
        char *dir = run_dir_for(folder, name);
        char *fill = xasprintf("GPULAB_EMU_FILL=%s", unset_fills[k]);
        const char *env[] = { "GPULAB_EMU_CHECKS=bounds", fill, NULL };
        run_request q = { timeout_s, env, 0, student_file };
        run_result run;
        run_program(program, dataset_dir, dir, &q, &run);
        compare_result cmp;
        char *message = NULL;
        memset(&cmp, 0, sizeof cmp);
        reaches = run.status != ST_PASS ||
                  compare_output(run.output_path, expected, &m->tolerance, NULL, 0, &cmp, &message) != ST_PASS;
        free(message);
        run_result_free(&run);
        free(fill);
        free(dir);
        free(name);
    }
    free(expected);
    free(program);
    return reaches;
}

void sanitize_unset_to_notes(sanitize_result *r)
{
    int kept = 0;
    for (int i = 0; i < r->nfindings; i++) {
        finding *f = &r->findings[i];
        if (strcmp(f->kind, "uninitialised") != 0) {
            r->findings[kept++] = *f;
            continue;
        }
        /* the finding's sentence less its advice: what was read, and where */
        char *cut = strstr(f->message, unset_advice);
        size_t n = cut ? (size_t)(cut - f->message) : strlen(f->message);
        while (n > 0 && (f->message[n - 1] == ' ' || f->message[n - 1] == ':'))
            n--;
        char *note = xasprintf("%.*s; its value did not reach the output (right with that memory filled with NaN "
                               "and with 1e9): no points depend on it, but store what you read",
                               (int)n, f->message);
        sanitize_note_add(&r->notes, note);
        free(note);
        free(f->message);
    }
    r->nfindings = kept;
}
