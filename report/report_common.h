/* Small helpers both report writers share, so the text and the JSON say
 * the same thing about a source, a workload and the fairness run. */
#ifndef PARALLAX_REPORT_COMMON_H
#define PARALLAX_REPORT_COMMON_H

#include <stdbool.h>
#include <stddef.h>

#include "report/report.h"
#include "session/jobs.h"

/* "live", "connecting" or "down". */
const char *report_state_name(enum source_state st);

/* "idle", "running", "stopping", "done", "stopped" or "failed". */
const char *report_job_state_name(enum job_state st);

/* True when workload w ran (or runs) on any of the nsrc sources. */
bool report_wl_ran(const struct jobs *j, int nsrc, int w);

/* The host's last sched result with its extras, or NULL when sched has
 * not finished a repeat on the host. */
const struct wl_result *report_fairness(const struct jobs *j);

/* Where a cell's run's processes ran: "any", "same", "split", "any@cpu1"
 * (pinned), or "?" before a result. */
void report_placement(const struct job_cell *c, char *buf, size_t n);

/* Whether a cell's run had the CPUs to itself: "alone", or "with host, g1"
 * (the sources that ran workloads meanwhile). */
void report_taken(const struct session *s, const struct job_cell *c, char *buf,
                  size_t n);

/* How many finished figures were taken while other sources ran. */
int report_overlapped(const struct session *s, const struct jobs *j);

/* Source src's clocksource from meta, or "?". */
const char *report_clocksource(const struct report_meta *meta, int src);

#endif
