/*
 * source.c - see source.h.
 */
#include "source.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

int source_is_identifier_char(char c)
{
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

int source_skip_comment_or_literal(const char *text, size_t len, size_t *i, int *line)
{
    size_t k = *i;
    char c = text[k];
    char next = k + 1 < len ? text[k + 1] : '\0';
    if (c == '/' && next == '/') {
        while (k < len && text[k] != '\n')
            k++;
        *i = k - 1; /* the newline is counted by the caller */
        return 1;
    }
    if (c == '/' && next == '*') {
        for (k += 2; k < len && !(text[k] == '*' && k + 1 < len && text[k + 1] == '/'); k++)
            *line += text[k] == '\n';
        *i = k + 1;
        return 1;
    }
    if (c == '"' || c == '\'') {
        for (k++; k < len && text[k] != c && text[k] != '\n'; k++)
            k += text[k] == '\\';
        *i = k < len && text[k] == '\n' ? k - 1 : k; /* an unended literal: its newline still counts */
        return 1;
    }
    return 0;
}

/* The text with every comment and literal blanked (newlines kept), so that
 * what is left is code, line for line. */
static char *code_only(const char *text, size_t len)
{
    char *code = xcalloc(len + 1, 1);
    memcpy(code, text, len);
    int unused = 0;
    for (size_t i = 0; i < len; i++) {
        size_t start = i;
        if (!source_skip_comment_or_literal(text, len, &i, &unused))
            continue;
        for (size_t k = start; k <= i && k < len; k++)
            if (code[k] != '\n')
                code[k] = ' ';
    }
    return code;
}

#define MAX_CONSTANTS 8
#define NAME_MAX_LEN 64

/* The names of the arrays declared __constant__ in code: the identifier
 * before the first '[' of each declaration. Returns how many. */
static int constant_arrays(const char *code, char names[MAX_CONSTANTS][NAME_MAX_LEN])
{
    int n = 0;
    for (const char *p = strstr(code, "__constant__"); p && n < MAX_CONSTANTS; p = strstr(p + 1, "__constant__")) {
        if (p > code && source_is_identifier_char(p[-1]))
            continue;
        const char *q = p + strlen("__constant__"), *last = NULL;
        size_t last_len = 0;
        while (*q && *q != '[' && *q != ';' && *q != '=' && *q != '(') {
            if (source_is_identifier_char(*q)) {
                last = q;
                while (source_is_identifier_char(*q))
                    q++;
                last_len = (size_t)(q - last);
            } else {
                q++;
            }
        }
        if (*q == '[' && last && last_len < NAME_MAX_LEN) {
            memcpy(names[n], last, last_len);
            names[n][last_len] = '\0';
            n++;
        }
    }
    return n;
}

/* Whether line (up to end) reads name with two subscripts: name [..] [..]. */
static int reads_twice_subscripted(const char *line, const char *end, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = line; p + n <= end; p++) {
        if (strncmp(p, name, n) != 0 || (p > line && source_is_identifier_char(p[-1])) ||
            source_is_identifier_char(p[n]))
            continue;
        const char *q = p + n;
        int subscripts = 0;
        while (subscripts < 2) {
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (q >= end || *q != '[')
                break;
            int depth = 0;
            for (; q < end; q++) {
                depth += *q == '[';
                depth -= *q == ']';
                if (depth == 0)
                    break;
            }
            if (q >= end)
                break;
            q++;
            subscripts++;
        }
        if (subscripts == 2)
            return 1;
    }
    return 0;
}

int source_mask_read_line(const char *path, int *count)
{
    *count = 0;
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return 0;
    char *code = code_only(text, len);
    free(text);
    char names[MAX_CONSTANTS][NAME_MAX_LEN];
    int nnames = constant_arrays(code, names), first = 0, lineno = 1;
    for (const char *line = code; nnames > 0 && *line; lineno++) {
        const char *end = strchr(line, '\n');
        if (!end)
            end = line + strlen(line);
        /* a read in a product that is summed (`+=`, or `=` and `+`), not
         * the declaration or a pointer taken to it */
        size_t n = (size_t)(end - line);
        int product = memchr(line, '*', n) != NULL && memchr(line, '+', n) != NULL && memchr(line, '=', n) != NULL;
        const char *decl = strstr(line, "__constant__");
        int declares = decl && decl < end;
        for (int k = 0; product && !declares && k < nnames; k++)
            if (reads_twice_subscripted(line, end, names[k])) {
                first = first ? first : lineno;
                (*count)++;
                break;
            }
        line = *end ? end + 1 : end;
    }
    free(code);
    return first;
}
