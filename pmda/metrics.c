/* The rows of PARALLAX_METRICS turned into libpcp_pmda's pmdaMetric array
 * and a name list, both indexed by enum metric_id. */
#include "pmda/metrics.h"

pmdaMetric metric_table[M_COUNT] = {
#define METRIC_ROW(id, cl, item, type, indom, sem, units, name)                \
    [M_##id] = {NULL,                                                          \
                {PMDA_PMID(cl, item), PM_TYPE_##type, indom, PM_SEM_##sem,     \
                 U_##units}},
    PARALLAX_METRICS(METRIC_ROW)
#undef METRIC_ROW
};

static const char *const names[M_COUNT] = {
#define METRIC_NAME(id, cl, item, type, indom, sem, units, name)               \
    [M_##id] = "parallax." name,
    PARALLAX_METRICS(METRIC_NAME)
#undef METRIC_NAME
};

int metric_id_of(const pmdaMetric *m)
{
    return m >= metric_table && m < metric_table + M_COUNT
               ? (int)(m - metric_table)
               : -1;
}

const char *metric_name(enum metric_id id)
{
    return (unsigned)id < M_COUNT ? names[id] : "parallax.?";
}

int metric_by_pmid(pmID pmid)
{
    for (int i = 0; i < M_COUNT; i++)
        if (pmID_cluster(metric_table[i].m_desc.pmid) == pmID_cluster(pmid) &&
            pmID_item(metric_table[i].m_desc.pmid) == pmID_item(pmid))
            return i;
    return -1;
}
