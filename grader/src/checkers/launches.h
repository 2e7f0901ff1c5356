/*
 * launches.h - the student's kernel launch and copies as the emulator's log
 * records them (GPULAB_EMU_LOG, docs/emulator.md), held against the
 * output: a launch whose grid and block look swapped, a grid that leaves
 * whole tiles of the output never launched, a copy whose pitch or width
 * disagrees with its buffer. Each sentence names the student's line.
 *
 * The log is written inside the student's process (by the emulator's
 * runtime): what it says only picks the sentence that points at a line,
 * never a point, and a launch line is believed only where the output's
 * pattern agrees (the never-launched tiles are the wrong ones).
 */
#ifndef GPULAB_LAUNCHES_H
#define GPULAB_LAUNCHES_H

#include "../runtime/dataset.h"
#include "result.h"

/* Reads one run's log: the launch at a line of the student's file with the
 * most shared memory (the first of those), and the first copy at such a
 * line that disagrees with its buffer. Missing: known stays 0. */
void launches_read_emu_log(const char *path, const char *student_file, launch_shape *l, copy_record *c);

/* The compare stage's part: where the wrong elements are all of the rows
 * from R and the columns from C (at least 9 in 10 of each such row and
 * column, none elsewhere): corner = {R, C}, else {-1, -1}. bad[i] is 1
 * where element i is wrong. */
void launches_unwritten_corner(const gl_matrix *got, const unsigned char *bad, int corner[2]);
/* Whether the wrong elements of got are (nearly) all of the first head[0]
 * rows or the first head[1] columns and none else, short of the whole
 * output (a test that keeps out the top or left edge): head, else -1s. */
void launches_unwritten_head(const gl_matrix *got, const unsigned char *bad, int head[2]);
/* The width b of a frame the wrong elements make (nine in ten or more of
 * the elements within b rows or columns of any edge, and none inside it:
 * a store's test that keeps out the output's border), where the output is
 * more than 2b wide and high; else 0. */
int launches_unwritten_frame(const gl_matrix *got, const unsigned char *bad);

/* The copy's sentence, at its line (student_file quoted), or NULL. */
char *launches_copy_sentence(const copy_record *c, const char *student_file);

/* A tiled matrix product's launch whose grid and block look swapped: the
 * block is the grid that out (rows x cols) needs for the kernel's T x T
 * tiles (2 T^2 floats of shared memory) and the grid is T x T. The
 * sentence, or NULL. */
char *launches_swapped(const launch_shape *l, const int out[2], const char *student_file);

/* The CUDA limit l's configuration breaks, as a sentence at its line
 * ("the launch at line 52 (`...`) asks for blocks of 36 x 36 = 1296
 * threads: at most 1024 a block"), or NULL when it breaks none. The limits
 * are those of every card since compute capability 3.0: 1024 threads a
 * block, 1024 in x and y and 64 in z, 65535 blocks in y and z, and no
 * dimension 0. A block too large whose side a #define or a constant
 * gives is said from that definition's line, with its fix (*at_definition
 * 1: nothing at the launch needs changing). */
char *launches_limit(const launch_shape *l, const char *student_file, int *at_definition);

/* A block flat in y (N x 1 threads) for a kernel that reads threadIdx.y,
 * which such a block always has 0: the sentence at the block's dim3 line,
 * or NULL. */
char *launches_flat_block(const launch_shape *l, const char *student_file);

/* Whether l, launched for an output of out (rows x cols), would fit its
 * kernel's T x T tiles with its grid and block swapped: the grid is T x T
 * and the block the grid out needs. A swap is said only where this holds
 * on every dataset whose launch the kit saw: 8 x 8 tiles in 16 x 16 blocks
 * fit it on one width only, by coincidence. */
int launches_swap_fits(const launch_shape *l, const int out[2]);

/* The output tile one block of l computes: matmul (image 0): the tile of
 * its shared memory or its block, whichever is wider; image: as the
 * global_reuse requirement takes it (counts_image_tile), halo h. */
void launches_block_tile(const launch_shape *l, int image, int h, int tile[2]);

/* A grid that covers only the top-left rows x cols of out, where the wrong
 * elements (corner, from the compare stage) are exactly the rest: the
 * sentence naming the tiles never launched and the launch's line, or NULL. */
char *launches_uncovered(const launch_shape *l, const int out[2], int image, int h, const int corner[2],
                         const char *student_file);

/* A grid counted in threads where it counts blocks: in x or y, as many
 * blocks as the output has columns or rows, with blocks that cover more
 * than one each (`dim3 dimGrid(width, width)`): the sentence at the grid's
 * dim3 line, or NULL. */
char *launches_counted_in_threads(const launch_shape *l, const int out[2], int image, int h,
                                  const char *student_file);

/* A matrix kernel's block wider (or taller) than the square tiles its
 * shared memory holds (two of t x t floats), and no larger in the other
 * direction (32 x 8 threads for 16 x 16 tiles): its threads fill and
 * read the tiles at their place in the block, so some fall outside and
 * some of each tile is filled by none. Said at the block's dim3 line;
 * NULL when the block fits the tiles. */
char *launches_block_unlike_tiles(const launch_shape *l, const char *student_file);
/* A matrix lab's grid with whole blocks past the output (more blocks in x
 * or y than its tiles need), said where a run went past an array's end:
 * the sentence at the grid's dim3 line, or NULL. */
char *launches_oversized(const launch_shape *l, const int out[2], const char *student_file);

/* Whether l's grid reaches every element of out (rows x cols). */
int launches_cover(const launch_shape *l, const int out[2], int image, int h);

#endif
