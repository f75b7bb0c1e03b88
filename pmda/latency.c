/* The latency buckets as an instance domain: for every latency workload
 * of the catalogue (one that keeps a histogram) one instance per bucket,
 * named "WORKLOAD/LOWER_EDGE_NS", its private data the workload's index
 * and the bucket. Values come from the last finished repeat's histogram
 * (pmda/runs.h, run_view.hist). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "pmda/agent.h"
#include "pmda/metrics.h"
#include "workloads/registry.h"

bool latency_has_hist(const struct workload *w)
{
    return strcmp(w->name, "timer-lat") == 0 ||
           strcmp(w->name, "wakeup-lat") == 0;
}

void latency_init(pmInDom indom)
{
    char name[64];
    for (int i = 0; workload_registry[i]; i++) {
        if (!latency_has_hist(workload_registry[i]))
            continue;
        for (int b = 0; b < LAT_HIST_NBUCKETS; b++) {
            snprintf(name, sizeof name, "%s/%.0f", workload_registry[i]->name,
                     lat_hist_lo(b));
            intptr_t priv = ((intptr_t)(i + 1) << 8) | b;
            int sts = pmdaCacheStoreKey(indom, PMDA_CACHE_ADD, name, 0, NULL,
                                        (void *)priv);
            if (sts < 0)
                pmNotifyErr(LOG_ERR, "latency: cannot add %s: %s", name,
                            pmErrStr(sts));
        }
    }
}

bool latency_instance(pmInDom indom, unsigned int inst, int *wl, int *bucket)
{
    void *priv = NULL;
    if (pmdaCacheLookup(indom, inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
        return false;
    intptr_t p = (intptr_t)priv;
    *wl = (int)(p >> 8) - 1;
    *bucket = (int)(p & 0xff);
    return *wl >= 0 && *wl < workload_count() && *bucket < LAT_HIST_NBUCKETS;
}
