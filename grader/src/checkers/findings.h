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
    char kind[24];      /* "out-of-bounds", "race", "barrier", "misaligned", "uninitialised", "use-after-free" */
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
    char lab_header[512];    /* the lab's lab.h, for the source's values (source_eval.c), or "" */
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
    /* The student's launch and a copy that disagrees with its buffer, from
     * the emulator's checked run (launches.h): on a GPU, the only launch
     * log there is */
    launch_shape launch;
    copy_record copy;
    /* What the shared tiles held at a barrier (emulator: its checked build's
     * "tile" lines, tiles.h); none on a GPU's compute-sanitizer */
    tile_snapshots tiles;
    /* from the series of every other dataset (sanitize_series), not a full
     * check: 1 the bounds series, 2 the race series, whose races the full
     * checks found first (the report's first line comes from those) */
    int from_series;
    /* what the checkers saw that costs no points, one line each (a buffer
     * never freed, a read of memory nothing stored whose value did not
     * reach the output: sanitize.c), or NULL */
    char *notes;
} sanitize_result;

/* One line the emulator prints on its standard error, after "gpulab-emu: "
 * (docs/emulator.md): "CATEGORY FILE:LINE kernel K [grid (x,y,z)] block (x,y,z) thread
 * (x,y,z): MESSAGE (cudaErrorX)", the kernel and the threads where it has
 * them. The one parser of these lines (the checkers' findings, a timeout's
 * place, a CUDA error's kernel line). */
typedef struct {
    char category[32];     /* "out-of-bounds", "race", "stuck", ... */
    char location[300];    /* FILE:LINE, or "-" */
    char file[256];        /* its FILE, "" without a line */
    int line;              /* its LINE, 0 without one */
    char kernel[128], grid[48], block[48], thread[48]; /* "" where absent */
    char error[64];        /* the cudaErrorX it ends in, or "" */
    const char *message;   /* into the line: what follows "): " or the first ": " */
} emu_diag;
/* line: the text after "gpulab-emu: ", one line, NUL-terminated. 0, or -1
 * when it has no category and location. */
int emu_diag_parse(const char *line, emu_diag *d);

/* The words for the emulator's "host-access FILE:LINE: host code read|wrote
 * device memory (from the cudaMalloc at FILE:LINE): ADVICE" line (line: the
 * text after "gpulab-emu: "), with the student's two lines quoted: "host
 * code at line 57 (`...`) read device memory (from the cudaMalloc at line
 * 40 (`...`)): ... ADVICE" (malloc'd); NULL for any other line. The graded
 * run's crash message and the checkers' finding say it alike. */
char *emu_host_access_words(const char *line, const char *student);

/* "(x,y,z)" after `word ` in s, copied into out (len bytes); "" if absent. */
void emu_triple_after(const char *s, const char *word, char *out, size_t len);

/* Whether one of r's findings is a race. */
int sanitize_has_race(const sanitize_result *r);
void sanitize_result_free(sanitize_result *r);

#endif
