/* rewrite.h - emucc's CUDA-to-C++ source rewriter (rewrite.c). */
#ifndef EMU_REWRITE_H
#define EMU_REWRITE_H
#include <stddef.h>
/* Returns the rewritten text (malloc'd), which keeps every line of text where
 * it was, behind a first line `#line 1 "path"`; or NULL with *err set. */
char *emu_rewrite(const char *path, const char *text, size_t len, char **err);
#endif
