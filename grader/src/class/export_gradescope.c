/*
 * export_gradescope.c - Gradescope's results.json for one record (export.h).
 */
#include "export.h"
#include "json.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cJSON *gs_test(const char *name, int number, const cJSON *e, int hidden)
{
    cJSON *t = cJSON_CreateObject();
    char numtext[16];
    snprintf(numtext, sizeof numtext, "%d", number);
    const char *status = json_str(e, "status", "");
    cJSON_AddStringToObject(t, "name", name);
    cJSON_AddStringToObject(t, "number", numtext);
    cJSON_AddNumberToObject(t, "score", json_num(e, "score"));
    cJSON_AddNumberToObject(t, "max_score", json_num(e, "max_score"));
    cJSON_AddStringToObject(t, "status", strcmp(status, "pass") == 0 ? "passed" : "failed");
    char *out = xasprintf("%s: %s", status, json_str(e, "message", ""));
    char *shown = export_private_paths(out);
    cJSON_AddStringToObject(t, "output", shown);
    free(shown);
    free(out);
    cJSON_AddStringToObject(t, "visibility", hidden ? "hidden" : "visible");
    return t;
}

cJSON *export_gradescope(const cJSON *rec)
{
    cJSON *o = cJSON_CreateObject();
    /* the final (adjust.h): the tests' points stay the grader's */
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(rec, "final");
    cJSON_AddNumberToObject(o, "score", cJSON_IsNumber(final) ? final->valuedouble : json_num(rec, "score"));
    cJSON_AddNumberToObject(o, "execution_time", json_num(rec, "grading_s"));
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    strbuf out;
    sb_init(&out);
    sb_printf(&out, "%s: %g of %g points (%s, %s).\n", json_str(rec, "lab", ""), json_num(rec, "score"),
              json_num(rec, "max_score"), export_status(rec), json_str(rec, "device", ""));
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(build, "ok"))) {
        sb_printf(&out, "\nThe build failed: %s\n", json_str(build, "message", ""));
        const char *log = json_str(build, "log", "");
        size_t len = strlen(log);
        if (len > 8000) {
            sb_puts(&out, "...\n");
            log += len - 8000;
        }
        sb_puts(&out, log);
    }
    /* The diagnosis stays visible where the datasets are hidden: statuses,
     * the hints read from the pattern of the errors, and the checkers'
     * findings with their lines; never a value of a hidden dataset. */
    if (cJSON_IsNumber(final) && final->valuedouble != json_num(rec, "score")) {
        sb_printf(&out, "Final: %g of %g", final->valuedouble, json_num(rec, "max_score"));
        if (json_num(rec, "late_days") > 0)
            sb_printf(&out, " (%g late days: -%g)", json_num(rec, "late_days"), json_num(rec, "late_penalty"));
        if (json_num(rec, "adjustment") != 0)
            sb_printf(&out, " (adjusted %+g)", json_num(rec, "adjustment"));
        sb_puts(&out, ".\n");
    }
    if (*json_str(rec, "comment", ""))
        sb_printf(&out, "Comment: %s\n", json_str(rec, "comment", ""));
    if (strncmp(json_str(rec, "sandbox", ""), "none", 4) == 0)
        sb_puts(&out, "(Graded without isolation: this autograder's container does not allow it.)\n");
    char *reason = export_reason(rec, NULL);
    if (*reason)
        sb_printf(&out, "\nWhat went wrong: %s.\n", reason);
    free(reason);
    char **seen = NULL;
    int *times = NULL, nseen = 0;
    const cJSON *ds, *f;
    cJSON_ArrayForEach(ds, json_arr(rec, "datasets")) {
        const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(ds, "comparison");
        const char *hint = json_str(cmp, "hint", "");
        if (strcmp(json_str(ds, "status", ""), "pass") != 0)
            sb_printf(&out, "%s %s: %s%s%s\n", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ds, "hidden")) ?
                      "hidden dataset" : "dataset", json_str(ds, "name", ""), json_str(ds, "status", ""),
                      *hint ? "; hint: " : "", hint);
        cJSON_ArrayForEach(f, json_arr(cJSON_GetObjectItemCaseSensitive(ds, "sanitizer"), "findings"))
            if (export_count_name(&seen, &times, &nseen, json_str(f, "message", "")) == 1)
                sb_printf(&out, "checker (%s, line %g): %s\n", json_str(f, "kind", "?"), json_num(f, "line"),
                          json_str(f, "message", ""));
    }
    export_free_counts(seen, times, nseen);
    char *shown = export_private_paths(out.buf); /* the student sees it: none of the grader's folders */
    cJSON_AddStringToObject(o, "output", shown);
    free(shown);
    sb_free(&out);
    cJSON_AddStringToObject(o, "visibility", "visible");
    cJSON_AddStringToObject(o, "stdout_visibility", "hidden");
    cJSON *tests = cJSON_AddArrayToObject(o, "tests");
    int number = 1;
    const cJSON *e;
    cJSON_ArrayForEach(e, json_arr(rec, "datasets")) {
        int hidden = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "hidden"));
        char *name = xasprintf("%s%s", hidden ? "hidden dataset " : "dataset ", json_str(e, "name", ""));
        cJSON_AddItemToArray(tests, gs_test(name, number++, e, hidden));
        free(name);
    }
    cJSON_ArrayForEach(e, json_arr(rec, "requirements")) {
        char *name = xasprintf("requirement %s", json_str(e, "name", ""));
        cJSON_AddItemToArray(tests, gs_test(name, number++, e, 0));
        free(name);
    }
    const cJSON *perf = cJSON_GetObjectItemCaseSensitive(rec, "performance");
    if (cJSON_IsObject(perf)) {
        if (json_num(perf, "max_score") > 0)
            cJSON_AddItemToArray(tests, gs_test("performance", number++, perf, 0));
        /* Gradescope's leaderboard: the figure of a measured, passing run. */
        if (json_num(perf, "rate") > 0 && strcmp(json_str(perf, "status", ""), "pass") == 0) {
            cJSON *board = cJSON_AddArrayToObject(o, "leaderboard");
            cJSON *entry = cJSON_CreateObject();
            cJSON_AddStringToObject(entry, "name", json_str(perf, "unit", ""));
            cJSON_AddNumberToObject(entry, "value", json_num(perf, "rate"));
            cJSON_AddStringToObject(entry, "order", "desc");
            cJSON_AddItemToArray(board, entry);
        }
    }
    return o;
}
