/*
 * wb.c - the kit's implementation of the libwb API that NVIDIA/Illinois GPU
 * Teaching Kit programs call (wb_runtime.h; wb.h adds the C++ overloads).
 * Written for this kit from libwb's documented behaviour, with the kit's own
 * readers (dataset.c) and its comparison rule (tolerance.c): a Kit program
 * reads the Kit's files and is judged the way the kit judges its own labs.
 * Linked into the program (libgpulab_wb.a), so it runs in the student's
 * process: `gpulab wb` judges the output again in its own (WB_ENV_SOLUTION).
 */
#define _POSIX_C_SOURCE 200809L
#include "wb_runtime.h"
#include "dataset.h"
#include "tolerance.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

/* How many of the worst elements a verdict lists. */
#define WB_WORST 5
/* Timers that may run at once (nested or overlapping wbTime_start calls). */
#define WB_TIMERS 64

static void wb_fail(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void wb_fail(const char *fmt, ...)
{
    fflush(stdout);
    va_list ap;
    va_start(ap, fmt);
    fputs("wb: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(WB_EXIT_ERROR);
}

static char *wb_strdup(const char *s)
{
    char *d = malloc(strlen(s) + 1);
    if (!d)
        wb_fail("out of memory");
    return strcpy(d, s);
}



/* ---- arguments ------------------------------------------------------------ */

/* -i's comma-separated list; an empty name is a mistake worth saying. */
static void split_inputs(const char *list, wbArg_t *a)
{
    int n = 1;
    for (const char *c = list; *c; c++)
        n += *c == ',';
    a->inputs = calloc((size_t)n, sizeof *a->inputs);
    if (!a->inputs)
        wb_fail("out of memory");
    const char *start = list;
    for (int i = 0; i < n; i++) {
        const char *end = strchr(start, ',');
        size_t len = end ? (size_t)(end - start) : strlen(start);
        if (len == 0)
            wb_fail("wbArg_read: -i '%s' has an empty file name (input %d)", list, i);
        char *name = malloc(len + 1);
        if (!name)
            wb_fail("out of memory");
        memcpy(name, start, len);
        name[len] = '\0';
        a->inputs[i] = name;
        start = end ? end + 1 : start + len;
    }
    a->ninputs = n;
}

wbArg_t wbArg_read(int argc, char **argv)
{
    wbArg_t a;
    memset(&a, 0, sizeof a);
    for (int i = 1; i < argc; i++) {
        const char *opt = argv[i];
        char **slot = strcmp(opt, "-e") == 0 ? &a.expected
                      : strcmp(opt, "-o") == 0 ? &a.output
                      : strcmp(opt, "-t") == 0 ? &a.type
                                               : NULL;
        if (!slot && strcmp(opt, "-i") != 0) {
            fprintf(stderr, "wbArg_read: ignoring the argument '%s' (libwb's are -i, -e, -o, -t)\n", opt);
            continue;
        }
        if (i + 1 >= argc)
            wb_fail("wbArg_read: %s needs a value", opt);
        const char *value = argv[++i];
        if (!slot) {
            if (a.inputs)
                wb_fail("wbArg_read: -i given twice (name every input once: -i in0,in1)");
            split_inputs(value, &a);
            continue;
        }
        free(*slot);
        *slot = wb_strdup(value);
    }
    return a;
}

void wbArg_delete(wbArg_t a)
{
    for (int i = 0; i < a.ninputs; i++)
        free(a.inputs[i]);
    free(a.inputs);
    free(a.expected);
    free(a.output);
    free(a.type);
}

int wbArg_getInputCount(wbArg_t a)
{
    return a.ninputs;
}

char *wbArg_getInputFile(wbArg_t a, int index)
{
    if (index < 0 || index >= a.ninputs)
        wb_fail("wbArg_getInputFile: input %d was asked for, but -i named %d file%s", index, a.ninputs,
                a.ninputs == 1 ? "" : "s");
    return a.inputs[index];
}

char *wbArg_getExpectedOutputFile(wbArg_t a)
{
    return a.expected;
}

char *wbArg_getOutputFile(wbArg_t a)
{
    return a.output;
}

char *wbArg_getType(wbArg_t a)
{
    return a.type;
}

/* ---- files ---------------------------------------------------------------- */

float *wb_import_floats(const char *file, int *rows, int *cols)
{
    if (!file)
        wb_fail("wbImport: no file name (is an input missing from -i?)");
    gl_matrix m;
    gl_error err;
    if (gl_read_libwb(file, &m, &err))
        wb_fail("wbImport: %s", err.msg);
    if (m.channels != 1) {
        gl_matrix_free(&m);
        wb_fail("wbImport: %s is an image: import it with wbImport(file), which returns a wbImage_t", file);
    }
    if (cols) {
        *rows = m.rows;
        *cols = m.cols;
    } else {
        *rows = m.rows * m.cols; /* a vector, whichever way the file holds it */
    }
    return m.data;
}

int *wb_import_ints(const char *file, int *rows, int *cols)
{
    int r, c;
    float *f = wb_import_floats(file, &r, &c);
    size_t n = (size_t)r * (size_t)c;
    int *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        wb_fail("out of memory");
    for (size_t i = 0; i < n; i++) {
        /* 2^24: past it a float (the reader's) no longer holds every whole number */
        if (f[i] != floorf(f[i]) || fabsf(f[i]) > 16777216.0f)
            wb_fail("wbImport: %s: value %zu of %zu is %g, not a whole number (imported as \"Integer\")", file,
                    i + 1, n, f[i]);
        v[i] = (int)f[i];
    }
    free(f);
    if (cols) {
        *rows = r;
        *cols = c;
    } else {
        *rows = r * c;
    }
    return v;
}

int wb_import_flag(const char *file)
{
    int length;
    char *text = wb_import_text(file, &length);
    char *end;
    errno = 0;
    long v = strtol(text, &end, 10);
    while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
        end++;
    if (end == text || *end || errno || v < -2147483647L || v > 2147483647L)
        wb_fail("wbImport_flag: %s must hold one whole number and nothing else", file);
    free(text);
    return (int)v;
}

/* The largest text a Kit program imports (the dataset files' own limit). */
#define WB_TEXT_MAX (256L << 20)

char *wb_import_text(const char *file, int *length)
{
    if (!file)
        wb_fail("wbImport: no file name (is an input missing from -i?)");
    FILE *f = fopen(file, "rb");
    if (!f)
        wb_fail("wbImport: cannot open %s: %s", file, strerror(errno));
    char *text = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n + 4096 + 1 > cap) {
            cap = cap ? 2 * cap : 65536;
            char *more = realloc(text, cap);
            if (!more)
                wb_fail("out of memory");
            text = more;
        }
        size_t got = fread(text + n, 1, 4096, f);
        n += got;
        if (n > (size_t)WB_TEXT_MAX)
            wb_fail("wbImport: %s is larger than %ld bytes", file, WB_TEXT_MAX);
        if (got < 4096)
            break;
    }
    int failed = ferror(f);
    fclose(f);
    if (failed)
        wb_fail("wbImport: cannot read %s", file);
    text[n] = '\0';
    *length = (int)n;
    return text;
}

wbImage_t wb_import_image(const char *file)
{
    if (!file)
        wb_fail("wbImport: no file name (is an input missing from -i?)");
    if (!gl_is_libwb_image(file))
        wb_fail("wbImport: %s: wbImport(file) reads an image (.ppm or .pgm); a matrix needs "
                "wbImport(file, &rows, &cols)", file);
    gl_matrix m;
    gl_error err;
    if (gl_read_libwb(file, &m, &err))
        wb_fail("wbImport: %s", err.msg);
    wbImage_t img = malloc(sizeof *img);
    if (!img)
        wb_fail("out of memory");
    img->width = m.cols;
    img->height = m.rows;
    img->channels = m.channels;
    img->pitch = m.cols * m.channels;
    img->data = m.data;
    return img;
}

/* Writes a matrix or an image by the file name's ending; 0 or -1 with err. */
static int export_matrix(const char *file, const gl_matrix *m, gl_error *err)
{
    if (gl_is_libwb_image(file))
        return gl_write_ppm(file, m, err);
    return gl_write_raw(file, m, err);
}

void wb_export_floats(const char *file, const float *data, int rows, int cols)
{
    gl_matrix m = { rows, cols, 1, (float *)data };
    gl_error err;
    if (!file || !data || gl_check_dims(rows, cols, 1, "wbExport's data", &err) || export_matrix(file, &m, &err))
        wb_fail("wbExport: %s", !file ? "no file name" : !data ? "no data (a NULL pointer)" : err.msg);
}

void wb_export_image(const char *file, wbImage_t img)
{
    if (!file || !img)
        wb_fail("wbExport: %s", !file ? "no file name" : "no image (a NULL wbImage_t)");
    gl_matrix m = { img->height, img->width, img->channels, img->data };
    gl_error err;
    if (gl_write_ppm(file, &m, &err))
        wb_fail("wbExport: %s", err.msg);
}

/* ---- what dataset generators call ------------------------------------------ */

char *wbDirectory_current(void)
{
    char *cwd = getcwd(NULL, 0);
    if (!cwd)
        wb_fail("wbDirectory_current: %s", strerror(errno));
    return cwd;
}

char *wbDirectory_create(const char *path)
{
    if (!path || !*path)
        wb_fail("wbDirectory_create: no folder name");
    char *p = wb_strdup(path);
    for (char *c = p + 1;; c++) {
        if (*c != '/' && *c != '\0')
            continue;
        char was = *c;
        *c = '\0';
        if (mkdir(p, 0755) != 0 && errno != EEXIST)
            wb_fail("wbDirectory_create: cannot create %s: %s", p, strerror(errno));
        *c = was;
        if (!was)
            break;
    }
    return p;
}

/* A random value in [lo, hi]. */
static double draw(double lo, double hi)
{
    return lo + (hi - lo) * ((double)rand() / RAND_MAX);
}

/* wbDataset_generate's matrix: floats, or whole numbers (rounded draws). */
static void generate_raw(const char *file, const wbRaw_GenerateParams_t *p)
{
    gl_error err;
    if (gl_check_dims(p->rows, p->cols, 1, "wbDataset_generate's matrix", &err))
        wb_fail("%s", err.msg);
    if (p->type != wbType_float && p->type != wbType_integer && p->type != wbType_double)
        wb_fail("wbDataset_generate: %s: this kit generates wbType_float and wbType_integer matrices", file);
    size_t n = (size_t)p->rows * (size_t)p->cols;
    float *v = malloc(n * sizeof *v);
    if (!v)
        wb_fail("out of memory");
    for (size_t i = 0; i < n; i++) {
        double x = draw(p->minVal, p->maxVal);
        v[i] = (float)(p->type == wbType_integer ? floor(x + 0.5) : x);
    }
    wb_export_floats(file, v, p->rows, p->cols);
    free(v);
}

static void generate_ppm(const char *file, const wbPPM_GenerateParams_t *p)
{
    if (p->channels != 3)
        wb_fail("wbDataset_generate: %s: a .ppm image has 3 channels, not %d", file, p->channels);
    wbImage_t img = wbImage_new(p->width, p->height, p->channels);
    size_t n = (size_t)p->width * (size_t)p->height * (size_t)p->channels;
    for (size_t i = 0; i < n; i++) /* on the 8-bit steps the file can hold */
        img->data[i] = (float)(floor(draw(p->minVal, p->maxVal) * 255 + 0.5) / 255);
    wb_export_image(file, img);
    wbImage_delete(img);
}

void wbDataset_generate(const char *file, wbExportKind_t kind, wbGenerateParams_t params)
{
    if (!file)
        wb_fail("wbDataset_generate: no file name");
    const char *slash = strrchr(file, '/');
    if (slash && slash != file) {
        char *dir = wb_strdup(file);
        dir[slash - file] = '\0';
        free(wbDirectory_create(dir));
        free(dir);
    }
    if (kind == wbExportKind_raw)
        generate_raw(file, &params.raw);
    else if (kind == wbExportKind_ppm)
        generate_ppm(file, &params.ppm);
    else
        wb_fail("wbDataset_generate: %s: this kit generates wbExportKind_raw and wbExportKind_ppm files", file);
}

/* ---- images --------------------------------------------------------------- */

wbImage_t wbImage_new(int width, int height, int channels)
{
    gl_matrix m;
    gl_error err;
    if (gl_matrix_alloc(&m, height, width, channels, &err))
        wb_fail("wbImage_new(%d, %d, %d): %s", width, height, channels, err.msg);
    gl_fill_poison(m.data, gl_matrix_count(&m));
    wbImage_t img = malloc(sizeof *img);
    if (!img)
        wb_fail("out of memory");
    img->width = width;
    img->height = height;
    img->channels = channels;
    img->pitch = width * channels;
    img->data = m.data;
    return img;
}

void wbImage_delete(wbImage_t img)
{
    if (!img)
        return;
    free(img->data);
    free(img);
}

int wbImage_getWidth(wbImage_t img)
{
    return img->width;
}

int wbImage_getHeight(wbImage_t img)
{
    return img->height;
}

int wbImage_getChannels(wbImage_t img)
{
    return img->channels;
}

int wbImage_getPitch(wbImage_t img)
{
    return img->pitch;
}

float *wbImage_getData(wbImage_t img)
{
    return img->data;
}

/* ---- the verdict ---------------------------------------------------------- */

typedef struct {
    size_t index;
    double got, expected, bound, score;
    int never_written;
} wb_mismatch;

static int is_poison(float v)
{
    uint32_t bits;
    memcpy(&bits, &v, sizeof bits);
    return bits == GL_POISON_BITS;
}

/* Keeps the WB_WORST largest scores, largest first. */
static void keep_worst(wb_mismatch *worst, int *n, const wb_mismatch *m)
{
    if (*n == WB_WORST && m->score <= worst[WB_WORST - 1].score)
        return;
    int i = *n < WB_WORST ? (*n)++ : WB_WORST - 1;
    while (i > 0 && worst[i - 1].score < m->score) {
        worst[i] = worst[i - 1];
        i--;
    }
    worst[i] = *m;
}

static void print_place(size_t index, int rows, int cols, int channels)
{
    size_t pixel = index / (size_t)channels;
    int r = (int)(pixel / (size_t)cols), c = (int)(pixel % (size_t)cols);
    if (rows == 1 || cols == 1)
        printf("element %zu", pixel);
    else if (channels > 1)
        printf("row %d, column %d, channel %d", r, c, (int)(index % (size_t)channels));
    else
        printf("row %d, column %d", r, c);
}

/* A vector matches a vector of the same length whichever way each is laid
 * out (libwb's vector files have one dimension). */
static int same_shape(const gl_reference *ref, int rows, int cols, int channels)
{
    if (ref->channels != channels)
        return 0;
    if (ref->rows == rows && ref->cols == cols)
        return 1;
    int ref_vector = ref->rows == 1 || ref->cols == 1, vector = rows == 1 || cols == 1;
    return ref_vector && vector && (long long)ref->rows * ref->cols == (long long)rows * cols;
}

static void print_shape(int rows, int cols, int channels)
{
    if (channels > 1)
        printf("%d x %d pixels of %d channels", cols, rows, channels);
    else if (rows == 1 || cols == 1)
        printf("%lld elements", (long long)rows * cols);
    else
        printf("%d x %d", rows, cols);
}

int wb_solution(wbArg_t args, const float *data, int rows, int cols, int channels)
{
    fflush(stdout);
    gl_error err;
    if (!data || gl_check_dims(rows, cols, channels, "wbSolution's data", &err)) {
        printf("The solution is NOT correct: %s\n", !data ? "wbSolution was given no data (a NULL pointer)"
                                                          : err.msg);
        return 0;
    }
    gl_matrix got = { rows, cols, channels, (float *)data };
    const char *keep = getenv(WB_ENV_SOLUTION);
    if (keep && *keep && gl_write_output(keep, &got, &err))
        fprintf(stderr, "wbSolution: cannot keep the solution for the grader: %s\n", err.msg);
    if (args.output && export_matrix(args.output, &got, &err))
        fprintf(stderr, "wbSolution: cannot write -o's file: %s\n", err.msg);
    const char *graded = getenv(WB_ENV_GRADED);
    if (graded && *graded) {
        printf("wbSolution: the solution goes to the grader, which compares it once the program has ended\n");
        fflush(stdout);
        return 1;
    }
    if (!args.expected) {
        printf("The solution is NOT correct: there is no expected output to compare with (give -e FILE)\n");
        return 0;
    }
    gl_reference ref;
    if (gl_read_libwb_expected(args.expected, &ref, &err)) {
        printf("The solution is NOT correct: the expected output cannot be read: %s\n", err.msg);
        return 0;
    }
    if (!same_shape(&ref, rows, cols, channels)) {
        printf("The solution is NOT correct: the solution is ");
        print_shape(rows, cols, channels);
        printf(" but the expected output (%s) is ", args.expected);
        print_shape(ref.rows, ref.cols, ref.channels);
        printf("\n");
        gl_reference_free(&ref);
        return 0;
    }
    const char *rule_env = getenv(WB_ENV_TOLERANCE);
    tolerance_model tol = TOLERANCE_KIT_DEFAULT;
    tol.libwb = rule_env && strcmp(rule_env, "libwb") == 0;
    const char *rule = tol.libwb ? "libwb's tolerance, 0.2" : "the kit's tolerance";
    size_t n = gl_matrix_count(&got), bad = 0, never = 0, nonfinite = 0;
    double largest = 0, largest_share = 0;
    wb_mismatch worst[WB_WORST];
    int nworst = 0;
    for (size_t i = 0; i < n; i++) {
        double bound = tolerance_bound(&tol, &ref, i);
        double diff = fabs((double)data[i] - ref.value[i]);
        int finite = isfinite(data[i]);
        if (finite && diff > largest)
            largest = diff;
        if (finite && bound > 0 && diff / bound > largest_share)
            largest_share = diff / bound;
        if (finite && diff <= bound)
            continue;
        bad++;
        wb_mismatch m = { i, data[i], ref.value[i], bound, finite ? diff / bound : HUGE_VAL, is_poison(data[i]) };
        never += m.never_written;
        nonfinite += !finite && !m.never_written;
        keep_worst(worst, &nworst, &m);
    }
    if (bad == 0) {
        printf("The solution is correct: all %zu elements within %s (largest difference %.3g, %.0f%% of "
               "its element's bound)\n", n, rule, largest, 100.0 * largest_share);
    } else {
        printf("The solution is NOT correct: %zu of %zu elements differ from %s by more than %s", bad, n,
               args.expected, rule);
        if (never)
            printf(" (%zu never written)", never);
        if (nonfinite)
            printf(" (%zu NaN or Inf)", nonfinite);
        printf("; the worst:\n");
        for (int k = 0; k < nworst; k++) {
            printf("  ");
            print_place(worst[k].index, rows, cols, channels);
            if (worst[k].never_written)
                printf(": never written, expected %.7g\n", worst[k].expected);
            else if (isnan(worst[k].got))
                printf(": got NaN, expected %.7g\n", worst[k].expected);
            else
                printf(": got %.7g, expected %.7g (allowed difference %.3g)\n", worst[k].got, worst[k].expected,
                       worst[k].bound);
        }
    }
    fflush(stdout);
    gl_reference_free(&ref);
    return bad == 0;
}

/* ---- timers and the log ------------------------------------------------- */

static const char *const kind_names[wbTimeKind_count] = {
    "Generic", "IO", "GPU", "Copy", "Driver", "CopyAsync", "Compute", "CPUGPUOverlap",
};
static const char *const level_names[wbLogLevel_count] = {
    "OFF", "FATAL", "ERROR", "WARN", "INFO", "DEBUG", "TRACE",
};

static struct {
    int kind;
    char *message;
    struct timespec started;
} timers[WB_TIMERS];
static int ntimers;

/* A log line's or a timer's text, without its trailing newlines, each line
 * after its first indented: every line it prints starts with "[" or a space,
 * so in a lab program none can pass for the harness's "@gpulab" lines. */
static void print_entry_text(FILE *f, const char *text)
{
    size_t n = strlen(text);
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
        n--;
    for (size_t i = 0; i < n; i++) {
        fputc(text[i], f);
        if (text[i] == '\n')
            fputs("    ", f);
    }
}

static const char *kind_name(int kind)
{
    return kind >= 0 && kind < wbTimeKind_count ? kind_names[kind] : "?";
}

void wb_time_start(int kind, const char *file, int line, const char *message)
{
    if (ntimers == WB_TIMERS) {
        fprintf(stderr, "%s:%d: wbTime_start(%s, \"%s\"): %d timers are already running; this one is not "
                "timed\n", file, line, kind_name(kind), message, WB_TIMERS);
        return;
    }
    timers[ntimers].kind = kind;
    timers[ntimers].message = wb_strdup(message);
    clock_gettime(CLOCK_MONOTONIC, &timers[ntimers].started);
    ntimers++;
}

void wb_time_stop(int kind, const char *file, int line, const char *message)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int i = ntimers - 1;
    while (i >= 0 && !(timers[i].kind == kind && strcmp(timers[i].message, message) == 0))
        i--;
    if (i < 0) {
        fprintf(stderr, "%s:%d: wbTime_stop(%s, \"%s\") has no wbTime_start with that kind and message\n", file,
                line, kind_name(kind), message);
        return;
    }
    double ms = (double)(now.tv_sec - timers[i].started.tv_sec) * 1e3 +
                (double)(now.tv_nsec - timers[i].started.tv_nsec) / 1e6;
    printf("[%s] ", kind_name(kind));
    print_entry_text(stdout, message);
    printf(": %.3f ms\n", ms);
    free(timers[i].message);
    for (; i + 1 < ntimers; i++)
        timers[i] = timers[i + 1];
    ntimers--;
}

/* ERROR and FATAL go to standard error, after what is already on standard
 * output: a lab's report shows the last lines of the program's error output
 * when a run ends in a CUDA error, a crash or a timeout. */
void wb_log_line(int level, const char *file, int line, const char *text)
{
    const char *name = level >= 0 && level < wbLogLevel_count ? level_names[level] : "?";
    FILE *f = level == wbLogLevel_FATAL || level == wbLogLevel_ERROR ? stderr : stdout;
    fflush(stdout);
    fprintf(f, "[%s] %s:%d ", name, file, line);
    print_entry_text(f, text);
    fputc('\n', f);
    fflush(f);
}

void wb_assert_fail(const char *file, int line, const char *condition, const char *message)
{
    fflush(stdout);
    fprintf(stderr, "%s:%d: wbAssert(%s) failed%s%s\n", file, line, condition, message ? ": " : "",
            message ? message : "");
    fflush(stderr);
    abort();
}
