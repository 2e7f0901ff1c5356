/*
 * adjust.h - a TA's adjustments to a class's grades: late days, points given
 * or taken, a comment, from a CSV an LMS or a spreadsheet writes
 * (id,late_days,points,comment), and the late penalty (percent of the
 * score per late day). They are applied to the records in memory when the
 * gradebook, the web pages or Gradescope's results are made, never written
 * into the records, so a regrade keeps them (docs/formats.md, "Adjustments").
 */
#ifndef GPULAB_ADJUST_H
#define GPULAB_ADJUST_H

#include <cJSON.h>

typedef struct {
    const char *file;       /* --adjustments FILE, or NULL */
    double late_penalty;    /* percent of the score taken per late day, 0 to 100 */
} adjust_options;

/* Gives every record late_days, late_penalty (the points it took),
 * adjustment (the file's points), final (the score less the late penalty
 * plus the points, kept within 0 and max_score) and comment. The file's ids
 * are cleaned as grade cleans folder names ("s1099 smith" is s1099_smith);
 * a row naming no record is said on standard error. Dies naming the file
 * and line of anything it cannot read. */
void adjust_records(cJSON *records, const adjust_options *o);

/* --late-penalty's text as a percent (0 to 100), or -1. */
double adjust_parse_percent(const char *text);

#endif
