/*
 * build_words.h - the compiler's messages on the emulator, in the
 * student's words (build_words.c says why).
 */
#ifndef GPULAB_BUILD_WORDS_H
#define GPULAB_BUILD_WORDS_H

#include <stddef.h>

/* log (what g++ said of the rewritten file, which names it student, the
 * name of its #line directive), with: the token of the student's text at
 * the line and column of an "expected ... before 'X'" where the rewrite's
 * X is not theirs; after each error in their file, their line; a launch's
 * mismatched arguments without the emulator's launcher; no line of the
 * emulator's headers. text, len: the student's file. A new string. */
char *build_in_student_words(const char *log, const char *student, const char *text, size_t len);

#endif
