/*
 * tools.c - see tools.h. Every file goes through the one dataset module.
 */
#define _GNU_SOURCE
#include "tools.h"
#include "compare.h"
#include "manifest.h"
#include "report.h"
#include "sanitize.h"
#include "options.h"
#include "util.h"
#include "../runtime/dataset.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A .tensor may hold an output (f32) or a reference (f64); try the reader
 * that fits its header. */
static int is_reference_tensor(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return 0;
    char line[128];
    int ref = 0;
    for (int i = 0; i < 8 && fgets(line, sizeof line, f); i++)
        if (strcmp(line, "dtype f64\n") == 0)
            ref = 1;
    fclose(f);
    return ref;
}

int cmd_inspect(int argc, char **argv)
{
    if (argc < 1)
        die("usage: gpulab inspect FILE...");
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        gl_error err;
        if (ends_with(argv[i], ".tensor") && is_reference_tensor(argv[i])) {
            gl_reference r;
            if (gl_read_reference(argv[i], &r, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                rc = 1;
                continue;
            }
            printf("%s: reference %d x %d x %d, %s, terms %d\n", argv[i], r.rows, r.cols, r.channels,
                   r.magnitude ? "with magnitudes" : "values only", r.terms);
            gl_reference_free(&r);
        } else {
            gl_matrix m;
            if (gl_read_matrix(argv[i], &m, &err)) {
                fprintf(stderr, "%s\n", err.msg);
                rc = 1;
                continue;
            }
            size_t n = gl_matrix_count(&m);
            float lo = m.data[0], hi = m.data[0];
            for (size_t k = 1; k < n; k++) {
                if (m.data[k] < lo)
                    lo = m.data[k];
                if (m.data[k] > hi)
                    hi = m.data[k];
            }
            printf("%s: matrix %d x %d x %d, values from %.9g to %.9g\n", argv[i], m.rows, m.cols,
                   m.channels, (double)lo, (double)hi);
            gl_matrix_free(&m);
        }
    }
    return rc;
}

int cmd_convert(int argc, char **argv)
{
    if (argc != 2)
        die("usage: gpulab convert IN OUT   (.raw, .ppm, .pgm or .tensor, by file name)");
    gl_matrix m;
    gl_error err;
    if (gl_read_matrix(argv[0], &m, &err))
        die("%s", err.msg);
    int rc;
    if (ends_with(argv[1], ".raw"))
        rc = gl_write_raw(argv[1], &m, &err);
    else if (ends_with(argv[1], ".ppm") || ends_with(argv[1], ".pgm"))
        rc = gl_write_ppm(argv[1], &m, &err);
    else if (ends_with(argv[1], ".tensor"))
        rc = gl_write_output(argv[1], &m, &err);
    else
        die("%s: unknown output type (expected .raw, .ppm, .pgm or .tensor)", argv[1]);
    gl_matrix_free(&m);
    if (rc)
        die("%s", err.msg);
    return 0;
}

typedef struct {
    const char *format;
} compare_args;

static const option_spec compare_options[] = {
    { "--format", OPT_VALUE, offsetof(compare_args, format), "text|json", "the verdict's form", 0 },
};

int cmd_compare(int argc, char **argv)
{
    compare_args ca = { NULL };
    const char **pos = xcalloc((size_t)argc + 1, sizeof *pos), *bad = NULL;
    int npos;
    if (options_parse(compare_options, 1, &ca, argc, argv, 0, pos, &npos, &bad) < 0 || npos != 3)
        die("usage: gpulab compare LAB OUTPUT.tensor EXPECTED [--format text|json]");
    int json = ca.format && strcmp(ca.format, "json") == 0;
    if (ca.format && !json && strcmp(ca.format, "text") != 0)
        die("--format %s: expected text or json", ca.format);
    char *id = manifest_resolve(pos[0]);
    lab_manifest m;
    manifest_load(id, &m);
    compare_result r;
    char *message = NULL;
    status_t st = compare_output(pos[1], pos[2], &m.tolerance, NULL, m.ntiles > 0, &r, &message);
    if (json) {
        /* The same record a dataset has in a report, minus the run. */
        submission_result s;
        dataset_result d;
        memset(&s, 0, sizeof s);
        memset(&d, 0, sizeof d);
        d.name = "compare";
        d.status = st;
        d.message = message;
        d.cmp = r;
        d.call_ms = -1;
        s.lab = m.id;
        s.file = (char *)pos[1];
        s.ndatasets = 1;
        s.datasets = &d;
        cJSON *o = report_json(&s);
        cJSON *first = cJSON_DetachItemFromArray(cJSON_GetObjectItem(o, "datasets"), 0);
        char *text = cJSON_Print(first);
        printf("%s\n", text);
        free(text);
        cJSON_Delete(first);
        cJSON_Delete(o);
    } else {
        printf("%s: %s\n", status_name(st), message);
    }
    free(message);
    manifest_free(&m);
    free(id);
    free(pos);
    return st == ST_PASS ? 0 : st == ST_GRADER_ERROR ? 2 : 1;
}

int cmd_explain_sanitizer(int argc, char **argv)
{
    if (argc < 1 || argc > 2)
        die("usage: gpulab explain-sanitizer REPORT [SOURCE]");
    char *text = read_file(argv[0], NULL);
    if (!text)
        die("cannot read %s", argv[0]);
    sanitize_result r;
    memset(&r, 0, sizeof r);
    r.ran = 1;
    sanitize_parse_compute_sanitizer(text, argc == 2 ? argv[1] : NULL, &r);
    sanitize_parse_hazards(text, &r);
    cJSON *o = sanitizer_json(&r);
    char *printed = cJSON_Print(o);
    printf("%s\n", printed);
    free(printed);
    cJSON_Delete(o);
    sanitize_result_free(&r);
    free(text);
    return 0;
}
