/*
 * export_csv.c - the CSV gradebook: one row per record (export.h).
 */
#include "export.h"
#include "json.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void csv_field(strbuf *sb, const char *s)
{
    /* a spreadsheet must not take a cell for a formula: every text cell
     * that starts as one could ("-1-1" is one too; the numbers are written
     * apart, never through here) is quoted and starts with an apostrophe */
    int formula = s[0] && strchr("=+-@\t\r", s[0]) != NULL;
    if (!formula && !strpbrk(s, ",\"\r\n")) {
        sb_puts(sb, s);
        return;
    }
    sb_puts(sb, "\"");
    if (formula)
        sb_puts(sb, "'");
    for (const char *c = s; *c; c++) {
        if (*c == '"')
            sb_puts(sb, "\"");
        sb_append(sb, c, 1);
    }
    sb_puts(sb, "\"");
}

char *export_csv(const cJSON *records, const char *source)
{
    char **ds = NULL, **rq = NULL;
    int nds = 0, nrq = 0;
    const cJSON *rec, *d;
    cJSON_ArrayForEach(rec, records) {
        cJSON_ArrayForEach(d, json_arr(rec, "datasets"))
            export_add_name(&ds, &nds, json_str(d, "name", ""));
        cJSON_ArrayForEach(d, json_arr(rec, "requirements"))
            export_add_name(&rq, &nrq, json_str(d, "name", ""));
    }
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "id,total,max,status,reason,late_days,adjustment,final,comment");
    for (int i = 0; i < nds; i++) {
        sb_puts(&sb, ",");
        csv_field(&sb, ds[i]);
    }
    for (int i = 0; i < nds; i++) {
        char *h = xasprintf("st:%s", ds[i]);
        sb_puts(&sb, ",");
        csv_field(&sb, h);
        free(h);
    }
    for (int i = 0; i < nrq; i++) {
        char *h = xasprintf("req:%s", rq[i]);
        sb_puts(&sb, ",");
        csv_field(&sb, h);
        free(h);
    }
    sb_puts(&sb, "\r\n");
    cJSON_ArrayForEach(rec, records) {
        csv_field(&sb, json_str(rec, "id", json_str(rec, "file", "")));
        sb_printf(&sb, ",%g,%g,%s,", json_num(rec, "score"), json_num(rec, "max_score"), export_status(rec));
        char *reason = export_reason(rec, source);
        csv_field(&sb, reason);
        free(reason);
        /* the adjustments (adjust.h): final is the score where there are none */
        const cJSON *final = cJSON_GetObjectItemCaseSensitive(rec, "final");
        sb_printf(&sb, ",%g,%g,%g,", json_num(rec, "late_days"), json_num(rec, "adjustment"),
                  cJSON_IsNumber(final) ? final->valuedouble : json_num(rec, "score"));
        csv_field(&sb, json_str(rec, "comment", ""));
        for (int i = 0; i < nds; i++) {
            const cJSON *e = export_find_named(json_arr(rec, "datasets"), ds[i]);
            if (e)
                sb_printf(&sb, ",%g", json_num(e, "score"));
            else
                sb_puts(&sb, ",");
        }
        for (int i = 0; i < nds; i++) {
            const cJSON *e = export_find_named(json_arr(rec, "datasets"), ds[i]);
            sb_printf(&sb, ",%s", e ? json_str(e, "status", "") : "");
        }
        for (int i = 0; i < nrq; i++) {
            const cJSON *e = export_find_named(json_arr(rec, "requirements"), rq[i]);
            if (e)
                sb_printf(&sb, ",%g", json_num(e, "score"));
            else
                sb_puts(&sb, ",");
        }
        sb_puts(&sb, "\r\n");
    }
    free(ds);
    free(rq);
    return sb_detach(&sb);
}
