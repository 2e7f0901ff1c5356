/*
 * manifest.h - the one place that knows a lab's manifest, labs/<id>/lab.json.
 * Its fields are documented in docs/formats.md.
 */
#ifndef GPULAB_MANIFEST_H
#define GPULAB_MANIFEST_H

/* The tolerance model (atol, rtol, sum_ulps, fallback_rtol) lives with the
 * rule that uses it, in the runtime: wbSolution judges with it too. */
#include "../runtime/tolerance.h"

typedef struct {
    char *name;
    double points;
    int on_demand;      /* generated when asked for, never committed */
    int nparams;
    char **keys, **values;
} dataset_spec;

/* A static requirement on the student's kernels, worth its own points,
 * checked from what the build or the run shows (requirements.c). */
/* REQ_NO_HAZARDS is judged from the sanitizer stage instead: no finding of
 * the checkers (a race, an out-of-bounds or misaligned access, a barrier not
 * every thread reaches, a read of memory nothing wrote) on any dataset they
 * looked at. */
/* REQ_TWO_BATCH (lab 04's technique) compares the launch's block, as the
 * kernel itself stored it with the kernel token, with its shared tile: a
 * block of fewer threads than the tile has floats loads it in batches. */
/* REQ_GLOBAL_REUSE compares the kernel's global reads, as the checkers'
 * run counted them, with what the tiling it declares reads (counts.h). */
typedef enum {
    REQ_SHARED_MEMORY,
    REQ_BARRIER,
    REQ_CONSTANT_MEMORY,
    REQ_NO_HAZARDS,
    REQ_TWO_BATCH,
    REQ_GLOBAL_REUSE,
    REQ_COUNT
} requirement_kind;

typedef struct {
    requirement_kind kind;
    char *name;         /* "shared_memory", "barrier", "constant_memory", "no_hazards", "two_batch" or "global_reuse" */
    double points;
} requirement_spec;

/* What one call on the performance dataset does, for its rate: a matrix
 * product (2 j k l floating-point operations: GFLOP/s, against cuBLAS) or an
 * image filter (each input and output element moved once: GB/s, against a
 * device-to-device copy). */
typedef enum { WORK_NONE, WORK_MATMUL, WORK_IMAGE } work_kind;

typedef struct {
    double at_least;    /* the fraction of the reference solution's rate */
    double points;
} perf_band;

/* "performance" in lab.json: where gpulab bench measures, and the opt-in
 * performance points of grading (bands relative to the reference solution
 * measured in the same run). */
typedef struct {
    int dataset;        /* index of the performance dataset; -1 when the lab has none */
    work_kind work;
    double amount;      /* per call: floating-point operations, or bytes */
    double j, k, l;     /* matmul: M is j x k, N is k x l; image: height, width, channels */
    double points;      /* the most a band gives; 0: figures only, no points */
    int nbands;
    perf_band *bands;   /* in increasing order of at_least */
} performance_spec;

/* "tiles" in lab.json: what each shared tile of an input holds, for the
 * tile contents check (checkers/tiles.c). The slot at row i, column j of a
 * square tile of side T (a flat array of T x T: i = index / T), in phase
 * ph of block (bx, by), holds the input's element (row, col[, channel]),
 * each an expression of those names and the input's rows, cols and
 * channels (common/expr.h); an element outside the input holds 0. phases:
 * how many tiles of the input a block loads. */
typedef struct {
    char *input;        /* "input0": the dataset's file without its extension */
    char *name;         /* how the report names the input: "M", "the image" */
    char *row, *col;
    char *channel;      /* NULL: the input has one channel, or the phase is not one */
    char *phases;
} tile_spec;

typedef struct {
    char *id, *title, *summary;
    char *source;       /* the student's file name, e.g. basic_matmul.cu */
    char *entry_point;
    char *expected;     /* the expected-output file name in a dataset dir */
    unsigned long long seed;
    double timeout_s;
    double late_penalty;    /* percent of the score per late day, unless --late-penalty says (adjust.h) */
    int libwb_program;  /* "program": "libwb": a whole Teaching Kit program (import-wb) */
    tolerance_model tolerance;
    int ndatasets;
    dataset_spec *datasets;
    int nrequirements;
    requirement_spec *requirements;
    int errormap_tile;  /* > 0: an image lab; failing datasets get an error map (errormap.c) */
    int errormap_halo;
    int ntiles;
    tile_spec *tiles;   /* "tiles": what each input's tiles hold; none when ntiles is 0 */
    performance_spec perf;
    /* "hidden_shapes": which params are sizes, and the tile sides their
     * families are told by; a hidden (seeded) dataset varies its sizes
     * within its family (datasets.c). nshape_params 0: values alone vary. */
    int nshape_params;
    char **shape_params;
    long shape_modulus;     /* the least common multiple of "moduli" */
    char *dir;          /* absolute path of labs/<id> */
} lab_manifest;

/* Loads and validates labs/<id>/lab.json; dies with the file and the
 * problem on any error. */
void manifest_load(const char *id, lab_manifest *m);
/* lab.json's name of a requirement kind ("shared_memory", ...). */
const char *requirement_name(requirement_kind k);
void manifest_free(lab_manifest *m);

/* The ids of every lab, sorted; *n gets the count. */
char **manifest_list_ids(int *n);

/* Accepts a full id ("01-basic-matmul") or its number ("01", "1"); returns
 * the id (malloc'd) or dies listing the labs. */
char *manifest_resolve(const char *name);
/* The path of m's skeleton, skeletons/<id>/<source> in the kit (malloc'd). */
char *manifest_skeleton_path(const lab_manifest *m);

/* Points of every dataset that counts by default (not on_demand), plus the
 * requirements' points. */
double manifest_max_points(const lab_manifest *m);

/* A dataset's sizes for work w, from its params: matmul j, k, l (M is j x
 * k, N is k x l; "width" for all three), image height, width, channels.
 * 0, or -1 when one is missing or not a whole number >= 1 (*bad_key, when
 * bad_key is not NULL, names it). */
int manifest_work_dims(work_kind w, const dataset_spec *d, double dims[3], const char **bad_key);

/* Index of a dataset by name or 1-based number; -1 if none. */
int manifest_find_dataset(const lab_manifest *m, const char *name_or_number);

#endif
