/* The state of one pmdaparallax process, shared by its PDU callbacks
 * (fetch.c, store.c) and its main loop (pmdaparallax.c). */
#ifndef PARALLAX_PMDA_AGENT_H
#define PARALLAX_PMDA_AGENT_H

#include <stdbool.h>
#include <stdint.h>
#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "collectors/kernel_sched.h"
#include "pmda/control.h"
#include "pmda/runs.h"
#include "pmda/syscount.h"
#include "workloads/clock_probe.h"
#include "workloads/workload.h"

struct agent {
    struct runs *runs;
    struct syscount *syscount;
    struct probe probe;
    double probe_every; /* seconds between periodic probes; 0: on demand */
    double next_probe;  /* monotonic time of the next periodic probe */
    pmInDom catalogue;  /* the instance domain, once pmdaInit has run */
    pmInDom latency;    /* the latency buckets' (pmda/latency.c) */
    char user[64];      /* the user the agent and its workloads run as */
    struct kernel_sched kernel; /* read at start, while root (debugfs) */
    /* what the control metrics answer when fetched */
    char last_start[CONTROL_MAX_TEXT + 1];
    char last_stop[CONTROL_MAX_TEXT + 1];
    char last_renew[CONTROL_MAX_TEXT + 1];
    uint32_t stop_alls, probes_asked;
    char error[640]; /* why the last store was refused, "" if none was */
};

/* Registers the catalogue as the instance domain (pmdaCache, ids hashed
 * from the names, so they are the same on every host and every start). */
void catalogue_init(pmInDom indom);

/* The catalogue index of instance inst, or -1. */
int catalogue_index(pmInDom indom, unsigned int inst);

/* True when w keeps a latency histogram (timer-lat, wakeup-lat). */
bool latency_has_hist(const struct workload *w);

/* Registers every latency workload's buckets as the latency instance
 * domain (pmda/latency.c; names hashed as the catalogue's). */
void latency_init(pmInDom indom);

/* The workload (catalogue index) and bucket of latency instance inst;
 * false when there is no such instance. */
bool latency_instance(pmInDom indom, unsigned int inst, int *wl, int *bucket);

/* Fetch: refreshes the runs, then pmdaFetch with agent_fetch_value. */
int agent_fetch(int n, pmID *pmids, pmResult **resp, pmdaExt *pmda);

/* The fetch callback: one value of one metric and instance. */
int agent_fetch_value(pmdaMetric *m, unsigned int inst, pmAtomValue *atom);

/* Store: the control metrics; every other metric is PM_ERR_PERMISSION. */
int agent_store(pmResult *result, pmdaExt *pmda);

/* Hands the callbacks the agent; call before the first PDU. */
void agent_bind(struct agent *a);

/* The agent bound to the callbacks. */
struct agent *agent_bound(void);

/* Starts a clock probe now (unless one runs); logs a failure. */
void agent_probe_now(struct agent *a);

#endif
