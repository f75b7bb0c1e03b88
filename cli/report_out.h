/* Where --batch's reports go (-o): FILE, a regular file or a new one,
 * with the JSON report next to it (report_json_next_to); "-": the text
 * report on standard output and no file at all. Without -o the text goes
 * to standard output and both are saved in the report directory. A
 * device, a FIFO or a directory is refused before anything runs: a
 * report is renamed into place, which would replace it (as root, -o
 * /dev/null replaced /dev/null). Shared by the host's and the fleet's
 * batches: one path writes either report (report/report.h's pairs). */
#ifndef PARALLAX_REPORT_OUT_H
#define PARALLAX_REPORT_OUT_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"

/* True for -o -. */
bool report_out_stdout(const char *output);

/* 0 when output (NULL: none given) can take the reports: "-", or a file
 * that atomic_file_check passes, with a JSON name beside it that names
 * nothing or a regular file. Else -1 with one line in err, the fix in it. */
int report_out_check(const char *output, char *err, size_t errlen);

/* Writes the pair where output says: the text to output and the JSON
 * next to it; the text to standard output alone ("-"); or (NULL) the text
 * to standard output and both saved into report_dir (NULL: the default),
 * named for meta. Says on stderr where they went, or why not. 0 or -1. */
int report_out_write(const char *output, const char *report_dir,
                     const struct report_pair *p,
                     const struct report_meta *meta);

#endif
