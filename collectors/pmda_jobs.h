/* pmdaparallax's per-workload metrics (parallax.workload.*), read from a
 * guest's pmcd together with the metric table, one instance per workload
 * of the guest's catalogue. Needs the PCP context current. */
#ifndef PARALLAX_PMDA_JOBS_H
#define PARALLAX_PMDA_JOBS_H

#include <pcp/pmapi.h>
#include <stdbool.h>

#include "core/sample.h"

enum pmda_job_metric {
    PJ_STATE,
    PJ_RUNS,
    PJ_FIGURE,
    PJ_REPEATS_DONE,
    PJ_REPEATS,
    PJ_N,
    PJ_MEDIAN,
    PJ_CI_LO,
    PJ_CI_HI,
    PJ_ERROR,
    PJ_COUNT
};

struct pmda_jobs {
    bool known; /* the agent answers */
    pmID id[PJ_COUNT];
    pmDesc desc[PJ_COUNT];
    int ninst;
    int inst[SAMPLE_MAX_JOBS];      /* instance ids ... */
    char name[SAMPLE_MAX_JOBS][32]; /* ... and their names */
};

/* Looks the metrics and the catalogue up in the current context; false
 * (pj->known false) when the agent does not answer there. */
bool pmda_jobs_lookup(struct pmda_jobs *pj);

/* Decodes the value sets vs[0..PJ_COUNT) of a fetch of pj->id into out. */
void pmda_jobs_decode(struct pmda_jobs *pj, pmValueSet *const *vs,
                      struct sample *out);

#endif
