/*
 * tiles.h - what a kernel's shared tiles held, against what the lab's tiling
 * puts there: the tile contents check.
 *
 * The emulator's checked build (emucc --race) writes, for a few blocks and
 * their first rounds that store into a shared array, the slots each round
 * stored, their values and the lines that stored them, as "tile" lines of
 * its launch log (docs/emulator.md). With the dataset's inputs and the
 * lab's "tiles" (lab.json, docs/formats.md), a slot that holds an element
 * the lab's tiling puts nowhere near it names the load to look at: "after
 * the __syncthreads() at line 47, block (1, 0)'s ds_N[0][1] holds N(1, 0),
 * but the phase-0 tile puts N(0, 17) there: look at the load at line 42".
 *
 * A tile that holds what the lab's tiling puts there in some phase, in its
 * own layout or transposed, is never blamed: other tile sizes, flat
 * arrays, transposed-but-consistent tiles and the loads of a different
 * design pass. The grader asks only about a dataset whose output was wrong
 * (grade.c): a right output is never explained by its tiles.
 *
 * The values come from the student's own process (the launch log), as the
 * counts do: they can explain a wrong output, never earn or cost a point.
 */
#ifndef GPULAB_TILES_H
#define GPULAB_TILES_H

#include "manifest.h"

#include <stdint.h>

#define TILE_WRITERS_MAX 8
#define TILE_SLOT_FIELDS 5
#define TILE_TEST_FIELDS 7
#define TILE_NO_SOURCE 4294967295u

/* A thread's last outcome of a test (an if's, for's or while's condition
 * in the kernel) in the round, with the comparison that decided it. */
typedef struct {
    long thread;
    int line, result;
    int op;             /* 0 <, 1 <=, 2 >, 3 >=, 4 ==, 5 !=; -1: no comparison's values */
    int operand;        /* which operand of the condition's && and || it was */
    double a, b;        /* the two values it compared */
} tile_test;

/* One shared array of one block at the end of one round (a barrier that
 * every thread reached): the slots the round stored into. */
typedef struct {
    char kernel[128];
    long block[3];
    char barrier_file[256];
    int barrier_line;
    char array[64];
    int rank;           /* 1 or 2 */
    long d0, d1;        /* its dimensions (d1: 0 for one dimension) */
    int phase;          /* which of the block's rounds storing into it: 0 the first */
    long threads[3];    /* the launch's block (0: not in the line) */
    int nwriters;
    char writer_file[TILE_WRITERS_MAX][256];
    int writer_line[TILE_WRITERS_MAX];
    int writer_load[TILE_WRITERS_MAX]; /* the line read the value from global memory (else it stored it) */
    int nslots;
    /* TILE_SLOT_FIELDS per slot: its index in the array, its value's bits,
     * its writer, the byte offset in its device allocation of the element
     * the writer read (TILE_NO_SOURCE: it stored a value it did not read
     * there), and the thread (its index in the block) that stored it */
    uint32_t *slots;
    int nunset;
    uint32_t *unset;    /* the indices of the slots no thread of the block had stored into by then */
    int ntests;
    tile_test *tests;   /* the round's tests: each thread's last outcome of each test line */
} tile_snapshot;

/* A block whose tiles are kept, at its end (the launch log's "block_end"
 * line): each thread's stores into device memory, and its last outcome of
 * each test line in the block's run. */
typedef struct {
    char kernel[128];
    long block[3];
    long threads[3];    /* the launch's block */
    long nthreads;
    unsigned *stores;   /* per thread: its stores into device memory */
    int ntests;
    tile_test *tests;
} tile_block_end;

typedef struct {
    int n;
    tile_snapshot *s;
    int nends;
    tile_block_end *ends;
} tile_snapshots;

/* The words a tile sentence ends in when the launch's block does not fit
 * the tile: the grader adds the launch's line after them (grade.c). */
#define TILES_BLOCK_WHERE "look at the block's size at the launch"

/* Adds the "tile" and "block_end" lines of a checker run's launch log to
 * t; a missing file or a line that is not one adds nothing. */
void tiles_read_emu_log(const char *path, tile_snapshots *t);
void tiles_free(tile_snapshots *t);

typedef enum {
    TILES_UNCHECKED,    /* no snapshot the lab's tiles describe, or no "tiles" in lab.json */
    TILES_RIGHT,        /* every slot of every snapshot checked holds what the tiling puts there */
    TILES_WRONG,        /* *sentence says which slot, what it holds and the line that stored it, or which
                           slot no store covered because its threads' branch stored into another array */
    TILES_UNSET         /* *sentence says which slot no store covered before the barrier (the output has NaN) */
} tiles_verdict;

/* Judges the snapshots of one dataset's run against m's "tiles", with the
 * dataset's inputs (dataset_dir/INPUT.raw, .ppm or .pgm); student_file:
 * the student's source, to quote its lines. output_nan: the dataset's
 * output holds NaN or infinite values; then a slot no thread stored into
 * before the barrier (it held the emulator's NaN) is named too, when no
 * slot holds a wrong element. *sentence: malloc'd, for TILES_WRONG and
 * TILES_UNSET only; *by_test: 1 when it names the test whose outcome
 * decided (the run's tests, tiles.h), the most specific kind. */
tiles_verdict tiles_judge(const lab_manifest *m, const tile_snapshots *t, const char *dataset_dir,
                          const char *student_file, int output_nan, char **sentence, int *by_test);

/* Whether every slot of every snapshot the lab's tiles describe held, at
 * its barrier, exactly the element the tiling puts at that very slot in
 * that round (not transposed, not another phase's): the stores are right,
 * whatever the output says. 0 when none could be checked. */
int tiles_in_place(const lab_manifest *m, const tile_snapshots *t, const char *dataset_dir);

#endif
