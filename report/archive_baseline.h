/* --baseline with a recording: the end of a PCP archive (parallax's or
 * pmlogger's) read at once into a fixed column, as a JSON report's source
 * would be: the last records' rates, the clock fit over them, the
 * workloads' last results. */
#ifndef PARALLAX_ARCHIVE_BASELINE_H
#define PARALLAX_ARCHIVE_BASELINE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

/* True when path names a recording rather than a JSON report: a
 * directory, an archive's file (.meta, .index, .N) or its base name. */
bool archive_baseline_is(const char *path);

/* Reads source `source` (NULL: "host" of a --record directory, else its
 * only one) of the recording at path into m, named "baseline:LABEL DAY"
 * (label NULL: the source's name; DAY the last record's). 0, or -1 with
 * one line in err naming the path and what is wrong. */
int archive_baseline_read(const char *path, const char *source,
                          const char *label, struct source_model *m, char *err,
                          size_t errlen);

#endif
