/*
 * source_store.c - a kernel's stores and tiles, read from the source: its
 * output's store and the bounds test before it, the array a line stores
 * into, a tile declared without __shared__, the shared array an access
 * indexes, and a write and a read that race between a loop's iterations
 * (source.h). Over the shared walk of source_code.h.
 */
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- loops and barriers ------------------------------------------------------ */

#define MAX_LOOPS 64

typedef struct {
    int head, open, close; /* the loop's first line, its body's '{' and '}' lines */
} loop_span;

/* The loops of the code whose bodies are braced. */
static int braced_loops(const source_code *s, loop_span *out, int max)
{
    int n = 0;
    for (size_t k = 0; k < s->len && n < max; k++) {
        if (!code_word_at(s, k, "do") && !code_word_at(s, k, "for") && !code_word_at(s, k, "while"))
            continue;
        size_t b = code_loop_body(s, k);
        if (b >= s->len || s->code[b] != '{')
            continue; /* a single statement, or the while of a do-while */
        size_t e = code_matching(s, b);
        if (e >= s->len)
            continue;
        out[n++] = (loop_span){ code_line_at(s, k), code_line_at(s, b), code_line_at(s, e) };
    }
    return n;
}

int source_loop_carried(const char *path, int first, int second, int *loop_line, int *barrier_line)
{
    *loop_line = *barrier_line = 0;
    source_code s;
    if (first <= 0 || first >= second || !source_code_read(&s, path))
        return 0;
    loop_span loops[MAX_LOOPS];
    int n = braced_loops(&s, loops, MAX_LOOPS), best = -1;
    for (int i = 0; i < n; i++)
        if (loops[i].open <= first && second <= loops[i].close &&
            (best < 0 || loops[i].close - loops[i].open < loops[best].close - loops[best].open))
            best = i;
    for (size_t k = 0; best >= 0 && k < s.len && !*barrier_line; k++)
        if (code_word_at(&s, k, "__syncthreads")) {
            int l = code_line_at(&s, k);
            if (l > first && l < second)
                *barrier_line = l;
        }
    source_code_free(&s);
    if (best < 0 || !*barrier_line)
        return 0;
    *loop_line = loops[best].head;
    return 1;
}

/* The end of the statement that starts at k (inside a block that closes
 * at close): an if's (with its else), a loop's, a braced block's, or the
 * ';' of a plain one; close when it runs past. */
static size_t statement_end(const source_code *s, size_t k, size_t close)
{
    size_t e = code_body_end(s, k);
    return e < close ? e : close;
}

/* Whether [k, e] stores into the array named name (n characters). */
static int stores_into(const source_code *s, size_t k, size_t e, const char *name, size_t n)
{
    for (size_t q = k; q + n <= e; q++)
        if (code_name_at(s, q, name, n) && code_stored_at(s, q, n))
            return 1;
    return 0;
}

/* The innermost block ('{' into *blk, its '}' into *close) that holds
 * both pw and a later pr, in a kernel; 0 when none. */
static int block_holding_both(const source_code *s, size_t pw, size_t pr, size_t *blk, size_t *close)
{
    size_t b = pw < s->len ? code_block_around(s, pw) : s->len, c = s->len;
    for (int depth = 0; b < s->len && depth < 64; depth++) {
        c = code_matching(s, b);
        if (c < s->len && pr < c)
            break;
        b = b > 0 ? code_block_around(s, b - 1) : s->len;
    }
    *blk = b;
    *close = c;
    return b < s->len && c < s->len && code_kernel_before(s, b) < s->len;
}

static int is_barrier_statement(const source_code *s, size_t k)
{
    return code_word_at(s, k, "__syncthreads");
}

int source_barrier_before_write(const char *path, int write_line, int read_line)
{
    source_code s;
    if (write_line <= 0 || read_line <= write_line || !source_code_read(&s, path))
        return 0;
    size_t pw = code_skip_space(&s, code_line_start(&s, write_line));
    size_t pr = code_skip_space(&s, code_line_start(&s, read_line));
    size_t blk, close;
    int before = 0, later = 0;
    if (block_holding_both(&s, pw, pr, &blk, &close)) {
        int seen_write = 0, seen_read = 0;
        for (size_t k = code_skip_space(&s, blk + 1); k < close;) {
            size_t e = statement_end(&s, k, close);
            if (pw >= k && pw <= e)
                seen_write = 1;
            if (pr >= k && pr <= e)
                seen_read = 1;
            else if (is_barrier_statement(&s, k) && !seen_write)
                before = code_line_at(&s, k);
            else if (is_barrier_statement(&s, k) && seen_read)
                later = 1;
            if (e >= close)
                break;
            k = code_skip_space(&s, e + 1);
        }
        /* in a loop's body, the barrier before the store also keeps this
         * pass's store after the last pass's reads: moved, another one
         * after the reads must do that */
        size_t loop = code_loop_around(&s, blk);
        int loop_body = loop < s.len && code_loop_body(&s, loop) == blk;
        if (loop_body && !later)
            before = 0;
    }
    source_code_free(&s);
    return before;
}

int source_barrier_place(const char *path, int write_line, int read_line, int *before_line)
{
    source_code s;
    char array[64];
    *before_line = 0;
    if (write_line <= 0 || read_line <= write_line || !source_stored_array(path, write_line, array, sizeof array) ||
        !source_code_read(&s, path))
        return 0;
    size_t an = strlen(array);
    size_t pw = code_skip_space(&s, code_line_start(&s, write_line));
    size_t pr = code_skip_space(&s, code_line_start(&s, read_line));
    size_t blk, close;
    int after = 0;
    if (block_holding_both(&s, pw, pr, &blk, &close)) {
        size_t w_end = s.len;
        for (size_t k = code_skip_space(&s, blk + 1); k < close;) {
            size_t e = statement_end(&s, k, close);
            /* after the last statement before the read's that stores the tile */
            if ((pw >= k && pw <= e) || (w_end < s.len && pr > e && stores_into(&s, k, e, array, an)))
                w_end = e;
            else if (w_end < s.len && pr >= k && pr <= e) {
                after = code_line_at(&s, w_end);
                *before_line = code_line_at(&s, k);
                break;
            }
            if (e >= close)
                break;
            k = code_skip_space(&s, e + 1);
        }
    }
    source_code_free(&s);
    return after < *before_line ? after : 0;
}

int source_channel_counter(const char *path, int line, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    int found = 0;
    size_t at = code_skip_space(&s, code_line_start(&s, line));
    for (size_t loop = code_loop_around(&s, at); loop < s.len && !found;
         loop = loop > 0 ? code_loop_around(&s, loop) : s.len) {
        size_t cn = 0, c = code_for_counter(&s, loop, &cn);
        size_t open = code_skip_space(&s, loop + 3), close = open < s.len ? code_matching(&s, open) : s.len;
        if (c >= s.len || close >= s.len || cn >= n)
            continue;
        /* its test: between the header's two semicolons */
        size_t t1 = code_semicolon(&s, open, close), t2 = t1 < close ? code_semicolon(&s, t1 + 1, close) : close;
        for (size_t q = t1; q < t2 && !found; q++)
            if (code_word_starts(&s, q) && !strncmp(s.code + q, "channels", 8) &&
                !source_is_identifier_char(s.code[q + 8])) {
                snprintf(name, n, "%.*s", (int)cn, s.code + c);
                found = code_line_at(&s, loop);
            }
    }
    source_code_free(&s);
    return found;
}

char *source_read_planar(const char *path, int line)
{
    char k[64];
    if (source_channel_counter(path, line, k, sizeof k) <= 0 || !source_line_multiplies(path, line, k) ||
        source_line_has_word(path, line, "channels"))
        return NULL;
    return xasprintf("line %d multiplies the channel, %s, into the index, as if each channel were a plane of its own "
                     "(planar), but the images are interleaved: a pixel's channels lie side by side, channel %s of "
                     "pixel (row, col) at row * pitch + col * channels + %s (without a pitch, (row * width + col) * "
                     "channels + %s)",
                     line, k, k, k, k);
}

int source_store_lines_into(const char *path, const char *array, int *lines, int max)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int n = 0, last = 0;
    size_t an = strlen(array);
    for (size_t k = 0; k + an < s.len && n < max; k++) {
        if (!code_name_at(&s, k, array, an) || !code_stored_at(&s, k, an))
            continue;
        int line = code_line_at(&s, k);
        if (line != last)
            lines[n++] = last = line;
    }
    source_code_free(&s);
    return n;
}

int source_barrier_after_barrier(const char *path, int loop_line, int *first_line)
{
    source_code s;
    *first_line = 0;
    if (loop_line <= 0 || !source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = code_line_start(&s, loop_line); k < s.len && code_line_at(&s, k) == loop_line && !found; k++) {
        if (!code_word_at(&s, k, "for") && !code_word_at(&s, k, "while"))
            continue;
        size_t b = code_loop_body(&s, k), e = b < s.len && s.code[b] == '{' ? code_matching(&s, b) : s.len;
        /* the body's statements, in order: a barrier whose statement comes
         * right after another barrier's */
        size_t prev_barrier = s.len;
        for (size_t q = b < s.len ? code_skip_space(&s, b + 1) : s.len; q < e && !found;) {
            size_t end = code_body_end(&s, q);
            int barrier = code_word_at(&s, q, "__syncthreads");
            if (barrier && prev_barrier < s.len) {
                found = code_line_at(&s, q);
                *first_line = code_line_at(&s, prev_barrier);
            }
            prev_barrier = barrier ? q : s.len;
            if (end >= e)
                break;
            q = code_skip_space(&s, end + 1);
        }
        break;
    }
    source_code_free(&s);
    return found;
}

int source_store_after_if_of_same_slot(const char *path, int line, int *empty_else)
{
    source_code s;
    *empty_else = 0;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t at = code_skip_space(&s, code_line_start(&s, line)), blk = at < s.len ? code_block_around(&s, at) : s.len;
    int found = 0;
    size_t close = blk < s.len ? code_matching(&s, blk) : s.len;
    /* the statement before the one at line, in their block */
    size_t prev = s.len;
    for (size_t k = blk < s.len ? code_skip_space(&s, blk + 1) : s.len; k < close && k < at;) {
        size_t e = statement_end(&s, k, close);
        if (e >= at)
            break;
        prev = k;
        k = code_skip_space(&s, e + 1);
    }
    size_t store = code_store_between(&s, at, code_line_end(&s, at));
    if (prev < s.len && store < s.len && code_word_at(&s, prev, "if")) {
        size_t open = code_skip_space(&s, prev + 2), hc = open < s.len ? code_matching(&s, open) : s.len;
        size_t body = hc < s.len ? code_skip_space(&s, hc + 1) : s.len;
        size_t be = body < s.len ? code_body_end(&s, body) : s.len;
        size_t el = be < s.len ? code_skip_space(&s, be + 1) : s.len;
        int has_else = el < s.len && code_word_at(&s, el, "else");
        /* `else;`: an else whose body is the empty statement, and the store
         * after it, meant as its body, runs for every thread */
        size_t after_else = has_else ? code_skip_space(&s, el + 4) : s.len;
        if (has_else && after_else < s.len && s.code[after_else] == ';' && after_else < at) {
            has_else = 0;
            *empty_else = code_line_at(&s, el);
        }
        /* the store's target, `NAME[...][...]`, written the same in the if's body */
        size_t nn = 0, name = code_word_before(&s, store, &nn), te = store;
        while (te < s.len && s.code[te] == '[')
            te = code_matching(&s, te) + 1;
        size_t tn = te > name ? te - name : 0;
        for (size_t q = body; !has_else && nn && tn && q + tn <= be && !found; q++)
            if (!strncmp(s.code + q, s.code + name, tn) && code_stored_at(&s, q, nn))
                found = code_line_at(&s, prev);
        if (!found)
            *empty_else = 0;
    }
    source_code_free(&s);
    return found;
}

int source_loop_close_line(const char *path, int loop_line)
{
    source_code s;
    if (loop_line <= 0 || !source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t k = code_line_start(&s, loop_line); k < s.len && code_line_at(&s, k) == loop_line && !line; k++) {
        if (!code_word_at(&s, k, "for") && !code_word_at(&s, k, "while"))
            continue;
        size_t b = code_loop_body(&s, k), e = b < s.len && s.code[b] == '{' ? code_matching(&s, b) : s.len;
        line = e < s.len ? code_line_at(&s, e) : 0;
        break;
    }
    source_code_free(&s);
    return line;
}

const char *const source_weak_barriers[] = { "__syncwarp", "__threadfence_block", "__threadfence", NULL };

/* The first call of a barrier of less than the block in s's [b, e): its
 * line, its call into name; else 0. */
static int weak_barrier_in(const source_code *s, size_t b, size_t e, char *name, size_t n)
{
    for (size_t q = b; q < e && q < s->len; q++)
        for (int w = 0; source_weak_barriers[w]; w++)
            if (code_word_at(s, q, source_weak_barriers[w])) {
                snprintf(name, n, "%s()", source_weak_barriers[w]);
                return code_line_at(s, q);
            }
    return 0;
}

int source_warp_sync_after(const char *path, int read_line, int loop_line, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (loop_line <= 0 || read_line <= loop_line || !source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = code_line_start(&s, loop_line); k < s.len && code_line_at(&s, k) == loop_line; k++) {
        if (!code_word_at(&s, k, "for") && !code_word_at(&s, k, "while"))
            continue;
        size_t b = code_loop_body(&s, k), e = b < s.len && s.code[b] == '{' ? code_matching(&s, b) : s.len;
        if (e < s.len)
            found = weak_barrier_in(&s, code_line_start(&s, read_line + 1), e, name, n);
        break;
    }
    source_code_free(&s);
    return found;
}

int source_weak_barrier_between(const char *path, int first, int last, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (first <= 0 || last < first || !source_code_read(&s, path))
        return 0;
    int found = weak_barrier_in(&s, code_line_start(&s, first), code_line_start(&s, last + 1), name, n);
    source_code_free(&s);
    return found;
}

int source_barrier_after_loop(const char *path, int loop_line)
{
    source_code s;
    if (loop_line <= 0 || !source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = code_line_start(&s, loop_line); k < s.len && !found && code_line_at(&s, k) == loop_line; k++) {
        if (!code_word_at(&s, k, "for") && !code_word_at(&s, k, "while"))
            continue;
        size_t b = code_loop_body(&s, k), e = b < s.len && s.code[b] == '{' ? code_matching(&s, b) : s.len;
        size_t next = e < s.len ? code_skip_space(&s, e + 1) : s.len;
        if (next < s.len && code_word_at(&s, next, "__syncthreads"))
            found = code_line_at(&s, next);
        break;
    }
    source_code_free(&s);
    return found;
}

/* ---- the output's store and its test ------------------------------------------ */

/* Whether the value stored at store_line (what follows its first plain
 * `=`) reads name as a word. */
static int stored_value_reads(const source_code *s, int store_line, const char *name)
{
    size_t n = strlen(name);
    size_t b = code_line_start(s, store_line), e = b < s->len ? code_line_end(s, b) : s->len;
    size_t q = b;
    while (q < e && !(s->code[q] == '=' && (q + 1 >= e || s->code[q + 1] != '=') &&
                      (q == b || !strchr("=<>!", s->code[q - 1]))))
        q++;
    for (size_t k = q; n && k < e; k++)
        if (code_name_at(s, k, name, n))
            return 1;
    return 0;
}

#define MAX_CUTS 32

/* The line of a kernel's call of one of the functions in calls whose
 * value reaches the output's store (source_value_cut_line's rule). */
static int value_call_line(const char *path, const char *const *cuts)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int lines[MAX_CUTS], n = 0;
    for (const char *g = strstr(code, "__global__"); g && n < MAX_CUTS; g = strstr(g + 1, "__global__")) {
        size_t close, body = code_kernel_body(&s, (size_t)(g - code), &close);
        if (body >= s.len)
            continue;
        for (size_t k = body; k < close && n < MAX_CUTS; k++) {
            if (!code_word_starts(&s, k))
                continue;
            size_t e = code_word_end(&s, k), q = code_skip_space(&s, e);
            if (e > k && q < s.len && code[q] == '(' && code_word_in(code + k, e - k, cuts) &&
                (n == 0 || lines[n - 1] != code_line_at(&s, k)))
                lines[n++] = code_line_at(&s, k);
            k = e > k ? e - 1 : k;
        }
    }
    /* The cut that reaches the stored value, not an index clamped on the
     * way (`int r = min(Row, Width - 1)`): one on the output's store, else
     * one whose line sets a name the stored value reads, else one whose
     * name reaches the store at all, else the first. */
    int store = n > 1 ? source_output_store_line(path) : 0, line = n ? lines[0] : 0, rank = 3;
    for (int i = 0; store > 0 && i < n && rank > 0; i++) {
        char name[128];
        if (lines[i] == store) {
            line = lines[i], rank = 0;
            continue;
        }
        if (!source_assigned_at(path, lines[i], name, sizeof name))
            continue;
        if (rank > 1 && stored_value_reads(&s, store, name))
            line = lines[i], rank = 1;
        else if (rank > 2 && source_line_reaches_name(path, store, name))
            line = lines[i], rank = 2;
    }
    source_code_free(&s);
    return line;
}

int source_value_cut_line(const char *path)
{
    static const char *const cuts[] = { "fminf", "fmaxf", "fmin", "fmax", "min", "max", "__saturatef", "saturate",
                                        "clamp", NULL };
    return value_call_line(path, cuts);
}

int source_value_rounding_line(const char *path)
{
    static const char *const rounders[] = { "rintf", "roundf", "floorf", "ceilf", "truncf", "nearbyintf", "lrintf",
                                            "lroundf", "llrintf", "llroundf", "rint", "round", "floor", "ceil",
                                            "trunc", "nearbyint", "lrint", "lround", "__float2int_rn",
                                            "__float2int_rz", "__float2int_rd", "__float2int_ru", "__float2uint_rn",
                                            "__float2uint_rz", "__float2ll_rn", "__float2ll_rz", "__double2int_rn",
                                            "__double2int_rz", NULL };
    return value_call_line(path, rounders);
}

int source_output_store_line(const char *path)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    for (const char *g = strstr(code, "__global__"); g && !line; g = strstr(g + 1, "__global__")) {
        const char *open = strchr(g, '('), *close = open ? strchr(open, ')') : NULL;
        const char *body = close ? strchr(close, '{') : NULL;
        if (!body)
            break;
        size_t bend = code_matching(&s, (size_t)(body - code));
        /* each parameter: a pointer `T *NAME`, or a struct `T NAME` whose
         * member is one (`out.data`): the name before each ',' and the ')' */
        for (const char *p = open + 1; p <= close && !line; p++) {
            if (*p != ',' && p != close)
                continue;
            const char *e = p;
            while (e > open + 1 && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\n'))
                e--;
            const char *w = e;
            while (w > open + 1 && source_is_identifier_char(w[-1]))
                w--;
            size_t wl = (size_t)(e - w);
            if (wl == 0)
                continue;
            /* its first store: `NAME[...] =`, `NAME.member[...] =` or `op=` */
            for (size_t k = (size_t)(body - code); k + wl < bend && !line; k++) {
                if (!code_name_at(&s, k, w, wl))
                    continue;
                size_t q = code_skip_space(&s, k + wl);
                if (q + 1 < s.len && (code[q] == '.' || (code[q] == '-' && code[q + 1] == '>'))) {
                    q = code_skip_space(&s, q + (code[q] == '.' ? 1 : 2));
                    while (q < s.len && source_is_identifier_char(code[q]))
                        q++;
                    q = code_skip_space(&s, q);
                }
                if (q >= s.len || code[q] != '[')
                    continue;
                q = code_skip_space(&s, code_matching(&s, q) + 1);
                if (q + 1 < s.len &&
                    (code[q] == '=' ? code[q + 1] != '=' : strchr("+-*/", code[q]) && code[q + 1] == '='))
                    line = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return line;
}

int source_input_read_line(const char *path, int which)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    const char *g = strstr(code, "__global__");
    const char *open = g ? strchr(g, '(') : NULL, *close = open ? strchr(open, ')') : NULL;
    const char *body = close ? strchr(close, '{') : NULL;
    if (body) {
        size_t bend = code_matching(&s, (size_t)(body - code));
        int n = 0;
        /* the which-th pointer parameter `T *NAME`, and its first read
         * `NAME[...]` that is not a store */
        for (const char *p = open; p < close && !line; p++) {
            if (*p != '*')
                continue;
            const char *w = p + 1;
            while (*w == ' ' || *w == '\t')
                w++;
            size_t wl = 0;
            while (source_is_identifier_char(w[wl]))
                wl++;
            if (wl == 0 || n++ != which)
                continue;
            for (size_t k = (size_t)(body - code); k + wl < bend && !line; k++) {
                if (!code_name_at(&s, k, w, wl))
                    continue;
                size_t q = code_skip_space(&s, k + wl);
                if (q < s.len && code[q] == '[' && !code_stored_at(&s, k, wl))
                    line = code_line_at(&s, k);
            }
            break;
        }
    }
    source_code_free(&s);
    return line;
}

int source_kernel_input_unused(const char *path, int line, const char *except, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int found = 0;
    size_t at = code_line_start(&s, line), g = at < s.len ? code_kernel_before(&s, at) : s.len, close = s.len;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len, open = g;
    /* the parameter list: the first '(' after __global__ */
    while (open < body && code[open] != '(')
        open++;
    size_t pclose = open < body ? code_matching(&s, open) : s.len;
    if (body >= s.len || close >= s.len || pclose >= body || at <= body || at >= close) {
        source_code_free(&s);
        return 0;
    }
    /* a member read where another parameter's is meant (`out.data` for
     * `in.data`): a parameter of the same type as the member's base whose
     * member of that name the body reads nowhere */
    const char *dot = strchr(except, '.');
    if (dot && dot > except && source_is_identifier_char(dot[1])) {
        char base_decl[128] = "", item[128];
        size_t bl = (size_t)(dot - except);
        for (int k = 0; code_call_argument(&s, open, k, item, sizeof item), item[0]; k++) {
            size_t e = strlen(item), b = e;
            while (b > 0 && source_is_identifier_char(item[b - 1]))
                b--;
            if (e - b == bl && !strncmp(item + b, except, bl))
                snprintf(base_decl, sizeof base_decl, "%.*s", (int)b, item);
        }
        for (int k = 0; base_decl[0] && !found && (code_call_argument(&s, open, k, item, sizeof item), item[0]); k++) {
            size_t e = strlen(item), b = e;
            while (b > 0 && source_is_identifier_char(item[b - 1]))
                b--;
            if (b == e || strncmp(item, base_decl, b) != 0 || strlen(base_decl) != b ||
                (e - b == bl && !strncmp(item + b, except, bl)))
                continue;
            char member[192];
            snprintf(member, sizeof member, "%s.%s", item + b, dot + 1);
            int read = 0;
            for (size_t q = body; q < close && !read; q++)
                read = code_name_at(&s, q, item + b, e - b) && !strncmp(code + code_skip_space(&s, q + e - b), ".", 1) &&
                       code_word_at(&s, code_skip_space(&s, code_skip_space(&s, q + e - b) + 1), dot + 1);
            if (!read && strlen(member) < n) {
                snprintf(name, n, "%s", member);
                found = code_line_at(&s, open);
            }
        }
        source_code_free(&s);
        return found;
    }
    /* each `T *NAME` of the list, read nowhere in the body */
    for (size_t p = open + 1; p < pclose && !found; p++) {
        if (code[p] != '*')
            continue;
        size_t w = code_skip_space(&s, p + 1), wl = 0;
        while (w + wl < pclose && source_is_identifier_char(code[w + wl]))
            wl++;
        if (wl == 0 || wl >= n || (strlen(except) == wl && !strncmp(code + w, except, wl)) ||
            code_span_has_name(&s, body, close, code + w, wl))
            continue;
        snprintf(name, n, "%.*s", (int)wl, code + w);
        found = code_line_at(&s, w);
    }
    source_code_free(&s);
    return found;
}

int code_declared_shared(const char *code, const char *n, size_t nl)
{
    for (const char *s = strstr(code, "__shared__"); s; s = strstr(s + 1, "__shared__")) {
        const char *end = strpbrk(s, ";\n");
        for (const char *p = s + 10; end && p + nl <= end; p++)
            if (strncmp(p, n, nl) == 0 && !source_is_identifier_char(p[-1]) && !source_is_identifier_char(p[nl]))
                return 1;
    }
    return 0;
}

/* s without its leading and trailing spaces, in place. */
static void trim_spaces(char *s)
{
    size_t b = strspn(s, " \t\n\r"), n = strlen(s);
    while (n > b && strchr(" \t\n\r", s[n - 1]))
        n--;
    memmove(s, s + b, n - b);
    s[n - b] = '\0';
}

/* Whether the comparison's left side names a column (`col_o`, `Col`, `x`)
 * or, for rows, a row (`row_o`, `y`): its last word, lower-cased. */
static int names_axis(const char *left, int column)
{
    const char *w = left + strlen(left);
    while (w > left && source_is_identifier_char(w[-1]))
        w--;
    char low[64];
    size_t n = 0;
    for (; w[n] && n + 1 < sizeof low; n++)
        low[n] = (char)(w[n] >= 'A' && w[n] <= 'Z' ? w[n] - 'A' + 'a' : w[n]);
    low[n] = '\0';
    if (n == 0)
        return 0;
    return column ? strstr(low, "col") || low[n - 1] == 'x' : strstr(low, "row") || low[n - 1] == 'y';
}

/* The first store into global memory in code[b, e) (what an if or a loop
 * controls): a `]` followed by `=` or `+=`, in a statement whose array is
 * not __shared__; its statement's offset + 1, or 0 when there is none. */
static size_t global_store_in(const source_code *s, size_t b, size_t e)
{
    const char *code = s->code;
    for (size_t q = b; q + 2 < e; q++) {
        size_t o = code_skip_space(s, q + 1);
        if (code[q] != ']' || !((code[o] == '=' && code[o + 1] != '=') || (code[o] == '+' && code[o + 1] == '=')))
            continue;
        size_t st = code_skip_space(s, code_statement_start(s, q, b));
        /* the statement an if, an else or a loop controls, past its header */
        for (;;) {
            int paren = code_word_at(s, st, "if") || code_word_at(s, st, "for") || code_word_at(s, st, "while");
            if (!paren && !code_word_at(s, st, "else"))
                break;
            size_t after = code_skip_space(s, code_word_end(s, st));
            if (paren && (after >= s->len || code[after] != '('))
                break;
            st = code_skip_space(s, paren ? code_matching(s, after) + 1 : after);
        }
        size_t nl = code_word_end(s, st) - st;
        if (nl > 0 && !code_declared_shared(code, code + st, nl))
            return st + 1;
    }
    return 0;
}

static int stores_global(const source_code *s, size_t b, size_t e)
{
    return global_store_in(s, b, e) != 0;
}

int source_test_guards_store(const char *path, int line, int *store_line, int body[2])
{
    *store_line = 0;
    body[0] = body[1] = 0;
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    int kind = 0;
    size_t from = code_line_start(&s, line), to = (size_t)line < s.nlines ? code_line_start(&s, line + 1) : s.len;
    for (size_t k = from; k < to && k < s.len && !kind; k++) {
        int loop = code_word_at(&s, k, "for") || code_word_at(&s, k, "while");
        if (!loop && !code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + (s.code[k] == 'i' ? 2 : s.code[k] == 'f' ? 3 : 5));
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t b = code_skip_space(&s, code_matching(&s, open) + 1), e = code_body_end(&s, b);
        size_t st = global_store_in(&s, b, e);
        if (st) {
            kind = loop ? 2 : 1;
            *store_line = code_line_at(&s, st - 1);
            body[0] = code_line_at(&s, b);
            body[1] = code_line_at(&s, e > b ? e - 1 : b);
        }
    }
    source_code_free(&s);
    return kind;
}

int source_if_guards_store_into(const char *path, int line, const char *array)
{
    source_code s;
    if (line <= 0 || !array || !source_code_read(&s, path))
        return 0;
    int store = 0;
    size_t an = strlen(array);
    size_t from = code_line_start(&s, line), to = code_line_end(&s, from);
    for (size_t k = from; k < to && k < s.len && !store; k++) {
        if (!code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t b = code_skip_space(&s, code_matching(&s, open) + 1), e = code_body_end(&s, b);
        for (size_t q = b; q < e && q < s.len && !store; q++)
            if (code_name_at(&s, q, array, an) && code_stored_at(&s, q, an))
                store = code_line_at(&s, q);
    }
    source_code_free(&s);
    return store;
}

int source_store_test_on(const char *path, const char *word, int column, char *left, char *right, size_t n)
{
    left[0] = right[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    size_t wl = strlen(word);
    const char *g = strstr(code, "__global__");
    for (size_t k = g ? (size_t)(g - code) : s.len; k + 2 < s.len && !line; k++) {
        if (!code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        /* what it controls: a braced body or one statement; a store in it */
        size_t b = code_skip_space(&s, close + 1);
        if (!stores_global(&s, b, code_body_end(&s, b)))
            continue;
        /* each clause `A < B` or `A <= B` between && and || */
        for (size_t c = open + 1; c < close && !line;) {
            size_t end = text_clause_end(code, c, close);
            const char *lt = memchr(code + c, '<', end - c);
            if (lt && lt[1] != '<') {
                const char *r = lt + (lt[1] == '=' ? 2 : 1);
                int has = 0;
                for (const char *p = r; p + wl <= code + end && !has; p++)
                    has = text_word_at(code, p, word);
                char l[128], rr[128];
                size_t ll = (size_t)(lt - (code + c)), rl = (size_t)(code + end - r);
                if (has && ll < sizeof l && rl < sizeof rr) {
                    snprintf(l, sizeof l, "%.*s", (int)ll, code + c);
                    snprintf(rr, sizeof rr, "%.*s", (int)rl, r);
                    trim_spaces(l);
                    trim_spaces(rr);
                    if (names_axis(l, column) && strlen(l) < n && strlen(rr) < n) {
                        snprintf(left, n, "%s", l);
                        snprintf(right, n, "%s", rr);
                        line = code_line_at(&s, c);
                    }
                }
            }
            c = end + 2;
        }
    }
    source_code_free(&s);
    return line;
}

/* ---- arrays and tiles ------------------------------------------------------------ */

int source_stored_array(const char *path, int line, char *out, size_t n)
{
    out[0] = '\0';
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *p = s.code + code_line_start(&s, line);
    size_t end = strcspn(p, "\n");
    const char *eq = memchr(p, '=', end);
    for (const char *q = p; q && q < eq; q++) {
        if (!source_is_identifier_char(*q) || (q > p && source_is_identifier_char(q[-1])))
            continue;
        const char *w = q;
        while (source_is_identifier_char(*q))
            q++;
        const char *b = q;
        while (*b == ' ' || *b == '\t')
            b++;
        if (*b == '[' && (size_t)(q - w) < n && !(*w >= '0' && *w <= '9')) {
            snprintf(out, n, "%.*s", (int)(q - w), w);
            break;
        }
        q--;
    }
    source_code_free(&s);
    return out[0] != '\0';
}

int source_private_tile(const char *path, char *name, size_t n)
{
    name[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    for (size_t g = 0; g < s.len && !line; g++) {
        if (!code_word_at(&s, g, "__global__"))
            continue;
        size_t open = g;
        while (open < s.len && code[open] != '{' && code[open] != ';')
            open++;
        if (open >= s.len || code[open] != '{')
            continue;
        size_t close = code_matching(&s, open);
        /* a declaration `TYPE NAME[` in the kernel's body whose statement
         * does not say __shared__ */
        for (size_t k = open + 1; k < close && !line; k++) {
            if (!code_word_starts(&s, k))
                continue;
            size_t e = code_word_end(&s, k);
            size_t tn = 0, t = code_word_before(&s, k, &tn), q = code_skip_space(&s, e);
            if (q >= close || code[q] != '[' || !code_number_type(code + t, tn) || e - k >= n)
                continue;
            int shared = 0;
            for (size_t p = code_statement_start(&s, t, open); p < t && !shared; p++)
                shared = code_word_at(&s, p, "__shared__") || code_word_at(&s, p, "static");
            if (shared)
                continue;
            /* stored before a barrier and read after it: a tile meant to be shared */
            size_t store = close, barrier = close;
            int read_after = 0;
            for (size_t p = q; p < close; p++) {
                if (!code_name_at(&s, p, code + k, e - k))
                    continue;
                if (store == close && code_stored_at(&s, p, e - k))
                    store = p;
                else if (barrier < close && p > barrier && !code_stored_at(&s, p, e - k))
                    read_after = 1;
                if (store < close && barrier == close)
                    for (size_t b = p; b < close && barrier == close; b++)
                        if (code_word_at(&s, b, "__syncthreads"))
                            barrier = b;
            }
            if (read_after) {
                line = code_line_at(&s, k);
                snprintf(name, n, "%.*s", (int)(e - k), code + k);
            }
        }
        g = close;
    }
    source_code_free(&s);
    return line;
}

/* The line of the last definition of name before position `before`:
 * `#define name`, or `name =` after a type (`const int w = ...`); 0. */
static int definition_line(const source_code *s, size_t before, const char *name)
{
    const char *code = s->code;
    size_t l = strlen(name);
    int line = 0;
    for (size_t k = 1; k < before; k++) {
        if (!code_name_at(s, k, name, l))
            continue;
        size_t b = code_blank_before(s, k);
        size_t q = k + l;
        while (code[q] == ' ' || code[q] == '\t')
            q++;
        int define = b >= 7 && strncmp(code + b - 7, "#define", 7) == 0;
        int declared = b < k && source_is_identifier_char(code[b - 1]) && code[q] == '=' && code[q + 1] != '=';
        if (define || declared)
            line = code_line_at(s, k);
    }
    return line;
}

int source_shared_array_at(const char *path, int access, char *name, size_t n, int *size_line)
{
    *size_line = 0;
    name[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int decl = 0;
    /* each `X[` of the access's line, X declared __shared__ before it;
     * where the line has several, first one whose subscripts vary with a
     * block's coordinate (`ds_N[i][Col]`): a tile's subscripts are the
     * thread's place in it, and a global row or column runs past it */
    size_t line_at = code_line_start(&s, access), kernel = code_kernel_before(&s, line_at);
    int tried = 0;
    for (int pass = 0; pass < 2 && !decl; pass++)
    for (size_t i = line_at; i < s.len && !decl && code_line_at(&s, i) == access; i++) {
        if (!code_word_starts(&s, i))
            continue;
        size_t e = code_word_end(&s, i);
        if (code[e] != '[' || e - i >= n)
            continue;
        if (pass == 0) {
            if (++tried > 32)
                continue; /* each costs walks of the file: the first few */
            unsigned bits = 0;
            for (size_t o = e; o < s.len && code[o] == '['; o = code_skip_space(&s, code_matching(&s, o) + 1))
                bits |= kernel < s.len ? code_coordinates(&s, kernel, line_at, o + 1, code_matching(&s, o)) : 0;
            if (!(bits & 070u))
                continue;
        }
        char x[64];
        snprintf(x, sizeof x, "%.*s", (int)(e - i), code + i);
        for (const char *sh = strstr(code, "__shared__"); sh && !decl; sh = strstr(sh + 10, "__shared__")) {
            const char *semi = strchr(sh, ';'), *at = strstr(sh, x);
            if (!semi || !at || at > semi || source_is_identifier_char(at[-1]) || at[strlen(x)] != '[')
                continue;
            decl = code_line_at(&s, (size_t)(sh - code));
            snprintf(name, n, "%s", x);
            /* its first dimension, where it is a name: where that is set */
            const char *d = at + strlen(x) + 1;
            while (*d == ' ')
                d++;
            size_t dl = 0;
            while (source_is_identifier_char(d[dl]))
                dl++;
            if (dl > 0 && dl < 64 && (d[dl] == ']' || d[dl] == ' ') && !(d[0] >= '0' && d[0] <= '9')) {
                char dim[64];
                snprintf(dim, sizeof dim, "%.*s", (int)dl, d);
                *size_line = definition_line(&s, (size_t)(sh - code), dim);
            }
        }
    }
    source_code_free(&s);
    return decl;
}

/* ---- the branches of an if ------------------------------------------------------ */

int source_if_else(const char *path, int test_line, int line)
{
    source_code s;
    if (test_line <= 0 || !source_code_read(&s, path))
        return SOURCE_NO_IF;
    int found = SOURCE_NO_IF;
    size_t end = code_line_end(&s, code_line_start(&s, test_line));
    for (size_t k = code_line_start(&s, test_line); k < end && found == SOURCE_NO_IF; k++) {
        if (!code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t then_end = code_body_end(&s, code_skip_space(&s, code_matching(&s, open) + 1));
        if (then_end >= s.len)
            continue;
        size_t e = code_skip_space(&s, then_end + 1);
        if (!code_word_at(&s, e, "else")) {
            found = SOURCE_IF_NO_ELSE;
            continue;
        }
        size_t b = code_skip_space(&s, e + 4);
        size_t else_end = code_body_end(&s, b);
        /* an else if: its own test chose */
        found = !code_word_at(&s, b, "if") && else_end < s.len && line > test_line && code_line_at(&s, b) <= line &&
                        line <= code_line_at(&s, else_end)
                    ? SOURCE_ELSE_HOLDS
                    : SOURCE_ELSE_ELSEWHERE;
    }
    source_code_free(&s);
    return found;
}

int source_dangling_else(const char *path, int test_line, int *inner_line)
{
    *inner_line = 0;
    source_code s;
    if (test_line <= 0 || !source_code_read(&s, path))
        return 0;
    int line = 0;
    size_t end = code_line_end(&s, code_line_start(&s, test_line));
    for (size_t k = code_line_start(&s, test_line); k < end && !line; k++) {
        if (!code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t inner = code_skip_space(&s, code_matching(&s, open) + 1);
        size_t iopen = inner < s.len && code_word_at(&s, inner, "if") ? code_skip_space(&s, inner + 2) : s.len;
        if (iopen >= s.len || s.code[iopen] != '(')
            break; /* its body is no bare if */
        size_t then_end = code_body_end(&s, code_skip_space(&s, code_matching(&s, iopen) + 1));
        size_t e = then_end < s.len ? code_skip_space(&s, then_end + 1) : s.len;
        if (e >= s.len || !code_word_at(&s, e, "else"))
            break;
        size_t else_end = code_body_end(&s, code_skip_space(&s, e + 4));
        size_t after = else_end < s.len ? code_skip_space(&s, else_end + 1) : s.len;
        if (after < s.len && code_word_at(&s, after, "else"))
            break; /* a second else: the outer if's own */
        line = code_line_at(&s, e);
        *inner_line = code_line_at(&s, inner);
    }
    source_code_free(&s);
    return line;
}

int source_else_holds(const char *path, int test_line, int line)
{
    return source_if_else(path, test_line, line) == SOURCE_ELSE_HOLDS;
}

int source_tile_subscript_global(const char *path, int access, char *name, size_t n, char *sub, size_t sub_n)
{
    source_code s;
    name[0] = sub[0] = '\0';
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t line_at = code_line_start(&s, access), kernel = code_kernel_before(&s, line_at);
    int found = 0, tried = 0;
    for (size_t i = line_at; i < s.len && kernel < s.len && !found && code_line_at(&s, i) == access; i++) {
        if (!code_word_starts(&s, i))
            continue;
        size_t e = code_word_end(&s, i);
        if (e == i || s.code[e] != '[' || ++tried > 32 || !code_declared_shared(s.code, s.code + i, e - i))
            continue;
        for (size_t o = e; o < s.len && s.code[o] == '[' && !found; o = code_skip_space(&s, code_matching(&s, o) + 1)) {
            size_t c = code_matching(&s, o);
            if (c < s.len && (code_coordinates(&s, kernel, line_at, o + 1, c) & 070u)) {
                snprintf(name, n, "%.*s", (int)(e - i), s.code + i);
                snprintf(sub, sub_n, "%.*s", (int)(c - o - 1), s.code + o + 1);
                found = access;
            }
        }
        i = e;
    }
    source_code_free(&s);
    return found;
}

int source_alias_of_shared(const char *path, char *alias, size_t alias_n, char *shared, size_t shared_n,
                           int *alias_store, int *shared_store)
{
    alias[0] = shared[0] = '\0';
    *alias_store = *shared_store = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (const char *g = strstr(c, "__global__"); g && !found; g = strstr(g + 1, "__global__")) {
        size_t close = s.len, body = code_kernel_body(&s, (size_t)(g - c), &close);
        if (body >= s.len)
            continue;
        /* `T *NAME = WORD;` or `T (*NAME)[N] = WORD;`, WORD a __shared__ array */
        for (size_t k = body + 1; k < close && !found; k++) {
            if (c[k] != '*' || !code_word_starts(&s, code_skip_space(&s, k + 1)))
                continue;
            size_t st = code_skip_space(&s, code_statement_start(&s, k, body + 1));
            size_t tw = code_word_end(&s, st);
            if (tw == st || !code_number_type(c + st, tw - st))
                continue;
            size_t w = code_skip_space(&s, k + 1), we = code_word_end(&s, w);
            size_t q = code_skip_space(&s, we);
            if (q < close && c[q] == ')')
                q = code_skip_space(&s, q + 1);
            while (q < close && c[q] == '[')
                q = code_skip_space(&s, code_matching(&s, q) + 1);
            if (q >= close || !code_assigns_at(&s, q))
                continue;
            size_t v = code_skip_space(&s, q + 1), ve = code_word_end(&s, v);
            if (ve == v || c[code_skip_space(&s, ve)] != ';' || !code_declared_shared(c, c + v, ve - v))
                continue;
            /* both names stored into, through subscripts */
            int as = 0, ss = 0;
            for (size_t j = code_semicolon(&s, v, close); j < close && !(as && ss); j++) {
                if (!as && code_name_at(&s, j, c + w, we - w) && code_stored_at(&s, j, we - w))
                    as = code_line_at(&s, j);
                if (!ss && code_name_at(&s, j, c + v, ve - v) && code_stored_at(&s, j, ve - v))
                    ss = code_line_at(&s, j);
            }
            if (as && ss) {
                snprintf(alias, alias_n, "%.*s", (int)(we - w), c + w);
                snprintf(shared, shared_n, "%.*s", (int)(ve - v), c + v);
                *alias_store = as;
                *shared_store = ss;
                found = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_shared_added_never_stored(const char *path, char *name, size_t n)
{
    source_code s;
    name[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (const char *g = strstr(c, "__global__"); g && !found; g = strstr(g + 1, "__global__")) {
        size_t close = s.len, body = code_kernel_body(&s, (size_t)(g - c), &close);
        if (body >= s.len)
            continue;
        for (size_t k = body; k < close && !found; k++) {
            if (!code_word_starts(&s, k))
                continue;
            size_t we = code_word_end(&s, k), q = code_skip_space(&s, we);
            if (we == k || q >= close || c[q] != '[' || !code_declared_shared(c, c + k, we - k)) {
                k = we > k ? we - 1 : k;
                continue;
            }
            while (q < close && c[q] == '[')
                q = code_skip_space(&s, code_matching(&s, q) + 1);
            if (q + 1 >= close || !strchr("+-*/", c[q]) || c[q + 1] != '=')
                continue;
            /* a compound store; is there any plain one? */
            int plain = 0;
            for (size_t j = body; j < close && !plain; j++)
                plain = code_name_at(&s, j, c + k, we - k) && code_stored_at(&s, j, we - k);
            if (!plain) {
                snprintf(name, n, "%.*s", (int)(we - k), c + k);
                found = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

/* ---- an output store a loop's passes all make to one element -------------- */

/* The first store in a kernel into memory that is not the kernel's own: an
 * array neither __shared__ nor declared in the kernel (`P[...] =`,
 * `out.data[...] =`): its line, or 0. */
static int global_store_line(const source_code *s)
{
    const char *c = s->code;
    for (const char *g = strstr(c, "__global__"); g; g = strstr(g + 1, "__global__")) {
        size_t close = s->len, body = code_kernel_body(s, (size_t)(g - c), &close);
        for (size_t q = body < s->len ? code_store_between(s, body, close) : s->len; q < close;
             q = code_store_between(s, code_matching(s, q) + 1, close)) {
            size_t wn = 0, w = code_word_before(s, code_blank_before(s, q), &wn);
            if (!wn || code_declared_shared(c, c + w, wn))
                continue;
            /* a local array: `TYPE NAME[` in the kernel */
            size_t d = body;
            int local = 0;
            for (; d < w && !local; d++)
                if (code_name_at(s, d, c + w, wn)) {
                    size_t tn = 0, before = code_blank_before(s, d);
                    code_word_before(s, before, &tn);
                    local = tn && before > 0 && source_is_identifier_char(c[before - 1]) &&
                            c[code_skip_space(s, d + wn)] == '[';
                }
            if (!local)
                return code_line_at(s, q);
        }
    }
    return 0;
}

int source_store_misses_counter(const char *path, char *counter, size_t counter_n, int *loop_line, int *read_line)
{
    source_code s;
    counter[0] = '\0';
    *loop_line = *read_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    int store = source_output_store_line(path);
    if (store <= 0)
        store = global_store_line(&s);
    if (store <= 0) {
        source_code_free(&s);
        return 0;
    }
    const char *c = s.code;
    int found = 0;
    size_t at = code_skip_space(&s, code_line_start(&s, store));
    for (size_t loop = code_loop_around(&s, at); loop < s.len && !found; loop = code_loop_around(&s, loop)) {
        size_t n = 0, w = code_for_counter(&s, loop, &n);
        if (w >= s.len || n >= counter_n)
            continue;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)n, c + w);
        if (source_line_reaches_name(path, store, name))
            continue;
        /* the passes differ: a subscript in the loop's body reads the counter */
        size_t body = code_loop_body(&s, loop), end = code_body_end(&s, body);
        for (size_t q = body; q < end && q < s.len && !*read_line; q++) {
            if (c[q] != '[')
                continue;
            size_t close = code_matching(&s, q);
            for (size_t i = q + 1; close < s.len && i < close && !*read_line; i++)
                if (code_name_at(&s, i, name, n) && !code_stored_at(&s, q, 0))
                    *read_line = code_line_at(&s, q);
        }
        if (!*read_line)
            continue;
        found = store;
        *loop_line = code_line_at(&s, loop);
        snprintf(counter, counter_n, "%s", name);
    }
    source_code_free(&s);
    return found;
}

/* ---- a barrier placed after the reads it was to keep after the stores ------- */

int source_barrier_after_read(const char *path, int write_line, int read_line)
{
    source_code s;
    if (write_line <= 0 || read_line <= write_line || !source_code_read(&s, path))
        return 0;
    size_t w = code_skip_space(&s, code_line_start(&s, write_line)), r = code_skip_space(&s, code_line_start(&s, read_line));
    /* the innermost loop around both (or the kernel's body) */
    size_t loop = code_loop_around(&s, w), end = s.len;
    while (loop < s.len) {
        size_t b = code_loop_body(&s, loop), e = code_body_end(&s, b);
        if (b <= r && r <= e) {
            end = e;
            break;
        }
        loop = code_loop_around(&s, loop);
    }
    if (end >= s.len) {
        size_t kernel = code_kernel_before(&s, w), kclose = s.len;
        if (kernel < s.len)
            code_kernel_body(&s, kernel, &kclose);
        end = kclose;
    }
    int found = 0, between = 0, after = 0;
    for (size_t k = w; k < end && k < s.len; k++) {
        if (!code_word_at(&s, k, "__syncthreads"))
            continue;
        if (k < r)
            between = 1;
        else if (!found)
            found = code_line_at(&s, k);
        else
            after = 1;
        k += 12;
    }
    int in_loop = loop < s.len;
    source_code_free(&s);
    /* in a loop, the last barrier of its body keeps the next pass's stores
     * after this pass's reads: that one is in its place, and the barrier
     * missing is the other; one before it is the one misplaced */
    return between || (in_loop && !after) ? 0 : found;
}

/* ---- a store that adds into what is there ------------------------------------- */

/* Whether value (the text added) reads the counter of a for loop around
 * line: a sum made in the array over that loop, not one value stored. */
static int adds_over_a_loop(const char *path, int line, const char *value)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 1;
    int reads = 0;
    size_t pos = code_line_start(&s, line);
    pos = pos < s.len ? code_skip_space(&s, pos) : pos;
    for (size_t loop = pos < s.len ? code_loop_around(&s, pos) : s.len; loop < s.len && !reads;
         loop = code_loop_around(&s, loop)) {
        size_t cn = 0, cv = code_for_counter(&s, loop, &cn);
        if (cv >= s.len || cn == 0)
            continue;
        for (const char *p = value; *p && !reads; p++)
            reads = !strncmp(p, s.code + cv, cn) && (p == value || !source_is_identifier_char(p[-1])) &&
                    !source_is_identifier_char(p[cn]);
    }
    source_code_free(&s);
    return reads;
}

int source_store_as_assignment(const char *path, int line, char *out, size_t n)
{
    out[0] = '\0';
    char *text = source_line_text(path, line, 400);
    char *code = source_code_text(text);
    /* `X[...] op= v;` or `atomicOp(&X[...], v);`, the whole line */
    const char *atomics[] = { "atomicAdd", "atomicSub", "atomicMax", "atomicMin", "atomicExch", NULL };
    int done = 0;
    for (int i = 0; atomics[i] && !done; i++) {
        size_t w = strlen(atomics[i]);
        if (strncmp(code, atomics[i], w) != 0)
            continue;
        const char *p = code + w;
        while (*p == ' ')
            p++;
        if (*p++ != '(')
            break;
        while (*p == ' ')
            p++;
        if (*p++ != '&')
            break;
        /* the target up to the top-level comma, the value up to the call's close */
        int depth = 0;
        const char *comma = NULL, *close = NULL;
        for (const char *q = p; *q && !close; q++) {
            if (*q == '(' || *q == '[')
                depth++;
            else if ((*q == ')' || *q == ']') && depth > 0)
                depth--;
            else if (*q == ')' && depth == 0)
                close = q;
            else if (*q == ',' && depth == 0 && !comma)
                comma = q;
        }
        if (!comma || !close || close < comma)
            break;
        const char *rest = close + 1;
        while (*rest == ' ')
            rest++;
        if (strcmp(rest, ";") != 0)
            break;
        const char *v = comma + 1;
        while (*v == ' ')
            v++;
        size_t tl = (size_t)(comma - p), vl = (size_t)(close - v);
        while (tl > 0 && p[tl - 1] == ' ')
            tl--;
        while (vl > 0 && v[vl - 1] == ' ')
            vl--;
        if (tl && vl && memchr(p, '[', tl))
            done = snprintf(out, n, "%.*s = %.*s;", (int)tl, p, (int)vl, v) < (int)n;
    }
    if (!done && !out[0]) {
        /* `X[...] += v;` */
        const char *br = strchr(code, '['), *op = strstr(code, "] ");
        const char *ops[] = { "] +=", "] -=", NULL };
        for (int i = 0; ops[i] && br && !done; i++) {
            op = strstr(code, ops[i]);
            if (!op || strchr(op + 4, '=') || strchr(code, '(') > br)
                continue;
            const char *v = op + 4;
            while (*v == ' ')
                v++;
            done = snprintf(out, n, "%.*s] = %s", (int)(op - code), code, v) < (int)n;
        }
    }
    /* the value added: what follows the last `=` (or the atomic's comma) */
    const char *eq = done ? strrchr(out, '=') : NULL;
    if (done && eq && adds_over_a_loop(path, line, eq + 1))
        done = 0;
    if (!done)
        out[0] = '\0';
    free(code);
    free(text);
    return done;
}

int source_store_cast_to_integer(const char *path, char *cast, size_t n)
{
    cast[0] = '\0';
    int line = source_output_store_line(path);
    if (line <= 0)
        return 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    static const char *const ints[] = { "int", "long", "short", "unsigned", "char", "size_t", NULL };
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : b;
    size_t eq = b;
    while (eq < e && !code_assigns_at(&s, eq))
        eq++;
    int found = 0;
    /* `(int)` or `int(` in the value stored */
    for (size_t k = eq + 1; k < e && !found; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t we = code_word_end(&s, k);
        if (we <= k || !code_word_in(code + k, we - k, ints)) {
            k = we > k ? we - 1 : k;
            continue;
        }
        size_t before = code_blank_before(&s, k), after = code_skip_space(&s, we);
        int c_cast = before > 0 && code[before - 1] == '(' && after < e && code[after] == ')';
        int f_cast = after < e && code[after] == '(';
        if ((c_cast || f_cast) && we - k < n) {
            snprintf(cast, n, "%.*s", (int)(we - k), code + k);
            found = line;
        }
        k = we - 1;
    }
    source_code_free(&s);
    return found;
}

int source_stored_value_reads_array(const char *path, int line)
{
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return -1;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    int reads = -1;
    for (size_t k = b; k < e && reads < 0; k++)
        if (code_assigns_at(&s, k)) {
            size_t end = code_semicolon(&s, k + 1, e);
            reads = memchr(s.code + k + 1, '[', end - k - 1) != NULL;
        }
    source_code_free(&s);
    return reads;
}

int source_tile_store_of_constant(const char *path, char *value, size_t n)
{
    source_code s;
    value[0] = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || isdigit((unsigned char)c[k]))
            continue;
        size_t we = code_word_end(&s, k);
        if (we == k || c[code_skip_space(&s, we)] != '[' || !code_stored_at(&s, k, we - k) ||
            !code_declared_shared(c, c + k, we - k)) {
            k = we > k ? we - 1 : k;
            continue;
        }
        /* the value: a number alone, not 0 */
        size_t q = code_skip_space(&s, we);
        while (q < s.len && c[q] == '[')
            q = code_skip_space(&s, code_matching(&s, q) + 1);
        if (q >= s.len || c[q] != '=')
            continue;
        size_t v = code_skip_space(&s, q + 1), ve = code_semicolon(&s, v, s.len);
        ve = code_blank_before(&s, ve);
        int number = v < ve, nonzero = 0;
        for (size_t i = v; i < ve && number; i++) {
            number = isdigit((unsigned char)c[i]) || c[i] == '.' || c[i] == 'f' || c[i] == 'F' || c[i] == '-';
            nonzero |= c[i] >= '1' && c[i] <= '9';
        }
        if (number && nonzero && ve - v < n) {
            snprintf(value, n, "%.*s", (int)(ve - v), c + v);
            found = code_line_at(&s, k);
        }
        k = we - 1;
    }
    source_code_free(&s);
    return found;
}
