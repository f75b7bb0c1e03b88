/* The Time section of the main table, every row of it: how far each
 * source's time can be trusted (the clock and probe rows: offset, drift,
 * rate, the probe's sleep, CPU billed against wall time), then what the
 * sleep workload's sleeps took on each source's clock against
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

#define VIEW_OFFSET_FAULT_S  1.0   /* a clock offset beyond it is a fault */
#define VIEW_DRIFT_FAULT_PPM 500.0 /* and a drift beyond it */

/* The Time rows: how far each source's time can be trusted. */
#define TIME_ROWS(X)                                                           \
    X(TR_OFFSET, "clock offset")                                               \
    X(TR_DRIFT, "clock drift")                                                 \
    X(TR_RATE, "clock rate 10s")                                               \
    X(TR_SLEEP, "probe 10ms took")                                             \
    X(TR_BILLED, "CPU billed/wall")

enum time_row {
#define TIME_ENUM(id, label) id,
    TIME_ROWS(TIME_ENUM)
#undef TIME_ENUM
        TIME_ROW_COUNT
};

extern const char *const time_row_labels[TIME_ROW_COUNT];

/* Time row `row` of source m: its figure (right-aligned in VIEW_VALUE_W)
 * and a detail ("±0.3ms", "±2 ppm", "runs fast", "not 0.95-1.05"). The
 * offset in the unit that fits ("+5.000s", "+1.000d"), the drift in ppm
 * up to ±1% and as a rate factor beyond ("×1.0100", "×415"). The host
 * (is_host) is the reference: no offset or drift of its own. True when
 * the figure is a fault: an offset beyond VIEW_OFFSET_FAULT_S, a drift
 * beyond VIEW_DRIFT_FAULT_PPM, each by more than its own bound (an early
 * fit's wide bound is no fault), CPU billed/wall outside 0.95-1.05. */
bool view_time_cell(const struct source_model *m, bool is_host, int row,
                    char *val, size_t vn, char *detail, size_t dn, bool utf8);

/* How long the probe's sleep on m really took, by the host's clock: its
 * stamps mapped through m's time map, else through the clock fit; NaN for
 * this host (is_host) or when neither can tell. *err (may be NULL) gets
 * its uncertainty: on a clock whose rate varies, up to the fetches around
 * the stamps, far more than a 10 ms sleep (the row then shows the bound). */
double view_probe_host_saw(const struct source_model *m, bool is_host,
                           double *err);

/* Where the probe's CPU-bound spin's wall time went, as shares of it:
 * ran (billed to it), waited for a CPU (the run queue: other load on that
 * system), lost (neither: stolen by a hypervisor, or accounting that does
 * not add up), and the source's steal % meanwhile; NaN where unknown. */
struct billed_split {
    double ran, waited, lost, steal_pct;
};
void view_billed_split(const struct source_model *m, struct billed_split *b);

/* The guest/host ratio of a Time row (> 1 worse in the guest; for the
 * drift the guest clock's rate, VR_RATE), NaN where there is none. */
double view_time_ratio(const struct source_model *guest,
                       const struct source_model *host, int row);

/* The kind of a Time row's ratio. */
enum view_ratio_kind view_time_ratio_kind(int row);

/* A figure with its fault marker: VIEW_FAULT_MARK in the blank just
 * before the figure of val (right-aligned in VIEW_VALUE_W, "  !+5.000s")
 * when fault, for output without colour. */
void view_mark_fault(char *val, bool fault);

#define VIEW_TIME_LINES_MAX 48
#define VIEW_FAIR_TASKS_MAX 8 /* tasks shown one by one; reports: all */

enum time_line_kind {
    TL_FIXED, /* a row of TIME_ROWS above: index is the row */
    TL_SLEEP, /* the sleep workload's sleep_durs[index] */
    TL_RULE,  /* a section line: label is its title */
    TL_FAIR,  /* a fairness figure: index into the fairness rows */
    TL_TASK,  /* a task's jN time: index 2k user, 2k+1 wall of task k+1 */
    TL_SHARE, /* task index+1's share of the jN work so far, live */
};

struct time_line {
    enum time_line_kind kind;
    int index;
    int wl; /* the workload it reads (sleep's, sched's), -1 for TL_FIXED */
    char label[32]; /* drawn in VIEW_LABEL_W - 1 cells */
};

/* The lines to show: the fixed rows, then a sleep line per duration any
 * source has measured, then sched's tasks' shares while they run side by
 * side anywhere, then the fairness table when sched finished a repeat
 * anywhere (tasks up to max_tasks). Returns how many (<= max). */
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
