/*
 * repair.c - see repair.h.
 */
#define _GNU_SOURCE
#include "repair.h"
#include "build.h"
#include "compare.h"
#include "json.h"
#include "kit.h"
#include "repairs.h"
#include "run.h"
#include "sandbox.h"
#include "sanitize.h"
#include "source.h"
#include "stages.h"
#include "util.h"

#include <signal.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>

/* A schemata list larger than this is no honest lab file's. */
#define SCHEMATA_MAX_BYTES (8LL << 20)

int repair_failed(status_t st)
{
    return st == ST_WRONG || st == ST_CRASH || st == ST_CUDA_ERROR || st == ST_NO_OUTPUT;
}

int repair_wanted(const submission_result *s)
{
    /* a kernel that reaches host memory runs right on the emulator, whose
     * kernels share the host's address space, and faults on a GPU: an edit
     * that makes the datasets right there proves nothing (it may make the
     * host's buffer whole again, the kernel still reading it) */
    for (int i = 0; i < s->ndatasets; i++)
        for (int k = 0; s->datasets[i].sanitizer && k < s->datasets[i].sanitizer->nfindings; k++)
            if (!strcmp(s->datasets[i].sanitizer->findings[k].kind, "host-memory"))
                return 0;
    for (int i = 0; s->built && i < s->ndatasets; i++)
        if (repair_failed(s->datasets[i].status))
            return 1;
    return 0;
}

/* The candidates emucc listed (build/schemata.json of folder), at most
 * REPAIR_MAX_CANDIDATES, each with a line of the student's file; *total:
 * how many it listed. Read without following links: the build folder is
 * the build's. NULL when there is no list. */
static repair_candidate *read_candidates(const char *folder, int *n, int *total)
{
    *n = *total = 0;
    char *path = xasprintf("%s/build/" BUILD_SCHEMATA_NAME, folder);
    char *why = NULL;
    size_t len;
    char *text = untrusted_read(path, SCHEMATA_MAX_BYTES, 0, &len, &why);
    free(path);
    free(why);
    cJSON *list = text ? cJSON_ParseWithLength(text, len) : NULL;
    free(text);
    if (!cJSON_IsArray(list)) {
        cJSON_Delete(list);
        return NULL;
    }
    int cap = cJSON_GetArraySize(list);
    repair_candidate *c = xcalloc((size_t)(cap > 0 ? cap : 1), sizeof *c);
    const cJSON *o;
    cJSON_ArrayForEach(o, list)
    {
        double id = json_num(o, "id"), line = json_num(o, "line");
        if (!(id >= 1 && id <= 1e6 && line >= 1 && line <= 1e6))
            continue;
        (*total)++;
        if (*n >= REPAIR_MAX_CANDIDATES)
            continue;
        repair_candidate *k = &c[(*n)++];
        k->id = (int)id;
        k->line = (int)line;
        snprintf(k->kind, sizeof k->kind, "%s", json_str(o, "kind", ""));
        snprintf(k->from, sizeof k->from, "%s", json_str(o, "from", ""));
        snprintf(k->to, sizeof k->to, "%s", json_str(o, "to", ""));
        snprintf(k->context, sizeof k->context, "%s", json_str(o, "context", ""));
        double at = cJSON_GetObjectItemCaseSensitive(o, "at") ? json_num(o, "at") : -1;
        k->at = at >= 0 && at < (double)sizeof k->context ? (int)at : -1;
    }
    cJSON_Delete(list);
    return c;
}

/* The processor time of the grader's children that have ended (every
 * run of the screening is waited for before the next starts): what the
 * screening's budget counts, the same on a busy machine as on an idle one. */
static double children_cpu_s(void)
{
    struct rusage u;
    if (getrusage(RUSAGE_CHILDREN, &u) != 0)
        return 0;
    return (double)u.ru_utime.tv_sec + u.ru_utime.tv_usec / 1e6 + (double)u.ru_stime.tv_sec +
           u.ru_stime.tv_usec / 1e6;
}

/* What one entry of a series came to against the expected output:
 * ST_PASS (right), ST_WRONG (with *bad and its counts), or another status
 * (ended badly: no output, a fault). */
static status_t judge_entry(const run_result *r, const char *expected, const tolerance_model *tol,
                            unsigned char **bad, size_t *elements, size_t *mismatches)
{
    *bad = NULL;
    *elements = *mismatches = 0;
    if (!r->proc.started || r->status != ST_PASS)
        return r->proc.started ? r->status : ST_CRASH;
    return compare_elements(r->output_path, expected, tol, bad, elements, mismatches);
}

/* The screening's runs use one of the emulator's workers: a candidate's
 * child starts its own at its first launch, and on the small dataset
 * screened, more cost a third more processor time and save none (the
 * confirming runs, like the graded ones, have the emulator's default). */
static const char *const one_worker[] = { "GPULAB_EMU_THREADS=1", NULL };

/* One pass of the screening: the dataset in dir once as written (entry 0,
 * when with_base: its output was wrong, not a fault) and once per
 * candidate c[pick[0..n)], in a series (the harness runs each candidate in
 * a child of its own, so the process ends only when the series runs out
 * of time: then another starts after the candidate it was on); at most
 * *budget_s seconds of processor time, what it spends taken off. The
 * first pass (first) sets each candidate's screened_right, and its fixed
 * and broken against the base; a later one drops a candidate that ran to
 * its end and came out wrong (or failed). A later pass's dataset is larger
 * than the first's, and its allowance is reckoned from the graded run
 * (on every core, or on a GPU), not from this build (one worker, a switch
 * at every edit): a candidate that ran out of its processor time there, or
 * that the pass did not reach, is no evidence either way and stays for the
 * confirming runs, which have the lab's own time limit.
 * The first pass also runs the null candidate (null_id: an id no edit
 * has, so every switch of the build is set and none is live): where it
 * comes out otherwise than the program as written, the build does not
 * hold the file as it is (a `#define` of `32 / 2` pasted into a switch's
 * branch is parenthesised there, so every candidate seemed to mend a
 * precedence mistake), and no candidate's verdict means anything.
 * *wrong: the wrong elements as written (with the base). Returns how many
 * candidates ran, or -1 when the program as written came out right here,
 * or the null candidate not as it (the evidence does not hold still). */
static int screen(const lab_manifest *m, const char *program, const char *folder, int batch, int pass, const char *dir,
                  int with_base, int null_id, repair_candidate *c, const int *pick, int n, double each_s,
                  double *budget_s, const char *student_file, size_t *wrong, int *ended)
{
    char *expected = xasprintf("%s/%s", dir, m->expected);
    int *ids = xcalloc((size_t)n + 2, sizeof(int));
    run_result *runs = xcalloc((size_t)n + 2, sizeof *runs);
    unsigned char *base = NULL;
    size_t base_elements = 0;
    int ran = 0, as_written_right = 0, unfaithful = 0, next = 0;
    status_t base_status = ST_PASS;
    int base_comparable = 0;
    double started = monotonic_s(), cpu0 = children_cpu_s();
    for (int series = 1; next < n && !as_written_right && !unfaithful; series++) {
        double cpu_left = *budget_s - (children_cpu_s() - cpu0), left = 4 * *budget_s - (monotonic_s() - started);
        if (cpu_left <= 0 || left <= 0)
            break;
        /* entry j is candidate pick[next + j - offset]; before them, in the
         * first series, the program as written (with_base) and the null
         * candidate (null_id: no edit live, the build's switches set) */
        int nbase = (with_base || null_id > 0) && series == 1, offset = nbase + (null_id > 0 && series == 1), np = 0;
        if (nbase)
            ids[np++] = 0;
        if (offset > nbase)
            ids[np++] = null_id;
        for (int i = next; i < n; i++)
            ids[np++] = c[pick[i]].id;
        char *series_dir = xasprintf("%s/screen-%d-%d-%d", folder, batch, pass, series);
        /* on the clock (a candidate's own processor time is the harness's
         * alarm, each_s); no "where stuck" signal, which the harness's
         * children would not answer */
        run_request q = { (cpu_left < each_s ? each_s : cpu_left) * 4, one_worker, 0, student_file };
        run_mutants(program, dir, ids, np, each_s, series_dir, &q, runs);
        free(series_dir);
        int stop = np;
        for (int j = 0; j < np && stop == np; j++) {
            if (!runs[j].proc.started) {
                stop = j;
                continue;
            }
            unsigned char *bad;
            size_t elements, mismatches;
            status_t st = judge_entry(&runs[j], expected, &m->tolerance, &bad, &elements, &mismatches);
            if (j == nbase && j < offset) {
                /* the null candidate: right where the program as written was
                 * not, in this build, or wrong elsewhere: the build does not
                 * hold the file, and every candidate would seem to mend it
                 * (a crash or a hang of its own mends nothing: a program may
                 * read the live candidate's number) */
                /* (a memory error the harness's guard zones caught, which a
                 * candidate's run has none of, by design, is no measure) */
                unfaithful = base_comparable && base_status != ST_PASS &&
                             (st == ST_PASS ||
                              (st == ST_WRONG && base_status == ST_WRONG &&
                               (!bad || !base || elements != base_elements || memcmp(bad, base, elements) != 0)));
                free(bad);
                continue;
            }
            if (j < offset) { /* the program as written, in this build */
                base_status = st;
                base_comparable = runs[j].proc.exit_code == HARNESS_EXIT_OK ||
                                  runs[j].proc.exit_code == HARNESS_EXIT_WRONG ||
                                  runs[j].proc.exit_code == HARNESS_EXIT_CUDA;
                as_written_right = with_base && st == ST_PASS;
                if (st == ST_WRONG && bad) {
                    base = bad;
                    base_elements = elements;
                    if (with_base)
                        *wrong = mismatches;
                } else {
                    free(bad);
                }
                continue;
            }
            repair_candidate *k = &c[pick[next + j - offset]];
            ran++;
            /* a fault, a crash or its time up: its child ended so */
            *ended += runs[j].proc.exit_code != HARNESS_EXIT_OK && runs[j].proc.exit_code != HARNESS_EXIT_WRONG;
            if (pass > 1 && runs[j].proc.exit_code == 128 + SIGPROF) { /* its processor time up: no verdict */
                free(bad);
                continue;
            }
            k->screened_right = (pass == 1 || k->screened_right) && st == ST_PASS;
            if (k->screened_right)
                k->screened_datasets = pass;
            if (with_base && st == ST_WRONG && bad && base && elements == base_elements)
                for (size_t e = 0; e < elements; e++) {
                    k->fixed += base[e] && !bad[e];
                    k->broken += !base[e] && bad[e];
                }
            free(bad);
        }
        for (int j = 0; j < np; j++)
            run_result_free(&runs[j]);
        if (stop < offset)
            break; /* the program as written did not finish: nothing to hold the candidates to */
        if (stop < np) { /* the candidate the series ran out of time on: run, and not right on the first pass */
            c[pick[next + stop - offset]].screened_right &= pass > 1;
            ran++;
            (*ended)++;
        }
        next += stop < np ? stop - offset + 1 : np - offset;
    }
    *budget_s -= children_cpu_s() - cpu0;
    free(base);
    free(runs);
    free(ids);
    free(expected);
    return as_written_right || unfaithful ? -1 : ran;
}

/* How many of the n datasets come out right with candidate id live
 * (GPULAB_EMU_MUTANT at start), in one series of processes of at most
 * series_s seconds in all. */
static int datasets_right(const lab_manifest *m, const char *program, const char *folder,
                          const char *const *dirs, int n, int id, double series_s, const char *student_file)
{
    char *env_id = xasprintf("GPULAB_EMU_MUTANT=%d", id);
    const char *env[] = { env_id, NULL };
    run_result *runs = xcalloc((size_t)n, sizeof *runs);
    char *series_dir = xasprintf("%s/confirm-%d", folder, id);
    /* on the clock: a candidate that makes the run far longer than the
     * program's own is no repair to wait for (a processor-time limit,
     * four processors' worth, let such a series run minutes) */
    run_request q = { series_s, env, 0, student_file };
    run_series(program, dirs, n, series_dir, &q, runs);
    int right = 0;
    for (int i = 0; i < n; i++) {
        char *expected = xasprintf("%s/%s", dirs[i], m->expected);
        unsigned char *bad;
        size_t elements, mismatches;
        right += judge_entry(&runs[i], expected, &m->tolerance, &bad, &elements, &mismatches) == ST_PASS;
        free(bad);
        free(expected);
        run_result_free(&runs[i]);
    }
    free(series_dir);
    free(runs);
    free(env_id);
    return right;
}

static void keep_candidate(repair_result *r, const repair_candidate *c)
{
    r->line = c->line;
    snprintf(r->kind, sizeof r->kind, "%s", c->kind);
    snprintf(r->from, sizeof r->from, "%s", c->from);
    snprintf(r->to, sizeof r->to, "%s", c->to);
    snprintf(r->context, sizeof r->context, "%s", c->context);
}

/* The screened candidates that made the dataset right, in order, confirmed
 * on every dataset; the first that makes them all right is the repair.
 * Past it, only a candidate at another line that ties with it (as pointed
 * at, as small) is confirmed: the series of every dataset is the search's
 * dearest run. Of two such repairs, the one its statement agrees with
 * (repairs_agreement: `Col = blockIdx.x * blockDim.x + threadIdx.y` made
 * all .x, where the other makes `Row`'s mixed) is named; where nothing
 * tells them apart, both are; where the words are no help, the parts of
 * the words are (repairs_part_agreement: a copy-paste's `in_pitch` beside
 * `d_out`); and where they are no help either, the one at a line the lab's
 * reference solution does not have word for word (an edit of a line the
 * reference has makes up for a mistake elsewhere). */
/* Whether the candidate makes every dataset right, run on them all where
 * the confirming has not (one run past the confirming's limit: it names
 * the repair found). */
static int mends_every_dataset(const lab_manifest *m, const char *program, const char *folder,
                               const char *const *dirs, int n, repair_candidate *c, double series_s,
                               const char *student_file, int *tried)
{
    if (!c->confirmed) {
        (*tried)++;
        c->confirmed = 1;
        c->datasets_right = datasets_right(m, program, folder, dirs, n, c->id, series_s, student_file);
    }
    return c->datasets_right == n;
}

static int has_word(const char *text, const char *w);

/* Whether context is a for loop's header (`int i = 0; COND; ++i`) and the
 * clause that from has and to lacks (the dropped part of the condition)
 * does not read the loop's counter. */
static int loop_invariant_clause(const char *context, const char *from, const char *to)
{
    const char *semi = strchr(context, ';');
    if (!semi || !strchr(semi + 1, ';'))
        return 0;
    const char *eq = memchr(context, '=', (size_t)(semi - context));
    const char *e = eq ? eq : semi;
    while (e > context && e[-1] == ' ')
        e--;
    const char *b = e;
    while (b > context && (isalnum((unsigned char)b[-1]) || b[-1] == '_'))
        b--;
    if (b == e || e - b >= 48)
        return 0;
    char counter[48];
    snprintf(counter, sizeof counter, "%.*s", (int)(e - b), b);
    /* the dropped clause: from less to, at either end */
    size_t fl = strlen(from), tl = strlen(to);
    char dropped[256];
    if (tl < fl && !strncmp(from, to, tl))
        snprintf(dropped, sizeof dropped, "%s", from + tl);
    else if (tl < fl && !strcmp(from + fl - tl, to))
        snprintf(dropped, sizeof dropped, "%.*s", (int)(fl - tl), from);
    else
        return 0;
    return !has_word(dropped, counter);
}

/* Whether the candidate exchanges two operands (two arguments, two arrays
 * of a product): what two names exchanged at one place can make up for at
 * another (an index's names exchanged are another matter). */
static int exchanges(const repair_candidate *c)
{
    return !strcmp(c->kind, "swap") || !strcmp(c->kind, "exchange");
}

/* Whether text holds word w as a whole word. */
static int has_word(const char *text, const char *w)
{
    size_t n = strlen(w);
    if (!n)
        return 0;
    for (const char *p = strstr(text, w); p; p = strstr(p + 1, w)) {
        int before = p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_');
        int after = isalnum((unsigned char)p[n]) || p[n] == '_';
        if (!before && !after)
            return 1;
    }
    return 0;
}

/* Candidates confirmed in place of the best, where they are eligible
 * (eligible(candidate, best, the file, the reference, datasets)): the first
 * of a few that mends every dataset becomes the best; best where none does. */
typedef int eligible_fn(const repair_candidate *c, const repair_candidate *best, const char *student_file,
                        const char *reference, int n);

static int confirm_instead(const lab_manifest *m, const char *program, const char *folder, const char *const *dirs,
                           int n, repair_candidate *c, int all, int best, double series_s, const char *student_file,
                           int *tried, eligible_fn *eligible, const char *reference)
{
    int tries = 0;
    for (int i = 0; i < all && tries < 3; i++) {
        if (i == best || (c[i].confirmed && c[i].datasets_right < n) ||
            !eligible(&c[i], &c[best], student_file, reference, n))
            continue;
        tries++;
        if (mends_every_dataset(m, program, folder, dirs, n, &c[i], series_s, student_file, tried))
            return i;
    }
    return best;
}

/* Another edit of the best's line, not screened wrong, that writes the
 * reference's statement. */
static int writes_reference_instead(const repair_candidate *c, const repair_candidate *best, const char *student_file,
                                    const char *reference, int n)
{
    (void)student_file;
    (void)n;
    /* (the screening ran few of them: those it found wrong are left) */
    int screened_wrong = !c->screened_right && (c->fixed || c->broken);
    return c->line == best->line && !screened_wrong && !c->hands_device &&
           repairs_writes_reference_line(c, reference);
}

/* An exchange at another line, one that departs from the reference. */
static int departing_exchange(const repair_candidate *c, const repair_candidate *best, const char *student_file,
                              const char *reference, int n)
{
    (void)n;
    return exchanges(c) && c->line != best->line && repairs_reference_departure(c, student_file, reference);
}

static void confirm(const lab_manifest *m, const char *program, const char *folder, const char *const *dirs, int n,
                    const int *failing, repair_candidate *c, int nc, int all, double series_s,
                    const char *student_file, int *tried, repair_result *r)
{
    int best = -1, also = -1;
    const char **rest = xcalloc((size_t)n + 1, sizeof *rest);
    for (int i = 0; i < nc && also < 0; i++) {
        if (!c[i].screened_right || c[i].hands_device ||
            (best >= 0 && (c[i].line == c[best].line || !repairs_tie(&c[i], &c[best]))))
            continue;
        if (c[i].confirmed) /* in an earlier batch's confirming, and not a repair */
            continue;
        if (*tried >= REPAIR_MAX_CONFIRMED)
            break;
        (*tried)++;
        c[i].confirmed = 1;
        /* the failing datasets it was screened right on are not run again */
        int nrest = 0;
        for (int d = 0; d < n; d++) {
            int screened = 0;
            for (int k = 0; k < c[i].screened_datasets; k++)
                screened |= failing[k] == d;
            if (!screened)
                rest[nrest++] = dirs[d];
        }
        c[i].datasets_right = c[i].screened_datasets +
                              (nrest ? datasets_right(m, program, folder, rest, nrest, c[i].id, series_s, student_file)
                                     : 0);
        if (c[i].datasets_right < n)
            continue;
        r->repairs++;
        if (best < 0)
            best = i;
        else
            also = i;
    }
    /* a name edited in a host call (`cudaMemset(d_P, ...)` made
     * `cudaMemset(d_N, ...)`) that mends it by pointing the call at a
     * buffer nothing reads after it: the call itself is the mistake, where
     * the statement dropped mends it too */
    int renamed = best >= 0 && (!strcmp(c[best].kind, "name") || !strcmp(c[best].kind, "member"));
    if (renamed && (strstr(c[best].context, "cudaMemset") || strstr(c[best].context, "cudaMemcpy"))) {
        for (int i = 0; i < all; i++) {
            if (i == best || c[i].line != c[best].line || strcmp(c[i].kind, "drop") != 0)
                continue;
            if (mends_every_dataset(m, program, folder, dirs, n, &c[i], series_s, student_file, tried)) {
                best = i;
                also = -1;
            }
            break;
        }
    }
    /* ... or a name edited inside one clause of a for loop's condition
     * that does not read the loop's counter (`mCol < k` made `ph < k` in
     * `i < TILE_WIDTH && mCol < k`: the same for every pass), where the
     * condition without that clause mends it too: the edit only made the
     * clause hold always, and the clause is the mistake (a clause that
     * reads the counter, `ph * TILE_WIDTH + i < l`, bounds each pass, and
     * its name's edit is the fix) */
    else if (renamed) {
        for (int i = 0; i < all; i++) {
            if (i == best || c[i].line != c[best].line ||
                (strcmp(c[i].kind, "drop-left") != 0 && strcmp(c[i].kind, "drop-right") != 0) ||
                !(strstr(c[i].from, "&&") || strstr(c[i].from, "||")) || !has_word(c[i].from, c[best].from) ||
                has_word(c[i].to, c[best].from) || !loop_invariant_clause(c[best].context, c[i].from, c[i].to))
                continue;
            if (mends_every_dataset(m, program, folder, dirs, n, &c[i], series_s, student_file, tried)) {
                best = i;
                also = -1;
                break;
            }
        }
    }
    free(rest);
    /* of two edits of one line that mend every dataset, one that makes the
     * statement the reference solution's (`+ 1` dropped) over one that
     * makes up for it (`+ threadIdx.x` made `- threadIdx.x`): a few of that
     * line's candidates that write the reference's statement are run */
    char *reference = kit_path("solutions/%s/%s", m->id, m->source);
    if (best >= 0 && also < 0 && !repairs_writes_reference_line(&c[best], reference))
        best = confirm_instead(m, program, folder, dirs, n, c, all, best, series_s, student_file, tried,
                               writes_reference_instead, reference);
    /* an exchange at a line the reference solution writes word for word,
     * in its order, makes up for one elsewhere (the launch's `d_M, d_N`
     * swapped for a sum that reads N where M belongs): an exchange at a
     * line that departs from the reference, larger or not, is confirmed
     * in its place, a few at most */
    if (best >= 0 && also < 0 && exchanges(&c[best]) && !repairs_reference_departure(&c[best], student_file, reference))
        best = confirm_instead(m, program, folder, dirs, n, c, all, best, series_s, student_file, tried,
                               departing_exchange, reference);
    free(reference);
    if (best < 0)
        return;
    if (also >= 0) {
        int ab = repairs_agreement(&c[best]), aa = repairs_agreement(&c[also]);
        if (aa == ab) {
            ab = repairs_part_agreement(&c[best]);
            aa = repairs_part_agreement(&c[also]);
        }
        if (aa == ab) {
            char *reference = kit_path("solutions/%s/%s", m->id, m->source);
            ab = repairs_reference_departure(&c[best], student_file, reference);
            aa = repairs_reference_departure(&c[also], student_file, reference);
            free(reference);
        }
        if (aa > ab)
            best = also;
        if (aa != ab)
            also = -1;
    }
    r->found = REPAIR_FULL;
    r->datasets_right = r->datasets = n;
    keep_candidate(r, &c[best]);
    const repair_candidate *second = also >= 0 ? &c[also] : NULL;
    if (second) {
        r->also_line = second->line;
        snprintf(r->also_from, sizeof r->also_from, "%s", second->from);
        snprintf(r->also_to, sizeof r->also_to, "%s", second->to);
    }
    r->sentence = repairs_sentence(&c[best], 1, n, r->dataset, r->wrong, second);
}

/* ---- a #define that is not the skeleton's ------------------------------------ *
 *
 * A constant the skeleton defines, given another value by the file
 * (`#define TILE_WIDTH 016`, octal 14; `#define BLOCK_WIDTH 15` where the
 * skeleton derives it from O_TILE_WIDTH and MASK_WIDTH): no switch of the
 * schemata build can edit it, since it sizes the __shared__ arrays. Where
 * the search found no repair, the file is built once more with the
 * skeleton's value on that line and run on every dataset; when all come
 * out right, that is the repair (the value as written was the mistake). */
#define DEFINE_REPAIR_MAX 4

/* Whether two values differ other than in blanks. */
static int values_differ(const char *a, size_t an, const char *b, size_t bn)
{
    size_t i = 0, j = 0;
    for (;;) {
        while (i < an && isspace((unsigned char)a[i]))
            i++;
        while (j < bn && isspace((unsigned char)b[j]))
            j++;
        if (i == an || j == bn)
            return i != an || j != bn;
        if (a[i++] != b[j++])
            return 1;
    }
}

/* Builds the file with line d's value replaced by to (in folder/define-N)
 * and runs it on every dataset: whether all come out right. */
static int define_mends(const lab_manifest *m, const backend *e, const char *student_file, const char *text,
                        const source_define *d, const char *to, const char *folder, int k, const char *const *dirs,
                        int n, double series_s)
{
    char *work = xasprintf("%s/define-%d", folder, k), *src = xasprintf("%s/define-%d.cu", folder, k);
    strbuf body;
    sb_init(&body);
    sb_append(&body, text, d->value_b);
    sb_puts(&body, to);
    sb_puts(&body, text + d->value_e);
    int right = 0;
    if (mkdir(work, 0700) == 0 && write_file(src, body.buf, body.len) == 0) {
        build_result br;
        build_submission(m, e, src, work, &br);
        if (br.ok) {
            char *program = build_program_path(work);
            right = datasets_right(m, program, work, dirs, n, 0, series_s, student_file);
            free(program);
        }
        build_result_free(&br);
    }
    sb_free(&body);
    free(src);
    free(work);
    return n > 0 && right == n;
}

/* The repair, when a #define the skeleton has with another value is the
 * mistake; whether one was found. */
static int define_repair(const lab_manifest *m, const backend *e, const char *student_file, const char *folder,
                         const char *const *dirs, int n, double series_s, repair_result *r)
{
    char *why = NULL, *skeleton_path = manifest_skeleton_path(m);
    size_t len;
    char *text = untrusted_read(student_file, SUBMISSION_MAX_BYTES, 0, &len, &why);
    char *skeleton = skeleton_path ? read_file(skeleton_path, NULL) : NULL;
    free(why);
    free(skeleton_path);
    int found = 0;
    if (text && skeleton && strlen(text) == len) {
        source_define mine[32], given[32];
        int nm = source_object_defines(text, len, mine, 32), tried = 0;
        int ng = source_object_defines(skeleton, strlen(skeleton), given, 32);
        for (int i = 0; i < nm && !found && tried < DEFINE_REPAIR_MAX; i++)
            for (int j = 0; j < ng; j++) {
                if (strcmp(mine[i].name, given[j].name) != 0)
                    continue;
                const char *v = text + mine[i].value_b, *w = skeleton + given[j].value_b;
                size_t vn = mine[i].value_e - mine[i].value_b, wn = given[j].value_e - given[j].value_b;
                if (!values_differ(v, vn, w, wn) || vn >= sizeof r->from || wn >= sizeof r->to)
                    break;
                char *to = xasprintf("%.*s", (int)wn, w);
                tried++;
                if (define_mends(m, e, student_file, text, &mine[i], to, folder, tried, dirs, n, series_s)) {
                    repair_candidate c;
                    memset(&c, 0, sizeof c);
                    c.line = mine[i].line;
                    snprintf(c.kind, sizeof c.kind, "define");
                    snprintf(c.from, sizeof c.from, "%.*s", (int)vn, v);
                    snprintf(c.to, sizeof c.to, "%s", to);
                    size_t cb = mine[i].b, ce = mine[i].e;
                    while (cb < ce && isspace((unsigned char)text[cb]))
                        cb++;
                    while (ce > cb && isspace((unsigned char)text[ce - 1]))
                        ce--;
                    snprintf(c.context, sizeof c.context, "%.*s", (int)(ce - cb), text + cb);
                    c.at = mine[i].value_b >= cb && mine[i].value_b - cb < sizeof c.context ? (int)(mine[i].value_b - cb)
                                                                                            : -1;
                    c.datasets_right = n;
                    c.confirmed = 1;
                    free(r->sentence);
                    r->found = REPAIR_FULL;
                    r->datasets_right = r->datasets = n;
                    r->also_line = 0;
                    keep_candidate(r, &c);
                    r->sentence = repairs_sentence(&c, 1, n, r->dataset, r->wrong, NULL);
                    found = 1;
                }
                free(to);
                break;
            }
    }
    free(text);
    free(skeleton);
    return found;
}

void repair_stage(const lab_manifest *m, const backend *b, const char *student_file, const char *const *dirs,
                  const int *failing, int nfailing, const int *lines, int nlines, double timeout_s, int keep,
                  submission_result *s)
{
    stage_times *stages = &s->stages;
    repair_result *r = &s->repair;
    if (!repair_wanted(s) || nfailing < 1)
        return;
    double started = monotonic_s();
    /* a candidate's run of every dataset: about the program's own (the
     * graded runs'), never the lab's limit for each (a grid of k x k
     * blocks for the tiles' count mends the small dataset screened, and
     * ran minutes on the large ones), with room for a repaired program
     * that runs further than the one that crashed */
    double own_s = 0;
    for (int i = 0; i < s->ndatasets; i++)
        own_s += s->datasets[i].wall_s > 0 ? s->datasets[i].wall_s : 0;
    double series_s = REPAIR_CONFIRM_FACTOR * own_s + REPAIR_CONFIRM_FLOOR_S;
    if (series_s > timeout_s * s->ndatasets)
        series_s = timeout_s * s->ndatasets;
    backend emu;
    memset(&emu, 0, sizeof emu);
    const backend *e = b->kind == BACKEND_EMU ? b : backend_emulator(&emu) ? &emu : NULL;
    char *folder = e ? make_temp_dir("gpulab") : NULL;
    build_result br;
    memset(&br, 0, sizeof br);
    if (e) {
        double t = stage_clock();
        build_emu_schemata(m, e, student_file, folder, &br);
        stage_add(stages, t, "repair build");
    }
    int nc = 0, total = 0;
    repair_candidate *c = br.ok ? read_candidates(folder, &nc, &total) : NULL;
    if (c && nc > 0) {
        r->ran = 1;
        for (int i = 0; i < nc; i++)
            for (int j = 0; j < nlines; j++)
                c[i].pointed |= c[i].line == lines[j];
        char *source = read_file(student_file, NULL);
        if (source) {
            repairs_mark_foreign(c, nc, source);
            nc = repairs_drop_grid_as_block(c, nc, source);
        }
        free(source);
        repairs_sort(c, nc);
        /* the failing datasets, the one screened first at the front */
        int *order = xcalloc((size_t)nfailing, sizeof(int));
        memcpy(order, failing, (size_t)nfailing * sizeof(int));
        const dataset_result *d = &s->datasets[order[0]];
        snprintf(r->dataset, sizeof r->dataset, "%s", d->name);
        r->candidates = total;
        int *pick = xcalloc((size_t)nc, sizeof(int));
        double budget = REPAIR_SCREEN_BUDGET_S, screen_s = 0, confirm_s = 0;
        int null_id = 0, tried = 0, first_batch = 1, tries = 1;
        for (int i = 0; i < nc; i++)
            null_id = c[i].id > null_id ? c[i].id : null_id;
        /* In batches of whole tiers (repairs_tie: candidates the evidence
         * does not tell apart), in order: a repair is the first candidate
         * that mends every dataset, or one that ties with it, so once a
         * batch has confirmed one, no later candidate can be named, and the
         * rest are not run (a third to a half of a wrong file's check was
         * the screening of candidates past the repair). The program as
         * written runs again in each batch (its wrong elements are what a
         * candidate mends), the null candidate in the first alone. */
        for (int from = 0, batch = 1; from < nc && budget > 0 && !r->found; batch++) {
            int to = from + 1;
            while (to < nc && (to - from < REPAIR_BATCH || repairs_tie(&c[to], &c[to - 1])))
                to++;
            int n = 0;
            for (int i = from; i < to; i++)
                pick[n++] = i;
            /* a candidate has a few times the program's own run, and a
             * half a second more (REPAIR_CANDIDATE_FLOOR_S: with a quarter,
             * the child's start made a right candidate run out of time now
             * and then) */
            double t = stage_clock();
            int ran = screen(m, br.program, folder, batch, 1, dirs[order[0]], d->status == ST_WRONG,
                             batch == first_batch ? null_id + 1 : 0, c, pick, n,
                             4 * d->wall_s + REPAIR_CANDIDATE_FLOOR_S, &budget, student_file, &r->wrong, &r->ended);
            if (ran < 0 && batch == first_batch && tries < nfailing && tries < REPAIR_SCREEN_TRIES) {
                /* the program as written comes out right in this build on
                 * that dataset (a read past an array that finds 0 here), or
                 * the build does not hold it: no verdict there, but another
                 * failing dataset may give one (a 1 x 1 x 1 matrix whose
                 * one read past M finds 0 where a 7 x 113 x 23 one is wrong
                 * everywhere) */
                int swap = order[0];
                order[0] = order[tries];
                order[tries++] = swap;
                d = &s->datasets[order[0]];
                snprintf(r->dataset, sizeof r->dataset, "%s", d->name);
                r->wrong = 0;
                first_batch = batch + 1;
                screen_s += stage_clock() - t;
                continue;
            }
            if (ran < 0) { /* the evidence does not hold still: no verdict */
                r->screened = batch == first_batch ? ran : r->screened;
                screen_s += stage_clock() - t;
                break;
            }
            r->screened += ran;
            /* the few that mend it, on the other failing datasets, smallest
             * first: a 1 x 1 dataset is mended by many an edit that mends
             * nothing else, and a run of one dataset costs less than the
             * series of every dataset that confirms a repair */
            n = 0;
            for (int i = from; i < to; i++)
                if (c[i].screened_right)
                    pick[n++] = i;
            for (int k = 1; k < nfailing && n > 1 && budget > 0 && ran > 0; k++) {
                const dataset_result *dk = &s->datasets[order[k]];
                size_t ignored;
                screen(m, br.program, folder, batch, k + 1, dirs[order[k]], 0, 0, c, pick, n,
                       4 * dk->wall_s + REPAIR_CANDIDATE_FLOOR_S, &budget, student_file, &ignored, &r->ended);
                int kept = 0;
                for (int i = 0; i < n; i++)
                    if (c[pick[i]].screened_right)
                        pick[kept++] = pick[i];
                n = kept;
            }
            screen_s += stage_clock() - t;
            t = stage_clock();
            if (r->screened > 0)
                confirm(m, br.program, folder, dirs, s->ndatasets, order, c, to, nc, series_s, student_file, &tried,
                        r);
            confirm_s += stage_clock() - t;
            from = to;
        }
        free(pick);
        free(order);
        stage_add_seconds(stages, screen_s, "repair screen");
        stage_add_seconds(stages, confirm_s, "repair confirm");
        if (r->screened > 0 && !r->found && r->wrong > 0) {
            int p = repairs_best_partial(c, nc, r->wrong);
            if (p >= 0) {
                r->found = REPAIR_PARTIAL;
                r->fixed = c[p].fixed;
                keep_candidate(r, &c[p]);
                r->sentence = repairs_sentence(&c[p], 0, s->ndatasets, r->dataset, r->wrong, NULL);
            }
        }
    }
    free(c);
    build_result_free(&br);
    /* no repair the switches could make: a constant of the skeleton's,
     * given another value, may be the mistake (it sizes what no switch
     * can edit) */
    if (folder && r->found != REPAIR_FULL) {
        double t = stage_clock();
        if (!r->dataset[0])
            snprintf(r->dataset, sizeof r->dataset, "%s", s->datasets[failing[0]].name);
        if (define_repair(m, e, student_file, folder, dirs, s->ndatasets, series_s, r))
            r->ran = 1;
        stage_add(stages, t, "repair define");
    }
    if (folder) {
        if (keep)
            fprintf(stderr, "gpulab: kept the repair search's folder %s\n", folder);
        else
            remove_work_dir(folder);
    }
    free(folder);
    free(emu.compiler);
    r->seconds = monotonic_s() - started;
}

int repair_strong(const repair_result *r)
{
    return r->found == REPAIR_FULL && r->sentence && r->datasets >= REPAIR_STRONG_DATASETS;
}
