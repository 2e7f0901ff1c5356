/*
 * findings.c - see findings.h.
 */
#include "findings.h"
#include "source.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sanitize_has_race(const sanitize_result *r)
{
    for (int i = 0; i < r->nfindings; i++)
        if (strcmp(r->findings[i].kind, "race") == 0)
            return 1;
    return 0;
}

void sanitize_result_free(sanitize_result *r)
{
    for (int i = 0; i < r->nfindings; i++)
        free(r->findings[i].message);
    free(r->problem);
    fault_threads_free(&r->faults);
    free(r->fault_summary);
    fault_threads_free(&r->races);
    free(r->race_summary);
    tiles_free(&r->tiles);
    free(r->notes);
    memset(r, 0, sizeof *r);
}

/* "(x,y,z)" after `word ` in s, copied into out; "" if absent. */
void emu_triple_after(const char *s, const char *word, char *out, size_t len)
{
    out[0] = '\0';
    const char *p = strstr(s, word);
    if (p) {
        p += strlen(word);
        size_t n = strcspn(p, ")");
        if (*p == '(' && p[n] == ')')
            snprintf(out, len, "%.*s", (int)n + 1, p);
    }
}

int emu_diag_parse(const char *line, emu_diag *d)
{
    memset(d, 0, sizeof *d);
    if (sscanf(line, "%31s %299s", d->category, d->location) != 2)
        return -1;
    size_t loclen = strlen(d->location);
    if (loclen > 0 && d->location[loclen - 1] == ':') /* "invalid-memcpy FILE:LINE: cudaMemcpy2D(...)" */
        d->location[loclen - 1] = '\0';
    const char *msg = strstr(line, "): ");
    d->message = msg ? msg + 3 : strstr(line, ": ") ? strstr(line, ": ") + 2 : "";
    /* the kernel is named before the message, never within it ("no copy,
     * cudaMemset or kernel wrote them" names none) */
    const char *k = strstr(line, " kernel ");
    if (k && (!*d->message || k < d->message))
        sscanf(k, " kernel %127s", d->kernel);
    emu_triple_after(line, " grid ", d->grid, sizeof d->grid);
    emu_triple_after(line, " block ", d->block, sizeof d->block);
    emu_triple_after(line, " thread ", d->thread, sizeof d->thread);
    const char *colon = strrchr(d->location, ':');
    if (colon) {
        snprintf(d->file, sizeof d->file, "%.*s", (int)(colon - d->location), d->location);
        d->line = atoi(colon + 1);
    }
    /* the CUDA error it ends in, "(cudaErrorX)" */
    size_t n = strlen(line);
    const char *open = n > 0 && line[n - 1] == ')' ? strrchr(line, '(') : NULL;
    if (open && strncmp(open, "(cudaError", 10) == 0)
        snprintf(d->error, sizeof d->error, "%.*s", (int)(line + n - 1 - open - 1), open + 1);
    return 0;
}

char *emu_host_access_words(const char *line, const char *student)
{
    emu_diag d;
    char verb[16], call[32], made_at[300];
    const char *rest = strstr(line, ": host code ");
    if (emu_diag_parse(line, &d) != 0 || strcmp(d.category, "host-access") != 0 || d.line <= 0 || !rest ||
        sscanf(rest, ": host code %15s device memory (from the %31s at %299[^)]): ", verb, call, made_at) != 3)
        return NULL;
    /* the advice: what follows the GPU's word */
    static const char gpu_word[] = "segmentation fault): ";
    const char *advice = strstr(rest, gpu_word);
    if (!advice)
        return NULL;
    char *colon = strrchr(made_at, ':');
    int made_line = colon ? atoi(colon + 1) : 0;
    if (colon)
        *colon = '\0';
    char *at = sanitize_quote_at(student, d.file, d.line);
    char *made = made_line > 0 ? sanitize_quote_at(student, made_at, made_line) : xstrdup("its allocation");
    /* the C library's free of a device pointer: the advice is cudaFree,
     * not a copy (the line is the student's own, by name) */
    char freed[96] = "";
    if (student && strcmp(path_base(d.file), path_base(student)) == 0 &&
        !source_call_argument(student, d.line, "free", 0, freed, sizeof freed))
        freed[0] = '\0';
    char *own = freed[0] ? xasprintf("free() is the C library's and releases host memory only: release device memory "
                                     "with cudaFree(%s)",
                                     freed)
                         : NULL;
    char *out = xasprintf("host code at %s %s device memory (from the %s at %s): a device pointer names memory on "
                          "the GPU, which host code cannot reach (on a GPU too this is a segmentation fault): %s",
                          at, verb, call, made, own ? own : advice + strlen(gpu_word));
    free(own);
    free(at);
    free(made);
    return out;
}
