/*
 * manifest.c - loading and validating labs/<id>/lab.json; see manifest.h.
 *
 * Validation is strict: an unknown key is an error, so a typo in a manifest
 * ("timout_s") is caught instead of silently ignored.
 */
#define _GNU_SOURCE
#include "manifest.h"
#include "expr.h"
#include "kit.h"
#include "util.h"

#include <cJSON.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *manifest_path;

static void bad(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void bad(const char *fmt, ...)
{
    va_list ap;
    char msg[1024];
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    die("%s: %s", manifest_path, msg);
}

static void only_keys(const cJSON *obj, const char *where, const char *const *allowed)
{
    for (const cJSON *it = obj->child; it; it = it->next) {
        int ok = 0;
        for (const char *const *a = allowed; *a; a++)
            if (strcmp(it->string, *a) == 0)
                ok = 1;
        if (!ok)
            bad("unknown key \"%s\" in %s", it->string, where);
    }
}

static char *get_string(const cJSON *obj, const char *key, int required)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (required)
            bad("missing \"%s\" (a string)", key);
        return NULL;
    }
    if (!cJSON_IsString(v) || !v->valuestring[0])
        bad("\"%s\" must be a non-empty string", key);
    return xstrdup(v->valuestring);
}

static double get_number(const cJSON *obj, const char *key, double def, double min, double max)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v)
        return def;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < min || v->valuedouble > max)
        bad("\"%s\" must be a number from %g to %g", key, min, max);
    return v->valuedouble;
}

static void load_tolerance(const cJSON *root, tolerance_model *t)
{
    const cJSON *tol = cJSON_GetObjectItemCaseSensitive(root, "tolerance");
    if (!tol || !cJSON_IsObject(tol))
        bad("missing \"tolerance\" (an object)");
    static const char *const keys[] = { "atol", "rtol", "sum_ulps", "fallback_rtol", NULL };
    only_keys(tol, "\"tolerance\"", keys);
    t->atol = get_number(tol, "atol", 0, 0, 1);
    t->rtol = get_number(tol, "rtol", 0, 0, 1);
    t->sum_ulps = get_number(tol, "sum_ulps", 2, 0, 1e6);
    t->fallback_rtol = get_number(tol, "fallback_rtol", 1e-5, 0, 1);
}

static void load_dataset(const cJSON *d, int index, dataset_spec *s)
{
    if (!cJSON_IsObject(d))
        bad("datasets[%d] must be an object", index);
    static const char *const keys[] = { "name", "points", "params", "on_demand", NULL };
    only_keys(d, "a dataset", keys);
    s->name = get_string(d, "name", 1);
    for (const char *c = s->name; *c; c++)
        if (!(*c == '-' || *c == '_' || *c == '.' || (*c >= '0' && *c <= '9') ||
              (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z')) || s->name[0] == '.')
            bad("dataset name \"%s\": use letters, digits, '-', '_' and '.' only", s->name);
    s->points = get_number(d, "points", 1, 0, 1000);
    const cJSON *od = cJSON_GetObjectItemCaseSensitive(d, "on_demand");
    if (od && !cJSON_IsBool(od))
        bad("dataset \"%s\": \"on_demand\" must be true or false", s->name);
    s->on_demand = od && cJSON_IsTrue(od);
    const cJSON *params = cJSON_GetObjectItemCaseSensitive(d, "params");
    if (!params || !cJSON_IsObject(params))
        bad("dataset \"%s\": missing \"params\" (an object of generator parameters)", s->name);
    s->nparams = cJSON_GetArraySize(params);
    s->keys = xcalloc((size_t)s->nparams + 1, sizeof(char *));
    s->values = xcalloc((size_t)s->nparams + 1, sizeof(char *));
    int i = 0;
    for (const cJSON *p = params->child; p; p = p->next, i++) {
        s->keys[i] = xstrdup(p->string);
        if (cJSON_IsNumber(p) && p->valuedouble == floor(p->valuedouble))
            s->values[i] = xasprintf("%.0f", p->valuedouble);
        else if (cJSON_IsString(p))
            s->values[i] = xstrdup(p->valuestring);
        else
            bad("dataset \"%s\": parameter \"%s\" must be a whole number or a string", s->name, p->string);
    }
}

static int dataset_param_present(const dataset_spec *d, const char *key)
{
    for (int i = 0; i < d->nparams; i++)
        if (strcmp(d->keys[i], key) == 0)
            return 1;
    return 0;
}

/* A whole-number parameter of a dataset (>= 1), for the work a call does;
 * -1 when it is missing or not one. */
static double dataset_param(const dataset_spec *d, const char *key)
{
    for (int i = 0; i < d->nparams; i++)
        if (strcmp(d->keys[i], key) == 0) {
            char *end;
            double v = strtod(d->values[i], &end);
            return *end || v < 1 ? -1 : v;
        }
    return -1;
}

int manifest_work_dims(work_kind w, const dataset_spec *d, double dims[3], const char **bad_key)
{
    static const char *const matmul[] = { "j", "k", "l" }, *const square[] = { "width", "width", "width" },
                             *const image[] = { "height", "width", "channels" };
    const char *const *keys = w == WORK_IMAGE ? image : dataset_param_present(d, "width") ? square : matmul;
    if (w != WORK_MATMUL && w != WORK_IMAGE)
        return -1;
    for (int i = 0; i < 3; i++)
        if ((dims[i] = dataset_param(d, keys[i])) < 0) {
            if (bad_key)
                *bad_key = keys[i];
            return -1;
        }
    return 0;
}

static void load_performance(const cJSON *root, lab_manifest *m)
{
    performance_spec *p = &m->perf;
    p->dataset = -1;
    const cJSON *perf = cJSON_GetObjectItemCaseSensitive(root, "performance");
    if (!perf)
        return;
    if (!cJSON_IsObject(perf))
        bad("\"performance\" must be an object: { \"dataset\": NAME, \"work\": \"matmul\"|\"image\", ... }");
    static const char *const keys[] = { "dataset", "work", "bands", NULL };
    only_keys(perf, "\"performance\"", keys);
    char *name = get_string(perf, "dataset", 1);
    for (int i = 0; i < m->ndatasets; i++)
        if (strcmp(m->datasets[i].name, name) == 0)
            p->dataset = i;
    if (p->dataset < 0)
        bad("\"performance\": no dataset is named \"%s\"", name);
    free(name);
    const dataset_spec *d = &m->datasets[p->dataset];
    char *work = get_string(perf, "work", 1);
    if (strcmp(work, "matmul") == 0)
        p->work = WORK_MATMUL;
    else if (strcmp(work, "image") == 0)
        p->work = WORK_IMAGE;
    else
        bad("\"performance\": \"work\" is \"%s\"; it must be \"matmul\" or \"image\"", work);
    double dims[3];
    const char *key = "?";
    if (manifest_work_dims(p->work, d, dims, &key) != 0)
        bad("dataset \"%s\" has no \"%s\" parameter that is a whole number >= 1, which \"performance\" needs",
            d->name, key);
    p->j = dims[0];
    p->k = dims[1];
    p->l = dims[2];
    /* matmul: 2 j k l floating-point operations; image: each element in and out */
    p->amount = p->work == WORK_MATMUL ? 2 * p->j * p->k * p->l : 2 * p->j * p->k * p->l * sizeof(float);
    free(work);
    const cJSON *bands = cJSON_GetObjectItemCaseSensitive(perf, "bands");
    if (!bands)
        return;
    if (!cJSON_IsArray(bands))
        bad("\"performance\": \"bands\" must be an array of { \"at_least\": FRACTION, \"points\": N }");
    p->nbands = cJSON_GetArraySize(bands);
    p->bands = xcalloc((size_t)p->nbands + 1, sizeof *p->bands);
    int i = 0;
    for (const cJSON *b = bands->child; b; b = b->next, i++) {
        if (!cJSON_IsObject(b))
            bad("\"performance\": bands[%d] must be an object", i);
        static const char *const bkeys[] = { "at_least", "points", NULL };
        only_keys(b, "a performance band", bkeys);
        p->bands[i].at_least = get_number(b, "at_least", -1, 0, 100);
        p->bands[i].points = get_number(b, "points", -1, 0, 1000);
        if (p->bands[i].at_least < 0 || p->bands[i].points < 0)
            bad("\"performance\": bands[%d] needs \"at_least\" and \"points\"", i);
        if (i > 0 && (p->bands[i].at_least <= p->bands[i - 1].at_least ||
                      p->bands[i].points < p->bands[i - 1].points))
            bad("\"performance\": bands[%d] must ask more (at_least) and give no fewer points than "
                "the band before it", i);
        p->points = p->bands[i].points;
    }
}

/* lab.json's name of each requirement kind */
static const char *const requirement_names[REQ_COUNT] = { "shared_memory", "barrier", "constant_memory",
                                                          "no_hazards", "two_batch", "global_reuse" };

const char *requirement_name(requirement_kind k)
{
    return k < REQ_COUNT ? requirement_names[k] : "unknown";
}

static void load_requirements(const cJSON *root, lab_manifest *m)
{
    const cJSON *reqs = cJSON_GetObjectItemCaseSensitive(root, "requirements");
    if (!reqs)
        return;
    if (!cJSON_IsArray(reqs))
        bad("\"requirements\" must be an array");
    m->nrequirements = cJSON_GetArraySize(reqs);
    m->requirements = xcalloc((size_t)m->nrequirements + 1, sizeof *m->requirements);
    int i = 0;
    for (const cJSON *r = reqs->child; r; r = r->next, i++) {
        if (!cJSON_IsObject(r))
            bad("requirements[%d] must be an object", i);
        static const char *const keys[] = { "name", "points", NULL };
        only_keys(r, "a requirement", keys);
        requirement_spec *q = &m->requirements[i];
        q->name = get_string(r, "name", 1);
        q->kind = REQ_COUNT;
        for (int k = 0; k < REQ_COUNT; k++)
            if (strcmp(q->name, requirement_names[k]) == 0)
                q->kind = (requirement_kind)k;
        if (q->kind == REQ_COUNT)
            bad("unknown requirement \"%s\" (known: shared_memory, barrier, constant_memory, no_hazards, "
                "two_batch, global_reuse)", q->name);
        for (int j = 0; j < i; j++)
            if (m->requirements[j].kind == q->kind)
                bad("requirement \"%s\" is listed twice", q->name);
        q->points = get_number(r, "points", 1, 0, 1000);
    }
}

/* An expression of a tile's: it must read with every name a tile's
 * expression may use (common/expr.h), and no other. Each name is 37 for
 * the test, a value no lab's divisor (T - 4, say) comes to 0 at. */
static char *get_tile_expr(const cJSON *t, const char *key, int required, int i)
{
    char *text = get_string(t, key, required);
    if (!text)
        return NULL;
    static const char *const names[] = { "bx", "by", "ph", "i", "j", "T", "rows", "cols", "channels" };
    expr_var vars[sizeof names / sizeof *names];
    for (size_t k = 0; k < sizeof names / sizeof *names; k++)
        vars[k] = (expr_var){ names[k], 37 };
    long v;
    char why[128];
    if (expr_eval(text, vars, (int)(sizeof names / sizeof *names), &v, why, sizeof why) != 0)
        bad("\"tiles\"[%d].%s \"%s\": %s (names: bx, by, ph, i, j, T, rows, cols, channels)", i, key, text, why);
    return text;
}

static void load_tiles(const cJSON *root, lab_manifest *m)
{
    const cJSON *ts = cJSON_GetObjectItemCaseSensitive(root, "tiles");
    if (!ts)
        return;
    if (!cJSON_IsArray(ts))
        bad("\"tiles\" must be an array of { \"input\", \"name\", \"row\", \"col\", \"phases\" }");
    m->ntiles = cJSON_GetArraySize(ts);
    m->tiles = xcalloc((size_t)m->ntiles + 1, sizeof *m->tiles);
    int i = 0;
    for (const cJSON *t = ts->child; t; t = t->next, i++) {
        if (!cJSON_IsObject(t))
            bad("\"tiles\"[%d] must be an object", i);
        static const char *const keys[] = { "input", "name", "row", "col", "channel", "phases", NULL };
        only_keys(t, "a tile", keys);
        tile_spec *q = &m->tiles[i];
        q->input = get_string(t, "input", 1);
        q->name = get_string(t, "name", 1);
        q->row = get_tile_expr(t, "row", 1, i);
        q->col = get_tile_expr(t, "col", 1, i);
        q->channel = get_tile_expr(t, "channel", 0, i);
        q->phases = get_tile_expr(t, "phases", 1, i);
    }
}

static long gcd(long a, long b)
{
    while (b) {
        long t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* "hidden_shapes": { "params": ["j", "k", "l"], "moduli": [16] }: the
 * params that are sizes, and the tile sides whose multiples, and one off
 * them, make the lab's families of shapes. */
static void load_hidden_shapes(const cJSON *root, lab_manifest *m)
{
    const cJSON *h = cJSON_GetObjectItemCaseSensitive(root, "hidden_shapes");
    if (!h)
        return;
    if (!cJSON_IsObject(h))
        bad("\"hidden_shapes\" must be an object: { \"params\": [NAME, ...], \"moduli\": [N, ...] }");
    static const char *const keys[] = { "params", "moduli", NULL };
    only_keys(h, "\"hidden_shapes\"", keys);
    const cJSON *ps = cJSON_GetObjectItemCaseSensitive(h, "params");
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(h, "moduli");
    if (!cJSON_IsArray(ps) || cJSON_GetArraySize(ps) == 0)
        bad("\"hidden_shapes\": \"params\" must be a non-empty array of parameter names");
    if (!cJSON_IsArray(ms) || cJSON_GetArraySize(ms) == 0)
        bad("\"hidden_shapes\": \"moduli\" must be a non-empty array of tile sides");
    m->nshape_params = cJSON_GetArraySize(ps);
    m->shape_params = xcalloc((size_t)m->nshape_params, sizeof *m->shape_params);
    int i = 0;
    for (const cJSON *p = ps->child; p; p = p->next, i++) {
        if (!cJSON_IsString(p) || !p->valuestring[0])
            bad("\"hidden_shapes\": \"params\"[%d] must be a parameter's name", i);
        m->shape_params[i] = xstrdup(p->valuestring);
    }
    m->shape_modulus = 1;
    for (const cJSON *v = ms->child; v; v = v->next) {
        if (!cJSON_IsNumber(v) || v->valuedouble < 1 || v->valuedouble > 1024 || v->valuedouble != (long)v->valuedouble)
            bad("\"hidden_shapes\": each of \"moduli\" must be a whole number from 1 to 1024");
        long t = (long)v->valuedouble;
        m->shape_modulus = m->shape_modulus / gcd(m->shape_modulus, t) * t;
    }
}

void manifest_load(const char *id, lab_manifest *m)
{
    memset(m, 0, sizeof *m);
    char *path = kit_path("labs/%s/lab.json", id);
    manifest_path = path;
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        die("%s: cannot read: %s", path, strerror(errno));
    cJSON *root = cJSON_ParseWithLength(text, len);
    if (!root) {
        const char *where = cJSON_GetErrorPtr();
        int line = 1;
        for (const char *c = text; where && c < where; c++)
            line += *c == '\n';
        bad("line %d: not valid JSON", line);
    }
    if (!cJSON_IsObject(root))
        bad("the manifest must be a JSON object");
    static const char *const keys[] = { "id", "title", "summary", "source", "entry_point", "expected",
                                        "seed", "timeout_s", "tolerance", "datasets", "requirements",
                                        "error_map", "performance", "program", "tiles", "late_penalty",
                                        "hidden_shapes", NULL };
    only_keys(root, "the manifest", keys);
    m->id = get_string(root, "id", 1);
    if (strcmp(m->id, id) != 0)
        bad("\"id\" is \"%s\" but the lab's directory is labs/%s", m->id, id);
    m->title = get_string(root, "title", 1);
    m->summary = get_string(root, "summary", 0);
    m->source = get_string(root, "source", 1);
    m->entry_point = get_string(root, "entry_point", 1);
    /* "program": "libwb": the student's file is a whole Teaching Kit program
     * (gpulab import-wb), run through grader/runtime/wb/wb_harness.c. */
    char *program = get_string(root, "program", 0);
    if (program && strcmp(program, "libwb") != 0)
        bad("\"program\" is \"%s\"; the one kind of whole program the kit runs is \"libwb\"", program);
    m->libwb_program = program != NULL;
    free(program);
    m->expected = get_string(root, "expected", 0);
    if (!m->expected)
        m->expected = xstrdup("expected.tensor");
    m->seed = (unsigned long long)get_number(root, "seed", 1, 0, 9007199254740991.0);
    m->timeout_s = get_number(root, "timeout_s", 20, 0.1, 3600);
    m->late_penalty = get_number(root, "late_penalty", 0, 0, 100);
    load_tolerance(root, &m->tolerance);
    const cJSON *ds = cJSON_GetObjectItemCaseSensitive(root, "datasets");
    if (!ds || !cJSON_IsArray(ds) || cJSON_GetArraySize(ds) == 0)
        bad("missing \"datasets\" (a non-empty array)");
    m->ndatasets = cJSON_GetArraySize(ds);
    m->datasets = xcalloc((size_t)m->ndatasets, sizeof *m->datasets);
    int i = 0;
    for (const cJSON *d = ds->child; d; d = d->next, i++) {
        load_dataset(d, i, &m->datasets[i]);
        for (int j = 0; j < i; j++)
            if (strcmp(m->datasets[j].name, m->datasets[i].name) == 0)
                bad("two datasets are named \"%s\"", m->datasets[i].name);
    }
    load_requirements(root, m);
    const cJSON *map = cJSON_GetObjectItemCaseSensitive(root, "error_map");
    if (map) {
        if (!cJSON_IsObject(map))
            bad("\"error_map\" must be an object: { \"tile_width\": N, \"halo\": N }");
        static const char *const mkeys[] = { "tile_width", "halo", NULL };
        only_keys(map, "\"error_map\"", mkeys);
        m->errormap_tile = (int)get_number(map, "tile_width", 16, 1, 1024);
        m->errormap_halo = (int)get_number(map, "halo", 1, 0, 64);
    }
    load_tiles(root, m);
    load_performance(root, m);
    load_hidden_shapes(root, m);
    m->dir = kit_path("labs/%s", id);
    cJSON_Delete(root);
    free(text);
    manifest_path = NULL;
    free(path);
}

void manifest_free(lab_manifest *m)
{
    free(m->id);
    free(m->title);
    free(m->summary);
    free(m->source);
    free(m->entry_point);
    free(m->expected);
    free(m->dir);
    for (int i = 0; i < m->ndatasets; i++) {
        dataset_spec *s = &m->datasets[i];
        for (int j = 0; j < s->nparams; j++) {
            free(s->keys[j]);
            free(s->values[j]);
        }
        free(s->keys);
        free(s->values);
        free(s->name);
    }
    free(m->datasets);
    for (int i = 0; i < m->nrequirements; i++)
        free(m->requirements[i].name);
    free(m->requirements);
    free(m->perf.bands);
    for (int i = 0; i < m->ntiles; i++) {
        tile_spec *t = &m->tiles[i];
        free(t->input);
        free(t->name);
        free(t->row);
        free(t->col);
        free(t->channel);
        free(t->phases);
    }
    free(m->tiles);
    for (int i = 0; i < m->nshape_params; i++)
        free(m->shape_params[i]);
    free(m->shape_params);
    memset(m, 0, sizeof *m);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **manifest_list_ids(int *n)
{
    char *labs = kit_path("labs");
    DIR *d = opendir(labs);
    if (!d)
        die("cannot list %s: %s", labs, strerror(errno));
    char **ids = NULL;
    int count = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (e->d_name[0] == '.')
            continue;
        char *json = xasprintf("%s/%s/lab.json", labs, e->d_name);
        if (file_exists(json)) {
            ids = xrealloc(ids, sizeof(char *) * (size_t)(count + 1));
            ids[count++] = xstrdup(e->d_name);
        }
        free(json);
    }
    closedir(d);
    free(labs);
    if (count)
        qsort(ids, (size_t)count, sizeof(char *), cmp_str);
    *n = count;
    return ids;
}

char *manifest_resolve(const char *name)
{
    int n;
    char **ids = manifest_list_ids(&n);
    char *found = NULL;
    char *end;
    long num = strtol(name, &end, 10);
    int numeric = *name && *end == '\0';
    for (int i = 0; i < n && !found; i++) {
        if (strcmp(ids[i], name) == 0 || (numeric && strtol(ids[i], NULL, 10) == num))
            found = xstrdup(ids[i]);
    }
    if (!found) {
        strbuf sb;
        sb_init(&sb);
        for (int i = 0; i < n; i++)
            sb_printf(&sb, "%s%s", i ? ", " : "", ids[i]);
        die("no lab named \"%s\"; the labs are: %s", name, n ? sb.buf : "(none)");
    }
    for (int i = 0; i < n; i++)
        free(ids[i]);
    free(ids);
    return found;
}

double manifest_max_points(const lab_manifest *m)
{
    double total = 0;
    for (int i = 0; i < m->ndatasets; i++)
        if (!m->datasets[i].on_demand)
            total += m->datasets[i].points;
    for (int i = 0; i < m->nrequirements; i++)
        total += m->requirements[i].points;
    return total;
}

int manifest_find_dataset(const lab_manifest *m, const char *name)
{
    for (int i = 0; i < m->ndatasets; i++)
        if (strcmp(m->datasets[i].name, name) == 0)
            return i;
    char *end;
    long k = strtol(name, &end, 10);
    if (*name && *end == '\0' && k >= 1 && k <= m->ndatasets)
        return (int)k - 1;
    return -1;
}

char *manifest_skeleton_path(const lab_manifest *m)
{
    return kit_path("skeletons/%s/%s", m->id, m->source);
}
