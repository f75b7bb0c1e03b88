/* Clocks for composite workloads, which time themselves: wall time on
 * CLOCK_MONOTONIC and CPU time of the process and its reaped children,
 * published into the run's live progress. */
#ifndef PARALLAX_METER_H
#define PARALLAX_METER_H

#include <stdint.h>

#include "workloads/workload.h"

struct wl_meter {
    double wall0, user0, sys0;
};

/* CLOCK_MONOTONIC in seconds. */
double wl_now(void);

/* CLOCK_REALTIME in seconds since the epoch: the stamps a host maps onto
 * its own clock (the source's fetch timestamps are on this clock). */
double wl_realtime(void);

/* User and system CPU seconds of this process plus its reaped children. */
void wl_cpu_times(double *user, double *sys);

/* Starts the meter now. */
void wl_meter_start(struct wl_meter *m);

/* Publishes ops and the wall and CPU time since the meter started. */
void wl_meter_publish(const struct wl_meter *m, struct wl_progress *p,
                      uint64_t ops);

#endif
