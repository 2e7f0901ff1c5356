/*
 * build_words.c - the compiler's messages on the emulator, in the
 * student's words.
 *
 * emucc rewrites a .cu file before g++ sees it (a launch becomes a call of
 * the emulator's launcher, a kernel's return notes its line) and reads the
 * rewritten text through a pipe. Each edit keeps the student's lines and
 * columns, but what g++ says can still show the rewrite through: a missing
 * ';' before a launch is "expected ';' before '::' token", a launch with
 * the wrong arguments a "no match for call to '(emu::launcher<...>)'" with
 * notes in the emulator's header, and no line of the student's is quoted
 * (g++ cannot quote a pipe). This turns such a log into the student's
 * terms: the token named is the one at that line and column of their file,
 * each error in their file is followed by their line as g++ quotes one,
 * and the emulator's header and launcher are not named.
 */
#define _GNU_SOURCE
#include "build_words.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "source.h"
#include "util.h"

/* Line n (from 1) of text, without its end of line: *len bytes. NULL past
 * the end. */
static const char *nth_line(const char *text, size_t len, int n, size_t *llen)
{
    const char *p = text, *end = text + len;
    for (int i = 1; i < n && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        if (!nl)
            return NULL;
        p = nl + 1;
    }
    if (n < 1 || p >= end)
        return NULL;
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    *llen = (size_t)((nl ? nl : end) - p);
    while (*llen > 0 && p[*llen - 1] == '\r')
        (*llen)--;
    return p;
}

/* The token of the student's file at line:col (g++'s columns count bytes
 * from 1), "" when none starts there. */
static char *token_at(const char *text, size_t len, int line, int col)
{
    size_t n;
    const char *l = nth_line(text, len, line, &n);
    if (!l || col < 1 || (size_t)col > n)
        return xstrdup("");
    const char *p = l + col - 1, *e = l + n;
    size_t k = 0;
    if (isalpha((unsigned char)*p) || *p == '_') {
        while (p + k < e && (isalnum((unsigned char)p[k]) || p[k] == '_'))
            k++;
    } else if (!isspace((unsigned char)*p)) {
        k = p + 1 < e && ((p[0] == ':' && p[1] == ':') || (p[0] == '-' && p[1] == '>')) ? 2 : 1;
    }
    return xasprintf("%.*s", (int)k, p);
}

/* "FILE:LINE:COL: KIND: MESSAGE" of the student's file: its line, column
 * and where MESSAGE starts; 0 if the line is not one. */
static int student_diag(const char *line, const char *student, int *ln, int *col, const char **msg)
{
    size_t sl = strlen(student);
    if (strncmp(line, student, sl) != 0 || line[sl] != ':')
        return 0;
    int used = 0;
    if (sscanf(line + sl, ":%d:%d: %n", ln, col, &used) != 2 || used == 0)
        return 0;
    *msg = line + sl + used;
    return 1;
}

/* A line of the emulator's own headers (or the precompiled copy's stub):
 * "PATH/emu/include/emu_device.h:287:10: note: ..." or "In file included
 * from PATH/emu/pch/default/emu_device.h:2:". */
static int emulator_header_line(const char *line)
{
    const char *h = strstr(line, "emu_device.h:");
    return h && (strstr(line, "/emu/include/") || strstr(line, "/emu/pch/") || strstr(line, "/include/emu_"));
}

/* A line of g++'s source excerpt: "  287 |     text" or "      |   ^~~". */
static int excerpt_line(const char *line)
{
    const char *p = line;
    while (*p == ' ')
        p++;
    while (isdigit((unsigned char)*p))
        p++;
    while (*p == ' ')
        p++;
    return *p == '|' && p > line;
}

/* "expected ';' before 'X'" (or 'X' token), X not the student's token at
 * the place named: the student's token instead (the rewrite's '::' of a
 * launch becomes the kernel's name). Quotes are g++'s: 'x' or ‘x’. */
static char *name_their_token(const char *msg, const char *text, size_t len, int ln, int col)
{
    static const char *const opens[] = { "before \xe2\x80\x98", "before '" };
    static const char *const closes[] = { "\xe2\x80\x99", "'" };
    for (int q = 0; q < 2; q++) {
        const char *b = strstr(msg, opens[q]);
        if (!b || strncmp(msg, "expected ", 9) != 0)
            continue;
        const char *x = b + strlen(opens[q]);
        const char *e = strstr(x, closes[q]);
        if (!e)
            continue;
        char *theirs = token_at(text, len, ln, col);
        char *out = NULL;
        if (theirs[0] && (strncmp(theirs, x, (size_t)(e - x)) != 0 || strlen(theirs) != (size_t)(e - x))) {
            const char *after = e + strlen(closes[q]);
            if (strncmp(after, " token", 6) == 0)
                after += 6;
            out = xasprintf("%.*s%s%s%s", (int)(x - msg), msg, theirs, closes[q], after);
        }
        free(theirs);
        return out;
    }
    return NULL;
}

/* The k-th (from 0) top-level comma-separated item of [b, e) into out,
 * blanks and a trailing `&` (g++'s lvalue mark) taken off: 1, else 0. */
static int list_item(const char *b, const char *e, int k, char *out, size_t n, int strip_ref)
{
    int depth = 0, at = 0;
    const char *start = b;
    for (const char *p = b; p <= e; p++) {
        if (p < e && (*p == '(' || *p == '<' || *p == '['))
            depth++;
        else if (p < e && (*p == ')' || *p == '>' || *p == ']'))
            depth--;
        else if (p == e || (*p == ',' && depth == 0)) {
            if (at++ == k) {
                while (start < p && *start == ' ')
                    start++;
                const char *q = p;
                while (q > start && (q[-1] == ' ' || (strip_ref && q[-1] == '&')))
                    q--;
                if (q <= start || (size_t)(q - start) >= n)
                    return 0;
                snprintf(out, n, "%.*s", (int)(q - start), start);
                return 1;
            }
            start = p + 1;
        }
    }
    return 0;
}

/* "no match for call to '(emu::launcher<PARAMS>) (ARGS)'": the kernel's
 * parameters and the launch's arguments, in words; where one argument's
 * type is not its parameter's, that argument first, by its place and, from
 * the launch at line ln of the student's file, its text. */
static char *launch_mismatch(const char *msg, const char *student, int ln)
{
    const char *l = strstr(msg, "(emu::launcher<");
    if (!l)
        return NULL;
    const char *params = l + strlen("(emu::launcher<");
    const char *pe = strstr(params, ">) (");
    if (!pe)
        return NULL;
    const char *args = pe + 4;
    const char *ae = strrchr(args, ')');
    if (!ae)
        return NULL;
    char *whole = xasprintf("the launch's arguments (%.*s) do not match the kernel's parameters (%.*s)",
                            (int)(ae - args), args, (int)(pe - params), params);
    char a[128], p[128];
    int k = 0;
    /* (a pointer converts to its const: `float*` fits `const float*`) */
    for (; list_item(args, ae, k, a, sizeof a, 1) && list_item(params, pe, k, p, sizeof p, 0); k++)
        if (strcmp(a, p) != 0 && !(strncmp(p, "const ", 6) == 0 && strcmp(a, p + 6) == 0))
            break;
    if (!list_item(args, ae, k, a, sizeof a, 1) || !list_item(params, pe, k, p, sizeof p, 0))
        return xasprintf("error: %s", whole);
    /* the argument's own text, from the launch at line ln */
    char kernel[64] = "", decl[128] = "", arg[128] = "";
    source_kernel_parameter(student, ln, k, kernel, sizeof kernel, decl, sizeof decl, arg, sizeof arg);
    static const char *const nth[] = { "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth" };
    char place[32];
    if (k < 8)
        snprintf(place, sizeof place, "%s", nth[k]);
    else
        snprintf(place, sizeof place, "number %d", k + 1);
    /* a const pointer given for a parameter the kernel only reads: the
     * parameter lost its const, not the launch its argument */
    char pname[64] = "";
    int stores = -1, kline = 0;
    if (strncmp(a, "const ", 6) == 0 && strncmp(p, "const ", 6) != 0)
        stores = source_launch_parameter_stored(student, ln, k, kernel, sizeof kernel, pname, sizeof pname, &kline);
    char *out;
    if (stores == 0)
        out = xasprintf("error: the launch's %s argument%s%s%s is a %s, where %s's %s parameter, %s (line %d), "
                        "is a %s, which %s only reads: declare that parameter `%s` there, and the launch's "
                        "argument fits it (%s)",
                        place, arg[0] ? ", `" : "", arg, arg[0] ? "`," : "", a, kernel, place, pname, kline, p,
                        kernel, a, whole);
    else
        out = xasprintf("error: the launch's %s argument%s%s%s is a %s, where the kernel's %s parameter is a %s%s: "
                        "pass what that parameter is for (%s)",
                        place, arg[0] ? ", `" : "", arg, arg[0] ? "`," : "", a, place, p,
                        stores > 0 ? " (the kernel writes through it, and a const pointer is read-only)" : "",
                        whole);
    free(whole);
    return out;
}

/* "assignment of read-only location" at line ln, a store through a
 * pointer the file declares `const` (a kernel's output parameter written
 * `const float *P`, the const of its inputs copied): that declaration's
 * line, in words; NULL where the stored name has no such declaration. */
static char *read_only_store(const char *msg, const char *text, size_t len, int ln)
{
    if (!strstr(msg, "assignment of read-only location"))
        return NULL;
    size_t sl;
    const char *l = nth_line(text, len, ln, &sl);
    if (!l)
        return NULL;
    /* the stored name: the first word of the statement, before its `[` */
    const char *p = l, *e = l + sl;
    while (p < e && isspace((unsigned char)*p))
        p++;
    const char *w = p;
    while (p < e && (isalnum((unsigned char)*p) || *p == '_'))
        p++;
    size_t n = (size_t)(p - w);
    while (p < e && *p == ' ')
        p++;
    if (n == 0 || n > 63 || p >= e || *p != '[')
        return NULL;
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)n, w);
    /* `const T *NAME` (or `T const *NAME`) in a parameter list, before line ln */
    int line = 1;
    for (const char *q = text; q < text + len && line < ln; q++) {
        if (*q == '\n') {
            line++;
            continue;
        }
        if (strncmp(q, name, n) != 0 || (q > text && (isalnum((unsigned char)q[-1]) || q[-1] == '_')) ||
            isalnum((unsigned char)q[n]) || q[n] == '_')
            continue;
        const char *b = q;
        while (b > text && (b[-1] == ' ' || b[-1] == '*'))
            b--;
        if (b == q || !memchr(b, '*', (size_t)(q - b)))
            continue;
        const char *start = b;
        while (start > text && start[-1] != ',' && start[-1] != '(' && start[-1] != '\n')
            start--;
        const char *after = q + n;
        while (after < text + len && *after == ' ')
            after++;
        if ((*after != ',' && *after != ')') || !memmem(start, (size_t)(b - start), "const", 5))
            continue;
        while (start < q && *start == ' ')
            start++;
        return xasprintf("assignment of read-only location: %s is declared `%.*s` at line %d, a pointer to const, "
                         "through which the kernel may only read, and this line stores through it; take `const` off "
                         "%s's declaration (it is the output)",
                         name, (int)(after - start), start, line, name);
    }
    return NULL;
}

/* A note of the emulator's header about the launcher's candidate: what it
 * says of the arguments, at the student's launch; NULL for the rest. */
static char *launch_note(const char *line, const char *last_place)
{
    const char *n = strstr(line, ": note: ");
    if (!n || !last_place)
        return NULL;
    n += strlen(": note: ");
    while (*n == ' ')
        n++;
    unsigned want, given;
    if (sscanf(n, "candidate expects %u argument%*[s], %u provided", &want, &given) == 2 ||
        sscanf(n, "candidate expects %u argument, %u provided", &want, &given) == 2)
        return xasprintf("%s: note: the kernel takes %u argument%s, the launch gives %u", last_place, want,
                         want == 1 ? "" : "s", given);
    if (strncmp(n, "no known conversion for argument", 32) == 0)
        return xasprintf("%s: note: %s", last_place, n);
    return NULL;
}

/* Whether g++'s message names what emucc's rewrite wrote (a __shared__
 * declaration's per-block struct emu_sh_N, its site emu_ss_N, ...): an
 * error that follows from an earlier one of the student's, which it
 * cannot fix by name. */
static int names_the_rewrite(const char *msg)
{
    return strstr(msg, "emu_") || strstr(msg, "emu::");
}

/* emucc's own refusal of the file it was to rewrite, "emucc: SRC: line N:
 * MSG" or "emucc: SRC: MSG" (SRC: the grader's copy; N: the student's
 * line, emucc counts the copy's #line): "STUDENT:N: error: MSG" and their
 * line, as g++ would say it. NULL for any other line. */
static char *rewrite_refusal(const char *line, const char *student, const char *text, size_t len)
{
    static const char prefix[] = "emucc: ";
    if (strncmp(line, prefix, sizeof prefix - 1) != 0)
        return NULL;
    const char *src = line + sizeof prefix - 1, *colon = strstr(src, ": ");
    if (!colon || memchr(src, ' ', (size_t)(colon - src)))
        return NULL;
    int ln = 0, used = 0;
    if (sscanf(colon, ": line %d: %n", &ln, &used) == 1 && used > 0) {
        size_t sl;
        const char *l = nth_line(text, len, ln, &sl);
        return l ? xasprintf("%s:%d: error: %s\n%5d | %.*s", student, ln, colon + used, ln, (int)(sl > 200 ? 200 : sl), l)
                 : xasprintf("%s:%d: error: %s", student, ln, colon + used);
    }
    return xasprintf("%s: error: %s", student, colon + 2);
}

char *build_in_student_words(const char *log, const char *student, const char *text, size_t len)
{
    int kept = 0; /* errors of the student's file kept */
    strbuf out;
    sb_init(&out);
    char *last_place = NULL; /* FILE:LINE:COL of the student's last error */
    int dropping = 0;        /* in the excerpt of a dropped line */
    for (const char *p = log ? log : ""; *p;) {
        size_t n = strcspn(p, "\n");
        char *line = xasprintf("%.*s", (int)n, p);
        p += n + (p[n] == '\n');
        int ln, col;
        const char *msg;
        if (dropping && excerpt_line(line)) {
            free(line);
            continue;
        }
        dropping = 0;
        char *refusal = rewrite_refusal(line, student, text, len);
        if (refusal) {
            sb_printf(&out, "%s\n", refusal);
            free(refusal);
        } else if (emulator_header_line(line)) {
            char *note = launch_note(line, last_place);
            if (note)
                sb_printf(&out, "%s\n", note);
            free(note);
            dropping = 1;
        } else if (student_diag(line, student, &ln, &col, &msg) && strncmp(msg, "error: ", 7) == 0) {
            char *said = name_their_token(msg + 7, text, len, ln, col);
            char *mismatch = said ? NULL : launch_mismatch(msg, student, ln);
            if (!said && !mismatch)
                said = read_only_store(msg, text, len, ln);
            if (!mismatch && names_the_rewrite(said ? said : msg)) {
                free(said);
                free(line);
                if (kept) { /* a consequence of an error already shown */
                    dropping = 1;
                    continue;
                }
                said = xstrdup("this line, or the one before it, does not compile: look for a missing ';' "
                               "or a misspelt name");
                line = xasprintf("%s:%d:%d: error: ", student, ln, col);
                msg = line + strlen(line) - 7;
            }
            kept++;
            sb_printf(&out, "%.*s", (int)(msg - line), line);
            if (mismatch)
                sb_printf(&out, "%s\n", mismatch);
            else
                sb_printf(&out, "error: %s\n", said ? said : msg + 7);
            /* their line, as g++ quotes a file it can read (it does when
             * the #line's name is a path it can open from the build
             * folder: then its excerpt follows) */
            size_t sl, nn = strcspn(p, "\n");
            char *next = xasprintf("%.*s", (int)nn, p);
            const char *src = excerpt_line(next) ? NULL : nth_line(text, len, ln, &sl);
            free(next);
            if (src)
                sb_printf(&out, "%5d | %.*s\n", ln, (int)(sl > 200 ? 200 : sl), src);
            free(last_place);
            last_place = xasprintf("%s:%d:%d", student, ln, col);
            free(said);
            free(mismatch);
        } else {
            sb_printf(&out, "%s\n", line);
        }
        free(line);
    }
    free(last_place);
    return sb_detach(&out);
}
