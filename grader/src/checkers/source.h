/*
 * source.h - the kit's own view of a student's source file: read as text,
 * outside comments and literals, never by running anything of it. Used to
 * point a finding at a line when neither the compiler nor a checker gave one.
 */
#ifndef GPULAB_SOURCE_H
#define GPULAB_SOURCE_H

#include <stddef.h>

int source_is_identifier_char(char c);

/* Skips the comment or literal that starts at text[*i] ("//", slash-star,
 * '"' or '\''), counting its newlines in *line; leaves *i on its last
 * character (a line comment: before its newline, which the caller counts);
 * returns 0 when none starts there. */
int source_skip_comment_or_literal(const char *text, size_t len, size_t *i, int *line);

/* The first line (from 1) of the file where an array the file declares
 * __constant__ is read with two subscripts in a product that is summed
 * (the mask in a convolution's sum: `acc += Mc[i][j] * N_ds[..][..]`, or
 * `sum = sum + ...`), with *count set to
 * how many such lines there are; 0 when there is none (a mask read through
 * a pointer, say) or the file cannot be read. */
int source_mask_read_line(const char *path, int *count);

#endif
