/* The cells of the main table, as strings: what the screen draws and what
 * --text prints come from these same functions, so the two cannot drift.
 * Columns: this host, then each guest followed by its ratio to the host. */
#ifndef PARALLAX_VIEW_H
#define PARALLAX_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "core/model.h"

#define VIEW_LABEL_W 16 /* the row label column */
#define VIEW_VALUE_W 8  /* a figure, right-aligned */
/* a figure's text is at most this wide: the cell's first column stays
 * blank (or holds a fault marker), so a figure never touches the cell
 * before it */
#define VIEW_FIGURE_W    (VIEW_VALUE_W - 1)
#define VIEW_ERR_W       5  /* an interval's or a tail's figure: 2-3 digits */
#define VIEW_SPARK_W     16 /* a sparkline in --text */
#define VIEW_RATIO_W     7  /* a ratio column, with its leading space */
#define VIEW_HEADER_ROWS 4

enum view_col_kind {
    VC_SOURCE, /* a source's figures and sparklines */
    VC_RATIO,  /* the source's ratio to the host (model[0]) */
};

struct view_col {
    enum view_col_kind kind;
    int src; /* index into the models */
};

/* Fills cols (room for max) for nsrc sources; returns how many. */
int view_columns(int nsrc, struct view_col *cols, int max);

/* Header row `row` (0..VIEW_HEADER_ROWS-1) of a source column: its name,
 * its state ("live 0.3ms", "stale 5s", "down 12s, retry 4s"), what it
 * is ("myhost 6.1.0-18-amd64 2cpu 23G", or why it is down) and how it is
 * read ("pcp 10.0.0.2:44321 +pmda", "/proc"). The last two shorten to
 * fit `width` cells, keeping what matters: "6.1 2cpu 23G" above
 * "myhost +pmda" in a narrow column; what still does not fit ends in an
 * ellipsis (fit_text). now is host monotonic time. */
void view_source_header(const struct source_model *m, int row, double now,
                        double interval, int width, char *buf, size_t n,
                        bool utf8);

/* The figure of metric `id` (right-aligned in VIEW_VALUE_W) and its
 * sparkline of `spark_w` cells. */
void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w,
                      bool utf8);

/* The guest/host ratio of metric `id`, oriented (> 1: worse, or busier,
 * in the guest), or NaN when there is none. */
double view_metric_ratio(const struct source_model *guest,
                         const struct source_model *host, int id);

/* What a row's ratio cell holds, and how it is drawn. */
enum view_ratio_kind {
    VR_EMPTY,  /* nothing measured on either side yet: blank */
    VR_NONE,   /* no ratio by design (the figures do not compare) or of
                  a 0: "-" */
    VR_PLAIN,  /* guest/host of an activity, neither way better: plain */
    VR_JUDGED, /* > 1 worse in the guest: coloured beyond VIEW_BAD_RATIO */
    VR_RATE,   /* a clock's rate, guest seconds per real second: 1.0010,
                  coloured when its row is a fault (view_time_cell) */
};

#define VIEW_BAD_RATIO       1.5   /* a judged ratio beyond it (or 1/it) */
#define VIEW_OFFSET_FAULT_S  1.0   /* a clock offset beyond it is a fault */
#define VIEW_DRIFT_FAULT_PPM 500.0 /* and a drift beyond it */
#define VIEW_FAULT_MARK      '!'   /* a fault where there is no colour */

/* The kind of metric id's ratio between guest and host: VR_NONE where
 * the metric has none, or a side is 0 (no ratio, but no figure missing
 * either); else VR_PLAIN or VR_JUDGED. */
enum view_ratio_kind view_metric_ratio_kind(const struct source_model *guest,
                                            const struct source_model *host,
                                            int id);

/* How a ratio reads: worse, better (judged ones beyond VIEW_BAD_RATIO, a
 * clock rate beyond the fault threshold is VM_BAD), or plain. */
enum view_mark { VM_PLAIN, VM_GOOD, VM_BAD };
enum view_mark view_ratio_mark(double r, enum view_ratio_kind kind);

/* A ratio right-aligned in VIEW_RATIO_W: " 0.83", " 12.3", " 4.8e8",
 * " <0.01" (never 0.00), "1.0010" for a rate; for none " n/a" (a figure
 * is missing), " -" (no ratio by design) or blanks (VR_EMPTY). */
void view_ratio_text(double r, enum view_ratio_kind kind, char *buf, size_t n);

/* True for a baseline column (a saved report): its ratio column shows the
 * same oriented ratio as a difference, Δ%. */
bool view_is_baseline(const struct source_model *m);

/* The ratio column's text for source m: view_ratio_text, or for a
 * baseline the difference "+12%" (worse, or busier, there by 12%). */
void view_column_ratio_text(const struct source_model *m, double r,
                            enum view_ratio_kind kind, char *buf, size_t n);

/* The ratio column's header row `row`: "×" ("x"), or "Δ%" ("d%") for a
 * baseline, then what a high figure means (">1 bad", "+ bad"); "" below. */
const char *view_column_ratio_header(const struct source_model *m, int row,
                                     bool utf8);

/* Line `line` of the legend of the ratio columns and the markers (for
 * the help and the text output) into buf, in ASCII unless utf8; false
 * after the last. */
bool view_legend(int line, bool utf8, char *buf, size_t n);

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

/* What a cell says where its figure needs pmdaparallax and the source
 * answers without it (a stock pmcd, or a recording or report of one: no
 * agent, and no clock probe ever, which only the agent takes on a guest):
 * VIEW_NO_AGENT; NULL for this host and for a source with the agent. The
 * clock rows need no agent: pmcd's stamps give them. */
#define VIEW_NO_AGENT "no agent"
const char *view_no_agent(const struct source_model *m, bool is_host);

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

/* A factor as "×2.75", "×0.36", "×415" ("x" in ASCII); "×?" for NaN. */
void view_factor_text(double f, char *buf, size_t n, bool utf8);

#endif
