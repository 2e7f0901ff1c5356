/*
 * findings.c - see findings.h.
 */
#include "findings.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line n (1-based) of the student's file, trimmed, for quoting; "" if none. */
static char *source_line(const char *file, int n)
{
    char *text = file ? read_file(file, NULL) : NULL;
    if (!text || n < 1) {
        free(text);
        return xstrdup("");
    }
    const char *p = text;
    for (int i = 1; i < n && p; i++) {
        p = strchr(p, '\n');
        if (p)
            p++;
    }
    char *out;
    if (!p) {
        out = xstrdup("");
    } else {
        while (*p == ' ' || *p == '\t')
            p++;
        size_t len = strcspn(p, "\n");
        while (len > 0 && (p[len - 1] == ' ' || p[len - 1] == '\r'))
            len--;
        out = len > 70 ? xasprintf("%.67s...", p) : xasprintf("%.*s", (int)len, p);
    }
    free(text);
    return out;
}

static char *quote(const char *file, int line)
{
    char *src = source_line(file, line);
    char *q = *src ? xasprintf("line %d (`%s`)", line, src) : xasprintf("line %d", line);
    free(src);
    return q;
}

/* A checker's location: the student's line, quoted, when it is in the
 * student's file; else FILE:LINE, never passed off as a line of theirs (an
 * inline function of a library header the student's call reached). */
static char *quote_at(const char *student, const char *file, int line)
{
    if (student && file && strcmp(path_base(file), path_base(student)) == 0)
        return quote(student, line);
    return xasprintf("%s:%d", file ? path_base(file) : "?", line);
}

char *sanitize_quote(const char *file, int line)
{
    return quote(file, line);
}

char *sanitize_quote_at(const char *student, const char *file, int line)
{
    return quote_at(student, file, line);
}

int sanitize_has_race(const sanitize_result *r)
{
    for (int i = 0; i < r->nfindings; i++)
        if (strcmp(r->findings[i].kind, "race") == 0)
            return 1;
    return 0;
}

void sanitize_result_free(sanitize_result *r)
{
    for (int i = 0; i < r->nfindings; i++)
        free(r->findings[i].message);
    free(r->problem);
    fault_threads_free(&r->faults);
    free(r->fault_summary);
    fault_threads_free(&r->races);
    free(r->race_summary);
    tiles_free(&r->tiles);
    memset(r, 0, sizeof *r);
}
