/* The metric table of pmdaparallax, its rows core/agent_metrics.h's: the id
 * enum and libpcp_pmda's pmdaMetric array are generated from them.
 * pmda/pmns and pmda/help name the same rows (the tests compare them). */
#ifndef PARALLAX_PMDA_METRICS_H
#define PARALLAX_PMDA_METRICS_H

#include <pcp/pmapi.h>
#include <pcp/pmda.h>

#include "core/agent_metrics.h"

#define CATALOGUE_INDOM 0 /* serial of the one instance domain */

/* core/agent_metrics.h's tokens as libpcp_pmda's values */
#define U_NONE  PMDA_PMUNITS(0, 0, 0, 0, 0, 0)
#define U_SEC   PMDA_PMUNITS(0, 1, 0, 0, PM_TIME_SEC, 0)
#define U_COUNT PMDA_PMUNITS(0, 0, 1, 0, 0, PM_COUNT_ONE)
#define I_ONE   PM_INDOM_NULL
#define I_WL    CATALOGUE_INDOM

/* The rows of core/agent_metrics.h (the one table of the agent's names,
 * without PCP) */
#define PARALLAX_METRICS(X) AGENT_METRICS(X)

enum metric_id {
#define METRIC_ENUM(id, ...) M_##id,
    PARALLAX_METRICS(METRIC_ENUM)
#undef METRIC_ENUM
        M_COUNT
};

/* libpcp_pmda's table, indexed by enum metric_id (pmdaInit fills in the
 * domain and the instance domain). */
extern pmdaMetric metric_table[M_COUNT];

/* The id of a row of metric_table, or -1 when m is not one. */
int metric_id_of(const pmdaMetric *m);

/* The full name of a metric, "parallax.control.start". */
const char *metric_name(enum metric_id id);

/* The metric a PMID names, or -1. */
int metric_by_pmid(pmID pmid);

#endif
