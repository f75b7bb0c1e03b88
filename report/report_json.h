/* The JSON report: the text report's content as data, in the versioned
 * layout "parallax-report" version 1 (docs/reports.md), written with
 * jansson. report_read.h reads it back. */
#ifndef PARALLAX_REPORT_JSON_H
#define PARALLAX_REPORT_JSON_H

#include <stdio.h>

#include "report/report.h"

#define REPORT_FORMAT  "parallax-report"
#define REPORT_VERSION 1

/* Writes the report of s and j to f as one JSON document. 0, or -1 when
 * out of memory or f fails. */
int report_json_write(FILE *f, const struct session *s, const struct jobs *j,
                      const struct report_meta *meta);

#endif
