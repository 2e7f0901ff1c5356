/*
 * export.c - see export.h.
 */
#define _GNU_SOURCE
#include "export.h"
#include "kit.h"
#include "manifest.h"
#include "process.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *str(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : fallback;
}

static double num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

static const cJSON *arr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsArray(v) ? v : NULL;
}

const char *export_status(const cJSON *rec)
{
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    int built = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(build, "ok"));
    int any_grader = 0, all_pass = 1;
    const cJSON *d;
    cJSON_ArrayForEach(d, arr(rec, "datasets")) {
        const char *s = str(d, "status", "");
        any_grader |= strcmp(s, "grader_error") == 0;
        all_pass &= strcmp(s, "pass") == 0;
    }
    cJSON_ArrayForEach(d, arr(rec, "requirements"))
        all_pass &= strcmp(str(d, "status", ""), "pass") == 0;
    if (any_grader)
        return "grader_error";
    if (!built) {
        const char *msg = str(build, "message", "");
        if (strncmp(msg, "refused:", 8) == 0)
            return "refused";
        return strstr(msg, "has no ") && strstr(msg, "the folder ") ? "missing" : "compile_error";
    }
    return all_pass ? "pass" : "fail";
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
        if (strcmp(str(d, "name", ""), name) == 0)
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
 * barrier not met". Empty for a pass. source: the lab's file name. */
char *export_reason(const cJSON *rec, const char *source)
{
    strbuf sb;
    sb_init(&sb);
    const char *status = export_status(rec);
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    const char *clash = str(rec, "id_clash", NULL);
    if (clash)
        sb_puts(&sb, clash);
    if (cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(rec, "misnamed")))
        sb_printf(&sb, "%smisnamed file (%s%s%s)", sb.len ? "; " : "", path_base(str(rec, "file", "")),
                  source ? ", not " : "", source ? source : "");
    if (strcmp(status, "compile_error") == 0 || strcmp(status, "missing") == 0 || strcmp(status, "refused") == 0) {
        const char *msg = str(build, "message", "");
        sb_printf(&sb, "%s%s", sb.len ? "; " : "", strcmp(status, "missing") == 0 ? "missing or misnamed file" : msg);
    }
    /* checker findings, each once: "race at lines 41/52" */
    char **seen = NULL;
    int *times = NULL, nseen = 0;
    const cJSON *d, *f;
    cJSON_ArrayForEach(d, arr(rec, "datasets")) {
        const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer");
        cJSON_ArrayForEach(f, arr(san, "findings")) {
            const cJSON *l2 = cJSON_GetObjectItemCaseSensitive(f, "line2");
            char *what = cJSON_IsNumber(l2) ? xasprintf("%s at lines %g/%g", str(f, "kind", "?"), num(f, "line"), l2->valuedouble)
                                            : xasprintf("%s at line %g", str(f, "kind", "?"), num(f, "line"));
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
            cJSON_ArrayForEach(d, arr(rec, "datasets")) {
                if (strcmp(str(d, "status", ""), kinds[k]) != 0)
                    continue;
                count++;
                blank += strstr(str(d, "message", ""), "nothing was written") != NULL;
                const char *m = str(cJSON_GetObjectItemCaseSensitive(d, "comparison"), "mistake", "");
                if (!mistake && *m)
                    mistake = m;
            }
            if (count)
                sb_printf(&sb, "%s%s on %d dataset%s", sb.len ? "; " : "",
                          blank == count ? "nothing written" : kinds[k], count, count == 1 ? "" : "s");
            if (count && mistake)
                sb_printf(&sb, " (%s)", mistake);
        }
        cJSON_ArrayForEach(d, arr(rec, "requirements"))
            if (strcmp(str(d, "status", ""), "requirement_failed") == 0)
                sb_printf(&sb, "%srequirement %s not met", sb.len ? "; " : "", str(d, "name", "?"));
    }
    return sb_detach(&sb);
}

char *export_csv(const cJSON *records, const char *source)
{
    char **ds = NULL, **rq = NULL;
    int nds = 0, nrq = 0;
    const cJSON *rec, *d;
    cJSON_ArrayForEach(rec, records) {
        cJSON_ArrayForEach(d, arr(rec, "datasets"))
            add_name(&ds, &nds, str(d, "name", ""));
        cJSON_ArrayForEach(d, arr(rec, "requirements"))
            add_name(&rq, &nrq, str(d, "name", ""));
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
        csv_field(&sb, str(rec, "id", str(rec, "file", "")));
        sb_printf(&sb, ",%g,%g,%s,", num(rec, "score"), num(rec, "max_score"), export_status(rec));
        char *reason = export_reason(rec, source);
        csv_field(&sb, reason);
        free(reason);
        for (int i = 0; i < nds; i++) {
            const cJSON *e = find_named(arr(rec, "datasets"), ds[i]);
            if (e)
                sb_printf(&sb, ",%g", num(e, "score"));
            else
                sb_puts(&sb, ",");
        }
        for (int i = 0; i < nds; i++) {
            const cJSON *e = find_named(arr(rec, "datasets"), ds[i]);
            sb_printf(&sb, ",%s", e ? str(e, "status", "") : "");
        }
        for (int i = 0; i < nrq; i++) {
            const cJSON *e = find_named(arr(rec, "requirements"), rq[i]);
            if (e)
                sb_printf(&sb, ",%g", num(e, "score"));
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
    const char *status = str(e, "status", "");
    sb_puts(sb, "    <testcase classname=\"");
    export_xml_text(sb, id);
    sb_puts(sb, "\" name=\"");
    export_xml_text(sb, name);
    sb_printf(sb, "\" time=\"%g\">", num(e, "wall_s"));
    if (strcmp(status, "pass") != 0) {
        int error = strcmp(status, "grader_error") == 0;
        *(error ? errors : failures) += 1;
        sb_printf(sb, "\n      <%s type=\"", error ? "error" : "failure");
        export_xml_text(sb, status);
        sb_puts(sb, "\" message=\"");
        export_xml_text(sb, str(e, "message", ""));
        sb_printf(sb, "\">%g of %g points: ", num(e, "score"), num(e, "max_score"));
        export_xml_text(sb, str(e, "message", ""));
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
        const char *id = str(rec, "id", str(rec, "file", ""));
        strbuf cases;
        sb_init(&cases);
        int tests = 0, failures = 0, errors = 0;
        double time = 0;
        cJSON_ArrayForEach(e, arr(rec, "datasets")) {
            junit_case(&cases, id, str(e, "name", ""), e, &failures, &errors);
            time += num(e, "wall_s");
            tests++;
        }
        cJSON_ArrayForEach(e, arr(rec, "requirements")) {
            char *name = xasprintf("requirement:%s", str(e, "name", ""));
            junit_case(&cases, id, name, e, &failures, &errors);
            free(name);
            tests++;
        }
        sb_puts(&body, "  <testsuite name=\"");
        export_xml_text(&body, id);
        sb_printf(&body, "\" tests=\"%d\" failures=\"%d\" errors=\"%d\" time=\"%g\">\n", tests, failures,
                  errors, time);
        sb_puts(&body, "    <properties>\n");
        sb_printf(&body, "      <property name=\"score\" value=\"%g\"/>\n", num(rec, "score"));
        sb_printf(&body, "      <property name=\"max_score\" value=\"%g\"/>\n", num(rec, "max_score"));
        const char *keys[] = { "submission_sha256", "backend", "seed", "sandbox", NULL };
        for (int k = 0; keys[k]; k++) {
            sb_printf(&body, "      <property name=\"%s\" value=\"", keys[k]);
            export_xml_text(&body, str(rec, keys[k], ""));
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
    const char *status = str(e, "status", "");
    cJSON_AddStringToObject(t, "name", name);
    cJSON_AddStringToObject(t, "number", numtext);
    cJSON_AddNumberToObject(t, "score", num(e, "score"));
    cJSON_AddNumberToObject(t, "max_score", num(e, "max_score"));
    cJSON_AddStringToObject(t, "status", strcmp(status, "pass") == 0 ? "passed" : "failed");
    char *out = xasprintf("%s: %s", status, str(e, "message", ""));
    cJSON_AddStringToObject(t, "output", out);
    free(out);
    cJSON_AddStringToObject(t, "visibility", hidden ? "hidden" : "visible");
    return t;
}

cJSON *export_gradescope(const cJSON *rec)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddNumberToObject(o, "score", num(rec, "score"));
    cJSON_AddNumberToObject(o, "execution_time", num(rec, "grading_s"));
    const cJSON *build = cJSON_GetObjectItemCaseSensitive(rec, "build");
    strbuf out;
    sb_init(&out);
    sb_printf(&out, "%s: %g of %g points (%s, %s).\n", str(rec, "lab", ""), num(rec, "score"),
              num(rec, "max_score"), export_status(rec), str(rec, "device", ""));
    if (!cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(build, "ok"))) {
        sb_printf(&out, "\nThe build failed: %s\n", str(build, "message", ""));
        const char *log = str(build, "log", "");
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
    if (strncmp(str(rec, "sandbox", ""), "none", 4) == 0)
        sb_puts(&out, "(Graded without isolation: this autograder's container does not allow it.)\n");
    char *reason = export_reason(rec, NULL);
    if (*reason)
        sb_printf(&out, "\nWhat went wrong: %s.\n", reason);
    free(reason);
    char **seen = NULL;
    int *times = NULL, nseen = 0;
    const cJSON *ds, *f;
    cJSON_ArrayForEach(ds, arr(rec, "datasets")) {
        const cJSON *cmp = cJSON_GetObjectItemCaseSensitive(ds, "comparison");
        const char *hint = str(cmp, "hint", "");
        if (strcmp(str(ds, "status", ""), "pass") != 0)
            sb_printf(&out, "%s %s: %s%s%s\n", cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(ds, "hidden")) ?
                      "hidden dataset" : "dataset", str(ds, "name", ""), str(ds, "status", ""),
                      *hint ? "; hint: " : "", hint);
        cJSON_ArrayForEach(f, arr(cJSON_GetObjectItemCaseSensitive(ds, "sanitizer"), "findings"))
            if (count_name(&seen, &times, &nseen, str(f, "message", "")) == 1)
                sb_printf(&out, "checker (%s, line %g): %s\n", str(f, "kind", "?"), num(f, "line"),
                          str(f, "message", ""));
    }
    free_counts(seen, times, nseen);
    cJSON_AddStringToObject(o, "output", out.buf ? out.buf : "");
    sb_free(&out);
    cJSON_AddStringToObject(o, "visibility", "visible");
    cJSON_AddStringToObject(o, "stdout_visibility", "hidden");
    cJSON *tests = cJSON_AddArrayToObject(o, "tests");
    int number = 1;
    const cJSON *e;
    cJSON_ArrayForEach(e, arr(rec, "datasets")) {
        int hidden = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(e, "hidden"));
        char *name = xasprintf("%s%s", hidden ? "hidden dataset " : "dataset ", str(e, "name", ""));
        cJSON_AddItemToArray(tests, gs_test(name, number++, e, hidden));
        free(name);
    }
    cJSON_ArrayForEach(e, arr(rec, "requirements")) {
        char *name = xasprintf("requirement %s", str(e, "name", ""));
        cJSON_AddItemToArray(tests, gs_test(name, number++, e, 0));
        free(name);
    }
    const cJSON *perf = cJSON_GetObjectItemCaseSensitive(rec, "performance");
    if (cJSON_IsObject(perf)) {
        if (num(perf, "max_score") > 0)
            cJSON_AddItemToArray(tests, gs_test("performance", number++, perf, 0));
        /* Gradescope's leaderboard: the figure of a measured, passing run. */
        if (num(perf, "rate") > 0 && strcmp(str(perf, "status", ""), "pass") == 0) {
            cJSON *board = cJSON_AddArrayToObject(o, "leaderboard");
            cJSON *entry = cJSON_CreateObject();
            cJSON_AddStringToObject(entry, "name", str(perf, "unit", ""));
            cJSON_AddNumberToObject(entry, "value", num(perf, "rate"));
            cJSON_AddStringToObject(entry, "order", "desc");
            cJSON_AddItemToArray(board, entry);
        }
    }
    return o;
}

/* ---- UTF-8 ---------------------------------------------------------------------- */

static char *fix_utf8(const char *s, int *changed)
{
    strbuf sb;
    sb_init(&sb);
    const unsigned char *p = (const unsigned char *)s;
    *changed = 0;
    while (*p) {
        int n = 0;
        uint32_t cp = 0;
        if (*p < 0x80)
            n = 1;
        else if ((*p & 0xE0) == 0xC0)
            n = 2, cp = *p & 0x1F;
        else if ((*p & 0xF0) == 0xE0)
            n = 3, cp = *p & 0x0F;
        else if ((*p & 0xF8) == 0xF0)
            n = 4, cp = *p & 0x07;
        int ok = n > 0;
        for (int i = 1; ok && i < n; i++) {
            if ((p[i] & 0xC0) != 0x80)
                ok = 0;
            else
                cp = cp << 6 | (p[i] & 0x3F);
        }
        if (ok && n > 1) {
            static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
            if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                ok = 0;
        }
        if (ok) {
            sb_append(&sb, (const char *)p, (size_t)n);
            p += n;
        } else {
            sb_puts(&sb, "\xEF\xBF\xBD");
            *changed = 1;
            p++;
        }
    }
    return sb_detach(&sb);
}

void json_fix_utf8(cJSON *item)
{
    for (cJSON *c = item; c; c = c->next) {
        if (cJSON_IsString(c) && c->valuestring) {
            int changed;
            char *fixed = fix_utf8(c->valuestring, &changed);
            if (changed)
                cJSON_SetValuestring(c, fixed);
            free(fixed);
        }
        if (c->string) {
            int changed;
            char *fixed = fix_utf8(c->string, &changed);
            if (changed && !(c->type & cJSON_StringIsConst)) {
                free(c->string);
                c->string = fixed;
            } else {
                free(fixed);
            }
        }
        if (c->child)
            json_fix_utf8(c->child);
    }
}

/* ---- zip (stored) ---------------------------------------------------------------- */

static uint32_t crc32_of(const unsigned char *p, size_t n)
{
    static uint32_t table[256];
    static int ready;
    if (!ready) {
        for (uint32_t i = 0; i < 256; i++) {
            uint32_t c = i;
            for (int k = 0; k < 8; k++)
                c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
            table[i] = c;
        }
        ready = 1;
    }
    uint32_t c = 0xFFFFFFFFu;
    for (size_t i = 0; i < n; i++)
        c = table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return c ^ 0xFFFFFFFFu;
}

static void le16(strbuf *sb, unsigned v)
{
    unsigned char b[2] = { (unsigned char)v, (unsigned char)(v >> 8) };
    sb_append(sb, (const char *)b, 2);
}

static void le32(strbuf *sb, uint32_t v)
{
    unsigned char b[4] = { (unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                           (unsigned char)(v >> 24) };
    sb_append(sb, (const char *)b, 4);
}

int zip_store(const char *zip_path, const char *base, char **files, int nfiles, char **why)
{
    strbuf z, cd;
    sb_init(&z);
    sb_init(&cd);
    const unsigned dos_time = 0, dos_date = (0 << 9) | (1 << 5) | 1; /* 1980-01-01 */
    for (int i = 0; i < nfiles; i++) {
        char *path = xasprintf("%s/%s", base, files[i]);
        size_t len;
        char *data = read_file(path, &len);
        struct stat st;
        if (!data || stat(path, &st) != 0) {
            *why = xasprintf("cannot read %s: %s", path, strerror(errno));
            free(path);
            sb_free(&z);
            sb_free(&cd);
            return -1;
        }
        if (len > 0xFFFFFFF0u) {
            *why = xasprintf("%s is too large for a zip without ZIP64", path);
            free(path);
            free(data);
            sb_free(&z);
            sb_free(&cd);
            return -1;
        }
        uint32_t crc = crc32_of((const unsigned char *)data, len);
        uint32_t offset = (uint32_t)z.len;
        size_t nlen = strlen(files[i]);
        le32(&z, 0x04034b50);
        le16(&z, 10);
        le16(&z, 0);
        le16(&z, 0);
        le16(&z, dos_time);
        le16(&z, dos_date);
        le32(&z, crc);
        le32(&z, (uint32_t)len);
        le32(&z, (uint32_t)len);
        le16(&z, (unsigned)nlen);
        le16(&z, 0);
        sb_append(&z, files[i], nlen);
        sb_append(&z, data, len);
        le32(&cd, 0x02014b50);
        le16(&cd, 0x031E); /* made by Unix, zip 3.0: the external attributes hold the mode */
        le16(&cd, 10);
        le16(&cd, 0);
        le16(&cd, 0);
        le16(&cd, dos_time);
        le16(&cd, dos_date);
        le32(&cd, crc);
        le32(&cd, (uint32_t)len);
        le32(&cd, (uint32_t)len);
        le16(&cd, (unsigned)nlen);
        le16(&cd, 0);
        le16(&cd, 0);
        le16(&cd, 0);
        le16(&cd, 0);
        le32(&cd, (uint32_t)(0100000 | (st.st_mode & 0777)) << 16);
        le32(&cd, offset);
        sb_append(&cd, files[i], nlen);
        free(data);
        free(path);
    }
    uint32_t cd_offset = (uint32_t)z.len;
    sb_append(&z, cd.buf ? cd.buf : "", cd.len);
    le32(&z, 0x06054b50);
    le16(&z, 0);
    le16(&z, 0);
    le16(&z, (unsigned)nfiles);
    le16(&z, (unsigned)nfiles);
    le32(&z, (uint32_t)cd.len);
    le32(&z, cd_offset);
    le16(&z, 0);
    int rc = write_file_atomic(zip_path, z.buf ? z.buf : "", z.len);
    if (rc != 0)
        *why = xasprintf("cannot write %s: %s", zip_path, strerror(errno));
    sb_free(&z);
    sb_free(&cd);
    return rc;
}

/* ---- the Gradescope autograder zip --------------------------------------------------- */

typedef struct {
    char **v;
    int n;
} filelist;

/* Folders an autograder must never carry: the instructors' answer keys. */
static const char *const left_out[] = { "docs/instructor", NULL };

static void list_tree(filelist *fl, const char *root, const char *rel)
{
    for (int i = 0; left_out[i]; i++)
        if (strcmp(rel, left_out[i]) == 0)
            return;
    char *dir = *rel ? xasprintf("%s/%s", root, rel) : xstrdup(root);
    DIR *d = opendir(dir);
    if (!d) {
        free(dir);
        return;
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *r = *rel ? xasprintf("%s/%s", rel, e->d_name) : xstrdup(e->d_name);
        char *full = xasprintf("%s/%s", root, r);
        struct stat st;
        if (lstat(full, &st) == 0 && S_ISDIR(st.st_mode)) {
            list_tree(fl, root, r);
            free(r);
        } else if (S_ISREG(st.st_mode)) {
            fl->v = xrealloc(fl->v, (size_t)(fl->n + 1) * sizeof *fl->v);
            fl->v[fl->n++] = r;
        } else {
            free(r);
        }
        free(full);
    }
    closedir(d);
    free(dir);
}

static int by_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void write_text(const char *path, const char *text, int exec)
{
    if (write_file_atomic(path, text, strlen(text)) != 0)
        die("cannot write %s: %s", path, strerror(errno));
    chmod(path, exec ? 0755 : 0644);
}

/* The kit's files an autograder needs: no solutions, no tests, no build
 * products, and no answer keys (docs/instructor/ is left out when copying). */
static const char *const kit_parts[] = { "Makefile", "README.md", "grader/install-deps.sh", "grader/src",
                                         "grader/runtime", "grader/emu", "labs", "docs", NULL };

/* The kit without datasets into stage/kit: setup.sh regenerates this lab's
 * public ones from the lab's seed, bit for bit the kit's (a test checks
 * that), so the zip stays small; a lab with no generator carries its own. */
static void copy_kit_into(const char *stage, const char *lab_id, int has_generator)
{
    filelist fl = { NULL, 0 };
    const char *const *parts = kit_parts;
    for (int i = 0; parts[i]; i++) {
        char *src = kit_path("%s", parts[i]);
        if (file_exists(src)) {
            fl.v = xrealloc(fl.v, (size_t)(fl.n + 1) * sizeof *fl.v);
            fl.v[fl.n++] = xstrdup(parts[i]);
        } else {
            list_tree(&fl, kit_root(), parts[i]);
        }
        free(src);
    }
    if (!has_generator) {
        char *datasets = xasprintf("datasets/%s", lab_id);
        list_tree(&fl, kit_root(), datasets);
        free(datasets);
    }
    for (int i = 0; i < fl.n; i++) {
        char *from = kit_path("%s", fl.v[i]);
        char *to = xasprintf("%s/kit/%s", stage, fl.v[i]);
        char *dir = xstrdup(to);
        *strrchr(dir, '/') = '\0';
        struct stat st;
        if (make_dirs(dir) != 0 || copy_file(from, to) != 0 || stat(from, &st) != 0)
            die("cannot copy %s into the package: %s", from, strerror(errno));
        chmod(to, st.st_mode & 0777);
        free(from);
        free(to);
        free(dir);
        free(fl.v[i]);
    }
    free(fl.v);

}

/* The package's setup.sh and run_autograder, into stage. */
static void write_package_scripts(const char *stage, const char *lab_id, int has_generator,
                                  const char *backend_name, const char *hidden)
{
    char *p = xasprintf("%s/setup.sh", stage);
    char *setup = xasprintf(
               "#!/usr/bin/env bash\n"
               "# Gradescope runs this once, as root, when it builds the autograder image.\n"
               "set -euo pipefail\n"
               "# The kit's own installer adds what the image lacks (make, a C compiler,\n"
               "# pkg-config, cJSON), as for any fresh machine.\n"
               "cd /autograder/source/kit\n"
               "bash grader/install-deps.sh build\n"
               "make kit\n"
               "%s%s%s",
               has_generator ? "# this lab's public datasets, regenerated from its seed (the kit's own, bit for bit)\n"
                               "./gpulab datasets " : "# this lab's public datasets came in the package (it has no generator)\n",
               has_generator ? lab_id : "", has_generator ? " > /dev/null\n" : "");
    write_text(p, setup, 1);
    free(setup);
    free(p);
    p = xasprintf("%s/run_autograder", stage);
    char *run = xasprintf(
        "#!/usr/bin/env bash\n"
        "# Gradescope runs this for each submission: the student's files are in\n"
        "# /autograder/submission, the results go to /autograder/results/results.json.\n"
        "set -uo pipefail\n"
        "mkdir -p /autograder/results\n"
        "cd /autograder/source/kit\n"
        "grade() {\n"
        "    ./gpulab grade %s /autograder/submission --backend %s%s --format gradescope \\\n"
        "        --records /autograder/gpulab-records --out /autograder/results/results.json \"$@\"\n"
        "}\n"
        "# Isolation: Linux namespaces where the container allows them; where it\n"
        "# refuses them (Docker's default seccomp profile), a user of the\n"
        "# submission's own (the uid mode), which needs what the grader keeps to be\n"
        "# root's alone: the submission's folder and the datasets' expected outputs.\n"
        "chmod 700 /autograder/submission /autograder/source/kit/datasets\n"
        "grade --sandbox auto\n"
        "rc=$?\n"
        "if [ $rc -eq 3 ]; then\n"
        "    printf '{\"score\": 0, \"output\": \"The autograder could not isolate your submission, so it was not "
        "graded; please tell your instructor (the grader said why in its log).\", \"tests\": []}\\n' "
        "> /autograder/results/results.json\n"
        "    exit 0\n"
        "fi\n"
        "if [ $rc -ne 0 ] || [ ! -s /autograder/results/results.json ]; then\n"
        "    printf '{\"score\": 0, \"output\": \"The grader failed (exit %%s); please tell your instructor.\", "
        "\"tests\": []}\\n' \"$rc\" > /autograder/results/results.json\n"
        "fi\n",
        lab_id, backend_name, hidden);
    write_text(p, run, 1);
    free(run);
    free(p);

}

/* Every file under stage into the zip out_abs (zip(1) where there is one,
 * else the kit's own writer); returns how many. Dies when it cannot. */
static int zip_folder(const char *stage, const char *out_abs)
{
    filelist all = { NULL, 0 };
    list_tree(&all, stage, "");
    qsort(all.v, (size_t)all.n, sizeof *all.v, by_str);
    int rc;
    char *why = NULL;
    char *zip = getenv("GPULAB_NO_ZIP_CLI") ? NULL : find_in_path("zip");
    if (zip) {
        unlink(out_abs);
        const char **zargv = xcalloc((size_t)all.n + 6, sizeof(char *));
        int k = 0;
        zargv[k++] = zip;
        zargv[k++] = "-q";
        zargv[k++] = "-X";
        zargv[k++] = out_abs;
        for (int i = 0; i < all.n; i++)
            zargv[k++] = all.v[i];
        proc_spec spec = { zargv, stage, NULL, 600, 16384, 0, 0, 0 };
        proc_result r;
        proc_run(&spec, &r);
        rc = r.started && r.exited && r.exit_code == 0 ? 0 : -1;
        if (rc)
            why = xasprintf("zip failed: %s%s", r.out_text, r.err_text);
        proc_result_free(&r);
        free(zargv);
        free(zip);
    } else {
        rc = zip_store(out_abs, stage, all.v, all.n, &why);
    }
    if (rc != 0)
        die("%s", why);
    if (rc != 0)
        die("%s", why);
    int n = all.n;
    for (int i = 0; i < all.n; i++)
        free(all.v[i]);
    free(all.v);
    return n;
}

int cmd_gradescope_package(int argc, char **argv)
{
    const char *lab = NULL, *out = NULL, *seed = NULL, *secret_file = NULL, *backend_name = "emu";
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            seed = argv[++i];
        else if (strcmp(argv[i], "--secret-file") == 0 && i + 1 < argc)
            secret_file = argv[++i];
        else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc)
            backend_name = argv[++i];
        else if (argv[i][0] != '-' && !lab)
            lab = argv[i];
        else if (argv[i][0] != '-' && !out)
            out = argv[i];
        else
            die("gradescope-package: unexpected argument '%s'\n"
                "usage: gpulab gradescope-package LAB OUT.zip [--seed S | --secret-file FILE] [--backend emu|gpu]",
                argv[i]);
    }
    if (!lab || !out)
        die("usage: gpulab gradescope-package LAB OUT.zip [--seed S | --secret-file FILE] [--backend emu|gpu]");
    if (seed && secret_file)
        die("gradescope-package: --seed and --secret-file do not go together");
    if (strcmp(backend_name, "emu") != 0 && strcmp(backend_name, "gpu") != 0)
        die("--backend %s: expected gpu or emu", backend_name);
    char *id = manifest_resolve(lab);
    lab_manifest m;
    manifest_load(id, &m);

    /* A lab with no generator (imported from the Teaching Kit) carries its
     * public datasets: nothing could make them again. */
    char *generator = kit_path("labs/%s/generate.c", m.id);
    int has_generator = file_exists(generator);
    free(generator);
    if (!has_generator && (seed || secret_file))
        die("gradescope-package: %s has no generator (a lab imported from the Teaching Kit): it has no "
            "hidden datasets to make from --seed or --secret-file", m.id);

    char *stage = make_temp_dir("gpulab-package");
    copy_kit_into(stage, m.id, has_generator);
    char *hidden = xstrdup("");
    if (seed) {
        free(hidden);
        hidden = xasprintf(" --seed '%s'", seed);
        for (const char *c = seed; *c; c++)
            if (*c < '0' || *c > '9')
                die("--seed %s: expected a whole number", seed);
    } else if (secret_file) {
        char *to = xasprintf("%s/secret", stage);
        if (copy_file(secret_file, to) != 0)
            die("cannot read %s: %s", secret_file, strerror(errno));
        chmod(to, 0600);
        free(to);
        free(hidden);
        hidden = xstrdup(" --secret-file /autograder/source/secret");
    }
    write_package_scripts(stage, m.id, has_generator, backend_name, hidden);
    free(hidden);
    char *out_abs = path_absolute(out);
    int nfiles = zip_folder(stage, out_abs);
    fprintf(stderr, "gpulab: wrote %s: the Gradescope autograder for %s (%d files; backend %s%s)\n", out_abs,
            m.id, nfiles, backend_name,
            seed ? ", hidden datasets from a seed" : secret_file ? ", hidden datasets from a secret" : "");
    remove_tree(stage);
    free(stage);
    free(out_abs);
    manifest_free(&m);
    free(id);
    return 0;
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
        scores[k++] = num(rec, "score");
        sum += num(rec, "score");
        if (num(rec, "max_score") > cs->max)
            cs->max = num(rec, "max_score");
        count_name(&cs->status.names, &cs->status.counts, &cs->status.n, export_status(rec));
        count_name(&cs->sandbox.names, &cs->sandbox.counts, &cs->sandbox.n, str(rec, "sandbox", "unknown"));
        if (!cs->seed && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rec, "seed"))) {
            cs->seed = str(rec, "seed", "");
            cs->seed_from = str(rec, "seed_from", "");
        }
        cJSON_ArrayForEach(d, arr(rec, "datasets")) {
            add_name(&cs->datasets, &cs->ndatasets, str(d, "name", ""));
            count_name(&cs->dataset_status.names, &cs->dataset_status.counts, &cs->dataset_status.n,
                       str(d, "status", "?"));
            cs->hidden |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "hidden"));
            const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer"), *f;
            cJSON_ArrayForEach(f, arr(san, "findings"))
                count_name(&cs->findings.names, &cs->findings.counts, &cs->findings.n, str(f, "kind", "?"));
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
            const cJSON *e = find_named(arr(rec, "datasets"), cs->datasets[i]);
            if (e) {
                cs->graded[i]++;
                cs->passed[i] += strcmp(str(e, "status", ""), "pass") == 0;
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
