/*
 * export.c - see export.h.
 */
#define _GNU_SOURCE
#include "export.h"
#include "json.h"
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
    /* everything checked passed, but not everything was checked: not a pass */
    return !all_pass ? "fail" : unchecked ? "not_checked" : "pass";
}

/* ---- CSV ---------------------------------------------------------------------- */

static void csv_field(strbuf *sb, const char *s)
{
    /* a spreadsheet must not take a cell for a formula */
    int formula = s[0] == '=' || s[0] == '+' || s[0] == '@' || (s[0] == '-' && s[1] && !(s[1] >= '0' && s[1] <= '9'));
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

static void add_name(char ***names, int *n, const char *name)
{
    for (int i = 0; i < *n; i++)
        if (strcmp((*names)[i], name) == 0)
            return;
    *names = xrealloc(*names, (size_t)(*n + 1) * sizeof **names);
    (*names)[(*n)++] = (char *)name;
}

static const cJSON *find_named(const cJSON *list, const char *name)
{
    const cJSON *d;
    cJSON_ArrayForEach(d, list)
        if (strcmp(json_str(d, "name", ""), name) == 0)
            return d;
    return NULL;
}

/* Adds one to the count of name in a small name -> count table (copies of
 * the names); returns the new count, so 1 means seen for the first time. */
static int count_name(char ***names, int **counts, int *n, const char *name)
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

static void free_counts(char **names, int *counts, int n)
{
    for (int i = 0; i < n; i++)
        free(names[i]);
    free(names);
    free(counts);
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
        sb_printf(&sb, "%s%s", sb.len ? "; " : "", strcmp(status, "missing") == 0 ? "missing or misnamed file" : msg);
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
            if (count_name(&seen, &times, &nseen, what) == 1)
                sb_printf(&sb, "%s%s", sb.len ? "; " : "", what);
            free(what);
        }
    }
    free_counts(seen, times, nseen);
    /* the datasets that did not pass, by status ("nothing written" for
     * outputs no thread wrote) */
    if (strcmp(status, "compile_error") != 0 && strcmp(status, "missing") != 0 && strcmp(status, "refused") != 0) {
        static const char *const kinds[] = { "timeout", "crash", "cuda_error", "no_output", "unsafe", "wrong",
                                             "grader_error" };
        for (size_t k = 0; k < sizeof kinds / sizeof *kinds; k++) {
            int count = 0, blank = 0;
            const char *mistake = NULL; /* the first mistake the inputs reproduced, if any */
            cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
                if (strcmp(json_str(d, "status", ""), kinds[k]) != 0)
                    continue;
                count++;
                blank += strstr(json_str(d, "message", ""), "nothing was written") != NULL;
                const char *m = json_str(cJSON_GetObjectItemCaseSensitive(d, "comparison"), "mistake", "");
                if (!mistake && *m)
                    mistake = m;
            }
            if (count)
                sb_printf(&sb, "%s%s on %d dataset%s", sb.len ? "; " : "",
                          blank == count ? "nothing written" : kinds[k], count, count == 1 ? "" : "s");
            if (count && mistake)
                sb_printf(&sb, " (%s)", mistake);
        }
        cJSON_ArrayForEach(d, json_arr(rec, "requirements"))
            if (strcmp(json_str(d, "status", ""), "requirement_failed") == 0)
                sb_printf(&sb, "%srequirement %s not met", sb.len ? "; " : "", json_str(d, "name", "?"));
    }
    /* the points in the maximum that nothing checked (report.c's sentence) */
    const char *unchecked = json_str(cJSON_GetObjectItemCaseSensitive(rec, "not_checked"), "message", "");
    if (*unchecked)
        sb_printf(&sb, "%s%s", sb.len ? "; " : "", unchecked);
    return sb_detach(&sb);
}

char *export_csv(const cJSON *records, const char *source)
{
    char **ds = NULL, **rq = NULL;
    int nds = 0, nrq = 0;
    const cJSON *rec, *d;
    cJSON_ArrayForEach(rec, records) {
        cJSON_ArrayForEach(d, json_arr(rec, "datasets"))
            add_name(&ds, &nds, json_str(d, "name", ""));
        cJSON_ArrayForEach(d, json_arr(rec, "requirements"))
            add_name(&rq, &nrq, json_str(d, "name", ""));
    }
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "id,total,max,status,reason");
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
        for (int i = 0; i < nds; i++) {
            const cJSON *e = find_named(json_arr(rec, "datasets"), ds[i]);
            if (e)
                sb_printf(&sb, ",%g", json_num(e, "score"));
            else
                sb_puts(&sb, ",");
        }
        for (int i = 0; i < nds; i++) {
            const cJSON *e = find_named(json_arr(rec, "datasets"), ds[i]);
            sb_printf(&sb, ",%s", e ? json_str(e, "status", "") : "");
        }
        for (int i = 0; i < nrq; i++) {
            const cJSON *e = find_named(json_arr(rec, "requirements"), rq[i]);
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

/* ---- JUnit XML ------------------------------------------------------------------ */

void export_xml_text(strbuf *sb, const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        switch (*c) {
        case '&': sb_puts(sb, "&amp;"); break;
        case '<': sb_puts(sb, "&lt;"); break;
        case '>': sb_puts(sb, "&gt;"); break;
        case '"': sb_puts(sb, "&quot;"); break;
        case '\'': sb_puts(sb, "&apos;"); break;
        default:
            if (*c < 0x20 && *c != '\t' && *c != '\n' && *c != '\r') {
                sb_puts(sb, "?"); /* not allowed anywhere in XML 1.0 */
            } else if (*c >= 0x80) {
                int n = utf8_char_length(c);
                if (n == 3 && c[0] == 0xef && c[1] == 0xbf && c[2] >= 0xbe)
                    n = 0; /* U+FFFE, U+FFFF: not XML characters */
                if (n == 0) {
                    sb_puts(sb, "?");
                } else {
                    sb_append(sb, (const char *)c, (size_t)n);
                    c += n - 1;
                }
            } else {
                sb_append(sb, (const char *)c, 1);
            }
        }
    }
}

static void junit_case(strbuf *sb, const char *id, const char *name, const cJSON *e, int *failures,
                       int *errors)
{
    const char *status = json_str(e, "status", "");
    sb_puts(sb, "    <testcase classname=\"");
    export_xml_text(sb, id);
    sb_puts(sb, "\" name=\"");
    export_xml_text(sb, name);
    sb_printf(sb, "\" time=\"%g\">", json_num(e, "wall_s"));
    if (strcmp(status, "pass") != 0) {
        int error = strcmp(status, "grader_error") == 0;
        *(error ? errors : failures) += 1;
        sb_printf(sb, "\n      <%s type=\"", error ? "error" : "failure");
        export_xml_text(sb, status);
        sb_puts(sb, "\" message=\"");
        export_xml_text(sb, json_str(e, "message", ""));
        sb_printf(sb, "\">%g of %g points: ", json_num(e, "score"), json_num(e, "max_score"));
        export_xml_text(sb, json_str(e, "message", ""));
        sb_printf(sb, "</%s>\n    ", error ? "error" : "failure");
    }
    sb_puts(sb, "</testcase>\n");
}

char *export_junit(const char *lab, const cJSON *records)
{
    strbuf body;
    sb_init(&body);
    int all_tests = 0, all_fail = 0, all_err = 0;
    const cJSON *rec, *e;
    cJSON_ArrayForEach(rec, records) {
        const char *id = json_str(rec, "id", json_str(rec, "file", ""));
        strbuf cases;
        sb_init(&cases);
        int tests = 0, failures = 0, errors = 0;
        double time = 0;
        cJSON_ArrayForEach(e, json_arr(rec, "datasets")) {
            junit_case(&cases, id, json_str(e, "name", ""), e, &failures, &errors);
            time += json_num(e, "wall_s");
            tests++;
        }
        cJSON_ArrayForEach(e, json_arr(rec, "requirements")) {
            char *name = xasprintf("requirement:%s", json_str(e, "name", ""));
            junit_case(&cases, id, name, e, &failures, &errors);
            free(name);
            tests++;
        }
        sb_puts(&body, "  <testsuite name=\"");
        export_xml_text(&body, id);
        sb_printf(&body, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%g\">\n", tests, failures,
                  errors, time);
        sb_puts(&body, "    <properties>\n");
        sb_printf(&body, "      <property name=\"score\" value=\"%g\"/>\n", json_num(rec, "score"));
        sb_printf(&body, "      <property name=\"max_score\" value=\"%g\"/>\n", json_num(rec, "max_score"));
        const char *keys[] = { "submission_sha256", "backend", "seed", "sandbox", NULL };
        for (int k = 0; keys[k]; k++) {
            sb_printf(&body, "      <property name=\"%s\" value=\"", keys[k]);
            export_xml_text(&body, json_str(rec, keys[k], ""));
            sb_puts(&body, "\"/>\n");
        }
        sb_puts(&body, "    </properties>\n");
        sb_puts(&body, cases.buf ? cases.buf : "");
        sb_puts(&body, "  </testsuite>\n");
        sb_free(&cases);
        all_tests += tests;
        all_fail += failures;
        all_err += errors;
    }
    strbuf sb;
    sb_init(&sb);
    sb_puts(&sb, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gpulab ");
    export_xml_text(&sb, lab);
    sb_printf(&sb, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\">\n", all_tests, all_fail, all_err);
    sb_puts(&sb, body.buf ? body.buf : "");
    sb_puts(&sb, "</testsuites>\n");
    sb_free(&body);
    return sb_detach(&sb);
}

/* ---- Gradescope results.json ------------------------------------------------------ */

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
    cJSON_AddStringToObject(t, "output", out);
    free(out);
    cJSON_AddStringToObject(t, "visibility", hidden ? "hidden" : "visible");
    return t;
}

cJSON *export_gradescope(const cJSON *rec)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "score", json_num(rec, "score"));
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
            if (count_name(&seen, &times, &nseen, json_str(f, "message", "")) == 1)
                sb_printf(&out, "checker (%s, line %g): %s\n", json_str(f, "kind", "?"), json_num(f, "line"),
                          json_str(f, "message", ""));
    }
    free_counts(seen, times, nseen);
    cJSON_AddStringToObject(o, "output", out.buf ? out.buf : "");
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

/* ---- the class summary ------------------------------------------------------------- */

static int by_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void put_counts(strbuf *sb, const char *title, const name_tally *t)
{
    sb_printf(sb, "  %s:", title);
    if (t->n == 0)
        sb_puts(sb, " none");
    for (int i = 0; i < t->n; i++)
        sb_printf(sb, "%s %s %d", i ? "," : "", t->names[i], t->counts[i]);
    sb_puts(sb, "\n");
}

void class_summary_make(const cJSON *records, class_summary *cs)
{
    memset(cs, 0, sizeof *cs);
    int n = cJSON_GetArraySize(records);
    cs->n = n;
    if (n == 0)
        return;
    double *scores = xcalloc((size_t)n, sizeof *scores), sum = 0;
    int k = 0;
    const cJSON *rec, *d;
    cJSON_ArrayForEach(rec, records) {
        scores[k++] = json_num(rec, "score");
        sum += json_num(rec, "score");
        if (json_num(rec, "max_score") > cs->max)
            cs->max = json_num(rec, "max_score");
        count_name(&cs->status.names, &cs->status.counts, &cs->status.n, export_status(rec));
        count_name(&cs->sandbox.names, &cs->sandbox.counts, &cs->sandbox.n, json_str(rec, "sandbox", "unknown"));
        if (!cs->seed && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rec, "seed"))) {
            cs->seed = json_str(rec, "seed", "");
            cs->seed_from = json_str(rec, "seed_from", "");
        }
        cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
            add_name(&cs->datasets, &cs->ndatasets, json_str(d, "name", ""));
            count_name(&cs->dataset_status.names, &cs->dataset_status.counts, &cs->dataset_status.n,
                       json_str(d, "status", "?"));
            cs->hidden |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "hidden"));
            const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer"), *f;
            cJSON_ArrayForEach(f, json_arr(san, "findings"))
                count_name(&cs->findings.names, &cs->findings.counts, &cs->findings.n, json_str(f, "kind", "?"));
        }
    }
    qsort(scores, (size_t)n, sizeof *scores, by_double);
    cs->mean = sum / n;
    cs->median = n % 2 ? scores[n / 2] : (scores[n / 2 - 1] + scores[n / 2]) / 2;
    cs->lowest = scores[0];
    cs->highest = scores[n - 1];
    for (int i = 0; i < n; i++) {
        int b = cs->max > 0 ? (int)(scores[i] / cs->max * 10 + 1e-9) : 0;
        cs->buckets[b < 0 ? 0 : b > 10 ? 10 : b]++;
    }
    cs->passed = xcalloc((size_t)cs->ndatasets + 1, sizeof *cs->passed);
    cs->graded = xcalloc((size_t)cs->ndatasets + 1, sizeof *cs->graded);
    for (int i = 0; i < cs->ndatasets; i++)
        cJSON_ArrayForEach(rec, records) {
            const cJSON *e = find_named(json_arr(rec, "datasets"), cs->datasets[i]);
            if (e) {
                cs->graded[i]++;
                cs->passed[i] += strcmp(json_str(e, "status", ""), "pass") == 0;
            }
        }
    free(scores);
}

static void free_tally(name_tally *t)
{
    free_counts(t->names, t->counts, t->n);
    memset(t, 0, sizeof *t);
}

void class_summary_free(class_summary *cs)
{
    free(cs->datasets);
    free(cs->passed);
    free(cs->graded);
    free_tally(&cs->status);
    free_tally(&cs->dataset_status);
    free_tally(&cs->findings);
    free_tally(&cs->sandbox);
    memset(cs, 0, sizeof *cs);
}

const char *class_summary_bucket_label(int b, char *buf, size_t len)
{
    if (b >= 10)
        snprintf(buf, len, "100%%");
    else
        snprintf(buf, len, "%d-%d%%", b * 10, b * 10 + 9);
    return buf;
}

char *export_summary(const cJSON *records)
{
    strbuf sb;
    sb_init(&sb);
    class_summary cs;
    class_summary_make(records, &cs);
    if (cs.n == 0) {
        sb_puts(&sb, "class summary: no submissions\n");
        return sb_detach(&sb);
    }
    int n = cs.n;
    sb_printf(&sb, "class summary: %d submission%s, scores out of %g\n", n, n == 1 ? "" : "s", cs.max);
    sb_printf(&sb, "  mean %.2f, median %g, lowest %g, highest %g\n", cs.mean, cs.median, cs.lowest, cs.highest);
    sb_puts(&sb, "  scores (share of the maximum: submissions):\n");
    int widest = 1;
    for (int b = 0; b <= 10; b++)
        if (cs.buckets[b] > widest)
            widest = cs.buckets[b];
    for (int b = 0; b <= 10; b++) {
        char label[16];
        int bar = (cs.buckets[b] * 40 + widest - 1) / widest;
        sb_printf(&sb, "    %-8s %3d %.*s\n", class_summary_bucket_label(b, label, sizeof label), cs.buckets[b], bar,
                  "########################################");
    }
    sb_puts(&sb, "  datasets passed:\n");
    for (int i = 0; i < cs.ndatasets; i++)
        sb_printf(&sb, "    %-24s %d of %d (%.0f%%)\n", cs.datasets[i], cs.passed[i], cs.graded[i],
                  cs.graded[i] ? 100.0 * cs.passed[i] / cs.graded[i] : 0.0);
    put_counts(&sb, "submissions by status", &cs.status);
    put_counts(&sb, "datasets by status", &cs.dataset_status);
    put_counts(&sb, "checker findings", &cs.findings);
    put_counts(&sb, "sandbox", &cs.sandbox);
    if (cs.seed)
        sb_printf(&sb, "  datasets: %s, seed %s%s\n", cs.hidden ? "hidden (regenerated)" : "the kit's public ones",
                  cs.seed, strcmp(cs.seed_from, "secret") == 0 ? " (from the secret and each id)" : "");
    else
        sb_printf(&sb, "  datasets: %s\n", cs.hidden ? "hidden (regenerated)" : "the kit's public ones");
    class_summary_free(&cs);
    return sb_detach(&sb);
}
