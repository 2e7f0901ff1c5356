/*
 * adjust.c - the TA's adjustments applied to a class's records (adjust.h).
 *
 * The file is the TA's, but its ids and comments often come from an LMS
 * export, so it is read as RFC 4180 CSV (quoted fields, "" for a quote,
 * CRLF or LF, a UTF-8 byte order mark), and every problem is said with its
 * line.
 */
#include "adjust.h"
#include "batch.h"
#include "json.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { COL_ID, COL_LATE_DAYS, COL_POINTS, COL_COMMENT, NCOLS };
static const char *const column_names[NCOLS] = { "id", "late_days", "points", "comment" };

typedef struct {
    char **cells;
    int n;
    int line;       /* the line the row starts on */
} csv_row;

typedef struct {
    char *id;       /* cleaned */
    double late_days, points;
    char *comment;
    int line;
    int used;
} adjustment;

static void row_free(csv_row *r)
{
    for (int i = 0; i < r->n; i++)
        free(r->cells[i]);
    free(r->cells);
    r->cells = NULL;
    r->n = 0;
}

/* The next row from *p (advanced past it); 0 at the end of the text. */
static int next_row(const char **p, int *line, csv_row *r, const char *file)
{
    const char *c = *p;
    if (!*c)
        return 0;
    r->cells = NULL;
    r->n = 0;
    r->line = *line;
    strbuf cell;
    sb_init(&cell);
    sb_puts(&cell, "");
    int quoted = 0, was_quoted = 0;
    for (;;) {
        if (quoted) {
            if (!*c)
                die("%s:%d: a quoted field is not closed", file, r->line);
            if (*c == '"' && c[1] == '"') {
                sb_append(&cell, "\"", 1);
                c += 2;
            } else if (*c == '"') {
                quoted = 0;
                c++;
            } else {
                *line += *c == '\n';
                sb_append(&cell, c++, 1);
            }
            continue;
        }
        if (*c == '"' && cell.len == 0 && !was_quoted) {
            quoted = was_quoted = 1;
            c++;
        } else if (*c == ',' || *c == '\n' || *c == '\r' || !*c) {
            r->cells = xrealloc(r->cells, (size_t)(r->n + 1) * sizeof *r->cells);
            r->cells[r->n++] = sb_detach(&cell);
            sb_init(&cell);
            sb_puts(&cell, "");
            was_quoted = 0;
            if (*c == ',') {
                c++;
                continue;
            }
            if (*c == '\r')
                c++;
            if (*c == '\n')
                c++;
            (*line)++;
            break;
        } else if (was_quoted) {
            die("%s:%d: text after a quoted field's closing quote", file, r->line);
        } else {
            sb_append(&cell, c++, 1);
        }
    }
    sb_free(&cell);
    *p = c;
    return 1;
}

/* A cell without the spaces around it, in place. */
static char *trim(char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        s[--n] = '\0';
    return s;
}

static double number_cell(char *text, double lo, double hi, const char *file, int line, const char *col)
{
    char *t = trim(text), *end;
    if (!*t)
        return 0;
    errno = 0;
    double v = strtod(t, &end);
    if (errno || *end || !isfinite(v) || v < lo || v > hi)
        die("%s:%d: %s \"%s\": expected a number from %g to %g", file, line, col, t, lo, hi);
    return v;
}

static adjustment *read_adjustments(const char *file, int *count)
{
    char *why = NULL;
    char *text = untrusted_read(file, 16 << 20, 1, NULL, &why);
    if (!text)
        die("--adjustments: %s", why);
    const char *p = text;
    if (strncmp(p, "\xef\xbb\xbf", 3) == 0) /* a spreadsheet's byte order mark */
        p += 3;
    int line = 1;
    csv_row header;
    if (!next_row(&p, &line, &header, file))
        die("%s: empty; expected a header line id,late_days,points,comment (any but id may be left out)", file);
    int where[NCOLS] = { -1, -1, -1, -1 };
    for (int i = 0; i < header.n; i++) {
        const char *name = trim(header.cells[i]);
        int k = 0;
        while (k < NCOLS && strcasecmp(name, column_names[k]) != 0)
            k++;
        if (k == NCOLS)
            die("%s:1: column \"%s\": expected id, late_days, points and comment (any but id may be left out)",
                file, name);
        if (where[k] >= 0)
            die("%s:1: column %s twice", file, column_names[k]);
        where[k] = i;
    }
    if (where[COL_ID] < 0)
        die("%s:1: no id column; the header is id,late_days,points,comment (any but id may be left out)", file);
    adjustment *v = NULL;
    int n = 0;
    csv_row r;
    while (next_row(&p, &line, &r, file)) {
        if (r.n == 1 && !*trim(r.cells[0])) { /* a blank line */
            row_free(&r);
            continue;
        }
        if (r.n > header.n)
            die("%s:%d: %d fields, but the header names %d (quote a comment that holds a comma)", file, r.line,
                r.n, header.n);
        adjustment a = { 0 };
        a.line = r.line;
        const char *raw = where[COL_ID] < r.n ? trim(r.cells[where[COL_ID]]) : "";
        if (!*raw)
            die("%s:%d: no id", file, r.line);
        a.id = batch_clean_id(raw);
        if (where[COL_LATE_DAYS] >= 0 && where[COL_LATE_DAYS] < r.n)
            a.late_days = number_cell(r.cells[where[COL_LATE_DAYS]], 0, 3650, file, r.line, "late_days");
        if (where[COL_POINTS] >= 0 && where[COL_POINTS] < r.n)
            a.points = number_cell(r.cells[where[COL_POINTS]], -1e9, 1e9, file, r.line, "points");
        a.comment = xstrdup(where[COL_COMMENT] >= 0 && where[COL_COMMENT] < r.n ? trim(r.cells[where[COL_COMMENT]])
                                                                               : "");
        for (int i = 0; i < n; i++)
            if (strcmp(v[i].id, a.id) == 0)
                die("%s:%d: %s again (line %d has it too; ids are matched as grade cleans folder names)", file,
                    r.line, a.id, v[i].line);
        v = xrealloc(v, (size_t)(n + 1) * sizeof *v);
        v[n++] = a;
        row_free(&r);
    }
    row_free(&header);
    free(text);
    *count = n;
    return v;
}

double adjust_parse_percent(const char *text)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    if (end != text && *end == '%')
        end++;
    if (errno || end == text || *end || !isfinite(v) || v < 0 || v > 100)
        return -1;
    return v;
}

/* To a thousandth of a point: no 7.199999999 in a gradebook. */
static double points_rounded(double x)
{
    return round(x * 1000) / 1000;
}

static void set_number(cJSON *rec, const char *key, double v)
{
    cJSON_DeleteItemFromObjectCaseSensitive(rec, key);
    cJSON_AddNumberToObject(rec, key, v);
}

void adjust_records(cJSON *records, const adjust_options *o)
{
    int n = 0;
    adjustment *v = o->file ? read_adjustments(o->file, &n) : NULL;
    int late_without_penalty = 0;
    cJSON *rec;
    cJSON_ArrayForEach(rec, records) {
        const char *id = json_str(rec, "id", "");
        adjustment *a = NULL;
        for (int i = 0; i < n && !a; i++)
            if (strcmp(v[i].id, id) == 0)
                a = &v[i];
        double score = json_num(rec, "score"), max = json_num(rec, "max_score");
        double days = a ? a->late_days : 0, points = a ? a->points : 0;
        double penalty = score * fmin(1, days * o->late_penalty / 100);
        double final = fmin(max, fmax(0, score - penalty + points));
        late_without_penalty |= days > 0 && o->late_penalty == 0;
        set_number(rec, "late_days", days);
        set_number(rec, "late_penalty", points_rounded(penalty));
        set_number(rec, "adjustment", points);
        set_number(rec, "final", points_rounded(final));
        cJSON_DeleteItemFromObjectCaseSensitive(rec, "comment");
        cJSON_AddStringToObject(rec, "comment", a ? a->comment : "");
        if (a)
            a->used = 1;
    }
    for (int i = 0; i < n; i++) {
        if (!v[i].used)
            fprintf(stderr, "gpulab: %s:%d: no submission has the id %s; that line is not applied\n", o->file,
                    v[i].line, v[i].id);
        free(v[i].id);
        free(v[i].comment);
    }
    free(v);
    if (late_without_penalty)
        fprintf(stderr, "gpulab: %s gives late days, but the late penalty is 0%%: give --late-penalty PCT\n",
                o->file);
}
