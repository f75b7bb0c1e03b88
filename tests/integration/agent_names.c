/* Prints every name of pmdaparallax's metrics that parallax's code uses,
 * one "USER NAME" line each, for tests/integration/test_agent_names.sh to
 * hold against a real pmcd with the agent: USER is "agent" (the table,
 * core/agent_metrics.h, with the descriptor it gives the agent),
 * "pmda_jobs" (the host's client, collectors/pmda_jobs.c), "pmapi" (the
 * fleet's, fleet/pmapi_source.c) or "record" (a recording's row of an
 * agent name, core/record_table.h, with its descriptor). A descriptor is
 * "|type|semantics|units" in pminfo -d's words. */
#include <stdio.h>
#include <string.h>

#include "collectors/pmda_jobs.h"
#include "core/agent_metrics.h"
#include "core/record_table.h"
#include "fleet/pmapi_source.h"

/* pminfo -d's words for the tables' tokens */
#define T_U32      "32-bit unsigned int"
#define T_U64      "64-bit unsigned int"
#define T_DOUBLE   "double"
#define T_STRING   "string"
#define S_COUNTER  "counter"
#define S_INSTANT  "instant"
#define S_DISCRETE "discrete"
#define U_NONE     "none"
#define U_SEC      "sec"
#define U_COUNT    "count"
#define U_BYTE     "byte"
#define U_KBYTE    "Kbyte"

static void agent_rows(void)
{
#define AGENT_ROW(id, cl, item, type, indom, sem, units, name)                 \
    printf("agent %s|%s|%s|%s\n", AGENT_NAME(id), T_##type, S_##sem, U_##units);
    AGENT_METRICS(AGENT_ROW)
#undef AGENT_ROW
}

/* The recording's rows whose name is one of the agent's. */
static void record_rows(void)
{
#define RECORD_ROW(id, pname, type, sem, unit, ...)                            \
    for (int k = 0; k < AM_COUNT; k++)                                         \
        if (strcmp(agent_metric_names[k], pname) == 0)                         \
            printf("record %s|%s|%s|%s\n", pname, T_##type, S_##sem, U_##unit);
    RECORD_SOURCE_TABLE(RECORD_ROW)
    RECORD_WORKLOAD_TABLE(RECORD_ROW)
#undef RECORD_ROW
}

int main(void)
{
    agent_rows();
    for (int i = 0; i < PMDA_NMETRICS; i++)
        printf("pmda_jobs %s\n", pmda_jobs_names[i]);
    for (int i = 0; i < PAF_COUNT; i++)
        printf("pmapi %s\n", pmapi_agent_names[i]);
    record_rows();
    return 0;
}
