/* The workload catalogue as an instance domain: one instance per entry of
 * workload_registry, named after the workload, private data its index. */
#include <stdint.h>

#include "pmda/agent.h"
#include "workloads/registry.h"

void catalogue_init(pmInDom indom)
{
    for (int i = 0; workload_registry[i]; i++) {
        int sts =
            pmdaCacheStoreKey(indom, PMDA_CACHE_ADD, workload_registry[i]->name,
                              0, NULL, (void *)(intptr_t)(i + 1));
        if (sts < 0)
            pmNotifyErr(LOG_ERR, "catalogue: cannot add %s: %s",
                        workload_registry[i]->name, pmErrStr(sts));
    }
}

int catalogue_index(pmInDom indom, unsigned int inst)
{
    void *priv = NULL;
    if (pmdaCacheLookup(indom, inst, NULL, &priv) != PMDA_CACHE_ACTIVE)
        return -1;
    int i = (int)(intptr_t)priv - 1;
    return i >= 0 && i < workload_count() ? i : -1;
}
