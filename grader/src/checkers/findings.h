/*
 * findings.h - what the checkers found in one run (the sanitizer stage's
 * result, sanitize.h, which the requirements, the counts and the reports
 * read), and the student's lines quoted in its sentences.
 */
#ifndef GPULAB_FINDINGS_H
#define GPULAB_FINDINGS_H

#include "errormap.h"
#include "result.h"
#include "tiles.h"

#define SAN_MAX_FINDINGS 8

typedef struct {
    char kind[24];      /* "out-of-bounds", "race", "barrier", "misaligned", "uninitialised" */
    char file[256];
    int line, line2;    /* line2: the other side of a race, else 0 */
    char *message;      /* plain language */
} finding;

typedef struct sanitize_result_s {
    int ran;            /* the checker ran to its end */
    char *problem;      /* why it could not run, or NULL */
    int nfindings;
    finding findings[SAN_MAX_FINDINGS];
    char student_file[256];  /* the path findings name */
    /* The threads of the faulting launch that made invalid accesses (GPU:
     * memcheck's records; emulator: its checked build's fault list), for the
     * fault map; faults.n == 0 when none were seen. */
    fault_threads faults;
    char *fault_summary;     /* diagnose_faults()'s sentence, or NULL */
    char fault_map[512];     /* the fault map's path, or "" (sanitize_draw_fault_map) */
    /* The threads racecheck's hazards name (GPU only, when asked for): both
     * sides of each hazard, for the race map of an output that matched by
     * luck; races.n == 0 when none were seen. */
    fault_threads races;
    char *race_summary;      /* diagnose_races()'s sentence, or NULL */
    char race_map[512];      /* the race map's path, or "" */
    /* What the run's kernels read and wrote (emulator: its checked build's
     * counts, counts.h); known == 0 on a GPU's compute-sanitizer */
    access_counts counts;
    /* What the shared tiles held at a barrier (emulator: its checked build's
     * "tile" lines, tiles.h); none on a GPU's compute-sanitizer */
    tile_snapshots tiles;
} sanitize_result;

/* "line N (`the line's text`)" of the student's file, for a sentence
 * (malloc'd); "line N" when the file has no such line. */
char *sanitize_quote(const char *file, int line);

/* A checker's FILE:LINE as a sentence names it: the student's line, quoted,
 * when FILE is the student's file (by name: the checkers' builds compile a
 * copy); else "FILE:LINE" (malloc'd). */
char *sanitize_quote_at(const char *student, const char *file, int line);

/* Whether one of r's findings is a race. */
int sanitize_has_race(const sanitize_result *r);
void sanitize_result_free(sanitize_result *r);

#endif
