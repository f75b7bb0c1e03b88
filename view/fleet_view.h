/* The fleet table as every front end shows it (the fleet screen, --text,
 * the fleet report): one row per guest, its columns from one table, rows
 * filtered by label and sorted by any column, worst first, and the
 * distribution of each column over the rows shown (median, p95, worst).
 * Ratios are turned so that above 1 is worse in the guest; offset and
 * drift are judged by their size. No curses. */
#ifndef PARALLAX_FLEET_VIEW_H
#define PARALLAX_FLEET_VIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "fleet/fleet_model.h"
#include "fleet/fleet_run.h"
#include "view/fleet_filter.h"

enum fleet_col_kind {
    FCK_NAME,
    FCK_HOST,
    FCK_STATE,
    FCK_KERNEL,
    FCK_VARIANT,
    FCK_BUSY,    /* user + sys, % of its CPUs */
    FCK_FIGURE,  /* a metric's figure */
    FCK_RATIO,   /* a metric's guest/host ratio */
    FCK_WL,      /* the shown workload's ratio (fleet runs) */
    FCK_INDEX,   /* the geometric mean of its workload ratios */
    FCK_DIVERGE, /* the shown workload's run: its seconds per real second */
    FCK_OFFSET,  /* its clock less its host's, s */
    FCK_DRIFT,   /* its clock's rate against its host's, ppm */
    FCK_RUN,     /* its progress in the fleet run */
};

/* X(id, header, ASCII header, width, kind, metric id or -1) */
#define FLEET_COLUMNS(X)                                                       \
    X(FC_NAME, "guest", "guest", 12, FCK_NAME, -1)                             \
    X(FC_HOST, "host", "host", 8, FCK_HOST, -1)                                \
    X(FC_STATE, "state", "state", 9, FCK_STATE, -1)                            \
    X(FC_DRIFT, "drift ppm", "drift ppm", 10, FCK_DRIFT, -1)                   \
    X(FC_OFFSET, "offset s", "offset s", 8, FCK_OFFSET, -1)                    \
    X(FC_RUN, "run", "run", 15, FCK_RUN, -1)                                   \
    X(FC_WL, "wl×", "wl x", 7, FCK_WL, -1)                                     \
    X(FC_DIV, "div", "div", 7, FCK_DIVERGE, -1)                                \
    X(FC_INDEX, "index", "index", 6, FCK_INDEX, -1)                            \
    X(FC_BUSY, "cpu%", "cpu%", 6, FCK_BUSY, -1)                                \
    X(FC_STEAL, "steal%", "steal%", 7, FCK_FIGURE, METRIC_CPU_STEAL)           \
    X(FC_R_USER, "usr×", "usr x", 6, FCK_RATIO, METRIC_CPU_USER)               \
    X(FC_R_SYS, "sys×", "sys x", 6, FCK_RATIO, METRIC_CPU_SYS)                 \
    X(FC_R_CTX, "ctx×", "ctx x", 6, FCK_RATIO, METRIC_CTXSW)                   \
    X(FC_R_INTR, "intr×", "intr x", 7, FCK_RATIO, METRIC_INTR)                 \
    X(FC_R_RUNQ, "runq×", "runq x", 7, FCK_RATIO, METRIC_RUNNABLE)             \
    X(FC_R_LOAD, "load×", "load x", 7, FCK_RATIO, METRIC_LOAD1)                \
    X(FC_KERNEL, "kernel", "kernel", 16, FCK_KERNEL, -1)                       \
    X(FC_VARIANT, "variant", "variant", 9, FCK_VARIANT, -1)

enum fleet_col {
#define FLEET_COL_ENUM(id, ...) id,
    FLEET_COLUMNS(FLEET_COL_ENUM)
#undef FLEET_COL_ENUM
        FC_COUNT
};

struct fleet_col_desc {
    const char *header, *header_ascii;
    int width;
    enum fleet_col_kind kind;
    int metric;
};

extern const struct fleet_col_desc fleet_cols[FC_COUNT];

/* True for a column of numbers (sortable worst first, with a
 * distribution). */
bool fleet_col_numeric(enum fleet_col c);

/* The distribution of a column over the rows shown. */
struct fleet_dist {
    int n;                     /* rows with a figure */
    double median, p95, worst; /* of the figures, NaN when n is 0 */
    int worst_src;             /* its source, -1 */
};

struct fleet_view {
    enum fleet_col sort;
    bool reverse; /* best first instead */
    char filter_text[128];
    struct fleet_filter filter;
    int wl; /* the workload the wl, div columns show, -1: none */
    int nrows, cap;
    int *row;     /* model indices, in display order */
    bool *marked; /* per model index: chosen for a fleet run */
    int nmarked, marked_cap;
    struct fleet_dist dist[FC_COUNT];
};

/* Sorted by drift, no filter, no workload shown. */
void fleet_view_init(struct fleet_view *v);

/* Recomputes the rows (filter, sort) and the distributions from m and the
 * run r (may be NULL). */
void fleet_view_build(struct fleet_view *v, const struct fleet_model *m,
                      const struct fleet_run *r);

/* Column c's number for source i (what sorts it and what the
 * distribution counts; signed for offset and drift), NaN for none. */
double fleet_cell_number(const struct fleet_view *v,
                         const struct fleet_model *m, int i, enum fleet_col c);

/* Column c's cell for source i, as text (not padded); "-" for none. now is
 * host monotonic time (ages). */
void fleet_cell_text(const struct fleet_view *v, const struct fleet_model *m,
                     const struct fleet_run *r, int i, enum fleet_col c,
                     double now, char *buf, size_t n);

/* The distribution row `which` (0 median, 1 p95, 2 worst) of column c, as
 * text; "" for a column without numbers. */
void fleet_dist_text(const struct fleet_view *v, enum fleet_col c, int which,
                     char *buf, size_t n);

/* Source i's ratio of registry workload w to its host's (fleet runs),
 * turned so that > 1 is worse in the guest; NaN when either has none. */
double fleet_wl_ratio(const struct fleet_model *m, int i, int w);

/* The distribution of figures x[0..n) of sources src[0..n) judged by
 * bad[0..n) (larger is worse; NaN: left out), and the sources of the k
 * worst, worst first, into worst[] (-1 where fewer). bad is reordered. */
void fleet_dist_compute(double *bad, const double *x, const int *src, int n,
                        struct fleet_dist *d, int *worst, int k);

/* Marks or unmarks source i for runs; false when out of memory. */
bool fleet_view_mark(struct fleet_view *v, int i, bool on);

/* True when source i is marked. */
bool fleet_view_marked(const struct fleet_view *v, int i);

/* The sources a run takes: the marked ones shown, or every row shown when
 * none is marked. Returns how many (into out, room for max). */
int fleet_view_chosen(const struct fleet_view *v, int *out, int max);

/* One line saying where the fleet stands: pmproxy, counts, the link's
 * trouble first when it has one. now is host monotonic time. */
void fleet_view_summary(const struct fleet_view *v, const struct fleet_model *m,
                        const struct fleet_run *r, double now, char *buf,
                        size_t n);

/* Frees the rows. */
void fleet_view_free(struct fleet_view *v);

#endif
