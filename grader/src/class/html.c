/*
 * html.c - see html.h.
 */
#define _GNU_SOURCE
#include "html.h"
#include "counts.h"
#include "errormap.h"
#include "json.h"
#include "export.h"
#include "util.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reading records ------------------------------------------------------------- */

static int is_true(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, key));
}

/* ---- writing HTML ---------------------------------------------------------------- */

/* Text into an element or an attribute value: export_xml_text escapes
 * &, <, >, " and ' and drops what XML does not allow. Every text of a
 * record goes through here, so the grading machine's folders are cut from
 * its paths too (export_private_paths: the pages are the students'). */
static void esc(strbuf *sb, const char *s)
{
    char *shown = export_private_paths(s ? s : "");
    export_xml_text(sb, shown);
    free(shown);
}

/* A CSS class for a status word: only known words, so a record cannot add
 * classes of its own. */
static const char *status_class(const char *status)
{
    if (strcmp(status, "pass") == 0 || strcmp(status, "passed") == 0)
        return "ok";
    if (strcmp(status, "grader_error") == 0)
        return "err";
    if (strcmp(status, "not_measured") == 0 || strcmp(status, "not_checked") == 0)
        return "na";
    return "bad";
}

static void status_cell(strbuf *sb, const char *status)
{
    sb_printf(sb, "<td><span class=\"st %s\">", status_class(status));
    esc(sb, status);
    sb_puts(sb, "</span></td>");
}

/* Percent-encodes a URL path (every byte but unreserved ones; '/' kept
 * where keep_slash). The result then needs no HTML escaping. */
static void url_path(strbuf *sb, const char *s, int keep_slash)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        if ((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') || *c == '-' ||
            *c == '_' || *c == '.' || *c == '~' || (keep_slash && *c == '/'))
            sb_append(sb, (const char *)c, 1);
        else
            sb_printf(sb, "%%%02X", *c);
    }
}

static void base64(strbuf *sb, const unsigned char *data, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    for (size_t i = 0; i < len; i += 3) {
        unsigned v = (unsigned)data[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        char out[4] = { digits[v >> 18 & 63], digits[v >> 12 & 63], i + 1 < len ? digits[v >> 6 & 63] : '=',
                        i + 2 < len ? digits[v & 63] : '=' };
        sb_append(sb, out, 4);
    }
}

static const char css[] =
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;margin:2em auto;max-width:70em;"
    "padding:0 1em;color:#1b1f24;background:#fff}"
    "h1{font-size:1.5em;margin-bottom:.2em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #d0d7de}"
    "h3{font-size:1.05em;margin-bottom:.3em}"
    ".sub{color:#57606a;margin-top:0}"
    "table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .7em;text-align:left;vertical-align:top;"
    "border-bottom:1px solid #eaeef2}th{background:#f6f8fa}td.n{text-align:right;font-variant-numeric:tabular-nums}"
    ".st{font-weight:600;padding:0 .35em;border-radius:3px}.ok{color:#116329;background:#dafbe1}"
    ".bad{color:#82071e;background:#ffebe9}.err{color:#6639ba;background:#fbefff}.na{color:#57606a;background:#eaeef2}"
    ".bar{display:inline-block;width:10em;height:.8em;background:#eaeef2;vertical-align:middle;margin-right:.5em}"
    ".bar span{display:block;height:100%;background:#2da44e}"
    "dl.kv{display:grid;grid-template-columns:max-content auto;gap:.15em 1em}dl.kv dt{color:#57606a}dl.kv dd{margin:0}"
    "pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap;word-break:break-all;font-size:.9em}"
    "code{background:#f6f8fa;padding:0 .25em;font-size:.92em}"
    ".why{background:#fff8c5;border-left:4px solid #d4a72c;padding:.4em .8em}"
    ".fix{background:#ffebe9;border-left:4px solid #cf222e;padding:.4em .8em}"
    "td .fix{display:block;margin-bottom:.3em}"
    ".key{display:flex;flex-wrap:wrap;gap:.3em 1.2em;font-size:.9em;margin:.5em 0}"
    ".sw{display:inline-block;width:1.6em;height:.9em;border:1px solid #8c959f;vertical-align:middle;"
    "margin-right:.4em}"
    ".maps{display:flex;flex-wrap:wrap;gap:1em}.maps figure{margin:0}"
    ".maps img{max-width:100%;image-rendering:pixelated;border:1px solid #d0d7de}"
    "svg text{font:11px sans-serif;fill:#1b1f24}";

static void page_start(strbuf *sb, const char *title)
{
    sb_puts(sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
                "img-src data:; style-src 'unsafe-inline'\">\n"
                "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
    esc(sb, title);
    sb_printf(sb, "</title>\n<style>%s</style>\n</head>\n<body>\n", css);
}

static void page_end(strbuf *sb)
{
    sb_puts(sb, "<p class=\"sub\">Made by gpulab from the grading records.</p>\n</body>\n</html>\n");
}

/* A message whose quoted source lines are in backquotes (the checkers'
 * findings: "the write at line 48 (`ds_M[ty][tx] = ...;`)"): the quotes
 * become <code>. */
static void esc_quoted(strbuf *sb, const char *s)
{
    const char *p = s;
    int in_code = 0;
    while (*p) {
        const char *tick = strchr(p, '`');
        /* an opening quote with no closing one stays a plain character */
        if (tick && !in_code && !strchr(tick + 1, '`'))
            tick = NULL;
        size_t n = tick ? (size_t)(tick - p) : strlen(p);
        char *part = xasprintf("%.*s", (int)n, p);
        esc(sb, part);
        free(part);
        if (!tick)
            break;
        sb_puts(sb, in_code ? "</code>" : "<code>");
        in_code = !in_code;
        p = tick + 1;
    }
    if (in_code)
        sb_puts(sb, "</code>");
}

/* The record's "fix this first" line (fix_first: the text report's own
 * line), leading what the page says of the submission; its quoted code as
 * <code>. tag: "p" on a student's page, "span" in the class page's row.
 * Nothing when the record has none (everything passed). */
static void fix_first_line(strbuf *sb, const cJSON *rec, const char *tag)
{
    const char *fix = json_str(rec, "fix_first", "");
    if (!*fix)
        return;
    sb_printf(sb, "<%s class=\"fix\"><strong>Fix this first:</strong> ", tag);
    esc_quoted(sb, fix);
    sb_printf(sb, "</%s>%s", tag, strcmp(tag, "p") == 0 ? "\n" : ""); /* a table row stays one line */
}

/* Which maps a page shows (ERRORMAP_KEY_* bits): an error map (with
 * changed padding, lab 05), a fault or race map; never a hidden dataset's. */
static unsigned page_maps(const cJSON *rec)
{
    unsigned maps = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
        if (is_true(d, "hidden"))
            continue;
        const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(d, "comparison");
        const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer");
        if (*json_str(cmp, "error_map", ""))
            maps |= ERRORMAP_KEY_ERROR |
                    (json_num(cJSON_GetObjectItemCaseSensitive(cmp, "padding"), "changed") > 0 ? ERRORMAP_KEY_PADDING
                                                                                              : 0);
        if (*json_str(san, "fault_map", "") || *json_str(san, "race_map", ""))
            maps |= ERRORMAP_KEY_FAULT;
    }
    return maps;
}

static void swatch_rgb(strbuf *sb, const unsigned char rgb[3])
{
    sb_printf(sb, "rgb(%d,%d,%d)", rgb[0], rgb[1], rgb[2]);
}

/* A key of the colours on the maps `maps` names, each a swatch and its
 * words: errormap.c's list, the one the pictures are drawn with. */
static void key_list(strbuf *sb, const char *title, unsigned maps)
{
    sb_printf(sb, "<div class=\"key\"><strong>%s:</strong>\n", title);
    for (size_t i = 0; i < errormap_ncolours; i++) {
        const errormap_colour *c = &errormap_colours[i];
        if (!(c->maps & maps))
            continue;
        sb_puts(sb, "<span><span class=\"sw\" style=\"background:");
        if (c->ramp) {
            unsigned char rgb[3];
            sb_puts(sb, "linear-gradient(to right");
            for (int k = 0; k <= 2; k++) {
                errormap_ramp_colour(k / 2.0, rgb);
                sb_puts(sb, ",");
                swatch_rgb(sb, rgb);
            }
            sb_puts(sb, ")");
        } else {
            swatch_rgb(sb, c->rgb);
        }
        sb_puts(sb, "\"></span>");
        esc(sb, c->colour);
        sb_puts(sb, ": ");
        esc(sb, c->meaning);
        sb_puts(sb, "</span>\n");
    }
    sb_puts(sb, "</div>\n");
}

static void map_keys(strbuf *sb, unsigned maps)
{
    if (maps & (ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING))
        key_list(sb, "Error map key", maps & (ERRORMAP_KEY_ERROR | ERRORMAP_KEY_PADDING));
    if (maps & ERRORMAP_KEY_FAULT)
        key_list(sb, "Fault and race map key", ERRORMAP_KEY_FAULT);
}

/* The last keep lines of a text, in a <pre>. */
static void pre_tail(strbuf *sb, const char *text, int keep)
{
    const char *end = text + strlen(text);
    while (end > text && end[-1] == '\n')
        end--;
    const char *start = end;
    int lines = 0;
    while (start > text) {
        if (start[-1] == '\n' && ++lines == keep)
            break;
        start--;
    }
    sb_puts(sb, "<pre>");
    if (start > text)
        sb_puts(sb, "...\n");
    char *part = xasprintf("%.*s", (int)(end - start), start);
    esc(sb, part);
    free(part);
    sb_puts(sb, "</pre>\n");
}

/* A program's output without the harness's "@gpulab" lines. */
static char *student_lines(const char *text)
{
    strbuf sb;
    sb_init(&sb);
    for (const char *line = text; *line;) {
        const char *nl = strchr(line, '\n');
        size_t n = nl ? (size_t)(nl - line + 1) : strlen(line);
        if (strncmp(line, "@gpulab\t", 8) != 0)
            sb_append(&sb, line, n);
        line += n;
    }
    return sb_detach(&sb);
}

/* A map the grader drew: a PNG is embedded (data: URI); any other file
 * (PPM) is named by its file name alone. */
static void map_figure(strbuf *sb, const char *title, const char *path)
{
    if (!path || !*path)
        return;
    sb_puts(sb, "<figure>");
    size_t len = 0;
    char *why = NULL;
    char *data = ends_with(path, ".png") ? untrusted_read(path, 16 << 20, 0, &len, &why) : NULL;
    int embedded = data && len >= 8 && memcmp(data, "\x89PNG\r\n\x1a\n", 8) == 0;
    if (embedded) {
        sb_puts(sb, "<img alt=\"");
        esc(sb, title);
        sb_puts(sb, "\" src=\"data:image/png;base64,");
        base64(sb, (const unsigned char *)data, len);
        sb_puts(sb, "\">");
    } else { /* named, never linked: its folder is the grading machine's, not the student's */
        esc(sb, path_base(path));
        if (!file_exists(path))
            sb_puts(sb, " (not found here)");
    }
    free(data);
    free(why);
    sb_puts(sb, "<figcaption>");
    esc(sb, title);
    if (embedded) { /* the file's name too: the student finds the same picture beside their report */
        sb_puts(sb, " (");
        esc(sb, path_base(path));
        sb_puts(sb, ")");
    }
    sb_puts(sb, "</figcaption></figure>\n");
}

/* ---- a submission's page ---------------------------------------------------------- */

static void worst_table(strbuf *sb, const cJSON *cmp)
{
    const cJSON *worst = json_arr(cmp, "worst"), *w;
    if (cJSON_GetArraySize(worst) == 0)
        return;
    const cJSON *shape = json_arr(cmp, "shape");
    int channels = cJSON_GetArraySize(shape) == 3 && cJSON_GetArrayItem(shape, 2)->valuedouble > 1;
    sb_printf(sb, "<table><tr><th>where (%s)</th><th>got</th><th>expected</th><th>tolerance</th></tr>\n",
              channels ? "row, col, channel" : "row, col");
    cJSON_ArrayForEach(w, worst) {
        if (channels)
            sb_printf(sb, "<tr><td>(%g, %g, %g)</td>", json_num(w, "row"), json_num(w, "col"), json_num(w, "channel"));
        else
            sb_printf(sb, "<tr><td>(%g, %g)</td>", json_num(w, "row"), json_num(w, "col"));
        const cJSON *got = cJSON_GetObjectItemCaseSensitive(w, "got");
        if (cJSON_IsNumber(got))
            sb_printf(sb, "<td class=\"n\">%.9g</td>", got->valuedouble);
        else {
            sb_puts(sb, "<td>");
            esc(sb, cJSON_IsString(got) ? got->valuestring : "?");
            sb_puts(sb, "</td>");
        }
        sb_printf(sb, "<td class=\"n\">%.9g</td><td class=\"n\">%.3g</td></tr>\n", json_num(w, "expected"),
                  json_num(w, "tolerance"));
    }
    sb_puts(sb, "</table>\n");
}

static void findings_list(strbuf *sb, const cJSON *san)
{
    const cJSON *f;
    if (cJSON_GetArraySize(json_arr(san, "findings")) == 0)
        return;
    sb_puts(sb, "<p>The checkers found:</p>\n<ul class=\"findings\">\n");
    cJSON_ArrayForEach(f, json_arr(san, "findings")) {
        sb_puts(sb, "<li><strong>");
        esc(sb, json_str(f, "kind", "?"));
        sb_puts(sb, "</strong> (");
        esc(sb, path_base(json_str(f, "file", "")));
        const cJSON *l2 = cJSON_GetObjectItemCaseSensitive(f, "line2");
        if (cJSON_IsNumber(l2))
            sb_printf(sb, ", lines %g and %g): ", json_num(f, "line"), l2->valuedouble);
        else
            sb_printf(sb, ", line %g): ", json_num(f, "line"));
        esc_quoted(sb, json_str(f, "message", ""));
        sb_puts(sb, "</li>\n");
    }
    sb_puts(sb, "</ul>\n");
}

static void dataset_section(strbuf *out, const cJSON *d)
{
    const char *status = json_str(d, "status", "");
    const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(d, "comparison");
    const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer");
    int findings = cJSON_GetArraySize(json_arr(san, "findings")) > 0;
    int hidden = is_true(d, "hidden");
    if ((strcmp(status, "pass") == 0 && !findings) || strcmp(status, "compile_error") == 0)
        return;
    /* the section is written only when there is something to show beyond
     * the results table's row (a timeout, say, has nothing more) */
    strbuf body, *sb = &body;
    sb_init(&body);
    if (!hidden)
        worst_table(sb, cmp);
    if (*json_str(cmp, "hint", "")) {
        sb_puts(sb, "<p><strong>Hint:</strong> ");
        esc_quoted(sb, json_str(cmp, "hint", ""));
        sb_puts(sb, "</p>\n");
    }
    findings_list(sb, san);
    const char *words[][2] = { { "faulting_threads", "Faulting threads" }, { "racing_threads", "Racing threads" } };
    for (int i = 0; i < 2; i++) {
        const cJSON *t = cJSON_GetObjectItemCaseSensitive(san, words[i][0]);
        if (*json_str(t, "summary", "")) {
            sb_printf(sb, "<p><strong>%s:</strong> ", words[i][1]);
            esc_quoted(sb, json_str(t, "summary", ""));
            sb_puts(sb, "</p>\n");
        }
    }
    const char *error_map = json_str(cmp, "error_map", ""), *fault_map = json_str(san, "fault_map", "");
    const char *race_map = json_str(san, "race_map", "");
    if (!hidden && (*error_map || *fault_map || *race_map)) {
        sb_puts(sb, "<div class=\"maps\">\n");
        map_figure(sb, "error map: where the output is wrong", error_map);
        map_figure(sb, "fault map: threads that made invalid accesses", fault_map);
        map_figure(sb, "race map: threads that raced", race_map);
        sb_puts(sb, "</div>\n");
    }
    if (!hidden) {
        const char *names[][2] = { { "stderr", "error output" }, { "stdout", "output" } };
        for (int i = 0; i < 2; i++) {
            char *mine = student_lines(json_str(d, names[i][0], ""));
            if (mine[strspn(mine, " \t\r\n")]) {
                sb_printf(sb, "<details><summary>The program's %s (last lines)</summary>\n", names[i][1]);
                pre_tail(sb, mine, 20);
                sb_puts(sb, "</details>\n");
            }
            free(mine);
        }
    }
    if (body.len) {
        sb_puts(out, "<h3>");
        esc(out, hidden ? "hidden dataset " : "dataset ");
        esc(out, json_str(d, "name", ""));
        sb_printf(out, ": <span class=\"st %s\">", status_class(status));
        esc(out, status);
        sb_puts(out, "</span></h3>\n");
        if (hidden)
            sb_puts(out, "<p>A hidden dataset: its values and your program's output on it stay hidden.</p>\n");
        sb_append(out, body.buf, body.len);
    }
    sb_free(&body);
}

/* The record's global reads in words (counts.c's words, from its
 * "global_reads"), escaped; nothing when the record has none. */
static void reads_words(strbuf *sb, const cJSON *rec, char *(*words)(const access_summary *))
{
    access_summary a;
    if (counts_from_record(cJSON_GetObjectItemCaseSensitive(rec, "global_reads"), &a) != 0)
        return;
    char *w = words(&a);
    if (w)
        esc(sb, w);
    free(w);
}

static void result_row(strbuf *sb, const char *label, const char *status, double score, double max,
                       int has_points, const char *message)
{
    sb_puts(sb, "<tr><td>");
    esc(sb, label);
    sb_puts(sb, "</td>");
    status_cell(sb, status);
    if (has_points)
        sb_printf(sb, "<td class=\"n\">%g/%g</td><td>", score, max);
    else
        sb_puts(sb, "<td class=\"n\">-</td><td>");
    esc_quoted(sb, message);
    sb_puts(sb, "</td></tr>\n");
}

/* The final (adjust.h), or the score where nothing was adjusted. */
static double final_of(const cJSON *rec)
{
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(rec, "final");
    return cJSON_IsNumber(final) ? final->valuedouble : json_num(rec, "score");
}

/* The TA's adjustments, where there are any: late days, points, comment. */
static void adjustments_line(strbuf *sb, const cJSON *rec)
{
    double days = json_num(rec, "late_days"), points = json_num(rec, "adjustment");
    const char *comment = json_str(rec, "comment", "");
    if (days <= 0 && points == 0 && !*comment && final_of(rec) == json_num(rec, "score"))
        return;
    sb_printf(sb, "<p class=\"adjust\">Final: <b>%g/%g</b>", final_of(rec), json_num(rec, "max_score"));
    if (days > 0)
        sb_printf(sb, " &middot; %g late day%s: -%g", days, days == 1 ? "" : "s", json_num(rec, "late_penalty"));
    if (points != 0)
        sb_printf(sb, " &middot; adjusted %+g", points);
    if (*comment) {
        sb_puts(sb, " &middot; ");
        esc(sb, comment);
    }
    sb_puts(sb, "</p>\n");
}

static void student_body(strbuf *sb, const cJSON *rec, const char *source)
{
    const char *file = json_str(rec, "file", "");
    const char *id = json_str(rec, "id", path_base(file));
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    const char *overall = export_status(rec);
    sb_puts(sb, "<h1>");
    esc(sb, id);
    sb_printf(sb, ": %g/%g <span class=\"st %s\">", json_num(rec, "score"), json_num(rec, "max_score"), status_class(overall));
    esc(sb, overall);
    sb_puts(sb, "</span></h1>\n<p class=\"sub\">");
    esc(sb, json_str(rec, "lab", ""));
    sb_puts(sb, " &middot; ");
    esc(sb, file);
    sb_puts(sb, " &middot; on ");
    esc(sb, json_str(rec, "device", json_str(rec, "backend", "")));
    if (*json_str(rec, "arch", "")) {
        sb_puts(sb, " (");
        esc(sb, json_str(rec, "arch", ""));
        sb_puts(sb, ")");
    }
    if (*json_str(rec, "graded_at", "")) {
        sb_puts(sb, " &middot; graded ");
        esc(sb, json_str(rec, "graded_at", ""));
    }
    sb_puts(sb, "</p>\n");
    adjustments_line(sb, rec);

    /* the diagnosis first: the text report's "fix this first" line, then
     * what went wrong, in the gradebook's words */
    fix_first_line(sb, rec, "p");
    char *reason = export_reason(rec, source);
    if (*reason) {
        sb_puts(sb, "<p class=\"why\"><strong>What went wrong:</strong> ");
        esc_quoted(sb, reason);
        sb_puts(sb, "</p>\n");
    }
    free(reason);
    if (*json_str(rec, "hint", "")) {
        sb_puts(sb, "<p class=\"why\"><strong>Hint:</strong> ");
        esc_quoted(sb, json_str(rec, "hint", ""));
        sb_puts(sb, "</p>\n");
    }

    if (!is_true(build, "ok")) {
        sb_puts(sb, "<h2>Build</h2>\n<p><strong>The build failed:</strong> ");
        esc(sb, json_str(build, "message", ""));
        sb_puts(sb, "</p>\n");
        if (*json_str(build, "log", ""))
            pre_tail(sb, json_str(build, "log", ""), 60);
    }

    sb_puts(sb, "<h2>Results</h2>\n<table>\n<tr><th>dataset</th><th>status</th><th>points</th><th>details</th></tr>\n");
    const cJSON *d;
    cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
        const char *status = json_str(d, "status", "");
        int hidden = is_true(d, "hidden");
        const char *message = strcmp(status, "compile_error") == 0 ? "see the compiler's messages above"
                              : hidden ? "(hidden dataset)" : json_str(d, "message", "");
        result_row(sb, json_str(d, "name", ""), status, json_num(d, "score"), json_num(d, "max_score"), 1, message);
    }
    cJSON_ArrayForEach(d, json_arr(rec, "requirements")) {
        char *label = xasprintf("[%s]", json_str(d, "name", ""));
        result_row(sb, label, json_str(d, "status", ""), json_num(d, "score"), json_num(d, "max_score"), 1,
                   json_str(d, "message", ""));
        free(label);
    }
    const cJSON *perf = cJSON_GetObjectItemCaseSensitive(rec, "performance");
    if (cJSON_IsObject(perf))
        result_row(sb, "[performance]", json_str(perf, "status", ""), json_num(perf, "score"), json_num(perf, "max_score"),
                   json_num(perf, "max_score") > 0, json_str(perf, "message", ""));
    sb_printf(sb, "<tr><th>score</th><th></th><th class=\"n\">%g/%g</th><th></th></tr>\n</table>\n",
              json_num(rec, "score"), json_num(rec, "max_score"));
    if (cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(rec, "global_reads"))) {
        sb_puts(sb, "<p><strong>Global reads:</strong> ");
        reads_words(sb, rec, counts_sentence);
        sb_puts(sb, "</p>\n");
    }

    strbuf details;
    sb_init(&details);
    cJSON_ArrayForEach(d, json_arr(rec, "datasets"))
        dataset_section(&details, d);
    if (details.len) {
        sb_puts(sb, "<h2>Details</h2>\n");
        map_keys(sb, page_maps(rec));
        sb_append(sb, details.buf, details.len);
    }
    sb_free(&details);
}

char *html_student_page(const cJSON *rec, const char *source)
{
    strbuf sb;
    sb_init(&sb);
    const char *id = json_str(rec, "id", path_base(json_str(rec, "file", "")));
    char *title = xasprintf("%s: %s", json_str(rec, "lab", "gpulab"), id);
    page_start(&sb, title);
    free(title);
    student_body(&sb, rec, source);
    page_end(&sb);
    return sb_detach(&sb);
}

/* ---- the class page ------------------------------------------------------------- */

/* The score histogram as an inline SVG: a bar per tenth of the maximum,
 * its count above it, its range below. */
static void histogram_svg(strbuf *sb, const class_summary *cs)
{
    const int bar_w = 44, gap = 6, top = 18, plot_h = 120, bottom = 20;
    int widest = 1;
    for (int b = 0; b <= 10; b++)
        if (cs->buckets[b] > widest)
            widest = cs->buckets[b];
    int width = 11 * (bar_w + gap) + gap;
    sb_printf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" role=\"img\" "
                  "aria-label=\"histogram of scores by tenth of the maximum\">\n", width, top + plot_h + bottom);
    sb_printf(sb, "<line x1=\"0\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#8c959f\"/>\n", top + plot_h, width,
              top + plot_h);
    for (int b = 0; b <= 10; b++) {
        char label[16];
        class_summary_bucket_label(b, label, sizeof label);
        int h = cs->buckets[b] * plot_h / widest;
        int x = gap + b * (bar_w + gap);
        sb_printf(sb, "<g><title>%s: %d submission%s</title>", label, cs->buckets[b], cs->buckets[b] == 1 ? "" : "s");
        sb_printf(sb, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\"/>", x, top + plot_h - h, bar_w,
                  h, b == 10 ? "#2da44e" : "#54aeff");
        sb_printf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%d</text>", x + bar_w / 2, top + plot_h - h - 4,
                  cs->buckets[b]);
        sb_printf(sb, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text></g>\n", x + bar_w / 2,
                  top + plot_h + 14, label);
    }
    sb_puts(sb, "</svg>\n");
}

static void tally_line(strbuf *sb, const char *title, const name_tally *t)
{
    sb_printf(sb, "<dt>%s</dt><dd>", title);
    if (t->n == 0)
        sb_puts(sb, "none");
    for (int i = 0; i < t->n; i++) {
        if (i)
            sb_puts(sb, ", ");
        esc(sb, t->names[i]);
        sb_printf(sb, " %d", t->counts[i]);
    }
    sb_puts(sb, "</dd>\n");
}

static void summary_section(strbuf *sb, const class_summary *cs)
{
    sb_puts(sb, "<h2>Summary</h2>\n");
    if (cs->n == 0) {
        sb_puts(sb, "<p>No submissions.</p>\n");
        return;
    }
    sb_printf(sb, "<dl class=\"kv\">\n<dt>submissions</dt><dd>%d</dd>\n<dt>scores out of</dt><dd>%g</dd>\n"
                  "<dt>mean</dt><dd>%.2f</dd>\n<dt>median</dt><dd>%g</dd>\n<dt>lowest, highest</dt><dd>%g, %g</dd>\n",
              cs->n, cs->max, cs->mean, cs->median, cs->lowest, cs->highest);
    tally_line(sb, "submissions by status", &cs->status);
    tally_line(sb, "datasets by status", &cs->dataset_status);
    tally_line(sb, "checker findings", &cs->findings);
    tally_line(sb, "sandbox", &cs->sandbox);
    sb_printf(sb, "<dt>datasets</dt><dd>%s", cs->hidden ? "hidden (regenerated)" : "the kit's public ones");
    if (cs->seed) {
        sb_puts(sb, ", seed ");
        esc(sb, cs->seed);
        if (cs->seed_from && strcmp(cs->seed_from, "secret") == 0)
            sb_puts(sb, " (from the secret and each id)");
    }
    sb_puts(sb, "</dd>\n</dl>\n<h3>Scores (share of the maximum)</h3>\n");
    histogram_svg(sb, cs);
    sb_puts(sb, "<h3>Datasets passed</h3>\n<table>\n<tr><th>dataset</th><th>passed</th><th></th></tr>\n");
    for (int i = 0; i < cs->ndatasets; i++) {
        double rate = cs->graded[i] ? 100.0 * cs->passed[i] / cs->graded[i] : 0;
        sb_puts(sb, "<tr><td>");
        esc(sb, cs->datasets[i]);
        sb_printf(sb, "</td><td class=\"n\">%d of %d</td><td><span class=\"bar\"><span style=\"width:%.0f%%\">"
                      "</span></span>%.0f%%</td></tr>\n", cs->passed[i], cs->graded[i], rate, rate);
    }
    sb_puts(sb, "</table>\n");
}

/* Whether an id can name a feedback page (DIR/<id>.html): batch.c's ids
 * always can; a record edited by hand might not. */
static int id_is_file_name(const char *id)
{
    return *id && id[0] != '.' && !strchr(id, '/') && strlen(id) < 200;
}

/* A record's performance figure: its rate when measured and passing, else 0. */
static double measured_rate(const cJSON *rec)
{
    const cJSON *perf = cJSON_GetObjectItemCaseSensitive(rec, "performance");
    return cJSON_IsObject(perf) && strcmp(json_str(perf, "status", ""), "pass") == 0 ? json_num(perf, "rate") : 0;
}

static int by_rate(const void *a, const void *b)
{
    double x = measured_rate(*(const cJSON *const *)a), y = measured_rate(*(const cJSON *const *)b);
    return x < y ? 1 : x > y ? -1 : 0;
}

/* The opt-in leaderboard (grade or export --leaderboard): the submissions
 * whose performance was measured on a GPU and passed, fastest first, by id
 * only, with the figure and its share of the reference solution's. */
static void leaderboard_section(strbuf *sb, const cJSON *records)
{
    int n = cJSON_GetArraySize(records), k = 0;
    const cJSON **ranked = xcalloc((size_t)n + 1, sizeof *ranked);
    const cJSON *rec;
    cJSON_ArrayForEach(rec, records)
        if (measured_rate(rec) > 0)
            ranked[k++] = rec;
    qsort(ranked, (size_t)k, sizeof *ranked, by_rate);
    sb_puts(sb, "<h2>Leaderboard</h2>\n");
    if (k == 0)
        sb_puts(sb, "<p>No submission's performance was measured (performance points are measured on a GPU, "
                    "for a lab whose lab.json asks for them).</p>\n");
    else
        sb_puts(sb, "<table class=\"leaderboard\">\n<tr><th>rank</th><th>id</th><th>figure</th>"
                    "<th>of the reference's</th></tr>\n");
    for (int i = 0; i < k; i++) {
        const cJSON *perf = cJSON_GetObjectItemCaseSensitive(ranked[i], "performance");
        double ref = json_num(perf, "reference_rate");
        sb_printf(sb, "<tr><td class=\"n\">%d</td><td>", i + 1);
        esc(sb, json_str(ranked[i], "id", "?"));
        sb_printf(sb, "</td><td class=\"n\">%.0f ", measured_rate(ranked[i]));
        esc(sb, json_str(perf, "unit", ""));
        if (ref > 0)
            sb_printf(sb, "</td><td class=\"n\">%.0f%%</td></tr>\n", 100 * measured_rate(ranked[i]) / ref);
        else
            sb_puts(sb, "</td><td></td></tr>\n");
    }
    if (k > 0)
        sb_puts(sb, "</table>\n");
    free(ranked);
}

char *html_class_page(const cJSON *records, const char *lab, const char *source, const char *feedback_href,
                      int leaderboard)
{
    strbuf sb;
    sb_init(&sb);
    char *title = xasprintf("%s: the class", lab);
    page_start(&sb, title);
    free(title);
    class_summary cs;
    class_summary_make(records, &cs);
    sb_puts(&sb, "<h1>");
    esc(&sb, lab);
    sb_printf(&sb, ": %d submission%s</h1>\n", cs.n, cs.n == 1 ? "" : "s");
    summary_section(&sb, &cs);
    class_summary_free(&cs);

    sb_puts(&sb, "<h2>Students</h2>\n<table class=\"students\">\n"
                 "<tr><th>id</th><th>score</th><th>status</th><th>fix this first, and the reason</th>"
                 "<th>global reads</th><th>final</th><th>comment</th></tr>\n");
    const cJSON *rec;
    cJSON_ArrayForEach(rec, records) {
        const char *id = json_str(rec, "id", path_base(json_str(rec, "file", "")));
        sb_puts(&sb, "<tr><td>");
        if (feedback_href && id_is_file_name(id)) {
            sb_puts(&sb, "<a href=\"");
            if (*feedback_href) {
                url_path(&sb, feedback_href, 1);
                sb_puts(&sb, "/");
            }
            url_path(&sb, id, 0);
            sb_puts(&sb, ".html\">");
            esc(&sb, id);
            sb_puts(&sb, "</a>");
        } else {
            esc(&sb, id);
        }
        sb_printf(&sb, "</td><td class=\"n\">%g/%g</td>", json_num(rec, "score"), json_num(rec, "max_score"));
        status_cell(&sb, export_status(rec));
        char *reason = export_reason(rec, source);
        sb_puts(&sb, "<td>");
        fix_first_line(&sb, rec, "span");
        esc_quoted(&sb, reason);
        sb_puts(&sb, "</td><td class=\"n\">");
        reads_words(&sb, rec, counts_figure);
        sb_printf(&sb, "</td><td class=\"n\">%g</td><td>", final_of(rec)); /* the TA's adjustments: adjust.h */
        esc(&sb, json_str(rec, "comment", ""));
        sb_puts(&sb, "</td></tr>\n");
        free(reason);
    }
    sb_puts(&sb, "</table>\n");
    if (leaderboard)
        leaderboard_section(&sb, records);
    page_end(&sb);
    return sb_detach(&sb);
}

/* ---- writing the pages -------------------------------------------------------------- */

/* The URL of folder `to` relative to folder `from` (both existing), or
 * NULL when either cannot be resolved. */
static char *relative_url(const char *from, const char *to)
{
    char *a = realpath(from, NULL), *b = realpath(to, NULL);
    char *rel = NULL;
    if (a && b) {
        /* the components both paths share */
        size_t i = 0, common = 0;
        while (a[i] && a[i] == b[i]) {
            i++;
            if ((a[i] == '/' || !a[i]) && (b[i] == '/' || !b[i]))
                common = i;
        }
        strbuf sb;
        sb_init(&sb);
        for (const char *c = a + common; *c; c++)
            if (*c == '/' && c[1])
                sb_puts(&sb, "../");
        const char *rest = b + common;
        while (*rest == '/')
            rest++;
        sb_puts(&sb, rest);
        if (sb.len == 0)
            sb_puts(&sb, ".");
        else if (sb.buf[sb.len - 1] == '/')
            sb.buf[--sb.len] = '\0';
        rel = sb_detach(&sb);
    }
    free(a);
    free(b);
    return rel;
}

void html_write_reports(const cJSON *records, const char *lab, const char *source, const char *html_path,
                        const char *feedback_dir, int leaderboard)
{
    if (feedback_dir) {
        if (make_private_dirs(feedback_dir) != 0)
            die("--feedback-dir %s: cannot create it: %s", feedback_dir, strerror(errno));
        const cJSON *rec;
        int written = 0;
        cJSON_ArrayForEach(rec, records) {
            const char *id = json_str(rec, "id", "");
            if (!id_is_file_name(id)) {
                fprintf(stderr, "gpulab: no feedback page for the record with id '%s': not usable as a file name\n",
                        id);
                continue;
            }
            char *path = xasprintf("%s/%s.html", feedback_dir, id);
            char *page = html_student_page(rec, source);
            if (write_output(path, page, strlen(page)) != 0)
                die("cannot write %s: %s", path, strerror(errno));
            free(page);
            free(path);
            written++;
        }
        fprintf(stderr, "gpulab: %d feedback page%s in %s\n", written, written == 1 ? "" : "s", feedback_dir);
    }
    if (!html_path)
        return;
    char *href = NULL;
    if (feedback_dir) {
        if (strcmp(html_path, "-") == 0) {
            href = xstrdup(feedback_dir); /* relative to where the page is saved: the working folder, we guess */
        } else {
            char *folder = path_dirname(html_path);
            href = relative_url(folder, feedback_dir);
            if (!href)
                die("cannot write %s: %s", html_path, strerror(errno));
            free(folder);
        }
    }
    char *page = html_class_page(records, lab, source, href, leaderboard);
    if (write_output(html_path, page, strlen(page)) != 0)
        die("cannot write %s: %s", html_path, strerror(errno));
    free(page);
    free(href);
}
