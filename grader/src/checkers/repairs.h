/*
 * repairs.h - the repair search's evidence ranked and said (the search
 * itself, which runs the candidates, is grader/src/pipeline/repair.c).
 * Nothing here runs anything: it takes the candidate edits that made the
 * wrong datasets right and picks the one to name, and words it.
 */
#ifndef GPULAB_REPAIRS_H
#define GPULAB_REPAIRS_H

#include <stddef.h>

/* One candidate single edit of the student's source, as emucc --schemata
 * listed it, and what running it showed. */
typedef struct {
    int id, line;
    char kind[32];
    char from[128], to[128], context[256];
    int at;                 /* where in context the edit starts (-1: not known) */
    int screened_right;     /* the screened datasets came out right with it */
    int screened_datasets;  /* how many of the failing datasets, smallest first, it was screened right on */
    size_t fixed, broken;   /* of that dataset's elements: wrong as written and right with it, and the reverse */
    int datasets_right;     /* confirmed: datasets right with it (of all run) */
    int confirmed;          /* run on every dataset (datasets_right is its count) */
    int pointed;            /* a finding or a wrong output points at its line */
    int foreign;            /* it brings in a built-in the file reads nowhere (`gridDim` in a file without it) */
    int freed_foreign;      /* a cudaFree dropped whose buffer no allocation of the file made (the caller's) */
    int hands_device;       /* a statement dropped that hands a cudaMalloc's buffer on (`img.data = d_in;`) */
    char unfreed[64];       /* then, a name the file allocates and never frees (the one meant), or "" */
    int weak_line;          /* a barrier added beside a weaker one's statement (a fence, __syncwarp): its line, or 0 */
    char weak_text[128];    /* then that statement, as written */
} repair_candidate;

/* Orders candidates for confirming and naming: an edit of a pattern no
 * correct file writes (kind `coordinates`) first, then those the evidence
 * points at, then those that bring in no built-in the file never reads
 * (`gridDim.y` for `blockDim.y` can make an index right by another
 * mapping than the one the file means), then the smallest edit, then the
 * earlier line. */
int repairs_compare(const repair_candidate *a, const repair_candidate *b);
/* Whether the evidence tells a and b apart: not when repairs_compare's
 * kinds and flags are the same and the edits are the same size (their
 * lines alone differ). */
int repairs_tie(const repair_candidate *a, const repair_candidate *b);
/* How much the statement around an edit agrees with its new text: the
 * times the word it brings in is written there, less the other times the
 * word it takes out is (`threadIdx.y` to `threadIdx.x` in `Col =
 * blockIdx.x * blockDim.x + threadIdx.y`: 2). 0 for an edit that is not
 * one word for another. */
int repairs_agreement(const repair_candidate *c);
/* The same, one level finer, for a tie repairs_agreement leaves: the parts
 * of the words (split at underscores and case changes) the edit brings in
 * or takes out, counted in the statement's other names (`&in_pitch_bytes`
 * to `&out_pitch_bytes` in `cudaMallocPitch(&d_out, &in_pitch_bytes, w,
 * out->height)`: 2, the same edit beside `&d_in` and `in->height`: -2). */
int repairs_part_agreement(const repair_candidate *c);
/* Whether c's edit makes its statement, blanks aside, one the lab's
 * reference solution writes (within one of its lines): of two edits of
 * one line that both mend every dataset, the one that writes what the
 * reference writes says the mistake; the other makes up for it. */
int repairs_writes_reference_line(const repair_candidate *c, const char *reference);
/* The last tie-break, where the words tell two repairs at two lines no
 * apart: 1 where the line the edit is at departs from the lab's reference
 * solution (blanks aside): no line of the two files' longest common
 * sequence of lines, so either the reference has no such line or the file
 * writes it in another line's place (a second `cudaFree(d_in);` where the
 * reference frees d_out); 0 where the reference has that very line in
 * that order (`numPhases = (k + TILE_WIDTH - 1) / TILE_WIDTH;`): an edit
 * there makes up for a mistake elsewhere. 1 where either file cannot be
 * read, or the line is too short to tell. */
int repairs_reference_departure(const repair_candidate *c, const char *student_file, const char *reference);
/* Sets each candidate's foreign flag from the student's source text (its
 * comments and strings count as written: a built-in named only there is
 * still not foreign, the safe side), and freed_foreign, for a cudaFree
 * taken out whose argument's address the file never takes, and weak_line,
 * for a __syncthreads() added where the next statement of code (the one
 * before, for one added before) is a weaker barrier: comments and blank
 * lines between the two do not part them. */
void repairs_mark_foreign(repair_candidate *c, int n, const char *source);
/* Takes out of c[0..n) each edit that makes a launch's grid its block
 * (`<<<dimGrid, dimBlock>>>` made `<<<dimBlock, dimBlock>>>`, or the two
 * exchanged, `<<<dimBlock, dimGrid>>>`, with the block's slot made
 * dimBlock: the exchange mends it): a grid of
 * as many blocks as a block has threads covers every public dataset of a
 * lab by the sizes' chance, never by the count the grid needs. The count
 * left. */
int repairs_drop_grid_as_block(repair_candidate *c, int n, const char *source);
/* Sorts c[0..n) with repairs_compare(). */
void repairs_sort(repair_candidate *c, int n);

/* The candidate that mends most of a dataset's wrong elements without
 * breaking any right one: at least REPAIRS_PARTIAL_SHARE of wrong, and
 * more than any other by a clear margin; -1 when none does. */
#define REPAIRS_PARTIAL_SHARE 0.5
int repairs_best_partial(const repair_candidate *c, int n, size_t wrong);

/* The fix-this-first sentence of a repair (malloc'd). full: every one of
 * ndatasets came out right with it; else fixed of the wrong elements of
 * dataset did, none broken. also: a second full repair at another line,
 * or NULL. */
char *repairs_sentence(const repair_candidate *c, int full, int ndatasets, const char *dataset, size_t wrong,
                       const repair_candidate *also);

#endif
