/* pmdaparallax's per-workload metrics (parallax.workload.*), read from a
 * guest's pmcd together with the metric table, one instance per workload
 * of the guest's catalogue. Needs the PCP context current. */
#ifndef PARALLAX_PMDA_JOBS_H
#define PARALLAX_PMDA_JOBS_H

#include <stdbool.h>
#include <pcp/pmapi.h>

#include "core/sample.h"

enum pmda_job_metric {
    PJ_STATE,
    PJ_RUNS,
    PJ_FIGURE,
    PJ_REPEATS_DONE,
    PJ_REPEATS,
    PJ_N,
    PJ_MEDIAN,
    PJ_MIN,
    PJ_MAX,
    PJ_MEAN,
    PJ_CI_LO,
    PJ_CI_HI,
    PJ_ERROR,
    PJ_EXTRAS, /* optional from here on: an older agent has none */
    PJ_RUN_START,
    PJ_RUN_END,
    PJ_REPEAT_LOG,
    PJ_LANES,
    PJ_HIST, /* a latency workload's histogram (workloads/lat_hist.h) */
    PJ_COUNT
};
#define PJ_FIRST_OPTIONAL PJ_EXTRAS

/* parallax.clock.*: fetched once per sample, no instances */
enum pmda_clock_metric {
    PC_PROBES,
    PC_SLEEP_REQ,
    PC_SLEEP_TOOK,
    PC_SPIN_WALL,
    PC_SPIN_CPU,
    PC_SPIN_WAITED, /* optional from here on */
    PC_SLEEP_START,
    PC_SLEEP_END,
    PC_COUNT
};
#define PC_FIRST_OPTIONAL PC_SPIN_WAITED

/* Everything fetched from the agent: PJ_COUNT, then PC_COUNT metrics. */
#define PMDA_NMETRICS (PJ_COUNT + PC_COUNT)

struct pmda_jobs {
    bool known; /* the agent answers */
    /* which metrics it exports: an older agent lacks the optional ones,
     * which are then fetched as another (and read as missing) */
    bool has[PMDA_NMETRICS];
    bool lease; /* it takes leases: parallax.control.renew (an older agent
                   refuses --lease) */
    pmID id[PMDA_NMETRICS];
    pmDesc desc[PMDA_NMETRICS];
    int ninst;
    int inst[SAMPLE_MAX_JOBS];      /* instance ids ... */
    char name[SAMPLE_MAX_JOBS][32]; /* ... and their names */
};

/* Looks the metrics and the catalogue up in the current context; false
 * (pj->known false) when the agent does not answer there. */
bool pmda_jobs_lookup(struct pmda_jobs *pj);

/* Decodes the value sets vs[0..PMDA_NMETRICS) of a fetch of pj->id into
 * out (the workloads and the clock probe). */
void pmda_jobs_decode(struct pmda_jobs *pj, pmValueSet *const *vs,
                      struct sample *out);

#endif
