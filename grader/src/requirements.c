/*
 * requirements.c - see requirements.h.
 */
#define _GNU_SOURCE
#include "requirements.h"
#include "util.h"

#include <cJSON.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ptxas prints, for each kernel:
 *   ptxas info    : Compiling entry function '_Z15MatrixMulKernelPKfS0_Pfi' for 'sm_90'
 *   ptxas info    : Used 32 registers, used 1 barriers, 2048 bytes smem, 380 bytes cmem[0]
 * and, before CUDA 13, a module line such as
 *   ptxas info    : 0 bytes gmem, 100 bytes cmem[3]
 * (cmem[0] holds a kernel's parameters; user __constant__ data another bank).
 * CUDA 13 prints no user bank, so evidence_from_ptx_dir() reads the PTX too. */
void evidence_from_ptxas(const char *log, kernel_evidence *e)
{
    char kernel[128] = "";
    for (const char *line = log; line && *line;) {
        const char *end = strchr(line, '\n');
        size_t n = end ? (size_t)(end - line) : strlen(line);
        char *text = xasprintf("%.*s", (int)n, line);
        const char *fn = strstr(text, "Compiling entry function '");
        if (fn) {
            fn += strlen("Compiling entry function '");
            size_t k = strcspn(fn, "'");
            snprintf(kernel, sizeof kernel, "%.*s", (int)k, fn);
        }
        if (strstr(text, "ptxas info") && strstr(text, "Used ")) {
            e->observed = 1;
            const char *b = strstr(text, "used ");
            long barriers = 0, smem = 0;
            if (b && sscanf(b, "used %ld barrier", &barriers) == 1 && barriers > e->barriers) {
                e->barriers = barriers;
                snprintf(e->barrier_kernel, sizeof e->barrier_kernel, "%s", kernel);
            }
            for (const char *s = text; (s = strstr(s, " bytes smem")) != NULL; s++) {
                const char *num = s;
                while (num > text && num[-1] >= '0' && num[-1] <= '9')
                    num--;
                smem = strtol(num, NULL, 10);
                if (smem > e->shared_bytes) {
                    e->shared_bytes = smem;
                    snprintf(e->shared_kernel, sizeof e->shared_kernel, "%s", kernel);
                }
                break;
            }
        }
        for (const char *c = text; (c = strstr(c, "bytes cmem[")) != NULL; c++) {
            int bank = atoi(c + strlen("bytes cmem["));
            const char *num = c - 1;
            while (num > text && num[-1] >= '0' && num[-1] <= '9')
                num--;
            long bytes = strtol(num, NULL, 10);
            if (bank != 0 && strstr(text, "gmem") && bytes > e->constant_bytes)
                e->constant_bytes = bytes; /* the module-level line: user constants */
        }
        free(text);
        line = end ? end + 1 : line + n;
    }
}

void evidence_from_ptx_dir(const char *dir, kernel_evidence *e)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *ent;
    while ((ent = readdir(d)) != NULL) {
        size_t n = strlen(ent->d_name);
        if (n < 5 || strcmp(ent->d_name + n - 4, ".ptx") != 0)
            continue;
        char *path = xasprintf("%s/%s", dir, ent->d_name);
        char *text = read_file(path, NULL);
        free(path);
        if (!text)
            continue;
        for (const char *p = text; (p = strstr(p, "ld.const.")) != NULL; p++) {
            if (p > text && (p[-1] == ' ' || p[-1] == '\t')) {
                e->constant_bytes = e->constant_bytes > 0 ? e->constant_bytes : 1;
                e->constant_seen_in_ptx = 1;
                break;
            }
        }
        free(text);
    }
    closedir(d);
}

void evidence_from_emu_log(const char *path, kernel_evidence *e)
{
    size_t len;
    char *text = read_file(path, &len);
    if (!text)
        return;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(line);
        if (!o)
            continue;
        const cJSON *ev = cJSON_GetObjectItemCaseSensitive(o, "event");
        const cJSON *status = cJSON_GetObjectItemCaseSensitive(o, "status");
        const cJSON *ran = cJSON_GetObjectItemCaseSensitive(o, "ran");
        int launched = !cJSON_IsString(status) || strcmp(status->valuestring, "cudaSuccess") == 0 ||
                       cJSON_IsTrue(ran);
        if (cJSON_IsString(ev) && strcmp(ev->valuestring, "launch") == 0 && launched) {
            /* A refused launch (a bad configuration) ran nothing: no evidence.
             * A launch that faulted ("ran": true) did run: what it did counts. */
            e->observed = 1;
            const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "kernel");
            const char *name = cJSON_IsString(k) ? k->valuestring : "";
            const cJSON *ss = cJSON_GetObjectItemCaseSensitive(o, "shared_static_bytes");
            const cJSON *sd = cJSON_GetObjectItemCaseSensitive(o, "shared_dynamic_bytes");
            const cJSON *b = cJSON_GetObjectItemCaseSensitive(o, "barriers");
            long smem = (long)((cJSON_IsNumber(ss) ? ss->valuedouble : 0) +
                               (cJSON_IsNumber(sd) ? sd->valuedouble : 0));
            long barriers = cJSON_IsNumber(b) ? (long)b->valuedouble : 0;
            if (smem > e->shared_bytes) {
                e->shared_bytes = smem;
                snprintf(e->shared_kernel, sizeof e->shared_kernel, "%s", name);
            }
            if (barriers > e->barriers) {
                e->barriers = barriers;
                snprintf(e->barrier_kernel, sizeof e->barrier_kernel, "%s", name);
            }
        } else if (cJSON_IsString(ev) && strcmp(ev->valuestring, "memcpy_to_symbol") == 0) {
            const cJSON *bytes = cJSON_GetObjectItemCaseSensitive(o, "bytes");
            if (cJSON_IsNumber(bytes) && bytes->valuedouble > e->constant_bytes)
                e->constant_bytes = (long)bytes->valuedouble;
        }
        cJSON_Delete(o);
    }
    free(text);
}

static void judge_one(const requirement_spec *q, const kernel_evidence *e, const char *backend,
                      requirement_result *r)
{
    int gpu = strcmp(backend, "gpu") == 0;
    r->name = q->name;
    r->max_points = q->points;
    int met = 0;
    switch (q->kind) {
    case REQ_SHARED_MEMORY:
        met = e->shared_bytes > 0;
        r->message = met ? xasprintf("kernel %s uses %ld bytes of shared memory", e->shared_kernel,
                                     e->shared_bytes)
                         : xstrdup("no kernel uses __shared__ memory: this lab is about tiling, so the "
                                   "kernel must load its tiles into shared memory");
        break;
    case REQ_BARRIER:
        met = e->barriers > 0;
        r->message = met ? xasprintf("kernel %s synchronises with __syncthreads()%s", e->barrier_kernel,
                                     gpu ? "" : " (seen at run time)")
                         : xstrdup("no kernel calls __syncthreads(): the threads of a block must wait "
                                   "for the whole tile to be loaded before using it, and for everyone to "
                                   "finish with it before it is overwritten");
        break;
    case REQ_CONSTANT_MEMORY:
        met = e->constant_bytes > 0;
        r->message = met ? (e->constant_seen_in_ptx
                                ? xstrdup("a kernel reads __constant__ memory")
                                : xasprintf("%ld bytes were copied to __constant__ memory", e->constant_bytes))
                         : xstrdup("the mask is not in constant memory: declare it __constant__ and "
                                   "fill it with cudaMemcpyToSymbol");
        break;
    default:
        r->message = xstrdup("unknown requirement");
    }
    if (!met && !e->observed) {
        free(r->message);
        r->message = xstrdup("could not be checked: no kernel of yours was seen (it did not build, "
                             "or no run launched one)");
    }
    r->status = met ? ST_PASS : ST_REQUIREMENT_FAILED;
    r->points = met ? q->points : 0;
}

void requirements_judge(const lab_manifest *m, const kernel_evidence *e, submission_result *s)
{
    s->nrequirements = m->nrequirements;
    s->requirements = xcalloc((size_t)m->nrequirements + 1, sizeof *s->requirements);
    for (int i = 0; i < m->nrequirements; i++) {
        requirement_result *r = &s->requirements[i];
        if (!s->built) {
            r->name = m->requirements[i].name;
            r->max_points = m->requirements[i].points;
            r->status = ST_COMPILE_ERROR;
            r->message = xstrdup("not checked: the file did not build");
        } else {
            judge_one(&m->requirements[i], e, s->backend, r);
        }
        s->score += r->points;
        s->max_score += r->max_points;
    }
}
