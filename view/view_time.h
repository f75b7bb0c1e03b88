/* The lines of the Time section beyond the clock and probe rows of view.h:
 * what the sleep workload's sleeps took on each source's clock against
 * what the host saw of them (through the clock model), the scheduler
 * fairness table of the sched workload, per source, and the shares of the
 * work its tasks have done side by side, live while they run. The screen
 * and the text report draw these same lines. */
#ifndef PARALLAX_VIEW_TIME_H
#define PARALLAX_VIEW_TIME_H

#include <stdbool.h>
#include <stddef.h>

#include "session/jobs.h"
#include "session/session.h"
#include "view/view.h"

#define VIEW_TIME_LINES_MAX 48
#define VIEW_FAIR_TASKS_MAX 8 /* tasks shown one by one; reports: all */

enum time_line_kind {
    TL_FIXED, /* a row of view.h's TIME_ROWS: index is the row */
    TL_SLEEP, /* the sleep workload's sleep_durs[index] */
    TL_RULE,  /* a section line: label is its title */
    TL_FAIR,  /* a fairness figure: index into the fairness rows */
    TL_TASK,  /* a task's jN time: index 2k user, 2k+1 wall of task k+1 */
    TL_SHARE, /* task index+1's share of the jN work so far, live */
    TL_LAT,   /* a latency workload's p99 (index 0) or max (1), real time */
};

struct time_line {
    enum time_line_kind kind;
    int index;
    int wl; /* the workload it reads (sleep's, sched's), -1 for TL_FIXED */
    char label[32]; /* drawn in VIEW_LABEL_W - 1 cells */
};

/* The lines to show: the fixed rows, then a sleep line per duration any
 * source has measured, then p99 and max of each latency workload any
 * source has finished (view/latency_view.h), then sched's tasks' shares while
 * they run side by side anywhere, then the fairness table when sched finished a
 * repeat anywhere (tasks up to max_tasks). Returns how many (<= max). */
int view_time_lines(const struct session *s, const struct jobs *j,
                    struct time_line *out, int max, int max_tasks);

/* Line tl's figure on source src (right-aligned in VIEW_VALUE_W) and its
 * detail ("host saw 1.021s", "p99 +80.0µs"); blank for a rule. True when
 * the figure is a fault (view_time_cell). */
bool view_time_line_cell(const struct session *s, const struct jobs *j, int src,
                         const struct time_line *tl, char *val, size_t vn,
                         char *detail, size_t dn, bool utf8);

/* The sleep workload's sleep_durs[d] on src in seconds: requested, what
 * it took by src's clock (mean), what the host saw of that (through the
 * clock model; NaN for the host itself or without a fit). False when src
 * has not measured it. */
bool view_sleep_figures(const struct session *s, const struct jobs *j, int src,
                        int d, double *requested, double *took,
                        double *host_saw);

/* Line tl's guest/host ratio, > 1 worse in the guest; NaN for none. */
double view_time_line_ratio(const struct session *s, const struct jobs *j,
                            int guest, const struct time_line *tl);

/* What line tl's ratio cell holds (view_ratio_kind). */
enum view_ratio_kind view_time_line_ratio_kind(const struct time_line *tl);

#endif
