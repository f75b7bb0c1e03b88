/* The workload cells of the main table, as strings and numbers: a
 * workload's figure and its marks on each source, its ratio on a guest and
 * the guest's index over all of them. The screen, --text and the reports
 * show these same cells (view/view.h has the rest of the table). */
#ifndef PARALLAX_VIEW_JOBS_H
#define PARALLAX_VIEW_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"
#include "view/view.h"

struct jobs;

/* Workload w's figure on source src (right-aligned in VIEW_VALUE_W; a
 * time in the unit that fits, "1.20µs", else SI, "12.3M"), in real time,
 * and its detail: its marks (view_job_flags: "said×2.75", "partial",
 * "reported", "noisy", "shared"), the interval of the median and the unit
 * where it is not a time; "> 2/3" while running, "failed: why", or ""
 * when it never ran there ("no agent" where it cannot, view_no_agent, m
 * being src's model; NULL: not said). */
void view_job_cell(const struct jobs *j, const struct source_model *m, int src,
                   int w, char *val, size_t vn, char *detail, size_t dn,
                   bool utf8);

/* What marks workload w's finished figure on src. */
enum view_job_flag {
    VJ_DIVERGENT = 1,   /* the source's clock and real time differ beyond
                           the measurement's error: its word is not the
                           figure's */
    VJ_PARTIAL = 2,     /* stopped before its repeats were done */
    VJ_NOISY = 4,       /* its interval is wider than half of itself */
    VJ_REPORTED = 8,    /* the source's word only: not timed on the host's
                           clock (an older agent) */
    VJ_OVERLAP = 16,    /* taken while other sources ran workloads */
    VJ_UNBRACKETED = 32 /* its mapped span falls outside the host's own
                           bracket of the run: the mapping is unsure */
};

/* The VJ_ flags of workload w on src; 0 while it runs or never ran. */
int view_job_flags(const struct jobs *j, int src, int w);

/* The words of `flags` into buf: the screen's ("unsure partial noisy ",
 * each followed by a space) or, with `report`, the reports' ("outside the
 * host's bracket, partial, noisy"). Returns the length written. */
int view_job_marks(int flags, bool report, char *buf, size_t n);

/* The kind of workload w's ratio on guest: VR_EMPTY while neither the
 * guest nor the host has run it, else VR_JUDGED. */
enum view_ratio_kind view_job_ratio_kind(const struct jobs *j, int guest,
                                         int w);

/* The guest/host ratio of workload w, > 1 when worse in the guest (slower
 * or less throughput); NaN when either side has no figure. */
double view_job_ratio(const struct jobs *j, int guest, int w);

/* The interval of that ratio, from the two medians' intervals; false
 * (NaN) when either has none. */
bool view_job_ratio_interval(const struct jobs *j, int guest, int w, double *lo,
                             double *hi);

/* The overall index of a guest: the geometric mean of its workload
 * ratios, a run stopped early on either side left out; NaN when no
 * workload has a ratio yet. */
double view_job_index(const struct jobs *j, int guest);

/* The index's interval: the geometric means of its ratios' bounds; false
 * when a ratio in it has no interval. */
bool view_job_index_interval(const struct jobs *j, int guest, double *lo,
                             double *hi);

#endif
