/*
 * dataset.c - strict readers and lossless writers for the kit's data files.
 * See dataset.h for the formats and docs/formats.md for examples.
 */
#define _POSIX_C_SOURCE 200809L
#include "dataset.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail(gl_error *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static int has_suffix(const char *s, const char *suffix)
{
    size_t n = strlen(s), k = strlen(suffix);
    return n >= k && strcmp(s + n - k, suffix) == 0;
}

void gl_fill_poison(float *data, size_t n)
{
    uint32_t bits = GL_POISON_BITS;
    for (size_t i = 0; i < n; i++)
        memcpy(&data[i], &bits, sizeof bits);
}

size_t gl_matrix_count(const gl_matrix *m)
{
    return (size_t)m->rows * (size_t)m->cols * (size_t)m->channels;
}

size_t gl_reference_count(const gl_reference *r)
{
    return (size_t)r->rows * (size_t)r->cols * (size_t)r->channels;
}

int gl_check_dims(int rows, int cols, int channels, const char *what, gl_error *err)
{
    if (rows < 1 || cols < 1 || channels < 1)
        return fail(err, "%s: dimensions %d x %d x %d: every dimension must be at least 1",
                    what, rows, cols, channels);
    if (rows > (cols == 1 && channels == 1 ? GL_MAX_VECTOR : GL_MAX_DIM) || cols > GL_MAX_DIM || channels > 4)
        return fail(err, "%s: dimensions %d x %d x %d are absurd (limit %d per side, 4 channels; %d for a vector)",
                    what, rows, cols, channels, GL_MAX_DIM, GL_MAX_VECTOR);
    if ((size_t)rows * (size_t)cols * (size_t)channels > GL_MAX_ELEMENTS)
        return fail(err, "%s: %d x %d x %d elements is more than the limit of %zu",
                    what, rows, cols, channels, GL_MAX_ELEMENTS);
    return 0;
}

int gl_matrix_alloc(gl_matrix *m, int rows, int cols, int channels, gl_error *err)
{
    memset(m, 0, sizeof *m);
    if (gl_check_dims(rows, cols, channels, "matrix", err))
        return -1;
    m->rows = rows;
    m->cols = cols;
    m->channels = channels;
    m->data = malloc(gl_matrix_count(m) * sizeof(float));
    if (!m->data)
        return fail(err, "out of memory for a %d x %d x %d matrix", rows, cols, channels);
    return 0;
}

int gl_reference_alloc(gl_reference *r, int rows, int cols, int channels,
                       int with_magnitude, gl_error *err)
{
    memset(r, 0, sizeof *r);
    if (gl_check_dims(rows, cols, channels, "reference", err))
        return -1;
    r->rows = rows;
    r->cols = cols;
    r->channels = channels;
    size_t n = gl_reference_count(r);
    r->value = malloc(n * sizeof(double));
    if (with_magnitude)
        r->magnitude = malloc(n * sizeof(double));
    if (!r->value || (with_magnitude && !r->magnitude)) {
        gl_reference_free(r);
        return fail(err, "out of memory for a %d x %d x %d reference", rows, cols, channels);
    }
    return 0;
}

void gl_matrix_free(gl_matrix *m)
{
    free(m->data);
    m->data = NULL;
}

void gl_reference_free(gl_reference *r)
{
    free(r->value);
    free(r->magnitude);
    r->value = r->magnitude = NULL;
}

/* ---- whole-file input ------------------------------------------------- */

typedef struct {
    const char *path;
    char *buf;   /* NUL-terminated copy of the file */
    size_t len;
    size_t pos;
    int line;    /* 1-based line of buf[pos] */
    int commas;  /* a libwb .csv: commas separate values too */
} text_cursor;

static int slurp(const char *path, char **buf, size_t *len, gl_error *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return fail(err, "%s: cannot open: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0;
    char *b = malloc(cap + 1);
    if (!b) {
        fclose(f);
        return fail(err, "%s: out of memory", path);
    }
    for (;;) {
        if (n == cap) {
            if (cap > (size_t)4 << 30) {
                free(b);
                fclose(f);
                return fail(err, "%s: file is larger than 4 GiB", path);
            }
            char *nb = realloc(b, cap * 2 + 1);
            if (!nb) {
                free(b);
                fclose(f);
                return fail(err, "%s: out of memory", path);
            }
            b = nb;
            cap *= 2;
        }
        size_t got = fread(b + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(b);
        return fail(err, "%s: read error", path);
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return 0;
}

/* Skips blanks; counts lines. Returns 0 at end of file. */
static int skip_space(text_cursor *c)
{
    while (c->pos < c->len) {
        char ch = c->buf[c->pos];
        if (ch == '\n')
            c->line++;
        else if (ch != ' ' && ch != '\t' && ch != '\r' && !(c->commas && ch == ','))
            return 1;
        c->pos++;
    }
    return 0;
}

/* Next whitespace-delimited token, NUL-terminated in place; *line gets the
 * line it stands on. */
static char *next_token(text_cursor *c, int *line)
{
    if (!skip_space(c))
        return NULL;
    *line = c->line;
    char *start = c->buf + c->pos;
    while (c->pos < c->len) {
        char ch = c->buf[c->pos];
        if (ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || (c->commas && ch == ','))
            break;
        c->pos++;
    }
    if (c->pos < c->len) {
        if (c->buf[c->pos] == '\n')
            c->line++;
        c->buf[c->pos] = '\0';
        c->pos++;
    }
    return start;
}

static int parse_dim(const char *tok, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(tok, &end, 10);
    if (errno || end == tok || *end != '\0')
        return -1;
    *out = v;
    return 0;
}

/* Parses a finite decimal number that fills the whole token. */
static int parse_number(const char *tok, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(tok, &end);
    if (end == tok || *end != '\0')
        return -1;
    if (!isfinite(v))
        return -2;
    *out = v;
    return 0;
}

/* The .raw reader: fills either floats (m) or doubles (r). libwb: also
 * libwb's vector form, whose header is its length alone (read as n x 1),
 * and, in a .csv file, commas between values. */
static int read_raw_values(const char *path, gl_matrix *m, gl_reference *r, int libwb, gl_error *err)
{
    text_cursor c = { path, NULL, 0, 0, 1, libwb && has_suffix(path, ".csv") };
    if (slurp(path, &c.buf, &c.len, err))
        return -1;
    if (memchr(c.buf, '\0', c.len)) {
        free(c.buf);
        return fail(err, "%s: binary data in a text .raw file", path);
    }
    int rc = -1, line = 1;
    const char *header = libwb ? "'rows cols' or 'length'" : "'rows cols'";
    long dims[2];
    char *pending = NULL; /* a vector's first value, read while looking for cols */
    int pending_line = 0;
    for (int i = 0; i < 2; i++) {
        char *tok = next_token(&c, &line);
        if (libwb && i == 1 && (!tok || line != 1)) {
            dims[1] = 1;
            pending = tok;
            pending_line = line;
            break;
        }
        if (!tok || line != 1) {
            fail(err, "%s:1: truncated header: expected %s on the first line", path, header);
            goto out;
        }
        if (parse_dim(tok, &dims[i])) {
            fail(err, "%s:1: bad header: expected %s (whole numbers), found '%.40s'", path, header, tok);
            goto out;
        }
    }
    if (dims[0] < 1 || dims[1] < 1 || dims[0] > (dims[1] == 1 ? GL_MAX_VECTOR : GL_MAX_DIM) ||
        dims[1] > GL_MAX_DIM) {
        fail(err, "%s:1: absurd dimensions %ld x %ld (each must be 1 to %d; a vector's length 1 to %d)", path,
             dims[0], dims[1], GL_MAX_DIM, GL_MAX_VECTOR);
        goto out;
    }
    if (m && gl_matrix_alloc(m, (int)dims[0], (int)dims[1], 1, err))
        goto out;
    if (r && gl_reference_alloc(r, (int)dims[0], (int)dims[1], 1, 0, err))
        goto out;
    size_t n = (size_t)dims[0] * (size_t)dims[1];
    /* A libwb expected output written in fixed point ("%.2f", as the
     * Teaching Kit's generators do) states each value only to within one
     * unit of its last decimal (rounded or truncated, from a value the
     * writer computed in float): every value with the same number of
     * decimals and no exponent is taken to mean that. */
    int decimals = -1, fixed_point = libwb && r;
    for (size_t i = 0; i < n; i++) {
        char *tok = pending;
        if (pending) {
            line = pending_line;
            pending = NULL;
        } else {
            tok = next_token(&c, &line);
        }
        if (!tok) {
            fail(err, "%s:%d: too few values: the header promises %ld x %ld = %zu, the file ends after %zu",
                 path, c.line, dims[0], dims[1], n, i);
            goto out_free;
        }
        if (line == 1) {
            fail(err, "%s:1: bad header: expected only %s on the first line, found '%.40s' too",
                 path, header, tok);
            goto out_free;
        }
        double v;
        int bad = parse_number(tok, &v);
        if (bad == -1) {
            fail(err, "%s:%d: expected a number (value %zu of %zu), found '%.40s'", path, line, i + 1, n, tok);
            goto out_free;
        }
        if (bad == -2) {
            fail(err, "%s:%d: value %zu of %zu is '%.40s': datasets hold finite numbers only",
                 path, line, i + 1, n, tok);
            goto out_free;
        }
        if (m) {
            float f = strtof(tok, NULL); /* correctly rounded, unlike (float)v */
            if (!isfinite(f)) {
                fail(err, "%s:%d: value %zu of %zu (%.40s) overflows a float", path, line, i + 1, n, tok);
                goto out_free;
            }
            m->data[i] = f;
        } else {
            r->value[i] = v;
        }
        if (fixed_point) {
            const char *dot = strchr(tok, '.');
            int d = dot ? (int)strlen(dot + 1) : 0;
            if (strpbrk(tok, "eE") || (decimals >= 0 && d != decimals))
                fixed_point = 0;
            decimals = d;
        }
    }
    if (fixed_point && decimals > 0)
        r->resolution = pow(10.0, -decimals);
    char *extra = next_token(&c, &line);
    if (extra) {
        fail(err, "%s:%d: too many values: the header promises %ld x %ld = %zu, found more ('%.40s')",
             path, line, dims[0], dims[1], n, extra);
        goto out_free;
    }
    rc = 0;
    goto out;
out_free:
    if (m)
        gl_matrix_free(m);
    if (r)
        gl_reference_free(r);
out:
    free(c.buf);
    return rc;
}

int gl_read_raw(const char *path, gl_matrix *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    return read_raw_values(path, out, NULL, 0, err);
}

static int close_checked(FILE *f, const char *path, gl_error *err)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return fail(err, "%s: write failed: %s", path, strerror(errno));
    return 0;
}

int gl_write_raw(const char *path, const gl_matrix *m, gl_error *err)
{
    if (m->channels != 1)
        return fail(err, "%s: a .raw file holds a matrix; this one has %d channels", path, m->channels);
    FILE *f = fopen(path, "w");
    if (!f)
        return fail(err, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "%d %d\n", m->rows, m->cols);
    for (int r = 0; r < m->rows; r++) {
        for (int c = 0; c < m->cols; c++) {
            /* 9 significant digits round-trip every float exactly */
            fprintf(f, c ? " %.9g" : "%.9g", (double)m->data[(size_t)r * m->cols + c]);
        }
        fputc('\n', f);
    }
    return close_checked(f, path, err);
}

/* ---- PPM / PGM ---------------------------------------------------------- */

/* Reads one header number of a PNM file, skipping blanks and # comments. */
static int pnm_number(const unsigned char *b, size_t len, size_t *pos, long *out)
{
    for (;;) {
        while (*pos < len && (b[*pos] == ' ' || b[*pos] == '\t' || b[*pos] == '\n' || b[*pos] == '\r'))
            (*pos)++;
        if (*pos < len && b[*pos] == '#') {
            while (*pos < len && b[*pos] != '\n')
                (*pos)++;
            continue;
        }
        break;
    }
    if (*pos >= len || b[*pos] < '0' || b[*pos] > '9')
        return -1;
    long v = 0;
    while (*pos < len && b[*pos] >= '0' && b[*pos] <= '9') {
        v = v * 10 + (b[*pos] - '0');
        if (v > 1L << 30)
            return -1;
        (*pos)++;
    }
    *out = v;
    return 0;
}

/* The PNM reader; *maxval_out gets the file's maxval. */
static int read_pnm(const char *path, gl_matrix *out, long *maxval_out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t len;
    if (slurp(path, &buf, &len, err))
        return -1;
    const unsigned char *b = (const unsigned char *)buf;
    int channels;
    if (len >= 2 && b[0] == 'P' && b[1] == '6')
        channels = 3;
    else if (len >= 2 && b[0] == 'P' && b[1] == '5')
        channels = 1;
    else {
        free(buf);
        return fail(err, "%s: bad header: expected a binary PPM ('P6') or PGM ('P5') magic number", path);
    }
    size_t pos = 2;
    long w, h, maxval;
    const char *names[3] = { "width", "height", "maxval" };
    long *vals[3] = { &w, &h, &maxval };
    for (int i = 0; i < 3; i++) {
        if (pnm_number(b, len, &pos, vals[i])) {
            free(buf);
            return fail(err, "%s: bad header: expected the image %s as a whole number", path, names[i]);
        }
    }
    if (maxval < 1 || maxval > 255) {
        free(buf);
        return fail(err, "%s: maxval %ld is not supported: the kit reads 8-bit images (maxval 1 to 255)",
                    path, maxval);
    }
    if (pos >= len || !(b[pos] == ' ' || b[pos] == '\n' || b[pos] == '\t' || b[pos] == '\r')) {
        free(buf);
        return fail(err, "%s: bad header: expected one whitespace byte after maxval", path);
    }
    pos++;
    if (gl_matrix_alloc(out, (int)h, (int)w, channels, err)) {
        free(buf);
        return fail(err, "%s: %s", path, err->msg);
    }
    size_t n = gl_matrix_count(out);
    if (len - pos < n) {
        free(buf);
        gl_matrix_free(out);
        return fail(err, "%s: truncated: %ld x %ld x %d image needs %zu bytes of pixels, the file has %zu",
                    path, w, h, channels, n, len - pos);
    }
    if (len - pos > n) {
        free(buf);
        gl_matrix_free(out);
        return fail(err, "%s: %zu bytes of trailing data after the pixels", path, len - pos - n);
    }
    for (size_t i = 0; i < n; i++)
        out->data[i] = (float)b[pos + i] / (float)maxval;
    free(buf);
    *maxval_out = maxval;
    return 0;
}

int gl_read_ppm(const char *path, gl_matrix *out, gl_error *err)
{
    long maxval;
    return read_pnm(path, out, &maxval, err);
}

int gl_write_ppm(const char *path, const gl_matrix *m, gl_error *err)
{
    if (m->channels != 1 && m->channels != 3)
        return fail(err, "%s: PPM/PGM holds 1 or 3 channels, not %d", path, m->channels);
    FILE *f = fopen(path, "wb");
    if (!f)
        return fail(err, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "%s\n%d %d\n255\n", m->channels == 3 ? "P6" : "P5", m->cols, m->rows);
    size_t n = gl_matrix_count(m);
    for (size_t i = 0; i < n; i++) {
        float v = m->data[i];
        int q = isnan(v) ? 0 : v <= 0.0f ? 0 : v >= 1.0f ? 255 : (int)lrintf(v * 255.0f);
        fputc(q, f);
    }
    return close_checked(f, path, err);
}

/* ---- .tensor ------------------------------------------------------------ */

#define TENSOR_MAGIC "gpulab-tensor 1"

typedef struct {
    int rows, cols, channels;
    int is_f64;
    int fields; /* 1: value, 2: value magnitude */
    int terms;
    size_t payload; /* offset of the first data byte */
} tensor_header;

static void put_le(unsigned char *p, uint64_t bits, int bytes)
{
    for (int i = 0; i < bytes; i++)
        p[i] = (unsigned char)(bits >> (8 * i));
}

static uint64_t get_le(const unsigned char *p, int bytes)
{
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static int parse_tensor_header(const char *path, const char *buf, size_t len,
                               tensor_header *h, gl_error *err)
{
    memset(h, 0, sizeof *h);
    h->channels = 1;
    int seen_shape = 0, seen_dtype = 0, seen_fields = 0;
    size_t pos = 0;
    for (int line = 1;; line++) {
        const char *nl = memchr(buf + pos, '\n', len - pos);
        if (!nl || line > GL_TENSOR_HEADER_LINES)
            return fail(err, "%s:%d: truncated or overlong header: expected a 'data' line within %d lines",
                        path, line, GL_TENSOR_HEADER_LINES);
        size_t n = (size_t)(nl - (buf + pos));
        char text[GL_TENSOR_LINE_MAX];
        if (n >= sizeof text)
            return fail(err, "%s:%d: header line too long", path, line);
        memcpy(text, buf + pos, n);
        text[n] = '\0';
        pos += n + 1;
        if (line == 1) {
            if (strcmp(text, TENSOR_MAGIC) != 0)
                return fail(err, "%s:1: bad header: expected '%s', found '%.60s'", path, TENSOR_MAGIC, text);
            continue;
        }
        char key[32];
        int used = 0;
        if (sscanf(text, "%31s%n", key, &used) != 1)
            return fail(err, "%s:%d: empty header line", path, line);
        const char *rest = text + used;
        if (strcmp(key, "data") == 0) {
            if (*rest != '\0')
                return fail(err, "%s:%d: 'data' takes nothing after it", path, line);
            h->payload = pos;
            break;
        } else if (strcmp(key, "shape") == 0) {
            long d[3] = { 0, 0, 1 };
            char extra[8];
            int k = sscanf(rest, "%ld %ld %ld %7s", &d[0], &d[1], &d[2], extra);
            if (k != 2 && k != 3)
                return fail(err, "%s:%d: expected 'shape ROWS COLS [CHANNELS]'", path, line);
            for (int i = 0; i < 3; i++)
                if (d[i] < 1 || d[i] > GL_MAX_DIM)
                    return fail(err, "%s:%d: absurd dimension %ld in shape", path, line, d[i]);
            if (gl_check_dims((int)d[0], (int)d[1], (int)d[2], path, err))
                return -1;
            h->rows = (int)d[0];
            h->cols = (int)d[1];
            h->channels = (int)d[2];
            seen_shape = 1;
        } else if (strcmp(key, "dtype") == 0) {
            if (strcmp(rest, " f32") == 0)
                h->is_f64 = 0;
            else if (strcmp(rest, " f64") == 0)
                h->is_f64 = 1;
            else
                return fail(err, "%s:%d: expected 'dtype f32' or 'dtype f64'", path, line);
            seen_dtype = 1;
        } else if (strcmp(key, "fields") == 0) {
            if (strcmp(rest, " value") == 0)
                h->fields = 1;
            else if (strcmp(rest, " value magnitude") == 0)
                h->fields = 2;
            else
                return fail(err, "%s:%d: expected 'fields value' or 'fields value magnitude'", path, line);
            seen_fields = 1;
        } else if (strcmp(key, "terms") == 0) {
            long t;
            char extra[8];
            if (sscanf(rest, "%ld %7s", &t, extra) != 1 || t < 1 || t > INT_MAX)
                return fail(err, "%s:%d: expected 'terms N' with N a positive whole number", path, line);
            h->terms = (int)t;
        } else {
            return fail(err, "%s:%d: unknown header line '%.40s'", path, line, key);
        }
    }
    if (!seen_shape || !seen_dtype || !seen_fields)
        return fail(err, "%s: header lacks a %s line", path,
                    !seen_shape ? "'shape'" : !seen_dtype ? "'dtype'" : "'fields'");
    size_t count = (size_t)h->rows * h->cols * h->channels;
    size_t want = count * (size_t)h->fields * (h->is_f64 ? 8 : 4);
    size_t have = len - h->payload;
    if (have < want)
        return fail(err, "%s: truncated: the header promises %zu elements (%zu bytes), the file has %zu bytes of data",
                    path, count, want, have);
    if (have > want)
        return fail(err, "%s: %zu bytes of trailing data after %zu elements", path, have - want, count);
    return 0;
}

static int write_tensor(const char *path, int rows, int cols, int channels, int terms,
                        const float *f32, const double *value, const double *magnitude,
                        gl_error *err)
{
    FILE *f = fopen(path, "wb");
    if (!f)
        return fail(err, "%s: cannot create: %s", path, strerror(errno));
    fprintf(f, "%s\n", TENSOR_MAGIC);
    if (channels == 1)
        fprintf(f, "shape %d %d\n", rows, cols);
    else
        fprintf(f, "shape %d %d %d\n", rows, cols, channels);
    fprintf(f, "dtype %s\n", f32 ? "f32" : "f64");
    fprintf(f, "fields %s\n", magnitude ? "value magnitude" : "value");
    if (terms > 0)
        fprintf(f, "terms %d\n", terms);
    fprintf(f, "data\n");
    size_t n = (size_t)rows * cols * channels;
    unsigned char rec[16];
    for (size_t i = 0; i < n; i++) {
        if (f32) {
            uint32_t bits;
            memcpy(&bits, &f32[i], 4);
            put_le(rec, bits, 4);
            fwrite(rec, 1, 4, f);
        } else {
            uint64_t bits;
            memcpy(&bits, &value[i], 8);
            put_le(rec, bits, 8);
            size_t k = 8;
            if (magnitude) {
                memcpy(&bits, &magnitude[i], 8);
                put_le(rec + 8, bits, 8);
                k = 16;
            }
            fwrite(rec, 1, k, f);
        }
    }
    return close_checked(f, path, err);
}

/* Reads a whole .tensor file and parses its header; on success *buf holds
 * the file (the caller frees it) and h says where the data starts. */
static int load_tensor(const char *path, char **buf, tensor_header *h, gl_error *err)
{
    size_t len;
    if (slurp(path, buf, &len, err))
        return -1;
    if (parse_tensor_header(path, *buf, len, h, err)) {
        free(*buf);
        *buf = NULL;
        return -1;
    }
    return 0;
}

int gl_write_output(const char *path, const gl_matrix *m, gl_error *err)
{
    return write_tensor(path, m->rows, m->cols, m->channels, 0, m->data, NULL, NULL, err);
}

int gl_write_reference(const char *path, const gl_reference *r, gl_error *err)
{
    return write_tensor(path, r->rows, r->cols, r->channels, r->terms, NULL, r->value,
                        r->magnitude, err);
}

int gl_parse_output(const char *name, const char *buf, size_t len, gl_matrix *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    tensor_header h;
    if (parse_tensor_header(name, buf, len, &h, err))
        return -1;
    if (h.is_f64 || h.fields != 1)
        return fail(err, "%s: an output file holds 'dtype f32' and 'fields value'", name);
    if (gl_matrix_alloc(out, h.rows, h.cols, h.channels, err))
        return -1;
    const unsigned char *p = (const unsigned char *)buf + h.payload;
    size_t n = gl_matrix_count(out);
    for (size_t i = 0; i < n; i++) {
        uint32_t bits = (uint32_t)get_le(p + 4 * i, 4);
        memcpy(&out->data[i], &bits, 4);
    }
    return 0;
}

int gl_read_output(const char *path, gl_matrix *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    char *buf;
    size_t len;
    if (slurp(path, &buf, &len, err))
        return -1;
    int rc = gl_parse_output(path, buf, len, out, err);
    free(buf);
    return rc;
}

int gl_read_reference(const char *path, gl_reference *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    char *buf;
    tensor_header h;
    if (load_tensor(path, &buf, &h, err))
        return -1;
    if (!h.is_f64) {
        free(buf);
        return fail(err, "%s: a reference file holds 'dtype f64'", path);
    }
    if (h.fields == 2 && h.terms < 1) {
        free(buf);
        return fail(err, "%s: a reference with magnitudes needs a 'terms N' line", path);
    }
    if (gl_reference_alloc(out, h.rows, h.cols, h.channels, h.fields == 2, err)) {
        free(buf);
        return -1;
    }
    out->terms = h.terms;
    const unsigned char *p = (const unsigned char *)buf + h.payload;
    size_t n = gl_reference_count(out);
    for (size_t i = 0; i < n; i++) {
        uint64_t bits = get_le(p + 8 * (size_t)h.fields * i, 8);
        memcpy(&out->value[i], &bits, 8);
        if (h.fields == 2) {
            bits = get_le(p + 8 * (size_t)h.fields * i + 8, 8);
            memcpy(&out->magnitude[i], &bits, 8);
        }
        if (!isfinite(out->value[i]) || (h.fields == 2 && !(out->magnitude[i] >= 0))) {
            size_t bad = i;
            gl_reference_free(out);
            free(buf);
            return fail(err, "%s: element %zu is not finite (or has a negative magnitude)", path, bad);
        }
    }
    free(buf);
    return 0;
}

int gl_read_matrix(const char *path, gl_matrix *out, gl_error *err)
{
    if (has_suffix(path, ".raw"))
        return gl_read_raw(path, out, err);
    if (has_suffix(path, ".ppm") || has_suffix(path, ".pgm"))
        return gl_read_ppm(path, out, err);
    if (has_suffix(path, ".tensor"))
        return gl_read_output(path, out, err);
    memset(out, 0, sizeof *out);
    return fail(err, "%s: unknown data file type (expected .raw, .ppm, .pgm or .tensor)", path);
}

int gl_read_expected(const char *path, gl_reference *out, gl_error *err)
{
    if (has_suffix(path, ".tensor"))
        return gl_read_reference(path, out, err);
    if (has_suffix(path, ".raw")) {
        memset(out, 0, sizeof *out);
        return read_raw_values(path, NULL, out, 0, err);
    }
    memset(out, 0, sizeof *out);
    return fail(err, "%s: unknown expected-output type (expected .tensor or .raw)", path);
}

/* ---- libwb's forms ---------------------------------------------------- */

static int is_libwb_text(const char *path)
{
    return has_suffix(path, ".raw") || has_suffix(path, ".csv") || has_suffix(path, ".txt");
}

int gl_is_libwb_image(const char *path)
{
    /* .pbm: the Kit's ImageColorToGrayscale writes its gray output (P5) under
     * that name; the magic number decides, and a real bitmap (P1, P4) is refused */
    return has_suffix(path, ".ppm") || has_suffix(path, ".pgm") || has_suffix(path, ".pbm");
}

int gl_read_libwb(const char *path, gl_matrix *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    if (is_libwb_text(path))
        return read_raw_values(path, out, NULL, 1, err);
    if (gl_is_libwb_image(path))
        return gl_read_ppm(path, out, err);
    return fail(err, "%s: unknown data file type (expected .raw, .csv, .txt, .ppm, .pgm or .pbm)", path);
}

int gl_read_libwb_expected(const char *path, gl_reference *out, gl_error *err)
{
    memset(out, 0, sizeof *out);
    if (is_libwb_text(path))
        return read_raw_values(path, NULL, out, 1, err);
    if (has_suffix(path, ".tensor"))
        return gl_read_reference(path, out, err);
    if (!gl_is_libwb_image(path))
        return fail(err, "%s: unknown expected-output type (expected .raw, .csv, .txt, .ppm, .pgm, .pbm or "
                    ".tensor)", path);
    gl_matrix img;
    long maxval;
    if (read_pnm(path, &img, &maxval, err))
        return -1;
    if (gl_reference_alloc(out, img.rows, img.cols, img.channels, 0, err)) {
        gl_matrix_free(&img);
        return -1;
    }
    for (size_t i = 0; i < gl_matrix_count(&img); i++)
        out->value[i] = img.data[i];
    /* The image says each value only to within one of its steps: rounded or
     * truncated to 8 bits by whatever wrote it. */
    out->resolution = 1.0 / (double)maxval;
    gl_matrix_free(&img);
    return 0;
}
