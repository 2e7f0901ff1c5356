/*
 * emu_log.h - the one reader of the emulator's launch log (GPULAB_EMU_LOG,
 * docs/emulator.md): a JSON object a line, written by the student's own
 * process ("launch", "memcpy_to_symbol", "copy", "tile", ...), so read as
 * hostile input: without following a link, at most EMU_LOG_MAX_BYTES, and
 * each line parsed on its own (a line that is not JSON is skipped). The
 * requirements' evidence, the counts, the launch and copy records and the
 * tile snapshots each take the lines they know from here.
 */
#ifndef GPULAB_EMU_LOG_H
#define GPULAB_EMU_LOG_H

#include <cJSON.h>

/* A run's log: a line per launch, copy and tile snapshot, far below this. */
#define EMU_LOG_MAX_BYTES (16LL << 20)

/* Calls each(line, arg) for every line of the log at path that is a JSON
 * object whose "event" is event (NULL: any object), in the log's order.
 * Nothing is called when the file is missing, a link, or too large. */
void emu_log_each(const char *path, const char *event, void (*each)(const cJSON *line, void *arg), void *arg);

#endif
