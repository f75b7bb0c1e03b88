/* A workload: one microbenchmark of the catalogue, described by one
 * descriptor. Adding a workload is adding one file that defines a
 * `const struct workload wl_NAME` and one line in registry.c.
 *
 * Workload code runs inside a child process started by the runner (its own
 * process group, PR_SET_PDEATHSIG); it never talks to the terminal. Its
 * stdout is /dev/null; the last line it writes on stderr becomes the
 * reason shown when it fails. Helper processes are started with wl_fork()
 * (workloads/proc.h) so that they die with the run. */
#ifndef PARALLAX_WORKLOAD_H
#define PARALLAX_WORKLOAD_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "workloads/lat_hist.h"

struct wl_needs;

#define WL_MAX_PARAMS 8
#define WL_MAX_EXTRA  16
#define WL_MAX_LANES  8 /* tasks of a run whose progress shows one by one */

enum wl_better {
    WL_LOWER_IS_BETTER,  /* latencies, times */
    WL_HIGHER_IS_BETTER, /* throughputs, rates */
};

/* How the primary figure follows from `ops` operations in `secs` seconds
 * of wall time, unless the descriptor gives a `figure` callback. */
enum wl_figure_kind {
    WF_TIME_PER_OP, /* secs / ops * scale  (scale 1e9: ns, 1e6: us) */
    WF_OPS_PER_SEC, /* ops / secs * scale  (scale 1: ops/s, 1e-6: M...) */
};

/* A typed parameter with default and bounds: key=value on the command
 * line and in the PMDA's control metric. */
struct wl_param {
    const char *name;
    const char *help;
    double def, min, max;
    bool integer; /* only whole numbers are accepted */
};

/* Work done by each of a run's tasks running side by side (sched's jN),
 * for their live shares; n 0 when no tasks run side by side. */
struct wl_lanes {
    int n;
    uint64_t done[WL_MAX_LANES];
};

/* Live progress in memory shared by the child (writer) and the parent
 * (reader). Plain atomics, no locks: a reader may see a slightly old set. */
struct wl_progress {
    _Atomic uint64_t ops;     /* operations done in the measured phase */
    _Atomic int phase;        /* enum wl_phase */
    _Atomic int stop;         /* set by the parent: end the run now */
    _Atomic double wall;      /* seconds of the measured phase so far */
    _Atomic double user, sys; /* CPU seconds of the measured phase so far */
    _Atomic int nlanes;       /* struct wl_lanes, shared */
    _Atomic uint64_t lane[WL_MAX_LANES];
};

enum wl_phase {
    WL_IDLE,
    WL_WARMUP,
    WL_MEASURING,
    WL_DONE,
    WL_FAILED,
};

/* A secondary figure of a run (bonnie's phases, p99 of sleeps, fairness). */
struct wl_extra {
    char name[32];
    char unit[16];
    double value;
};

/* What one run gives: the primary figure and any secondary ones. */
struct wl_result {
    double figure; /* in the descriptor's unit */
    uint64_t ops;  /* operations measured */
    double wall;   /* seconds of wall time measured */
    double user, sys;
    /* CLOCK_REALTIME (s since the epoch) where the measured span began and
     * ended, stamped by the runner next to its wall clock: a host maps
     * them onto its own clock to time the repeat in real seconds. */
    double t_start, t_end;
    int placement; /* the placement actually used, see WL_PLACE_* */
    int nextra;
    struct wl_extra extra[WL_MAX_EXTRA];
    /* The latency workloads' distribution (workloads/lat_hist.h); n 0 for
     * the others. */
    struct lat_hist hist;
};

/* Where a workload's processes run. Every workload that starts a second
 * process or thread has a "placement" parameter with these values and
 * reports the placement with its figure. */
enum wl_placement {
    WL_PLACE_ANY = 0,   /* wherever the scheduler puts them */
    WL_PLACE_SAME = 1,  /* all on one CPU (the "cpu" parameter, default 0) */
    WL_PLACE_SPLIT = 2, /* peers on different CPUs */
};

/* The context a workload runs in. */
struct wl_ctx {
    const double *param; /* values, in the order of the descriptor's params */
    const char *dir;     /* a private directory, removed after the run */
    struct wl_progress *progress;
    void *state; /* the workload's own, set by setup */
    /* The run's mode, for composite workloads (the runner applies it to
     * step workloads itself): seconds per repeat, or, when count > 0, a
     * number of operations. Composites with a fixed amount of work may
     * ignore both; the runner never sets progress->stop at the deadline. */
    double duration;
    uint64_t count;
    /* CPU seconds a helper process not yet reaped has used for this run so
     * far (the fork workloads' small forking server): the runner adds
     * them to the run's own, as it would once the helper is reaped. */
    double helper_user, helper_sys;
};

struct workload {
    const char *name; /* catalogue name: lower case, digits, '-' */
    const char *desc; /* one line */
    const char *unit; /* of the primary figure: "ns", "us", "loops/s", ... */
    enum wl_better better;
    struct wl_param params[WL_MAX_PARAMS]; /* ends at the first NULL name */

    /* Simple workloads: the runner times `step` calls in batches (so a stop
     * request is seen within 100 ms), publishes progress between them, and
     * computes the figure from figure_kind and scale (or `figure`). */
    int (*setup)(struct wl_ctx *ctx);            /* optional; 0 or -1 */
    int (*step)(struct wl_ctx *ctx, uint64_t n); /* n operations; 0 or -1 */
    void (*teardown)(struct wl_ctx *ctx);        /* optional */
    enum wl_figure_kind figure_kind;
    double scale;
    /* Also called in the parent for live figures, with state NULL: it may
     * read ctx->param only. */
    double (*figure)(const struct wl_ctx *ctx, uint64_t ops, double secs);

    /* Composite workloads (several phases, own processes) set `run`
     * instead of `step`: it measures everything itself, keeps
     * ctx->progress up to date, returns when progress->stop is set, and
     * fills the result (extra figures included). 0, or -1 on failure. */
    int (*run)(struct wl_ctx *ctx, struct wl_result *res);

    /* Optional, for workloads that write files: what a run with these
     * parameter values writes into its directory (workloads/needs.h), for
     * the runner to check against what is free before it starts. */
    void (*needs)(const double *param, struct wl_needs *n);
    /* Optional: the figure real time would have given, when it was
     * measured on a clock running `rate` of its seconds per real second;
     * without it the unit decides (workloads/real_figure.h). */
    double (*real_figure)(double figure, double rate);
};

/* True when the parent asked the run to end. */
static inline bool wl_should_stop(const struct wl_ctx *ctx)
{
    return atomic_load_explicit(&ctx->progress->stop, memory_order_relaxed);
}

#endif
