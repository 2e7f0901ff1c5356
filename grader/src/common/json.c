/*
 * json.c - see json.h.
 */
#include "json.h"
#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

const char *json_str(const cJSON *o, const char *key, const char *fallback)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) ? v->valuestring : fallback;
}

double json_num(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsNumber(v) ? v->valuedouble : 0;
}

const cJSON *json_arr(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsArray(v) ? v : NULL;
}

static char *fix_utf8(const char *s, int *changed)
{
    strbuf sb;
    sb_init(&sb);
    const unsigned char *p = (const unsigned char *)s;
    *changed = 0;
    while (*p) {
        int n = 0;
        uint32_t cp = 0;
        if (*p < 0x80)
            n = 1;
        else if ((*p & 0xE0) == 0xC0)
            n = 2, cp = *p & 0x1F;
        else if ((*p & 0xF0) == 0xE0)
            n = 3, cp = *p & 0x0F;
        else if ((*p & 0xF8) == 0xF0)
            n = 4, cp = *p & 0x07;
        int ok = n > 0;
        for (int i = 1; ok && i < n; i++) {
            if ((p[i] & 0xC0) != 0x80)
                ok = 0;
            else
                cp = cp << 6 | (p[i] & 0x3F);
        }
        if (ok && n > 1) {
            static const uint32_t min[5] = { 0, 0, 0x80, 0x800, 0x10000 };
            if (cp < min[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
                ok = 0;
        }
        if (ok) {
            sb_append(&sb, (const char *)p, (size_t)n);
            p += n;
        } else {
            sb_puts(&sb, "\xEF\xBF\xBD");
            *changed = 1;
            p++;
        }
    }
    return sb_detach(&sb);
}

void json_fix_utf8(cJSON *item)
{
    for (cJSON *c = item; c; c = c->next) {
        if (cJSON_IsString(c) && c->valuestring) {
            int changed;
            char *fixed = fix_utf8(c->valuestring, &changed);
            if (changed)
                cJSON_SetValuestring(c, fixed);
            free(fixed);
        }
        if (c->string) {
            int changed;
            char *fixed = fix_utf8(c->string, &changed);
            if (changed && !(c->type & cJSON_StringIsConst)) {
                free(c->string);
                c->string = fixed;
            } else {
                free(fixed);
            }
        }
        if (c->child)
            json_fix_utf8(c->child);
    }
}

int json_triple(const cJSON *o, const char *key, unsigned v[3])
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != 3)
        return -1;
    for (int d = 0; d < 3; d++) {
        const cJSON *e = cJSON_GetArrayItem(a, d);
        if (!cJSON_IsNumber(e) || e->valuedouble < 0 || e->valuedouble > 4294967295.0)
            return -1;
        v[d] = (unsigned)e->valuedouble;
    }
    return 0;
}
