/* This host's clock probe: the very probe pmdaparallax runs in guests
 * (workloads/clock_probe.c), run by parallax itself when it starts and then
 * every HOST_PROBE_EVERY seconds, never while a host workload runs (it
 * would disturb the run and be disturbed by it). Results go into the
 * host's model. Seldom, unlike the agent's every 30 s: the host is the
 * reference the guests are held against, and each probe costs 50 ms of a
 * CPU, as much as all else parallax does in a minute. */
#ifndef PARALLAX_HOST_PROBE_H
#define PARALLAX_HOST_PROBE_H

#include <stdbool.h>

#include "core/model.h"
#include "workloads/clock_probe.h"

#define HOST_PROBE_EVERY 600.0 /* seconds: this host is the reference */

struct host_probe {
    struct probe p;
    double next; /* host monotonic time of the next probe */
};

/* A probe due at once. */
void host_probe_init(struct host_probe *h);

/* The descriptor to poll while a probe runs, else -1. */
int host_probe_fd(const struct host_probe *h);

/* Starts a due probe (unless `busy`) or collects a finished one into m.
 * Never blocks. True when m changed. */
bool host_probe_step(struct host_probe *h, struct source_model *m, bool busy);

/* Ends a running probe. */
void host_probe_stop(struct host_probe *h);

#endif
