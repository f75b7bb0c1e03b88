/* Sleep accuracy: sleeps of 1 ms, 10 ms and 1 s, each one relative
 * clock_nanosleep on CLOCK_MONOTONIC (what `sleep` does) timed on the same
 * clock. The overshoot is measured minus requested. A stop request is seen
 * between sleeps; one that lands inside a 1 s sleep is served by the
 * runner's SIGTERM 100 ms later, which ends the run just as well. */
#include "workloads/sleep_acc.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "workloads/calc.h"
#include "workloads/meter.h"
#include "workloads/workload.h"

enum { P_COUNT, P_LONG };

const struct sleep_dur sleep_durs[] = {
    {"1ms", 1000000L},
    {"10ms", 10000000L},
    {"1s", 1000000000L},
};
#define NDURS   (sizeof(sleep_durs) / sizeof(sleep_durs[0]))
#define PRIMARY 1 /* the 10 ms sleeps give the primary figure */
const size_t sleep_ndurs = NDURS;

/* One sleep of ns nanoseconds; its overshoot in seconds, or NaN. */
static double sleep_once(long ns)
{
    struct timespec req = {ns / 1000000000L, ns % 1000000000L}, rem;
    double t0 = wl_now();
    while (clock_nanosleep(CLOCK_MONOTONIC, 0, &req, &rem) != 0) {
        if (errno != EINTR)
            return NAN;
        req = rem; /* a signal that did not kill us: sleep the rest */
    }
    return wl_now() - t0 - (double)ns * 1e-9;
}

static void add_extra(struct wl_result *res, const char *label,
                      const char *what, double value)
{
    struct wl_extra *x = &res->extra[res->nextra++];
    snprintf(x->name, sizeof(x->name), "%s overshoot %s", label, what);
    snprintf(x->unit, sizeof(x->unit), "us");
    x->value = value * 1e6;
}

static int sleep_run(struct wl_ctx *ctx, struct wl_result *res)
{
    int count = (int)ctx->param[P_COUNT];
    size_t ndurs = ctx->param[P_LONG] != 0 ? NDURS : NDURS - 1;
    double *over = malloc((size_t)count * sizeof(*over));
    if (!over)
        return -1;
    struct wl_meter m;
    wl_meter_start(&m);
    uint64_t done = 0;
    for (size_t d = 0; d < ndurs; d++) {
        for (int i = 0; i < count; i++) {
            if (wl_should_stop(ctx)) {
                free(over);
                return 0;
            }
            over[i] = sleep_once(sleep_durs[d].ns);
            if (isnan(over[i])) {
                free(over);
                return -1;
            }
            wl_meter_publish(&m, ctx->progress, ++done);
        }
        double mean = calc_mean(over, (size_t)count);
        if (d == PRIMARY)
            res->figure = mean * 1e6;
        add_extra(res, sleep_durs[d].label, "mean", mean);
        add_extra(res, sleep_durs[d].label, "p99",
                  calc_percentile(over, (size_t)count, 99));
    }
    free(over);
    res->ops = done;
    return 0;
}

/* The figure is the overshoot of a 10 ms sleep: asked for by the slow
 * clock, it lasted (10 ms + overshoot) / rate of real time. */
static double sleep_real_figure(double figure, double rate)
{
    double req_us = (double)sleep_durs[PRIMARY].ns * 1e-3;
    return (req_us + figure) / rate - req_us;
}

const struct workload wl_sleep = {
    .name = "sleep",
    .desc = "sleep accuracy: overshoot of 1 ms, 10 ms, 1 s sleeps (figure: "
            "10 ms mean)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params =
        {
            {"count", "sleeps of each duration", 5, 1, 100000, true},
            {"long", "1: include the 1 s sleeps, 0: only 1 ms and 10 ms", 1, 0,
             1, true},
        },
    .run = sleep_run,
    .real_figure = sleep_real_figure,
};
