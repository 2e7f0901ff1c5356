/*
 * html.h - the report stage as web pages: a class page (the class summary
 * and a row per student) and one feedback page per submission, made from
 * the grading records (batch.h) or from check's report (report_json), so
 * the pages can be made again later from the records alone.
 *
 * The pages are self-contained: inline CSS, the histogram as inline SVG,
 * PNG maps as data: URIs, no script and no network (a Content-Security-
 * Policy says so to the browser too). Every string from a record is
 * escaped: a student's prints, file names and messages are hostile.
 */
#ifndef GPULAB_HTML_H
#define GPULAB_HTML_H

#include <cJSON.h>

/* One submission's page: the same content as its text report. rec: a
 * grading record or report_json()'s object; source: the lab's file name
 * (named when a file was misnamed), or NULL. */
char *html_student_page(const cJSON *rec, const char *source);

/* The class page. feedback_href: the folder of the feedback pages as a URL
 * relative to the class page (each row links to <feedback_href>/<id>.html),
 * or NULL for no links; leaderboard: with the performance leaderboard
 * (opt-in: ids and figures only). */
char *html_class_page(const cJSON *records, const char *lab, const char *source, const char *feedback_href,
                      int leaderboard);

/* grade/export --html FILE and --feedback-dir DIR (either may be NULL):
 * writes the feedback pages (DIR/<id>.html, made if missing) and the class
 * page linking to them; FILE "-" is standard output. Outputs are written
 * with write_output (never renamed over a link or anything not a regular
 * file). Exits through die() naming the path on failure. */
void html_write_reports(const cJSON *records, const char *lab, const char *source, const char *html_path,
                        const char *feedback_dir, int leaderboard);

#endif
