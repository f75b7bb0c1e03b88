/* Internal to the runner: the memory the parent and the child share, and
 * the child's side of a run. Not for workloads or front ends. */
#ifndef PARALLAX_RUNNER_CHILD_H
#define PARALLAX_RUNNER_CHILD_H

#include <stdatomic.h>
#include <sys/types.h>

#include "runner/runner.h"

/* One MAP_SHARED|MAP_ANONYMOUS mapping per run; the child writes, the
 * parent reads. result[i] is complete before nresults passes i. */
struct wl_shared {
    struct wl_progress progress;
    _Atomic int repeat;
    _Atomic int nresults;
    _Atomic double repeat_t0; /* t_start of the repeat in progress, or NaN */
    char error[256];          /* the child's reason for a failure */
    struct wl_result result[];
};

/* Everything the child needs, fixed before fork. */
struct wl_child_args {
    const struct workload *w;
    const double *param;
    const struct wl_run_opts *opt;
    const char *dir;
    struct wl_shared *shared;
    pid_t parent;
    int err_fd; /* becomes the child's stderr; -1: /dev/null */
};

/* The child's whole life: hygiene, then setup, warm-up, repeats,
 * teardown. Exits 0 when done or stopped, 1 on failure. */
_Noreturn void runner_child(const struct wl_child_args *a);

/* The figure for ops operations in secs seconds, from the descriptor's
 * figure callback or its figure_kind and scale. NaN when undefined. */
double runner_figure(const struct workload *w, const struct wl_ctx *ctx,
                     uint64_t ops, double secs);

#endif
