/* The text report: everything the screen shows, as plain ASCII tables
 * that line up in an e-mail or a diff (issue 8). */
#ifndef PARALLAX_REPORT_TEXT_H
#define PARALLAX_REPORT_TEXT_H

#include <stdio.h>

#include "report/report.h"

/* Writes the report of s and j to f. 0, or -1 when f fails. */
int report_text_write(FILE *f, const struct session *s, const struct jobs *j,
                      const struct report_meta *meta);

#endif
