/*
 * report.c - see report.h.
 */
#define _GNU_SOURCE
#include "report.h"
#include "repair.h"
#include "compare.h"
#include "counts.h"
#include "diagnose.h"
#include "errormap.h"
#include "requirements.h"
#include "sanitize.h"
#include "source.h"
#include "stages.h"

#include <math.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int report_want_color(int fd)
{
    const char *no = getenv("NO_COLOR");
    const char *term = getenv("TERM");
    return isatty(fd) && !(no && *no) && !(term && strcmp(term, "dumb") == 0);
}

static const char *status_color(status_t s)
{
    switch (s) {
    case ST_PASS: return "\033[32m";
    case ST_GRADER_ERROR: return "\033[35m";
    case ST_WRONG: return "\033[31m";
    default: return "\033[33m";
    }
}

static void points_text(char *buf, size_t len, double got, double max)
{
    snprintf(buf, len, "%g/%g", got, max);
}

/* printable() of a string for one line of the text report: the result
 * lives until eight more calls (the report is written by one thread). */
static const char *safe(const char *s)
{
    static char *slots[8];
    static int next;
    free(slots[next]);
    slots[next] = printable(s);
    const char *r = slots[next];
    next = (next + 1) % 8;
    return r;
}

/* The last `keep` lines of a text, each indented. */
static void tail_lines(strbuf *out, const char *text, int keep, const char *indent)
{
    if (!text || !*text)
        return;
    const char *end = text + strlen(text);
    while (end > text && end[-1] == '\n')
        end--;
    const char *start = end;
    int lines = 0;
    while (start > text && lines < keep) {
        start--;
        if (*start == '\n' && ++lines == keep) {
            start++;
            break;
        }
    }
    if (start > text)
        sb_printf(out, "%s...\n", indent);
    for (const char *line = start; line < end;) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        size_t n = nl ? (size_t)(nl - line) : (size_t)(end - line);
        char *one = xasprintf("%.*s", (int)n, line);
        sb_printf(out, "%s%s\n", indent, safe(one));
        free(one);
        line += n + 1;
    }
}

static void number_text(char *buf, size_t len, double v, int poisoned)
{
    if (poisoned)
        snprintf(buf, len, "(never written)");
    else if (isnan(v))
        snprintf(buf, len, "NaN");
    else
        snprintf(buf, len, "%.9g", v);
}

/* ---- the text report ---------------------------------------------------------
 *
 * Short enough to read (aim: 40 lines for one mistake): one line per dataset
 * and requirement, then the details of each *kind* of failure once: datasets
 * whose failure reads the same (status, and the diagnosis in their hint or
 * message, numbers aside) are folded under the first ("and 4 more datasets,
 * same pattern"); verbose shows each. Then what the checkers said, the key
 * of the maps, the pattern across datasets, the one thing to fix first and
 * the score. The JSON report is never folded. */

/* The part of a dataset's hint that names a cause: an image lab's hint
 * starts with the error map's sentence (where the errors sit, ending "; the
 * first is at row R, column C."), and the diagnosis, if any, follows it. */
static const char *hint_diagnosis(const compare_result *c)
{
    if (!c->compared || !c->hint[0])
        return "";
    const char *first = strstr(c->hint, "; the first is at row ");
    if (!first)
        return c->hint;
    const char *end = strstr(first, ". ");
    return end ? end + 2 : "";
}

/* Appends text to key with every run of digits as one '#', so that counts
 * and positions do not split a pattern. */
static void add_shape(strbuf *key, const char *text)
{
    for (const char *p = text ? text : ""; *p; p++) {
        if (*p >= '0' && *p <= '9') {
            while (p[1] >= '0' && p[1] <= '9')
                p++;
            sb_puts(key, "#");
        } else {
            sb_append(key, p, 1);
        }
    }
}

/* A wrong output whose message is the harness's own finding (the padding
 * of out overwritten, ...) rather than the compare stage's count. */
static int harness_said(const dataset_result *d)
{
    return d->status == ST_WRONG && d->message && !strstr(d->message, " elements wrong") &&
           strncmp(d->message, "nothing was written", 19) != 0;
}

/* The words before the first colon: a finding's claim without its advice. */
static void add_claim(strbuf *key, const char *text)
{
    const char *colon = strchr(text, ':');
    char *claim = xasprintf("%.*s", colon ? (int)(colon - text) : (int)strlen(text), text);
    add_shape(key, claim);
    free(claim);
}

/* What makes two failing datasets "the same pattern". A wrong output's
 * message only counts its wrong elements, so there the hint's diagnosis
 * decides; other statuses' messages name the cause (the CUDA error, the
 * signal, the memory error). */
static char *pattern_key(const dataset_result *d)
{
    strbuf key;
    sb_init(&key);
    sb_printf(&key, "%s|", status_name(d->status));
    if (harness_said(d)) {
        add_claim(&key, d->message);
    } else if (d->status == ST_WRONG) {
        /* the claim, before the advice: "N elements are NaN or infinite" */
        add_claim(&key, hint_diagnosis(&d->cmp));
    } else {
        add_shape(&key, d->message);
    }
    return sb_detach(&key);
}

static int has_details(const dataset_result *d)
{
    int findings = d->sanitizer && d->sanitizer->nfindings > 0;
    return !((d->status == ST_PASS && !findings) || d->status == ST_COMPILE_ERROR);
}

static int has_findings(const dataset_result *d)
{
    return d->sanitizer && d->sanitizer->nfindings > 0;
}

/* The xterm 256-colour index nearest an RGB colour (the 6 x 6 x 6 cube). */
static int xterm_index(const unsigned char *rgb)
{
    int q[3];
    for (int i = 0; i < 3; i++)
        q[i] = (rgb[i] * 5 + 127) / 255;
    return 16 + 36 * q[0] + 6 * q[1] + q[2];
}

/* The error map, small, in half blocks: each character is two pixels, the
 * upper in the foreground colour and the lower in the background. Only on
 * a terminal with colour (the caller's `color`). */
static void draw_thumbnail(strbuf *out, const compare_result *c)
{
    static const char upper_half[] = "\xe2\x96\x80"; /* U+2580 */
    for (int y = 0; y < c->thumb_rows; y += 2) {
        sb_puts(out, "      ");
        for (int x = 0; x < c->thumb_cols; x++) {
            const unsigned char *top = c->thumb + ((size_t)y * c->thumb_cols + x) * 3;
            if (y + 1 < c->thumb_rows) {
                const unsigned char *bottom = c->thumb + ((size_t)(y + 1) * c->thumb_cols + x) * 3;
                sb_printf(out, "\033[38;5;%dm\033[48;5;%dm%s", xterm_index(top), xterm_index(bottom), upper_half);
            } else {
                sb_printf(out, "\033[38;5;%dm\033[49m%s", xterm_index(top), upper_half);
            }
        }
        sb_puts(out, "\033[0m\n");
    }
}

/* The tag by which a finding is listed once (same kind and lines). */
static void finding_tag(char *tag, size_t len, const finding *f)
{
    snprintf(tag, len, "|%s:%d:%d|", f->kind, f->line, f->line2);
}

/* The finding the "fix this first" line names: the first of the first
 * dataset the checkers found anything in; NULL when they found nothing, or
 * when the line names a cause they follow from (a launch, a copy). */
static const finding *first_finding(const submission_result *s)
{
    if (s->cause)
        return NULL;
    /* in the datasets' order, but a race the race series found last: the
     * full checks found it first, with what their runs recorded */
    for (int races = 0; races < 2; races++)
        for (int i = 0; i < s->ndatasets; i++)
            if (has_findings(&s->datasets[i]) && (s->datasets[i].sanitizer->from_series == 2) == races)
                return &s->datasets[i].sanitizer->findings[0];
    return NULL;
}

/* A race between two accesses that a __syncthreads() under an if lets
 * through, whose finding says to take the barrier out of the if, and a
 * repair that edits that if's test: the edit makes the test hold for the
 * runs (`ph <= numPhases - 1` for `ph < numPhases - 1`) and keeps a
 * barrier that some threads may skip, which the finding's own advice
 * removes. */
static int repair_keeps_guarded_barrier(const finding *f, const repair_result *r)
{
    if (!f || strcmp(f->kind, "race") != 0 || f->line2 == 0 || f->line2 == f->line || !r->line)
        return 0;
    char test[160];
    int test_line = 0, lo = f->line < f->line2 ? f->line : f->line2, hi = f->line < f->line2 ? f->line2 : f->line;
    return source_conditional_barrier(f->file, lo, hi, test, sizeof test, &test_line) > 0 && test_line == r->line;
}

/* Whether the first statement a finding quotes ("... at line 94
 * (`CUDA_CHECK(cudaMemcpy2D(d_in, ...`)") is the repair's statement
 * (emucc's context, less its ';'): the finding is about that statement, and
 * says what it does wrong, where the repair's edit only makes the outputs
 * right (a copy of one row too many by one row fewer). */
static int finding_leads_with(const finding *f, const char *context)
{
    const char *q = f->message ? strstr(f->message, "(`") : NULL;
    const char *end = q ? strstr(q + 2, "`)") : NULL;
    if (!end || !context[0])
        return 0;
    q += 2;
    size_t n = (size_t)(end - q);
    if (n >= 3 && strncmp(end - 3, "...", 3) == 0)
        n -= 3;
    while (n > 0 && (q[n - 1] == ';' || q[n - 1] == ' '))
        n--;
    size_t c = strlen(context);
    return n >= 12 && strncmp(q, context, n < c ? n : c) == 0;
}

/* Whether a finding's sentence names line as another line than its own
 * (its access, or a race's two): "... after the cudaFree at line 66". A
 * repair at the access's own line is what that access needs; one at a
 * line the finding names as where the access went wrong is its cause,
 * which the finding says more of. */
/* Whether text says "line N" of this line (not of line N0...). */
static int names_line(const char *text, int line)
{
    char at[32];
    int n = snprintf(at, sizeof at, "line %d", line);
    for (const char *p = text; p && (p = strstr(p, at)) != NULL; p += n)
        if (p[n] < '0' || p[n] > '9')
            return 1;
    return 0;
}

/* The N of the first "line N" in text: the line a cause points to first
 * (where it says to look or to write), 0 if none. */
/* A cause's own advice: its last clause, after a "; " outside quoted code
 * and brackets, when that clause is an instruction (it starts with one of
 * these verbs). Where a full repair at another line leads, the cause
 * follows as evidence, and an instruction of its own for its own line
 * would contradict the repair's edit. */
static const char *const advice_verbs[] = { "fix", "give", "declare", "store", "write", "use", "move", "add",
                                            "delete", "put", "set", "compute", "build", "count", "take", "divide",
                                            "round", "copy", "launch", "pass", "make", "keep", "call", "start",
                                            "reset", "sum", "read", "free", "index", "allocate", "replace",
                                            "remove", "change", "swap", "bound", "initialise", "load", "zero",
                                            "drop", "test", "step", "look", "check", NULL };

static size_t cause_advice_at(const char *cause)
{
    size_t at = 0;
    int depth = 0, quoted = 0;
    for (size_t i = 0; cause[i]; i++) {
        char c = cause[i];
        if (c == '`')
            quoted = !quoted;
        else if (!quoted && (c == '(' || c == '['))
            depth++;
        else if (!quoted && (c == ')' || c == ']') && depth > 0)
            depth--;
        else if (!quoted && !depth && c == ';' && cause[i + 1] == ' ')
            at = i;
    }
    if (!at)
        return strlen(cause);
    const char *w = cause + at + 2;
    size_t n = strspn(w, "abcdefghijklmnopqrstuvwxyz");
    for (int k = 0; advice_verbs[k]; k++)
        if (strlen(advice_verbs[k]) == n && strncmp(w, advice_verbs[k], n) == 0)
            return at;
    return strlen(cause);
}

static int first_line_named(const char *text)
{
    for (const char *p = text; p && (p = strstr(p, "line ")) != NULL; p += 5)
        if (p[5] >= '1' && p[5] <= '9')
            return atoi(p + 5);
    return 0;
}

static int finding_names_line(const finding *f, int line)
{
    if (f->line == line || f->line2 == line)
        return 0;
    return names_line(f->message, line);
}

/* message with the lead finding's text, where it quotes it, replaced by a
 * pointer to the "fix this first" line (malloc'd). */
static char *pointing_to_lead(const char *message, const finding *lead)
{
    if (!message)
        return xstrdup("");
    if (!lead || !lead->message || strlen(lead->message) < 20 || strcmp(message, lead->message) == 0)
        return xstrdup(message);
    return str_replace_all(message, lead->message, "see \"fix this first\" below");
}


/* The checkers' findings of d, each once: a finding already listed (same
 * kind and line) in `shown` is skipped; `on` names the dataset when it is
 * not the block's own. */
static void list_findings(strbuf *out, const dataset_result *d, strbuf *shown, const char *on, int most)
{
    int listed = 0, more = 0;
    for (int i = 0; i < d->sanitizer->nfindings; i++) {
        const finding *f = &d->sanitizer->findings[i];
        char tag[64];
        finding_tag(tag, sizeof tag, f);
        if (shown->buf && strstr(shown->buf, tag))
            continue;
        sb_puts(shown, tag);
        if (listed == most) { /* counted on the last line listed, not listed */
            more++;
            continue;
        }
        if (listed++)
            sb_puts(out, "\n");
        if (on)
            sb_printf(out, "      - %s (on %s): %s", f->kind, on, safe(f->message));
        else
            sb_printf(out, "      - %s: %s", f->kind, safe(f->message));
    }
    if (more)
        sb_printf(out, " (and %d more finding%s: --verbose lists %s)", more, more == 1 ? "" : "s",
                  more == 1 ? "it" : "them");
    if (listed)
        sb_puts(out, "\n");
}

/* text without its lines that contain needle (NULL or "": all of text). */
static char *without_lines_containing(const char *text, const char *needle)
{
    strbuf kept;
    sb_init(&kept);
    sb_puts(&kept, "");
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line) + 1 : strlen(line);
        char *one = xasprintf("%.*s", (int)n, line);
        int blank = strspn(one, " \t\r\n") == strlen(one);
        if (!blank && !(needle && *needle && strstr(one, needle)))
            sb_puts(&kept, one);
        free(one);
        line += n;
    }
    return sb_detach(&kept);
}

/* Limits of a block's lists: the whole lists when verbose. */
typedef struct {
    int worst, stderr_lines;
    int findings;   /* findings listed in a dataset's details (the rest counted) */
} block_limits;

/* A wrong element's place (compare_place: the words of the dataset's
 * message too), value and expected value as text. */
typedef struct {
    char where[64], got[32], want[32];
} element_text;

static element_text element_of(const compare_result *c, const mismatch *w)
{
    element_text t;
    compare_place(t.where, sizeof t.where, w, c->got_shape[2]);
    number_text(t.got, sizeof t.got, w->got, w->poisoned);
    number_text(t.want, sizeof t.want, w->expected, 0);
    return t;
}

/* The first `shown` worst elements, a row each, the "where" column as wide
 * as its widest place. */
static void worst_table(strbuf *out, const compare_result *c, int shown)
{
    int wide = 17;
    for (int i = 0; i < shown; i++) {
        int n = (int)strlen(element_of(c, &c->worst[i]).where);
        wide = n > wide ? n : wide;
    }
    sb_puts(out, "    worst elements:\n");
    sb_printf(out, "      %-*s  %-16s %-16s %s\n", wide, "where", "got", "expected", "tolerance");
    for (int i = 0; i < shown; i++) {
        element_text t = element_of(c, &c->worst[i]);
        sb_printf(out, "      %-*s  %-16s %-16s %.3g\n", wide, t.where, t.got, t.want, c->worst[i].tolerance);
    }
}

/* The lines a report aims to fit, for one mistake (test_report.py holds it). */
#define REPORT_LINES_AIM 40

/* What the details named that a key under them explains. */
typedef struct {
    int fault_map;
} named_maps;

static void dataset_details(strbuf *out, const dataset_result *d, int color, strbuf *shown, block_limits lim,
                            named_maps *named)
{
    sb_printf(out, "\n  %s: %s\n", d->name, status_name(d->status));
    size_t heading_end = out->len;
    const compare_result *c = &d->cmp;
    if (c->compared && c->shape_ok && c->nworst == 1 && c->mismatches == 1) {
        /* one wrong element: one line, not a table */
        element_text t = element_of(c, &c->worst[0]);
        sb_printf(out, "    the wrong element, at %s: got %s, expected %s (tolerance %.3g)\n", t.where, t.got,
                  t.want, c->worst[0].tolerance);
    } else if (c->compared && c->shape_ok && c->nworst > 0) {
        /* a hint the inputs reproduce explains every wrong element: one row
         * shows the kind, more repeat it (the report stays within 40 lines) */
        int rows = c->hint_named && lim.worst < WORST_MAX ? 1 : lim.worst;
        worst_table(out, c, c->nworst < rows ? c->nworst : rows);
    }
    if (c->compared && c->hint[0])
        sb_printf(out, "    hint: %s\n", safe(c->hint));
    if (c->compared && c->error_map[0]) {
        sb_printf(out, "    error map: %s\n", safe(c->error_map));
        if (color && c->thumb_rows > 0)
            draw_thumbnail(out, c);
    }
    if (has_findings(d)) {
        strbuf found; /* the header only above findings not shown yet */
        sb_init(&found);
        list_findings(&found, d, shown, NULL, lim.findings);
        if (found.buf && *found.buf) {
            sb_puts(out, "    the sanitizer found:\n");
            sb_puts(out, found.buf);
        }
        sb_free(&found);
    }
    if (d->sanitizer && d->sanitizer->fault_summary)
        sb_printf(out, "    faulting threads: %s\n", safe(d->sanitizer->fault_summary));
    if (d->sanitizer && d->sanitizer->fault_map[0]) {
        sb_printf(out, "    fault map: %s\n", safe(d->sanitizer->fault_map));
        named->fault_map = 1;
    }
    if (d->sanitizer && d->sanitizer->race_summary)
        sb_printf(out, "    racing threads: %s\n", safe(d->sanitizer->race_summary));
    if (d->sanitizer && d->sanitizer->race_map[0])
        sb_printf(out, "    race map: %s\n", safe(d->sanitizer->race_map));
    if (d->status != ST_WRONG && d->program_stderr && *d->program_stderr) {
        /* lines that only repeat the dataset's message (the harness's
         * "memory error: ...") say nothing new */
        char *news = without_lines_containing(d->program_stderr, d->message);
        if (*news) {
            sb_puts(out, "    the program's error output (last lines):\n");
            tail_lines(out, news, lim.stderr_lines, "      ");
        }
        free(news);
    }
    if (out->len == heading_end && has_findings(d))
        /* all it has to say is the finding already printed in full */
        sb_puts(out, "    its finding is the \"fix this first\" line below\n");
}

/* The words a folded pattern is summed up in: the hint's diagnosis, else
 * the whole hint, else the dataset's message. */
static const char *pattern_words(const dataset_result *d)
{
    const char *diag = d->status == ST_WRONG && !harness_said(d) ? hint_diagnosis(&d->cmp) : "";
    if (*diag)
        return diag;
    if (d->status == ST_WRONG && !harness_said(d) && d->cmp.compared && d->cmp.hint[0])
        return d->cmp.hint;
    return d->message ? d->message : "";
}

/* The details. verbose: every failing dataset's own block. Otherwise one
 * block per pattern of failure (pattern_key): the first pattern (the one the
 * checkers found something in, if any, else the first in the table) in
 * full, under it the other datasets of that pattern by name; every other
 * pattern in one line. A block shows the member the checkers looked at, if
 * one; findings of other members that it does not show yet follow. */
static void details_folded(strbuf *out, const submission_result *s, int color, int verbose, int worst_rows,
                           named_maps *named)
{
    int n = s->ndatasets;
    block_limits full = { WORST_MAX, 10, INT_MAX }, brief = { worst_rows, 4, 1 };
    if (verbose) {
        for (int i = 0; i < n; i++) {
            if (!has_details(&s->datasets[i]))
                continue;
            strbuf shown; /* each block lists all of its own findings */
            sb_init(&shown);
            dataset_details(out, &s->datasets[i], color, &shown, full, named);
            sb_free(&shown);
        }
        return;
    }
    char **keys = xcalloc((size_t)n + 1, sizeof *keys);
    int *group = xcalloc((size_t)n + 1, sizeof *group); /* the index of the group's first member, or -1 */
    for (int i = 0; i < n; i++) {
        keys[i] = has_details(&s->datasets[i]) ? pattern_key(&s->datasets[i]) : NULL;
        group[i] = -1;
        for (int j = 0; keys[i] && j <= i; j++)
            if (keys[j] && strcmp(keys[j], keys[i]) == 0) {
                group[i] = j;
                break;
            }
    }
    /* the first pattern: one with a finding, else one whose hint names the
     * mistake, else the first */
    int lead = -1;
    for (int i = 0; i < n && lead < 0; i++)
        if (keys[i] && has_findings(&s->datasets[i]))
            lead = group[i];
    for (int i = 0; i < n && lead < 0; i++)
        if (keys[i] && s->datasets[i].status == ST_WRONG && s->datasets[i].cmp.hint_named)
            lead = group[i];
    for (int i = 0; i < n && lead < 0; i++)
        if (keys[i])
            lead = group[i];
    /* the finding "fix this first" names in full is not repeated here */
    strbuf shown;
    sb_init(&shown);
    const finding *first = first_finding(s);
    if (first) {
        char tag[64];
        finding_tag(tag, sizeof tag, first);
        sb_puts(&shown, tag);
    }
    if (lead >= 0) {
        int rep = lead, members = 0, maps = 0;
        for (int j = 0; j < n; j++)
            if (group[j] == lead) {
                members++;
                if (!has_findings(&s->datasets[rep]) && has_findings(&s->datasets[j]))
                    rep = j;
            }
        dataset_details(out, &s->datasets[rep], color, &shown, brief, named);
        for (int j = 0; j < n; j++)
            if (group[j] == lead && j != rep && has_findings(&s->datasets[j]))
                list_findings(out, &s->datasets[j], &shown, s->datasets[j].name, INT_MAX);
        if (members > 1) {
            sb_printf(out, "  and %d more dataset%s, same pattern:", members - 1, members > 2 ? "s" : "");
            int k = 0;
            for (int j = 0; j < n; j++)
                if (group[j] == lead && j != rep) {
                    sb_printf(out, "%s %s", k++ ? "," : "", s->datasets[j].name);
                    maps += s->datasets[j].cmp.error_map[0] != 0;
                }
            sb_puts(out, maps ? " (their error maps are beside this one)\n" : "\n");
        }
    }
    int others = 0;
    for (int i = 0; i < n; i++) {
        if (!keys[i] || group[i] != i || i == lead)
            continue;
        if (others++ == 0)
            sb_puts(out, "  other failures (--verbose shows each dataset's details):\n");
        int more = 0;
        for (int j = i + 1; j < n; j++)
            more += group[j] == i;
        const dataset_result *d = &s->datasets[i];
        /* its error map named, so that the map key above is not about nothing */
        char *map = d->cmp.compared && d->cmp.error_map[0]
                        ? xasprintf(" (error map: %s%s)", safe(d->cmp.error_map), more ? "; the others' beside it" : "")
                        : xstrdup("");
        char *words = pointing_to_lead(pattern_words(d), first);
        if (more)
            sb_printf(out, "    %s and %d more: %s: %s%s\n", d->name, more, status_name(d->status), safe(words),
                      map);
        else
            sb_printf(out, "    %s: %s: %s%s\n", d->name, status_name(d->status), safe(words), map);
        free(words);
        free(map);
        for (int j = i; j < n; j++)
            if (group[j] == i && has_findings(&s->datasets[j]))
                list_findings(out, &s->datasets[j], &shown, s->datasets[j].name, INT_MAX);
    }
    sb_free(&shown);
    for (int i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    free(group);
}

/* "checkers: ... ran on A and B and found nothing", or why they did not
 * finish; nothing when they found something (the findings say it) or did
 * not run at all (--no-sanitize). First, why compute-sanitizer ran where
 * the emulator's checkers would have, if it did. */
static void checkers_line(strbuf *out, const submission_result *s)
{
    int ran = 0, clean = 1;
    const dataset_result *problem = NULL;
    strbuf names;
    sb_init(&names);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        if (!d->sanitizer)
            continue;
        if (d->sanitizer->nfindings > 0)
            clean = 0;
        if (d->sanitizer->problem && !problem)
            problem = d;
        if (d->sanitizer->ran && !d->sanitizer->problem)
            sb_printf(&names, "%s%s", ran++ ? " and " : "", d->name);
    }
    if (s->checkers_fallback)
        sb_printf(out, "  checkers: compute-sanitizer, not the emulator's: %s\n", s->checkers_fallback);
    for (const char *p = s->notes; p && *p;) { /* what costs no points (sanitize.h) */
        const char *end = strchr(p, '\n');
        char *line = xasprintf("%.*s", (int)(end ? end - p : (long)strlen(p)), p);
        sb_printf(out, "  note: %s\n", safe(line));
        free(line);
        p = end ? end + 1 : p + strlen(p);
    }
    if (!clean) {
        sb_free(&names);
        return;
    }
    const char *which = strcmp(s->checkers, "compute-sanitizer") == 0
                            ? "compute-sanitizer's memcheck, racecheck and synccheck"
                            : strcmp(s->backend, "gpu") == 0 ? "the emulator's race check and bounds check"
                                                              : "the race check and the bounds check";
    if (ran)
        sb_printf(out, "  checkers: %s ran on %s and found nothing\n", which, names.buf);
    if (problem)
        sb_printf(out, "  checkers: not finished on %s: %s\n", problem->name, safe(problem->sanitizer->problem));
    sb_free(&names);
}

/* The first line for a wrong dataset when nothing names a cause: what it
 * shows, what the kit ruled out (the checkers found nothing on the
 * datasets they ran, the tiles held what the lab's tiling puts there, no
 * mistake the kit knows reproduces the wrong elements), and where to look
 * next, past what was ruled out. Never a requirement that failed only
 * because no dataset passed. */
static char *no_cause_named(const submission_result *s, const dataset_result *d)
{
    strbuf sb, clean;
    sb_init(&sb);
    sb_init(&clean);
    int n = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        const struct sanitize_result_s *z = s->datasets[i].sanitizer;
        if (z && z->ran && !z->problem && z->nfindings == 0)
            sb_printf(&clean, "%s%s", n++ ? " and " : "", s->datasets[i].name);
    }
    const char *seen = d->cmp.compared && d->cmp.hint[0] ? d->cmp.hint : d->message ? d->message : "";
    int stop = seen[0] && seen[strlen(seen) - 1] == '.';
    sb_printf(&sb, "%s: %s%s names a cause: ", d->name, seen, stop ? " Nothing" : "; nothing");
    const char *checkers = strcmp(s->checkers, "compute-sanitizer") == 0 ? "compute-sanitizer"
                                                                          : "the race check and the bounds check";
    if (n)
        sb_printf(&sb, "%s found nothing on %s, ", checkers, clean.buf);
    else if (s->checkers_skipped)
        sb_puts(&sb, "the checkers did not run (--no-sanitize: without it they rule out races and out-of-bounds "
                     "accesses), ");
    if (s->tiles_right)
        sb_puts(&sb, "the shared tiles held the elements the lab's tiling puts there, ");
    sb_puts(&sb, "and no mistake the kit knows reproduces the wrong elements; ");
    if (s->tiles_right)
        sb_puts(&sb, "so look past the loads: at the reads of the tiles in the sum and at the output's index, and "
                     "follow one wrong element by hand");
    else
        sb_puts(&sb, "follow one wrong element by hand, through the indices of its loads, the sum and the output's "
                     "index");
    sb_free(&clean);
    return sb_detach(&sb);
}

/* A dataset's diagnosis that names its cause (a mistake the inputs
 * reproduce exactly) and names line as where it is. Where the repair
 * changes a declaration (its type, its bounds), the diagnosis says what
 * the declaration does wrong, the repair only which word (a sum kept in
 * an integer, "look at the type ... at line 46", against `int` made
 * `float`). The dataset, or NULL. */
static const dataset_result *diagnosis_at_line(const submission_result *s, int line)
{
    char at[32];
    int n = snprintf(at, sizeof at, "line %d", line);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status != ST_WRONG || !d->cmp.hint_named)
            continue;
        for (const char *p = hint_diagnosis(&d->cmp); (p = strstr(p, at)) != NULL; p += n)
            if (p[n] < '0' || p[n] > '9')
                return d;
    }
    return NULL;
}

/* The one line that says what to fix first: the most specific thing the
 * report knows. A launch or a copy at a line of the student's that the
 * kit's own record of the run shows wrong (launches.h), unless a full
 * repair changes a line it does not name (a full repair at its line
 * follows it), beats a full repair
 * (repair.h: one edit of the source that makes every dataset right, the
 * evidence itself naming the line), which beats a checker's finding, which
 * follows from the mistake, unless the finding names the repair's line
 * as where its access went wrong (a use after the cudaFree it names: the
 * finding leads, the repair after it), or the repair changes a
 * declaration and a diagnosis that names its cause names the repair's
 * line: then it says more. A checker's finding (it has a line) beats
 * a defect the source shows by itself (an accumulator never set, a tile
 * not __shared__: grade.c's source_defects), which beats a tile slot that
 * held the wrong element (tile_contents, with the load's
 * line), which beats a mistake the inputs
 * reproduce (diagnose_inputs), which
 * beats the launch's blocks against the kernel's tiles, which beats a tile
 * slot no store covered (where the output's NaN came from), which beats a
 * weaker repair (an edit that makes most of the wrong elements right,
 * breaking none, or one confirmed on too few datasets), which beats
 * another diagnosis (a hint that names a cause, a failure's own message, a
 * pattern across datasets), which beats a failed requirement (not one lost
 * only because no dataset passed), which beats what was ruled out for a
 * wrong output that nothing explains (no_cause_named). */
/* Whether the finding says no call stores into a buffer ("no call of the
 * file ever stores into d_N") and the repair's new text is that buffer. */
static int repair_fills_unstored(const finding *f, const repair_result *r)
{
    static const char lead[] = "no call of the file ever stores into ";
    if (!f->message || !r->to[0] || strncmp(f->message, lead, sizeof lead - 1) != 0)
        return 0;
    const char *name = f->message + sizeof lead - 1;
    size_t n = strcspn(name, " :(");
    return n > 0 && strlen(r->to) == n && strncmp(name, r->to, n) == 0;
}

/* Whether the repair exchanges a launch's first two arguments, its grid
 * and its block (`<<<dimBlock, dimGrid>>>`), as its line writes them. */
static int launch_shapes_swapped(const submission_result *s)
{
    char *q = s->file ? sanitize_quote(s->file, s->repair.line) : NULL;
    const char *l = q ? strstr(q, "<<<") : NULL, *comma = strchr(s->repair.from, ',');
    int swapped = l && comma && !strchr(comma + 1, ',') &&
                  !strncmp(l + 3 + strspn(l + 3, " "), s->repair.from, strlen(s->repair.from));
    free(q);
    return swapped;
}

/* The full repair's sentence, and where the tile's account names the
 * repair's line as a test and what that test did ("the test at line 54
 * (`if (dest < w) {`) is false for every thread of the block (dest 256 to
 * 511, against 20)"), that clause after it: the edit, and the values that
 * show why (malloc'd). */
static char *repair_with_its_test(const submission_result *s)
{
    char at[48];
    snprintf(at, sizeof at, "the test at line %d (", s->repair.line);
    const char *p = s->tile_contents ? strstr(s->tile_contents, at) : NULL;
    if (!p)
        return xstrdup(s->repair.sentence);
    /* to ", so " or "; " outside quoted code */
    size_t n = 0;
    int quoted = 0;
    for (; p[n]; n++) {
        quoted ^= p[n] == '`';
        if (!quoted && (!strncmp(p + n, ", so ", 5) || !strncmp(p + n, "; ", 2)))
            break;
    }
    return xasprintf("%s (%.*s)", s->repair.sentence, (int)n, p);
}

static char *fix_first(const submission_result *s)
{
    if (!s->built && s->build_message && s->ndatasets > 0 && s->datasets[0].status == ST_GRADER_ERROR)
        return xasprintf("the build: %s", s->build_message); /* the kit's failure: nothing to fix in the file */
    if (!s->built && s->build_message) {
        /* the compiler's first error names the file and line */
        const char *log = s->build_log ? s->build_log : "", *e = strstr(log, "error:");
        if (e) {
            const char *start = e, *end = strchr(e, '\n');
            while (start > log && start[-1] != '\n')
                start--;
            /* a cause the source shows upstream of that error (a declaration) follows it */
            return xasprintf("the build: %.*s%s%s", (int)(end ? end - start : (long)strlen(start)), start,
                             s->cause ? "; " : "", s->cause ? s->cause : "");
        }
        return xasprintf("the build: %s", s->build_message);
    }
    /* a launch or a copy the kit's own record shows wrong, at its line: the
     * findings follow from it. A full repair at a line the record does not
     * name is where that launch's shape or that copy's size was made wrong
     * (the grid computed at line 92 for the launch at line 93): it leads,
     * and the record says what it did. So does one at a line the record
     * names only after another, the one it points to first: there the
     * record inferred where to look (count the grid at line 55, which the
     * launch at line 56 uses), and the edit that makes every dataset right
     * shows it was elsewhere (the launch's block). One at the line the
     * record points to first follows it: the record says what went wrong
     * there, the repair what to write there */
    if (s->cause) {
        /* a cause fixed where it says: a repair elsewhere would only make
         * up for it; one at the line it names first says what to write */
        /* ... unless the cause names that edit itself, as its evidence */
        char *edit = xasprintf("`%s` for `%s`", s->repair.to, s->repair.from);
        int names_edit = strstr(s->cause, edit) != NULL;
        free(edit);
        /* ... or quotes what the edit replaces and ends with an instruction
         * that writes the edit's text ("declares Col `unsigned char`, ...;
         * declare Col int"): the two would say one thing twice */
        char *quoted_from = s->repair.from[0] ? xasprintf("`%s`", s->repair.from) : NULL;
        size_t advice = cause_advice_at(s->cause);
        if (quoted_from && s->repair.to[0] && strstr(s->cause, quoted_from) && s->cause[advice] &&
            text_find_word(s->cause, s->cause + advice, s->repair.to))
            names_edit = 1;
        free(quoted_from);
        if (s->cause_fixed_there && repair_strong(&s->repair) && first_line_named(s->cause) == s->repair.line &&
            !names_edit && !s->cause_says_the_edit)
            return xasprintf("%s; %s", s->cause, s->repair.sentence);
        if (s->cause_fixed_there)
            return xstrdup(s->cause);
        /* a launch's two shapes exchanged (`<<<dimBlock, dimGrid>>>`): what
         * the record saw of one run's block or grid is the exchange's
         * consequence, and its advice (give that block a y) would not mend
         * it */
        if (repair_strong(&s->repair) && !strcmp(s->repair.kind, "swap") && launch_shapes_swapped(s))
            return xasprintf("%s: the launch gives the grid and the block in each other's places", s->repair.sentence);
        if (repair_strong(&s->repair) && (!names_line(s->cause, s->repair.line) ||
                                          first_line_named(s->cause) != s->repair.line))
            return xasprintf("%s (%.*s)", s->repair.sentence, (int)cause_advice_at(s->cause), s->cause);
        if (repair_strong(&s->repair))
            return xasprintf("%s; %s", s->cause, s->repair.sentence);
        return xstrdup(s->cause);
    }
    /* one edit that makes every dataset right names the line from the
     * evidence itself (the repair search, repair.h), unless the checkers'
     * finding names that line as its cause: then it says more of it. An
     * edit of several places at once (a loop's start and its bound, each
     * test of a condition) says more than a finding can, which names one
     * of them (`i <= TILE_WIDTH` let i = 16 through, where the start at 1
     * is wrong too) */
    const finding *f = first_finding(s);
    /* a constant of the skeleton's given another value (a repair of kind
     * define, the file built again) mends it, where the record of the
     * tiles says how that value broke them (too few threads to fill the
     * tile): the record leads, the repair after it */
    if (repair_strong(&s->repair) && !strcmp(s->repair.kind, "define") && s->tile_contents && !f)
        return xasprintf("%s; %s", s->tile_contents, s->repair.sentence);
    /* an index rewritten as another access's (kind sibling) restores what
     * the kernel's other index shows, where a finding at that store only
     * says what went wrong there (a race of the store with itself) */
    int several = !strcmp(s->repair.kind, "range") || !strcmp(s->repair.kind, "operators") ||
                  !strcmp(s->repair.kind, "sibling");
    /* a store that races with itself (two threads, one element) is what an
     * index wrong at that store does: the edit of the index there is the
     * cause, the race its symptom */
    if (f && !strcmp(f->kind, "race") && f->line == s->repair.line && (f->line2 == f->line || f->line2 == 0))
        several = 1;
    /* a buffer no call stores into, where the edit puts that buffer in a
     * call (`cudaMemcpy(d_M, N, ...)` made `d_N`): the copy went elsewhere,
     * and the edit says where it belongs */
    if (f && repair_fills_unstored(f, &s->repair))
        several = 1;
    /* ... but a finding that names the repair's line and says the edit
     * itself, names for names ("test srcY and srcX there in place of destY
     * and destX"), says why as well: it leads, the repair after it */
    if (several && f && names_line(f->message, s->repair.line) && strstr(f->message, " there in place of "))
        several = 0;
    /* a __syncthreads() the repair adds outside the two accesses of a race
     * the checkers saw: the race names the accesses a barrier must stand
     * between (and, between a loop's passes, that it goes at the loop's
     * end); the repair's place is one that the emulator's schedule
     * happened to accept, said on the report's repair line. Between them,
     * the repair says where as the race does */
    int lo = f && f->line2 && f->line2 < f->line ? f->line2 : f ? f->line : 0, hi = f && f->line2 > lo ? f->line2 : lo;
    int race_places_it = f && !strcmp(f->kind, "race") && !strcmp(s->repair.kind, "barrier") &&
                         !(s->repair.line >= lo && s->repair.line < hi);
    /* ... and one between them that leaves a later store of the tile
     * after it (the second batch's, where the first batch's write is the
     * race's): where the source shows the place, the race says it */
    int place_before = 0, place_after = f && !race_places_it && !strcmp(f->kind, "race") &&
                                                !strcmp(s->repair.kind, "barrier") && f->line2 > f->line
                                            ? source_barrier_place(f->file, f->line, f->line2, &place_before)
                                            : 0;
    if (place_after > 0 && !(s->repair.line >= place_after && s->repair.line < place_before))
        race_places_it = 1;
    if (repair_strong(&s->repair) && !race_places_it &&
        !(f && !several && (finding_names_line(f, s->repair.line) || finding_leads_with(f, s->repair.context)))) {
        /* a declaration's type or bounds, two names of an index
         * exchanged, or an index written whole as another's: a diagnosis
         * of the numbers at its line says why (a sum kept in an integer,
         * each value at the transposed position) */
        int explained = !strcmp(s->repair.kind, "type") || !strcmp(s->repair.kind, "bound") ||
                        !strcmp(s->repair.kind, "index-swap") || !strcmp(s->repair.kind, "sibling");
        const dataset_result *d = f || !explained ? NULL : diagnosis_at_line(s, s->repair.line);
        if (d)
            return xasprintf("%s: %s", d->name, hint_diagnosis(&d->cmp));
        return repair_with_its_test(s);
    }
    /* the output's unwritten elements said exactly (the gaps between
     * tiles, at the index that steps them): the unset bytes a copy then
     * takes out of the output's buffer follow from them */
    if (f && !strcmp(f->kind, "uninitialised") && !s->tile_unset)
        for (int i = 0; i < s->ndatasets; i++) {
            const dataset_result *d = &s->datasets[i];
            if (d->status == ST_WRONG && !strcmp(d->cmp.mistake, DIAGNOSE_GAPS) && d->cmp.hint_named &&
                strstr(d->cmp.hint, " at line "))
                return xasprintf("%s: %s", d->name, d->cmp.hint);
        }
    if (f) {
        /* a full repair at the line the finding names says what to write
         * there; at the statement it quotes, only a count of elements made
         * bytes (a pitch in floats: `* sizeof(float)` after it), where any
         * other edit there may only make up for the mistake (a copy of one
         * row too many by one row fewer) */
        char token[140];
        snprintf(token, sizeof token, "`%s`", s->repair.from);
        /* ... or one whose finding names the very token it edits (`Row` in
         * a tile's subscript): the two agree, the repair says what to write */
        /* ... or one in the statement of a refused copy whose finding can
         * only say what to count (its rows, its bytes): the edit says which */
        int fixes = repair_strong(&s->repair) && !repair_keeps_guarded_barrier(f, &s->repair) &&
                    (finding_names_line(f, s->repair.line) ||
                     ((!strcmp(s->repair.kind, "sizeof") || strstr(f->message, "; count its ")) &&
                      finding_leads_with(f, s->repair.context)) ||
                     (s->repair.from[0] && f->line == s->repair.line && strstr(f->message, token)) ||
                     /* a declaration the finding leads with as its second
                      * line (a tile too narrow for its subscript), where
                      * the edit rewrites it */
                     (f->line2 == s->repair.line && f->line2 != f->line && finding_leads_with(f, s->repair.context)) ||
                     /* a buffer freed twice, where the edit frees another
                      * at the second free: which buffer it meant */
                     (!strcmp(f->kind, "use-after-free") && f->line == s->repair.line && s->repair.from[0] &&
                      strstr(s->repair.context, "cudaFree(")));
        /* the finding only says a test let the thread through, and the
         * repair edits that test: the edit is the cause, said first */
        char test_at[64];
        snprintf(test_at, sizeof test_at, "the test at line %d (", s->repair.line);
        if (fixes && !strncmp(f->message, test_at, strlen(test_at)) &&
            strstr(f->message, ") let this thread through, so the access at "))
            return xasprintf("%s (%s)", s->repair.sentence, f->message);
        /* ... or says a subscript takes values past its dimension, where
         * the repair replaces that subscript: the edit, not a larger array */
        char sub[sizeof s->repair.from + 24];
        snprintf(sub, sizeof sub, "`%s`, takes the value", s->repair.from);
        if (fixes && f->line == s->repair.line && strstr(f->message, sub))
            return xasprintf("%s (%s)", s->repair.sentence, f->message);
        /* ... or names a declaration (a tile too narrow for its column) that
         * the repair rewrites: the edit says what to declare, and leads */
        char declared_at[48], is_declared_at[48];
        snprintf(declared_at, sizeof declared_at, "(declared at line %d (", s->repair.line);
        snprintf(is_declared_at, sizeof is_declared_at, " is declared at line %d (", s->repair.line);
        if (fixes && (strstr(f->message, declared_at) || strstr(f->message, is_declared_at)) &&
            strstr(f->message, "; declare "))
            return xasprintf("%s (%s)", s->repair.sentence, f->message);
        /* ... or says a copy was refused and what to count, where the edit
         * in that call says which argument miscounts: the edit leads */
        if (fixes && strstr(f->message, "; count its ") && finding_leads_with(f, s->repair.context))
            return xasprintf("%s (%s)", s->repair.sentence, f->message);
        char *fix = fixes ? xasprintf("; %s", s->repair.sentence) : xstrdup("");
        char at[48], *text;
        snprintf(at, sizeof at, "line %d", f->line);
        if (f->line > 0 && !strstr(f->message, at))
            text = xasprintf("%s:%d: %s%s", path_base(s->file), f->line, f->message, fix);
        else
            text = xasprintf("%s%s", f->message, fix);
        free(fix);
        return text;
    }
    /* a defect the source shows at a line (an accumulator never set, a
     * tile not __shared__) is certain, where a hypothesis on the numbers or
     * a pattern of the wrong elements is inferred from what it did */
    if (s->source_cause)
        return xstrdup(s->source_cause);
    /* a tile slot that holds the wrong element names the load, as a finding names its line */
    if (s->tile_contents && !s->tile_unset)
        return xstrdup(s->tile_contents);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        /* (gaps of NaN where tile slots were never stored: the NaN came
         * from the tile, read by the sums, and the slot says where) */
        if (s->tile_unset && !strcmp(d->cmp.mistake, DIAGNOSE_GAPS))
            continue;
        if (d->status == ST_WRONG && d->cmp.hint_named && *hint_diagnosis(&d->cmp))
            return xasprintf("%s: %s", d->name, hint_diagnosis(&d->cmp));
    }
    /* the launch's shape against the tiles says more than one dataset's own hint */
    if (s->hint && s->hint_leads)
        return xstrdup(s->hint);
    /* a slot no store covered: where a dataset's NaN came from */
    if (s->tile_contents)
        return xstrdup(s->tile_contents);
    /* an edit that makes most of the wrong elements right, breaking none,
     * or all of too few datasets to tell it from a coincidence */
    if (s->repair.found && !repair_strong(&s->repair) && s->repair.sentence)
        return xstrdup(s->repair.sentence);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status == ST_PASS || d->status == ST_COMPILE_ERROR)
            continue;
        const char *cause = d->status == ST_WRONG && !harness_said(d) ? hint_diagnosis(&d->cmp) : d->message;
        if (cause && *cause)
            return xasprintf("%s: %s", d->name, cause);
    }
    if (s->hint)
        return xstrdup(s->hint);
    /* a requirement lost only because no dataset passed is no cause: what
     * was ruled out and where to look next say more (no_cause_named); one
     * not checked is no mistake to fix: the score line says how to check it */
    for (int i = 0; i < s->nrequirements; i++)
        if (s->requirements[i].status != ST_PASS && !s->requirements[i].consequential &&
            s->requirements[i].status != ST_NOT_CHECKED)
            return xasprintf("[%s] %s", s->requirements[i].name, s->requirements[i].message);
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        if (d->status == ST_WRONG)
            return no_cause_named(s, d);
        if (d->status != ST_PASS && d->status != ST_COMPILE_ERROR)
            return xasprintf("%s: %s", d->name, d->cmp.compared && d->cmp.hint[0] ? d->cmp.hint
                                                                               : d->message ? d->message : "");
    }
    /* a requirement lost only because nothing passed, when nothing else
     * is known; never one not checked */
    for (int i = 0; i < s->nrequirements; i++)
        if (s->requirements[i].status != ST_PASS && s->requirements[i].status != ST_NOT_CHECKED)
            return xasprintf("[%s] %s", s->requirements[i].name, s->requirements[i].message);
    return NULL;
}

/* Which maps the report's error maps are: ERRORMAP_KEY_ERROR when it has
 * any, with ERRORMAP_KEY_PADDING when one shows changed padding (lab 05);
 * 0 when none. */
static unsigned error_maps_kind(const submission_result *s)
{
    unsigned kind = 0;
    for (int i = 0; i < s->ndatasets; i++) {
        const compare_result *c = &s->datasets[i].cmp;
        if (c->compared && c->error_map[0])
            kind |= ERRORMAP_KEY_ERROR | (c->padding_changed ? ERRORMAP_KEY_PADDING : 0);
    }
    return kind;
}

static int any_dataset_with_status(const submission_result *s, status_t status)
{
    for (int i = 0; i < s->ndatasets; i++)
        if (s->datasets[i].status == status)
            return 1;
    return 0;
}

/* The keys under the details, each printed once: the colours of the error
 * maps and of a fault map that the details named, and why an unsafe dataset
 * scores nothing although its output matched. */
static void keys(strbuf *out, const submission_result *s, const named_maps *named, int color)
{
    /* every colour the maps use, from errormap.c's one list */
    unsigned maps = error_maps_kind(s);
    if (maps) {
        char *key = errormap_key_text(maps);
        sb_printf(out, "  map key: %s (the strip under each picture shows right, wrong, NaN and never "
                       "written, left to right)\n", key ? key : "");
        free(key);
    }
    if (named->fault_map) {
        char *key = errormap_key_text(ERRORMAP_KEY_FAULT);
        sb_printf(out, "  fault map key: %s (a cell per thread, laid out as the launch: x to the right, y "
                       "down)\n", key ? key : "");
        free(key);
    }
    if (any_dataset_with_status(s, ST_UNSAFE))
        sb_printf(out, "  %s%s%s: the output matched, but the checkers found a hazard on that dataset, so it "
                       "matched by luck and earns nothing\n",
                  color ? status_color(ST_UNSAFE) : "", status_name(ST_UNSAFE), color ? "\033[0m" : "");
}

/* The report with at most worst_rows rows of worst elements in the folded
 * details (report_text picks it). */
static void report_render(strbuf *out, const submission_result *s, int color, int verbose, int worst_rows)
{
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    sb_printf(out, "%s%s%s  %s  on %s: %s", bold, s->lab, reset, safe(s->file), s->backend, s->device);
    if (*s->arch)
        sb_printf(out, " (%s)", s->arch);
    sb_puts(out, "\n\n");
    if (!s->built && s->build_message) {
        sb_printf(out, "  build failed: %s\n", safe(s->build_message));
        if (s->build_log && *s->build_log) {
            sb_puts(out, "\n");
            tail_lines(out, s->build_log, 60, "    ");
        }
        sb_puts(out, "\n");
    } else if (s->built && s->build_message) {
        sb_printf(out, "  note: %s\n\n", safe(s->build_message));
    }
    size_t wname = 7;
    for (int i = 0; i < s->ndatasets; i++)
        if (strlen(s->datasets[i].name) > wname)
            wname = strlen(s->datasets[i].name);
    for (int i = 0; i < s->nrequirements; i++)
        if (strlen(s->requirements[i].name) + 2 > wname)
            wname = strlen(s->requirements[i].name) + 2;
    sb_printf(out, "  %-*s  %-18s  %-7s  %s\n", (int)wname, "dataset", "status", "points", "details");
    /* the finding the "fix this first" line gives in full is pointed to, not
     * repeated, in the rows that quote it (an unsafe dataset, no_hazards) */
    const finding *lead = first_finding(s);
    char *above = NULL; /* the row above's details: a failure said again is "as above" */
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        char pts[32];
        points_text(pts, sizeof pts, d->points, d->max_points);
        char *msg = d->status == ST_COMPILE_ERROR ? xstrdup("see the compiler's messages above")
                                                  : pointing_to_lead(d->message, lead);
        int again = d->status != ST_PASS && above && msg && strlen(msg) > 20 && strcmp(msg, above) == 0;
        sb_printf(out, "  %-*s  %s%-18s%s  %-7s  %s\n", (int)wname, d->name, color ? status_color(d->status) : "",
                  status_name(d->status), reset, pts, again ? "as above" : safe(msg));
        free(above);
        above = msg;
    }
    free(above);
    for (int i = 0; i < s->nrequirements; i++) {
        const requirement_result *r = &s->requirements[i];
        char pts[32], label[96];
        points_text(pts, sizeof pts, r->points, r->max_points);
        snprintf(label, sizeof label, "[%s]", r->name);
        char *msg = pointing_to_lead(r->message, lead);
        sb_printf(out, "  %-*s  %s%-18s%s  %-7s  %s\n", (int)wname, label, color ? status_color(r->status) : "",
                  status_name(r->status), reset, pts, safe(msg));
        free(msg);
    }
    if (s->perf_asked) {
        char pts[32];
        points_text(pts, sizeof pts, s->perf_points, s->perf_max_points);
        sb_printf(out, "  %-*s  %s%-18s%s  %-7s  %s\n", (int)wname, "[performance]",
                  color && s->perf_status != ST_COUNT ? status_color(s->perf_status) : "",
                  s->perf_status == ST_COUNT ? "not_measured" : status_name(s->perf_status), reset,
                  s->perf_max_points > 0 ? pts : "-", s->perf_message ? safe(s->perf_message) : "");
    }
    named_maps named = { 0 };
    details_folded(out, s, color, verbose, worst_rows, &named);
    sb_puts(out, "\n");
    checkers_line(out, s);
    /* what the kernel read: a line of its own when every dataset passed;
     * else after the score, so that a failure's report stays short */
    char *reads = counts_sentence(&s->reads);
    int all_pass = 1;
    for (int i = 0; i < s->ndatasets; i++)
        all_pass = all_pass && s->datasets[i].status == ST_PASS;
    if (reads && all_pass)
        sb_printf(out, "  global reads: %s\n", safe(reads));
    keys(out, s, &named, color);
    if (s->hint)
        sb_printf(out, "  hint: %s\n", safe(s->hint));
    char *first = fix_first(s);
    /* the repair search's edit, where the fix-this-first line says
     * something else (neither holds its sentence nor names its edit):
     * above it, so that the report still ends with what to fix first and
     * the score; not where the cause says what to write at the repair's
     * own line (the repair there only makes up for it) */
    char *edit = xasprintf("`%s` at line %d", s->repair.to, s->repair.line);
    int edit_overruled = (s->cause && s->cause_says_the_edit && first_line_named(s->cause) == s->repair.line) ||
                         repair_keeps_guarded_barrier(first_finding(s), &s->repair);
    if (s->repair.sentence && !edit_overruled &&
        (!first || (!strstr(first, s->repair.sentence) && !strstr(first, edit))))
        sb_printf(out, "  repair: %s\n", safe(s->repair.sentence));
    free(edit);
    if (first)
        sb_printf(out, "  %sfix this first:%s %s\n", bold, reset, safe(first));
    free(first);
    char total[32];
    points_text(total, sizeof total, s->score, s->max_score);
    sb_printf(out, "  %sscore %s%s", bold, total, reset);
    /* points not checked stay in the maximum, and the line says which */
    double unchecked_points;
    char *unchecked = requirements_unchecked(s, &unchecked_points);
    if (unchecked)
        sb_printf(out, "  (%s)", unchecked);
    if (reads && !all_pass)
        sb_printf(out, "  (global reads: %s)", safe(reads));
    sb_puts(out, "\n");
    if (verbose && s->stages.n) { /* where the check's time went */
        sb_puts(out, "  time: ");
        stages_text(out, &s->stages);
        sb_puts(out, "\n");
    }
    free(unchecked);
    free(reads);
}

static int lines_in(const strbuf *b)
{
    int n = 0;
    for (size_t i = 0; i < b->len; i++)
        n += b->buf[i] == '\n';
    return n;
}

/* A report aims at 40 lines for one mistake (its lab's table is most of
 * them): where three rows of worst elements would take it past that, one
 * row shows the kind of error and the rest stays (--verbose shows all). */
void report_text(strbuf *out, const submission_result *s, int color, int verbose)
{
    strbuf body;
    sb_init(&body);
    report_render(&body, s, color, verbose, 3);
    if (!verbose && lines_in(&body) > REPORT_LINES_AIM) {
        strbuf tight;
        sb_init(&tight);
        report_render(&tight, s, color, verbose, 1);
        if (lines_in(&tight) < lines_in(&body)) {
            sb_free(&body);
            body = tight;
        } else {
            sb_free(&tight);
        }
    }
    sb_append(out, body.buf ? body.buf : "", body.len);
    sb_free(&body);
}

/* JSON text must be valid UTF-8; a compiler's or a student program's output
 * may not be. Invalid bytes become '?'. */
static char *utf8_clean(const char *s)
{
    char *out = xstrdup(s ? s : "");
    unsigned char *p = (unsigned char *)out;
    while (*p) {
        int n = utf8_char_length(p);
        if (n == 0) {
            *p++ = '?';
            continue;
        }
        p += n;
    }
    return out;
}

static void add_text(cJSON *o, const char *key, const char *text)
{
    char *clean = utf8_clean(text);
    cJSON_AddStringToObject(o, key, clean);
    free(clean);
}

/* The repair search's finding (docs/formats.md, "repair"), or null. */
static cJSON *repair_json(const repair_result *r)
{
    if (!r->ran)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "found", r->found == REPAIR_FULL ? "full" : r->found ? "partial" : "none");
    cJSON_AddNumberToObject(o, "line", r->line);
    add_text(o, "kind", r->kind);
    add_text(o, "from", r->from);
    add_text(o, "to", r->to);
    add_text(o, "context", r->context);
    cJSON_AddNumberToObject(o, "datasets_right", r->datasets_right);
    cJSON_AddNumberToObject(o, "datasets", r->datasets);
    add_text(o, "dataset", r->dataset);
    cJSON_AddNumberToObject(o, "wrong", (double)r->wrong);
    cJSON_AddNumberToObject(o, "fixed", (double)r->fixed);
    cJSON_AddNumberToObject(o, "candidates", r->candidates);
    cJSON_AddNumberToObject(o, "screened", r->screened);
    cJSON_AddNumberToObject(o, "repairs", r->repairs);
    cJSON_AddNumberToObject(o, "ended", r->ended);
    if (r->also_line > 0) {
        cJSON *a = cJSON_AddObjectToObject(o, "also");
        cJSON_AddNumberToObject(a, "line", r->also_line);
        add_text(a, "from", r->also_from);
        add_text(a, "to", r->also_to);
    }
    add_text(o, "sentence", r->sentence ? r->sentence : "");
    return o;
}

static cJSON *number_or_word(double v, int poisoned)
{
    if (poisoned)
        return cJSON_CreateString("never written");
    if (isnan(v))
        return cJSON_CreateString("NaN");
    if (isinf(v))
        return cJSON_CreateString(v > 0 ? "Infinity" : "-Infinity");
    return cJSON_CreateNumber(v);
}

static cJSON *comparison_json(const compare_result *c)
{
    if (!c->compared)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON *shape = cJSON_AddArrayToObject(o, "shape");
    cJSON *want = cJSON_AddArrayToObject(o, "expected_shape");
    for (int i = 0; i < 3; i++) {
        cJSON_AddItemToArray(shape, cJSON_CreateNumber(c->got_shape[i]));
        cJSON_AddItemToArray(want, cJSON_CreateNumber(c->want_shape[i]));
    }
    cJSON_AddNumberToObject(o, "elements", (double)c->elements);
    cJSON_AddNumberToObject(o, "mismatches", (double)c->mismatches);
    cJSON_AddNumberToObject(o, "never_written", (double)c->poisoned);
    cJSON_AddNumberToObject(o, "nonfinite", (double)c->nonfinite);
    cJSON_AddNumberToObject(o, "max_abs_err", c->max_abs_err);
    cJSON_AddNumberToObject(o, "max_rel_err", c->max_rel_err);
    cJSON_AddNumberToObject(o, "worst_ratio", c->worst_ratio);
    if (c->hint[0])
        cJSON_AddStringToObject(o, "hint", c->hint);
    else
        cJSON_AddNullToObject(o, "hint");
    if (c->mistake[0])
        cJSON_AddStringToObject(o, "mistake", c->mistake);
    else
        cJSON_AddNullToObject(o, "mistake");
    if (c->error_map[0])
        add_text(o, "error_map", c->error_map);
    else
        cJSON_AddNullToObject(o, "error_map");
    if (c->padding_floats) {
        cJSON *pad = cJSON_AddObjectToObject(o, "padding");
        cJSON_AddNumberToObject(pad, "floats", (double)c->padding_floats);
        cJSON_AddNumberToObject(pad, "changed", (double)c->padding_changed);
    } else {
        cJSON_AddNullToObject(o, "padding");
    }
    cJSON *worst = cJSON_AddArrayToObject(o, "worst");
    for (int i = 0; i < c->nworst; i++) {
        const mismatch *w = &c->worst[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddNumberToObject(e, "row", w->row);
        cJSON_AddNumberToObject(e, "col", w->col);
        cJSON_AddNumberToObject(e, "channel", w->channel);
        cJSON_AddItemToObject(e, "got", number_or_word(w->got, w->poisoned));
        cJSON_AddNumberToObject(e, "expected", w->expected);
        cJSON_AddNumberToObject(e, "tolerance", w->tolerance);
        cJSON_AddItemToArray(worst, e);
    }
    return o;
}

static cJSON *triple_json(const unsigned v[3])
{
    cJSON *a = cJSON_CreateArray();
    for (int d = 0; d < 3; d++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[d]));
    return a;
}

/* The threads of a fault map or a race map, or null. */
static cJSON *threads_json(const fault_threads *f, const char *summary)
{
    if (f->n == 0)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    add_text(o, "kernel", f->kernel);
    cJSON_AddNumberToObject(o, "count", (double)f->n);
    cJSON_AddItemToObject(o, "grid", triple_json(f->grid));
    cJSON_AddItemToObject(o, "block", triple_json(f->block));
    cJSON_AddBoolToObject(o, "launch_size_known", f->exact);
    cJSON_AddBoolToObject(o, "complete", !f->incomplete);
    add_text(o, "summary", summary ? summary : "");
    return o;
}

cJSON *sanitizer_json(const struct sanitize_result_s *r)
{
    if (!r)
        return cJSON_CreateNull();
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ran", r->ran);
    if (r->problem)
        cJSON_AddStringToObject(o, "problem", r->problem);
    else
        cJSON_AddNullToObject(o, "problem");
    cJSON *arr = cJSON_AddArrayToObject(o, "findings");
    for (int i = 0; i < r->nfindings; i++) {
        const finding *f = &r->findings[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "kind", f->kind);
        cJSON_AddStringToObject(e, "file", f->file);
        cJSON_AddNumberToObject(e, "line", f->line);
        if (f->line2)
            cJSON_AddNumberToObject(e, "line2", f->line2);
        else
            cJSON_AddNullToObject(e, "line2");
        add_text(e, "message", f->message);
        cJSON_AddItemToArray(arr, e);
    }
    cJSON_AddItemToObject(o, "faulting_threads", threads_json(&r->faults, r->fault_summary));
    if (r->fault_map[0])
        add_text(o, "fault_map", r->fault_map);
    else
        cJSON_AddNullToObject(o, "fault_map");
    cJSON_AddItemToObject(o, "racing_threads", threads_json(&r->races, r->race_summary));
    if (r->race_map[0])
        add_text(o, "race_map", r->race_map);
    else
        cJSON_AddNullToObject(o, "race_map");
    return o;
}

/* "global_reads": the counts the report's line quotes (counts.h), or null. */
static cJSON *reads_json(const access_summary *a)
{
    if (!a->known)
        return cJSON_CreateNull();
    const access_counts *c = &a->c;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "dataset", a->dataset);
    add_text(o, "kernel", c->kernel);
    cJSON_AddStringToObject(o, "unit", a->matmul ? "multiply-add" : "output value");
    cJSON_AddNumberToObject(o, "work", a->work);
    cJSON_AddNumberToObject(o, "per_work", a->work > 0 ? a->reads / a->work : 0);
    cJSON_AddNumberToObject(o, "untiled_per_work", a->work > 0 ? a->naive / a->work : 0);
    if (a->expected > 0)
        cJSON_AddNumberToObject(o, "tiled_per_work", a->expected / a->work);
    else
        cJSON_AddNullToObject(o, "tiled_per_work");
    cJSON_AddItemToObject(o, "tile", cJSON_CreateIntArray(a->tile, 2));
    const char *keys[] = { "global_loads", "global_load_bytes", "global_stores", "global_store_bytes",
                           "shared_loads", "shared_load_bytes", "shared_stores", "shared_store_bytes",
                           "threads" };
    const unsigned long long values[] = { c->global_loads, c->global_load_bytes, c->global_stores,
                                          c->global_store_bytes, c->shared_loads, c->shared_load_bytes,
                                          c->shared_stores, c->shared_store_bytes, c->threads };
    for (int i = 0; i < 9; i++)
        cJSON_AddNumberToObject(o, keys[i], (double)values[i]);
    if (c->line > 0) {
        cJSON *l = cJSON_AddObjectToObject(o, "top_line");
        add_text(l, "file", path_base(c->line_file));
        cJSON_AddNumberToObject(l, "line", c->line);
        cJSON_AddNumberToObject(l, "global_loads", (double)c->line_loads);
    } else {
        cJSON_AddNullToObject(o, "top_line");
    }
    return o;
}

cJSON *report_json(const submission_result *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lab", s->lab);
    add_text(o, "file", s->file);
    cJSON_AddStringToObject(o, "backend", s->backend);
    cJSON_AddStringToObject(o, "device", s->device);
    cJSON_AddStringToObject(o, "driver", s->driver);
    cJSON_AddStringToObject(o, "arch", s->arch);
    if (s->checkers[0])
        cJSON_AddStringToObject(o, "checkers", s->checkers);
    else
        cJSON_AddNullToObject(o, "checkers");
    if (s->checkers_fallback)
        add_text(o, "checkers_fallback", s->checkers_fallback);
    else
        cJSON_AddNullToObject(o, "checkers_fallback");
    cJSON *notes = cJSON_AddArrayToObject(o, "notes");
    for (const char *p = s->notes; p && *p;) {
        const char *end = strchr(p, '\n');
        char *line = xasprintf("%.*s", (int)(end ? end - p : (long)strlen(p)), p);
        char *clean = utf8_clean(line);
        cJSON_AddItemToArray(notes, cJSON_CreateString(clean));
        free(clean);
        free(line);
        p = end ? end + 1 : p + strlen(p);
    }
    cJSON_AddNumberToObject(o, "score", s->score);
    cJSON_AddNumberToObject(o, "max_score", s->max_score);
    cJSON *build = cJSON_AddObjectToObject(o, "build");
    cJSON_AddBoolToObject(build, "ok", s->built);
    if (s->build_message)
        add_text(build, "message", s->build_message);
    else
        cJSON_AddNullToObject(build, "message");
    add_text(build, "log", s->build_log);
    cJSON *arr = cJSON_AddArrayToObject(o, "datasets");
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", d->name);
        cJSON_AddStringToObject(e, "status", status_name(d->status));
        cJSON_AddNumberToObject(e, "score", d->points);
        cJSON_AddNumberToObject(e, "max_score", d->max_points);
        add_text(e, "message", d->message);
        cJSON_AddNumberToObject(e, "wall_s", d->wall_s);
        if (d->call_ms >= 0)
            cJSON_AddNumberToObject(e, "call_ms", d->call_ms);
        else
            cJSON_AddNullToObject(e, "call_ms");
        cJSON_AddItemToObject(e, "comparison", comparison_json(&d->cmp));
        cJSON_AddItemToObject(e, "sanitizer", sanitizer_json(d->sanitizer));
        add_text(e, "stdout", d->program_stdout);
        add_text(e, "stderr", d->program_stderr);
        cJSON_AddItemToArray(arr, e);
    }
    if (s->hint)
        cJSON_AddStringToObject(o, "hint", s->hint);
    else
        cJSON_AddNullToObject(o, "hint");
    if (s->tile_contents)
        add_text(o, "tile_contents", s->tile_contents);
    else
        cJSON_AddNullToObject(o, "tile_contents");
    cJSON_AddItemToObject(o, "repair", repair_json(&s->repair));
    /* the same line the text report leads its ending with */
    char *first = fix_first(s);
    if (first)
        add_text(o, "fix_first", first);
    else
        cJSON_AddNullToObject(o, "fix_first");
    free(first);
    /* the points in max_score that no check looked at, and which (the
     * text report's score line says the same) */
    double unchecked_points;
    char *unchecked = requirements_unchecked(s, &unchecked_points);
    if (unchecked) {
        cJSON *u = cJSON_AddObjectToObject(o, "not_checked");
        cJSON_AddNumberToObject(u, "points", unchecked_points);
        cJSON_AddStringToObject(u, "message", unchecked);
    } else {
        cJSON_AddNullToObject(o, "not_checked");
    }
    free(unchecked);
    cJSON *reqs = cJSON_AddArrayToObject(o, "requirements");
    for (int i = 0; i < s->nrequirements; i++) {
        const requirement_result *r = &s->requirements[i];
        cJSON *e = cJSON_CreateObject();
        cJSON_AddStringToObject(e, "name", r->name);
        cJSON_AddStringToObject(e, "status", status_name(r->status));
        cJSON_AddNumberToObject(e, "score", r->points);
        cJSON_AddNumberToObject(e, "max_score", r->max_points);
        add_text(e, "message", r->message);
        cJSON_AddItemToArray(reqs, e);
    }
    cJSON_AddItemToObject(o, "global_reads", reads_json(&s->reads));
    cJSON_AddItemToObject(o, "stages", stages_json(&s->stages));
    if (s->perf_asked) {
        cJSON *p = cJSON_AddObjectToObject(o, "performance");
        cJSON_AddStringToObject(p, "status",
                                s->perf_status == ST_COUNT ? "not_measured" : status_name(s->perf_status));
        cJSON_AddNumberToObject(p, "score", s->perf_points);
        cJSON_AddNumberToObject(p, "max_score", s->perf_max_points);
        cJSON_AddStringToObject(p, "unit", s->perf_unit);
        cJSON_AddNumberToObject(p, "rate", s->perf_rate);
        cJSON_AddNumberToObject(p, "reference_rate", s->perf_reference_rate);
        add_text(p, "message", s->perf_message);
    }
    return o;
}
