/*
 * similar.c - gpulab similar: submissions ranked by how alike the students'
 * own code is (similar.h). The tokeniser is this file's own: a submission is
 * hostile text, so it reads any bytes, never fails, and never runs anything.
 */
#include "similar.h"
#include "export.h"
#include "kit.h"
#include "util.h"

#include <cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SOURCE_BYTES (1 << 20)  /* a kernel's file is a few KiB; past this it is not one */
#define MAX_REGIONS 64              /* per pair, on the page and in the JSON */
#define PAGE_PAIRS 40               /* pairs drawn side by side on the page */
#define TEXT_PAIRS 30               /* pairs in the text report */

/* ---- tokens -------------------------------------------------------------------- */

enum { T_IDENT, T_WORD, T_NUM, T_STR, T_PUNCT };

typedef struct {
    int kind;
    uint64_t v;     /* the text's hash (T_IDENT, T_WORD, T_PUNCT); 0 for literals, all one kind */
    int line;
} token;

/* Words that are the language's, CUDA's or a library's, not a student's
 * choice: kept as they are. Every other identifier is a name a copier can
 * change, so names are compared by where they recur, not by what they are. */
static const char *const kept_words[] = {
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
    "true", "false", "NULL", "nullptr", "size_t", "dim3", "threadIdx", "blockIdx", "blockDim", "gridDim",
    "warpSize", "template", "class", "new", "delete", "min", "max", "fminf", "fmaxf", "CUDA_CHECK",
};

static uint64_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603ULL; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
    return h;
}

static uint64_t mix(uint64_t x) /* splitmix64's finaliser */
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static int id_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int id_char(char c)
{
    return id_start(c) || (c >= '0' && c <= '9');
}

static int kept_word(const char *s, size_t n)
{
    if ((n > 4 && strncmp(s, "cuda", 4) == 0) || (n > 2 && strncmp(s, "__", 2) == 0) ||
        (n > 6 && strncmp(s, "atomic", 6) == 0))
        return 1;
    for (size_t i = 0; i < sizeof kept_words / sizeof *kept_words; i++)
        if (strlen(kept_words[i]) == n && strncmp(kept_words[i], s, n) == 0)
            return 1;
    return 0;
}

static const char *const long_punct[] = { "<<<", ">>>", "<<=", ">>=", "...", "->", "++", "--", "<<", ">>", "<=",
                                          ">=", "==", "!=", "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=",
                                          "|=", "^=", "::" };

typedef struct {
    token *v;
    int n, cap;
} tokens;

static void push(tokens *t, int kind, uint64_t v, int line)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 256;
        t->v = xrealloc(t->v, (size_t)t->cap * sizeof *t->v);
    }
    t->v[t->n++] = (token){ kind, v, line };
}

/* The tokens of a C/CUDA file: comments, white space and preprocessor lines
 * gone; any bytes at all are read (a stray byte is punctuation). */
static tokens tokenise(const char *s, size_t len)
{
    tokens t = { NULL, 0, 0 };
    int line = 1, line_start = 1;
    size_t i = 0;
    while (i < len) {
        char c = s[i];
        if (c == '\n') {
            line++;
            line_start = 1;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
            i++;
        } else if (line_start && c == '#') { /* a directive, continued lines too */
            while (i < len && s[i] != '\n') {
                if (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n') {
                    line++;
                    i++;
                }
                i++;
            }
        } else if (c == '/' && i + 1 < len && s[i + 1] == '/') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (c == '/' && i + 1 < len && s[i + 1] == '*') {
            i += 2;
            while (i < len && !(s[i] == '*' && i + 1 < len && s[i + 1] == '/')) {
                line += s[i] == '\n';
                i++;
            }
            i = i + 2 < len ? i + 2 : len;
        } else if (id_start(c)) {
            size_t b = i;
            while (i < len && id_char(s[i]))
                i++;
            /* a member (threadIdx.x, p->next) is not the student's to rename */
            int member = t.n > 0 && t.v[t.n - 1].kind == T_PUNCT &&
                         (t.v[t.n - 1].v == hash_bytes(".", 1) || t.v[t.n - 1].v == hash_bytes("->", 2));
            push(&t, member || kept_word(s + b, i - b) ? T_WORD : T_IDENT, hash_bytes(s + b, i - b), line);
            line_start = 0;
        } else if ((c >= '0' && c <= '9') || (c == '.' && i + 1 < len && s[i + 1] >= '0' && s[i + 1] <= '9')) {
            while (i < len && (id_char(s[i]) || s[i] == '.' ||
                               ((s[i] == '+' || s[i] == '-') && strchr("eEpP", s[i - 1]))))
                i++;
            push(&t, T_NUM, 0, line);
            line_start = 0;
        } else if (c == '"' || c == '\'') {
            i++;
            while (i < len && s[i] != c && s[i] != '\n')
                i += s[i] == '\\' && i + 1 < len && s[i + 1] != '\n' ? 2 : 1;
            if (i < len && s[i] == c)
                i++;
            push(&t, T_STR, 0, line);
            line_start = 0;
        } else {
            size_t n = 1;
            for (size_t k = 0; k < sizeof long_punct / sizeof *long_punct; k++) {
                size_t m = strlen(long_punct[k]);
                if (i + m <= len && strncmp(s + i, long_punct[k], m) == 0) {
                    n = m;
                    break;
                }
            }
            push(&t, T_PUNCT, hash_bytes(s + i, n), line);
            i += n;
            line_start = 0;
        }
    }
    return t;
}

/* A k-gram's hash: each name stands for where it first appears in the
 * k-gram, so "a = a + b" and "x = x + y" hash alike, "a = b + c" not. */
static uint64_t kgram_hash(const token *t)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < SIMILAR_K; i++) {
        uint64_t v = t[i].v;
        if (t[i].kind == T_IDENT) {
            int first = 0;
            while (!(t[first].kind == T_IDENT && t[first].v == t[i].v))
                first++;
            v = (uint64_t)first;
        }
        h = mix(h ^ mix(((uint64_t)t[i].kind << 56) ^ v));
    }
    return h;
}

/* ---- fingerprints ------------------------------------------------------------- */

typedef struct {
    uint64_t h;
    int pos;        /* the k-gram's first token */
} print;

static int by_hash(const void *a, const void *b)
{
    const print *x = a, *y = b;
    return x->h < y->h ? -1 : x->h > y->h ? 1 : x->pos - y->pos;
}

static int by_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Winnowing: in each window of W consecutive k-gram hashes the smallest
 * (the rightmost of equals) is a fingerprint, each position once. Sorted
 * by hash. */
static print *winnow(const tokens *t, int *n)
{
    int nk = t->n - SIMILAR_K + 1;
    *n = 0;
    if (nk <= 0)
        return NULL;
    uint64_t *h = xmalloc((size_t)nk * sizeof *h);
    for (int i = 0; i < nk; i++)
        h[i] = kgram_hash(t->v + i);
    print *p = xmalloc((size_t)nk * sizeof *p);
    int w = nk < SIMILAR_W ? nk : SIMILAR_W, last = -1;
    for (int start = 0; start + w <= nk; start++) {
        int best = start;
        for (int i = start; i < start + w; i++)
            if (h[i] <= h[best])
                best = i;
        if (best != last)
            p[(*n)++] = (print){ h[best], best };
        last = best;
    }
    free(h);
    qsort(p, (size_t)*n, sizeof *p, by_hash);
    return p;
}

/* Every k-gram hash of a file, sorted (the skeleton's: all are given). */
static uint64_t *all_kgrams(const tokens *t, int *n)
{
    int nk = t->n - SIMILAR_K + 1;
    *n = nk > 0 ? nk : 0;
    uint64_t *h = xmalloc((size_t)(*n + 1) * sizeof *h);
    for (int i = 0; i < *n; i++)
        h[i] = kgram_hash(t->v + i);
    qsort(h, (size_t)*n, sizeof *h, by_u64);
    return h;
}

static int holds(const uint64_t *set, int n, uint64_t h)
{
    return n > 0 && bsearch(&h, set, (size_t)n, sizeof *set, by_u64) != NULL;
}

/* ---- submissions and pairs ---------------------------------------------------------- */

typedef struct {
    const char *id;
    char *text;
    size_t len;
    tokens tok;
    print *fp;
    int nfp;
    int distinct;   /* distinct fingerprint hashes kept */
} submission;

typedef struct {
    int a_lo, a_hi, b_lo, b_hi;  /* lines */
} region;

typedef struct {
    int a, b;
    int shared;
    double score, a_share, b_share;
    region *r;
    int nr;
} pair;

/* Keeps the fingerprints that are the students' own: not the skeleton's,
 * not the class's common code. */
static void keep_own(submission *s, const uint64_t *skel, int nskel, const uint64_t *common, int ncommon)
{
    int k = 0;
    for (int i = 0; i < s->nfp; i++)
        if (!holds(skel, nskel, s->fp[i].h) && !holds(common, ncommon, s->fp[i].h))
            s->fp[k++] = s->fp[i];
    s->nfp = k;
    s->distinct = 0;
    for (int i = 0; i < k; i++)
        s->distinct += i == 0 || s->fp[i].h != s->fp[i - 1].h;
}

/* The hashes in more than half of the submissions, when there are five or
 * more: what everyone writes (the launch, the copies) is no one's copy. */
static uint64_t *common_prints(const submission *s, int n, int *ncommon)
{
    *ncommon = 0;
    if (n < 5)
        return xmalloc(sizeof(uint64_t));
    int total = 0;
    for (int i = 0; i < n; i++)
        total += s[i].nfp;
    uint64_t *all = xmalloc((size_t)(total + 1) * sizeof *all);
    int k = 0;
    for (int i = 0; i < n; i++)
        for (int j = 0; j < s[i].nfp; j++)
            if (j == 0 || s[i].fp[j].h != s[i].fp[j - 1].h) /* once per submission */
                all[k++] = s[i].fp[j].h;
    qsort(all, (size_t)k, sizeof *all, by_u64);
    uint64_t *common = xmalloc((size_t)(k + 1) * sizeof *common);
    for (int i = 0; i < k;) {
        int j = i;
        while (j < k && all[j] == all[i])
            j++;
        if (2 * (j - i) > n)
            common[(*ncommon)++] = all[i];
        i = j;
    }
    free(all);
    return common;
}

typedef struct {
    int pa, pb;
} match;

static int by_match(const void *x, const void *y)
{
    const match *a = x, *b = y;
    return a->pa != b->pa ? a->pa - b->pa : a->pb - b->pb;
}

/* The matching k-grams joined into regions (runs that go on in both
 * files), as line ranges. */
static void find_regions(pair *p, const submission *A, const submission *B, match *m, int nm)
{
    qsort(m, (size_t)nm, sizeof *m, by_match);
    typedef struct { int a_lo, a_hi, b_lo, b_hi; } span;
    span *sp = xmalloc((size_t)(nm + 1) * sizeof *sp);
    int ns = 0;
    for (int i = 0; i < nm; i++) {
        int a = m[i].pa, b = m[i].pb, joined = 0;
        for (int s = ns - 1; s >= 0 && s >= ns - 4 && !joined; s--)
            if (a <= sp[s].a_hi + SIMILAR_K && b >= sp[s].b_lo - SIMILAR_K && b <= sp[s].b_hi + SIMILAR_K) {
                if (a + SIMILAR_K - 1 > sp[s].a_hi)
                    sp[s].a_hi = a + SIMILAR_K - 1;
                if (b < sp[s].b_lo)
                    sp[s].b_lo = b;
                if (b + SIMILAR_K - 1 > sp[s].b_hi)
                    sp[s].b_hi = b + SIMILAR_K - 1;
                joined = 1;
            }
        if (!joined)
            sp[ns++] = (span){ a, a + SIMILAR_K - 1, b, b + SIMILAR_K - 1 };
    }
    p->nr = ns < MAX_REGIONS ? ns : MAX_REGIONS;
    p->r = xmalloc((size_t)(p->nr + 1) * sizeof *p->r);
    for (int s = 0; s < p->nr; s++)
        p->r[s] = (region){ A->tok.v[sp[s].a_lo].line, A->tok.v[sp[s].a_hi].line, B->tok.v[sp[s].b_lo].line,
                            B->tok.v[sp[s].b_hi].line };
    free(sp);
}

/* How alike two submissions are: the share of each one's fingerprints the
 * other has too, and their mean. */
static void compare(pair *p, const submission *A, const submission *B)
{
    match *m = NULL;
    int nm = 0, cap = 0;
    p->shared = 0;
    int i = 0, j = 0;
    while (i < A->nfp && j < B->nfp) {
        if (A->fp[i].h < B->fp[j].h) {
            i++;
        } else if (A->fp[i].h > B->fp[j].h) {
            j++;
        } else {
            uint64_t h = A->fp[i].h;
            int i2 = i, j2 = j;
            while (i2 < A->nfp && A->fp[i2].h == h)
                i2++;
            while (j2 < B->nfp && B->fp[j2].h == h)
                j2++;
            p->shared++;
            for (int x = i; x < i2 && x < i + 4; x++)
                for (int y = j; y < j2 && y < j + 4; y++) {
                    if (nm == cap) {
                        cap = cap ? 2 * cap : 64;
                        m = xrealloc(m, (size_t)cap * sizeof *m);
                    }
                    m[nm++] = (match){ A->fp[x].pos, B->fp[y].pos };
                }
            i = i2;
            j = j2;
        }
    }
    p->a_share = A->distinct ? (double)p->shared / A->distinct : 0;
    p->b_share = B->distinct ? (double)p->shared / B->distinct : 0;
    p->score = (p->a_share + p->b_share) / 2;
    find_regions(p, A, B, m, nm);
    free(m);
}

static int by_score(const void *x, const void *y)
{
    const pair *a = x, *b = y;
    if (a->score != b->score)
        return a->score < b->score ? 1 : -1;
    if (a->a != b->a)
        return a->a - b->a;
    return a->b - b->b;
}

static double rounded(double x)
{
    return round(x * 1000) / 1000;
}

/* ---- the report and the page ------------------------------------------------------- */

static char *report_json(const similar_job *j, const submission *s, int n, const pair *p, int np,
                         const cJSON *left_out)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lab", j->m->id);
    cJSON_AddNumberToObject(o, "k", SIMILAR_K);
    cJSON_AddNumberToObject(o, "window", SIMILAR_W);
    cJSON *subs = cJSON_AddArrayToObject(o, "submissions");
    for (int i = 0; i < n; i++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "id", s[i].id);
        cJSON_AddNumberToObject(e, "fingerprints", s[i].distinct);
        cJSON_AddItemToArray(subs, e);
    }
    cJSON_AddItemToObject(o, "left_out", cJSON_Duplicate(left_out, 1));
    cJSON *pairs = cJSON_AddArrayToObject(o, "pairs");
    for (int k = 0; k < np; k++) {
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "a", s[p[k].a].id);
        cJSON_AddStringToObject(e, "b", s[p[k].b].id);
        cJSON_AddNumberToObject(e, "score", rounded(p[k].score));
        cJSON_AddNumberToObject(e, "a_share", rounded(p[k].a_share));
        cJSON_AddNumberToObject(e, "b_share", rounded(p[k].b_share));
        cJSON_AddNumberToObject(e, "shared", p[k].shared);
        cJSON *rs = cJSON_AddArrayToObject(e, "regions");
        for (int r = 0; r < p[k].nr; r++) {
            cJSON *x = cJSON_CreateObject();
            int a[2] = { p[k].r[r].a_lo, p[k].r[r].a_hi }, b[2] = { p[k].r[r].b_lo, p[k].r[r].b_hi };
            cJSON_AddItemToObject(x, "a_lines", cJSON_CreateIntArray(a, 2));
            cJSON_AddItemToObject(x, "b_lines", cJSON_CreateIntArray(b, 2));
            cJSON_AddItemToArray(rs, x);
        }
        cJSON_AddItemToArray(pairs, e);
    }
    char *text = cJSON_Print(o);
    cJSON_Delete(o);
    char *withnl = xasprintf("%s\n", text);
    free(text);
    return withnl;
}

static char *report_text(const similar_job *j, const submission *s, int n, const pair *p, int np)
{
    strbuf sb;
    sb_init(&sb);
    sb_printf(&sb, "%s: %d submissions, %d pair%s, ranked by how alike their own code is (the skeleton's "
                   "lines%s left out)\n\n", j->m->id, n, np, np == 1 ? "" : "s",
              n >= 5 ? " and what most of the class wrote" : "");
    sb_printf(&sb, "%-6s %-24s %-24s %s\n", "score", "a", "b", "matching lines (a ~ b)");
    int shown = np < TEXT_PAIRS ? np : TEXT_PAIRS;
    for (int k = 0; k < shown; k++) {
        char *a = printable(s[p[k].a].id), *b = printable(s[p[k].b].id);
        sb_printf(&sb, "%-6.3f %-24s %-24s", p[k].score, a, b);
        for (int r = 0; r < p[k].nr && r < 4; r++)
            sb_printf(&sb, "%s%d-%d ~ %d-%d", r ? ", " : " ", p[k].r[r].a_lo, p[k].r[r].a_hi, p[k].r[r].b_lo,
                      p[k].r[r].b_hi);
        sb_puts(&sb, p[k].nr > 4 ? ", ...\n" : "\n");
        free(a);
        free(b);
    }
    if (np > shown)
        sb_printf(&sb, "... and %d more pairs (--format json gives every one)\n", np - shown);
    return sb_detach(&sb);
}

/* One file's lines, those in a region marked with the region's colour. */
static void listing(strbuf *sb, const submission *s, const region *r, int nr, int side)
{
    sb_puts(sb, "<td><pre>");
    const char *line = s->text, *end = s->text + s->len;
    for (int no = 1; line < end; no++) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        int mark = -1;
        for (int k = 0; k < nr && mark < 0; k++) {
            int lo = side ? r[k].b_lo : r[k].a_lo, hi = side ? r[k].b_hi : r[k].a_hi;
            if (no >= lo && no <= hi)
                mark = k;
        }
        if (mark >= 0)
            sb_printf(sb, "<span class=\"m%d\" title=\"region %d\">", mark % 5, mark + 1);
        sb_printf(sb, "<span class=\"ln\">%4d</span> ", no);
        char *copy = xasprintf("%.*s", (int)n, line);
        export_xml_text(sb, copy);
        free(copy);
        sb_puts(sb, mark >= 0 ? "</span>\n" : "\n");
        line += n + (nl != NULL);
    }
    sb_puts(sb, "</pre></td>");
}

static char *page(const similar_job *j, const submission *s, int n, const pair *p, int np)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
                 "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
                 "<title>");
    export_xml_text(&sb, j->m->id);
    sb_puts(&sb, ": similar submissions</title>\n<style>body{font-family:sans-serif;margin:1em 2em}"
                 "table.side{border-collapse:collapse;width:100%}table.side td{vertical-align:top;width:50%;"
                 "border:1px solid #ccc;padding:0 .5em}pre{font-size:12px;margin:0}.ln{color:#999}"
                 ".m0{background:#fdd}.m1{background:#dfd}.m2{background:#ddf}.m3{background:#ffd}"
                 ".m4{background:#fdf}th,td{text-align:left;padding:2px 8px}</style></head><body>\n<h1>");
    export_xml_text(&sb, j->m->id);
    sb_printf(&sb, ": %d submissions, %d pairs</h1>\n<p>Ranked by how alike the students' own code is: the "
                   "skeleton's lines%s left out; names, literals, comments and layout do not count. A score is "
                   "the mean share of each one's fingerprints that the other has. High scores are for a person "
                   "to read, side by side, not a verdict.</p>\n<table><tr><th>score</th><th>a</th><th>b</th>"
                   "<th>regions</th></tr>\n", n, np, n >= 5 ? " and what most of the class wrote" : "");
    int shown = 0;
    for (int k = 0; k < np && shown < PAGE_PAIRS && p[k].score > 0; k++, shown++) {
        sb_printf(&sb, "<tr><td><a href=\"#pair%d\">%.3f</a></td><td>", k + 1, p[k].score);
        export_xml_text(&sb, s[p[k].a].id);
        sb_puts(&sb, "</td><td>");
        export_xml_text(&sb, s[p[k].b].id);
        sb_printf(&sb, "</td><td>%d</td></tr>\n", p[k].nr);
    }
    sb_puts(&sb, "</table>\n");
    for (int k = 0; k < shown; k++) {
        sb_printf(&sb, "<h2 id=\"pair%d\">", k + 1);
        export_xml_text(&sb, s[p[k].a].id);
        sb_puts(&sb, " and ");
        export_xml_text(&sb, s[p[k].b].id);
        sb_printf(&sb, ": %.3f</h2>\n<table class=\"side\"><tr><th>", p[k].score);
        export_xml_text(&sb, s[p[k].a].id);
        sb_printf(&sb, " (%.0f%% of it matched)</th><th>", 100 * p[k].a_share);
        export_xml_text(&sb, s[p[k].b].id);
        sb_printf(&sb, " (%.0f%% of it matched)</th></tr>\n<tr>", 100 * p[k].b_share);
        listing(&sb, &s[p[k].a], p[k].r, p[k].nr, 0);
        listing(&sb, &s[p[k].b], p[k].r, p[k].nr, 1);
        sb_puts(&sb, "</tr></table>\n");
    }
    sb_puts(&sb, "</body></html>\n");
    return sb_detach(&sb);
}

/* ---- the command ------------------------------------------------------------------ */

static int read_submission(submission *s, const batch_entry *e, cJSON *left_out)
{
    char *why = NULL;
    memset(s, 0, sizeof *s);
    s->id = e->id;
    if (!e->path)
        why = xstrdup(e->problem ? e->problem : "no file");
    else
        s->text = untrusted_read(e->path, MAX_SOURCE_BYTES, 0, &s->len, &why);
    if (!s->text) {
        char *shown = export_private_paths(why);
        cJSON *o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "id", e->id);
        cJSON_AddStringToObject(o, "why", shown);
        cJSON_AddItemToArray(left_out, o);
        fprintf(stderr, "gpulab: %s left out: %s\n", e->id, shown);
        free(shown);
        free(why);
        return 0;
    }
    s->tok = tokenise(s->text, s->len);
    s->fp = winnow(&s->tok, &s->nfp);
    return 1;
}

int similar_run(const similar_job *j)
{
    char *skel_path = manifest_skeleton_path(j->m);
    size_t skel_len = 0;
    char *skel_text = read_file(skel_path, &skel_len);
    if (!skel_text)
        fprintf(stderr, "gpulab: no skeleton %s (%s): nothing is left out as given\n", skel_path, strerror(errno));
    tokens skel_tok = skel_text ? tokenise(skel_text, skel_len) : (tokens){ NULL, 0, 0 };
    int nskel;
    uint64_t *skel = all_kgrams(&skel_tok, &nskel);

    cJSON *left_out = cJSON_CreateArray();
    submission *s = xcalloc((size_t)j->n + 1, sizeof *s);
    int n = 0;
    for (int i = 0; i < j->n; i++)
        n += read_submission(&s[n], &j->entries[i], left_out);
    if (n < 2)
        die("similar: %d submission%s to compare; give a class (a folder of students' folders or files)", n,
            n == 1 ? "" : "s");
    for (int i = 0; i < n; i++)
        keep_own(&s[i], skel, nskel, NULL, 0);
    int ncommon;
    uint64_t *common = common_prints(s, n, &ncommon);
    for (int i = 0; i < n; i++)
        keep_own(&s[i], skel, 0, common, ncommon);

    int np = n * (n - 1) / 2, k = 0;
    pair *p = xcalloc((size_t)np, sizeof *p);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++) {
            p[k].a = a;
            p[k].b = b;
            compare(&p[k], &s[a], &s[b]);
            k++;
        }
    qsort(p, (size_t)np, sizeof *p, by_score);

    char *report = j->json ? report_json(j, s, n, p, np, left_out) : report_text(j, s, n, p, np);
    if (write_output(j->out ? j->out : "-", report, strlen(report)) != 0)
        die("cannot write %s: %s", j->out, strerror(errno));
    free(report);
    if (j->html) {
        char *html = page(j, s, n, p, np);
        if (write_output(j->html, html, strlen(html)) != 0)
            die("cannot write %s: %s", j->html, strerror(errno));
        free(html);
    }

    for (int i = 0; i < np; i++)
        free(p[i].r);
    free(p);
    for (int i = 0; i < n; i++) {
        free(s[i].text);
        free(s[i].tok.v);
        free(s[i].fp);
    }
    free(s);
    free(common);
    free(skel);
    free(skel_tok.v);
    free(skel_text);
    free(skel_path);
    cJSON_Delete(left_out);
    return 0;
}
