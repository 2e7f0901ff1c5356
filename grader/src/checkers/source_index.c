/*
 * source_index.c - what a store's index varies with, read from the source:
 * the thread and block coordinates it takes through the assignments of its
 * names, and a flat index split into a row and a column the wrong way round;
 * and what a line's subscripts show: a variable offset in one and bare in
 * another, the test that comes after the access it bounds, a name that is
 * another's twin but for its last part (source.h). Over the shared walk of
 * source_code.h.
 */
#define _GNU_SOURCE
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <ctype.h>
#include <string.h>

/* The coordinates a thread's index can vary with: bit (3 * which + axis),
 * which 0 for threadIdx, 1 for blockIdx; axis 0 x, 1 y, 2 z. */
enum { COORD_DEPTH = 8 };

static unsigned coordinate_at(const source_code *s, size_t k)
{
    static const char *const names[] = { "threadIdx", "blockIdx" };
    for (int w = 0; w < 2; w++) {
        size_t n = strlen(names[w]);
        if (!code_word_at(s, k, names[w]))
            continue;
        size_t d = code_skip_space(s, k + n);
        if (d < s->len && s->code[d] == '.') {
            d = code_skip_space(s, d + 1);
            if (d < s->len && s->code[d] >= 'x' && s->code[d] <= 'z')
                return 1u << (3 * w + (s->code[d] - 'x'));
        }
    }
    return 0;
}

/* The length of the identifier at k, not past e. */
static size_t word_length(const source_code *s, size_t k, size_t e)
{
    size_t n = 0;
    while (k + n < e && source_is_identifier_char(s->code[k + n]))
        n++;
    return n;
}

/* The coordinates code[b, e) varies with, through the assignments of the
 * names in it (before `before`, inside the kernel from `from`). */
static unsigned coordinates_of(const source_code *s, size_t from, size_t before, size_t b, size_t e, int depth)
{
    const char *code = s->code;
    unsigned bits = 0;
    for (size_t k = b; k < e; k++) {
        if (!code_word_starts(s, k))
            continue;
        size_t n = word_length(s, k, e);
        unsigned c = coordinate_at(s, k);
        if (c)
            bits |= c;
        else if (depth < COORD_DEPTH && !(code[k] >= '0' && code[k] <= '9') && (k == 0 || code[k - 1] != '.')) {
            size_t end = 0, v = code_assignment_of(s, from, before, code + k, n, &end);
            if (v < s->len)
                bits |= coordinates_of(s, from, v, v, end, depth + 1);
        }
        k += n - 1;
    }
    return bits;
}

unsigned code_coordinates(const source_code *s, size_t kernel, size_t before, size_t b, size_t e)
{
    return coordinates_of(s, kernel, before, b, e, 0);
}

static void coordinate_name(unsigned bit, char *out, size_t n)
{
    for (int i = 0; i < 6; i++)
        if (bit == 1u << i)
            snprintf(out, n, "%s.%c", i < 3 ? "threadIdx" : "blockIdx", 'x' + i % 3);
}

/* The coordinates named in out, joined by " and ", or "no thread or block
 * coordinate". */
static void coordinate_list(unsigned bits, char *out, size_t n)
{
    out[0] = '\0';
    for (int i = 0; i < 6; i++)
        if (bits & 1u << i) {
            char one[16] = "";
            coordinate_name(1u << i, one, sizeof one);
            size_t used = strlen(out);
            snprintf(out + used, n - used, "%s%s", used ? " and " : "", one);
        }
    if (!out[0])
        snprintf(out, n, "no thread or block coordinate");
}

/* The sentence for the index's name at p (n characters) whose value holds
 * `kept` while the index misses `missing`, or NULL when its value does not. */
static char *missing_words(const source_code *s, const char *path, size_t kernel, size_t k, size_t p, size_t n,
                           unsigned kept, unsigned missing, int line)
{
    size_t end = 0, v = code_assignment_of(s, kernel, k, s->code + p, n, &end);
    if (v >= s->len || !(coordinates_of(s, kernel, v, v, end, 1) & kept))
        return NULL;
    unsigned has = coordinates_of(s, kernel, v, v, end, 1);
    char uses[96], miss[16], q[16];
    coordinate_list(has, uses, sizeof uses);
    coordinate_name(missing, miss, sizeof miss);
    snprintf(q, sizeof q, "%.*s", (int)(n < 15 ? n : 15), s->code + p);
    /* a name that is the thread's coordinate alone (`tx = threadIdx.x`),
     * where another name of the kernel adds the block's to it (`Col = bx *
     * TILE_WIDTH + tx`): the store meant that one; the name is right as it
     * is (the tiles' loads use it) */
    size_t vb = code_skip_space(s, v), vw = code_word_end(s, vb);
    int bare = coordinate_at(s, vb) && code_skip_space(s, vw + 2) >= end;
    for (size_t k2 = kernel; bare && k2 < k; k2++) {
        if (!code_word_starts(s, k2) || coordinate_at(s, k2))
            continue;
        size_t n2 = word_length(s, k2, s->len), q2 = code_skip_space(s, k2 + n2);
        size_t e2 = 0, v2 = code_assigns_at(s, q2) ? q2 + 1 : s->len;
        if (v2 < s->len) {
            e2 = code_semicolon(s, v2, k);
            int reads_name = 0; /* as a name of its own, not a member (`blockIdx.y`) */
            for (size_t i = v2; i < e2 && !reads_name; i++)
                reads_name = code_name_at(s, i, s->code + p, n) && !(i > 0 && s->code[i - 1] == '.');
            if (reads_name && (coordinates_of(s, kernel, v2, v2, e2, 0) & missing) &&
                !code_name_at(s, k2, s->code + p, n)) {
                char *quoted = sanitize_quote(path, code_line_at(s, k2));
                char *store = sanitize_quote(path, line);
                char *said = xasprintf("the store at %s indexes with %s, the thread's place in its block (%s, line %d), "
                                       "where %s adds the block's place to it: no term of the store's index "
                                       "varies with %s, so %s that differ only in %s store to the same element (and "
                                       "the elements they should reach are never written); index with %.*s there",
                                       store, q, uses, code_line_at(s, v), quoted, miss,
                                       missing < 8 ? "the threads of a block" : "blocks", miss, (int)n2,
                                       s->code + k2);
                free(quoted);
                free(store);
                return said;
            }
        }
        k2 += n2 - 1;
    }
    char *quoted = sanitize_quote(path, code_line_at(s, v));
    char *said = xasprintf("%s computes %s from %s: no term of the index of the store at line %d "
                           "varies with %s, so %s that differ only in %s store to the same element "
                           "(and the elements they should reach are never written): build %s from %s",
                           quoted, q, uses, line, miss, missing < 8 ? "the threads of a block" : "blocks", miss, q,
                           miss);
    free(quoted);
    return said;
}

int source_sum_read_thread_free(const char *path, int sum_line, char *out, size_t size, int *every)
{
    source_code s;
    out[0] = '\0';
    *every = 0;
    if (sum_line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, sum_line), e = b < s.len ? code_semicolon(&s, b, s.len) : s.len;
    size_t kernel = b < s.len ? code_kernel_before(&s, b) : s.len;
    int found = 0, reads = 0, free_reads = 0;
    for (size_t k = b; k < e && kernel < s.len; k++) {
        if (!code_word_starts(&s, k) || !source_is_identifier_char(s.code[k]) || (s.code[k] >= '0' && s.code[k] <= '9'))
            continue;
        size_t n = word_length(&s, k, e), open = code_skip_space(&s, k + n);
        if (open >= e || s.code[open] != '[' || !code_declared_shared(s.code, s.code + k, n)) {
            k += n ? n - 1 : 0;
            continue;
        }
        /* its subscripts, each in turn */
        unsigned bits = 0;
        size_t last = open;
        for (size_t o = open; o < e && s.code[o] == '['; o = code_skip_space(&s, last + 1)) {
            last = code_matching(&s, o);
            if (last >= e)
                break;
            bits |= coordinates_of(&s, kernel, b, o + 1, last, 0);
        }
        reads += last < e;
        if (last < e && !(bits & 7u) && !free_reads++) {
            found = sum_line;
            snprintf(out, size, "%.*s", (int)(last + 1 - k), s.code + k);
        }
        k = last > k ? last : k;
    }
    *every = found && free_reads == reads;
    source_code_free(&s);
    return found;
}

char *source_index_coordinate_missing(const char *path, int line)
{
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return NULL;
    char *said = NULL;
    /* the line's first subscripted store (NAME[...] =), in its kernel */
    size_t k = code_line_start(&s, line);
    size_t open = code_store_between(&s, k, code_line_end(&s, k)), kernel = code_kernel_before(&s, k);
    if (open < s.len && kernel < s.len) {
        size_t close = code_matching(&s, open);
        unsigned index = coordinates_of(&s, kernel, k, open + 1, close, 0);
        /* an axis whose block coordinate the index uses while its thread
         * coordinate is missing (or the other way round), in an index that
         * uses a thread coordinate: threads (or blocks) that differ only
         * there store to one element */
        for (int axis = 0; axis < 2 && !said; axis++) {
            unsigned t = 1u << axis, b = 1u << (3 + axis);
            if (!(index & 7u))
                continue;
            unsigned missing = (index & b) && !(index & t) ? t : (index & t) && !(index & b) ? b : 0;
            if (!missing)
                continue;
            unsigned kept = missing == t ? b : t;
            /* the index's own name whose value holds `kept`: the one meant for this axis */
            for (size_t p = open + 1; p < close && !said; p++) {
                if (!code_word_starts(&s, p) || coordinate_at(&s, p))
                    continue;
                size_t n = word_length(&s, p, close);
                said = missing_words(&s, path, kernel, k, p, n, kept, missing, line);
                p += n - 1;
            }
        }
    }
    source_code_free(&s);
    return said;
}

/* code[b, e) as `X op W` with one top-level op ('/' or '%'): X and W,
 * spaces trimmed, into x and w; 0 when it is not that. */
static int split_operands(const source_code *s, size_t b, size_t e, char op, char *x, char *w, size_t n)
{
    const char *code = s->code;
    size_t at = e;
    int depth = 0;
    for (size_t k = b; k < e; k++) {
        depth += code[k] == '(';
        depth -= code[k] == ')';
        if (depth == 0 && strchr("/%", code[k])) {
            if (code[k] != op || at < e)
                return 0; /* another operator, or a second one */
            at = k;
        }
    }
    if (at == e)
        return 0;
    size_t xb = code_skip_space(s, b), xe = code_blank_before(s, at), wb = code_skip_space(s, at + 1), we = e;
    while (we > wb && (code[we - 1] == ' ' || code[we - 1] == '\t' || code[we - 1] == '\n'))
        we--;
    if (xe <= xb || we <= wb || xe - xb >= n || we - wb >= n)
        return 0;
    snprintf(x, n, "%.*s", (int)(xe - xb), code + xb);
    snprintf(w, n, "%.*s", (int)(we - wb), code + wb);
    return 1;
}

/* The plain name that alone fills the subscript whose '[' is at open and
 * whose ']' is at close, into out (n bytes); its length, 0 when it is not one. */
static size_t subscript_name(const source_code *s, size_t open, size_t close, char *out, size_t n)
{
    size_t b = code_skip_space(s, open + 1), l = word_length(s, b, close);
    if (!l || l >= n || code_skip_space(s, b + l) != close)
        return 0;
    snprintf(out, n, "%.*s", (int)l, s->code + b);
    return l;
}

int source_split_swapped(const char *path, int line, char *row, char *col, size_t n, int *row_line, int *col_line)
{
    *row_line = *col_line = 0;
    row[0] = col[0] = '\0';
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t k = code_line_start(&s, line), kernel = code_kernel_before(&s, k);
    /* the line's store NAME[r][c] = with r and c plain names */
    size_t p = code_store_between(&s, k, code_line_end(&s, k));
    if (kernel < s.len && p < s.len) {
        size_t c1 = code_matching(&s, p), o2 = code_skip_space(&s, c1 + 1);
        int two = o2 < s.len && s.code[o2] == '[';
        size_t c2 = two ? code_matching(&s, o2) : s.len;
        char r[64], c[64];
        size_t rn = two ? subscript_name(&s, p, c1, r, sizeof r) : 0;
        size_t cn = rn ? subscript_name(&s, o2, c2, c, sizeof c) : 0;
        size_t re = 0, ce = 0, rv = cn ? code_assignment_of(&s, kernel, k, r, rn, &re) : s.len,
               cv = cn ? code_assignment_of(&s, kernel, k, c, cn, &ce) : s.len;
        char rx[64], rw[64], cx[64], cw[64];
        /* the row from the remainder, the column from the quotient, of one flat index by one width */
        if (rv < s.len && cv < s.len && split_operands(&s, rv, re, '%', rx, rw, sizeof rx) &&
            split_operands(&s, cv, ce, '/', cx, cw, sizeof cx) && strcmp(rx, cx) == 0 && strcmp(rw, cw) == 0 &&
            strlen(r) < n && strlen(c) < n) {
            *row_line = code_line_at(&s, rv);
            *col_line = code_line_at(&s, cv);
            snprintf(row, n, "%s", r);
            snprintf(col, n, "%s", c);
        }
    }
    source_code_free(&s);
    return *row_line > 0;
}

int source_split_widths_differ(const char *path, int line, char *row, char *col, char *row_width, char *col_width,
                               size_t n, int *row_line, int *col_line, int *right)
{
    *row_line = *col_line = 0;
    *right = 0;
    row[0] = col[0] = row_width[0] = col_width[0] = '\0';
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t k = code_line_start(&s, line), kernel = code_kernel_before(&s, k);
    size_t p = code_store_between(&s, k, code_line_end(&s, k));
    if (kernel < s.len && p < s.len) {
        size_t c1 = code_matching(&s, p), o2 = code_skip_space(&s, c1 + 1);
        int two = o2 < s.len && s.code[o2] == '[';
        size_t c2 = two ? code_matching(&s, o2) : s.len;
        char r[64], c[64];
        size_t rn = two ? subscript_name(&s, p, c1, r, sizeof r) : 0;
        size_t cn = rn ? subscript_name(&s, o2, c2, c, sizeof c) : 0;
        size_t re = 0, ce = 0, rv = cn ? code_assignment_of(&s, kernel, k, r, rn, &re) : s.len,
               cv = cn ? code_assignment_of(&s, kernel, k, c, cn, &ce) : s.len;
        char rx[64], rw[64], cx[64], cw[64];
        /* the row the quotient, the column the remainder, of one flat
         * index, by two widths */
        if (rv < s.len && cv < s.len && split_operands(&s, rv, re, '/', rx, rw, sizeof rx) &&
            split_operands(&s, cv, ce, '%', cx, cw, sizeof cx) && strcmp(rx, cx) == 0 && strcmp(rw, cw) != 0 &&
            strlen(r) < n && strlen(c) < n && strlen(rw) < n && strlen(cw) < n) {
            *row_line = code_line_at(&s, rv);
            *col_line = code_line_at(&s, cv);
            snprintf(row, n, "%s", r);
            snprintf(col, n, "%s", c);
            snprintf(row_width, n, "%s", rw);
            snprintf(col_width, n, "%s", cw);
            /* the array's declared row length, as written, says which */
            size_t nn = 0, name = code_word_before(&s, p, &nn);
            for (size_t d = 0; name < s.len && d + nn < s.len && !*right; d++) {
                if (!code_name_at(&s, d, s.code + name, nn) || d == name)
                    continue;
                size_t ls = code_line_start(&s, code_line_at(&s, d)), le = code_line_end(&s, ls);
                int shared = 0;
                for (size_t q = ls; q < le && !shared; q++)
                    shared = code_word_at(&s, q, "__shared__");
                size_t b1 = code_skip_space(&s, d + nn);
                if (!shared || b1 >= s.len || s.code[b1] != '[')
                    continue;
                size_t e1 = code_matching(&s, b1), b2 = e1 < s.len ? code_skip_space(&s, e1 + 1) : s.len;
                if (b2 >= s.len || s.code[b2] != '[')
                    break;
                size_t e2 = code_matching(&s, b2);
                char dim[64];
                size_t o = 0;
                for (size_t q = b2 + 1; q < e2 && o + 1 < sizeof dim; q++)
                    if (!isspace((unsigned char)s.code[q]))
                        dim[o++] = s.code[q];
                dim[o] = '\0';
                *right = !strcmp(dim, rw) ? 1 : !strcmp(dim, cw) ? 2 : -1;
            }
        }
    }
    source_code_free(&s);
    return *row_line > 0;
}

/* ---- an index computed before its inputs changed ---------------------------- */

enum { STALE_NAMES = 4 };

/* The names read in [b, e): identifiers not after '.' or "->" (members),
 * not called, not numbers; up to max, each once, into names (64 bytes each). */
static int names_in(const source_code *s, size_t b, size_t e, char names[][64], int max)
{
    int n = 0;
    for (size_t k = b; k < e && n < max; k++) {
        if (!code_word_starts(s, k) || !source_is_identifier_char(s->code[k]) ||
            (s->code[k] >= '0' && s->code[k] <= '9'))
            continue;
        size_t w = code_word_end(s, k), l = w - k;
        size_t before = k;
        while (before > b && (s->code[before - 1] == ' ' || s->code[before - 1] == '\t'))
            before--;
        int member = before > 0 && (s->code[before - 1] == '.' || (before > 1 && s->code[before - 1] == '>' &&
                                                                    s->code[before - 2] == '-'));
        size_t after = code_skip_space(s, w);
        int called = after < s->len && s->code[after] == '(';
        int seen = 0;
        for (int i = 0; i < n && !seen; i++)
            seen = strlen(names[i]) == l && strncmp(names[i], s->code + k, l) == 0;
        if (!member && !called && !seen && l < 64)
            snprintf(names[n++], 64, "%.*s", (int)l, s->code + k);
        k = w - 1;
    }
    return n;
}

/* Whether [from, to) changes name other than by a plain `=`: `+=` and its
 * kin, `++`, `--` (a value the walk cannot follow). */
static int changed_otherwise(const source_code *s, size_t from, size_t to, const char *name)
{
    size_t n = strlen(name);
    for (size_t k = from; k + n <= to; k++) {
        if (!code_name_at(s, k, name, n))
            continue;
        size_t a = code_skip_space(s, k + n), b = k;
        while (b > from && (s->code[b - 1] == ' ' || s->code[b - 1] == '\t'))
            b--;
        if ((a + 1 < s->len && strchr("+-*/%&|^<>", s->code[a]) && s->code[a + 1] == '=' &&
             !(s->code[a] == '<' || s->code[a] == '>')) ||
            (a + 1 < s->len && (s->code[a] == '+' || s->code[a] == '-') && s->code[a + 1] == s->code[a]) ||
            (b >= 2 && (s->code[b - 1] == '+' || s->code[b - 1] == '-') && s->code[b - 2] == s->code[b - 1]))
            return 1;
    }
    return 0;
}

/* Whether code at `from` still holds at `to` as straight-line code: no
 * block that holds `from` closes before `to` (its `}` would end the
 * assignment's branch or loop first). */
static int straight_to(const source_code *s, size_t from, size_t to)
{
    int depth = 0;
    for (size_t k = from; k < to; k++) {
        depth += (s->code[k] == '{') - (s->code[k] == '}');
        if (depth < 0)
            return 0;
    }
    return 1;
}

/* "srcY and srcX", "lines 41 and 42": a list of up to STALE_NAMES words. */
static char *list_words(char words[][64], int n)
{
    strbuf sb;
    sb_init(&sb);
    for (int i = 0; i < n; i++)
        sb_printf(&sb, "%s%s", i == 0 ? "" : i == n - 1 ? " and " : ", ", words[i]);
    return sb.buf;
}

/* The names in [b, e) whose last assignment before k, in straight-line
 * kernel code, was computed from a name assigned again between that
 * assignment and k: the words after "the load at line N" (store 0) or
 * "the store at line N" (store 1); NULL when none. */
static char *stale_words(const source_code *s, size_t kernel, size_t k, size_t b, size_t e, int store)
{
    char names[STALE_NAMES][64], stale[STALE_NAMES][64], from[STALE_NAMES][64];
    char at[STALE_NAMES][64], again[STALE_NAMES][64];
    int nstale = 0, nn = names_in(s, b, e, names, STALE_NAMES);
    for (int i = 0; i < nn; i++) {
        size_t vend = 0, v = code_assignment_of(s, kernel, k, names[i], strlen(names[i]), &vend);
        if (v >= s->len || !straight_to(s, v, k) || changed_otherwise(s, v, k, names[i]))
            continue; /* not assigned in the kernel (a parameter), or not by straight-line code */
        char inputs[STALE_NAMES][64];
        int ni = names_in(s, v, vend, inputs, STALE_NAMES);
        for (int j = 0; j < ni; j++) {
            size_t uend = 0, u = code_assignment_of(s, vend, k, inputs[j], strlen(inputs[j]), &uend);
            if (strcmp(inputs[j], names[i]) == 0 || u >= s->len || !straight_to(s, u, k))
                continue;
            snprintf(stale[nstale], 64, "%s", names[i]);
            snprintf(from[nstale], 64, "%s", inputs[j]);
            snprintf(at[nstale], 64, "%d", code_line_at(s, v));
            snprintf(again[nstale], 64, "%d", code_line_at(s, u));
            nstale++;
            break;
        }
    }
    if (!nstale)
        return NULL;
    char *v = list_words(stale, nstale), *u = list_words(from, nstale), *vl = list_words(at, nstale),
         *ul = list_words(again, nstale);
    int many = nstale > 1;
    char *text = xasprintf("%s with %s, set at line%s %s from %s; line%s %s set%s %s again after that, but nothing "
                           "sets %s again before the %s, so it %s the %s the earlier %s picked",
                           store ? "stores" : "reads", v, many ? "s" : "", vl, u, many ? "s" : "", ul,
                           many ? "" : "s", u, v, store ? "store" : "load", store ? "stores into" : "reads",
                           store ? "slot" : "element", u);
    free(v);
    free(u);
    free(vl);
    free(ul);
    return text;
}

char *source_index_stale(const char *path, int line)
{
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return NULL;
    char *text = NULL;
    size_t k = code_line_start(&s, line), kernel = code_kernel_before(&s, k);
    size_t p = code_store_between(&s, k, code_line_end(&s, k));
    /* the load's value: what follows the store's subscripts and `=` */
    size_t q = p;
    while (q < s.len && s.code[q] == '[')
        q = code_skip_space(&s, code_matching(&s, q) + 1);
    size_t read = s.len;
    if (kernel < s.len && p < s.len && q < s.len && code_assigns_at(&s, q)) {
        size_t semi = code_semicolon(&s, q + 1, s.len);
        for (size_t r = q + 1; r < semi && read == s.len; r++)
            if (s.code[r] == '[' && source_is_identifier_char(s.code[r - 1]))
                read = r;
    }
    if (read < s.len)
        text = stale_words(&s, kernel, k, read + 1, code_matching(&s, read), 0);
    source_code_free(&s);
    return text;
}

char *source_store_index_stale(const char *path, int line)
{
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return NULL;
    char *text = NULL;
    size_t k = code_line_start(&s, line), kernel = code_kernel_before(&s, k);
    size_t p = code_store_between(&s, k, code_line_end(&s, k)), q = p;
    while (q < s.len && s.code[q] == '[')
        q = code_skip_space(&s, code_matching(&s, q) + 1);
    if (kernel < s.len && p < s.len && q < s.len && code_assigns_at(&s, q))
        text = stale_words(&s, kernel, k, p, q, 1);
    source_code_free(&s);
    return text;
}

/* Whether the value assigned to the name at (w, n) before `before` writes
 * the word other (through one assignment: `flat = Row * Width + Col`). */
static int assigned_from(const source_code *s, size_t from, size_t before, const char *w, size_t n,
                         const char *other)
{
    size_t end = 0, v = code_assignment_of(s, from, before, w, n, &end);
    for (size_t k = v; v < s->len && k < end; k++)
        if (code_word_at(s, k, other))
            return 1;
    return 0;
}

int source_unbounded_coordinate(const char *path, int access, const char *const *bounded, int nbounded, char *out,
                                size_t size, char *counter, size_t counter_n)
{
    out[0] = '\0';
    counter[0] = '\0';
    source_code s;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t b = code_line_start(&s, access), e = code_line_end(&s, b);
    size_t kernel = code_kernel_before(&s, b);
    /* a bounds test is there (it compares a position in the grid) */
    int positions = 0;
    for (int i = 0; i < nbounded && kernel < s.len; i++) {
        size_t end = 0, v = code_assignment_of(&s, kernel, b, bounded[i], strlen(bounded[i]), &end);
        positions |= v < s.len && (coordinates_of(&s, kernel, v, v, end, 0) & (7u << 3));
    }
    int found = 0;
    for (size_t k = b; k < e && !found && positions; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t n = word_length(&s, k, e), after = code_skip_space(&s, k + n);
        int named = !(code[k] >= '0' && code[k] <= '9') && (k == 0 || code[k - 1] != '.') &&
                    !(after < s.len && (code[after] == '(' || code[after] == '.')) && n < size;
        for (int i = 0; named && i < nbounded; i++)
            named = !(strlen(bounded[i]) == n && strncmp(bounded[i], code + k, n) == 0);
        size_t end = 0, v = named ? code_assignment_of(&s, kernel, b, code + k, n, &end) : s.len;
        /* a name whose value takes a block's coordinate: a position in the
         * whole grid, which a grid rounded up takes past the data (one that
         * takes only threadIdx stays within its block) */
        int position = v < s.len && (coordinates_of(&s, kernel, v, v, end, 0) & (7u << 3));
        /* ... or one that takes the counter of a loop around the access
         * (`mCol = ph * TILE_WIDTH + tx` in the phase loop): a position
         * along the passes, which a count rounded up to whole tiles takes
         * past the data in the last one */
        char loop_counter[64] = "";
        for (size_t l = code_loop_around(&s, b); !position && v < s.len && l < s.len; l = code_loop_around(&s, l)) {
            size_t cn = 0, cv = code_word_at(&s, l, "for") ? code_for_counter(&s, l, &cn) : s.len;
            if (cv < s.len && cn < sizeof loop_counter && code_span_has_name(&s, v, end, code + cv, cn)) {
                snprintf(loop_counter, sizeof loop_counter, "%.*s", (int)cn, code + cv);
                position = 1;
            }
            if (l == 0)
                break;
        }
        /* bounded through another name: one computed from it (`flat <
         * Width * Width` with flat from Row), or it from one (row_i from
         * row_o): what the test bounds is another question */
        for (int i = 0; position && i < nbounded; i++) {
            /* (the loop's own test bounds its counter by the passes, not
             * the name made from it by the data's size) */
            if (loop_counter[0] && !strcmp(bounded[i], loop_counter))
                continue;
            char word[64];
            snprintf(word, sizeof word, "%.*s", (int)n, code + k);
            position = !assigned_from(&s, kernel, b, bounded[i], strlen(bounded[i]), word) &&
                       !assigned_from(&s, kernel, b, code + k, n, bounded[i]);
        }
        if (position) {
            memcpy(out, code + k, n);
            out[n] = '\0';
            snprintf(counter, counter_n, "%s", loop_counter);
            found = 1;
        }
        k += n ? n - 1 : 0;
    }
    source_code_free(&s);
    return found;
}

/* The subscripts of line n's code ([...] spans), in order, into b[] and
 * e[] (the '[' and the ']'), at most max; how many. */
static int line_subscripts(const source_code *s, int n, size_t *b, size_t *e, int max)
{
    size_t start = code_line_start(s, n), end = start < s->len ? code_line_end(s, start) : start;
    int count = 0;
    for (size_t k = start; k < end && count < max; k++) {
        if (s->code[k] != '[')
            continue;
        size_t close = code_matching(s, k);
        if (close >= s->len || close > end)
            continue;
        b[count] = k;
        e[count++] = close;
    }
    return count;
}

/* Whether [from, to) of s holds name as a whole word. */
static int span_has_name(const source_code *s, size_t from, size_t to, const char *name)
{
    return code_span_has_name(s, from, to, name, strlen(name));
}

int source_subscript_with_both(const char *path, int line, const char *a, const char *b)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t open[16], close[16];
    int count = line_subscripts(&s, line, open, close, 16), found = 0;
    for (int i = 0; i < count && !found; i++)
        found = span_has_name(&s, open[i] + 1, close[i], a) && span_has_name(&s, open[i] + 1, close[i], b);
    source_code_free(&s);
    return found;
}

int source_offset_missing(const char *path, int line, const char *var, char *offset, size_t n_offset, char *bare,
                          size_t n_bare)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t vn = strlen(var), b[16], e[16];
    int count = line_subscripts(&s, line, b, e, 16), found = 0;
    char with[64] = "";
    size_t bare_at = 0, bare_end = 0;
    /* each subscript that takes var: with `var + NAME` / `var - NAME`, or bare */
    for (int i = 0; i < count; i++) {
        for (size_t k = b[i] + 1; k < e[i]; k++) {
            if (!code_name_at(&s, k, var, vn))
                continue;
            size_t after = code_skip_space(&s, k + vn);
            size_t before = k;
            while (before > b[i] + 1 && (s.code[before - 1] == ' ' || s.code[before - 1] == '\t'))
                before--;
            int added = after < e[i] && (s.code[after] == '+' || s.code[after] == '-') &&
                        source_is_identifier_char(s.code[code_skip_space(&s, after + 1)]);
            /* `NAME - var` is not var offset; `x - var` is no use of it as a position */
            if (before > b[i] + 1 && s.code[before - 1] == '-')
                continue;
            if (added && !with[0]) {
                size_t w = code_skip_space(&s, after + 1), wn = 0;
                while (w + wn < e[i] && source_is_identifier_char(s.code[w + wn]))
                    wn++;
                snprintf(with, sizeof with, "%c %.*s", s.code[after], (int)wn, s.code + w);
            } else if (!added && !bare_end) {
                bare_at = b[i];
                bare_end = e[i];
            }
        }
    }
    if (with[0] && bare_end) {
        snprintf(offset, n_offset, "%s", with);
        /* the bare subscript as written, one line of code */
        size_t len = bare_end + 1 - bare_at;
        snprintf(bare, n_bare, "%.*s", (int)(len < n_bare ? len : n_bare - 1), s.code + bare_at);
        found = 1;
    }
    source_code_free(&s);
    return found;
}

/* The names in the subscripts of line `access`, other than constants'
 * (all capitals, TILE_WIDTH), each once: offsets and lengths into at[]
 * and n[], at most most; how many. */
static int access_names(const source_code *s, int access, size_t *at, size_t *len, int most)
{
    size_t b[16], e[16];
    int count = line_subscripts(s, access, b, e, 16), n = 0;
    for (int i = 0; i < count; i++)
        for (size_t k = b[i] + 1; k < e[i] && n < most; k++) {
            if (!code_word_starts(s, k) || !source_is_identifier_char(s->code[k]) ||
                (s->code[k] >= '0' && s->code[k] <= '9'))
                continue;
            size_t w = code_word_end(s, k) - k;
            int lower = 0, dup = 0;
            for (size_t c = 0; c < w; c++)
                lower |= s->code[k + c] >= 'a' && s->code[k + c] <= 'z';
            for (int j = 0; j < n && !dup; j++)
                dup = len[j] == w && !memcmp(s->code + at[j], s->code + k, w);
            if (lower && !dup)
                at[n] = k, len[n++] = w;
            k += w - 1;
        }
    return n;
}

/* Whether line holds an `if (` whose condition compares two or more of
 * the names: its keyword's offset into *k, its body's end into *body_end. */
static int if_tests_names(const source_code *s, int line, const size_t *at, const size_t *len, int n, size_t *k,
                          size_t *body_end)
{
    size_t start = code_line_start(s, line);
    if (start >= s->len)
        return 0;
    *k = code_skip_space(s, start);
    if (!code_word_at(s, *k, "if"))
        return 0;
    size_t open = code_skip_space(s, *k + 2);
    size_t close = open < s->len && s->code[open] == '(' ? code_matching(s, open) : s->len;
    if (close >= s->len)
        return 0;
    int tested = 0;
    for (int i = 0; i < n; i++)
        for (size_t c = open + 1; c < close; c++)
            if (code_name_at(s, c, s->code + at[i], len[i])) {
                tested++;
                break;
            }
    *body_end = code_body_end(s, code_skip_space(s, close + 1));
    return tested >= 2;
}

int source_test_after_access(const char *path, int access)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t at[24], len[24], k, body_end;
    int n = access_names(&s, access, at, len, 24), found = 0;
    /* the next three lines: the bounds test the access was meant to be under */
    for (int line = access + 1; line <= access + 3 && !found && n >= 2; line++)
        if (if_tests_names(&s, line, at, len, n, &k, &body_end))
            found = line;
    source_code_free(&s);
    return found;
}

/* Whether [b, e) compares: a `<`, `>`, `<=` or `>=` (not a shift, not
 * `->`) outside its own brackets. */
static int compares_at_top(const source_code *s, size_t b, size_t e)
{
    int depth = 0;
    for (size_t c = b; c < e; c++) {
        char ch = s->code[c];
        depth += ch == '(' || ch == '[';
        depth -= ch == ')' || ch == ']';
        if (depth || (ch != '<' && ch != '>'))
            continue;
        char before = c > b ? s->code[c - 1] : ' ', after = c + 1 < e ? s->code[c + 1] : ' ';
        if (before == '<' || before == '>' || before == '-' || after == '<' || after == '>')
            continue;
        return 1;
    }
    return 0;
}

int source_test_beside_access(const char *path, int access, char *out, size_t size)
{
    source_code s;
    out[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    size_t at[24], len[24];
    int n = access_names(&s, access, at, len, 24), found = 0;
    size_t b = code_line_start(&s, access), e = b < s.len ? code_semicolon(&s, b, s.len) : s.len;
    b = code_statement_start(&s, b, 0);
    for (size_t k = b; k < e && !found && n > 0; k++) {
        if (s.code[k] != '(')
            continue;
        size_t close = code_matching(&s, k);
        if (close >= e)
            continue;
        /* not a call's arguments; nothing in an if's or a loop's header
         * (the statement an `if` controls starts at its keyword) */
        size_t wn = 0, w = code_word_before(&s, k, &wn);
        if (wn > 0 && code_skip_space(&s, w + wn) == k) {
            static const char *const heads[] = { "if", "for", "while", "switch", NULL };
            if (code_word_in(s.code + w, wn, heads))
                k = close;
            continue;
        }
        /* not a ?:'s condition, and not the left of an && or || (both read
         * what follows only where the test holds) */
        size_t next = code_skip_space(&s, close + 1);
        if (next < s.len && (s.code[next] == '?' || (next + 1 < s.len && (s.code[next] == '&' || s.code[next] == '|') &&
                                                     s.code[next + 1] == s.code[next])))
            continue;
        if (!compares_at_top(&s, k + 1, close))
            continue;
        for (int i = 0; i < n && !found; i++)
            for (size_t c = k + 1; c < close && !found; c++)
                found = code_name_at(&s, c, s.code + at[i], len[i]);
        if (found)
            snprintf(out, size, "%.*s", (int)(close + 1 - k), s.code + k);
    }
    source_code_free(&s);
    return found ? access : 0;
}

int source_test_before_access(const char *path, int access, int *body_end_line)
{
    source_code s;
    *body_end_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    size_t at[24], len[24], k, body_end;
    int n = access_names(&s, access, at, len, 24), found = 0;
    size_t here = code_line_start(&s, access);
    /* the eight lines before, nearest first: a test that bounds the names
     * of the access's index and whose body ends before it (the access
     * moved out of its braces) */
    for (int line = access - 1; line >= 1 && line >= access - 8 && !found && n >= 2; line--)
        if (if_tests_names(&s, line, at, len, n, &k, &body_end) && body_end < here &&
            code_kernel_before(&s, k) == code_kernel_before(&s, here)) {
            found = line;
            *body_end_line = code_line_at(&s, body_end);
        }
    source_code_free(&s);
    return found;
}

/* Whether a and b (an, bn characters) are one name but for its last part:
 * the same up to a last '_' in both, and different after it (`row_o`,
 * `row_i`; `outRow` and `inRow` are not). */
static int last_part_differs(const char *a, size_t an, const char *b, size_t bn)
{
    const char *ua = memrchr(a, '_', an), *ub = memrchr(b, '_', bn);
    if (!ua || !ub || ua - a != ub - b || ua == a || memcmp(a, b, (size_t)(ua - a)) != 0)
        return 0;
    return !(an == bn && memcmp(a, b, an) == 0) && ua + 1 < a + an && ub + 1 < b + bn;
}

int source_line_sibling_name(const char *path, int n, const char *name, char *out, size_t size)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t start = code_line_start(&s, n), end = start < s.len ? code_line_end(&s, start) : start, nn = strlen(name);
    int found = 0;
    for (size_t k = start; k < end && !found; k++) {
        if (!code_word_starts(&s, k) || !source_is_identifier_char(s.code[k]))
            continue;
        size_t len = code_word_end(&s, k) - k;
        if (last_part_differs(name, nn, s.code + k, len) && len < size) {
            snprintf(out, size, "%.*s", (int)len, s.code + k);
            found = 1;
        }
        k += len - 1;
    }
    source_code_free(&s);
    return found;
}

int source_subscripted_base(const char *path, int n, const char *name, char *out, size_t size)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t b[16], e[16], nn = strlen(name);
    int count = line_subscripts(&s, n, b, e, 16), found = 0;
    for (int i = 0; i < count && !found; i++) {
        int uses = 0;
        for (size_t k = b[i] + 1; k < e[i] && !uses; k++)
            uses = code_name_at(&s, k, name, nn);
        if (!uses)
            continue;
        /* back over `x.y` / `x->y` / a name to its first identifier */
        size_t k = b[i];
        while (k > 0 && (source_is_identifier_char(s.code[k - 1]) || s.code[k - 1] == '.' ||
                         (s.code[k - 1] == '>' && k > 1 && s.code[k - 2] == '-') || s.code[k - 1] == '-'))
            k--;
        size_t len = 0;
        while (source_is_identifier_char(s.code[k + len]))
            len++;
        if (len > 0 && len < size) {
            snprintf(out, size, "%.*s", (int)len, s.code + k);
            found = 1;
        }
    }
    source_code_free(&s);
    return found;
}

/* ---- an index's name set without the coordinate its twin has ------------- */

#define CHAIN_MAX 24

typedef struct {
    size_t name, n;  /* the name assigned */
    size_t v, end;   /* its value, [v, end) */
} assignment;

/* Whether code[a, a + an) and code[b, b + bn), blanks aside, are the same text. */
static int same_text(const source_code *s, size_t a, size_t ae, size_t b, size_t be)
{
    while (a < ae || b < be) {
        while (a < ae && (s->code[a] == ' ' || s->code[a] == '\n'))
            a++;
        while (b < be && (s->code[b] == ' ' || s->code[b] == '\n'))
            b++;
        if (a >= ae || b >= be)
            return a >= ae && b >= be;
        if (s->code[a++] != s->code[b++])
            return 0;
    }
    return 1;
}

int source_index_drops_coordinate(const char *path, int line, unsigned bit, char *name, size_t name_n, char *value,
                                  size_t value_n, int *sibling_line, char *sibling, size_t sibling_n)
{
    source_code s;
    name[0] = value[0] = sibling[0] = '\0';
    *sibling_line = 0;
    if (line <= 0 || !bit || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    size_t start = code_line_start(&s, line), stop = code_line_end(&s, start);
    size_t open = code_store_between(&s, start, stop);
    size_t kernel = open < s.len ? code_kernel_before(&s, open) : s.len, close = s.len;
    if (kernel >= s.len || code_kernel_body(&s, kernel, &close) >= s.len) {
        source_code_free(&s);
        return 0;
    }
    /* the chain: the names of the store's subscripts, then the names in
     * their values, each by its last assignment before its use */
    assignment chain[CHAIN_MAX];
    int n = 0, found = 0;
    size_t scan_b = open, scan_e = code_matching(&s, open);
    while (scan_e < s.len && scan_e + 1 < stop && c[code_skip_space(&s, scan_e + 1)] == '[')
        scan_e = code_matching(&s, code_skip_space(&s, scan_e + 1));
    for (int next = -1; next < n && n < CHAIN_MAX; next++) {
        size_t b = next < 0 ? scan_b : chain[next].v, e = next < 0 ? scan_e : chain[next].end;
        size_t use = next < 0 ? start : chain[next].name;
        for (size_t k = b; k < e && n < CHAIN_MAX; k++) {
            if (!code_word_starts(&s, k) || !(isalpha((unsigned char)c[k]) || c[k] == '_') ||
                (k > 0 && c[k - 1] == '.') || coordinate_at(&s, k)) {
                k = code_word_starts(&s, k) ? code_word_end(&s, k) - 1 : k;
                continue;
            }
            size_t wn = code_word_end(&s, k) - k, end = 0, v = code_assignment_of(&s, kernel, use, c + k, wn, &end);
            int seen = 0;
            for (int i = 0; i < n; i++)
                seen |= chain[i].v == v;
            if (v < s.len && !seen) {
                /* the name's offset: the last before v */
                size_t at = v;
                while (at > kernel && !code_name_at(&s, at, c + k, wn))
                    at--;
                chain[n++] = (assignment){ at, wn, v, end };
            }
            k += wn - 1;
        }
    }
    /* an assignment whose value lacks the coordinate where another
     * assignment of the same name in the kernel, written otherwise, has it */
    for (int i = 0; i < n && !found; i++) {
        if (coordinates_of(&s, kernel, chain[i].v, chain[i].v, chain[i].end, 0) & bit)
            continue;
        for (size_t k = kernel; k < close && !found; k++) {
            if (!code_name_at(&s, k, c + chain[i].name, chain[i].n))
                continue;
            size_t q = code_skip_space(&s, k + chain[i].n);
            if (!code_assigns_at(&s, q) || q + 1 == chain[i].v)
                continue;
            size_t v = q + 1, end = code_semicolon(&s, v, close);
            if (!(coordinates_of(&s, kernel, v, v, end, 0) & bit) ||
                same_text(&s, v, end, chain[i].v, chain[i].end))
                continue;
            found = code_line_at(&s, chain[i].v);
            *sibling_line = code_line_at(&s, v);
            snprintf(name, name_n, "%.*s", (int)chain[i].n, c + chain[i].name);
            size_t vb = code_skip_space(&s, chain[i].v), sb = code_skip_space(&s, v);
            snprintf(value, value_n, "%.*s", (int)(code_blank_before(&s, chain[i].end) - vb), c + vb);
            snprintf(sibling, sibling_n, "%.*s", (int)(code_blank_before(&s, end) - sb), c + sb);
        }
    }
    source_code_free(&s);
    return found;
}


int source_test_bounds_other_name(const char *path, int access, char *tested, char *missing, char *clause,
                                  size_t n, int *test_line)
{
    tested[0] = missing[0] = clause[0] = '\0';
    *test_line = 0;
    source_code s;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    /* the access's index: the subscript of an array not __shared__ */
    size_t b[16], e[16], ib = s.len, ie = s.len;
    int count = line_subscripts(&s, access, b, e, 16);
    for (int i = 0; i < count && ib == s.len; i++) {
        size_t an = 0, a = code_word_before(&s, b[i], &an);
        if (an && !code_declared_shared(s.code, s.code + a, an))
            ib = b[i] + 1, ie = e[i];
    }
    /* the if whose body holds the access */
    int in_else = 0;
    size_t t = ib < s.len ? code_test_around(&s, ib, &in_else) : s.len;
    size_t g = t < s.len ? code_kernel_before(&s, t) : s.len, close = 0;
    size_t kernel = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int found = 0;
    if (kernel < s.len && !in_else && code_word_at(&s, t, "if")) {
        size_t open = code_skip_space(&s, t + 2);
        size_t cend = open < s.len && s.code[open] == '(' ? code_matching(&s, open) : s.len;
        /* each clause `A < B` or `A <= B` whose A is one local name */
        size_t tested_at = s.len, tn = 0, clause_b = 0, clause_e = 0;
        int ntested = 0;
        for (size_t c = open + 1; c < cend;) {
            size_t ce = c;
            int depth = 0;
            while (ce < cend && !(depth == 0 && ((s.code[ce] == '&' && s.code[ce + 1] == '&') ||
                                                 (s.code[ce] == '|' && s.code[ce + 1] == '|')))) {
                depth += (s.code[ce] == '(') - (s.code[ce] == ')');
                ce++;
            }
            size_t a = code_skip_space(&s, c), an = code_word_end(&s, a) - a;
            size_t op = code_skip_space(&s, a + an);
            size_t ve = 0;
            if (an && s.code[op] == '<' && s.code[op + 1] != '<' &&
                code_assignment_of(&s, kernel, t, s.code + a, an, &ve) < s.len &&
                !code_span_has_name(&s, ib, ie, s.code + a, an)) {
                ntested++;
                tested_at = a, tn = an, clause_b = a, clause_e = code_blank_before(&s, ce);
            }
            c = ce + 2;
        }
        /* the index's local names that read the thread's place and that no clause compares */
        size_t miss_at = s.len, mn = 0;
        int nmissing = 0;
        for (size_t k = ib; k < ie; k++) {
            if (!code_word_starts(&s, k) || !source_is_identifier_char(s.code[k]) ||
                (s.code[k] >= '0' && s.code[k] <= '9'))
                continue;
            size_t we = code_word_end(&s, k), ve = 0;
            size_t v = code_assignment_of(&s, kernel, t, s.code + k, we - k, &ve);
            int dup = miss_at < s.len && we - k == mn && !memcmp(s.code + k, s.code + miss_at, mn);
            if (v < s.len && !dup && !code_span_has_name(&s, open, cend, s.code + k, we - k) &&
                (code_coordinates(&s, kernel, v, v, ve) & 7u)) {
                nmissing++;
                miss_at = k, mn = we - k;
            }
            k = we - 1;
        }
        if (ntested == 1 && nmissing == 1 && tn < n && mn < n && clause_e - clause_b < n) {
            snprintf(tested, n, "%.*s", (int)tn, s.code + tested_at);
            snprintf(missing, n, "%.*s", (int)mn, s.code + miss_at);
            snprintf(clause, n, "%.*s", (int)(clause_e - clause_b), s.code + clause_b);
            *test_line = code_line_at(&s, t);
            found = 1;
        } else if (ntested == 0 && nmissing == 1 && mn < n) {
            /* no clause for the index's name at all: the bound another
             * test of the kernel gives it (`Col < l` at the store) */
            for (size_t k = kernel; k < close && !found; k++) {
                if (k >= open && k < cend)
                    continue;
                if (!code_name_at(&s, k, s.code + miss_at, mn))
                    continue;
                size_t op = code_skip_space(&s, k + mn);
                if (s.code[op] != '<' || s.code[op + 1] == '<')
                    continue;
                size_t open2 = s.len;
                for (size_t q = k; q > kernel && open2 == s.len; q--)
                    if (s.code[q] == '(' && code_matching(&s, q) > k)
                        open2 = q;
                size_t end2 = open2 < s.len ? code_matching(&s, open2) : s.len, ce = op;
                while (ce < end2 && !(s.code[ce] == '&' && s.code[ce + 1] == '&') &&
                       !(s.code[ce] == '|' && s.code[ce + 1] == '|'))
                    ce++;
                ce = code_blank_before(&s, ce);
                if (open2 < s.len && ce - k < n) {
                    tested[0] = '\0';
                    snprintf(missing, n, "%.*s", (int)mn, s.code + miss_at);
                    snprintf(clause, n, "%.*s", (int)(ce - k), s.code + k);
                    *test_line = code_line_at(&s, t);
                    found = 1;
                }
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_tile_index_loop_offset(const char *path, int access, char *counter, char *start, size_t n, int *loop_line)
{
    counter[0] = start[0] = '\0';
    *loop_line = 0;
    source_code s;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b[16], e[16];
    int count = line_subscripts(&s, access, b, e, 16), found = 0;
    size_t loop = count > 0 ? code_loop_around(&s, b[0]) : s.len, cn = 0;
    size_t ctr = loop < s.len && code_word_at(&s, loop, "for") ? code_for_counter(&s, loop, &cn) : s.len;
    if (ctr < s.len) {
        /* its first value: `= ...;` in the header, with a name in it */
        size_t q = code_skip_space(&s, ctr + cn), vb = q + 1, ve = q < s.len ? code_semicolon(&s, q, s.len) : s.len;
        int named = 0;
        for (size_t k = vb; k < ve && q < s.len && s.code[q] == '=' && !named; k++)
            named = code_word_starts(&s, k) && isalpha((unsigned char)s.code[k]);
        /* a subscript of a __shared__ array that is the counter alone */
        for (int i = 0; i < count && named && !found; i++) {
            size_t an = 0, a = code_word_before(&s, b[i], &an);
            size_t w = code_skip_space(&s, b[i] + 1);
            if (!an) {
                /* a second subscript: the array is the first's */
                for (int j = i - 1; j >= 0 && !an; j--)
                    a = code_word_before(&s, b[j], &an);
            }
            if (an && code_declared_shared(s.code, s.code + a, an) && code_name_at(&s, w, s.code + ctr, cn) &&
                code_skip_space(&s, w + cn) == e[i] && cn < n && ve - vb < n) {
                snprintf(counter, n, "%.*s", (int)cn, s.code + ctr);
                size_t sb = code_skip_space(&s, vb);
                snprintf(start, n, "%.*s", (int)(code_blank_before(&s, ve) - sb), s.code + sb);
                *loop_line = code_line_at(&s, loop);
                found = 1;
            }
        }
    }
    source_code_free(&s);
    return found;
}

/* The names of the subscripts of the read whose name starts at b (up to
 * its last ']', *end): at most max, each a plain name (not a member after
 * '.', not a call), into names with their lengths. */
static int read_index_names(const source_code *s, size_t b, size_t *end, const char **names, size_t *lens, int max)
{
    size_t k = code_word_end(s, b), n = 0;
    k = code_skip_space(s, k);
    *end = k;
    while (k < s->len && s->code[k] == '[') {
        size_t close = code_matching(s, k);
        if (close >= s->len)
            return -1;
        for (size_t q = k + 1; q < close; q++) {
            if (!code_word_starts(s, q) || !(isalpha((unsigned char)s->code[q]) || s->code[q] == '_'))
                continue;
            size_t we = code_word_end(s, q), after = code_skip_space(s, we);
            int member = q > 0 && (s->code[q - 1] == '.' || (q > 1 && s->code[q - 1] == '>' && s->code[q - 2] == '-'));
            if (!member && s->code[after] != '(' && s->code[after] != '.' && n < (size_t)max) {
                names[n] = s->code + q;
                lens[n++] = we - q;
            }
            q = we - 1;
        }
        *end = close + 1;
        k = code_skip_space(s, close + 1);
    }
    return (int)n;
}

/* Whether the header of the if (or loop) whose keyword is at t names one
 * of the names. */
static int header_names_any(const source_code *s, size_t t, const char **names, const size_t *lens, int n)
{
    size_t open = t;
    while (open < s->len && s->code[open] != '(' && s->code[open] != '{' && s->code[open] != ';')
        open++;
    size_t close = open < s->len && s->code[open] == '(' ? code_matching(s, open) : s->len;
    for (size_t q = open; close < s->len && q < close; q++)
        for (int i = 0; i < n; i++)
            if (code_name_at(s, q, names[i], lens[i]))
                return 1;
    return 0;
}

/* The first array read after the `=` of the line [b, e) of s (`I` of
 * `N_ds[y][x] = I[...]`): its name's offset, or e. */
static size_t first_read_after_assign(const source_code *s, size_t b, size_t e)
{
    size_t q = b;
    while (q < e && !code_assigns_at(s, q))
        q++;
    for (q = q + 1; q < e; q++) {
        if (!code_word_starts(s, q) || !(isalpha((unsigned char)s->code[q]) || s->code[q] == '_'))
            continue;
        size_t we = code_word_end(s, q);
        if (s->code[code_skip_space(s, we)] == '[')
            return q;
        q = we - 1;
    }
    return e;
}

int source_read_index_via(const char *path, int access, const char *name, char *via, size_t n)
{
    source_code s;
    via[0] = '\0';
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, access), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t g = b < s.len ? code_kernel_before(&s, b) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    size_t q = body < s.len ? first_read_after_assign(&s, b, e) : e;
    const char *names[16];
    size_t lens[16], end = 0, nl = strlen(name);
    int k = q < e ? read_index_names(&s, q, &end, names, lens, 16) : 0, found = 0;
    for (int i = 0; i < k && !found; i++)
        if (lens[i] == nl && !strncmp(names[i], name, nl)) {
            k = 0; /* the read reads it itself */
            break;
        }
    for (int i = 0; i < k && !found; i++) {
        size_t vend = 0, v = code_assignment_of(&s, body, b, names[i], lens[i], &vend);
        for (size_t t = v; v < s.len && t < vend && !found; t++)
            found = code_name_at(&s, t, name, nl);
        if (found && lens[i] < n)
            snprintf(via, n, "%.*s", (int)lens[i], names[i]);
        else
            found = 0;
    }
    source_code_free(&s);
    return found;
}

int source_read_index_has(const char *path, int access, const char *name)
{
    source_code s;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, access), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t q = b < s.len ? first_read_after_assign(&s, b, e) : e;
    const char *names[16];
    size_t lens[16], end = 0, nl = strlen(name);
    int k = q < e ? read_index_names(&s, q, &end, names, lens, 16) : 0, has = 0;
    for (int i = 0; i < k && !has; i++)
        has = lens[i] == nl && !strncmp(names[i], name, nl);
    source_code_free(&s);
    return has;
}

int source_read_index_part_of(const char *path, int access, const char *part, char *via, size_t n, int *set_line)
{
    source_code s;
    via[0] = '\0';
    *set_line = 0;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    char want[160], got[320];
    code_squeezed(part, strlen(part), want, sizeof want);
    size_t b = code_line_start(&s, access), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t g = b < s.len ? code_kernel_before(&s, b) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    size_t q = body < s.len ? first_read_after_assign(&s, b, e) : e;
    const char *names[16];
    size_t lens[16], end = 0;
    int k = q < e ? read_index_names(&s, q, &end, names, lens, 16) : 0, found = 0;
    for (int i = 0; i < k && !found && strlen(want) >= 3; i++) {
        size_t vend = 0, v = code_assignment_of(&s, body, b, names[i], lens[i], &vend);
        if (v >= s.len)
            continue;
        code_squeezed(s.code + v, vend - v, got, sizeof got);
        size_t gl = strlen(got);
        while (gl > 0 && got[gl - 1] == ';')
            got[--gl] = '\0';
        /* a proper part of the value: a term of it, not the whole */
        const char *at = strstr(got, want);
        size_t wl = strlen(want);
        if (!at || wl >= gl || !((at == got || at[-1] == '+' || at[-1] == '-') &&
                                 (at[wl] == '\0' || at[wl] == '+' || at[wl] == '-')))
            continue;
        if (lens[i] < n) {
            snprintf(via, n, "%.*s", (int)lens[i], names[i]);
            *set_line = code_line_at(&s, v);
            found = 1;
        }
    }
    source_code_free(&s);
    return found;
}

/* text with its leading and trailing blanks taken off, into out. */
static void trimmed(const char *text, size_t len, char *out, size_t size)
{
    while (len > 0 && isspace((unsigned char)*text))
        text++, len--;
    while (len > 0 && isspace((unsigned char)text[len - 1]))
        len--;
    snprintf(out, size, "%.*s", (int)(len < size ? len : size - 1), text);
}

int source_flat_ghost_test(const char *path, char *flat, size_t flat_n, char *bound, size_t bound_n)
{
    source_code s;
    flat[0] = bound[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k + 2 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "if") || code_kernel_before(&s, k) >= s.len)
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || c[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len)
            continue;
        /* the body's store into a __shared__ array: a tile's load */
        size_t body = code_skip_space(&s, close + 1);
        if (body < s.len && c[body] == '{')
            body = code_skip_space(&s, body + 1);
        size_t be = code_semicolon(&s, body, s.len);
        size_t st = be < s.len ? code_store_between(&s, body, be) : s.len;
        size_t nn = 0, nb = st < s.len ? code_word_before(&s, st, &nn) : s.len;
        if (st >= s.len || !nn || !code_declared_shared(c, c + nb, nn))
            continue;
        /* a clause `A * W + B < H * W`: one flat value of two coordinates */
        size_t start = open + 1;
        int depth = 0;
        for (size_t q = open + 1; q <= close && !found; q++) {
            if (q < close && (c[q] == '(' || c[q] == '['))
                depth++;
            else if (q < close && (c[q] == ')' || c[q] == ']'))
                depth--;
            if (q < close && !(depth == 0 && c[q] == '&' && c[q + 1] == '&'))
                continue;
            size_t lt = s.len;
            for (size_t t = start; t < q; t++)
                if (c[t] == '<' && c[t + 1] != '<' && c[t + 1] != '=' && (t == 0 || c[t - 1] != '<'))
                    lt = t;
            if (lt < s.len) {
                char l[128], r[128];
                trimmed(c + start, lt - start, l, sizeof l);
                trimmed(c + lt + 1, q - lt - 1, r, sizeof r);
                if (strchr(l, '*') && strchr(l, '+') && strchr(r, '*') && !strchr(r, '+') && strlen(l) < flat_n &&
                    strlen(r) < bound_n) {
                    snprintf(flat, flat_n, "%s", l);
                    snprintf(bound, bound_n, "%s", r);
                    found = code_line_at(&s, k);
                }
            }
            start = q + 2;
            q++;
        }
    }
    source_code_free(&s);
    return found;
}

int source_upper_test_of(const char *path, int access, const char *name, char *clause, size_t n)
{
    source_code s;
    clause[0] = '\0';
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t at = code_line_start(&s, access), g = at < s.len ? code_kernel_before(&s, at) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len, nl = strlen(name);
    int found = 0;
    for (size_t k = body; body < s.len && k < close && !found; k++) {
        if (!code_word_at(&s, k, "if"))
            continue;
        size_t open = code_skip_space(&s, k + 2);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t shut = code_matching(&s, open);
        for (size_t q = open + 1; q < shut && !found; q++) {
            if (!code_name_at(&s, q, name, nl))
                continue;
            size_t op = code_skip_space(&s, q + nl);
            if (op >= shut || s.code[op] != '<' || s.code[op + 1] == '<')
                continue;
            /* to the clause's end: `&&`, `||` or the condition's close */
            size_t e = op + 1;
            int depth = 0;
            while (e < shut && !(depth == 0 && (s.code[e] == '&' || s.code[e] == '|'))) {
                depth += (s.code[e] == '(') - (s.code[e] == ')');
                e++;
            }
            while (e > op && (s.code[e - 1] == ' ' || s.code[e - 1] == '\n' || s.code[e - 1] == '\t'))
                e--;
            if (e - q < n) {
                snprintf(clause, n, "%.*s", (int)(e - q), s.code + q);
                found = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_twin_read_guarded(const char *path, int access, char *read, size_t read_n, int *twin_line, int *has_else)
{
    source_code s;
    read[0] = '\0';
    *twin_line = *has_else = 0;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, access), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t g = b < s.len ? code_kernel_before(&s, b) : s.len, close = 0;
    size_t body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    int test_line = 0;
    size_t q = body < s.len ? first_read_after_assign(&s, b, e) : e;
    const char *names[16];
    size_t lens[16], end = 0;
    int n = q < e ? read_index_names(&s, q, &end, names, lens, 16) : -1;
    int in_else = 0;
    /* this read stands under no if that tests its index's names ... */
    int guarded = 0;
    for (size_t t = n > 0 ? code_test_around(&s, q, &in_else) : s.len, depth = 0;
         t < s.len && t > body && depth < 32 && !guarded; t = code_test_around(&s, t, &in_else), depth++)
        guarded = code_word_at(&s, t, "if") && header_names_any(&s, t, names, lens, n); /* a loop bounds its counter */
    /* ... where the same read, written alike elsewhere in the kernel, stands
     * under one (its innermost test) */
    size_t len = end - q;
    for (size_t k = body; n > 0 && !guarded && k + len < close && !test_line; k++) {
        if (k == q || memcmp(s.code + k, s.code + q, len) != 0 || !code_word_starts(&s, k))
            continue;
        size_t t = code_test_around(&s, k, &in_else);
        if (t < s.len && t > body && !in_else && code_word_at(&s, t, "if") && header_names_any(&s, t, names, lens, n)) {
            test_line = code_line_at(&s, t);
            *twin_line = code_line_at(&s, k);
            size_t open = t;
            while (open < s.len && s.code[open] != '(')
                open++;
            size_t hc = open < s.len ? code_matching(&s, open) : s.len;
            size_t be = hc < s.len ? code_body_end(&s, hc + 1) : s.len;
            *has_else = be < s.len && code_word_at(&s, code_skip_space(&s, be + 1), "else");
            snprintf(read, read_n, "%.*s", (int)len, s.code + q);
        }
    }
    source_code_free(&s);
    return test_line;
}

/* The text of the first [...] after the whole word name on the line that
 * holds k, spaces trimmed, into out; 1, or 0 when there is none. */
static int first_subscript_after(const source_code *s, int line, const char *name, char *out, size_t size)
{
    size_t b = code_line_start(s, line), e = b < s->len ? code_line_end(s, b) : b, n = strlen(name);
    for (size_t k = b; k + n < e; k++) {
        if (!code_name_at(s, k, name, n))
            continue;
        size_t open = code_skip_space(s, k + n);
        if (open >= e || s->code[open] != '[')
            continue;
        size_t close = code_matching(s, open);
        if (close >= e)
            return 0;
        size_t from = code_skip_space(s, open + 1), to = code_blank_before(s, close);
        if (to <= from || to - from >= size)
            return 0;
        memcpy(out, s->code + from, to - from);
        out[to - from] = '\0';
        return 1;
    }
    return 0;
}

int source_tile_row_untested(const char *path, int access, const char *name, int decl, char *sub, char *dim,
                             size_t n, int *if_line)
{
    source_code s;
    sub[0] = dim[0] = '\0';
    *if_line = 0;
    if (access <= 0 || decl <= 0 || !source_code_read(&s, path))
        return 0;
    int found = first_subscript_after(&s, access, name, sub, n) && first_subscript_after(&s, decl, name, dim, n);
    /* a plain name, its row */
    for (const char *c = sub; found && *c; c++)
        found = isalnum((unsigned char)*c) || *c == '_';
    found = found && sub[0] && !isdigit((unsigned char)sub[0]);
    /* no test around the access, out to the kernel's body, has it */
    size_t pos = code_skip_space(&s, code_line_start(&s, access));
    for (int depth = 0; found && depth < 32 && pos < s.len; depth++) {
        int in_else = 0;
        size_t k = code_test_around(&s, pos, &in_else);
        if (k >= s.len || k >= pos || code_kernel_before(&s, k) >= s.len)
            break;
        size_t open = k;
        while (open < s.len && s.code[open] != '(' && s.code[open] != '\n')
            open++;
        size_t close = open < s.len && s.code[open] == '(' ? code_matching(&s, open) : s.len;
        if (close < s.len && code_span_has_name(&s, open, close, sub, strlen(sub)))
            found = 0;
        if (depth == 0 && code_word_at(&s, k, "if"))
            *if_line = code_line_at(&s, k);
        pos = k;
    }
    source_code_free(&s);
    return found;
}

/* The first access of a 2D __shared__ array, a read (store 0) or a store
 * (store 1) on line only when line > 0, whose first subscript varies with
 * the thread's x alone and its second with its y alone: its line, the
 * array's name and the access with the coordinates exchanged; else 0. */
static int axes_exchanged(const char *path, int only_line, int want_store, char *name, size_t name_n, char *fixed,
                          size_t fixed_n)
{
    source_code s;
    name[0] = fixed[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    /* bits of code_coordinates: threadIdx.x, .y */
    const unsigned tx = 1u << 0, ty = 1u << 1;
    for (size_t k = 0; k + 1 < s.len && !found; k++) {
        if (!source_is_identifier_char(c[k]) || (k > 0 && source_is_identifier_char(c[k - 1])))
            continue;
        size_t we = k;
        while (we < s.len && source_is_identifier_char(c[we]))
            we++;
        size_t o1 = code_skip_space(&s, we);
        size_t g = code_kernel_before(&s, k);
        if (o1 >= s.len || c[o1] != '[' || g >= s.len || we - k >= name_n || !code_declared_shared(c, c + k, we - k)) {
            k = we - 1;
            continue;
        }
        size_t c1 = code_matching(&s, o1), o2 = c1 < s.len ? code_skip_space(&s, c1 + 1) : s.len;
        size_t c2 = o2 < s.len && c[o2] == '[' ? code_matching(&s, o2) : s.len;
        if (c2 >= s.len) {
            k = we - 1;
            continue;
        }
        /* a read: not the left of an assignment */
        size_t after = code_skip_space(&s, c2 + 1);
        int stored = after < s.len && (code_assigns_at(&s, after) || (strchr("+-*/", c[after]) && c[after + 1] == '='));
        unsigned a = code_coordinates(&s, g, k, o1 + 1, c1) & (tx | ty);
        unsigned b = code_coordinates(&s, g, k, o2 + 1, c2) & (tx | ty);
        if ((only_line <= 0 || code_line_at(&s, k) == only_line) && stored == want_store && a == tx && b == ty) {
            snprintf(name, name_n, "%.*s", (int)(we - k), c + k);
            /* the coordinates exchanged where the read names them
             * (`threadIdx.x` and `.y`, `tx` and `ty`), else the two
             * subscripts whole */
            char *read = xasprintf("%.*s", (int)(c2 + 1 - k), c + k);
            char *one = source_words_exchanged(read, "threadIdx.x", "threadIdx.y");
            char *two = source_words_exchanged(one, "tx", "ty");
            if (strcmp(two, read) != 0)
                snprintf(fixed, fixed_n, "%s", two);
            else
                snprintf(fixed, fixed_n, "%.*s[%.*s][%.*s]", (int)(we - k), c + k, (int)(c2 - o2 - 1), c + o2 + 1,
                         (int)(c1 - o1 - 1), c + o1 + 1);
            free(read);
            free(one);
            free(two);
            found = code_line_at(&s, k);
        }
        k = we - 1;
    }
    source_code_free(&s);
    return found;
}

int source_tile_read_axes_exchanged(const char *path, char *name, size_t name_n, char *fixed, size_t fixed_n)
{
    return axes_exchanged(path, 0, 0, name, name_n, fixed, fixed_n);
}

int source_tile_store_axes_exchanged(const char *path, int line, char *name, size_t name_n, char *fixed,
                                     size_t fixed_n)
{
    return axes_exchanged(path, line, 1, name, name_n, fixed, fixed_n);
}
