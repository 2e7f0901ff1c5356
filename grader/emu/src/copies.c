/*
 * copies.c - the copies whose pitch or width
 * disagrees with the buffer they read or write, written to the launch log
 * (GPULAB_EMU_LOG) as "copy" lines, which the grader turns into a sentence
 * at the copy's line (docs/emulator.md). A copy the runtime refuses (a
 * pointer that is not device memory, a range past an allocation's end) is
 * not here: it fails with its own error. These are the copies that run and
 * move the wrong bytes. Only the program's own copies (tls.copy_by_program)
 * are judged:
 *
 *   - cudaMemcpy2D with a device pitch other than the one cudaMallocPitch
 *     gave that buffer, or a host pitch other than the host image's own
 *     (known when the kit's harness describes its images:
 *     emu_note_host_rows_);
 *   - cudaMemcpy2D whose width is not the host image's row of pixels (or,
 *     without a described host image, the pitched buffer's);
 *   - cudaMemcpy of a pitched image (rows with padding) in one block;
 *   - cudaMemcpy that moves only part of a buffer (below).
 */

#include "rt_int.h"

/* The host images the harness described: their rows. */
#define HOST_IMAGES_KEPT 16
typedef struct {
    const char *base;
    size_t pitch, row_bytes, rows;
    char name[64];
} host_rows;

/* Copies logged in this process: the first few say what is wrong. */
#define COPY_NOTES_MAX 8

static struct {
    host_rows host_images[HOST_IMAGES_KEPT];
    size_t nhost_images;
    int notes; /* copies logged */
} copy_log;

void emu_note_host_rows_(const void *base, size_t pitch, size_t row_bytes, size_t rows, const char *name)
{
    if (!base || pitch == 0 || rows == 0)
        return;
    pthread_mutex_lock(&rt.lock);
    size_t i = 0;
    while (i < copy_log.nhost_images && copy_log.host_images[i].base != (const char *)base)
        i++;
    if (i == copy_log.nhost_images)
        i = copy_log.nhost_images < HOST_IMAGES_KEPT ? copy_log.nhost_images++ : HOST_IMAGES_KEPT - 1;
    host_rows *h = &copy_log.host_images[i];
    h->base = base;
    h->pitch = pitch;
    h->row_bytes = row_bytes;
    h->rows = rows;
    snprintf(h->name, sizeof h->name, "%s", name ? name : "");
    pthread_mutex_unlock(&rt.lock);
}

/* The described host image whose bytes hold p, or NULL. Caller holds rt.lock. */
static const host_rows *host_image_at(const void *p)
{
    const char *c = p;
    for (size_t i = 0; i < copy_log.nhost_images; i++) {
        const host_rows *h = &copy_log.host_images[i];
        if (c >= h->base && c < h->base + h->pitch * h->rows)
            return h;
    }
    return NULL;
}

int host_image_shape(const void *p, size_t *rows, size_t *row_bytes)
{
    const host_rows *h = host_image_at(p);
    if (!h)
        return 0;
    *rows = h->rows;
    *row_bytes = h->row_bytes;
    return 1;
}

/* The cudaMallocPitch allocation that holds p, or NULL. Caller holds rt.lock. */
static const alloc *pitched_at(const void *p)
{
    const alloc *a = find_alloc(p, 1);
    return a && a->pitched && a->pitch ? a : NULL;
}

/* What one "copy" line says: the argument that disagrees, the value given,
 * the value the buffer has (expected), and for a buffer with rows, the
 * bytes of a row's pixels. */
typedef struct {
    const char *what;       /* host_pitch, device_pitch, host_width, device_width, pitched_1d,
                               pitches_swapped (given: spitch, expected: the source's pitch,
                               row_bytes: dpitch as given), extent_swapped (given: width, expected:
                               the image's row of pixels in bytes, row_bytes: its rows) */
    const char *argument;   /* spitch, dpitch, width, count */
    size_t given, expected, row_bytes;
    char name[64];          /* the host image's name, or "" */
} copy_note;

static void log_copy(const char *call, void *caller, const copy_note *n)
{
    pthread_mutex_lock(&rt.lock);
    int full = copy_log.notes >= COPY_NOTES_MAX;
    if (!full)
        copy_log.notes++;
    pthread_mutex_unlock(&rt.lock);
    if (full)
        return;
    FILE *f = log_open();
    if (!f)
        return;
    char at[512];
    fputs("{\"event\":\"copy\",\"call\":", f);
    json_str(f, call);
    fputs(",\"where\":", f);
    json_str(f, caller_line(caller, at, sizeof at));
    fputs(",\"what\":", f);
    json_str(f, n->what);
    fputs(",\"argument\":", f);
    json_str(f, n->argument);
    fprintf(f, ",\"given\":%zu,\"expected\":%zu,\"row_bytes\":%zu,\"name\":", n->given, n->expected, n->row_bytes);
    json_str(f, n->name);
    fputs("}\n", f);
    fclose(f);
}

/* One side of a 2D copy: p at `pitch` (the argument named arg), device
 * memory or host. Fills n and returns 1 when the pitch disagrees with the
 * buffer's. Caller holds rt.lock. */
static int side_pitch(const void *p, size_t pitch, int device, const char *arg, copy_note *n)
{
    const alloc *a = device ? pitched_at(p) : NULL;
    const host_rows *h = device ? NULL : host_image_at(p);
    if (a && pitch != a->pitch) {
        *n = (copy_note){ "device_pitch", arg, pitch, a->pitch, a->row_bytes, "" };
        return 1;
    }
    if (h && pitch != h->pitch) {
        *n = (copy_note){ "host_pitch", arg, pitch, h->pitch, h->row_bytes, "" };
        snprintf(n->name, sizeof n->name, "%s", h->name);
        return 1;
    }
    return 0;
}

/* The pitch of the buffer at p (a pitched device one, a host image's), or
 * 0 when neither is known. Caller holds rt.lock. */
static size_t known_pitch(const void *p, int device)
{
    const alloc *a = device ? pitched_at(p) : NULL;
    const host_rows *h = device ? NULL : host_image_at(p);
    return a ? a->pitch : h ? h->pitch : 0;
}

/* A 2D copy whose two pitches are each the other side's (spitch the
 * destination's, dpitch the source's, the two different): the arguments
 * swapped, said as that rather than as one wrong pitch. Caller holds
 * rt.lock. */
static int pitches_swapped(const void *dst, size_t dpitch, int dd, const void *src, size_t spitch, int sd,
                           copy_note *n)
{
    size_t dp = known_pitch(dst, dd), sp = known_pitch(src, sd);
    if (!dp || !sp || dp == sp || spitch != dp || dpitch != sp)
        return 0;
    const host_rows *h = !sd ? host_image_at(src) : !dd ? host_image_at(dst) : NULL;
    *n = (copy_note){ "pitches_swapped", "spitch", spitch, sp, dpitch, "" };
    if (h)
        snprintf(n->name, sizeof n->name, "%s", h->name);
    return 1;
}

/* The width of a 2D copy against the host image's row of pixels, or
 * without one, the pitched buffer's; a width that is the image's count of
 * rows where its height is the bytes of a row is the two given the other
 * way round. Caller holds rt.lock. */
static int copy_width(const void *dst, int dd, const void *src, int sd, size_t width, size_t height, copy_note *n)
{
    const host_rows *h = !dd ? host_image_at(dst) : !sd ? host_image_at(src) : NULL;
    if (h) {
        if (width == h->row_bytes)
            return 0;
        if (width == h->rows && height == h->row_bytes) {
            *n = (copy_note){ "extent_swapped", "width", width, h->row_bytes, h->rows, "" };
            snprintf(n->name, sizeof n->name, "%s", h->name);
            return 1;
        }
        *n = (copy_note){ "host_width", "width", width, h->row_bytes, h->row_bytes, "" };
        snprintf(n->name, sizeof n->name, "%s", h->name);
        return 1;
    }
    const alloc *a = dd ? pitched_at(dst) : sd ? pitched_at(src) : NULL;
    if (a && width != a->row_bytes) {
        *n = (copy_note){ "device_width", "width", width, a->row_bytes, a->row_bytes, "" };
        return 1;
    }
    return 0;
}

/* A cudaMemcpy2D that the runtime accepted: logs the first of its
 * arguments that disagrees with a buffer. dd, sd: whether each side is
 * device memory. */
void check_copy_2d(void *caller, void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                   size_t height, int dd, int sd)
{
    if (!tls.copy_by_program)
        return;
    copy_note n;
    pthread_mutex_lock(&rt.lock);
    int found = pitches_swapped(dst, dpitch, dd, src, spitch, sd, &n) || side_pitch(src, spitch, sd, "spitch", &n) ||
                side_pitch(dst, dpitch, dd, "dpitch", &n) ||
                copy_width(dst, dd, src, sd, width, height, &n);
    pthread_mutex_unlock(&rt.lock);
    if (found)
        log_copy("cudaMemcpy2D", caller, &n);
}

/* A cudaMemcpy of count bytes that the runtime accepted: one whose side is
 * a pitched image (rows with padding) copies pixels and padding as one
 * block, and the rows land at the wrong places. Unless it moves the image
 * whole, padding and all (a host image's every row; a pitched buffer's
 * whole rows), which a kernel that indexes by that pitch may want. */
void check_copy_1d(void *caller, void *dst, const void *src, size_t count, int dd, int sd)
{
    if (!tls.copy_by_program)
        return;
    copy_note n;
    int found = 0;
    pthread_mutex_lock(&rt.lock);
    for (int side = 0; side < 2 && !found; side++) {
        const void *p = side == 0 ? src : dst;
        int device = side == 0 ? sd : dd;
        const alloc *a = device ? pitched_at(p) : NULL;
        const host_rows *h = device ? NULL : host_image_at(p);
        if (a && a->pitch != a->row_bytes && count % a->pitch != 0) {
            n = (copy_note){ "pitched_1d", "count", count, a->pitch, a->row_bytes, "" };
            found = 1;
        } else if (h && h->pitch != h->row_bytes && count != h->pitch * h->rows) {
            n = (copy_note){ "pitched_1d", "count", count, h->pitch, h->row_bytes, "" };
            snprintf(n.name, sizeof n.name, "%s", h->name);
            found = 1;
        }
    }
    pthread_mutex_unlock(&rt.lock);
    if (found)
        log_copy("cudaMemcpy", caller, &n);
}

/* ---- copies that move too few bytes ---------------------------------------------
 *
 * A cudaMemcpy into a device buffer that fills only its first bytes (the
 * count in floats, not bytes: sizeof forgotten) leaves the rest as fresh
 * memory (NaN) for the kernel to read; one back that copies only part of
 * a buffer leaves the rest of the host's array unwritten. Neither can be
 * told at the copy: a second copy may do the rest. So each buffer keeps
 * the ranges the host side wrote into it (cudaMemset, copies: the kit's
 * guard zones too) and the ones the program's copies read back, and the
 * judgement waits: a copy in is judged when a kernel is launched, a copy
 * back when the buffer is freed. The bytes the copy should have moved are
 * those up to the next range the host wrote (a guard zone), or the end. */

#define RANGES_KEPT ((int)(sizeof(((alloc *)0)->written) / sizeof(((alloc *)0)->written[0])))

/* Adds [lo, hi) to the ranges, merging those it touches; past RANGES_KEPT
 * disjoint ranges a new one is dropped (the judgement then errs towards
 * saying nothing). */
static void add_range(struct byte_range *r, int *n, size_t lo, size_t hi)
{
    for (int i = 0; i < *n;) {
        if (r[i].lo <= hi && lo <= r[i].hi) {
            lo = r[i].lo < lo ? r[i].lo : lo;
            hi = r[i].hi > hi ? r[i].hi : hi;
            r[i] = r[--*n];
            i = 0;
        } else {
            i++;
        }
    }
    if (*n < RANGES_KEPT)
        r[(*n)++] = (struct byte_range){ lo, hi };
}

/* The end of the range that holds byte `at`, or `at` when none does. */
static size_t covered_to(const struct byte_range *r, int n, size_t at)
{
    for (int i = 0; i < n; i++)
        if (r[i].lo <= at && at < r[i].hi)
            return r[i].hi;
    return at;
}

/* The start of the first range after `at`, else `end`. */
static size_t next_range(const struct byte_range *r, int n, size_t at, size_t end)
{
    for (int i = 0; i < n; i++)
        if (r[i].lo > at && r[i].lo < end)
            end = r[i].lo;
    return end;
}

void note_write(const void *p, size_t n)
{
    pthread_mutex_lock(&rt.lock);
    alloc *a = find_alloc(p, n);
    if (a && n) {
        size_t off = (size_t)((const char *)p - a->base);
        add_range(a->written, &a->nwritten, off, off + n);
    }
    pthread_mutex_unlock(&rt.lock);
}

/* A cudaMemcpy the runtime accepted: what it writes into device memory, and
 * for the program's own copies, the one in and the first back whose count
 * is judged later. */
/* A host buffer a kernel may not reach (rt.host_seen): one the harness
 * made for the student's code (name), or the host side of one of the
 * program's copies (caller, call, back), which names a buffer the harness
 * made too. Page-locked memory is left out (a kernel may read it). */
static void keep_host_side(const char *c, size_t n, void *caller, const char *call, int back, const char *name)
{
    pthread_mutex_lock(&rt.lock);
    int skip = 0;
    for (size_t i = 0; !skip && i < rt.npinned; i++)
        skip = c >= rt.pinned[i].base && c < rt.pinned[i].base + rt.pinned[i].size;
    for (size_t i = 0; !skip && i < rt.nhost_seen; i++) {
        struct host_side *h = &rt.host_seen[i];
        if (c < h->base || c >= h->base + h->size)
            continue;
        skip = 1;
        if (!h->caller && caller) /* the harness's buffer: now also the copy's */
            h->caller = caller, h->call = call, h->back = back;
    }
    if (!skip && rt.nhost_seen < HOST_SEEN_KEPT) {
        struct host_side *h = &rt.host_seen[rt.nhost_seen++];
        *h = (struct host_side){ c, n, caller, call, back, "" };
        snprintf(h->name, sizeof h->name, "%s", name ? name : "");
    }
    pthread_mutex_unlock(&rt.lock);
}

void note_host_side(void *caller, const char *call, const void *p, size_t n, int back)
{
    if (tls.copy_by_program && p && n)
        keep_host_side(p, n, caller, call, back, NULL);
}

/* A copy in of the program's into dst (host to device): the buffer's
 * first, which a kernel's store there later overwrites (unset.c). */
void note_filled(void *caller, const void *dst)
{
    if (!tls.copy_by_program)
        return;
    pthread_mutex_lock(&rt.lock);
    alloc *a = find_alloc(dst, 1);
    if (a && !a->filled_by)
        a->filled_by = caller;
    pthread_mutex_unlock(&rt.lock);
}

void emu_note_host_buffer_(const void *base, size_t size, const char *name)
{
    if (base && size)
        keep_host_side(base, size, NULL, NULL, 0, name);
}

/* The kept host buffer the n bytes at p lie in, or NULL. No lock: the
 * race build reads it during a launch, between whose start and end the
 * host thread makes no copy. */
const struct host_side *host_side_at(const void *p, size_t n)
{
    const char *c = p;
    for (size_t i = 0; i < rt.nhost_seen; i++) {
        const struct host_side *h = &rt.host_seen[i];
        if (c >= h->base && n <= h->size && (size_t)(c - h->base) <= h->size - n)
            return h;
    }
    return NULL;
}

void track_copy(void *caller, void *dst, const void *src, size_t count, int dd, int sd)
{
    if (!count)
        return;
    if (dd)
        note_write(dst, count);
    if (!tls.copy_by_program)
        return;
    if (!dd)
        note_host_side(caller, "cudaMemcpy", dst, count, 1);
    if (!sd)
        note_host_side(caller, "cudaMemcpy", src, count, 0);
    pthread_mutex_lock(&rt.lock);
    alloc *a = dd ? find_alloc(dst, count) : NULL;
    if (a && !a->pitched) {
        a->into_caller = caller;
        a->into_off = (size_t)((char *)dst - a->base);
        a->into_count = count;
    }
    alloc *b = sd && !dd ? find_alloc(src, count) : NULL;
    if (b && !b->pitched) {
        size_t off = (size_t)((const char *)src - b->base);
        add_range(b->read, &b->nread, off, off + count);
        if (!b->back_caller) {
            b->back_caller = caller;
            b->back_off = off;
        }
    }
    pthread_mutex_unlock(&rt.lock);
}

static void log_short(void *caller, const char *what, size_t given, size_t expected)
{
    copy_note n = { what, "count", given, expected, 0, "" };
    log_copy("cudaMemcpy", caller, &n);
}

/* Before a launch: each program copy into a buffer after whose end the
 * host wrote nothing up to the buffer's next range (or its end). */
void short_copies_in(void)
{
    struct short_found { void *caller; size_t given, expected; } found[4];
    int nfound = 0;
    pthread_mutex_lock(&rt.lock);
    for (size_t i = 0; i < rt.nallocs; i++) {
        alloc *a = &rt.allocs[i];
        if (!a->into_caller)
            continue;
        size_t end = a->into_off + a->into_count;
        size_t next = next_range(a->written, a->nwritten, end, a->size);
        if (covered_to(a->written, a->nwritten, end) == end && next > end && nfound < 4)
            found[nfound++] = (struct short_found){ a->into_caller, a->into_count, next - a->into_off };
        a->into_caller = NULL;
    }
    pthread_mutex_unlock(&rt.lock);
    for (int k = 0; k < nfound; k++)
        log_short(found[k].caller, "short_into", found[k].given, found[k].expected);
}

/* At cudaFree (a, out of the list, no lock held): the program copied part
 * of a buffer back that the host never wrote (a kernel's output), and its
 * copies back stop short of the buffer's end (or its guard zone). */
void short_copy_back(const alloc *a)
{
    if (!a->back_caller || covered_to(a->written, a->nwritten, a->back_off) != a->back_off)
        return;
    size_t read_to = covered_to(a->read, a->nread, a->back_off);
    size_t next = next_range(a->written, a->nwritten, a->back_off, a->size);
    if (read_to < next)
        log_short(a->back_caller, "short_back", read_to - a->back_off, next - a->back_off);
}
