/*
 * export.c - what every export reads of a record: its overall word
 * (export_status), why it has it (export_reason), the records of a folder,
 * and the name tallies the reasons and the summary count with. Each format
 * has a file of its own: export_csv.c, export_junit.c, export_gradescope.c,
 * summary.c (export.h).
 */
#define _GNU_SOURCE
#include "export.h"
#include "json.h"
#include "run.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *export_status(const cJSON *rec)
{
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    int built = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(build, "ok"));
    int any_grader = 0, all_pass = 1, unchecked = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
        const char *s = json_str(d, "status", "");
        any_grader |= strcmp(s, "grader_error") == 0;
        all_pass &= strcmp(s, "pass") == 0;
    }
    cJSON_ArrayForEach(d, json_arr(rec, "requirements")) {
        const char *s = json_str(d, "status", "");
        if (strcmp(s, "not_checked") == 0)
            unchecked = 1;
        else
            all_pass &= strcmp(s, "pass") == 0;
    }
    if (any_grader)
        return "grader_error";
    if (!built) {
        const char *msg = json_str(build, "message", "");
        if (strncmp(msg, "refused:", 8) == 0)
            return "refused";
        return strstr(msg, "has no ") && strstr(msg, "the folder ") ? "missing" : "compile_error";
    }
    /* a final of 0 (late days, points taken: adjust.h) is no pass, whatever was right */
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(rec, "final");
    if (cJSON_IsNumber(final) && final->valuedouble <= 0 && json_num(rec, "max_score") > 0)
        return "fail";
    /* everything checked passed, but not everything was checked: not a pass */
    return !all_pass ? "fail" : unchecked ? "not_checked" : "pass";
}

void export_add_name(char ***names, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*names)[i], name) == 0)
            return;
    *names = xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
    (*names)[(*n)++] = (char *)name;
}

const cJSON *export_find_named(const cJSON *list, const char *name)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, list)
        if (strcmp(json_str(d, "name", ""), name) == 0)
            return d;
    return NULL;
}

/* Adds one to the count of name in a small name -> count table (copies of
 * the names); returns the new count, so 1 means seen for the first time. */
int export_count_name(char ***names, int **counts, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*names)[i], name) == 0)
            return ++(*counts)[i];
    *names = xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
    *counts = xrealloc(*counts, (size_t)(*n + 1) * sizeof **counts);
    (*names)[*n] = xstrdup(name);
    (*counts)[*n] = 1;
    (*n)++;
    return 1;
}

void export_free_counts(char **names, int *counts, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(counts);
}

/* What may come before a path: the start of the text or a word's edge. */
static int path_may_start_after(char c)
{
    return strchr(" \t\r\n'\"`(<[{=:,;", c) != NULL;
}

/* What ends a path: white space, quotes, brackets, and the ':' of
 * "file.cu:12:" (the compiler's line numbers stay). */
static int ends_path(char c)
{
    return c == '\0' || strchr(" \t\r\n'\"`()<>[]{},;:", c) != NULL;
}

char *export_private_paths(const char *text)
{
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "");
    const char *c = text ? text : "";
    while (*c) {
        int starts = *c == '/' && (c == text || path_may_start_after(c[-1])) && c[1] && c[1] != '/' &&
                     !ends_path(c[1]);
        if (!starts) {
            sb_append(&sb, c, 1);
            c++;
            continue;
        }
        const char *end = c;
        while (!ends_path(*end))
            end++;
        const char *last = end; /* the last component, trailing '/' left out */
        while (last > c && last[-1] == '/')
            last--;
        const char *stop = last;
        while (last > c && last[-1] != '/')
            last--;
        if (last - 1 == c) /* one component ("/2", "/dev"): not a path of this machine's folders */
            sb_append(&sb, c, (size_t)(end - c));
        else
            sb_append(&sb, last, (size_t)(stop - last));
        c = end;
    }
    return sb_detach(&sb);
}

/* Why a submission has its status, in a few words for the gradebook:
 * "id clash: 's1001 smith' and 's1001_smith' would all be s1001_smith; this
 * one is graded as s1001_smith-2", "misnamed file (matmul.cu, not
 * tiled_matmul.cu)", "race at lines 41/52",
 * "timeout on 8 datasets", "nothing written on 9 datasets", "requirement
 * barrier not met", and the record's points not checked ("6 points not
 * checked: [global_reuse] and [no_hazards] need the checkers; ..."). Empty
 * for a pass. source: the lab's file name. */
char *export_reason(const cJSON *rec, const char *source)
{
    strbuf sb;
    sb_init(&sb);
    const char *status = export_status(rec);
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    const char *clash = json_str(rec, "id_clash", NULL);
    if (clash)
        sb_puts(&sb, clash);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "misnamed")))
        sb_printf(&sb, "%smisnamed file (%s%s%s)", sb.len ? "; " : "", path_base(json_str(rec, "file", "")),
                  source ? ", not " : "", source ? source : "");
    if (strcmp(status, "compile_error") == 0 || strcmp(status, "missing") == 0 || strcmp(status, "refused") == 0) {
        const char *msg = json_str(build, "message", "");
        const char *has = strstr(msg, " has no ");
        if (strcmp(status, "missing") == 0) /* "no basic_matmul.cu but 2 other .cu files: which one is it?" */
            sb_printf(&sb, "%smissing: %s", sb.len ? "; " : "", has ? has + 5 : "no file handed in");
        else
            sb_printf(&sb, "%s%s", sb.len ? "; " : "", msg);
    }
    /* checker findings, each once: "race at lines 41/52" */
    char **seen = NULL;
    int *times = NULL, nseen = 0;
    const cJSON *d, *f;
    cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
        const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer");
        cJSON_ArrayForEach(f, json_arr(san, "findings")) {
            const cJSON *l2 = cJSON_GetObjectItemCaseSensitive(f, "line2");
            char *what = cJSON_IsNumber(l2) ? xasprintf("%s at lines %g/%g", json_str(f, "kind", "?"), json_num(f, "line"), l2->valuedouble)
                                            : xasprintf("%s at line %g", json_str(f, "kind", "?"), json_num(f, "line"));
            if (export_count_name(&seen, &times, &nseen, what) == 1)
                sb_printf(&sb, "%s%s", sb.len ? "; " : "", what);
            free(what);
        }
    }
    export_free_counts(seen, times, nseen);
    /* the datasets that did not pass, by status ("nothing written" for
     * outputs no thread wrote) */
    if (strcmp(status, "compile_error") != 0 && strcmp(status, "missing") != 0 && strcmp(status, "refused") != 0) {
        static const char *const kinds[] = { "timeout", "crash", "cuda_error", "no_output", "unsafe", "wrong",
                                             "grader_error" };
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            int count = 0, blank = 0, flood = 0, several = 0;
            char **named = NULL; /* the mistakes the inputs reproduced, with how often */
            int *times_named = NULL, nnamed = 0;
            cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
                if (strcmp(json_str(d, "status", ""), kinds[k]) != 0)
                    continue;
                count++;
                blank += strstr(json_str(d, "message", ""), "nothing was written") != NULL;
                /* the capture is full: the program printed at least that much */
                flood += strlen(json_str(d, "stdout", "")) + strlen(json_str(d, "stderr", "")) >= RUN_CAPTURE_CAP;
                /* a pattern in one element is no evidence of a mistake: a 1x1 output matches many */
                const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(d, "comparison");
                const char *m = json_str(cmp, "mistake", "");
                if (json_num(cmp, "elements") > 1) {
                    several++;
                    if (*m)
                        export_count_name(&named, &times_named, &nnamed, m);
                }
            }
            /* the gradebook names a mistake only where at least half of the
             * datasets that could show one bear it out: a pattern that fits a
             * small image (a shift that covers all of a 5 x 7 tile) but none
             * of the larger ones is not the file's mistake */
            const char *mistake = NULL;
            int best = 0;
            for (int i = 0; i < nnamed; i++)
                if (times_named[i] > best) {
                    best = times_named[i];
                    mistake = named[i];
                }
            if (2 * best < several)
                mistake = NULL;
            if (count)
                sb_printf(&sb, "%s%s on %d dataset%s", sb.len ? "; " : "",
                          blank == count ? "nothing written" : kinds[k], count, count == 1 ? "" : "s");
            if (count && flood == count)
                sb_printf(&sb, " (an output flood: %d KiB or more printed)", RUN_CAPTURE_CAP / 1024);
            if (count && mistake)
                sb_printf(&sb, " (%s)", mistake);
            export_free_counts(named, times_named, nnamed);
        }
        cJSON_ArrayForEach(d, json_arr(rec, "requirements"))
            if (strcmp(json_str(d, "status", ""), "requirement_failed") == 0)
                sb_printf(&sb, "%srequirement %s not met", sb.len ? "; " : "", json_str(d, "name", "?"));
    }
    /* the points in the maximum that nothing checked (report.c's sentence) */
    const char *unchecked = json_str(cJSON_GetObjectItemCaseSensitive(rec, "not_checked"), "message", "");
    if (*unchecked)
        sb_printf(&sb, "%s%s", sb.len ? "; " : "", unchecked);
    /* the TA's adjustments (adjust.h), when they change the final */
    double days = json_num(rec, "late_days"), penalty = json_num(rec, "late_penalty");
    double points = json_num(rec, "adjustment");
    if (days > 0)
        sb_printf(&sb, "%s%g late day%s (-%g)", sb.len ? "; " : "", days, days == 1 ? "" : "s", penalty);
    if (points != 0)
        sb_printf(&sb, "%sadjusted %+g", sb.len ? "; " : "", points);
    const cJSON *final = cJSON_GetObjectItemCaseSensitive(rec, "final");
    if (cJSON_IsNumber(final) && final->valuedouble <= 0 && json_num(rec, "score") > 0)
        sb_printf(&sb, "%sfinal 0", sb.len ? "; " : "");
    char *text = sb_detach(&sb);
    char *shown = export_private_paths(text); /* the gradebook is shared with students */
    free(text);
    return shown;
}


/* ---- records ---------------------------------------------------------------------- */

cJSON *export_load_records(const char *dir, const char *id)
{
    DIR *d = opendir(dir);
    if (!d)
        die("cannot open %s: %s", dir, strerror(errno));
    char **names = NULL;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        size_t len = strlen(e->d_name);
        if (e->d_name[0] == '.' || len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        names = xrealloc(names, (size_t)(n + 1) * sizeof *names);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    for (int i = 1; i < n; i++) /* name order */
        for (int j = i; j > 0 && strcmp(names[j - 1], names[j]) > 0; j--) {
            char *t = names[j];
            names[j] = names[j - 1];
            names[j - 1] = t;
        }
    cJSON *recs = cJSON_CreateArray();
    for (int i = 0; i < n; i++) {
        char *path = xasprintf("%s/%s", dir, names[i]);
        char *text = read_file(path, NULL);
        cJSON *rec = text ? cJSON_Parse(text) : NULL;
        const cJSON *rl = rec ? cJSON_GetObjectItemCaseSensitive(rec, "lab") : NULL;
        if (rec && cJSON_IsString(rl) && strcmp(rl->valuestring, id) == 0)
            cJSON_AddItemToArray(recs, rec);
        else {
            fprintf(stderr, "gpulab: skipping %s (not a record of %s)\n", path, id);
            cJSON_Delete(rec);
        }
        free(text);
        free(path);
        free(names[i]);
    }
    free(names);
    return recs;
}
