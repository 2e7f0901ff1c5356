/*
 * report.h - the report stage: a submission_result as text for people or
 * JSON for programs (the JSON is documented in docs/formats.md).
 */
#ifndef GPULAB_REPORT_H
#define GPULAB_REPORT_H

#include <cJSON.h>
#include "result.h"
#include "util.h"

/* color: use ANSI colours and draw small error maps (only on a terminal,
 * and never with NO_COLOR). verbose: every failing dataset's details, where
 * by default datasets that fail the same way are folded into one block. */
void report_text(strbuf *out, const submission_result *s, int color, int verbose);
cJSON *report_json(const submission_result *s);
struct sanitize_result_s;
cJSON *sanitizer_json(const struct sanitize_result_s *r);

/* Whether colour should be used on this stream. */
int report_want_color(int fd);

#endif
