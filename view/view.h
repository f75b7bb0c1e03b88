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
 * read ("pcp local", "pcp 10.0.0.2:44321 +pmda"). The last two shorten to
 * fit `width` cells, keeping what matters: "6.1 2cpu 23G" above
 * "myhost +pmda" in a narrow column. now is host monotonic time. */
void view_source_header(const struct source_model *m, int row, double now,
                        double interval, int width, char *buf, size_t n);

/* The figure of metric `id` (right-aligned in VIEW_VALUE_W) and its
 * sparkline of `spark_w` cells. */
void view_metric_cell(const struct source_model *m, int id, char *val,
                      size_t vn, char *spark, size_t sn, int spark_w,
                      bool utf8);

/* The guest/host ratio of metric `id`, oriented (> 1: worse in the guest),
 * or NaN when there is none. */
double view_metric_ratio(const struct source_model *guest,
                         const struct source_model *host, int id);

/* A ratio right-aligned in VIEW_RATIO_W: " 5.4", " 12", or " -" for none. */
void view_ratio_text(double r, char *buf, size_t n);

/* True for a baseline column (a saved report): its ratio column shows the
 * same oriented ratio as a difference, Δ%. */
bool view_is_baseline(const struct source_model *m);

/* The ratio column's text for source m: view_ratio_text, or for a
 * baseline the difference "+12%" (worse there by 12%), " -" for none. */
void view_column_ratio_text(const struct source_model *m, double r, char *buf,
                            size_t n);

/* The ratio column's header: "×" ("x"), or "Δ%" ("d%") for a baseline. */
const char *view_column_ratio_header(const struct source_model *m, bool utf8);

/* The Time rows: how far each source's time can be trusted. */
#define TIME_ROWS(X)                                                           \
    X(TR_OFFSET, "clock offset")                                               \
    X(TR_DRIFT, "clock drift ppm")                                             \
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
 * and a detail ("±0.3ms", "host 10.4ms", "off: not 0.95-1.05"). The host
 * (is_host) is the reference: no offset or drift of its own. */
void view_time_cell(const struct source_model *m, bool is_host, int row,
                    char *val, size_t vn, char *detail, size_t dn, bool utf8);

/* The guest/host ratio of a Time row (> 1 worse in the guest), NaN where
 * a ratio means nothing. */
double view_time_ratio(const struct source_model *guest,
                       const struct source_model *host, int row);

struct jobs;

/* Workload w's figure on source src (right-aligned in VIEW_VALUE_W) and
 * its detail: "±6 ns" (95% interval of the repeats; "+-" in ASCII),
 * "> 2/3 ns" while running, "failed: why", or "" when it never ran there. */
void view_job_cell(const struct jobs *j, int src, int w, char *val, size_t vn,
                   char *detail, size_t dn, bool utf8);

/* The guest/host ratio of workload w, > 1 when worse in the guest (slower
 * or less throughput); NaN when either side has no figure. */
double view_job_ratio(const struct jobs *j, int guest, int w);

/* The overall index of a guest: the geometric mean of its workload
 * ratios; NaN when no workload has a ratio yet. */
double view_job_index(const struct jobs *j, int guest);

#endif
