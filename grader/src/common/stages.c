/*
 * stages.c - see stages.h.
 */
#include "stages.h"

#include <cJSON.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

double stage_clock(void)
{
    return monotonic_s();
}

static void add_named(stage_times *t, const char *name, double seconds)
{
    if (seconds < 0)
        seconds = 0;
    for (int i = 0; i < t->n; i++)
        if (strcmp(t->t[i].name, name) == 0) {
            t->t[i].seconds += seconds;
            return;
        }
    if (t->n == STAGES_MAX) {
        /* the last slot is "other" once full (never a lab's: 48 is more
         * stages than any lab's datasets give) */
        snprintf(t->t[STAGES_MAX - 1].name, STAGE_NAME_MAX, "other");
        t->t[STAGES_MAX - 1].seconds += seconds;
        return;
    }
    snprintf(t->t[t->n].name, STAGE_NAME_MAX, "%s", name);
    t->t[t->n].seconds = seconds;
    t->n++;
}

double stage_add(stage_times *t, double started, const char *fmt, ...)
{
    char name[STAGE_NAME_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    double now = stage_clock();
    add_named(t, name, now - started);
    return now;
}

void stage_add_seconds(stage_times *t, double seconds, const char *fmt, ...)
{
    if (!(seconds > 0))
        return;
    char name[STAGE_NAME_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(name, sizeof name, fmt, ap);
    va_end(ap);
    add_named(t, name, seconds);
}

cJSON *stages_json(const stage_times *t)
{
    cJSON *o = cJSON_CreateObject();
    for (int i = 0; i < t->n; i++)
        cJSON_AddNumberToObject(o, t->t[i].name, round(t->t[i].seconds * 1000) / 1000);
    return o;
}

void stages_text(strbuf *out, const stage_times *t)
{
    for (int i = 0; i < t->n; i++)
        sb_printf(out, "%s%s %.3f s", i ? ", " : "", t->t[i].name, t->t[i].seconds);
}
