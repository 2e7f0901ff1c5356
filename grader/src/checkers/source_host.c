/*
 * source_host.c - the host's side of the source: the copy that filled a
 * launch's argument, the dim3 a launch takes, a copy given a pointer's
 * address, and the host assignment of a stride an access multiplies by
 * (source.h). Over the shared walk of source_code.h.
 */
#define _GNU_SOURCE
#include "source.h"
#include "source_code.h"
#include "util.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `name`, `&name`, `(void **)&name` or `(float *)name` as written -> name */
static const char *bare_name(const char *arg)
{
    const char *p = arg;
    while (*p == '(' || *p == '&' || *p == '*' || *p == ' ') {
        if (*p == '(') {
            const char *close = strchr(p, ')');
            if (!close)
                return arg;
            p = close + 1;
        } else {
            p++;
        }
    }
    return p;
}

int source_copy_into_argument(const char *path, int k)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    /* the launch's argument k: the device buffer the kernel takes there */
    char want[64] = "";
    for (size_t i = 0; i + 3 < s.len && !want[0]; i++) {
        if (strncmp(code + i, ">>>", 3) != 0)
            continue;
        size_t open = code_skip_space(&s, i + 3);
        if (open < s.len && code[open] == '(')
            code_call_argument(&s, open, k, want, sizeof want);
    }
    int line = 0;
    for (size_t i = 0; want[0] && i + 10 < s.len && !line; i++) {
        size_t open = code_call_open(&s, i, "cudaMemcpy");
        if (open >= s.len)
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len || !memmem(code + open, close - open, "cudaMemcpyHostToDevice", 22))
            continue;
        char dst[64];
        code_call_argument(&s, open, 0, dst, sizeof dst);
        if (strcmp(bare_name(dst), bare_name(want)) == 0)
            line = code_line_at(&s, i);
    }
    source_code_free(&s);
    return line;
}

/* The name of the launch's grid (which 0) or block (which 1) at
 * launch_line, as written, into name (n bytes; "" where the argument is
 * no lone name); *at: where the launch's arguments start (s->len: no
 * launch on that line). */
static void launch_dim3_name(const source_code *s, int launch_line, int which, char *name, size_t n, size_t *at)
{
    const char *code = s->code;
    *at = s->len;
    name[0] = 0;
    for (size_t i = 0; i + 3 < s->len && *at == s->len; i++)
        if (strncmp(code + i, "<<<", 3) == 0 && code_line_at(s, i) == launch_line)
            *at = i + 3;
    if (*at == s->len)
        return;
    const char *comma = strchr(code + *at, ',');
    const char *end = strstr(code + *at, ">>>");
    if (!comma || !end || comma > end)
        return;
    /* the grid is the first argument, the block the second */
    const char *b = which == 0 ? code + *at : comma + 1;
    while (*b == ' ' || *b == '\t')
        b++;
    size_t k = 0;
    while (source_is_identifier_char(b[k]))
        k++;
    const char *r = b + k;
    while (*r == ' ' || *r == '\t')
        r++;
    if (k > 0 && k < n && (which == 0 ? r == comma : r == end || *r == ','))
        snprintf(name, n, "%.*s", (int)k, b);
}

int source_launch_dim3_line(const char *path, int launch_line, int which)
{
    source_code s;
    if (!source_code_read(&s, path))
        return launch_line;
    const char *code = s.code;
    int line = launch_line;
    char block[64];
    size_t at;
    launch_dim3_name(&s, launch_line, which, block, sizeof block, &at);
    /* its last declaration before the launch: `dim3 NAME(...)` or `dim3 NAME = ...` */
    size_t l = strlen(block);
    for (size_t k = 1; l && k < at; k++) {
        if (!code_name_at(&s, k, block, l))
            continue;
        size_t b = code_blank_before(&s, k);
        if (b >= 4 && strncmp(code + b - 4, "dim3", 4) == 0 && (b == 4 || !source_is_identifier_char(code[b - 5])))
            line = code_line_at(&s, k);
    }
    source_code_free(&s);
    return line;
}

int source_launch_dim3_unsized(const char *path, int launch_line, int which)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int line = 0;
    char name[64];
    size_t at;
    launch_dim3_name(&s, launch_line, which, name, sizeof name, &at);
    /* its last declaration before the launch, and what follows the name there */
    size_t l = strlen(name);
    for (size_t k = 1; l && k < at; k++) {
        if (!code_name_at(&s, k, name, l))
            continue;
        size_t b = code_blank_before(&s, k), q = code_skip_space(&s, k + l);
        if (b >= 4 && strncmp(code + b - 4, "dim3", 4) == 0 && (b == 4 || !source_is_identifier_char(code[b - 5])))
            line = q < s.len && (code[q] == ';' || code[q] == ',') ? code_line_at(&s, k) : 0;
    }
    source_code_free(&s);
    return line;
}

int source_launch_dim3_sets(const char *path, int launch_line, int which, char axis, int *lines, int max,
                            char *name, size_t name_n)
{
    source_code s;
    name[0] = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t at;
    launch_dim3_name(&s, launch_line, which, name, name_n, &at);
    size_t l = strlen(name);
    int n = 0;
    for (size_t k = 1; l && k < at && n < max; k++) {
        if (!code_name_at(&s, k, name, l))
            continue;
        size_t q = code_skip_space(&s, k + l);
        if (q + 1 >= at || code[q] != '.')
            continue;
        q = code_skip_space(&s, q + 1);
        if (code[q] != axis || source_is_identifier_char(code[q + 1]))
            continue;
        q = code_skip_space(&s, q + 1);
        if (code[q] == '=' && code[q + 1] != '=')
            lines[n++] = code_line_at(&s, k);
    }
    source_code_free(&s);
    return n;
}

int source_launch_block_line(const char *path, int launch_line)
{
    return source_launch_dim3_line(path, launch_line, 1);
}

/* Whether the name at name (n characters) is declared a pointer in the
 * code: `TYPE *name` or `TYPE* name` in a declaration (after `(`, `,`, `;`,
 * a brace or a qualifier), followed by `,`, `)`, `;` or `=`, before offset
 * `before`: the last such declaration's line into *line. */
static int declared_pointer(const source_code *s, size_t before, const char *name, size_t n, int *line)
{
    static const char *const qualifiers[] = { "const", "struct", "unsigned", NULL };
    const char *code = s->code;
    *line = 0;
    for (size_t k = 1; k + n < before; k++) {
        if (!code_name_at(s, k, name, n))
            continue;
        size_t q = code_skip_space(s, k + n);
        if (q >= s->len || !strchr(",);=", code[q]))
            continue;
        size_t star = code_blank_before(s, k);
        if (star == 0 || code[star - 1] != '*')
            continue;
        size_t tn = 0, t = code_word_before(s, star - 1, &tn), qn = 0;
        if (tn == 0)
            continue;
        size_t qualifier = code_word_before(s, t, &qn);
        size_t p = t;
        while (p > 0 && (code[p - 1] == ' ' || code[p - 1] == '\t' || code[p - 1] == '\n'))
            p--;
        if (p == 0 || strchr("(,;{}", code[p - 1]) || (qn && code_word_in(code + qualifier, qn, qualifiers)))
            *line = code_line_at(s, k); /* the last one before: the caller's own */
    }
    return *line > 0;
}

/* The copies and the positions of their data pointers (-1: none). */
static const struct {
    const char *name;
    int dst, src;
} copy_calls[] = {
    { "cudaMemcpy", 0, 1 },           { "cudaMemcpyAsync", 0, 1 },   { "cudaMemcpyToSymbol", -1, 1 },
    { "cudaMemcpyToSymbolAsync", -1, 1 }, { "cudaMemcpyFromSymbol", 0, -1 }, { "cudaMemcpy2D", 0, 2 },
    { "cudaMemcpy2DAsync", 0, 2 },
};
#define NCOPY_CALLS (sizeof copy_calls / sizeof *copy_calls)

/* A copy's argument past its casts (`(void *)&d_M` -> `&d_M`). */
static const char *past_casts(const char *a)
{
    const char *p = a;
    while (*p == '(') {
        const char *close = strchr(p, ')');
        if (!close)
            break;
        p = close + 1;
        while (*p == ' ')
            p++;
    }
    return p;
}

int source_copy_of_pointer_address(const char *path, char *call, size_t call_n, char *arg, size_t arg_n,
                                   int *is_source, int *decl_line)
{
    call[0] = arg[0] = '\0';
    *is_source = *decl_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t i = 0; i < s.len && !line; i++) {
        if (!code_word_starts(&s, i))
            continue;
        for (size_t c = 0; c < NCOPY_CALLS && !line; c++) {
            size_t open = code_call_open(&s, i, copy_calls[c].name);
            if (open >= s.len)
                continue;
            for (int side = 0; side < 2 && !line; side++) {
                int at = side ? copy_calls[c].src : copy_calls[c].dst;
                char a[96];
                if (at < 0)
                    continue;
                code_call_argument(&s, open, at, a, sizeof a);
                /* casts, then `&name` and nothing after the name */
                const char *p = past_casts(a);
                if (*p != '&')
                    continue;
                p++;
                while (*p == ' ')
                    p++;
                size_t n = 0;
                while (source_is_identifier_char(p[n]))
                    n++;
                if (n == 0 || p[n] != '\0' || n >= arg_n || strlen(copy_calls[c].name) >= call_n)
                    continue;
                if (declared_pointer(&s, i, p, n, decl_line)) {
                    line = code_line_at(&s, i);
                    *is_source = side;
                    snprintf(arg, arg_n, "%.*s", (int)n, p);
                    snprintf(call, call_n, "%s", copy_calls[c].name);
                }
            }
        }
    }
    source_code_free(&s);
    return line;
}

/* Whether the file uses name as a pointer to a struct: `name->` somewhere. */
static int used_with_arrow(const source_code *s, const char *name, size_t n)
{
    for (size_t k = 0; k + n + 2 <= s->len; k++)
        if (code_name_at(s, k, name, n)) {
            size_t q = code_skip_space(s, k + n);
            if (q + 1 < s->len && s->code[q] == '-' && s->code[q + 1] == '>')
                return 1;
        }
    return 0;
}

/* Whether the call at open copies the struct itself on purpose: one of its
 * arguments is `sizeof(*name)` or `sizeof *name`. */
static int sizes_the_struct(const source_code *s, size_t open, const char *name, size_t n)
{
    size_t close = code_matching(s, open);
    for (size_t k = open; k < close && k < s->len; k++) {
        if (!code_word_at(s, k, "sizeof"))
            continue;
        size_t q = code_skip_space(s, k + 6);
        if (q < s->len && s->code[q] == '(')
            q = code_skip_space(s, q + 1);
        if (q < s->len && s->code[q] == '*' && code_name_at(s, code_skip_space(s, q + 1), name, n))
            return 1;
    }
    return 0;
}

int source_copy_of_struct(const char *path, char *call, size_t call_n, char *arg, size_t arg_n, char *member,
                          size_t member_n, int *is_source)
{
    call[0] = arg[0] = member[0] = '\0';
    *is_source = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t i = 0; i < s.len; i++) {
        if (!code_word_starts(&s, i))
            continue;
        for (size_t c = 0; c < NCOPY_CALLS; c++) {
            size_t open = code_call_open(&s, i, copy_calls[c].name);
            if (open >= s.len)
                continue;
            for (int side = 0; side < 2; side++) {
                int at = side ? copy_calls[c].src : copy_calls[c].dst;
                char a[96];
                if (at < 0)
                    continue;
                code_call_argument(&s, open, at, a, sizeof a);
                const char *p = past_casts(a);
                size_t n = 0;
                while (source_is_identifier_char(p[n]))
                    n++;
                /* another copy's `img->data` says which member holds the data */
                const char *arrow = strstr(p, "->");
                if (!member[0] && arrow && n > 0 && p + n <= arrow && strlen(arrow + 2) < member_n &&
                    source_is_identifier_char(arrow[2])) {
                    size_t m = 0;
                    while (source_is_identifier_char(arrow[2 + m]))
                        m++;
                    if (!arrow[2 + m])
                        snprintf(member, member_n, "%.*s", (int)m, arrow + 2);
                }
                if (line || n == 0 || p[n] != '\0' || n >= arg_n || strlen(copy_calls[c].name) >= call_n ||
                    !used_with_arrow(&s, p, n) || sizes_the_struct(&s, open, p, n))
                    continue;
                line = code_line_at(&s, i);
                *is_source = side;
                snprintf(arg, arg_n, "%.*s", (int)n, p);
                snprintf(call, call_n, "%s", copy_calls[c].name);
            }
        }
    }
    source_code_free(&s);
    return line;
}

/* The first launch (`K<<<...>>>(`) of the kernel whose body holds line
 * `at`: the launch name's offset, the '(' of its arguments into *args;
 * s->len when there is none. */
static size_t kernel_launch_of(const source_code *s, int at, size_t *args)
{
    const char *code = s->code;
    *args = s->len;
    size_t g = code_kernel_before(s, code_line_start(s, at + 1));
    const char *open = g < s->len ? strchr(code + g, '(') : NULL, *e = open, *b;
    while (e && e > code + g && (e[-1] == ' ' || e[-1] == '\t'))
        e--;
    for (b = e; b && b > code + g && source_is_identifier_char(b[-1]);)
        b--;
    size_t kl = e && b ? (size_t)(e - b) : 0;
    for (size_t k = 0; kl && k + kl + 3 < s->len; k++) {
        if (!code_name_at(s, k, b, kl))
            continue;
        size_t q = code_skip_space(s, k + kl);
        const char *end = strncmp(code + q, "<<<", 3) == 0 ? strstr(code + q, ">>>") : NULL;
        size_t c = end ? code_skip_space(s, (size_t)(end - code) + 3) : s->len;
        if (c < s->len && code[c] == '(') {
            *args = c;
            return k;
        }
    }
    return s->len;
}

/* What the launch passes as the kernel parameter `param` of the kernel
 * whose body holds line `at` (`in` of pitched_conv_kernel(Image_t in, ...)
 * launched with (d_in_img, ...): d_in_img), into out; else param itself. */
static void launch_argument_for(const source_code *s, int at, const char *param, char *out, size_t n)
{
    snprintf(out, n, "%s", param);
    /* the parameter's place in the kernel's own list */
    size_t g = code_kernel_before(s, code_line_start(s, at + 1));
    const char *open = g < s->len ? strchr(s->code + g, '(') : NULL;
    char arg[128];
    int index = -1;
    for (int i = 0; open && i < 16 && index < 0; i++) {
        code_call_argument(s, (size_t)(open - s->code), i, arg, sizeof arg);
        size_t l = strlen(arg);
        if (!l)
            break;
        size_t w = l;
        while (w > 0 && source_is_identifier_char(arg[w - 1]))
            w--;
        if (strcmp(arg + w, param) == 0)
            index = i;
    }
    /* the launch's argument there */
    size_t args;
    if (index < 0 || kernel_launch_of(s, at, &args) >= s->len)
        return;
    code_call_argument(s, args, index, arg, sizeof arg);
    const char *bare = bare_name(arg);
    if (bare && *bare)
        snprintf(out, n, "%s", bare);
}

int source_copy2d_width_is_pitch(const char *path, int line, char *width, char *row_bytes, char *buffer, size_t n)
{
    source_code s;
    width[0] = row_bytes[0] = buffer[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    size_t open = s.len;
    for (size_t k = b; k < e && open >= s.len; k++)
        if (code_word_at(&s, k, "cudaMemcpy2D"))
            open = code_call_open(&s, k, "cudaMemcpy2D");
    int found = 0;
    if (open < s.len) {
        char w[128];
        code_call_argument(&s, open, 4, w, sizeof w);
        size_t wl = strlen(w), i = 0;
        while (i < wl && source_is_identifier_char(w[i]))
            i++;
        /* a plain name given to a cudaMallocPitch as its pitch (`&w`) */
        for (size_t k = 0; wl && i == wl && k < s.len && !found; k++) {
            size_t o = code_word_at(&s, k, "cudaMallocPitch") ? code_call_open(&s, k, "cudaMallocPitch") : s.len;
            if (o >= s.len)
                continue;
            char pitch[128], bytes[128], buf[128];
            code_call_argument(&s, o, 1, pitch, sizeof pitch);
            const char *pn = pitch;
            while (*pn == '&' || *pn == ' ')
                pn++;
            if (strcmp(pn, w) != 0)
                continue;
            code_call_argument(&s, o, 2, bytes, sizeof bytes);
            code_call_argument(&s, o, 0, buf, sizeof buf);
            const char *bn = strrchr(buf, '&');
            bn = bn ? bn + 1 : buf;
            if (!bytes[0] || strlen(bytes) >= n || strlen(w) >= n || strlen(bn) >= n)
                continue;
            snprintf(width, n, "%s", w);
            snprintf(row_bytes, n, "%s", bytes);
            snprintf(buffer, n, "%s", bn);
            found = 1;
        }
    }
    source_code_free(&s);
    return found;
}

int source_divided_not_by_size(const char *path, int line, const char *name, char *divisor, size_t n)
{
    divisor[0] = '\0';
    char *text = source_line_text(path, line, 4096);
    const char *p = text_find_word(text, text, name);
    const char *d = p ? p + strlen(name) : NULL;
    while (d && *d == ' ')
        d++;
    if (d && *d == '/') {
        d++;
        while (*d == ' ')
            d++;
        size_t dl = strcspn(d, ");,");
        while (dl > 0 && d[dl - 1] == ' ')
            dl--;
        if (dl > 0 && dl < n && strncmp(d, "sizeof", 6) != 0)
            snprintf(divisor, n, "%.*s", (int)dl, d);
    }
    free(text);
    return divisor[0] != '\0';
}

int source_pitch_of_allocation(const char *path, int line, char *pitch, size_t n)
{
    source_code s;
    pitch[0] = '\0';
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t b = code_line_start(&s, line), e = b < s.len ? code_line_end(&s, b) : s.len;
    for (size_t k = b; k < e && !pitch[0]; k++) {
        size_t open = code_word_at(&s, k, "cudaMallocPitch") ? code_call_open(&s, k, "cudaMallocPitch") : s.len;
        if (open >= s.len)
            continue;
        char arg[128];
        code_call_argument(&s, open, 1, arg, sizeof arg);
        const char *a = arg;
        while (*a == '&' || *a == ' ' || *a == '(')
            a++;
        size_t l = 0;
        while (source_is_identifier_char(a[l]))
            l++;
        if (l && l < n && a[l] == '\0')
            snprintf(pitch, n, "%.*s", (int)l, a);
    }
    source_code_free(&s);
    return pitch[0] != '\0';
}

int source_stride_set_at(const char *path, int access, char *member, size_t n)
{
    member[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    char *text = source_line_text(path, access, 4096);
    int line = 0;
    /* each `X.F` or `X->F` of the access's line that is a factor of a product */
    for (const char *p = text; *p && !line; p++) {
        int arrow = p[0] == '-' && p[1] == '>';
        if (!(p[0] == '.' || arrow) || p == text || !source_is_identifier_char(p[-1]))
            continue;
        const char *f = p + (arrow ? 2 : 1);
        size_t fl = 0;
        while (source_is_identifier_char(f[fl]))
            fl++;
        const char *b = p;
        while (b > text && source_is_identifier_char(b[-1]))
            b--;
        const char *before = b, *after = f + fl;
        while (before > text && (before[-1] == ' ' || before[-1] == '\t'))
            before--;
        while (*after == ' ' || *after == '\t')
            after++;
        if (fl == 0 || !((before > text && before[-1] == '*') || *after == '*'))
            continue;
        /* the object the launch passes for it, and its last assignment:
         * `OBJ.F =` or `OBJ->F =`, not `==` */
        char object[128], param[128];
        snprintf(param, sizeof param, "%.*s", (int)(p - b), b);
        launch_argument_for(&s, access, param, object, sizeof object);
        size_t ol = strlen(object);
        for (size_t k = 1; k + fl < s.len; k++) {
            if (strncmp(code + k, f, fl) != 0 || source_is_identifier_char(code[k + fl]) ||
                !(code[k - 1] == '.' || (k > 1 && code[k - 2] == '-' && code[k - 1] == '>')))
                continue;
            size_t o = code[k - 1] == '.' ? k - 1 : k - 2;
            if (o < ol || strncmp(code + o - ol, object, ol) != 0 ||
                (o > ol && source_is_identifier_char(code[o - ol - 1])))
                continue;
            if (code_assigns_at(&s, code_skip_space(&s, k + fl)) && code_line_at(&s, k) != access) {
                line = code_line_at(&s, k);
                snprintf(member, n, "%.*s", (int)((f + fl) - b), b);
            }
        }
    }
    free(text);
    source_code_free(&s);
    return line;
}

int source_byte_step_in_elements(const char *path, char *member, size_t n, int *set_line, char *type, size_t type_n)
{
    member[0] = type[0] = '\0';
    *set_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t i = 1; i <= s.nlines && !found; i++) {
        size_t b = code_line_start(&s, (int)i), e = code_line_end(&s, b);
        /* a cast to a pointer to bytes: `(char *)`, `(unsigned char*)` */
        const char *cast = NULL;
        for (size_t k = b; k < e && !cast; k++)
            if (s.code[k] == '(' && code_word_at(&s, code_skip_space(&s, k + 1), "char"))
                cast = s.code + k;
        if (!cast || code_kernel_before(&s, b) >= s.len)
            continue;
        int set = source_stride_set_at(path, (int)i, member, n);
        char *value = set > 0 ? source_line_text(path, set, 200) : NULL;
        const char *div = value ? strchr(value, '/') : NULL, *sz = div ? strstr(div, "sizeof") : NULL;
        if (sz) {
            /* the type divided by: `sizeof(float)` */
            const char *o = strchr(sz, '(');
            size_t tl = o ? strcspn(o + 1, ")") : 0;
            snprintf(type, type_n, "%.*s", (int)tl, o ? o + 1 : "");
            found = (int)i;
            *set_line = set;
        }
        free(value);
    }
    source_code_free(&s);
    return found;
}

/* The next name in [k, to) of s, not a number: its start, its end into
 * *e; to when none. */
static size_t next_name(const source_code *s, size_t k, size_t to, size_t *e)
{
    const char *code = s->code;
    for (; k < to; k++) {
        if (!source_is_identifier_char(code[k]) || (code[k] >= '0' && code[k] <= '9') ||
            (k > 0 && source_is_identifier_char(code[k - 1])))
            continue;
        *e = k;
        while (*e < to && source_is_identifier_char(code[*e]))
            (*e)++;
        return k;
    }
    *e = to;
    return to;
}

int source_name_defined_as(const char *path, int line, long value, char *name, size_t n)
{
    name[0] = '\0';
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t from = code_line_start(&s, line), to = (size_t)line < s.nlines ? code_line_start(&s, line + 1) : s.len;
    int def = 0;
    size_t e;
    for (size_t k = next_name(&s, from, to, &e); k < to && !def; k = next_name(&s, e, to, &e)) {
        /* `#define NAME VALUE` or `const int NAME = VALUE;`, VALUE that number */
        long got = 0;
        size_t at = 0;
        if (code_defined_number(&s, code + k, e - k, &got, &at) && got == value) {
            def = code_line_at(&s, at);
            snprintf(name, n, "%.*s", (int)(e - k), code + k);
        }
    }
    source_code_free(&s);
    return def;
}

/* The text of `#define NAME TEXT` in s (its [*b, *e)): 1, else 0. */
static int define_text(const source_code *s, const char *name, size_t n, size_t *b, size_t *e)
{
    const char *code = s->code;
    for (size_t k = 0; k < s->len; k++) {
        if (code[k] != '#' || (k > 0 && code[k - 1] != '\n'))
            continue;
        size_t d = code_skip_space(s, k + 1);
        if (!code_word_at(s, d, "define"))
            continue;
        size_t nb = code_skip_space(s, d + 6), ne = code_word_end(s, nb);
        if (ne - nb != n || strncmp(code + nb, name, n) != 0 || code[ne] == '(')
            continue;
        size_t eol = ne;
        while (eol < s->len && code[eol] != '\n')
            eol++;
        *b = code_skip_space(s, ne);
        *e = eol;
        while (*e > *b && (code[*e - 1] == ' ' || code[*e - 1] == '\t' || code[*e - 1] == '\r'))
            (*e)--;
        return *e > *b;
    }
    return 0;
}

int source_name_defined_through(const char *path, int line, char *name, size_t n, char *via, size_t via_n,
                                char *text, size_t text_n)
{
    name[0] = via[0] = text[0] = '\0';
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t from = code_line_start(&s, line), to = (size_t)line < s.nlines ? code_line_start(&s, line + 1) : s.len;
    int def = 0;
    size_t e, db, de;
    for (size_t k = next_name(&s, from, to, &e); k < to && !def; k = next_name(&s, e, to, &e)) {
        long got = 0;
        size_t at = 0;
        /* a macro of the file whose value is an expression of names */
        if (!code_defined_number(&s, code + k, e - k, &got, &at) && define_text(&s, code + k, e - k, &db, &de)) {
            int named = 0;
            size_t qe;
            for (size_t q = next_name(&s, db, de, &qe); q < de; q = next_name(&s, qe, de, &qe)) {
                /* the one name in it that the file sets to a number */
                if (code_defined_number(&s, code + q, qe - q, &got, &at) && named++ == 0) {
                    def = code_line_at(&s, at);
                    snprintf(name, n, "%.*s", (int)(qe - q), code + q);
                }
            }
            if (named != 1)
                def = 0;
            if (def) {
                snprintf(via, via_n, "%.*s", (int)(e - k), code + k);
                snprintf(text, text_n, "%.*s", (int)(de - db), code + db);
            }
        }
    }
    source_code_free(&s);
    if (!def)
        name[0] = via[0] = text[0] = '\0';
    return def;
}

int source_number_defines(const char *path, char (*names)[48], long *values, int *lines, int max)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int n = 0;
    for (size_t k = 0; k < s.len && n < max; k++) {
        if (code[k] != '#' || (k > 0 && code[k - 1] != '\n'))
            continue;
        size_t d = code_skip_space(&s, k + 1);
        if (!code_word_at(&s, d, "define"))
            continue;
        size_t nb = code_skip_space(&s, d + 6), ne = code_word_end(&s, nb);
        long value = 0;
        size_t at = 0;
        if (ne > nb && ne - nb < 48 && code[ne] != '(' &&
            code_defined_number(&s, code + nb, ne - nb, &value, &at) && code_line_at(&s, at) == code_line_at(&s, k)) {
            snprintf(names[n], 48, "%.*s", (int)(ne - nb), code + nb);
            values[n] = value;
            lines[n++] = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return n;
}

int source_define_with_semicolon(const char *path, char *name, size_t n, int *use_line)
{
    name[0] = '\0';
    *use_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int def = 0;
    for (size_t k = 0; k < s.len && !def; k++) {
        if (code[k] != '#' || (k > 0 && code[k - 1] != '\n'))
            continue;
        size_t d = code_skip_space(&s, k + 1);
        if (!code_word_at(&s, d, "define"))
            continue;
        size_t nb = code_skip_space(&s, d + 6), ne = code_word_end(&s, nb);
        size_t eol = k;
        while (eol < s.len && code[eol] != '\n')
            eol++;
        size_t last = eol;
        while (last > ne && (code[last - 1] == ' ' || code[last - 1] == '\t' || code[last - 1] == '\r'))
            last--;
        if (ne == nb || ne - nb >= n || code[ne] == '(' || last <= ne || code[last - 1] != ';')
            continue;
        /* a use of it in an expression, after it */
        for (size_t u = eol; u + (ne - nb) < s.len && !*use_line; u++)
            if (code_name_at(&s, u, code + nb, ne - nb))
                *use_line = code_line_at(&s, u);
        if (*use_line) {
            def = code_line_at(&s, k);
            snprintf(name, n, "%.*s", (int)(ne - nb), code + nb);
        }
    }
    source_code_free(&s);
    return def;
}

int source_device_function_launched(const char *path, char *name, size_t n, int *launch_line)
{
    name[0] = '\0';
    *launch_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int decl = 0;
    for (const char *l = strstr(code, "<<<"); l && !decl; l = strstr(l + 3, "<<<")) {
        const char *e = l;
        while (e > code && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        const char *b = e;
        while (b > code && source_is_identifier_char(b[-1]))
            b--;
        size_t kl = (size_t)(e - b);
        if (kl == 0 || kl >= n)
            continue;
        /* its declarations at file scope: __device__ in one, __global__ in none */
        int global = 0, device = 0, depth = 0;
        size_t stmt = 0;
        for (size_t k = 0; k < s.len; k++) {
            if (code[k] == '{' || code[k] == '}' || code[k] == ';') {
                depth += code[k] == '{' ? 1 : code[k] == '}' ? -1 : 0;
                stmt = k + 1;
                continue;
            }
            if (depth != 0 || !code_name_at(&s, k, b, kl) || code[code_skip_space(&s, k + kl)] != '(')
                continue;
            global |= memmem(code + stmt, k - stmt, "__global__", 10) != NULL;
            if (!device && memmem(code + stmt, k - stmt, "__device__", 10))
                device = code_line_at(&s, k);
        }
        if (device && !global) {
            decl = device;
            *launch_line = code_line_at(&s, (size_t)(l - code));
            snprintf(name, n, "%.*s", (int)kl, b);
        }
    }
    source_code_free(&s);
    return decl;
}

/* Whether offset k lies in the body of a __global__ function. */
static int in_kernel_body(const source_code *s, size_t k)
{
    size_t g = code_kernel_before(s, k), close, b = g < s->len ? code_kernel_body(s, g, &close) : s->len;
    return b < s->len && k > b && k < close;
}

int source_builtin_in_host(const char *path, char *builtin, size_t n)
{
    static const char *const builtins[] = { "threadIdx", "blockIdx", "blockDim", "gridDim", NULL };
    source_code s;
    builtin[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        int which = -1;
        for (int i = 0; builtins[i] && which < 0; i++)
            if (code_word_at(&s, k, builtins[i]))
                which = i;
        if (which < 0)
            continue;
        /* the function around it: its outermost brace, and the header
         * before it back to the last `;`, `}` or `#` line */
        size_t open = code_block_around(&s, k), outer = s.len;
        for (int depth = 0; open < s.len && depth < 64; depth++) {
            outer = open;
            open = open > 0 ? code_block_around(&s, open - 1) : s.len;
        }
        if (outer >= s.len)
            continue;
        size_t h = outer;
        while (h > 0 && c[h - 1] != ';' && c[h - 1] != '}' && c[h - 1] != '#')
            h--;
        int device = 0;
        for (size_t q = h; q < outer && !device; q++)
            device = code_word_at(&s, q, "__global__") || code_word_at(&s, q, "__device__");
        if (device || strlen(builtins[which]) >= n)
            continue;
        snprintf(builtin, n, "%s", builtins[which]);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_member_never_set(const char *path, int line, const char *member_of, char *object, size_t n, char *init,
                            size_t init_n)
{
    object[0] = init[0] = '\0';
    const char *dot = strchr(member_of, '.');
    if (!dot || dot == member_of || !dot[1] || strchr(dot + 1, '.'))
        return 0;
    char param[128];
    snprintf(param, sizeof param, "%.*s", (int)(dot - member_of), member_of);
    const char *member = dot + 1;
    size_t ml = strlen(member);
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    launch_argument_for(&s, line, param, object, n);
    size_t ol = strlen(object);
    int decl = 0, set = 0;
    for (size_t k = 0; ol && k + ol < s.len && !set; k++) {
        if (!code_name_at(&s, k, object, ol) || in_kernel_body(&s, k))
            continue;
        size_t q = code_skip_space(&s, k + ol);
        /* OBJ.member = ... sets it; so does passing &OBJ to a call */
        if (code[q] == '.' && strncmp(code + code_skip_space(&s, q + 1), member, ml) == 0 &&
            !source_is_identifier_char(code[code_skip_space(&s, q + 1) + ml]) &&
            code_assigns_at(&s, code_skip_space(&s, code_skip_space(&s, q + 1) + ml)))
            set = 1;
        else if (k > 0 && code[k - 1] == '&')
            set = 1;
        else if (!decl && code[q] == '=' && code[q + 1] != '=') {
            /* its first assignment: a declaration's initialiser, or a whole
             * assignment; the text to the next top-level , or ; */
            size_t b = code_skip_space(&s, q + 1), e = b;
            int depth = 0;
            for (; e < s.len && !(depth == 0 && (code[e] == ',' || code[e] == ';')); e++)
                depth += code[e] == '{' || code[e] == '(' ? 1 : code[e] == '}' || code[e] == ')' ? -1 : 0;
            snprintf(init, init_n, "%.*s", (int)(e - b), code + b);
            /* a copy of another object sets every member */
            if (code[b] != '{')
                set = 1;
            decl = code_line_at(&s, k);
        } else if (!decl && (code[q] == ';' || code[q] == ',')) {
            /* declared with no value (`Image_t d_in_img = *in, d_out_img;`):
             * init stays "" */
            size_t st = code_skip_space(&s, code_statement_start(&s, k, 0));
            int declaration = st < k && source_is_identifier_char(code[st]);
            for (size_t t = st; t < k && declaration; t++)
                declaration = code[t] != '(' && code[t] != '[';
            if (declaration)
                decl = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return set ? 0 : decl;
}

/* Whether offset p of s, before e, is the `.` (or `->`, where arrows) of
 * `X.F[`: X's name into param, and what the launch of X's kernel passes
 * for it into obj (launch_argument_for); F's span into *f, *fe. */
static int member_read_at(const source_code *s, size_t p, size_t e, int access, int arrows, char *param, char *obj,
                          size_t n, size_t *f, size_t *fe, int *arrow)
{
    const char *code = s->code;
    *arrow = arrows && code[p] == '-' && code[p + 1] == '>';
    if (!(code[p] == '.' || *arrow) || !source_is_identifier_char(code[p - 1]))
        return 0;
    *f = code_skip_space(s, p + (*arrow ? 2 : 1));
    *fe = code_word_end(s, *f);
    if (*fe == *f || *fe >= e || code[code_skip_space(s, *fe)] != '[')
        return 0;
    size_t xl, x = code_word_before(s, p, &xl);
    if (!xl || xl >= n || *fe - *f >= n)
        return 0;
    snprintf(param, n, "%.*s", (int)xl, code + x);
    launch_argument_for(s, access, param, obj, n);
    return 1;
}

int source_member_from_host(const char *path, int access, char *member_of, size_t member_n, char *object,
                            size_t object_n, char *value, size_t value_n, int *whole)
{
    member_of[0] = object[0] = value[0] = '\0';
    *whole = 0;
    source_code s;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t b = code_line_start(&s, access), e = code_line_end(&s, b);
    int found = 0;
    /* each `X.F[` or `X->F[` of the access's line, X a kernel parameter */
    for (size_t p = b + 1; p < e && !found; p++) {
        char param[128], obj[128];
        size_t f, fe;
        int arrow;
        if (!member_read_at(&s, p, e, access, 1, param, obj, sizeof param, &f, &fe, &arrow))
            continue;
        size_t ol = strlen(obj), fl = fe - f;
        if (!ol)
            continue;
        /* the object's member assigned on the host (`OBJ.F = ...`), the
         * last such; else the object assigned whole (`T OBJ = *in`), which
         * gave F the other object's */
        int set = 0, copy = 0;
        char set_text[256] = "", copy_text[256] = "";
        for (size_t k = 0; k + ol < s.len; k++) {
            if (!code_name_at(&s, k, obj, ol) || in_kernel_body(&s, k))
                continue;
            size_t q = code_skip_space(&s, k + ol), r = 0;
            if (code[q] == '.' || (code[q] == '-' && code[q + 1] == '>')) {
                size_t m = code_skip_space(&s, q + (code[q] == '.' ? 1 : 2));
                if (code_word_end(&s, m) - m == fl && strncmp(code + m, code + f, fl) == 0 &&
                    code_assigns_at(&s, code_skip_space(&s, m + fl)))
                    r = code_skip_space(&s, m + fl);
                if (!r)
                    continue;
                set = code_line_at(&s, k);
            } else if (code[q] == '=' && code[q + 1] != '=') {
                r = q;
                copy = code_line_at(&s, k);
            } else {
                continue;
            }
            /* the value: to the next top-level , or ; */
            size_t v = code_skip_space(&s, r + 1), w = v;
            int depth = 0;
            for (; w < s.len && !(depth == 0 && (code[w] == ',' || code[w] == ';')); w++)
                depth += code[w] == '{' || code[w] == '(' ? 1 : code[w] == '}' || code[w] == ')' ? -1 : 0;
            snprintf(code[q] == '=' ? copy_text : set_text, 256, "%.*s", (int)(w - v), code + v);
        }
        if (!set && !copy)
            continue;
        snprintf(member_of, member_n, "%s%s%.*s", param, arrow ? "->" : ".", (int)fl, code + f);
        snprintf(object, object_n, "%s", obj);
        snprintf(value, value_n, "%s", set ? set_text : copy_text);
        *whole = !set;
        found = set ? set : copy;
    }
    source_code_free(&s);
    return found;
}

/* Whether the launch of the kernel whose body holds line `at` passes the
 * name as one of its arguments (bare). */
static int launch_passes(const source_code *s, int at, const char *name)
{
    size_t c, k = kernel_launch_of(s, at, &c);
    char arg[128];
    for (int i = 0; k < s->len && i < 16; i++) {
        code_call_argument(s, c, i, arg, sizeof arg);
        if (!arg[0])
            break;
        if (!strcmp(bare_name(arg), name))
            return 1;
    }
    return 0;
}

int source_launch_passes_other_object(const char *path, int access, char *member_of, size_t member_n, char *passed,
                                      size_t passed_n, char *other, size_t other_n, int *set_line)
{
    member_of[0] = passed[0] = other[0] = '\0';
    *set_line = 0;
    source_code s;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t b = code_line_start(&s, access), e = code_line_end(&s, b);
    int found = 0;
    /* each `X.F[` of the access's line, X a kernel parameter */
    for (size_t p = b + 1; p < e && !found; p++) {
        char param[128], obj[128];
        size_t f, fe;
        int arrow;
        if (!member_read_at(&s, p, e, access, 0, param, obj, sizeof param, &f, &fe, &arrow))
            continue;
        size_t ol = strlen(obj), fl = fe - f;
        if (!ol)
            continue;
        /* the object passed has member F set nowhere on the host, and
         * another object of the host code has (`d_in_img.data = d_in;`) */
        int passed_set = 0, other_set = 0, like_param = 0;
        char other_name[128] = "";
        for (size_t k = 1; k + fl < s.len; k++) {
            if (code[k] != '.' || !source_is_identifier_char(code[k - 1]) || in_kernel_body(&s, k))
                continue;
            size_t m = code_skip_space(&s, k + 1);
            if (code_word_end(&s, m) - m != fl || strncmp(code + m, code + f, fl) != 0 ||
                !code_assigns_at(&s, code_skip_space(&s, m + fl)))
                continue;
            size_t on;
            size_t o = code_word_before(&s, k, &on);
            if (!on || on >= sizeof other_name)
                continue;
            char cand[128];
            snprintf(cand, sizeof cand, "%.*s", (int)on, code + o);
            /* of several, one whose name holds the parameter's (`d_out_img`
             * for `out`), and not one the launch passes already */
            int like = strstr(cand, param) != NULL;
            if (on == ol && !strncmp(code + o, obj, ol))
                passed_set = 1;
            else if ((!other_set || (like && !like_param)) && !launch_passes(&s, access, cand)) {
                snprintf(other_name, sizeof other_name, "%s", cand);
                other_set = code_line_at(&s, k);
                like_param = like;
            }
        }
        if (passed_set || !other_set)
            continue;
        snprintf(member_of, member_n, "%s.%.*s", param, (int)fl, code + f);
        snprintf(passed, passed_n, "%s", obj);
        snprintf(other, other_n, "%s", other_name);
        *set_line = other_set;
        /* the launch's line */
        size_t args, launch = kernel_launch_of(&s, access, &args);
        found = launch < s.len ? code_line_at(&s, launch) : 0;
    }
    source_code_free(&s);
    return found;
}

/* Whether the file sets a member of the object obj to the name (`obj.data
 * = d_in;`): the object carries it into a kernel. */
static int member_set_to(const source_code *s, const char *obj, const char *name)
{
    size_t on = strlen(obj), nn = strlen(name);
    for (size_t k = 0; on && k + on < s->len; k++) {
        if (!code_name_at(s, k, obj, on))
            continue;
        size_t q = code_skip_space(s, k + on);
        if (!(s->code[q] == '.' || (s->code[q] == '-' && s->code[q + 1] == '>')))
            continue;
        size_t m = code_skip_space(s, q + (s->code[q] == '.' ? 1 : 2)), me = code_word_end(s, m);
        size_t eq = code_skip_space(s, me);
        if (me > m && code_assigns_at(s, eq) && code_name_at(s, code_skip_space(s, eq + 1), name, nn))
            return 1;
    }
    return 0;
}

/* The element type written before the name declared at offset k (`int`
 * of `__constant__ int Mc[5][5]`, `float` of `const float *mask`), into
 * out; 0 when the word before it (past `*`s and blanks) is no number type. */
static int element_type_before(const source_code *s, size_t k, char *out, size_t n)
{
    size_t b = k;
    while (b > 0 && (s->code[b - 1] == ' ' || s->code[b - 1] == '*' || s->code[b - 1] == '\t'))
        b--;
    size_t tn = 0, t0 = code_word_before(s, b, &tn);
    if (!tn || t0 + tn != b || !code_number_type(s->code + t0, tn) || tn >= n)
        return 0;
    snprintf(out, n, "%.*s", (int)tn, s->code + t0);
    return 1;
}

/* The declaration of name in s that precedes `before` (`T name[`, `T
 * *name`, `T name;`): its name's offset; s->len when none. */
static size_t declared_at_before(const source_code *s, const char *name, size_t before)
{
    size_t nn = strlen(name), at = s->len;
    char type[32];
    for (size_t k = 0; k + nn < s->len && k < before; k++)
        if (code_name_at(s, k, name, nn) && element_type_before(s, k, type, sizeof type))
            at = k;
    return at;
}

int source_symbol_element_type_mismatch(const char *path, char *symbol, size_t symbol_n, char *symbol_type,
                                        char *source, size_t source_n, char *source_type, size_t type_n,
                                        int *copy_line)
{
    source_code s;
    symbol[0] = source[0] = symbol_type[0] = source_type[0] = '\0';
    *copy_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    int found = 0;
    for (size_t k = 0; k + 18 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "cudaMemcpyToSymbol"))
            continue;
        size_t open = code_skip_space(&s, k + 18);
        if (open >= s.len || s.code[open] != '(')
            continue;
        char a0[64], a1[64];
        code_call_argument(&s, open, 0, a0, sizeof a0);
        code_call_argument(&s, open, 1, a1, sizeof a1);
        const char *sym = bare_name(a0), *src = bare_name(a1);
        if (!*sym || !*src)
            continue;
        size_t ds = declared_at_before(&s, sym, k), dv = declared_at_before(&s, src, k);
        char ts[32], tv[32];
        if (ds >= s.len || dv >= s.len || !element_type_before(&s, ds, ts, sizeof ts) ||
            !element_type_before(&s, dv, tv, sizeof tv) || !strcmp(ts, tv))
            continue;
        snprintf(symbol, symbol_n, "%s", sym);
        snprintf(source, source_n, "%s", src);
        snprintf(symbol_type, type_n, "%s", ts);
        snprintf(source_type, type_n, "%s", tv);
        *copy_line = code_line_at(&s, k);
        found = code_line_at(&s, ds);
    }
    source_code_free(&s);
    return found;
}

int source_launch_after(const char *path, int line, const char *name)
{
    source_code s;
    if (!name[0] || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int found = 0;
    for (size_t i = code_line_start(&s, line + 1); i + 3 < s.len && !found; i++) {
        if (strncmp(code + i, ">>>", 3) != 0)
            continue;
        size_t open = code_skip_space(&s, i + 3);
        if (open >= s.len || code[open] != '(')
            continue;
        /* the kernel's arguments: is name, bare, one of them? */
        char arg[64];
        for (int k = 0; k < 16 && !found; k++) {
            code_call_argument(&s, open, k, arg, sizeof arg);
            if (!arg[0])
                break;
            if (strcmp(bare_name(arg), name) == 0 || member_set_to(&s, bare_name(arg), name))
                found = code_line_at(&s, i);
        }
    }
    source_code_free(&s);
    return found;
}

/* The runtime's calls whose first argument is the memory they store into. */
static const char *const fills[] = { "cudaMemcpy", "cudaMemcpyAsync", "cudaMemcpy2D", "cudaMemcpy2DAsync",
                                     "cudaMemcpy3D", "cudaMemset", "cudaMemsetAsync", "cudaMemset2D",
                                     "cudaMemset2DAsync", NULL };

int source_fill_of(const char *path, const char *name, int *beside)
{
    source_code s;
    *beside = 0;
    if (!name[0] || !source_code_read(&s, path))
        return 0;
    int fill = 0, launch = 0;
    for (size_t i = 0; i < s.len && !fill; i++) {
        for (int f = 0; fills[f] && !fill; f++) {
            size_t open = code_call_open(&s, i, fills[f]);
            char dst[64];
            if (open >= s.len)
                continue;
            code_call_argument(&s, open, 0, dst, sizeof dst);
            if (strcmp(bare_name(dst), name) == 0)
                fill = code_line_at(&s, i);
        }
    }
    /* where the copies in stand: the last copy to the device before the
     * first launch that takes the buffer */
    launch = fill ? 0 : source_launch_after(path, 0, name);
    for (size_t i = 0; launch > 0 && i < s.len && code_line_at(&s, i) < launch; i++) {
        size_t open = code_call_open(&s, i, "cudaMemcpy");
        size_t close = open < s.len ? code_matching(&s, open) : s.len;
        if (close < s.len && memmem(s.code + open, close - open, "cudaMemcpyHostToDevice", 22))
            *beside = code_line_at(&s, i);
    }
    source_code_free(&s);
    return fill;
}

/* Whether the word before offset k (spaces, `*` and `&` skipped) is a
 * type's: `float Mc[5][5]`, `const float *Mc`. */
static int after_type_word(const source_code *s, size_t k)
{
    while (k > 0 && strchr(" \t\n*&", s->code[k - 1]))
        k--;
    size_t n = 0, w = code_word_before(s, k, &n);
    return n > 0 && w + n == k && code_number_type(s->code + w, n);
}

int source_symbol_hidden(const char *path, char *name, size_t n, int *copy_line, int *global_line)
{
    static const struct {
        const char *call;
        int arg;
    } calls[] = { { "cudaMemcpyToSymbol", 0 }, { "cudaMemcpyFromSymbol", 1 } };
    name[0] = '\0';
    *copy_line = *global_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int decl = 0, depth = 0;
    size_t body = 0; /* the `{` of the function the walk is in */
    for (size_t i = 0; i < s.len && !decl; i++) {
        if (code[i] == '{' && depth++ == 0)
            body = i;
        else if (code[i] == '}' && depth > 0)
            depth--;
        for (size_t c = 0; c < sizeof calls / sizeof *calls && depth > 0 && !decl; c++) {
            size_t open = code_call_open(&s, i, calls[c].call);
            char arg[64];
            if (open >= s.len)
                continue;
            code_call_argument(&s, open, calls[c].arg, arg, sizeof arg);
            const char *sym = bare_name(arg);
            size_t sl = sym ? strlen(sym) : 0;
            if (!sl || sl >= n)
                continue;
            /* a declaration of that name in the function before the call,
             * and one at file scope that is __constant__ or __device__ */
            int local = 0, global = 0;
            for (size_t k = body; k < i && !local; k++)
                if (code_name_at(&s, k, sym, sl) && after_type_word(&s, k))
                    local = code_line_at(&s, k);
            for (size_t k = 0, d = 0, stmt = 0; k < body && local && !global; k++) {
                d += code[k] == '{' ? 1 : 0;
                d -= code[k] == '}' && d > 0 ? 1 : 0;
                if (code[k] == ';' || code[k] == '{' || code[k] == '}')
                    stmt = k + 1;
                if (d == 0 && code_name_at(&s, k, sym, sl) &&
                    (memmem(code + stmt, k - stmt, "__constant__", 12) || memmem(code + stmt, k - stmt, "__device__", 10)))
                    global = code_line_at(&s, k);
            }
            if (local && global) {
                decl = local;
                *global_line = global;
                *copy_line = code_line_at(&s, i);
                snprintf(name, n, "%s", sym);
            }
        }
    }
    source_code_free(&s);
    return decl;
}

/* The first call of `call` whose argument `which` is symbol: its line,
 * its size argument into size_arg (n bytes). */
static int symbol_copy(const char *path, const char *call, int which, const char *symbol, char *size_arg, size_t n)
{
    source_code s;
    if (n)
        size_arg[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t i = 0; i + 18 < s.len && !line; i++) {
        size_t open = code_call_open(&s, i, call);
        if (open >= s.len)
            continue;
        char arg[64];
        code_call_argument(&s, open, which, arg, sizeof arg);
        if (strcmp(bare_name(arg), symbol) != 0)
            continue;
        line = code_line_at(&s, i);
        code_call_argument(&s, open, 2, size_arg, n);
    }
    source_code_free(&s);
    return line;
}

int source_symbol_copy_line(const char *path, const char *symbol, char *size_arg, size_t n)
{
    return symbol_copy(path, "cudaMemcpyToSymbol", 0, symbol, size_arg, n);
}

int source_symbol_copied_out(const char *path, const char *symbol)
{
    char size[8];
    return symbol_copy(path, "cudaMemcpyFromSymbol", 1, symbol, size, sizeof size);
}

int source_device_symbol(const char *path, char *name, size_t name_n, int *copy_line)
{
    source_code s;
    name[0] = '\0';
    *copy_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    int decl = 0;
    for (size_t i = 0; i < s.len && !decl; i++) {
        size_t open = code_call_open(&s, i, "cudaMemcpyToSymbol");
        char dst[64];
        if (open >= s.len)
            continue;
        code_call_argument(&s, open, 0, dst, sizeof dst);
        const char *sym = bare_name(dst);
        size_t n = strlen(sym);
        if (!n || n >= name_n)
            continue;
        /* its declaration: a statement that names it after __device__,
         * with no parenthesis between (a function's is no variable) */
        for (size_t k = 0; k + n <= s.len && !decl; k++) {
            if (!code_name_at(&s, k, sym, n))
                continue;
            size_t from = code_statement_start(&s, k, 0);
            size_t after = code_skip_space(&s, k + n);
            if (after >= s.len || (s.code[after] != '[' && s.code[after] != ';' && s.code[after] != '='))
                continue;
            int device = 0, other = 0;
            for (size_t w = from; w < k; w++) {
                device |= code_word_at(&s, w, "__device__");
                other |= code_word_at(&s, w, "__constant__") || s.code[w] == '(';
            }
            if (device && !other) {
                decl = code_line_at(&s, k);
                *copy_line = code_line_at(&s, i);
                snprintf(name, name_n, "%s", sym);
            }
        }
    }
    source_code_free(&s);
    return decl;
}

int source_sizeof_pointer(const char *path, char *call, size_t call_n, char *name, size_t name_n, int *decl_line)
{
    static const struct {
        const char *name;
        int size; /* the size argument's position */
    } calls[] = {
        { "cudaMalloc", 1 }, { "cudaMallocManaged", 1 }, { "cudaMemcpy", 2 }, { "cudaMemset", 2 }, { "malloc", 0 },
    };
    call[0] = name[0] = '\0';
    *decl_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t i = 0; i < s.len && !line; i++) {
        if (!code_word_starts(&s, i))
            continue;
        for (size_t c = 0; c < sizeof calls / sizeof *calls && !line; c++) {
            size_t open = code_call_open(&s, i, calls[c].name);
            if (open >= s.len)
                continue;
            char a[128];
            code_call_argument(&s, open, calls[c].size, a, sizeof a);
            /* `sizeof(NAME)` or `sizeof NAME`, alone or a factor */
            for (const char *p = strstr(a, "sizeof"); p && !line; p = strstr(p + 6, "sizeof")) {
                const char *q = p + 6;
                while (*q == ' ')
                    q++;
                int paren = *q == '(';
                if (paren)
                    q++;
                while (*q == ' ')
                    q++;
                size_t n = 0;
                while (source_is_identifier_char(q[n]))
                    n++;
                const char *after = q + n;
                while (*after == ' ')
                    after++;
                if (n == 0 || n >= name_n || (paren && *after != ')') || strlen(calls[c].name) >= call_n)
                    continue;
                if (declared_pointer(&s, i, q, n, decl_line)) {
                    line = code_line_at(&s, i);
                    snprintf(name, name_n, "%.*s", (int)n, q);
                    snprintf(call, call_n, "%s", calls[c].name);
                }
            }
        }
    }
    source_code_free(&s);
    return line;
}

/* Whether the file uses the n characters at name as a pointer: the
 * argument of a cudaMemcpy*, a cudaFree or a launch, `&name` given to a
 * cudaMalloc, or subscripted. */
static int used_as_pointer(const source_code *s, const char *name, size_t n)
{
    static const char *const takers[] = { "cudaMalloc", "cudaMemcpy", "cudaMemcpy2D", "cudaFree", "cudaMemset",
                                          "cudaMallocPitch", NULL };
    for (size_t k = 0; k + n <= s->len; k++) {
        if (!code_name_at(s, k, name, n))
            continue;
        size_t q = code_skip_space(s, k + n);
        if (q < s->len && s->code[q] == '[')
            return 1;
        /* inside the parentheses of a taker's call */
        for (int i = 0; takers[i]; i++)
            for (size_t c = k; c > 0 && k - c < 160; c--)
                if (code_word_at(s, c, takers[i])) {
                    size_t open = code_call_open(s, c, takers[i]);
                    if (open < s->len && open < k && k < code_matching(s, open))
                        return 1;
                    break;
                }
    }
    return 0;
}

int source_pointer_list(const char *path, char *name, size_t name_n, char *decl, size_t decl_n)
{
    static const char *const types[] = { "float", "double", "int", "unsigned", "char", NULL };
    source_code s;
    name[0] = decl[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t k = 0; k < s.len && !line; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t e = code_word_end(&s, k);
        if (e == k || !code_word_in(s.code + k, e - k, types))
            continue;
        /* the declarators up to the ';' at depth 0: one with a `*`, another without */
        size_t end = code_semicolon(&s, e, s.len);
        if (end >= s.len)
            continue;
        int starred = 0, depth = 0;
        size_t plain = s.len, plain_n = 0, d = code_skip_space(&s, e);
        for (size_t q = d; q <= end; q++) {
            char c = q < end ? s.code[q] : ',';
            if (c == '(' || c == '[' || c == '{')
                depth++;
            else if (c == ')' || c == ']' || c == '}')
                depth--;
            if (depth < 0)
                break;
            if (c != ',' || depth != 0)
                continue;
            /* one declarator [d, q) */
            size_t a = code_skip_space(&s, d);
            if (a < q && s.code[a] == '*')
                starred = 1;
            else if (a < q && code_word_starts(&s, a) && plain == s.len) {
                size_t w = code_word_end(&s, a);
                if (w > a && !(s.code[a] >= '0' && s.code[a] <= '9'))
                    plain = a, plain_n = w - a;
            }
            d = q + 1;
        }
        if (depth < 0 || !starred || plain == s.len || plain_n >= name_n || !used_as_pointer(&s, s.code + plain, plain_n))
            continue;
        snprintf(name, name_n, "%.*s", (int)plain_n, s.code + plain);
        snprintf(decl, decl_n, "%.*s", (int)(e - k), s.code + k);
        line = code_line_at(&s, plain);
    }
    source_code_free(&s);
    return line;
}

int source_reads_builtin(const char *path, const char *builtin, char component)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t n = strlen(builtin);
    int found = 0;
    for (size_t k = 0; k + n + 2 <= s.len && !found; k++) {
        if (!code_name_at(&s, k, builtin, n))
            continue;
        size_t q = code_skip_space(&s, k + n);
        if (q + 1 < s.len && s.code[q] == '.') {
            size_t c = code_skip_space(&s, q + 1);
            if (c < s.len && s.code[c] == component && !source_is_identifier_char(s.code[c + 1]))
                found = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return found;
}

int source_call_argument_name(const char *path, int line, const char *call, int k, char *out, size_t n)
{
    char arg[256];
    out[0] = '\0';
    if (!source_call_argument(path, line, call, k, arg, sizeof arg))
        return 0;
    const char *b = bare_name(arg);
    size_t len = 0;
    while (source_is_identifier_char(b[len]))
        len++;
    if (len == 0 || len >= n || (b[0] >= '0' && b[0] <= '9'))
        return 0;
    snprintf(out, n, "%.*s", (int)len, b);
    return 1;
}

/* Whether arg, past casts (not `&` or `*`), is one variable and nothing
 * more: its name into out. */
static int argument_is_variable(const char *arg, char *out, size_t n)
{
    const char *p = arg;
    while (*p == '(' || *p == ' ') {
        if (*p == ' ') {
            p++;
            continue;
        }
        const char *close = strchr(p, ')');
        if (!close)
            return 0;
        p = close + 1;
    }
    size_t len = 0;
    while (source_is_identifier_char(p[len]))
        len++;
    const char *rest = p + len;
    while (*rest == ' ')
        rest++;
    if (len == 0 || len >= n || *rest || (p[0] >= '0' && p[0] <= '9'))
        return 0;
    snprintf(out, n, "%.*s", (int)len, p);
    return 1;
}

int source_argument_set_once(const char *path, int line, const char *call, int k, char *name, size_t name_n,
                             char *init, size_t init_n, int *other_line)
{
    char arg[256];
    name[0] = init[0] = '\0';
    *other_line = 0;
    if (!source_call_argument(path, line, call, k, arg, sizeof arg) || !argument_is_variable(arg, name, name_n))
        return 0;
    int decl = source_variable_never_set(path, name, init, init_n);
    if (decl <= 0 || decl == line) {
        name[0] = init[0] = '\0';
        return 0;
    }
    source_code s;
    if (source_code_read(&s, path)) {
        size_t cl = strlen(call);
        for (size_t i = 0; i + cl < s.len && !*other_line; i++) {
            if (!code_name_at(&s, i, call, cl) || code_line_at(&s, i) == line)
                continue;
            size_t open = code_call_open(&s, i, call);
            char other[256] = "", its[64];
            if (open < s.len)
                code_call_argument(&s, open, k, other, sizeof other);
            if (argument_is_variable(other, its, sizeof its) && strcmp(its, name) == 0)
                *other_line = code_line_at(&s, i);
        }
        source_code_free(&s);
    }
    return decl;
}

int source_call_argument(const char *path, int line, const char *call, int k, char *out, size_t n)
{
    out[0] = '\0';
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t cl = strlen(call), end = s.len;
    /* the call whose name is on line (its arguments may go on) */
    for (size_t i = code_line_start(&s, line); i + cl < s.len && code_line_at(&s, i) == line && !out[0]; i++) {
        size_t open = code_name_at(&s, i, call, cl) ? code_call_open(&s, i, call) : end;
        if (open < end)
            code_call_argument(&s, open, k, out, n);
    }
    source_code_free(&s);
    return out[0] != '\0';
}

int source_variable_never_set(const char *path, const char *name, char *init, size_t init_n)
{
    init[0] = '\0';
    size_t nl = strlen(name);
    source_code s;
    if (!nl || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int decl = 0, set = 0;
    for (size_t k = 0; k + nl < s.len && !set; k++) {
        if (!code_name_at(&s, k, name, nl) || in_kernel_body(&s, k))
            continue;
        size_t q = code_skip_space(&s, k + nl);
        size_t before = k;
        while (before > 0 && (code[before - 1] == ' ' || code[before - 1] == '\t'))
            before--;
        int inc = (q + 1 < s.len && ((code[q] == '+' && code[q + 1] == '+') || (code[q] == '-' && code[q + 1] == '-'))) ||
                  (before >= 2 && ((code[before - 1] == '+' && code[before - 2] == '+') ||
                                   (code[before - 1] == '-' && code[before - 2] == '-')));
        int compound = q + 1 < s.len && strchr("+-*/%|&^", code[q]) && code[q] && code[q + 1] == '=';
        if (inc || compound || (before > 0 && code[before - 1] == '&' && (before < 2 || code[before - 2] != '&')))
            set = 1; /* ++name, name += .., or its address given away: set where this cannot see */
        else if (code_assigns_at(&s, q) && !decl) {
            /* the first `name = ...`: a declaration's initialiser (a type's
             * word before it, or the `,` of a list of them) */
            size_t wn = 0, wb = code_word_before(&s, k, &wn);
            int listed = before > 0 && code[before - 1] == ',';
            if (!listed && (wn == 0 || wb >= s.len || code_keyword_before_value(code + wb, wn))) {
                set = 1; /* an assignment, not a declaration */
                continue;
            }
            size_t b = code_skip_space(&s, q + 1), e = b;
            int depth = 0;
            for (; e < s.len && !(depth == 0 && (code[e] == ',' || code[e] == ';')); e++)
                depth += code[e] == '(' ? 1 : code[e] == ')' ? -1 : 0;
            snprintf(init, init_n, "%.*s", (int)(e - b), code + b);
            decl = code_line_at(&s, k);
        } else if (code_assigns_at(&s, q)) {
            set = 1;
        }
    }
    source_code_free(&s);
    return set ? 0 : decl;
}

int source_allocation_of(const char *path, const char *name, char *call, size_t call_n)
{
    static const char *const allocs[] = { "cudaMallocPitch", "cudaMalloc3D", "cudaMallocManaged", "cudaMalloc",
                                          "cudaMallocHost", "cudaHostAlloc", NULL };
    call[0] = '\0';
    source_code s;
    if (!name[0] || !source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t i = 0; i < s.len && !line; i++)
        for (int a = 0; allocs[a] && !line; a++) {
            size_t al = strlen(allocs[a]), open = code_name_at(&s, i, allocs[a], al) ? code_call_open(&s, i, allocs[a])
                                                                                      : s.len;
            char first[128];
            if (open >= s.len)
                continue;
            code_call_argument(&s, open, 0, first, sizeof first);
            if (strchr(first, '&') && strcmp(bare_name(first), name) == 0) {
                line = code_line_at(&s, i);
                snprintf(call, call_n, "%s", allocs[a]);
            }
        }
    source_code_free(&s);
    return line;
}

/* ---- a member set from a value named for another member ------------------------ */

enum { MEMBER_SETS_MAX = 32 };

struct member_set {
    size_t obj, obj_n, mem, mem_n; /* offsets and lengths of OBJ and MEMBER */
    size_t val, val_end;           /* the value, to its ';' */
    int line;
};

/* The host statements `OBJ.MEMBER = VALUE;` (not `==`, not in a kernel),
 * the first MEMBER_SETS_MAX, into sets. */
static int member_sets(const source_code *s, struct member_set *sets)
{
    const char *c = s->code;
    int n = 0;
    for (size_t k = 1; k + 1 < s->len && n < MEMBER_SETS_MAX; k++) {
        if (c[k] != '.' || !code_word_starts(s, k + 1) || in_kernel_body(s, k))
            continue;
        size_t on = 0, o = code_word_before(s, k, &on);
        size_t m = k + 1, me = code_word_end(s, m), q = code_skip_space(s, me);
        if (!on || me == m || o + on != k || !code_assigns_at(s, q) || (o > 0 && (c[o - 1] == '.' || c[o - 1] == '>')))
            continue;
        size_t v = code_skip_space(s, q + 1);
        sets[n++] = (struct member_set){ o, on, m, me - m, v, code_semicolon(s, v, s->len), code_line_at(s, k) };
    }
    return n;
}

/* Whether an identifier of code[b, e) is word, or has it as one of its
 * '_'-separated parts (`in_pitch_bytes` has `pitch`). */
static int value_names(const source_code *s, size_t b, size_t e, const char *word, size_t wn)
{
    for (size_t k = b; k < e; k++) {
        if (!code_word_starts(s, k))
            continue;
        size_t we = code_word_end(s, k);
        for (size_t p = k; p < we;) {
            size_t pe = p;
            while (pe < we && s->code[pe] != '_')
                pe++;
            if (pe - p == wn && strncmp(s->code + p, word, wn) == 0)
                return 1;
            p = pe + 1;
        }
        k = we > k ? we - 1 : k;
    }
    return 0;
}

int source_member_set_from_other(const char *path, char *object, size_t object_n, char *member, size_t member_n,
                                 char *other, size_t other_n, int *sibling_line)
{
    object[0] = member[0] = other[0] = '\0';
    *sibling_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    struct member_set sets[MEMBER_SETS_MAX];
    int n = member_sets(&s, sets), found = 0;
    for (int a = 0; a < n && !found; a++)
        for (int b = 0; b < n && !found; b++) {
            const struct member_set *x = &sets[a], *y = &sets[b];
            const char *mx = c + x->mem, *my = c + y->mem;
            /* another object, another member: y sets my from a value named
             * for it; x sets mx from a value named for my, not for mx */
            if ((x->obj_n == y->obj_n && !strncmp(c + x->obj, c + y->obj, x->obj_n)) ||
                (x->mem_n == y->mem_n && !strncmp(mx, my, x->mem_n)) ||
                !value_names(&s, y->val, y->val_end, my, y->mem_n) ||
                !value_names(&s, x->val, x->val_end, my, y->mem_n) ||
                value_names(&s, x->val, x->val_end, mx, x->mem_n))
                continue;
            /* and x's object never has my set */
            int set = 0;
            for (int k = 0; k < n && !set; k++)
                set = sets[k].obj_n == x->obj_n && !strncmp(c + sets[k].obj, c + x->obj, x->obj_n) &&
                      sets[k].mem_n == y->mem_n && !strncmp(c + sets[k].mem, my, y->mem_n);
            if (set)
                continue;
            snprintf(object, object_n, "%.*s", (int)x->obj_n, c + x->obj);
            snprintf(member, member_n, "%.*s", (int)x->mem_n, mx);
            snprintf(other, other_n, "%.*s", (int)y->mem_n, my);
            *sibling_line = y->line;
            found = x->line;
        }
    source_code_free(&s);
    return found;
}

/* ---- a call given the variable it sets ---------------------------------------- */

int source_call_reads_its_output(const char *path, char *call, size_t call_n, char *name, size_t name_n)
{
    call[0] = name[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || in_kernel_body(&s, k)) {
            continue;
        }
        size_t we = code_word_end(&s, k);
        if (we == k || code_keyword_before_value(c + k, we - k))
            continue;
        char fn[64];
        snprintf(fn, sizeof fn, "%.*s", (int)(we - k), c + k);
        size_t open = code_call_open(&s, k, fn);
        if (open >= s.len) {
            k = we - 1;
            continue;
        }
        char args[8][128];
        int nargs = 0;
        for (; nargs < 8; nargs++) {
            code_call_argument(&s, open, nargs, args[nargs], sizeof args[nargs]);
            if (!args[nargs][0])
                break;
        }
        for (int a = 0; a < nargs && !found; a++) {
            const char *out = past_casts(args[a]);
            if (*out != '&')
                continue;
            const char *v = out + 1;
            while (*v == ' ')
                v++;
            size_t vl = 0;
            while (source_is_identifier_char(v[vl]))
                vl++;
            if (!vl || v[vl])
                continue;
            for (int b = 0; b < nargs && !found; b++)
                if (b != a && strcmp(past_casts(args[b]), v) == 0) {
                    snprintf(call, call_n, "%s", fn);
                    snprintf(name, name_n, "%s", v);
                    found = code_line_at(&s, k);
                }
        }
        k = we - 1;
    }
    source_code_free(&s);
    return found;
}

/* Whether an identifier of code[b, e) has one of the '_'-separated parts of
 * name (n characters) that other (on characters) does not have. */
static int value_names_part_of(const source_code *s, size_t b, size_t e, const char *name, size_t n, const char *other,
                               size_t on)
{
    for (size_t p = 0; p < n;) {
        size_t pe = p;
        while (pe < n && name[pe] != '_')
            pe++;
        char part[64];
        snprintf(part, sizeof part, "%.*s", (int)(pe - p), name + p);
        int theirs = 0;
        for (size_t q = 0; q < on && !theirs;) {
            size_t qe = q;
            while (qe < on && other[qe] != '_')
                qe++;
            theirs = qe - q == pe - p && strncmp(other + q, name + p, pe - p) == 0;
            q = qe + 1;
        }
        if (pe - p > 1 && !theirs && value_names(s, b, e, part, pe - p))
            return 1;
        p = pe + 1;
    }
    return 0;
}

int source_member_set_for_other_object(const char *path, char *object, size_t object_n, char *member,
                                       size_t member_n, char *other, size_t other_n, int *first_line)
{
    object[0] = member[0] = other[0] = '\0';
    *first_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    struct member_set sets[MEMBER_SETS_MAX];
    int n = member_sets(&s, sets), found = 0;
#define SAME(a, an, b, bn) ((an) == (bn) && strncmp(c + (a), c + (b), (an)) == 0)
    for (int a = 0; a < n && !found; a++)
        for (int b = a + 1; b < n && !found; b++) {
            const struct member_set *x = &sets[a], *y = &sets[b];
            if (!SAME(x->obj, x->obj_n, y->obj, y->obj_n) || !SAME(x->mem, x->mem_n, y->mem, y->mem_n))
                continue;
            /* another object whose member of that name nothing sets, and
             * for which y's value is named */
            for (int o = 0; o < n && !found; o++) {
                const struct member_set *z = &sets[o];
                if (SAME(z->obj, z->obj_n, x->obj, x->obj_n))
                    continue;
                int set = 0;
                for (int k = 0; k < n && !set; k++)
                    set = SAME(sets[k].obj, sets[k].obj_n, z->obj, z->obj_n) &&
                          SAME(sets[k].mem, sets[k].mem_n, x->mem, x->mem_n);
                if (set || !value_names_part_of(&s, y->val, y->val_end, c + z->obj, z->obj_n, c + x->obj, x->obj_n))
                    continue;
                snprintf(object, object_n, "%.*s", (int)x->obj_n, c + x->obj);
                snprintf(member, member_n, "%.*s", (int)x->mem_n, c + x->mem);
                snprintf(other, other_n, "%.*s", (int)z->obj_n, c + z->obj);
                *first_line = x->line;
                found = y->line;
            }
        }
#undef SAME
    source_code_free(&s);
    return found;
}

/* ---- a brace initializer in another order than the struct's fields ------- */

#define FIELDS_MAX 16

/* The fields of `typedef struct { ... } type;` or `struct type { ... };` in
 * s, in order, into fields (their names' offsets and lengths): how many, or
 * 0 where s does not declare type. */
static int struct_fields(const source_code *s, const char *type, size_t tn, size_t *at, size_t *len)
{
    const char *c = s->code;
    for (size_t k = 0; k + 6 < s->len; k++) {
        if (!code_word_at(s, k, "struct"))
            continue;
        size_t b = code_skip_space(s, k + 6), named = s->len;
        if (b < s->len && c[b] != '{') {
            named = b;
            b = code_skip_space(s, code_word_end(s, b));
        }
        if (b >= s->len || c[b] != '{')
            continue;
        size_t e = code_matching(s, b);
        if (e >= s->len)
            continue;
        /* the type's name: after `struct`, or after the closing brace of a typedef */
        size_t after = code_skip_space(s, e + 1), an = after < s->len ? code_word_end(s, after) - after : 0;
        int ours = (named < s->len && code_name_at(s, named, type, tn)) || (an == tn && code_name_at(s, after, type, tn));
        if (!ours)
            continue;
        int n = 0;
        for (size_t q = b + 1; q < e && n < FIELDS_MAX; q++) {
            if (c[q] != ';' && c[q] != ',')
                continue;
            /* the name before this ';' or ',', past any [N] */
            size_t end = code_blank_before(s, q);
            while (end > b && c[end - 1] == ']') {
                size_t o = end - 1;
                while (o > b && c[o] != '[')
                    o--;
                end = code_blank_before(s, o);
            }
            size_t wn = 0, w = code_word_before(s, end, &wn);
            if (wn) {
                at[n] = w;
                len[n++] = wn;
            }
        }
        return n;
    }
    return 0;
}

/* The name an initializer's element stands for: a plain name, or the last
 * member of a member access (`in->channels`: channels); 0 where it is
 * anything else. */
static size_t element_name(const source_code *s, size_t b, size_t e, size_t *n)
{
    const char *c = s->code;
    b = code_skip_space(s, b);
    e = code_blank_before(s, e);
    *n = 0;
    if (e <= b)
        return s->len;
    for (size_t q = b; q < e; q++)
        if (!(source_is_identifier_char(c[q]) || c[q] == '.' || c[q] == '-' || c[q] == '>' || c[q] == ' '))
            return s->len;
    size_t w = code_word_before(s, e, n);
    return *n && w + *n == e ? w : s->len;
}

int source_initializer_out_of_order(const char *path, const char *header, char *object, size_t object_n,
                                    char *field, size_t field_n, char *given, size_t given_n, char *order,
                                    size_t order_n)
{
    source_code s, h = { 0 };
    object[0] = field[0] = given[0] = order[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    if (header && !source_code_read(&h, header))
        memset(&h, 0, sizeof h);
    const char *c = s.code;
    int found = 0;
    /* `TYPE NAME = {` */
    for (size_t k = 0; k + 1 < s.len && !found; k++) {
        if (c[k] != '{' || k == 0)
            continue;
        size_t eq = code_blank_before(&s, k);
        if (eq == 0 || c[eq - 1] != '=' || !code_assigns_at(&s, eq - 1))
            continue;
        size_t vn = 0, v = code_word_before(&s, code_blank_before(&s, eq - 1), &vn);
        size_t tn = 0, tw = vn ? code_word_before(&s, code_blank_before(&s, v), &tn) : s.len;
        if (vn && !tn) {
            /* one of several declared together (`Image_t a = *in, b = {...}`): the statement's type */
            tw = code_skip_space(&s, code_statement_start(&s, v, 0));
            tn = tw < v ? code_word_end(&s, tw) - tw : 0;
            if (tn && (code_word_at(&s, tw, "const") || code_word_at(&s, tw, "struct"))) {
                tw = code_skip_space(&s, tw + tn);
                tn = tw < v ? code_word_end(&s, tw) - tw : 0;
            }
        }
        if (!vn || !tn)
            continue;
        size_t at[FIELDS_MAX], len[FIELDS_MAX];
        const source_code *decl = &s;
        int nf = struct_fields(&s, c + tw, tn, at, len);
        if (!nf && h.code) {
            nf = struct_fields(&h, c + tw, tn, at, len);
            decl = &h;
        }
        if (nf < 2)
            continue;
        size_t close = code_matching(&s, k);
        if (close >= s.len)
            continue;
        /* element i names field j (j != i) while field i is named elsewhere in it */
        /* every such element, said as `FIELD gets `ELEMENT``, into given */
        size_t start = k + 1;
        for (int i = 0; i < nf && start < close; i++) {
            size_t end = start;
            for (int d = 0; end < close && !(d == 0 && c[end] == ','); end++)
                d += (c[end] == '(' || c[end] == '[') - (c[end] == ')' || c[end] == ']');
            size_t en = 0, ew = element_name(&s, start, end, &en);
            int other = 0;
            for (int j = 0; ew < s.len && j < nf && !other; j++)
                other = j != i && len[j] == en && strncmp(decl->code + at[j], c + ew, en) == 0 &&
                        !(len[i] == en && strncmp(decl->code + at[i], c + ew, en) == 0);
            if (other) {
                if (!found) {
                    found = code_line_at(&s, k);
                    snprintf(object, object_n, "%.*s", (int)vn, c + v);
                    snprintf(field, field_n, "%.*s", (int)len[i], decl->code + at[i]);
                }
                size_t gb = code_skip_space(&s, start), ge = code_blank_before(&s, end), used = strlen(given);
                snprintf(given + used, given_n - used, "%s%.*s.%.*s gets `%.*s`", used ? " and " : "", (int)vn,
                         c + v, (int)len[i], decl->code + at[i], (int)(ge - gb), c + gb);
            }
            start = end + 1;
        }
        for (int f = 0; found && f < nf; f++) {
            size_t used = strlen(order);
            snprintf(order + used, order_n - used, "%s%.*s", f ? ", " : "", (int)len[f], decl->code + at[f]);
        }
        if (found)
            break;
    }
    source_code_free(&s);
    source_code_free(&h);
    return found;
}

/* ---- a kernel's parameter against what its launch passes ----------------- */

/* The launch at launch_line (`NAME<<<...>>>(args)`) in s and its kernel's
 * definition: the k-th argument as written, the k-th parameter as
 * declared and the kernel's name; the offset of the definition's
 * `__global__` (its name's into *name_at), or s->len when either is not
 * there. */
static size_t launched_kernel(const source_code *s, int launch_line, int k, char *kernel, size_t kernel_n,
                              char *param, size_t param_n, char *arg, size_t arg_n, size_t *name_at)
{
    const char *c = s->code;
    kernel[0] = param[0] = arg[0] = '\0';
    if (launch_line <= 0 || k < 0)
        return s->len;
    size_t b = code_line_start(s, launch_line), e = b < s->len ? code_line_end(s, b) : s->len;
    const char *l = memmem(c + b, e - b, "<<<", 3);
    size_t kn = 0, kw = l ? code_word_before(s, code_blank_before(s, (size_t)(l - c)), &kn) : s->len;
    const char *r = l ? memmem(l, (size_t)(c + e - l), ">>>", 3) : NULL;
    size_t open = r ? code_skip_space(s, (size_t)(r - c) + 3) : s->len;
    if (!kn || open >= s->len || c[open] != '(')
        return s->len;
    code_call_argument(s, open, k, arg, arg_n);
    /* the kernel's definition: `__global__ ... NAME(` */
    for (const char *g = strstr(c, "__global__"); g; g = strstr(g + 1, "__global__")) {
        size_t p = (size_t)(g - c);
        while (p < s->len && c[p] != '(' && c[p] != ';' && c[p] != '{')
            p++;
        size_t wn = 0, w = p < s->len && c[p] == '(' ? code_word_before(s, code_blank_before(s, p), &wn) : s->len;
        if (wn != kn || strncmp(c + w, c + kw, kn) != 0)
            continue;
        code_call_argument(s, p, k, param, param_n);
        if (param[0]) {
            snprintf(kernel, kernel_n, "%.*s", (int)kn, c + kw);
            *name_at = w;
            return (size_t)(g - c);
        }
    }
    return s->len;
}

int source_kernel_parameter(const char *path, int launch_line, int k, char *kernel, size_t kernel_n, char *param,
                            size_t param_n, char *arg, size_t arg_n)
{
    source_code s;
    kernel[0] = param[0] = arg[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    size_t w = 0;
    int found = launched_kernel(&s, launch_line, k, kernel, kernel_n, param, param_n, arg, arg_n, &w) < s.len
                    ? code_line_at(&s, w)
                    : 0;
    source_code_free(&s);
    return found;
}

int source_launch_parameter_stored(const char *path, int launch_line, int k, char *kernel, size_t kernel_n,
                                   char *name, size_t name_n, int *def_line)
{
    source_code s;
    kernel[0] = name[0] = '\0';
    *def_line = 0;
    if (!source_code_read(&s, path))
        return -1;
    char param[128], arg[128];
    size_t w = 0, g = launched_kernel(&s, launch_line, k, kernel, kernel_n, param, sizeof param, arg, sizeof arg, &w);
    size_t close = s.len, body = g < s.len ? code_kernel_body(&s, g, &close) : s.len;
    /* the parameter's name: the last word of its declaration */
    size_t pe = strlen(param), pb = pe;
    while (pb > 0 && source_is_identifier_char(param[pb - 1]))
        pb--;
    int stored = -1;
    if (body < s.len && pb < pe && pe - pb < name_n) {
        snprintf(name, name_n, "%s", param + pb);
        *def_line = code_line_at(&s, w);
        size_t nl = strlen(name);
        stored = 0;
        for (size_t p = body; p < close && !stored; p++) {
            if (!code_name_at(&s, p, name, nl))
                continue;
            size_t q = code_skip_space(&s, p + nl);
            if (q >= close || s.code[q] != '[')
                continue;
            while (q < close && s.code[q] == '[')
                q = code_skip_space(&s, code_matching(&s, q) + 1);
            /* `=`, or an operator's `+=` and its kind */
            if (q < close && (code_assigns_at(&s, q) || (strchr("+-*/%&|^", s.code[q]) && s.code[q + 1] == '=')))
                stored = code_line_at(&s, p);
        }
    }
    source_code_free(&s);
    return stored;
}

int source_launch_bounds_of(const char *path, const char *kernel, long *max_threads)
{
    source_code s;
    *max_threads = 0;
    size_t kl = kernel ? strlen(kernel) : 0;
    if (!kl || !source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t k = 0; k + 17 < s.len && !line; k++) {
        if (!code_word_at(&s, k, "__launch_bounds__"))
            continue;
        size_t open = code_skip_space(&s, k + 17);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        /* the kernel it bounds: the name before the next `(` after it */
        const char *paren = close < s.len ? strchr(s.code + close + 1, '(') : NULL;
        if (!paren)
            continue;
        size_t e = code_blank_before(&s, (size_t)(paren - s.code)), n = 0;
        size_t b = code_word_left_of(&s, e, &n);
        if (n != kl || memcmp(s.code + b, kernel, kl) != 0)
            continue;
        /* its first argument: a number, or a #define of one */
        size_t a = code_skip_space(&s, open + 1), ae = code_word_end(&s, a);
        long v = 0;
        char *end = NULL;
        if (a < s.len && isdigit((unsigned char)s.code[a])) {
            v = strtol(s.code + a, &end, 10);
        } else if (ae > a) {
            size_t at = 0;
            if (!code_defined_number(&s, s.code + a, ae - a, &v, &at))
                v = 0;
        }
        if (v > 0) {
            *max_threads = v;
            line = code_line_at(&s, k);
        }
    }
    source_code_free(&s);
    return line;
}

int source_allocated_after_launch(const char *path, int access, char *buffer, size_t n, int *launch_line)
{
    source_code s;
    buffer[0] = '\0';
    *launch_line = 0;
    if (access <= 0 || !source_code_read(&s, path))
        return 0;
    size_t args, launch = kernel_launch_of(&s, access, &args);
    int found = 0;
    size_t b = code_line_start(&s, access), e = b < s.len ? code_line_end(&s, b) : b;
    /* each array the access's line subscripts, as the launch names it */
    for (size_t k = b; launch < s.len && k < e && !found; k++) {
        if (!code_word_starts(&s, k))
            continue;
        size_t we = code_word_end(&s, k);
        if (we == k || code_skip_space(&s, we) >= e || s.code[code_skip_space(&s, we)] != '[' || we - k >= 64) {
            k = we > k ? we - 1 : k;
            continue;
        }
        char param[64], arg[64];
        snprintf(param, sizeof param, "%.*s", (int)(we - k), s.code + k);
        launch_argument_for(&s, access, param, arg, sizeof arg);
        size_t al = strlen(arg);
        /* a cudaMalloc (or cudaMallocPitch) of &arg after the launch */
        for (size_t q = launch; q + 10 < s.len && !found; q++) {
            if (!code_word_at(&s, q, "cudaMalloc") && !code_word_at(&s, q, "cudaMallocPitch") &&
                !code_word_at(&s, q, "cudaMallocManaged"))
                continue;
            size_t open = code_skip_space(&s, code_word_end(&s, q)), close = open < s.len && s.code[open] == '('
                                                                                    ? code_matching(&s, open)
                                                                                    : s.len;
            for (size_t r = open; close < s.len && r + al < close && !found; r++)
                if (s.code[r] == '&' && code_name_at(&s, code_skip_space(&s, r + 1), arg, al)) {
                    snprintf(buffer, n, "%s", arg);
                    *launch_line = code_line_at(&s, launch);
                    found = code_line_at(&s, q);
                }
        }
        k = we - 1;
    }
    source_code_free(&s);
    return found;
}

int source_host_allocation_of(const char *path, const char *name, char *call, size_t n)
{
    static const char *const calls[] = { "malloc", "calloc", "realloc", NULL };
    source_code s;
    call[0] = '\0';
    size_t nl = name ? strlen(name) : 0;
    if (!nl || !source_code_read(&s, path))
        return 0;
    int line = 0;
    for (size_t k = 0; k + nl < s.len && !line; k++) {
        if (!code_name_at(&s, k, name, nl))
            continue;
        size_t eq = code_skip_space(&s, k + nl);
        if (eq >= s.len || s.code[eq] != '=' || (eq + 1 < s.len && s.code[eq + 1] == '='))
            continue;
        size_t end = code_semicolon(&s, eq, s.len);
        for (size_t q = eq; q < end && q < s.len && !line; q++)
            for (int c = 0; calls[c] && !line; c++)
                if (code_word_at(&s, q, calls[c])) {
                    snprintf(call, n, "%s", calls[c]);
                    line = code_line_at(&s, k);
                }
    }
    source_code_free(&s);
    return line;
}

int source_input_copy_before(const char *path, int line)
{
    source_code s;
    if (line <= 0 || !source_code_read(&s, path))
        return 0;
    size_t end = code_line_start(&s, line);
    int found = 0;
    for (size_t k = 0; k < end && k < s.len; k++) {
        size_t n = 0;
        if (!code_word_starts(&s, k) || strncmp(s.code + k, "cudaMemcpy", 10) != 0)
            continue;
        size_t we = code_word_end(&s, k);
        n = we - k;
        /* cudaMemcpy, cudaMemcpy2D, cudaMemcpyAsync: not a symbol's copy */
        if (memmem(s.code + k, n, "Symbol", 6))
            continue;
        size_t open = code_skip_space(&s, we);
        if (open >= s.len || s.code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        /* the direction is a name, kept as code: cudaMemcpyHostToDevice */
        if (close < s.len && memmem(s.code + open, close - open, "cudaMemcpyHostToDevice", 22))
            found = code_line_at(&s, k);
        k = we;
    }
    source_code_free(&s);
    return found;
}

int source_pointer_from_call_result(const char *path, const char *name, char *call, size_t n)
{
    source_code s;
    call[0] = '\0';
    if (!source_code_read(&s, path))
        return 0;
    size_t nl = strlen(name);
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_name_at(&s, k, name, nl))
            continue;
        size_t q = code_skip_space(&s, k + nl);
        if (q >= s.len || !code_assigns_at(&s, q))
            continue;
        /* past the `=`, any casts: `(float *)` */
        size_t v = code_skip_space(&s, q + 1);
        while (v < s.len && s.code[v] == '(') {
            size_t close = code_matching(&s, v);
            if (close >= s.len || memchr(s.code + v, ';', close - v))
                break;
            /* a cast holds a type and stars only: no call, no comma */
            int cast = memchr(s.code + v, ',', close - v) == NULL && memchr(s.code + v + 1, '(', close - v - 1) == NULL;
            if (!cast)
                break;
            v = code_skip_space(&s, close + 1);
        }
        if (v < s.len && strncmp(s.code + v, "cudaMalloc", 10) == 0) {
            size_t we = code_word_end(&s, v);
            size_t open = code_skip_space(&s, we);
            if (open < s.len && s.code[open] == '(' && we - v < n) {
                snprintf(call, n, "%.*s", (int)(we - v), s.code + v);
                found = code_line_at(&s, k);
            }
        }
    }
    source_code_free(&s);
    return found;
}

int source_pointer_copied_from(const char *path, const char *name, const char *other)
{
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    size_t nl = strlen(name), ol = strlen(other);
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_name_at(&s, k, name, nl) || code_skip_space(&s, code_statement_start(&s, k, 0)) != k)
            continue;
        size_t q = code_skip_space(&s, k + nl);
        if (q >= s.len || !code_assigns_at(&s, q))
            continue;
        /* `name = other;`, a cast allowed: `(float *)other` */
        size_t v = code_skip_space(&s, q + 1);
        if (v < s.len && s.code[v] == '(') {
            size_t close = code_matching(&s, v);
            if (close < s.len && !memchr(s.code + v, ';', close - v))
                v = code_skip_space(&s, close + 1);
        }
        size_t end = v + ol;
        if (code_name_at(&s, v, other, ol) && code_skip_space(&s, end) < s.len && s.code[code_skip_space(&s, end)] == ';')
            found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

/* ---- a grid or block given as a scalar, or as a comma expression ------------ */

int source_dim3_comma_init(const char *path, char *name, size_t n, char *last, size_t last_n)
{
    name[0] = last[0] = '\0';
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int found = 0;
    for (size_t k = 0; k + 4 < s.len && !found; k++) {
        if (!code_word_at(&s, k, "dim3"))
            continue;
        size_t nb = code_skip_space(&s, k + 4), ne = code_word_end(&s, nb);
        size_t eq = code_skip_space(&s, ne);
        if (ne <= nb || eq >= s.len || code[eq] != '=' || code[eq + 1] == '=')
            continue;
        size_t open = code_skip_space(&s, eq + 1);
        if (open >= s.len || code[open] != '(')
            continue;
        size_t close = code_matching(&s, open);
        if (close >= s.len || code[code_skip_space(&s, close + 1)] != ';')
            continue;
        /* a comma at the brackets' own level: `(A, B)`, not `(A)` */
        size_t comma = s.len;
        int depth = 0;
        for (size_t q = open + 1; q < close; q++) {
            if (code[q] == '(' || code[q] == '[')
                depth++;
            else if (code[q] == ')' || code[q] == ']')
                depth--;
            else if (depth == 0 && code[q] == ',')
                comma = q;
        }
        if (comma >= s.len || ne - nb >= n)
            continue;
        size_t lb = code_skip_space(&s, comma + 1), le = close;
        while (le > lb && (code[le - 1] == ' ' || code[le - 1] == '\t' || code[le - 1] == '\n'))
            le--;
        if (le - lb >= last_n)
            continue;
        snprintf(name, n, "%.*s", (int)(ne - nb), code + nb);
        snprintf(last, last_n, "%.*s", (int)(le - lb), code + lb);
        found = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_launch_scalar_dim(const char *path, char *name, size_t n, int *launch_line, int *block)
{
    name[0] = '\0';
    *launch_line = *block = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    static const char *const scalars[] = { "int", "unsigned", "long", "size_t", "short", NULL };
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (strncmp(code + k, "<<<", 3) != 0)
            continue;
        /* the first two arguments, each a lone name */
        size_t a = code_skip_space(&s, k + 3);
        for (int which = 0; which < 2 && !found && a < s.len; which++) {
            size_t ae = code_word_end(&s, a), after = code_skip_space(&s, ae);
            if (ae <= a || !(isalpha((unsigned char)code[a]) || code[a] == '_') || after >= s.len ||
                !(code[after] == ',' || code[after] == '>'))
                break;
            /* its declaration before the launch: `TYPE NAME =` or `TYPE NAME;` */
            for (size_t d = 0; d < k && !found; d++) {
                if (!code_name_at(&s, d, code + a, ae - a) || d == a)
                    continue;
                size_t next = code_skip_space(&s, d + (ae - a));
                size_t tn = 0, t = code_word_before(&s, d, &tn);
                if (next >= s.len || !(code[next] == '=' || code[next] == ';') || code[next + 1] == '=' || !tn ||
                    !code_word_in(code + t, tn, scalars))
                    continue;
                if (ae - a < n) {
                    snprintf(name, n, "%.*s", (int)(ae - a), code + a);
                    *launch_line = code_line_at(&s, k);
                    *block = which;
                    found = code_line_at(&s, d);
                }
            }
            a = code_skip_space(&s, after + 1);
        }
    }
    source_code_free(&s);
    return found;
}

int source_launch_dim_member(const char *path, char *arg, size_t n, int *block)
{
    arg[0] = '\0';
    *block = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    int found = 0;
    for (size_t k = 0; k + 3 < s.len && !found; k++) {
        if (strncmp(code + k, "<<<", 3) != 0)
            continue;
        size_t a = code_skip_space(&s, k + 3);
        for (int which = 0; which < 2 && !found && a < s.len; which++) {
            /* `NAME.c` with NAME declared dim3 */
            size_t ae = code_word_end(&s, a), dot = code_skip_space(&s, ae);
            if (ae <= a || !(isalpha((unsigned char)code[a]) || code[a] == '_') || dot >= s.len)
                break;
            size_t after = dot;
            if (code[dot] == '.') {
                size_t m = code_skip_space(&s, dot + 1), me = code_word_end(&s, m);
                after = code_skip_space(&s, me);
                int member = me == m + 1 && strchr("xyz", code[m]);
                int dim3 = 0;
                for (size_t d = 0; d < k && !dim3 && member; d++)
                    if (code_name_at(&s, d, code + a, ae - a) && d != a) {
                        size_t tn = 0, t = code_word_before(&s, d, &tn);
                        dim3 = tn == 4 && strncmp(code + t, "dim3", 4) == 0;
                    }
                if (dim3 && after < s.len && (code[after] == ',' || code[after] == '>') && me - a < n) {
                    snprintf(arg, n, "%.*s", (int)(me - a), code + a);
                    *block = which;
                    found = code_line_at(&s, k);
                }
            }
            if (after >= s.len || code[after] != ',')
                break;
            a = code_skip_space(&s, after + 1);
        }
    }
    source_code_free(&s);
    return found;
}

int source_sizeof_other_type(const char *path, int copy_line, int decl_line, const char *name, char *used,
                             size_t used_n, char *declared, size_t declared_n)
{
    used[0] = declared[0] = '\0';
    source_code s;
    if (copy_line <= 0 || decl_line <= 0 || !source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    size_t nl = strlen(name);
    /* the declaration's number type: the last such word before the name */
    size_t db = code_line_start(&s, decl_line), de = db < s.len ? code_line_end(&s, db) : db;
    size_t tb = 0, tn = 0;
    for (size_t k = db; k < de; k++) {
        if (code_name_at(&s, k, name, nl))
            break;
        if (!code_word_starts(&s, k))
            continue;
        size_t e = code_word_end(&s, k);
        if (e > k && code_number_type(code + k, e - k))
            tb = k, tn = e - k;
        k = e > k ? e - 1 : k;
    }
    int found = 0;
    size_t cb = code_line_start(&s, copy_line), ce = cb < s.len ? code_line_end(&s, cb) : cb;
    for (size_t k = cb; tn && k + 6 < ce && !found; k++) {
        if (!code_word_at(&s, k, "sizeof"))
            continue;
        size_t open = code_skip_space(&s, k + 6);
        if (open >= ce || code[open] != '(')
            continue;
        size_t w = code_skip_space(&s, open + 1), we = code_word_end(&s, w);
        if (we <= w || code[code_skip_space(&s, we)] != ')' || !code_number_type(code + w, we - w))
            continue;
        if (we - w == tn && !strncmp(code + w, code + tb, tn))
            continue;
        snprintf(used, used_n, "%.*s", (int)(we - w), code + w);
        snprintf(declared, declared_n, "%.*s", (int)tn, code + tb);
        found = 1;
    }
    source_code_free(&s);
    return found;
}

/* ---- an output never copied back -------------------------------------------- */

/* Whether the call argument text (a copy's) is name or one of its
 * members (`out->data`). */
static int names_or_member(const char *arg, const char *name)
{
    const char *b = bare_name(arg);
    size_t n = strlen(name);
    return strncmp(b, name, n) == 0 && (b[n] == '\0' || b[n] == '-' || b[n] == '.' || b[n] == ' ');
}

int source_output_never_filled(const char *path, char *name, size_t n, int *launch_line)
{
    name[0] = '\0';
    *launch_line = 0;
    source_code s;
    if (!source_code_read(&s, path))
        return 0;
    const char *code = s.code;
    /* the last launch, and the function around it: its parameters */
    size_t launch = s.len;
    for (size_t k = 0; k + 3 < s.len; k++)
        if (!strncmp(code + k, "<<<", 3))
            launch = k;
    size_t body = s.len;
    for (size_t b = launch < s.len ? code_block_around(&s, launch) : s.len; b < s.len; b = code_block_around(&s, b))
        body = b;
    size_t close = body < s.len ? body : 0;
    while (close > 0 && isspace((unsigned char)code[close - 1]))
        close--;
    int found = 0;
    if (body < s.len && close > 0 && code[close - 1] == ')') {
        size_t open = close - 1;
        int depth = 0;
        for (; open > 0; open--) {
            depth += (code[open] == ')') - (code[open] == '(');
            if (depth == 0)
                break;
        }
        /* each `T *NAME` parameter without const */
        size_t start = open + 1;
        for (size_t q = open + 1; q < close && !found; q++) {
            if (code[q] != ',' && q != close - 1)
                continue;
            size_t pe = code[q] == ',' ? q : close - 1;
            size_t ne = pe;
            while (ne > start && isspace((unsigned char)code[ne - 1]))
                ne--;
            size_t nb = ne;
            while (nb > start && source_is_identifier_char(code[nb - 1]))
                nb--;
            int pointer = 0, constant = 0;
            for (size_t t = start; t < nb; t++) {
                pointer |= code[t] == '*';
                constant |= code_word_at(&s, t, "const");
            }
            if (pointer && !constant && ne > nb && ne - nb < n) {
                char cand[64];
                snprintf(cand, sizeof cand, "%.*s", (int)(ne - nb), code + nb);
                /* a copy that names it (into it, or the wrong way round,
                 * or a host memcpy: other readings say those), a store of
                 * the host's into it or a member of it (`P[i] = ...`), or a
                 * launch that takes it */
                static const char *const host_copies[] = { "memcpy", "memmove", NULL };
                const char *calls[24];
                int ncalls = 0;
                for (int f = 0; fills[f] && ncalls < 20; f++)
                    calls[ncalls++] = fills[f];
                for (int f = 0; host_copies[f]; f++)
                    calls[ncalls++] = host_copies[f];
                size_t end = code_matching(&s, body), cl = strlen(cand);
                int filled = end >= s.len || source_launch_after(path, 0, cand) > 0;
                for (size_t i = body; i < end && !filled; i++) {
                    for (int f = 0; f < ncalls && !filled; f++) {
                        size_t o = code_call_open(&s, i, calls[f]);
                        char arg[96];
                        for (int a = 0; o < s.len && a < 2 && !filled; a++) {
                            code_call_argument(&s, o, a, arg, sizeof arg);
                            filled = names_or_member(arg, cand);
                        }
                    }
                    if (!filled && code_name_at(&s, i, cand, cl)) {
                        size_t ws = i, at = i + cl;
                        if ((code[at] == '-' && code[at + 1] == '>') || code[at] == '.') { /* a member: its store */
                            ws = code_skip_space(&s, at + (code[at] == '.' ? 1 : 2));
                            at = code_word_end(&s, ws);
                        }
                        filled = at > ws && code[at] == '[' && code_stored_at(&s, ws, at - ws);
                    }
                }
                if (!filled) {
                    snprintf(name, n, "%s", cand);
                    *launch_line = code_line_at(&s, launch);
                    found = code_line_at(&s, nb);
                }
            }
            start = q + 1;
        }
    }
    source_code_free(&s);
    return found;
}

/* The name an allocation's first argument takes the address of:
 * `(void **)&ptr`, `&ptr`, `reinterpret_cast<void **>(&ptr)`: ptr into
 * name; 0 when it is no `&` of a plain name. */
static int address_taken(const char *arg, char *name, size_t n)
{
    const char *amp = strrchr(arg, '&');
    if (!amp)
        return 0;
    const char *b = amp + 1;
    while (*b == ' ' || *b == '(')
        b++;
    size_t len = 0;
    while (source_is_identifier_char(b[len]))
        len++;
    const char *e = b + len;
    while (*e == ' ' || *e == ')')
        e++;
    if (!len || len >= n || *e)
        return 0;
    snprintf(name, n, "%.*s", (int)len, b);
    return 1;
}

int source_allocation_into_copy(const char *path, char *func, size_t func_n, char *param, size_t param_n,
                                int *alloc_line, char *arg, size_t arg_n, int *call_line)
{
    static const char *const allocs[] = { "cudaMalloc", "cudaMallocPitch", "cudaMallocManaged", "cudaMallocHost",
                                          "cudaHostAlloc", NULL };
    source_code s;
    func[0] = param[0] = arg[0] = 0;
    *alloc_line = *call_line = 0;
    if (!source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        int which = -1;
        for (int a = 0; allocs[a] && which < 0; a++)
            if (code_word_at(&s, k, allocs[a]))
                which = a;
        size_t open = which >= 0 ? code_call_open(&s, k, allocs[which]) : s.len;
        if (open >= s.len)
            continue;
        char first[128], name[64];
        code_call_argument(&s, open, 0, first, sizeof first);
        if (!address_taken(first, name, sizeof name))
            continue;
        /* the function around the call: its body's '{' at depth 0, its header before it */
        size_t body = s.len;
        int depth = 0;
        for (size_t b = k; b-- > 0;) {
            if (c[b] == '}')
                depth++;
            else if (c[b] == '{' && depth-- == 0) {
                body = b;
                break;
            }
        }
        if (body >= s.len)
            continue;
        size_t close_paren = code_blank_before(&s, body);
        while (close_paren > 0 && strchr(" \t\r\n", c[close_paren - 1]))
            close_paren--;
        if (close_paren == 0 || c[close_paren - 1] != ')')
            continue;
        size_t open_paren = close_paren - 1;
        for (int d = 0; open_paren-- > 0;) {
            if (c[open_paren] == ')')
                d++;
            else if (c[open_paren] == '(' && d-- == 0)
                break;
        }
        /* the parameter: `T *name` (one star) in the header's list, its place in it */
        int index = -1, at = 0;
        size_t start = open_paren + 1;
        for (size_t q = open_paren + 1; q < close_paren && index < 0; q++) {
            if (c[q] != ',' && q + 1 != close_paren)
                continue;
            size_t e = c[q] == ',' ? q : q + 1, w = e;
            while (w > start && strchr(" \t\r\n", c[w - 1]))
                w--;
            size_t nb = w;
            while (nb > start && source_is_identifier_char(c[nb - 1]))
                nb--;
            size_t star = nb;
            while (star > start && strchr(" \t", c[star - 1]))
                star--;
            int one_star = star > start && c[star - 1] == '*' && !(star - 1 > start && c[star - 2] == '*');
            if (w - nb == strlen(name) && !strncmp(c + nb, name, w - nb) && one_star)
                index = at;
            at++;
            start = q + 1;
        }
        if (index < 0)
            continue;
        /* the function's name, and a call of it that passes a pointer there */
        size_t fe = open_paren;
        while (fe > 0 && strchr(" \t", c[fe - 1]))
            fe--;
        size_t fb = fe;
        while (fb > 0 && source_is_identifier_char(c[fb - 1]))
            fb--;
        if (fb == fe || fe - fb >= func_n || fe - fb >= 64)
            continue;
        char fname[64];
        snprintf(fname, sizeof fname, "%.*s", (int)(fe - fb), c + fb);
        for (size_t u = 0; u < s.len && !found; u++) {
            if (u == fb || !code_name_at(&s, u, fname, strlen(fname)))
                continue;
            size_t co = code_call_open(&s, u, fname);
            if (co >= s.len || (u > fb && u < body) || (u >= body && u <= code_matching(&s, body)))
                continue;
            char given[128];
            code_call_argument(&s, co, index, given, sizeof given);
            if (!given[0] || strchr(given, '&'))
                continue;
            found = code_line_at(&s, fb);
            snprintf(func, func_n, "%s", fname);
            snprintf(param, param_n, "%s", name);
            snprintf(arg, arg_n, "%s", given);
            *alloc_line = code_line_at(&s, k);
            *call_line = code_line_at(&s, u);
        }
    }
    source_code_free(&s);
    return found;
}

int source_host_fill_of(const char *path, const char *name, char *call, size_t call_n, int *copy2d_line)
{
    static const char *const fills[] = { "memset", "memcpy", "cudaMemcpy", "cudaMemcpyAsync", "cudaMemset", NULL };
    source_code s;
    call[0] = 0;
    *copy2d_line = 0;
    if (!name[0] || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    size_t n = strlen(name);
    int found = 0;
    for (size_t k = 0; k < s.len && !found; k++) {
        if (!code_word_starts(&s, k) || in_kernel_body(&s, k))
            continue;
        size_t we = code_word_end(&s, k), open = code_skip_space(&s, we);
        if (we == k || open >= s.len || c[open] != '(' || !code_word_in(c + k, we - k, fills)) {
            k = we > k ? we - 1 : k;
            continue;
        }
        /* its first argument: through name (`out->data`, `out.data`, `out`) */
        size_t close = code_matching(&s, open), e = open + 1;
        for (int depth = 0; e < close && !(depth == 0 && c[e] == ','); e++)
            depth += (c[e] == '(' || c[e] == '[') - (c[e] == ')' || c[e] == ']');
        if (code_span_has_name(&s, open + 1, e, name, n)) {
            found = code_line_at(&s, k);
            snprintf(call, call_n, "%.*s", (int)(we - k), c + k);
        }
        k = we - 1;
    }
    /* the row-by-row copy into it, where there is one */
    for (size_t k = 0; found && k < s.len && !*copy2d_line; k++) {
        size_t open = code_call_open(&s, k, "cudaMemcpy2D");
        if (open >= s.len || in_kernel_body(&s, k))
            continue;
        size_t close = code_matching(&s, open), e = open + 1;
        for (int depth = 0; e < close && !(depth == 0 && c[e] == ','); e++)
            depth += (c[e] == '(' || c[e] == '[') - (c[e] == ')' || c[e] == ']');
        if (code_span_has_name(&s, open + 1, e, name, n))
            *copy2d_line = code_line_at(&s, k);
    }
    source_code_free(&s);
    return found;
}

int source_launch_count_origins(const char *path, int launch_line, int which, int axis, int *lines,
                                char (*names)[48], int max)
{
    source_code s;
    if (launch_line <= 0 || axis < 0 || axis > 2 || max <= 0 || !source_code_read(&s, path))
        return 0;
    const char *c = s.code;
    char name[64];
    size_t at;
    int count = 0;
    launch_dim3_name(&s, launch_line, which, name, sizeof name, &at);
    /* the dim3's declaration before the launch, `dim3 NAME(a, b)`: its axis's argument */
    size_t l = strlen(name), open = s.len;
    for (size_t k = 1; l && k < at; k++) {
        if (!code_name_at(&s, k, name, l))
            continue;
        size_t b = code_blank_before(&s, k), q = code_skip_space(&s, k + l);
        if (b >= 4 && strncmp(c + b - 4, "dim3", 4) == 0 && (b == 4 || !source_is_identifier_char(c[b - 5])))
            open = q < s.len && c[q] == '(' ? q : s.len;
    }
    char want[64] = "";
    if (open < s.len)
        code_call_argument(&s, open, axis, want, sizeof want);
    if (!source_is_identifier_text(want))
        goto done;
    /* the function's body: the outermost block around the launch */
    size_t body = s.len;
    for (size_t b = code_block_around(&s, at); b < s.len; b = b > 0 ? code_block_around(&s, b) : s.len)
        body = b;
    size_t before = open;
    while (body < s.len && count < max) {
        size_t e = 0, v = code_assignment_of(&s, body, before, want, strlen(want), &e);
        if (v >= s.len)
            break;
        lines[count] = code_line_at(&s, v);
        snprintf(names[count++], 48, "%s", want);
        /* the first name of the value that is itself set in the function before it */
        size_t next = s.len, nn = 0;
        for (size_t k = v; k < e && next == s.len; k++) {
            if (!code_word_starts(&s, k) || isdigit((unsigned char)c[k]) || !source_is_identifier_char(c[k]))
                continue;
            size_t we = code_word_end(&s, k), ve;
            if (we - k < sizeof want && code_assignment_of(&s, body, v, c + k, we - k, &ve) < s.len)
                next = k, nn = we - k;
            k = we;
        }
        if (next == s.len)
            break;
        snprintf(want, sizeof want, "%.*s", (int)nn, c + next);
        before = v;
    }
done:
    source_code_free(&s);
    return count;
}
