/*
 * datasets.h - where a lab's datasets are, and making them with the lab's
 * generator (build/gen/<id>/generate).
 *
 * Public datasets live in datasets/<id>/<name>/ and are committed. A dataset
 * marked on_demand in the manifest (a performance size) is generated the
 * first time it is asked for, into build/datasets/<id>/<name>/.
 */
#ifndef GPULAB_DATASETS_H
#define GPULAB_DATASETS_H

#include "manifest.h"

/* The directory of dataset `index`, generating it first if it is on demand
 * and not there yet. Dies on failure. */
char *dataset_dir(const lab_manifest *m, int index);

/* Generates dataset `index` into out_root/<name>/ (replacing it whole, never
 * leaving half a dataset). The dataset's seed mixes base_seed with its name.
 * Returns 0, or -1 with *why set. */
int dataset_generate(const lab_manifest *m, int index, unsigned long long base_seed,
                     const char *out_root, char **why);

/* gpulab datasets LAB [--seed S] [--out DIR] [--all] */
/* The bytes of a dataset folder's inputs (its regular files named input*,
 * links not followed), or 0 when it cannot be read: how large a dataset
 * is where its params do not say (a lab imported from the Teaching Kit). */
double dataset_input_bytes(const char *dir);

int cmd_datasets(int argc, char **argv);

#endif
