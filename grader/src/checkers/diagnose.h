/*
 * diagnose.h - failure analysis: from the pattern of a wrong output, one
 * sentence that says where to look (never what the fix is).
 *
 * Called by the compare stage while the output and the reference are both in
 * memory. Patterns, most telling first: nothing written; some elements never
 * written, and where; NaN; every element scaled by one factor; the transpose
 * of the answer; all zeros; errors only in the last partial tile or only past
 * a multiple of a tile width.
 */
#ifndef GPULAB_DIAGNOSE_H
#define GPULAB_DIAGNOSE_H

#include "../runtime/dataset.h"
#include "errormap.h"
#include "result.h"

/* bad[i] is 1 where element i is outside its tolerance. Returns a malloc'd
 * sentence, or NULL when no pattern stands out. tiled: the lab's kernels
 * keep shared tiles (lab.json's "tiles"), so a tile slot and a barrier are
 * places a NaN can come from; 0 for a lab without them (lab 01). */
char *diagnose_output(const gl_matrix *got, const gl_reference *want, const unsigned char *bad,
                      const compare_result *r, int tiled);

/* Across datasets: a sentence when a lab fails exactly on the datasets larger
 * than one tile (a synchronisation or phase-loop mistake), else NULL.
 * sizes[i] is dataset i's largest dimension; failed[i] whether it failed. */
/* Where a mask mistake's sentence (flipped, transposed) sends the student:
 * the phrase its sentence ends in, after which the grader adds the line
 * that reads the mask when the source shows one (grade.c). */
#define DIAGNOSE_MASK_WHERE "in the sum"
/* The labels (compare_result.mistake) of the sum's mistakes the source can
 * place, and the words of their sentences a line is added after. */
#define DIAGNOSE_SUM_RESET "the sum reset in every phase"
#define DIAGNOSE_SUM_RESET_WHERE "look at where the accumulator is set to 0"
/* the words of MM_ONLY_LAST_PHASE's sentence from which grade.c's
 * sum_after_loop() says where the sum is instead */
#define DIAGNOSE_SUM_RESET_SENTENCE "the sum starts again in"
/* A convolution's sum set to 0 again at each pass of the loop over the
 * mask's rows (or columns, the loops the other way round): only the last
 * row's (column's) terms remain. Placed as DIAGNOSE_SUM_RESET is. */
#define DIAGNOSE_SUM_RESET_ROW "the sum reset for each mask row"
#define DIAGNOSE_SUM_RESET_COLUMN "the sum reset for each mask column"
/* An accumulator never set back to 0 between outputs (channels, columns,
 * rows): each is the running sum of the right ones. grade.c adds the line
 * that sets it to 0 (source_accumulator_start) after DIAGNOSE_SUM_RESET_WHERE. */
#define DIAGNOSE_SUM_CARRIED "the sum carried from one output to the next"
#define DIAGNOSE_TERM_SKIPPED "one term of each phase left out"
#define DIAGNOSE_TERM_SKIPPED_WHERE "look at the bound of the loop over the tile"
/* A sum kept in an integer (each += truncated toward 0): the line that
 * declares the accumulator, where the source shows it an integer; where
 * every such sum is 0 (_ZERO), the numbers cannot tell it from a sum never
 * accumulated, and the grader keeps it only where the source shows one. */
/* The whole dot product a term short (no tiles): its first term (the loop
 * from 1) or its last (one short of its bound); grade.c adds the summing
 * loop's line (source_accumulator) after DIAGNOSE_TERM_MISSING_WHERE. */
#define DIAGNOSE_FIRST_TERM_MISSING "the first term of each sum left out"
#define DIAGNOSE_LAST_TERM_MISSING "the last term of each sum left out"
#define DIAGNOSE_TERM_MISSING_WHERE "look at the start and the bound of the loop that sums"
#define DIAGNOSE_INT_SUM "the sum kept in an integer"
#define DIAGNOSE_INT_SUM_ZERO "the sum kept in an integer, every one 0"
#define DIAGNOSE_INT_SUM_WHERE "look at the type the accumulator is declared with"
/* A tile of M or N transposed: the numbers cannot tell a store from a
 * read; where every tile slot held the element of its own place
 * (tiles_in_place), the grader
 * says the read in the sum instead (DIAGNOSE_TILE_READ_TRANSPOSED, then
 * the tile's name and the sum's line). */
#define DIAGNOSE_TILE_STORED_TRANSPOSED \
    "stored transposed in shared memory: look at the row and column indices (tx and ty) where the kernel stores "
#define DIAGNOSE_TILE_READ_TRANSPOSED \
    "read transposed from shared memory (the shared tiles held the right elements, so their stores are right): " \
    "look at the row and column indices where the sum reads "
/* An input read with the output's row for its column (or column for its
 * row; in a kernel without tiles, M read transposed, M(k, Row), is one):
 * the read's index, in an untiled kernel the sum's line. */
#define DIAGNOSE_INDEX_SWAP "an input read at the other index of the output"
#define DIAGNOSE_INDEX_SWAP_WHERE "look at the indices of that read in the sum"
/* One input copied into both buffers (M x M, N x N): the copy to the
 * device whose source is the other buffer's. */
#define DIAGNOSE_M_TWICE "M copied where N belongs"
#define DIAGNOSE_N_TWICE "N copied where M belongs"
#define DIAGNOSE_COPY_WHERE "look at the copies to the device"

/* A sum assigned where it should be added to (`Pvalue = ...` for `+=`):
 * every element the last term alone; grade.c adds the line that assigns
 * a product to a plain variable inside a loop (source_assigned_sum). */
#define DIAGNOSE_SUM_ASSIGNED "the sum assigned, not added to"
#define DIAGNOSE_SUM_ASSIGNED_WHERE "look at the assignment"
/* The input window read at offsets that repeat one mask index: the sum's
 * line. */
/* The loops over the mask cover part of it (a start or a bound of the
 * loop over its columns, or its rows): placed at that loop's line, the
 * innermost loop around the sum for the columns, the one around it for
 * the rows (source_sum_loop). */
#define DIAGNOSE_MASK_PART_COLUMNS "the loop over the mask's columns covers part of it"
#define DIAGNOSE_MASK_PART_ROWS "the loop over the mask's rows covers part of it"
#define DIAGNOSE_MASK_PART_WHERE "look at the start and the bound of the loop"
/* Only the first values of the mask reached constant memory: whole rows
 * of it are what a loop over the rows that stops early gives as well,
 * said after the copy with DIAGNOSE_MASK_PART_WHERE. */
#define DIAGNOSE_MASK_PART_COPIED "mask only partly copied"
#define DIAGNOSE_WINDOW "the input window read at the wrong offsets"
#define DIAGNOSE_WINDOW_WHERE "look at the indices of the input's read in the sum"
/* The output stored transposed: the kernel's store into its output
 * parameter (source_output_store_line). */
/* every phase loading the first tile of M (or N): the load of that input */
#define DIAGNOSE_SAME_TILE_M "the same tile of M in every phase"
#define DIAGNOSE_SAME_TILE_N "the same tile of N in every phase"
#define DIAGNOSE_SAME_TILE_WHERE "look at the phase index in the load of"
/* every value right but stored a few rows or columns off its place */
#define DIAGNOSE_OUTPUT_SHIFTED "the output shifted"
#define DIAGNOSE_OUTPUT_SHIFTED_WHERE "look at the row and column the store of the output uses"
#define DIAGNOSE_OUTPUT_TRANSPOSED "the output stored transposed"
#define DIAGNOSE_OUTPUT_TRANSPOSED_WHERE "look at the index of the store of the output"
#define DIAGNOSE_SUM_OFFSET "the sum started from another value than 0"
#define DIAGNOSE_BLOCKS_TRANSPOSED "the output's blocks stored in each other's places"
#define DIAGNOSE_BLOCKS_TRANSPOSED_WHERE "look at the block offsets in the index of the store of the output"
#define DIAGNOSE_OUTPUT_CLAMPED "the output cut to a range"
#define DIAGNOSE_SIGN_WHERE "look at how the terms go into the sum"
#define DIAGNOSE_SUM_NEGATED "the sum negated"
#define DIAGNOSE_OUTPUT_CLAMPED_WHERE "look at what is done to the sum before it is stored"
/* the wrong elements exactly the gaps between runs of rows or columns
 * (tiles written run wide, starting step apart) */
#define DIAGNOSE_GAPS "tiles further apart than they are wide"
#define DIAGNOSE_GAPS_WHERE "look at the block's step in the output's index"
/* Whether the wrong elements (bad) are exactly the rows past the first
 * run[0] of every step[0] rows, or the columns past the first run[1] of
 * every step[1], or both: the outputs are written in tiles that start
 * further apart than they are wide. A side without gaps has step 0; each
 * side with them shows two gaps at least, runs of two at least, and every
 * element of a gap holds what nothing wrote (NaN, the harness's mark, or
 * 0). 1 and the sentence into *text
 * (malloc'd), or 0. */
int diagnose_gaps(const gl_matrix *got, const unsigned char *bad, int step[2], int run[2], char **text);
/* every wrong element the right value rounded to a whole number */
#define DIAGNOSE_OUTPUT_ROUNDED "the output rounded to whole numbers"
#define DIAGNOSE_OUTPUT_ROUNDED_WHERE "look at what makes the sum a whole number before it is stored"

/* The advice that ends the "never written" sentence, which the grader
 * replaces where the run's launch covers the whole output (grade.c): then
 * the grid is not what left them unwritten. */
#define DIAGNOSE_GRID_ADVICE "check that the grid covers the whole output (round the block count up)"

/* The sentence for an output of zeros only (a tiled kernel's names its
 * loop over phases, an untiled one's the dot product's loop). */
const char *diagnose_all_zero(int tiled);

/* With the dataset's inputs (DIR/input0.*, DIR/input1.*): a sentence when
 * the wrong elements are (nearly all) exactly what a known mistake computes
 * from those inputs, else NULL. Matrix products (input0 j x k, input1 k x l,
 * output j x l): a tile of M or N stored transposed; every phase loading the
 * same tile of M or N; the terms of a partial last phase left out; for tiles
 * of 16, 32 or 8. Convolutions (input0 an image the output's shape, input1 an
 * odd square mask): the mask flipped; the mask transposed; only the first
 * values of the mask copied; every channel computed from channel 0. Checks a
 * sample of at most 2048 wrong elements; says how many of them the
 * hypothesis reproduces. tiled: the lab keeps shared tiles (lab.json's
 * "tiles"); 0 for a lab without them (lab 01), whose hypotheses are only
 * those of no tile and no phase, and whose sentences name neither (an
 * input read transposed is the read in the sum: DIAGNOSE_INDEX_SWAP).
 * *label: the mistake in a few words ("mask flipped"), a static string,
 * or NULL with the sentence. */
char *diagnose_inputs(const char *dataset_dir, const gl_matrix *got, const gl_reference *want,
                      const unsigned char *bad, const compare_result *r, int tiled, const char **label);

/* Reads DIR/NAME.raw, .ppm or .pgm, whichever exists (a dataset's input:
 * NAME "input0"); 0 on success. */
int diagnose_read_input(const char *dir, const char *name, gl_matrix *m);

/* Every dataset larger than tile failing and every smaller one passing:
 * for a tiled matrix lab, what happens between phases; for a tiled image
 * lab (image 1: no phases), a block's offset past the first; for one
 * without tiles (tiled 0), what changes past the first block. NULL when
 * not so. */
char *diagnose_across_datasets(const int *sizes, const int *failed, int n, int tile, int tiled, int image);

/* Patterns across the datasets' kinds of input (square[i]: all of its sizes
 * equal; elements[i]: its output's elements; image: an image lab, else a
 * matrix product; tiled: the lab has tiles, else its sentences name none):
 * only the 1 x 1 dataset passes; every square dataset passes and every
 * ragged one fails. NULL otherwise. */
char *diagnose_across_kinds(const int *square, const double *elements, const int *failed, int n, int image,
                            int tiled);

/* A tiled matrix product whose blocks are smaller than its tiles: the kernel
 * with the most shared memory keeps two square tiles of floats in it
 * (shared_bytes = 2 x T x T x 4) but runs in blocks of bx x by threads, fewer
 * than T x T, so each thread's one load per tile leaves most of every tile
 * unstored. The sentence, or NULL when the sizes do not say so. */
char *diagnose_block_smaller_than_tiles(long shared_bytes, unsigned bx, unsigned by, const char *kernel);

/* The padding of a pitched output (errormap.h): when some padding float
 * changed, a sentence that starts "in padding: N of M padding floats
 * changed, rows a..b" and says which floats of a row and how wide the image
 * part of a row is (row_floats); NULL when none changed. */
char *diagnose_padding(const errormap_padding *p, int row_floats);

/* The threads of a launch that made invalid accesses (errormap.h, after
 * fault_threads_finish): a sentence that says how many, in which blocks and
 * which threads of a block ("the threads in rows 9 to 15 (threadIdx.y =
 * 9..15) of every block"), and, when the checker stopped early or did not
 * give the launch's size, that too; NULL when there are none. */
char *diagnose_faults(const fault_threads *f);

/* The same for the threads racecheck names in its hazards (the race map). */
char *diagnose_races(const fault_threads *f);

#endif
