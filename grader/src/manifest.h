/*
 * manifest.h - the one place that knows a lab's manifest, labs/<id>/lab.json.
 * Its fields are documented in docs/formats.md.
 */
#ifndef GPULAB_MANIFEST_H
#define GPULAB_MANIFEST_H

/* Per element, an output passes when
 *   |got - expected| <= atol + rtol * |expected| + sum_ulps * terms * 2^-24 * magnitude
 * where terms and magnitude come from the reference file (see compare.c).
 * A reference without magnitudes (a libwb output.raw) uses
 *   atol + max(rtol, fallback_rtol) * |expected|. */
typedef struct {
    double atol, rtol, sum_ulps, fallback_rtol;
} tolerance_model;

typedef struct {
    char *name;
    double points;
    int on_demand;      /* generated when asked for, never committed */
    int nparams;
    char **keys, **values;
} dataset_spec;

/* A static requirement on the student's kernels, worth its own points,
 * checked from what the build or the run shows (requirements.c). */
typedef enum { REQ_SHARED_MEMORY, REQ_BARRIER, REQ_CONSTANT_MEMORY, REQ_COUNT } requirement_kind;

typedef struct {
    requirement_kind kind;
    char *name;         /* "shared_memory", "barrier" or "constant_memory" */
    double points;
} requirement_spec;

typedef struct {
    char *id, *title, *summary;
    char *source;       /* the student's file name, e.g. basic_matmul.cu */
    char *entry_point;
    char *expected;     /* the expected-output file name in a dataset dir */
    unsigned long long seed;
    double timeout_s;
    tolerance_model tolerance;
    int ndatasets;
    dataset_spec *datasets;
    int nrequirements;
    requirement_spec *requirements;
    int errormap_tile;  /* > 0: an image lab; failing datasets get an error map (errormap.c) */
    int errormap_halo;
    char *dir;          /* absolute path of labs/<id> */
} lab_manifest;

/* Loads and validates labs/<id>/lab.json; dies with the file and the
 * problem on any error. */
void manifest_load(const char *id, lab_manifest *m);
void manifest_free(lab_manifest *m);

/* The ids of every lab, sorted; *n gets the count. */
char **manifest_list_ids(int *n);

/* Accepts a full id ("01-basic-matmul") or its number ("01", "1"); returns
 * the id (malloc'd) or dies listing the labs. */
char *manifest_resolve(const char *name);

/* Points of every dataset that counts by default (not on_demand), plus the
 * requirements' points. */
double manifest_max_points(const lab_manifest *m);

/* Index of a dataset by name or 1-based number; -1 if none. */
int manifest_find_dataset(const lab_manifest *m, const char *name_or_number);

#endif
