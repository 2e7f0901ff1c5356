/*
 * compare.c - see compare.h.
 *
 * The tolerance rule itself is grader/runtime/tolerance.c (wbSolution uses
 * it too); docs/tolerance.md explains it for students and instructors.
 */
#include "compare.h"
#include "diagnose.h"
#include "errormap.h"
#include "launches.h"
#include "run.h"
#include "stages.h"
#include "util.h"
#include "../runtime/dataset.h"
#include "../runtime/harness_protocol.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_poison(float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits == GL_POISON_BITS;
}

/* Keeps the WORST_MAX largest by score (error / tolerance; +inf for
 * non-finite values), largest first. */
static void keep_worst(compare_result *r, const mismatch *m, double score, double *scores)
{
    int n = r->nworst;
    if (n == WORST_MAX && score <= scores[n - 1])
        return;
    int i = n < WORST_MAX ? n : WORST_MAX - 1;
    while (i > 0 && scores[i - 1] < score) {
        r->worst[i] = r->worst[i - 1];
        scores[i] = scores[i - 1];
        i--;
    }
    r->worst[i] = *m;
    scores[i] = score;
    if (n < WORST_MAX)
        r->nworst++;
}

/* ---- reading what the run left, within what it can be -------------------- */

/* The most bytes an output of `floats` values can take: its header and its
 * data. The grader reads no more: a bigger file (a sparse one claims any
 * size for nothing) is refused before a byte of it is read or allocated. */
static long long output_max_bytes(size_t floats)
{
    return (long long)GL_TENSOR_HEADER_MAX + 4 * (long long)floats;
}

/* Reads an output the run left (checked by untrusted_check already) with
 * at most max_bytes of it in memory. Returns 0, or -1 with err set. */
static int read_run_output(const char *path, long long max_bytes, gl_matrix *out, gl_error *err)
{
    char *why = NULL;
    size_t len;
    char *buf = untrusted_read(path, max_bytes, 0, &len, &why);
    if (!buf) {
        memset(out, 0, sizeof *out);
        snprintf(err->msg, sizeof err->msg, "%s", why);
        free(why);
        return -1;
    }
    int rc = gl_parse_output(path, buf, len, out, err);
    free(buf);
    return rc;
}

/* A pitched output's padding (lab 05, harness_protocol.h): the harness
 * writes the whole pitched image beside the output; here, in the grader's
 * own process, every padding float is checked against the guard bits, so
 * the verdict and the map never rest on what the student's process said.
 * Returns 1 and fills p when such a file exists and fits the output (same
 * rows, wider than the image), p->changed pointing at *changed (malloc'd,
 * the caller frees it); 0 when there is none to check. */
static int check_padding(const char *output_path, const gl_matrix *out, errormap_padding *p,
                         unsigned char **changed, size_t *nchanged)
{
    char path[4096];
    char *refused = NULL;
    long long max_bytes = output_max_bytes(gl_matrix_count(out) + (size_t)out->rows * HARNESS_PADDING_MAX);
    if (harness_padded_output_path(path, sizeof path, output_path) != 0 ||
        untrusted_check(path, max_bytes, &refused) != 0) {
        free(refused);
        return 0;
    }
    gl_matrix whole;
    gl_error err;
    if (read_run_output(path, max_bytes, &whole, &err))
        return 0;
    int row = out->cols * out->channels;
    int ok = whole.channels == 1 && whole.rows == out->rows && whole.cols > row;
    if (ok) {
        int pad = whole.cols - row;
        *changed = xcalloc((size_t)out->rows * (size_t)pad, 1);
        *nchanged = 0;
        for (int y = 0; y < out->rows; y++)
            for (int j = 0; j < pad; j++) {
                uint32_t bits;
                memcpy(&bits, &whole.data[(size_t)y * whole.cols + row + j], sizeof bits);
                (*changed)[(size_t)y * pad + j] = bits != OUTPUT_GUARD_BITS;
                *nchanged += bits != OUTPUT_GUARD_BITS;
            }
        p->rows = out->rows;
        p->pad = pad;
        p->changed = *changed;
    }
    gl_matrix_free(&whole);
    return ok;
}

/* Draws the error map of a wrong output (the padded layout when the padding
 * changed) and puts its sentence into r->hint; named: whether the hint came
 * from a named mistake (diagnose_inputs), which the sentence keeps. */
static void draw_map(const errormap_request *map, const gl_matrix *out, const gl_reference *ref,
                     const double *tolerances, const errormap_padding *pad, int named,
                     compare_result *r)
{
    char *summary = NULL;
    int rc = pad ? errormap_write_padded(map->path, out, ref, tolerances, map->tile_width, map->halo, pad,
                                         &summary)
                 : errormap_write(map->path, out, ref, tolerances, map->tile_width, map->halo, &summary);
    if (rc == 0) {
        snprintf(r->error_map, sizeof r->error_map, "%s", map->path);
        if (errormap_thumbnail(out, ref, tolerances, THUMB_ROWS, THUMB_COLS, r->thumb, &r->thumb_rows,
                               &r->thumb_cols) != 0)
            r->thumb_rows = r->thumb_cols = 0;
    }
    /* The map's sentence says where the errors sit relative to the tiles,
     * which beats the generic pattern; a padding-only failure keeps the
     * padding's own sentence (set by the caller). */
    if (summary && r->error_map[0] && r->mismatches > 0) {
        char generic[sizeof r->hint];
        snprintf(generic, sizeof generic, "%s", r->hint);
        int gaps = r->gap_step[0] || r->gap_step[1];
        char *joined = generic[0] && (r->nonfinite > 0 || named || gaps) /* these say where to look */
                           ? xasprintf("%s %s.", summary, generic)
                           : xstrdup(summary);
        snprintf(r->hint, sizeof r->hint, "%s", joined);
        free(joined);
    }
    free(summary);
}

/* The padding's sentence into r->hint: alone when the image is right,
 * after the image's hint otherwise. */
static void padding_hint(const errormap_padding *pad, int row_floats, compare_result *r)
{
    char *sentence = diagnose_padding(pad, row_floats);
    if (!sentence)
        return;
    char *hint = r->mismatches == 0 ? xasprintf("The image is right; the errors are %s.", sentence)
                 : r->hint[0]       ? xasprintf("%s Also %s.", r->hint, sentence)
                                    : xasprintf("%s.", sentence);
    snprintf(r->hint, sizeof r->hint, "%s", hint);
    free(hint);
    free(sentence);
}

void compare_place(char *buf, size_t len, const mismatch *w, int channels)
{
    if (channels > 1)
        snprintf(buf, len, "row %d, column %d, channel %d", w->row, w->col, w->channel);
    else
        snprintf(buf, len, "row %d, column %d", w->row, w->col);
}

static char *shape_text(const int s[3])
{
    if (s[2] == 1)
        return xasprintf("%d x %d", s[0], s[1]);
    return xasprintf("%d x %d x %d", s[0], s[1], s[2]);
}

status_t compare_output(const char *output_path, const char *expected_path,
                        const tolerance_model *tol, const errormap_request *map, int tiled,
                        compare_result *r, char **message)
{
    return compare_output_scaled(output_path, 0, expected_path, tol, map, tiled, r, message);
}

static status_t compare_any(const char *output_path, int exponent, const char *expected_path, int libwb,
                            const tolerance_model *tol, const errormap_request *map, int tiled,
                            compare_result *r, char **message);

status_t compare_output_scaled(const char *output_path, int exponent, const char *expected_path,
                               const tolerance_model *tol, const errormap_request *map, int tiled,
                               compare_result *r, char **message)
{
    return compare_any(output_path, exponent, expected_path, 0, tol, map, tiled, r, message);
}

status_t compare_output_libwb(const char *output_path, const char *expected_path, const tolerance_model *tol,
                              compare_result *r, char **message)
{
    /* a Kit program's kernels may keep shared tiles: every place a NaN can come from */
    return compare_any(output_path, 0, expected_path, 1, tol, NULL, 1, r, message);
}

/* Each element of out against ref under tol: bad[i] set where it fails,
 * tolerances[i] its bound (when not NULL), and r's counts, largest errors
 * and worst mismatches. */
static void judge_elements(const gl_matrix *o, const gl_reference *ref, const tolerance_model *tol,
                           unsigned char *bad, double *tolerances, compare_result *r)
{
    const gl_matrix out = *o; /* (read only) */
    double scores[WORST_MAX];
    for (size_t i = 0; i < r->elements; i++) {
        float got = out.data[i];
        double want = ref->value[i];
        double t = tolerance_bound(tol, ref, i);
        if (tolerances)
            tolerances[i] = t;
        double abs_err = fabs((double)got - want);
        int finite = isfinite(got);
        if (finite) {
            if (abs_err > r->max_abs_err)
                r->max_abs_err = abs_err;
            if (want != 0 && abs_err / fabs(want) > r->max_rel_err)
                r->max_rel_err = abs_err / fabs(want);
            if (t > 0 && abs_err / t > r->worst_ratio)
                r->worst_ratio = abs_err / t;
        }
        /* !(abs_err <= t) is also true for NaN: NaN and Inf never pass. */
        if (finite && abs_err <= t)
            continue;
        bad[i] = 1;
        r->mismatches++;
        mismatch m;
        size_t pixel = i / (size_t)out.channels;
        m.row = (int)(pixel / (size_t)out.cols);
        m.col = (int)(pixel % (size_t)out.cols);
        m.channel = (int)(i % (size_t)out.channels);
        m.got = got;
        m.expected = want;
        m.tolerance = t;
        m.poisoned = is_poison(got);
        if (m.poisoned)
            r->poisoned++;
        else if (!finite)
            r->nonfinite++;
        keep_worst(r, &m, finite ? (t > 0 ? abs_err / t : HUGE_VAL) : HUGE_VAL, scores);
    }
}

/* The dataset's one-line message from its comparison. */
static char *comparison_message(status_t st, const compare_result *r, int channels)
{
    char *message;
    if (st == ST_PASS) {
        message = r->elements == 1
                      ? xasprintf("the one element within tolerance (error %.3g, %.0f%% of its tolerance)",
                                  r->max_abs_err, 100.0 * r->worst_ratio)
                      : xasprintf("all %zu elements within tolerance (largest error %.3g, %.0f%% of its tolerance)",
                                  r->elements, r->max_abs_err, 100.0 * r->worst_ratio);
    } else if (r->mismatches == 0) {
        message = xasprintf("the image is right, but its padding was overwritten: %zu of the %zu padding "
                            "floats of out changed", r->padding_changed, r->padding_floats);
    } else if (r->poisoned == r->elements) {
        message = xasprintf("nothing was written: all %zu elements still hold the kit's poison value",
                            r->elements);
    } else {
        strbuf sb;
        sb_init(&sb);
        if (r->elements == 1)
            sb_printf(&sb, "the one element wrong");
        else
            sb_printf(&sb, "%zu of %zu elements wrong", r->mismatches, r->elements);
        if (r->poisoned)
            sb_printf(&sb, " (%zu never written)", r->poisoned);
        if (r->nonfinite)
            sb_printf(&sb, " (%zu NaN or Inf)", r->nonfinite);
        const mismatch *w = &r->worst[0];
        char place[64];
        compare_place(place, sizeof place, w, channels);
        if (w->poisoned)
            sb_printf(&sb, "; e.g. %s was never written", place);
        else {
            char got[32];
            if (isnan(w->got))
                snprintf(got, sizeof got, "NaN");
            else
                snprintf(got, sizeof got, "%.7g", w->got);
            sb_printf(&sb, "; worst at %s: got %s, expected %.7g", place, got, w->expected);
        }
        message = sb_detach(&sb);
    }
    return message;
}

static status_t compare_any(const char *output_path, int exponent, const char *expected_path, int libwb,
                            const tolerance_model *tol, const errormap_request *map, int tiled,
                            compare_result *r, char **message)
{
    memset(r, 0, sizeof *r);
    gl_reference ref;
    gl_error err;
    if (libwb ? gl_read_libwb_expected(expected_path, &ref, &err) : gl_read_expected(expected_path, &ref, &err)) {
        *message = xasprintf("cannot read the expected output: %s", err.msg);
        return ST_GRADER_ERROR;
    }
    gl_matrix out;
    /* What the run left is the student's: a link, a FIFO, a device or a
     * hard link is never opened, so it can neither leak a file nor hang the
     * grader (its processes are gone by now, so nothing changes it after). */
    char *refused = NULL;
    long long max_bytes = output_max_bytes(gl_reference_count(&ref));
    int present = untrusted_check(output_path, max_bytes, &refused);
    if (present < 0) {
        gl_reference_free(&ref);
        *message = xasprintf("the grader did not read the output: %s", path_base(refused));
        free(refused);
        return ST_NO_OUTPUT;
    }
    if (present == 1) {
        gl_reference_free(&ref);
        *message = xstrdup("the program ended without writing an output file "
                           "(did your code call exit(), or return before the harness could finish?)");
        return ST_NO_OUTPUT;
    }
    if (read_run_output(output_path, max_bytes, &out, &err)) {
        gl_reference_free(&ref);
        *message = xasprintf("the output file is unreadable: %s", err.msg);
        return ST_NO_OUTPUT;
    }
    /* Back to the dataset's scale: exact, a power of two. */
    if (exponent != 0)
        for (size_t i = 0; i < gl_matrix_count(&out); i++)
            out.data[i] = ldexpf(out.data[i], -exponent);
    r->compared = 1;
    r->got_shape[0] = out.rows, r->got_shape[1] = out.cols, r->got_shape[2] = out.channels;
    r->want_shape[0] = ref.rows, r->want_shape[1] = ref.cols, r->want_shape[2] = ref.channels;
    if (out.rows != ref.rows || out.cols != ref.cols || out.channels != ref.channels) {
        char *got = shape_text(r->got_shape), *want = shape_text(r->want_shape);
        *message = xasprintf("the output is %s but should be %s", got, want);
        free(got);
        free(want);
        gl_matrix_free(&out);
        gl_reference_free(&ref);
        return ST_WRONG;
    }
    r->shape_ok = 1;
    r->elements = gl_matrix_count(&out);
    unsigned char *bad = xcalloc(r->elements, 1);
    double *tolerances = map ? xcalloc(r->elements, sizeof(double)) : NULL;
    judge_elements(&out, &ref, tol, bad, tolerances, r);
    r->unwritten_from[0] = r->unwritten_from[1] = r->unwritten_to[0] = r->unwritten_to[1] = -1;
    r->unwritten_frame = 0;
    if (r->mismatches) { /* a grid too small leaves this shape (launches.c), a lower bound the other */
        launches_unwritten_corner(&out, bad, r->unwritten_from);
        launches_unwritten_head(&out, bad, r->unwritten_to);
        r->unwritten_frame = launches_unwritten_frame(&out, bad);
    }
    errormap_padding pad = { 0, 0, NULL };
    unsigned char *pad_changed = NULL;
    int padded = check_padding(output_path, &out, &pad, &pad_changed, &r->padding_changed);
    if (padded)
        r->padding_floats = (size_t)pad.rows * (size_t)pad.pad;
    status_t st = r->mismatches || r->padding_changed ? ST_WRONG : ST_PASS;
    double started = stage_clock();
    char *hint = diagnose_output(&out, &ref, bad, r, tiled);
    /* The dataset's inputs can name mistakes that the pattern alone cannot
     * (diagnose_inputs re-computes wrong elements the way a known mistake
     * would, and speaks only when that reproduces them). */
    char *named = NULL;
    const char *mistake = NULL;
    if (r->mismatches) {
        char *dir = xstrdup(expected_path);
        char *slash = strrchr(dir, '/');
        if (slash)
            *slash = '\0';
        named = diagnose_inputs(slash ? dir : ".", &out, &ref, bad, r, tiled, &mistake);
        free(dir);
    }
    char *gaps = NULL;
    r->gap_step[0] = r->gap_step[1] = r->gap_run[0] = r->gap_run[1] = 0;
    if (named) {
        free(hint);
        hint = xstrdup(named);
        r->hint_named = 1;
        snprintf(r->mistake, sizeof r->mistake, "%s", mistake ? mistake : "");
    } else if (r->mismatches && diagnose_gaps(&out, bad, r->gap_step, r->gap_run, &gaps)) {
        /* the wrong elements exactly the gaps between tiles: the grader
         * names the index's block step where the source shows it */
        free(hint);
        hint = gaps;
        snprintf(r->mistake, sizeof r->mistake, "%s", DIAGNOSE_GAPS);
    }
    if (hint) {
        snprintf(r->hint, sizeof r->hint, "%s", hint);
        free(hint);
    }
    r->diagnose_s = stage_clock() - started;
    if (st == ST_WRONG && map) {
        started = stage_clock();
        draw_map(map, &out, &ref, tolerances, r->padding_changed ? &pad : NULL, named != NULL, r);
        r->map_s = stage_clock() - started;
    }
    if (r->padding_changed)
        padding_hint(&pad, out.cols * out.channels, r);
    free(pad_changed);
    free(named);
    free(tolerances);
    free(bad);
    *message = comparison_message(st, r, out.channels);
    gl_matrix_free(&out);
    gl_reference_free(&ref);
    return st;
}

status_t compare_elements(const char *output_path, const char *expected_path, const tolerance_model *tol,
                          unsigned char **bad, size_t *elements, size_t *mismatches)
{
    *bad = NULL;
    *elements = *mismatches = 0;
    gl_reference ref;
    gl_error err;
    if (gl_read_expected(expected_path, &ref, &err))
        return ST_GRADER_ERROR;
    long long max_bytes = output_max_bytes(gl_reference_count(&ref));
    char *refused = NULL;
    gl_matrix out;
    if (untrusted_check(output_path, max_bytes, &refused) != 0 || read_run_output(output_path, max_bytes, &out, &err)) {
        free(refused);
        gl_reference_free(&ref);
        return ST_NO_OUTPUT;
    }
    status_t st = ST_WRONG;
    if (out.rows == ref.rows && out.cols == ref.cols && out.channels == ref.channels) {
        compare_result r;
        memset(&r, 0, sizeof r);
        r.elements = gl_matrix_count(&out);
        *bad = xcalloc(r.elements ? r.elements : 1, 1);
        judge_elements(&out, &ref, tol, *bad, NULL, &r);
        errormap_padding pad = { 0, 0, NULL };
        unsigned char *pad_changed = NULL;
        size_t changed = 0;
        check_padding(output_path, &out, &pad, &pad_changed, &changed);
        free(pad_changed);
        *elements = r.elements;
        *mismatches = r.mismatches;
        st = r.mismatches || changed ? ST_WRONG : ST_PASS;
    }
    gl_matrix_free(&out);
    gl_reference_free(&ref);
    return st;
}
