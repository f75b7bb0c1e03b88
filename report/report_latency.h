/* The text report's LATENCY section: the latency workloads' percentiles on
 * every source with ratios against the host, and their histograms as
 * text, side by side (view/latency_view.h). */
#ifndef PARALLAX_REPORT_LATENCY_H
#define PARALLAX_REPORT_LATENCY_H

#include <stdio.h>

#include "session/jobs.h"

/* Prints the section; nothing when no latency workload finished a repeat
 * anywhere. */
void report_latency_text(FILE *f, const struct session *s,
                         const struct jobs *j);

#endif
