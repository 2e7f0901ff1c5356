/*
 * json.h - reading the kit's own JSON (records, lab.json) with defaults,
 * and repairing what a program printed before it goes into one.
 */
#ifndef GPULAB_JSON_H
#define GPULAB_JSON_H

#include <cJSON.h>

/* o's member key when it is a string (a number, an array), else fallback
 * (0, NULL). */
const char *json_str(const cJSON *o, const char *key, const char *fallback);
double json_num(const cJSON *o, const char *key);
const cJSON *json_arr(const cJSON *o, const char *key);

/* o's member key, an array of three whole numbers (a grid, a block, a
 * thread), into v: 0, or -1 (v unspecified) when it is not one. */
int json_triple(const cJSON *o, const char *key, unsigned v[3]);

/* Replaces every invalid UTF-8 sequence in the tree's strings with U+FFFD,
 * so a program's raw bytes never make a record unreadable. */
void json_fix_utf8(cJSON *item);

#endif
