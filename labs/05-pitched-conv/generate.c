/*
 * generate.c - lab 05's datasets are made exactly as lab 04's (the same
 * patterns, masks and expected output; only the lab's seed differs), so the
 * generator is lab 04's. The harness, not the dataset, supplies the pitches.
 */
#include "../04-conv-2batch/generate.c"
