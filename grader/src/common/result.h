/*
 * result.h - what grading a submission produces: one result per dataset and
 * a total. Filled by grade.c from the build, run and compare stages, printed
 * by report.c.
 */
#ifndef GPULAB_RESULT_H
#define GPULAB_RESULT_H

#include <stddef.h>
#include "stages.h"

struct sanitize_result_s;

/* One status per outcome. Only ST_PASS earns points. */
typedef enum {
    ST_PASS,
    ST_WRONG,
    ST_COMPILE_ERROR,
    ST_TIMEOUT,
    ST_CRASH,
    ST_CUDA_ERROR,
    ST_NO_OUTPUT,
    ST_GRADER_ERROR,
    ST_REQUIREMENT_FAILED,  /* a requirement (requirements.c) is not met */
    ST_UNSAFE,              /* right output, but a checker found a hazard: right by luck */
    ST_REFUSED,             /* the submission was not graded: a link, not a file (batch.c) */
    ST_NOT_CHECKED,         /* a requirement this run could not judge (--no-sanitize): its points
                               stay in the maximum, unearned */
    ST_COUNT
} status_t;

const char *status_name(status_t s);

#define WORST_MAX 5
#define THUMB_ROWS 32   /* 16 lines of half blocks */
#define THUMB_COLS 64

typedef struct {
    int row, col, channel;
    double got, expected, tolerance;
    int poisoned;       /* the element still holds the harness's poison */
} mismatch;

typedef struct {
    int compared;                   /* 0: no comparison happened */
    int shape_ok;
    int got_shape[3], want_shape[3];
    size_t elements, mismatches;
    size_t nonfinite;               /* NaN or Inf written by the program */
    size_t poisoned;                /* never written */
    double max_abs_err, max_rel_err;
    double worst_ratio;             /* max over elements of error / tolerance (finite ones) */
    int nworst;
    mismatch worst[WORST_MAX];      /* largest error relative to tolerance first */
    int unwritten_from[2];          /* the wrong elements are (nearly) all of rows >= [0] and columns
                                       >= [1] and none else (a grid too small), else -1s (launches.c) */
    int unwritten_to[2];            /* ... or all of rows < [0] or columns < [1] and none else (the top
                                       or left edge kept out), else -1s */
    int unwritten_frame;            /* ... or all within this many rows or columns of any edge and none
                                       inside (the border kept out), else 0 */
    int gap_step[2], gap_run[2];    /* ... or exactly the rows ([0]) and columns ([1]) past the first
                                       run of every step (diagnose_gaps: tiles that start further
                                       apart than they are wide), a step 0 where that side has none */
    char hint[2048];                /* where to look, from the pattern of errors (diagnose.c), or "";
                                       room for every sentence the kit joins (never cut mid-sentence) */
    int hint_named;                 /* the hint names a mistake that the dataset's inputs reproduce
                                       (diagnose_inputs): the most specific kind of hint */
    char mistake[64];               /* that mistake in a few words ("mask flipped"), else "" */
    char error_map[512];            /* the error map's path (image labs), or "" */
    size_t padding_floats;          /* a pitched output (lab 05): its padding floats, else 0 */
    size_t padding_changed;         /* those that no longer hold the guard bits (compare.c) */
    /* A small copy of the error map's image for the text report on a
     * terminal (errormap_thumbnail): thumb_rows x thumb_cols RGB pixels,
     * 0 x 0 when no map was drawn. */
    int thumb_rows, thumb_cols;
    unsigned char thumb[THUMB_ROWS * THUMB_COLS * 3];
    double diagnose_s, map_s;       /* what this comparison's diagnosis and map took (stages.h) */
} compare_result;

/* The student's kernel launch in one run, as the emulator's launch log
 * records it (launches.c): where it is and its shape. */
typedef struct {
    int known;              /* a launch at a line of the student's file was logged */
    int line;               /* that line */
    char kernel[128];
    unsigned grid[3], block[3];
    long shared_bytes;      /* static and dynamic shared memory */
} launch_shape;

/* The first of the student's copies in one run whose pitch or width
 * disagrees with the buffer it reads or writes, as the emulator logged it
 * (docs/emulator.md, "copy"). */
typedef struct {
    int known;
    int line;               /* the copy's line in the student's file */
    char call[16];          /* cudaMemcpy2D, cudaMemcpy */
    char what[16];          /* host_pitch, device_pitch, host_width, device_width, pitched_1d, short_into,
                               short_back, pitches_swapped, extent_swapped */
    char argument[8];       /* spitch, dpitch, width, count */
    unsigned long long given, expected, row_bytes;
    char name[64];          /* the host image's name ("in->data"), or "" */
} copy_record;

typedef struct {
    const char *name;
    status_t status;
    double points, max_points;
    char *message;          /* one line for people */
    compare_result cmp;
    launch_shape launch;    /* the run's launch (emulator), else the checkers' run's */
    copy_record copy;       /* the same for a copy that disagrees with its buffer */
    double wall_s;          /* the program's wall time, as the grader measured it */
    double call_ms;         /* the harness's time for the call, -1 if none (untrusted, informational) */
    char *program_stdout;   /* capped; the student's prints and the harness's lines */
    char *program_stderr;
    struct sanitize_result_s *sanitizer;  /* the sanitizer stage's findings, or NULL if it did not run here */
} dataset_result;

typedef struct {
    const char *name;
    status_t status;        /* ST_PASS, ST_REQUIREMENT_FAILED, ST_NOT_CHECKED (the checkers did not
                               run, or counted nothing), or ST_COMPILE_ERROR when nothing built */
    double points, max_points;
    char *message;
    int consequential;      /* failed only because no dataset passed ("not earned"): a consequence, not a cause */
} requirement_result;

/* What a program's kernels read and wrote, counted by the emulator's
 * checked build (emucc --race) in one run of a dataset: every access its
 * instrumentation sees (docs/emulator.md, "counts"); counts.c reads them. */
typedef struct {
    int known;              /* a launch with counts was in the run's log */
    int launches;
    unsigned long long global_loads, global_load_bytes, global_stores, global_store_bytes;
    unsigned long long shared_loads, shared_load_bytes, shared_stores, shared_store_bytes;
    unsigned long long threads;   /* the launches' CUDA threads */
    /* the launch that read the most global memory */
    char kernel[128];
    unsigned block[3];
    long shared_bytes;      /* its static and dynamic shared memory */
    unsigned long long kernel_load_bytes; /* its global reads */
    char line_file[256];    /* the line of it that read global memory most, as the build named it */
    int line;
    unsigned long long line_loads;
    /* its lines that read global memory most, each with the size of the
     * allocation it read (the line above: the first) */
    struct { char file[256]; int line; unsigned long long loads, buffer_bytes; } lines[6];
    int nlines;
    /* every launch's global reads by the size of the allocation read, when
     * the log says (buffers_known): what counts_summarise tells apart */
    struct { unsigned long long buffer_bytes, loads, load_bytes; } buffers[8];
    int nbuffers, buffers_known;
} access_counts;

/* The counts of the dataset the report quotes (counts_summarise), with the
 * lab's unit of work and what the tiling the kernel declares should read. */
typedef struct {
    int known;
    const char *dataset;
    int passed;             /* that dataset passed */
    access_counts c;
    int matmul;             /* the unit: 1 a multiply-add (matmul labs), 0 an output value (image labs) */
    double work;            /* multiply-adds, or output values */
    double reads;           /* global reads in floats (bytes / 4) */
    double naive;           /* what lab 01's kernel, or a convolution without tiles, reads (floats) */
    int tile[2];            /* the tile the launch declares: matmul T x T, image the output tile; 0s: none */
    double expected;        /* what a kernel tiled so reads (floats); 0 without a tile */
    double other_reads;     /* global reads (floats) of buffers smaller than the tiled data (a mask),
                               left out of reads: not what the tiles are for */
    double channels;        /* the dataset's channels (image labs), 1 otherwise */
} access_summary;

/* The repair search (pipeline/repair.h): the one candidate edit of the
 * student's source that made the wrong datasets right, as emucc's schemata
 * build listed it, and what it made right. */
typedef struct {
    int ran;                /* the search ran: the schemata build was made and its candidates read */
    int found;              /* 0: none; REPAIR_FULL: every dataset right with it; REPAIR_PARTIAL: most
                               of the wrong elements of one dataset right, none broken */
    int line;               /* the edit's line in the student's file */
    char kind[32];          /* emucc's name for the kind of edit */
    char from[128], to[128];/* the token(s) as written, and as the edit has them */
    char context[256];      /* the statement, trimmed */
    int datasets_right, datasets;      /* with the edit: of the datasets run */
    char dataset[64];       /* the dataset the candidates were screened on */
    size_t wrong, fixed;    /* its wrong elements as written, and those the edit makes right */
    int candidates, screened, repairs; /* edits in the build, those run, those that repaired it all */
    int ended;              /* of those run, the ones that ended their process (a crash, a fault, their time) */
    int also_line;          /* a second repair at another line that ties, or 0 */
    char also_from[128], also_to[128];
    double seconds;         /* the search's time: build, screen, confirm */
    char *sentence;         /* the fix-this-first sentence, or NULL */
} repair_result;
#define REPAIR_FULL 1
#define REPAIR_PARTIAL 2

typedef struct {
    char *file;             /* as given on the command line */
    char *lab;
    char backend[8];
    char device[256];
    char driver[64];
    char arch[32];
    int built;
    char *build_log;        /* compiler output, shown on compile_error */
    char *build_message;    /* one line when the build failed; else a note or NULL (build.h) */
    int ndatasets;
    dataset_result *datasets;
    int nrequirements;
    requirement_result *requirements;
    char *hint;             /* a pattern across datasets (diagnose.c), or NULL */
    /* What a shared tile held against what the lab's tiling puts there, on a
     * dataset whose output was wrong (checkers/tiles.c): the sentence that
     * names the slot and the load, or NULL; tiles_right: the tiles checked
     * held what the tiling puts there (nothing to blame in the loads) */
    char *tile_contents;
    int tile_unset;         /* tile_contents names a slot no store covered (the output has NaN), not a wrong element */
    int tiles_right;
    int hint_leads;                /* the hint says more than any one dataset's (the fix-this-first line) */
    char *cause;            /* a launch or a copy at a line of the student's that the kit's own record
                               of the run shows wrong (launches.h): the fix-this-first line, ahead of
                               the checkers' findings, which follow from it; or NULL */
    int cause_fixed_there;  /* the cause names where the value was made wrong and its fix (a #define, a
                               variable only some threads set): no repair elsewhere follows it */
    int cause_blames_declaration; /* the cause blames a symbol's declared size for a copy into it that does
                               not fit: a full repair of that copy's own size says the copy was wrong */
    int cause_says_the_edit; /* the cause says what to write at its own line too: a repair there (an edit
                               that makes every dataset right only by making up for it) is not added */
    char *source_cause;     /* a defect the source shows at a line, of a file whose output was wrong
                               (an accumulator never set, a tile not __shared__: grade.c's
                               source_defects), or NULL */
    int checkers_skipped;   /* --no-sanitize: no_hazards and global_reuse are not checked (ST_NOT_CHECKED) */
    char checkers[24];      /* whose checkers ran: "emulator" or "compute-sanitizer"; "" when none */
    char *checkers_fallback; /* why compute-sanitizer ran where the emulator's would have, or NULL */
    char *notes;            /* what the checkers saw that costs no points, one line each, or NULL
                               (a buffer never freed, a read of memory nothing stored whose value
                               did not reach the output: sanitize.h) */
    access_summary reads;   /* global reads, from the checkers' runs (counts.c) */
    repair_result repair;   /* the repair search's finding (repair.h); found 0 when none or not run */
    /* The checkers' emulator build's reading of the source (emucc --facts),
     * read before any run of that build: on a GPU the source's side of
     * global_reuse, whose counts come from that build's run (0: not known) */
    int source_facts_known;
    int source_shared_accumulations;
    double score, max_score;
    /* Performance points (lab.json "performance" with bands; bench.c) */
    int perf_asked;         /* the lab gives performance points */
    status_t perf_status;   /* ST_PASS when measured (whatever the points); ST_COUNT: not measured */
    double perf_rate;       /* the submission's GFLOP/s or GB/s; 0 if none */
    double perf_reference_rate;
    const char *perf_unit;
    double perf_points, perf_max_points;
    char *perf_message;
    stage_times stages;     /* where the check's time went (stages.h): the record's "stages" */
} submission_result;

void submission_result_free(submission_result *s);

#endif
