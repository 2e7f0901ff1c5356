/*
 * guards.h - the test that let an invalid access through, judged on its
 * own bounds: the clause that admitted the value at its bound, or, where
 * the test keeps every thread inside the array, the index past it.
 */
#ifndef GPULAB_GUARDS_H
#define GPULAB_GUARDS_H

#include "tiles.h"

/* The emulator's " (let through by the test at line N, ...)" after an
 * invalid access at line `access` of the student's file (tiles.c,
 * tiles_guard_words) is cut from msg and said in the student's words, to
 * go before ", so the access at ... makes a ...": "the test at line 28
 * (`...`) let this thread through at its bound: ...", or "the index of the
 * access at line 60 multiplies nRow by k, ..."; NULL when msg has none. */
char *guards_words(char *msg, const char *student, int access);

/* For an invalid access that no test let through (the thread passed no
 * test before it): an `if` just before it that bounds its index's names
 * and whose body ends before it, said as what is wrong ("the access at
 * line 32 is outside the test at line 28 (`...`), whose body ends at line
 * 31, ..."); NULL when there is none. */
char *guards_outside_test(const char *student, int access);

/* An output never stored in a region, columns (column 1) or rows from
 * `from` to `total` - 1 of the dataset, where `from` is the value of the
 * dataset's size `size` (height) and `total` that of `right_size` (width):
 * the kernel's test before a store that bounds a column (a row) by `size`
 * is what skipped them, said with its line; NULL where the source shows
 * no such test. */
char *guards_unstored_region(const char *student, const char *dataset, int column, int from, int total,
                             const char *size, const char *right_size);

/* An output whose elements from row r0 or column c0 on (the corner the
 * compare found; both 0: nothing stored at all) of rows x cols were never
 * stored on dataset: the test before a store into global memory that was
 * false for the threads of a kept block that stored nothing, where its
 * bound is exactly where the unstored region starts (or a loop that never
 * ran its body, when nothing was stored), said with its line, its values
 * and the store's line (t's block ends, from the checkers' run of that
 * dataset); NULL where the evidence shows none. Or, with r0 and c0 -1,
 * the first r1 rows or c1 columns never stored (the top or left edge): a
 * lower bound (`col_i >= 0`) false for those threads, their values within
 * that many of it. Or, with all four given (r0 = rows - r1, c0 = cols -
 * c1), a frame r1 wide never stored (the border kept out): a lower bound
 * false so, in a test that keeps the output's border from the store. */
char *guards_kept_from_store(const tile_snapshots *t, const char *student, const char *dataset, int rows, int cols,
                             int r0, int c0, int r1, int c1);

/* The access at line `access` reads through a base the loop around it moves
 * (`in.data += k;`): the words, or NULL (malloc'd). */
char *guards_base_stepped_words(const char *student, int access);

#endif
