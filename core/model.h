/* The model of one source: the figures views show, computed once per sample
 * from raw counters (rates, CPU shares), with a short history per metric.
 * Views only read it; only model_update writes it. */
#ifndef PARALLAX_MODEL_H
#define PARALLAX_MODEL_H

#include <stdbool.h>

#include "core/clock_model.h"
#include "core/history.h"
#include "core/metrics.h"
#include "core/sample.h"
#include "core/time_map.h"
#include "core/vm_recorded.h"

enum source_state {
    SRC_CONNECTING, /* no sample yet */
    SRC_LIVE,       /* the last fetch succeeded (stale when it is old) */
    SRC_DOWN,       /* the last fetch failed; figures are n/a */
};

/* The host's view of a guest's newest clock probe, where the guest is
 * joined to its VM here (session/probe_vcpu.c): over the VM readings
 * around the probe's spin, the share of the time the vCPUs wanted a CPU
 * that the host held them off one, waited / (ran + waited). A guest
 * without a paravirtual steal clock cannot see this and bills the held
 * time as its own: its billed/wall reads 1.00 where the host gave 0.49. */
struct probe_held {
    unsigned long count;    /* the probe (probe.count) it is of; 0: none */
    double share;           /* NaN: not known */
    double ran_s, waited_s; /* the vCPUs' over the span, host's clock */
    double t0, t1;          /* the span, host monotonic */
    bool unseen; /* the vCPUs wanted a CPU less than the spin took: the
                    readings missed it (share NaN) */
    bool asked;  /* parallax asked the guest for a probe */
};

struct source_model {
    char name[64];
    char target[128];    /* "host:port" for pmcd sources, "" for this host */
    const char *backend; /* collector in use, NULL before the first sample */
    struct source_info info;
    enum source_state state;
    char error[160];       /* why the source is down */
    double fetch_ms;       /* round trip of the last fetch */
    double last_ok;        /* host monotonic time of the last good sample */
    double down_since;     /* host monotonic time the source went down, or 0 */
    double retry_at;       /* down: host monotonic time of the next try */
    unsigned long samples; /* good samples folded in */
    unsigned long updates; /* samples folded in, good or failed */
    struct sample prev;    /* last good sample, the base for rates */
    bool have_prev;        /* prev is a base: not before the first sample,
                              nor across an outage */
    double value[METRIC_COUNT]; /* shown figures, NaN = n/a */
    struct probe_sample probe;  /* the newest clock probe, by its clocks */
    struct probe_held held;     /* ... and the host's view of it */
    struct clock_model clock;   /* its clock against the host's */
    struct time_map tmap;       /* ... piece by piece, from every fetch */
    struct time_rates rates;    /* the rates tmap has seen */
    int njobs;                  /* the guest's workloads (pmdaparallax) */
    struct pmda_job job[SAMPLE_MAX_JOBS];
    unsigned stores_seen; /* store results folded in so far */
    struct store_result store[SAMPLE_MAX_STORES]; /* the newest ones */
    struct replay_pos replay; /* a recorded column: where the replay is */
    /* a replayed host's VMs at the record shown (core/vm_recorded.h),
     * allocated with the first record that holds any */
    int nvms;
    int nvms_held; /* the VMs the record holds, more than nvms when the
                      sample could not carry them all */
    struct vm_recorded *vms;
    struct history hist[METRIC_COUNT];
};

/* Resets m to a source named `name` (reading `target`, NULL for this host)
 * that has no sample yet. */
void model_init(struct source_model *m, const char *name, const char *target);

/* True when a live source's last good sample is older than 2.5 intervals
 * at host monotonic time `now` (a fetch is hanging); never for a recorded
 * column, whose samples carry recorded times. */
bool model_is_stale(const struct source_model *m, double now, double interval);

/* The extras text (workloads/extras.h) pmdaparallax gave with job, one of
 * m->job; "" when none. */
const char *model_job_extras(const struct source_model *m,
                             const struct pmda_job *job);

/* The extras pool's text at `at` of the last good sample (a job's
 * extras or repeat log); "" when at < 0 or out of the pool. */
const char *model_pool_text(const struct source_model *m, int at);

/* Folds one sample into m: figures, state and history. */
void model_update(struct source_model *m, const struct sample *s);

/* Frees what m allocated (its recorded VMs); m stays a model with none. */
void model_release(struct source_model *m);

#endif
