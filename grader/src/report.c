/*
 * report.c - see report.h.
 */
#define _GNU_SOURCE
#include "report.h"
#include "sanitize.h"

#include <math.h>
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

/* The last `keep` lines of a text, each indented. */
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

static void dataset_details(strbuf *out, const dataset_result *d)
{
    int findings = d->sanitizer && d->sanitizer->nfindings > 0;
    if ((d->status == ST_PASS && !findings) || d->status == ST_COMPILE_ERROR)
        return;
    sb_printf(out, "\n  %s: %s\n", d->name, status_name(d->status));
    const compare_result *c = &d->cmp;
    if (c->compared && c->shape_ok && c->nworst > 0) {
        sb_printf(out, "    worst elements (%s):\n", c->got_shape[2] > 1 ? "row, col, channel" : "row, col");
        sb_printf(out, "      %-18s %-16s %-16s %s\n", "where", "got", "expected", "tolerance");
        for (int i = 0; i < c->nworst; i++) {
            const mismatch *w = &c->worst[i];
            char where[48], got[32], want[32];
            if (c->got_shape[2] > 1)
                snprintf(where, sizeof where, "(%d, %d, %d)", w->row, w->col, w->channel);
            else
                snprintf(where, sizeof where, "(%d, %d)", w->row, w->col);
            number_text(got, sizeof got, w->got, w->poisoned);
            number_text(want, sizeof want, w->expected, 0);
            sb_printf(out, "      %-18s %-16s %-16s %.3g\n", where, got, want, w->tolerance);
        }
    }
    if (c->compared && c->hint[0])
        sb_printf(out, "    hint: %s\n", safe(c->hint));
    if (c->compared && c->error_map[0])
        sb_printf(out, "    error map: %s\n", c->error_map);
    if (findings) {
        sb_puts(out, "    the sanitizer found:\n");
        for (int i = 0; i < d->sanitizer->nfindings; i++)
            sb_printf(out, "      - %s: %s\n", d->sanitizer->findings[i].kind, safe(d->sanitizer->findings[i].message));
    }
    if (d->sanitizer && d->sanitizer->fault_summary)
        sb_printf(out, "    faulting threads: %s\n", d->sanitizer->fault_summary);
    if (d->sanitizer && d->sanitizer->fault_map[0])
        sb_printf(out, "    fault map: %s\n", d->sanitizer->fault_map);
    if (d->sanitizer && d->sanitizer->race_summary)
        sb_printf(out, "    racing threads: %s\n", d->sanitizer->race_summary);
    if (d->sanitizer && d->sanitizer->race_map[0])
        sb_printf(out, "    race map: %s\n", d->sanitizer->race_map);
    if (d->status != ST_WRONG && d->program_stderr && *d->program_stderr) {
        sb_puts(out, "    the program's error output (last lines):\n");
        tail_lines(out, d->program_stderr, 10, "      ");
    }
}

void report_text(strbuf *out, const submission_result *s, int color)
{
    const char *bold = color ? "\033[1m" : "", *reset = color ? "\033[0m" : "";
    sb_printf(out, "%s%s%s  %s  on %s: %s", bold, s->lab, reset, s->file, s->backend, s->device);
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
    }
    size_t wname = 7;
    for (int i = 0; i < s->ndatasets; i++)
        if (strlen(s->datasets[i].name) > wname)
            wname = strlen(s->datasets[i].name);
    for (int i = 0; i < s->nrequirements; i++)
        if (strlen(s->requirements[i].name) + 2 > wname)
            wname = strlen(s->requirements[i].name) + 2;
    sb_printf(out, "  %-*s  %-18s  %-7s  %s\n", (int)wname, "dataset", "status", "points", "details");
    for (int i = 0; i < s->ndatasets; i++) {
        const dataset_result *d = &s->datasets[i];
        char pts[32];
        points_text(pts, sizeof pts, d->points, d->max_points);
        const char *msg = d->status == ST_COMPILE_ERROR ? "see the compiler's messages above"
                                                         : (d->message ? d->message : "");
        sb_printf(out, "  %-*s  %s%-18s%s  %-7s  %s\n", (int)wname, d->name, color ? status_color(d->status) : "",
                  status_name(d->status), reset, pts, safe(msg));
    }
    for (int i = 0; i < s->nrequirements; i++) {
        const requirement_result *r = &s->requirements[i];
        char pts[32], label[96];
        points_text(pts, sizeof pts, r->points, r->max_points);
        snprintf(label, sizeof label, "[%s]", r->name);
        sb_printf(out, "  %-*s  %s%-18s%s  %-7s  %s\n", (int)wname, label, color ? status_color(r->status) : "",
                  status_name(r->status), reset, pts, safe(r->message));
    }
    if (s->perf_asked) {
        char pts[32];
        points_text(pts, sizeof pts, s->perf_points, s->perf_max_points);
        sb_printf(out, "  %-*s  %s%-18s%s  %-7s  %s\n", (int)wname, "[performance]",
                  color && s->perf_status != ST_COUNT ? status_color(s->perf_status) : "",
                  s->perf_status == ST_COUNT ? "not_measured" : status_name(s->perf_status), reset,
                  s->perf_max_points > 0 ? pts : "-", s->perf_message ? s->perf_message : "");
    }
    for (int i = 0; i < s->ndatasets; i++)
        dataset_details(out, &s->datasets[i]);
    if (s->hint)
        sb_printf(out, "\n  hint: %s\n", s->hint);
    char total[32];
    points_text(total, sizeof total, s->score, s->max_score);
    sb_printf(out, "\n  %sscore %s%s\n", bold, total, reset);
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

cJSON *report_json(const submission_result *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "lab", s->lab);
    add_text(o, "file", s->file);
    cJSON_AddStringToObject(o, "backend", s->backend);
    cJSON_AddStringToObject(o, "device", s->device);
    cJSON_AddStringToObject(o, "driver", s->driver);
    cJSON_AddStringToObject(o, "arch", s->arch);
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
