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

#define VIEW_BAD_RATIO  1.5 /* a judged ratio beyond it (or 1/it) */
#define VIEW_FAULT_MARK '!' /* a fault where there is no colour */

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

/* What a cell says where its figure needs pmdaparallax and the source
 * answers without it (a stock pmcd, or a recording or report of one: no
 * agent, and no clock probe ever, which only the agent takes on a guest):
 * VIEW_NO_AGENT; NULL for this host and for a source with the agent. The
 * clock rows need no agent: pmcd's stamps give them. */
#define VIEW_NO_AGENT "no agent"
const char *view_no_agent(const struct source_model *m, bool is_host);

/* A factor as "×2.75", "×0.36", "×415" ("x" in ASCII); "×?" for NaN. */
void view_factor_text(double f, char *buf, size_t n, bool utf8);

#endif
