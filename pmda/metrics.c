/* The rows of PARALLAX_METRICS turned into libpcp_pmda's pmdaMetric array,
 * indexed by enum metric_id (core/agent_metrics.h's enum agent_metric). */
#include "pmda/metrics.h"

pmdaMetric metric_table[M_COUNT] = {
#define METRIC_ROW(id, cl, item, type, indom, sem, units, name)                \
    [M_##id] = {NULL,                                                          \
                {PMDA_PMID(AGENT_CL_##cl, item), PM_TYPE_##type, I_##indom,    \
                 PM_SEM_##sem, U_##units}},
    PARALLAX_METRICS(METRIC_ROW)
#undef METRIC_ROW
};

int metric_id_of(const pmdaMetric *m)
{
    return m >= metric_table && m < metric_table + M_COUNT
               ? (int)(m - metric_table)
               : -1;
}

const char *metric_name(enum metric_id id)
{
    return (unsigned)id < M_COUNT ? agent_metric_names[id] : "parallax.?";
}

int metric_by_pmid(pmID pmid)
{
    for (int i = 0; i < M_COUNT; i++)
        if (pmID_cluster(metric_table[i].m_desc.pmid) == pmID_cluster(pmid) &&
            pmID_item(metric_table[i].m_desc.pmid) == pmID_item(pmid))
            return i;
    return -1;
}
