/*
 * summary.c - the class at a glance: the figures the text summary and the class page share (export.h).
 */
#include "export.h"
#include "json.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
        export_count_name(&cs->status.names, &cs->status.counts, &cs->status.n, export_status(rec));
        export_count_name(&cs->sandbox.names, &cs->sandbox.counts, &cs->sandbox.n, json_str(rec, "sandbox", "unknown"));
        if (!cs->seed && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(rec, "seed"))) {
            cs->seed = json_str(rec, "seed", "");
            cs->seed_from = json_str(rec, "seed_from", "");
        }
        cJSON_ArrayForEach(d, json_arr(rec, "datasets")) {
            export_add_name(&cs->datasets, &cs->ndatasets, json_str(d, "name", ""));
            export_count_name(&cs->dataset_status.names, &cs->dataset_status.counts, &cs->dataset_status.n,
                       json_str(d, "status", "?"));
            cs->hidden |= cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(d, "hidden"));
            const cJSON *san = cJSON_GetObjectItemCaseSensitive(d, "sanitizer"), *f;
            cJSON_ArrayForEach(f, json_arr(san, "findings"))
                export_count_name(&cs->findings.names, &cs->findings.counts, &cs->findings.n, json_str(f, "kind", "?"));
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
            const cJSON *e = export_find_named(json_arr(rec, "datasets"), cs->datasets[i]);
            if (e) {
                cs->graded[i]++;
                cs->passed[i] += strcmp(json_str(e, "status", ""), "pass") == 0;
            }
        }
    free(scores);
}

static void free_tally(name_tally *t)
{
    export_free_counts(t->names, t->counts, t->n);
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
