/*
 * repairs.c - see repairs.h.
 */
#define _GNU_SOURCE
#include "repairs.h"
#include "source.h"
#include "util.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* An edit's size: how much of the source it changes, in characters, the
 * text both sides share at either end left out (emucc lists an operator's
 * edit with its operands: `ph <= n` to `ph < n` changes one character). */
static size_t edit_size(const repair_candidate *c)
{
    /* a conditional's value taken whole, its condition and other branch
     * dropped (emucc's `conditional`): one edit of the structure, however
     * long the text it drops; before an operator's edit inside the
     * condition that makes it never hold, which says the same obscurely */
    if (!strcmp(c->kind, "conditional"))
        return 1;
    /* the same terms regrouped (emucc's `grouping`): the characters the
     * edit adds or takes away, whatever it moves (a parenthesis moved past
     * a comparison is one edit, not the text between its two places) */
    if (!strcmp(c->kind, "grouping")) {
        int count[256] = { 0 };
        for (const unsigned char *p = (const unsigned char *)c->from; *p; p++)
            count[*p] += *p != ' ';
        for (const unsigned char *p = (const unsigned char *)c->to; *p; p++)
            count[*p] -= *p != ' ';
        size_t moved = 0;
        for (int i = 0; i < 256; i++)
            moved += (size_t)(count[i] < 0 ? -count[i] : count[i]);
        return moved ? moved : 1;
    }
    size_t a = strlen(c->from), b = strlen(c->to), head = 0, tail = 0;
    while (head < a && head < b && c->from[head] == c->to[head])
        head++;
    while (tail < a - head && tail < b - head && c->from[a - 1 - tail] == c->to[b - 1 - tail])
        tail++;
    return (a - head - tail) + (b - head - tail);
}

static int word_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

/* The axis a name is for, from its last letters (`by`, `ty`, `blk_y`,
 * `blockY`: 'y'), or 0. */
static char name_axis(const char *w, size_t n)
{
    char last = n ? (char)(w[n - 1] | 0x20) : 0;
    if (last < 'x' || last > 'z')
        return 0;
    if (n == 2 && w[0] >= 'a' && w[0] <= 'z')
        return last;
    if (n > 2 && (w[n - 2] == '_' || (w[n - 1] >= 'X' && w[n - 1] <= 'Z' && w[n - 2] >= 'a' && w[n - 2] <= 'z')))
        return last;
    return 0;
}

/* Whether the edit gives a name for one axis a built-in index of that
 * axis (1: `by = blockIdx.y` for `by = blockIdx.x`), of another (-1: `bx
 * = blockIdx.y`), or neither (0): of two edits of one line that mend the
 * same, the one that makes a name and its index agree. */
static int axis_agreement(const repair_candidate *c)
{
    const char *eq = strchr(c->context, '=');
    size_t e = eq ? (size_t)(eq - c->context) : 0;
    while (e > 0 && c->context[e - 1] == ' ')
        e--;
    size_t b = e;
    while (b > 0 && word_char(c->context[b - 1]))
        b--;
    char axis = name_axis(c->context + b, e - b);
    const char *dot = strrchr(c->to, '.');
    if (!axis || !dot || !strchr("xyz", dot[1]) || dot[2] || strchr(c->from, '.') == NULL)
        return 0;
    return dot[1] == axis ? 1 : -1;
}

/* A quotient rounded up: emucc's `round-up`, or `twin-round-up` (the
 * same in both of a dim3's arguments). */
static int rounds_up(const repair_candidate *c)
{
    return !strcmp(c->kind, "round-up") || !strcmp(c->kind, "twin-round-up");
}

int repairs_compare(const repair_candidate *a, const repair_candidate *b)
{
    /* an edit of a pattern no correct file writes (emucc's `coordinates`:
     * threadIdx * blockDim + blockIdx) is tried before any other */
    int sa = !strcmp(a->kind, "coordinates"), sb = !strcmp(b->kind, "coordinates");
    if (sa != sb)
        return sa ? -1 : 1;
    if (a->pointed != b->pointed)
        return a->pointed ? -1 : 1;
    if (a->foreign != b->foreign)
        return a->foreign ? 1 : -1;
    /* a quotient rounded up (emucc's `round-up`: a count of blocks) before
     * a smaller edit that mends the same runs by launching more (the
     * division dropped: a grid of width blocks where width / 16 rounded
     * up is meant, the kernel's bounds test idling the rest) */
    int ra = rounds_up(a), rb = rounds_up(b);
    if (ra != rb)
        return ra ? -1 : 1;
    /* an index written whole as another access writes its own (emucc's
     * `sibling`) after any edit of a name or an operator that mends it:
     * that says which word is wrong, the whole index only that it is */
    int la = !strcmp(a->kind, "sibling"), lb = !strcmp(b->kind, "sibling");
    if (la != lb)
        return la ? 1 : -1;
    size_t ea = edit_size(a), eb = edit_size(b);
    if (ea != eb)
        return ea < eb ? -1 : 1;
    if (a->line != b->line)
        return a->line < b->line ? -1 : 1;
    int xa = axis_agreement(a), xb = axis_agreement(b);
    if (xa != xb)
        return xa > xb ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

int repairs_tie(const repair_candidate *a, const repair_candidate *b)
{
    return !strcmp(a->kind, "coordinates") == !strcmp(b->kind, "coordinates") && a->pointed == b->pointed &&
           a->foreign == b->foreign && rounds_up(a) == rounds_up(b) &&
           !strcmp(a->kind, "sibling") == !strcmp(b->kind, "sibling") &&
           edit_size(a) == edit_size(b);
}



/* The times the word w (n characters) is written in text, as a whole word. */
static int word_count(const char *text, const char *w, size_t n)
{
    int times = 0;
    for (const char *p = text; n > 0 && *p; p++)
        if (strncmp(p, w, n) == 0 && (p == text || !word_char(p[-1])) && !word_char(p[n]))
            times++;
    return times;
}

/* The argument of the call `call(` in text (`cudaFree(`), casts and
 * blanks before it skipped (`cudaFree((void *)M)`: M), into name; *address
 * 1 where an `&` stands before it (`cudaFree(&d_M)`). 1, or 0 when the
 * call is not there or its argument is no plain name. */
static int freed_argument(const char *text, const char *call, char *name, size_t size, int *address)
{
    const char *p = strstr(text, call);
    *address = 0;
    if (!p)
        return 0;
    p += strlen(call);
    for (;;) {
        while (*p == ' ')
            p++;
        if (*p != '(')
            break;
        const char *close = strchr(p, ')'); /* a cast: `(void *)` */
        if (!close || (strchr(p + 1, '(') && strchr(p + 1, '(') < close))
            return 0;
        p = close + 1;
    }
    if (*p == '&') {
        *address = 1;
        p++;
        while (*p == ' ')
            p++;
    }
    /* a name, or a member of one (`in->data`, `img.data`) */
    size_t n = 0;
    while (word_char(p[n]) || (p[n] == '.' && word_char(p[n + 1])) ||
           (p[n] == '-' && p[n + 1] == '>' && word_char(p[n + 2])))
        n += p[n] == '-' ? 2 : 1;
    const char *q = p + n;
    while (*q == ' ')
        q++;
    if (n == 0 || n >= size || *q != ')' || (*p >= '0' && *p <= '9'))
        return 0;
    snprintf(name, size, "%.*s", (int)n, p);
    return 1;
}

/* A name the source allocates (`cudaMalloc((void **)&d_in`, any
 * cudaMalloc*) and never frees (no `cudaFree(d_in)`): into out, or "". */
static void unfreed_allocation(const char *source, char *out, size_t size)
{
    out[0] = '\0';
    for (const char *p = strstr(source, "cudaMalloc"); p && !out[0]; p = strstr(p + 1, "cudaMalloc")) {
        /* the first argument's `&name`, past a cast's bracket */
        const char *open = strchr(p, '('), *amp = open ? strchr(open, '&') : NULL;
        const char *comma = open ? strchr(open, ',') : NULL;
        if (!amp || !comma || amp > comma)
            continue;
        const char *w = amp + 1;
        while (*w == ' ')
            w++;
        size_t n = 0;
        while (word_char(w[n]))
            n++;
        if (n == 0 || n >= size)
            continue;
        char name[64], freed[80], spaced[80];
        snprintf(name, sizeof name, "%.*s", (int)n, w);
        snprintf(freed, sizeof freed, "cudaFree(%s)", name);
        snprintf(spaced, sizeof spaced, "cudaFree( %s", name);
        if (!strstr(source, freed) && !strstr(source, spaced))
            snprintf(out, size, "%s", name);
    }
}

static void edit_adds(const repair_candidate *c, int *after, int *before);

/* The weaker barrier a statement calls alone (`__threadfence_block();`),
 * or NULL. */
static const char *weaker_barrier(const char *code, size_t n)
{
    while (n > 0 && (*code == ' ' || *code == '\t'))
        code++, n--;
    for (int i = 0; source_weak_barriers[i]; i++) {
        size_t w = strlen(source_weak_barriers[i]);
        if (n > w && !strncmp(code, source_weak_barriers[i], w) && !word_char(code[w]))
            return source_weak_barriers[i];
    }
    return NULL;
}

/* For a __syncthreads() the edit adds after (or before) the statement
 * at its line: the code line next to that one on that side, blank and
 * comment-only lines passed over, where it is a weaker barrier alone. */
static void mark_weak_neighbour(repair_candidate *c, const char *code)
{
    int after, before;
    edit_adds(c, &after, &before);
    if (!(after || before) || !strstr(c->to, "__syncthreads") || strstr(c->from, "__syncthreads"))
        return;
    /* the lines' starts, to walk either way */
    int nlines = 1;
    for (const char *p = code; *p; p++)
        nlines += *p == '\n';
    const char **start = xmalloc((size_t)(nlines + 1) * sizeof *start);
    start[0] = code;
    int k = 1;
    for (const char *p = code; *p; p++)
        if (*p == '\n')
            start[k++] = p + 1;
    start[k] = code + strlen(code) + 1;
    for (int l = c->line + (after ? 1 : -1); l >= 1 && l <= nlines; l += after ? 1 : -1) {
        const char *p = start[l - 1];
        size_t n = (size_t)(start[l] - 1 - p);
        size_t blank = 0;
        while (blank < n && (p[blank] == ' ' || p[blank] == '\t' || p[blank] == '\r'))
            blank++;
        if (blank == n)
            continue;
        if (weaker_barrier(p, n)) {
            c->weak_line = l;
            while (n > 0 && (p[n - 1] == ' ' || p[n - 1] == '\r' || p[n - 1] == '\t'))
                n--;
            snprintf(c->weak_text, sizeof c->weak_text, "%.*s", (int)(n - blank), p + blank);
        }
        break;
    }
    free(start);
}

/* Whether statement (`d_in_img.data = d_in;`) stores a plain name that a
 * cudaMalloc or cudaMallocPitch of source allocates (`&d_in`): the device
 * buffer handed to what the kernel reads. Dropped, the kernel would read
 * whatever the name held before, the host's memory, which the emulator
 * reaches and a GPU does not: no repair. */
static int hands_device_buffer(const char *source, const char *statement)
{
    const char *eq = strchr(statement, '=');
    if (!eq || eq == statement || eq[1] == '=' || strchr("!<>=+-*/", eq[-1]))
        return 0;
    const char *v = eq + 1;
    while (*v == ' ')
        v++;
    size_t n = 0;
    while (word_char(v[n]))
        n++;
    const char *rest = v + n;
    while (*rest == ' ')
        rest++;
    if (!n || (v[0] >= '0' && v[0] <= '9') || strcmp(rest, ";") != 0)
        return 0;
    for (const char *p = strchr(source, '&'); p; p = strchr(p + 1, '&')) {
        const char *w = p + 1;
        while (*w == ' ')
            w++;
        if (strncmp(w, v, n) != 0 || word_char(w[n]))
            continue;
        const char *line = p;
        while (line > source && line[-1] != '\n')
            line--;
        const char *m = strstr(line, "cudaMalloc");
        if (m && m < p)
            return 1;
    }
    return 0;
}

void repairs_mark_foreign(repair_candidate *c, int n, const char *source)
{
    char *code_text = source_code_text(source);
    for (int i = 0; i < n; i++)
        mark_weak_neighbour(&c[i], code_text);
    free(code_text);
    for (int i = 0; i < n; i++) {
        /* a cudaFree of a name whose address the file never takes: no
         * allocation of the file made it (the caller's buffer) */
        char name[64], amp[68];
        int address = 0;
        if (!strcmp(c[i].kind, "drop") && freed_argument(c[i].from, "cudaFree(", name, sizeof name, &address) &&
            !address) {
            snprintf(amp, sizeof amp, "&%s", name);
            int taken = strstr(source, amp) != NULL;
            snprintf(amp, sizeof amp, "& %s", name);
            c[i].freed_foreign = !taken && !strstr(source, amp);
            if (c[i].freed_foreign) {
                /* code alone: a comment that names a free is none */
                char *code = source_code_text(source);
                unfreed_allocation(code, c[i].unfreed, sizeof c[i].unfreed);
                free(code);
            }
        }
        if (!strcmp(c[i].kind, "drop"))
            c[i].hands_device = hands_device_buffer(source, c[i].from);
        if (strcmp(c[i].kind, "builtin") != 0)
            continue;
        size_t w = strcspn(c[i].to, ".");
        c[i].foreign = w > 0 && word_count(source, c[i].to, w) == 0;
    }
}

/* Whether source launches with `<<<grid, block` (blanks allowed around
 * the comma). */
static int launches_with(const char *source, const char *grid, const char *block)
{
    size_t gn = strlen(grid), bn = strlen(block);
    for (const char *p = strstr(source, "<<<"); p; p = strstr(p + 3, "<<<")) {
        const char *q = p + 3;
        while (*q == ' ')
            q++;
        if (strncmp(q, grid, gn) != 0 || word_char(q[gn]))
            continue;
        q += gn;
        while (*q == ' ')
            q++;
        if (*q != ',')
            continue;
        q++;
        while (*q == ' ')
            q++;
        if (strncmp(q, block, bn) == 0 && !word_char(q[bn]))
            return 1;
    }
    return 0;
}

int repairs_drop_grid_as_block(repair_candidate *c, int n, const char *source)
{
    int kept = 0;
    for (int i = 0; i < n; i++) {
        size_t fl = strlen(c[i].from);
        const char *at = strstr(c[i].context, "<<<");
        int grid_arg = at && !strncmp(at + 3 + strspn(at + 3, " "), c[i].from, fl);
        /* ... or the block made the grid (`<<<dimBlock, dimGrid>>>`, the
         * two exchanged, with dimGrid made dimBlock): the same launch */
        const char *e = c[i].at >= 0 && (size_t)c[i].at < strlen(c[i].context) ? c[i].context + c[i].at
                                                                               : strstr(c[i].context, c[i].from);
        const char *after = e && fl && !strncmp(e, c[i].from, fl) ? e + fl + strspn(e + fl, " ") : NULL;
        int block_arg = after && (!strncmp(after, ">>>", 3) || *after == ',');
        if (c[i].from[0] && c[i].to[0] &&
            ((grid_arg && launches_with(source, c[i].from, c[i].to)) ||
             (block_arg && launches_with(source, c[i].to, c[i].from))))
            continue;
        c[kept++] = c[i];
    }
    return kept;
}

/* The part of an edit that differs, widened to whole words on both
 * sides: it starts at *head of from and of to, *out characters of from,
 * *in of to. 0 when it is not one word for another. */
static int differing_word(const repair_candidate *c, size_t *head_, size_t *out_, size_t *in_)
{
    size_t a = strlen(c->from), b = strlen(c->to), head = 0, tail = 0;
    while (head < a && head < b && c->from[head] == c->to[head])
        head++;
    while (tail < a - head && tail < b - head && c->from[a - 1 - tail] == c->to[b - 1 - tail])
        tail++;
    while (head > 0 && word_char(c->from[head - 1]))
        head--;
    while (tail > 0 && word_char(c->from[a - tail]))
        tail--;
    size_t out = a - head - tail, in = b - head - tail;
    if (out == 0 || in == 0)
        return 0;
    for (size_t i = 0; i < out; i++)
        if (!word_char(c->from[head + i]))
            return 0;
    for (size_t i = 0; i < in; i++)
        if (!word_char(c->to[head + i]))
            return 0;
    *head_ = head, *out_ = out, *in_ = in;
    return 1;
}

int repairs_agreement(const repair_candidate *c)
{
    size_t head, out, in;
    if (!differing_word(c, &head, &out, &in))
        return 0;
    int brought = word_count(c->context, c->to + head, in);
    int taken = word_count(c->context, c->from + head, out);
    return brought - (taken > 0 ? taken - 1 : 0);
}

struct part_count {
    const char *part;
    size_t n;
    int times;
};

static void count_part(const char *p, size_t n, void *arg)
{
    struct part_count *c = arg;
    if (n == c->n && strncasecmp(p, c->part, n) == 0)
        c->times++;
}

/* The times part (n characters) is a part of an identifier of text. */
static int part_count(const char *text, const char *part, size_t n)
{
    struct part_count c = { part, n, 0 };
    for (const char *p = text; *p;) {
        if (!word_char(*p) || (p > text && word_char(p[-1]))) {
            p++;
            continue;
        }
        size_t len = 0;
        while (word_char(p[len]))
            len++;
        if (!(*p >= '0' && *p <= '9'))
            source_identifier_parts(p, len, count_part, &c);
        p += len;
    }
    return c.times;
}

struct parts {
    const char *part[8];
    size_t n[8];
    int count;
};

static void keep_part(const char *p, size_t n, void *arg)
{
    struct parts *ps = arg;
    if (ps->count < 8) {
        ps->part[ps->count] = p;
        ps->n[ps->count++] = n;
    }
}

static int has_part(const struct parts *ps, const char *p, size_t n)
{
    for (int i = 0; i < ps->count; i++)
        if (ps->n[i] == n && strncasecmp(ps->part[i], p, n) == 0)
            return 1;
    return 0;
}

/* text's lines, each with its blanks taken out (a copy each), and their
 * count in *n. */
static char **squeezed_lines(const char *text, int *n)
{
    int cap = 1;
    for (const char *p = text; *p; p++)
        cap += *p == '\n';
    char **lines = xcalloc((size_t)cap, sizeof *lines);
    int k = 0;
    for (const char *p = text; *p && k < cap;) {
        size_t len = strcspn(p, "\n");
        char *out = xmalloc(len + 1);
        size_t o = 0;
        for (size_t i = 0; i < len; i++)
            if (p[i] != ' ' && p[i] != '\t' && p[i] != '\r')
                out[o++] = p[i];
        out[o] = '\0';
        lines[k++] = out;
        p += len + (p[len] == '\n');
    }
    *n = k;
    return lines;
}

static void free_lines(char **lines, int n)
{
    for (int i = 0; i < n; i++)
        free(lines[i]);
    free(lines);
}

/* Whether line `at` (from 1) of mine is matched to a line of ref by the
 * longest common subsequence of the two files' lines, the earliest match
 * taken where there is a choice: a line the file shares with the
 * reference in the reference's order is kept, one written in another's
 * place is not (`cudaFree(d_in);` twice, where the reference frees d_in
 * and then d_out: the second departs). Past LCS_CELLS_MAX cells, whether
 * the reference has the line anywhere. */
#define LCS_CELLS_MAX (4u << 20)

static int line_matched(char **mine, int n, char **ref, int m, int at)
{
    if ((size_t)(n + 1) * (size_t)(m + 1) > LCS_CELLS_MAX) {
        for (int k = 0; k < m; k++)
            if (!strcmp(mine[at - 1], ref[k]))
                return 1;
        return 0;
    }
    /* suffix lengths: len[i][j] is the LCS of mine[i..] and ref[j..] */
    unsigned short *len = xcalloc((size_t)(n + 1) * (size_t)(m + 1), sizeof *len);
#define LEN(i, j) len[(size_t)(i) * (size_t)(m + 1) + (size_t)(j)]
    for (int i = n - 1; i >= 0; i--)
        for (int j = m - 1; j >= 0; j--)
            LEN(i, j) = !strcmp(mine[i], ref[j]) ? (unsigned short)(LEN(i + 1, j + 1) + 1)
                      : LEN(i + 1, j) > LEN(i, j + 1) ? LEN(i + 1, j) : LEN(i, j + 1);
    int matched = 0;
    for (int i = 0, j = 0; i < n && j < m && i < at;) {
        if (!strcmp(mine[i], ref[j]) && LEN(i, j) == LEN(i + 1, j + 1) + 1) {
            matched = i == at - 1;
            i++, j++;
        } else if (LEN(i + 1, j) >= LEN(i, j + 1)) {
            i++;
        } else {
            j++;
        }
    }
#undef LEN
    free(len);
    return matched;
}

int repairs_reference_departure(const repair_candidate *c, const char *student_file, const char *reference)
{
    size_t n = 0, m = 0;
    /* the student's file as the build reads it: never through a link */
    char *why = NULL;
    char *mine = student_file ? untrusted_read(student_file, SUBMISSION_MAX_BYTES, 0, &n, &why) : NULL;
    char *ref = reference ? read_file(reference, &m) : NULL;
    free(why);
    int departs = 1;
    if (mine && ref) {
        int nm, nr;
        char **a = squeezed_lines(mine, &nm), **b = squeezed_lines(ref, &nr);
        /* a line too short to tell (`}`, `else`) says nothing */
        if (c->line >= 1 && c->line <= nm && strlen(a[c->line - 1]) >= 12)
            departs = !line_matched(a, nm, b, nr, c->line);
        free_lines(a, nm);
        free_lines(b, nr);
    }
    free(mine);
    free(ref);
    return departs;
}

int repairs_writes_reference_line(const repair_candidate *c, const char *reference)
{
    size_t fl = strlen(c->from);
    if (c->at < 0 || (size_t)c->at + fl > strlen(c->context) || strncmp(c->context + c->at, c->from, fl) != 0)
        return 0;
    size_t m = 0;
    char *ref = reference ? read_file(reference, &m) : NULL;
    if (!ref)
        return 0;
    /* an operator that makes its literal neutral (`+ 1` made `* 1`) drops
     * the term, as the sentence says it */
    size_t tl = strlen(c->to);
    int neutral = tl > 4 && (!strcmp(c->to + tl - 4, " * 1") || !strcmp(c->to + tl - 4, " / 1") ||
                             !strcmp(c->to + tl - 4, " + 0") || !strcmp(c->to + tl - 4, " - 0"));
    char *edited = xasprintf("%.*s%.*s%s", c->at, c->context, (int)(neutral ? tl - 4 : tl), c->to,
                             c->context + c->at + fl);
    /* blanks aside, the edited statement within one of the reference's lines */
    char *squeezed = xmalloc(strlen(edited) + 1);
    size_t o = 0;
    for (const char *p = edited; *p; p++)
        if (*p != ' ' && *p != '\t')
            squeezed[o++] = *p;
    squeezed[o] = '\0';
    int n = 0, found = 0;
    char **lines = squeezed_lines(ref, &n);
    for (int i = 0; i < n && !found && o >= 8; i++)
        found = strstr(lines[i], squeezed) != NULL;
    free_lines(lines, n);
    free(squeezed);
    free(edited);
    free(ref);
    return found;
}

int repairs_part_agreement(const repair_candidate *c)
{
    size_t head, out, in;
    if (!differing_word(c, &head, &out, &in))
        return 0;
    struct parts taken = { .count = 0 }, brought = { .count = 0 };
    source_identifier_parts(c->from + head, out, keep_part, &taken);
    source_identifier_parts(c->to + head, in, keep_part, &brought);
    int score = 0;
    /* a part the edit brings in, written elsewhere in the statement, is
     * agreement; a part it takes out, written elsewhere, disagreement
     * (the word being replaced is in the statement once: not counted) */
    for (int i = 0; i < brought.count; i++)
        if (!has_part(&taken, brought.part[i], brought.n[i]))
            score += part_count(c->context, brought.part[i], brought.n[i]);
    for (int i = 0; i < taken.count; i++)
        if (!has_part(&brought, taken.part[i], taken.n[i]))
            score -= part_count(c->context, taken.part[i], taken.n[i]) - 1;
    return score;
}

static int compare_void(const void *a, const void *b)
{
    return repairs_compare(a, b);
}

void repairs_sort(repair_candidate *c, int n)
{
    if (n > 1)
        qsort(c, (size_t)n, sizeof *c, compare_void);
}

int repairs_best_partial(const repair_candidate *c, int n, size_t wrong)
{
    int best = -1, second = -1;
    for (int i = 0; i < n; i++) {
        if (c[i].broken || c[i].fixed == 0 || c[i].hands_device)
            continue;
        if (best < 0 || c[i].fixed > c[best].fixed ||
            (c[i].fixed == c[best].fixed && repairs_compare(&c[i], &c[best]) < 0)) {
            if (best < 0 || c[i].line != c[best].line)
                second = best;
            best = i;
        } else if (c[i].line != c[best].line && (second < 0 || c[i].fixed > c[second].fixed)) {
            second = i;
        }
    }
    if (best < 0 || wrong == 0 || (double)c[best].fixed < REPAIRS_PARTIAL_SHARE * (double)wrong)
        return -1;
    /* another line mending nearly as much: the evidence does not place it */
    if (second >= 0 && c[second].fixed * 10 >= c[best].fixed * 9)
        return -1;
    return best;
}

/* Whether the edit adds text after from (*after) or before it
 * (*before), from kept whole: a statement or a term added. Not where the
 * text joins from's first or last word (`P` to `d_P` is another name). */
static void edit_adds(const repair_candidate *c, int *after, int *before)
{
    size_t a = strlen(c->from), b = strlen(c->to);
    *after = a > 0 && b > a && strncmp(c->to, c->from, a) == 0 &&
             !(word_char(c->from[a - 1]) && word_char(c->to[a]));
    *before = !*after && a > 0 && b > a && strcmp(c->to + b - a, c->from) == 0 &&
              !(word_char(c->from[0]) && word_char(c->to[b - a - 1]));
}

/* "with `to` there" / "without it" / "with `x` added after it": the edit
 * in words (emucc lists a statement added as the one beside it replaced
 * by the two). */
static char *edit_words(const repair_candidate *c)
{
    size_t a = strlen(c->from), b = strlen(c->to);
    int after, before;
    edit_adds(c, &after, &before);
    if (!c->to[0])
        return xstrdup("without it");
    if (after)
        return xasprintf("with `%s` added after it", c->to + a + strspn(c->to + a, " "));
    if (before) {
        size_t n = b - a;
        while (n > 0 && c->to[n - 1] == ' ')
            n--;
        return xasprintf("with `%.*s` added before it", (int)n, c->to);
    }
    return xasprintf("with `%s` there", c->to);
}

/* Which of several equal words of the context the edit is ("second"),
 * where the context writes from more than once as a word and the edit's
 * place in it is known; "" otherwise. */
static const char *occurrence_words(const repair_candidate *c)
{
    static const char *const nth[] = { "first", "second", "third", "fourth" };
    size_t n = strlen(c->from);
    int count = 0, which = -1;
    for (const char *p = n ? strstr(c->context, c->from) : NULL; p; p = strstr(p + 1, c->from)) {
        if ((p > c->context && word_char(p[-1]) && word_char(c->from[0])) || (word_char(p[n]) && word_char(c->from[n - 1])))
            continue;
        if (p - c->context == c->at)
            which = count;
        count++;
    }
    return count > 1 && which >= 0 && which < 4 ? nth[which] : "";
}

/* What of the statement the edit changes: "`from` in `context`", or the
 * statement alone when the edit is all of it. */
static char *edit_place(const repair_candidate *c)
{
    size_t n = strlen(c->from);
    if (!c->from[0])
        return xasprintf("`%s`", c->context);
    /* a statement taken out: emucc's context is the statement less its ';' */
    if (!c->context[0] || strcmp(c->from, c->context) == 0 ||
        (n > 1 && c->from[n - 1] == ';' && strncmp(c->from, c->context, n - 1) == 0 && !c->context[n - 1]))
        return xasprintf("`%s`", c->from);
    const char *nth = occurrence_words(c);
    if (nth[0])
        return xasprintf("`%s` in `%s` (its %s `%s`)", c->from, c->context, nth, c->from);
    return xasprintf("`%s` in `%s`", c->from, c->context);
}

/* An edit that makes a term the identity of its operation takes the term
 * out: `width - 1` with 0 for 1, `Col + 1` with `*` for `+`. The term
 * (`- 1`) into out, when the edit is one of those; else 0. */
static int edit_drops_term(const repair_candidate *c, char *out, size_t n)
{
    size_t lf = strlen(c->from), lt = strlen(c->to), p = 0, s = 0;
    while (p < lf && p < lt && c->from[p] == c->to[p])
        p++;
    while (s < lf - p && s < lt - p && c->from[lf - 1 - s] == c->to[lt - 1 - s])
        s++;
    const char *fm = c->from + p, *tm = c->to + p;
    size_t fn = lf - p - s, tn = lt - p - s;
    /* a number made 0 after + or -, or 1 after * or / */
    if (fn > 0 && strspn(fm, "0123456789") >= fn && tn == 1 && (*tm == '0' || *tm == '1') &&
        !(p > 0 && word_char(c->from[p - 1])) && !word_char(fm[fn])) {
        size_t q = p;
        while (q > 0 && c->from[q - 1] == ' ')
            q--;
        const char *ops = *tm == '0' ? "+-" : "*/";
        if (q >= 2 && strchr(ops, c->from[q - 1]) && c->from[q - 2] == ' ') {
            snprintf(out, n, "%c %.*s", c->from[q - 1], (int)fn, fm);
            return 1;
        }
        /* the edit is the number alone: its operator from the statement,
         * where the statement writes `op number` once */
        int count = 0;
        for (const char *w = p == 0 && s == 0 ? strstr(c->context, c->from) : NULL; w; w = strstr(w + 1, c->from)) {
            const char *b = w;
            while (b > c->context && b[-1] == ' ')
                b--;
            if (word_char(w[lf]) || (w > c->context && word_char(w[-1])) || b - c->context < 2 ||
                !strchr(ops, b[-1]) || b[-2] != ' ')
                continue;
            snprintf(out, n, "%c %s", b[-1], c->from);
            count++;
        }
        return count == 1;
    }
    /* + or - made * before a 1 */
    if (fn == 1 && tn == 1 && (*fm == '+' || *fm == '-') && *tm == '*') {
        const char *one = fm + 1 + strspn(fm + 1, " ");
        if (one[0] != '1' || word_char(one[1]) || one[1] == '.')
            return 0;
        snprintf(out, n, "%c 1", *fm);
        return 1;
    }
    return 0;
}

/* A swap of two subscripts (`i, j` for `Mc[i][j]`): the element as the
 * statement writes it, `Mc[i][j]`, where it writes `[from][to]` once after
 * a name; else NULL. */
static char *swapped_subscripts(const repair_candidate *c)
{
    const char *comma = strstr(c->from, ", ");
    if (!comma)
        return NULL;
    char *pair = xasprintf("[%.*s][%s]", (int)(comma - c->from), c->from, comma + 2);
    const char *at = strstr(c->context, pair), *b = at;
    if (!at || strstr(at + 1, pair)) {
        free(pair);
        return NULL;
    }
    while (b > c->context && word_char(b[-1]))
        b--;
    char *element = b < at ? xasprintf("%.*s%s", (int)(at - b), b, pair) : NULL;
    free(pair);
    return element;
}

/* That element with its subscripts the other way round, `Mc[j][i]`. */
static char *swapped_to(const repair_candidate *c, const char *element)
{
    const char *comma = strstr(c->to, ", ");
    size_t name = strcspn(element, "[");
    return xasprintf("%.*s[%.*s][%s]", (int)name, element, comma ? (int)(comma - c->to) : 0, c->to,
                     comma ? comma + 2 : "");
}

/* Whether the quotient text divides in floating point: a cast to float
 * or double (`k / (float)TILE_WIDTH`), or a literal with a point or an
 * exponent (`k / 16.0f`). */
static int float_quotient(const char *text)
{
    if (strstr(text, "(float)") || strstr(text, "(double)") || strstr(text, "( float )") ||
        strstr(text, "( double )"))
        return 1;
    for (const char *p = text; *p; p++)
        if (*p >= '0' && *p <= '9' && (p == text || !word_char(p[-1]))) {
            const char *q = p;
            while (*q >= '0' && *q <= '9')
                q++;
            if (*q == '.' || *q == 'e' || *q == 'E')
                return 1;
            p = q - 1;
        }
    return 0;
}

/* The call that rounds the quotient from to the nearest whole number in
 * the statement (`roundf(` of `roundf(k / (float)TILE_WIDTH)`), its
 * name; NULL when none takes it. */
static const char *rounded_to_nearest(const char *context, const char *from)
{
    static const char *const calls[] = { "roundf", "round", "lroundf", "lround", "rintf", "rint", "nearbyintf",
                                         "nearbyint", NULL };
    const char *at = strstr(context, from);
    if (!at)
        return NULL;
    for (int i = 0; calls[i]; i++) {
        size_t n = strlen(calls[i]);
        for (const char *p = strstr(context, calls[i]); p && p < at; p = strstr(p + 1, calls[i])) {
            if ((p > context && word_char(p[-1])) || p[n] != '(')
                continue;
            /* its parentheses hold the quotient */
            int depth = 0;
            const char *q = p + n;
            for (; *q; q++) {
                depth += *q == '(';
                depth -= *q == ')';
                if (depth == 0)
                    break;
            }
            if (*q && q >= at + strlen(from))
                return calls[i];
        }
    }
    return NULL;
}

char *repairs_sentence(const repair_candidate *c, int full, int ndatasets, const char *dataset, size_t wrong,
                       const repair_candidate *also)
{
    char *place = edit_place(c), *words = edit_words(c), term[64], name[64], *subscripts = NULL;
    int address = 0;
    if (!strcmp(c->kind, "swap") && (subscripts = swapped_subscripts(c)) != NULL) {
        /* `i, j` is no text of the statement: the element as written */
        char *to = swapped_to(c, subscripts);
        free(place);
        free(words);
        place = xasprintf("`%s` in `%s`", subscripts, c->context);
        words = xasprintf("with its two subscripts the other way round, `%s`, there", to);
        free(to);
        free(subscripts);
    } else if (!also && edit_drops_term(c, term, sizeof term)) {
        free(place);
        free(words);
        const char *in = c->context[0] && strstr(c->context, term) ? c->context : c->from;
        place = xasprintf("`%s` in `%s`", term, in);
        words = xstrdup("without it");
    }
    if (!c->from[0]) {
        free(words);
        words = xasprintf("with `%s` added there", c->to);
    }
    char *result;
    if (full && ndatasets == 1)
        result = xstrdup("the dataset comes out right");
    else if (full)
        result = xasprintf("all %d datasets come out right", ndatasets);
    else
        result = xasprintf("%zu of the %zu wrong element%s of %s come%s out right, and no right one goes wrong",
                           c->fixed, wrong, wrong == 1 ? "" : "s", dataset, c->fixed == 1 ? "s" : "");
    char *other = also ? xasprintf(" (so does `%s` for `%s` at line %d: look at both)", also->to, also->from,
                                   also->line)
                       : xstrdup("");
    size_t a = strlen(c->from), b = strlen(c->to);
    int after, before;
    edit_adds(c, &after, &before);
    char *s;
    /* a block's barrier added beside a weaker one (`__syncwarp()`, a
     * fence): that one orders a warp (or memory) only, where the tile is
     * the whole block's; it is the mistake, to be replaced */
    const char *weak = NULL;
    int weak_line = c->line;
    const char *weak_from = c->from;
    for (int i = 0; (after || before) && source_weak_barriers[i] && !weak; i++)
        if (strstr(c->from, source_weak_barriers[i]) && strstr(c->to + (after ? a : 0), "__syncthreads") &&
            !strstr(c->from, "__syncthreads"))
            weak = source_weak_barriers[i];
    if (!weak && c->weak_line > 0) { /* the weaker one a line or more away, comments between */
        weak = weaker_barrier(c->weak_text, strlen(c->weak_text));
        weak_line = c->weak_line;
        weak_from = c->weak_text;
    }
    if (weak) {
        s = xasprintf("line %d: `%s` %s the mistake: %s() %s, where the tile it guards is the whole block's: write "
                      "`__syncthreads();` in its place: with a __syncthreads() there, %s%s",
                      weak_line, weak_from, full ? "looks like" : "is probably", weak,
                      !strcmp(weak, "__syncwarp") ? "waits only for the threads of one warp (32), not the block's others"
                                                  : "orders memory and waits for no thread",
                      result, other);
    } else if (after || before) { /* a statement added: what is missing, and beside what */
        size_t n = b - a;
        const char *added = after ? c->to + a + strspn(c->to + a, " ") : c->to;
        while (before && n > 0 && c->to[n - 1] == ' ')
            n--;
        s = xasprintf("line %d: `%.*s` %s missing %s `%s`: with it added there, %s%s", c->line,
                      after ? (int)strlen(added) : (int)n, added, full ? "looks" : "is probably",
                      after ? "after" : "before", c->from, result, other);
    } else if (!c->to[0] && freed_argument(c->from, "cudaFreeHost(", name, sizeof name, &address) && !address) {
        /* cudaFreeHost of memory cudaMallocHost never gave: refused */
        s = xasprintf("line %d: %s %s the mistake: it frees %s with cudaFreeHost, which frees only page-locked host "
                      "memory (what cudaMallocHost gave), and %s is not that, so the call fails; without it, %s%s: "
                      "free memory from cudaMalloc with `cudaFree(%s)`",
                      c->line, place, full ? "looks like" : "is probably", name, name, result, other, name);
    } else if (!c->to[0] && c->freed_foreign && freed_argument(c->from, "cudaFree(", name, sizeof name, &address)) {
        /* the caller's buffer: it frees it itself, later */
        char *instead = c->unfreed[0] ? xasprintf(", and free %s there instead, which the file allocates and never "
                                                  "frees", c->unfreed)
                                      : xstrdup("");
        s = xasprintf("line %d: %s %s the mistake: it frees %s, which no allocation of this file made (the caller's "
                      "buffer, which the caller still uses and frees itself); without it, %s%s: delete it%s",
                      c->line, place, full ? "looks like" : "is probably", name, result, other, instead);
        free(instead);
    } else if (!c->to[0] && freed_argument(c->from, "cudaFree(", name, sizeof name, &address) && address) {
        /* `cudaFree(&d_M)`: the address of the pointer, which no
         * cudaMalloc returned, so the call fails; without it nothing
         * fails, and the buffer is never freed */
        s = xasprintf("line %d: %s %s the mistake: it gives cudaFree `&%s`, the address of the variable %s, where "
                      "cudaFree takes the pointer cudaMalloc returned (cudaMalloc takes `&%s` to set it; cudaFree "
                      "takes `%s`), so the call fails; without it, %s%s: write `cudaFree(%s)`",
                      c->line, place, full ? "looks like" : "is probably", name, name, name, name, result, other,
                      name);
    } else if (!c->to[0] && strstr(c->from, "cudaFree(")) {
        /* a buffer freed too early: the program needs its free, later */
        s = xasprintf("line %d: %s %s the mistake: it frees the buffer before the program is done with it; "
                      "without it, %s%s: move it after the buffer's last use (beside the other cudaFree calls), "
                      "rather than delete it, or the buffer is never freed",
                      c->line, place, full ? "looks like" : "is probably", result, other);
    } else if (!strcmp(c->kind, "conditional")) { /* `c ? a : b` where one branch serves every case */
        s = xasprintf("line %d: the conditional `%s` %s the mistake: the case its condition treats apart gets a "
                      "wrong value, and `%s` alone serves every case: with `%s` in place of the whole conditional, "
                      "%s%s",
                      c->line, c->from, full ? "looks like" : "is probably", c->to, c->to, result, other);
    } else if (!strcmp(c->kind, "twins")) { /* one edit at two twin statements */
        s = xasprintf("line %d and the statement after it: `%s` in `%s` %s the mistake, written in both: with `%s` "
                      "at both, %s%s",
                      c->line, c->from, c->context, full ? "looks like" : "is probably", c->to, result, other);
    } else if (!strcmp(c->kind, "twin-subscripts")) { /* a term that ends both subscripts of one element */
        s = xasprintf("line %d: the `%s` that ends both subscripts of the element in `%s` %s the mistake: without it "
                      "in both, %s%s",
                      c->line, c->from, c->context, full ? "looks like" : "is probably", result, other);
    } else if (!strcmp(c->kind, "twin-round-up")) { /* a count rounded up in both of a dim3's arguments */
        s = xasprintf("line %d: `%s` in `%s` %s the mistake, written in both of the dim3's arguments: it does not "
                      "round up, and leaves out what does not fill a last whole block: round it up: with `%s` in "
                      "both, %s%s",
                      c->line, c->from, c->context, full ? "looks like" : "is probably", c->to, result, other);
    } else if (!strcmp(c->kind, "twin-args")) { /* one edit in both of a dim3's arguments, written the same */
        s = xasprintf("line %d: `%s` in `%s` %s the mistake, written in both of the dim3's arguments: with `%s` in "
                      "both, %s%s",
                      c->line, c->from, c->context, full ? "looks like" : "is probably", c->to, result, other);
    } else if (!strcmp(c->kind, "parallel-args")) { /* one edit in both of a dim3's arguments, written alike */
        s = xasprintf("line %d: `%s` in `%s` %s the mistake, written in both of the dim3's arguments: with `%s` "
                      "there and the same in the other argument, %s%s",
                      c->line, c->from, c->context, full ? "looks like" : "is probably", c->to, result, other);
    } else if (!strcmp(c->kind, "round-up")) { /* a count that leaves out a last partial block or tile */
        /* a quotient given to round() or roundf(): to the nearest, which
         * leaves out a last block or tile less than half full */
        const char *nearest = rounded_to_nearest(c->context, c->from);
        if (nearest)
            s = xasprintf("line %d: %s %s the mistake: `%s` rounds it to the nearest whole number, which leaves out a "
                          "last block or tile less than half full: round it up: %s, %s%s",
                          c->line, place, full ? "looks like" : "is probably", nearest, words, result, other);
        else if (float_quotient(c->from))
            /* `k / (float)TILE_WIDTH`: the quotient has its fraction, but
             * an int takes it cut toward 0, and nothing rounds it up */
            s = xasprintf("line %d: %s %s the mistake: the division is in floating point, but its quotient is cut "
                          "toward 0 where it becomes an int (nothing rounds it up), which leaves out what does not "
                          "fill a last whole block or tile: round it up: %s, %s%s",
                          c->line, place, full ? "looks like" : "is probably", words, result, other);
        else
            s = xasprintf("line %d: %s %s the mistake: the division rounds down, and leaves out what does not fill a "
                          "last whole block or tile: round it up: %s, %s%s",
                          c->line, place, full ? "looks like" : "is probably", words, result, other);
    } else if (!strcmp(c->kind, "define")) { /* a constant of the skeleton's, given another value */
        /* `016`: C reads a number with a leading 0 as octal */
        size_t digits = strspn(c->from, "01234567");
        char *octal = c->from[0] == '0' && digits > 1 && !c->from[digits]
                          ? xasprintf(" (a number written with a leading 0 is octal: `%s` is %ld)", c->from,
                                      strtol(c->from, NULL, 8))
                          : xstrdup("");
        s = xasprintf("line %d: %s %s the mistake%s: the skeleton's value is `%s`, and with it there, %s%s", c->line,
                      place, full ? "looks like" : "is probably", octal, c->to, result, other);
        free(octal);
    } else {
        s = xasprintf("line %d: %s %s the mistake: %s, %s%s", c->line, place,
                      full ? "looks like" : "is probably", words, result, other);
    }
    free(place);
    free(words);
    free(result);
    free(other);
    return s;
}
