/*
 * export_junit.c - JUnit XML: one <testsuite> per record (export.h).
 */
#include "export.h"
#include "json.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        char *message = export_private_paths(json_str(e, "message", "")); /* CI shows it to the student */
        export_xml_text(sb, message);
        sb_printf(sb, "\">%g of %g points: ", json_num(e, "score"), json_num(e, "max_score"));
        export_xml_text(sb, message);
        free(message);
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
