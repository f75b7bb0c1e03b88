/* What parallax reads of every source of a fleet, by PCP name: the rows of
 * the metric table (both names of an "A - B" entry) and what a source is
 * (kernel release, CPUs, memory). Built once from core/metrics.h, so the
 * fleet cannot read a row the table does not have; fleet/pmlogger.conf
 * lists the same names for the farm's loggers. */
#ifndef PARALLAX_FLEET_METRICS_H
#define PARALLAX_FLEET_METRICS_H

#include <stdbool.h>

#include "core/metrics.h"

#define FLEET_NAMES_MAX 32

/* How often the fleet's /series poller reads a name. */
enum fleet_use {
    FLEET_POLL, /* every poll: what the fleet screen shows */
    FLEET_INFO, /* what a source is: at the first poll and now and then */
    FLEET_PAIR, /* not through /series: only a pair's /pmapi (Enter) */
};

/* One PCP name (and instance) the fleet reads. */
struct fleet_name {
    const char *name;
    const char *inst;      /* instance name, NULL for singular metrics */
    bool text;             /* a string value (the kernel release) */
    enum metric_unit unit; /* the unit values are turned into */
    enum fleet_use use;
};

struct fleet_metrics {
    int nnames;
    struct fleet_name names[FLEET_NAMES_MAX];
    int a[METRIC_COUNT];        /* a metric's name, or A of "A - B"; -1: none */
    int b[METRIC_COUNT];        /* B of "A - B", -1 otherwise */
    int release, ncpu, physmem; /* what a source is */
    int anchor; /* the name whose timestamps stand for the source's clock */
};

/* True for a metric of the table the fleet screen shows (its /series
 * poller reads only those every poll: a thousand sources' every metric
 * made pmproxy answer too slowly). */
bool fleet_metric_polled(enum metric_id id);

/* The table, built on first use (the same for every caller). */
const struct fleet_metrics *fleet_metrics(void);

/* The factor that turns a value in PCP's `units` ("Kbyte", "millisec",
 * "count", "none", as /series/descs and /pmapi spell them) into the unit
 * the metric table wants; false when they do not convert. */
bool fleet_unit_scale(const char *units, enum metric_unit want, double *scale);

#endif
