/*
 * stages.h - where a check's time went: each stage's seconds (the build,
 * the kernel token's compile, each dataset's run, the checkers' build and
 * runs, the diagnosis, the maps) on the monotonic clock, the one home of
 * the grader's own timing. Every stage adds its time here; the record and
 * the JSON report carry it as "stages" (docs/performance.md).
 */
#ifndef GPULAB_STAGES_H
#define GPULAB_STAGES_H

#include "util.h"

/* result.h carries the stages, and what includes it (a test's driver of a
 * checker) need not know cJSON: the JSON type is only named here. */
struct cJSON;

#define STAGES_MAX 48
#define STAGE_NAME_MAX 64

typedef struct {
    int n;
    struct { char name[STAGE_NAME_MAX]; double seconds; } t[STAGES_MAX];
} stage_times;

/* The clock a stage starts on (monotonic_s). */
double stage_clock(void);
/* Adds the seconds since started to the stage named (a printf format; a
 * stage met again adds up: the datasets' comparisons, the maps) and
 * returns the clock now, where the next stage may start. Past STAGES_MAX
 * stages, the time goes to "other". */
double stage_add(stage_times *t, double started, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same for seconds measured elsewhere (a build in another process,
 * a comparison's map); nothing for seconds <= 0. */
void stage_add_seconds(stage_times *t, double seconds, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* {"build": 0.123, ...} in the order the stages came, 3 decimals. */
struct cJSON *stages_json(const stage_times *t);
/* "build 0.123 s, run series-1 0.200 s, ..." for the verbose report. */
void stages_text(strbuf *out, const stage_times *t);

#endif
