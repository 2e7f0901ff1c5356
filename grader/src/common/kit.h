/*
 * kit.h - where the kit lives: its root directory and the paths under it.
 */
#ifndef GPULAB_KIT_H
#define GPULAB_KIT_H

/* Finds the kit's root: $GPULAB_HOME if set, else the directory holding the
 * gpulab executable. Dies with a clear message if it does not look like one. */
void kit_locate(const char *argv0);
const char *kit_root(void);
/* A malloc'd path under the root: kit_path("labs/%s/lab.json", id). */
char *kit_path(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif
