/*
 * emu_log.c - see emu_log.h.
 */
#define _GNU_SOURCE
#include "emu_log.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void emu_log_each(const char *path, const char *event, void (*each)(const cJSON *line, void *arg), void *arg)
{
    char *why = NULL;
    char *text = path ? untrusted_read(path, EMU_LOG_MAX_BYTES, 0, NULL, &why) : NULL;
    free(why);
    if (!text)
        return;
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        cJSON *o = cJSON_Parse(line);
        const cJSON *ev = o ? cJSON_GetObjectItemCaseSensitive(o, "event") : NULL;
        if (cJSON_IsObject(o) && (!event || (cJSON_IsString(ev) && strcmp(ev->valuestring, event) == 0)))
            each(o, arg);
        cJSON_Delete(o);
    }
    free(text);
}
