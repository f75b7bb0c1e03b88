/* pmdaparallax's per-workload metrics (parallax.workload.*), read from a
 * guest's pmcd together with the metric table, one instance per workload
 * of the guest's catalogue. Needs the PCP context current. */
#ifndef PARALLAX_PMDA_JOBS_H
#define PARALLAX_PMDA_JOBS_H

#include <stdbool.h>
#include <pcp/pmapi.h>

#include "core/agent_metrics.h"
#include "core/sample.h"

/* core/agent_metrics.h's reads, parallax.workload.* (one instance per
 * workload), then parallax.clock.* (fetched once per sample, no
 * instances) */
enum pmda_job_metric {
#define PJ_ENUM(k, row) PJ_##k,
    AGENT_JOB_READS(PJ_ENUM) AGENT_JOB_READS_HOST(PJ_ENUM)
#undef PJ_ENUM
        PJ_COUNT
};
/* optional from here on: an older agent has none */
#define PJ_FIRST_OPTIONAL PJ_EXTRAS

enum pmda_clock_metric {
#define PC_ENUM(k, row) PC_##k,
    AGENT_PROBE_READS(PC_ENUM) AGENT_PROBE_READS_HOST(PC_ENUM)
#undef PC_ENUM
        PC_COUNT
};
/* optional from here on */
#define PC_FIRST_OPTIONAL PC_SPIN_WAITED

/* Everything fetched from the agent: PJ_COUNT, then PC_COUNT metrics. */
#define PMDA_NMETRICS (PJ_COUNT + PC_COUNT)

/* Their names, core/agent_metrics.h's (tests/integration/
 * test_agent_names.sh holds them to a real agent's). */
extern const char *const pmda_jobs_names[PMDA_NMETRICS];

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
