/* The fleet's model: every source pmproxy knows, as the main loop folds
 * each poll in: its labels and what it is, figures (rates over the
 * stamps its logger recorded), whether its data is current, its clock's
 * drift and offset against its host, and the workload results of this
 * parallax's fleet runs. Views read it; only fleet_model_update and the
 * fleet run write it. No curses, no network: the poller thread's result
 * comes in as a struct fleet_raw. */
#ifndef PARALLAX_FLEET_MODEL_H
#define PARALLAX_FLEET_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "core/metrics.h"
#include "fleet/fleet_clock.h"
#include "fleet/fleet_labels.h"
#include "fleet/fleet_poll.h"
#include "fleet/idmap.h"

#define FLEET_WL_MAX  64 /* workloads a fleet run can hold results of */
#define FLEET_OFF_OBS 60 /* arrival brackets kept per source */
#define FLEET_GAPS    8  /* arrival gaps kept per source */
#define FLEET_LAG                                                              \
    0.05 /* s a record may take from its stamp to                              \
            pmproxy's answers (12-24 ms measured) */

enum fleet_state {
    FLEET_NODATA, /* pmproxy has no value of it (yet) */
    FLEET_LIVE,   /* its logger records it, pmproxy has the records */
    FLEET_LATE,   /* no new record for 2.5 intervals, but not for 2.5
                     times what pmproxy takes between the fleet's records:
                     the figures shown are that old */
    FLEET_STALE,  /* no new record for longer: its logger or pmcd is gone
                     or stuck; figures are n/a */
};

/* A finished run of one workload on one source (fleet/fleet_run.h). */
struct fleet_result {
    bool done;
    double median; /* the figure, by the source's clock ("reported") */
    double ci_lo, ci_hi;
    int n;                 /* repeats in the statistics */
    double diverge;        /* the source's seconds over real seconds during the
                              run, NaN when not measured */
    double diverge_within; /* its bound: each stamp lies within the round
                              trip of the fetch that brought it */
};

struct fleet_source {
    char id[SERIES_ID_LEN + 1];
    struct fleet_labels lab;
    char release[64];
    int ncpu;
    double mem_bytes;
    int host;     /* its host's index, -1 when none */
    bool present; /* in pmproxy's latest discovery */
    enum fleet_state state;
    double stamp;   /* the newest record's stamp (its clock), NaN */
    double seen_at; /* host monotonic time that record first arrived */
    /* host monotonic seconds between the arrivals of its new records:
     * pmproxy 6.0.3 takes in each archive's records at most every
     * (archives + directories) / 40 s (its discovery's callback
     * throttle), so a big fleet's records come in bursts */
    double gaps[FLEET_GAPS];
    int ngaps;
    double value[METRIC_COUNT]; /* figures, NaN = n/a */
    /* each CPU state's ms a second by its clock, the base of its shares */
    double cpu_rate[METRIC_COUNT];
    /* rate bases, per fleet_metrics name */
    double base_stamp[FLEET_NAMES_MAX];
    uint64_t base_count[FLEET_NAMES_MAX];
    struct fleet_ticks ticks; /* its anchor's stamps */
    double tick_rate;         /* its seconds per logger tick, NaN */
    double drift_ppm;         /* against its host, NaN */
    /* Its clock less this host's: each record first seen in a poll was
     * stamped between the previous poll's begin (less FLEET_LAG) and
     * this poll's end, which bounds the offset at that moment; the
     * brackets of the last FLEET_OFF_OBS records, carried to now with the
     * drift, intersect into [off_lo, off_hi]. */
    double read_begin; /* the last poll that read it began, realtime */
    int nobs, obs_head;
    struct {
        double lo, hi, at; /* bounds, and the realtime they are for */
    } obs[FLEET_OFF_OBS];
    double off_lo, off_hi; /* NaN when unknown */
    double offset;         /* against its host's: the middle of the bounds */
    double offset_res;     /* and their half-width: what it is good to */
    struct fleet_result *result; /* [FLEET_WL_MAX] of fleet runs, or NULL */
};

struct fleet_model {
    char url[256];
    double interval; /* of the polls */
    enum fleet_link link;
    char error[256];
    char note[200]; /* the poller's (fleet_raw's), cleaned there */
    double answered_at, down_since, poll_ms;
    unsigned long polls;
    double updated_at; /* host monotonic time of the last fold */
    int n, cap;
    struct fleet_source *src;
    struct idmap by_id;
    int nhosts, nguests, nlive, nlate;
};

/* An empty model of the pmproxy at url, polled every interval s. */
void fleet_model_init(struct fleet_model *m, const char *url, double interval);

/* Folds one poll in at host monotonic time now. */
void fleet_model_update(struct fleet_model *m, const struct fleet_raw *r,
                        double now);

/* Ages the states at host monotonic time now: sources whose records
 * stopped become stale, and the link itself when no poll has come back
 * for two intervals (the network thread waits on a request). */
void fleet_model_age(struct fleet_model *m, double now);

/* True once pmproxy answered, a source is live and every live one has
 * its rates (two records): the fleet is worth a first look. */
bool fleet_model_ready(const struct fleet_model *m);

/* The oriented guest/host ratio of metric id for source i (> 1: worse
 * in the guest), NaN when either side has no figure or no host. */
double fleet_metric_ratio(const struct fleet_model *m, int i, int id);

/* Source i's result of workload w, or NULL when it has none. */
const struct fleet_result *fleet_result(const struct fleet_model *m, int i,
                                        int w);

/* Sets source i's result of workload w; false when out of memory. */
bool fleet_set_result(struct fleet_model *m, int i, int w,
                      const struct fleet_result *r);

/* The index of the source named `name`, or -1. */
int fleet_find(const struct fleet_model *m, const char *name);

/* Frees the model's storage. */
void fleet_model_free(struct fleet_model *m);

#endif
