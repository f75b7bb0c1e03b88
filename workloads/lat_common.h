/* What the latency workloads (timer-lat, wakeup-lat) share: the clock
 * they stamp with, their figures from a histogram, and CPU hogs. */
#ifndef PARALLAX_LAT_COMMON_H
#define PARALLAX_LAT_COMMON_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

#include "workloads/lat_hist.h"
#include "workloads/workload.h"

/* Extras of a latency run are named "lat p50", ... "lat max", "lat mean"
 * (unit us): durations on the source's clock, which a host turns into
 * real time through that clock's rate (the others are counts). */
#define LAT_EXTRA_PREFIX "lat "

/* CLOCK_MONOTONIC in ns. */
static inline int64_t lat_ns(const struct timespec *ts)
{
    return (int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec;
}

static inline int64_t lat_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return lat_ns(&ts);
}

/* Fills res from h: figure p99 in us, ops the samples, extras the
 * percentiles, max and mean (us) and the sample count, and the histogram
 * itself. */
void lat_result(struct wl_result *res, const struct lat_hist *h);

/* Appends one extra (nothing when res has no room). */
void lat_add_extra(struct wl_result *res, const char *name, const char *unit,
                   double value);

/* Spins for ns nanoseconds of CLOCK_MONOTONIC (schbench's usec_spin: the
 * fixed work a worker does per wake-up). */
void lat_spin(int64_t ns);

/* CPU hogs: n threads spinning until lat_hogs_stop. */
struct lat_hogs {
    int n;
    _Atomic int stop;
    pthread_t t[64];
};

/* Starts h->n hogs (capped at 64). 0, or -1 (none left running). */
int lat_hogs_start(struct lat_hogs *h, int n);
void lat_hogs_stop(struct lat_hogs *h);

#endif
