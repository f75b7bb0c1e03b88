/* See agent_metrics.h: its names, by row and by id. */
#include "core/agent_metrics.h"

const struct agent_metric_names agent_names = {
#define AGENT_NAME_INIT(id, cl, item, type, indom, sem, units, name)           \
    .id = "parallax." name,
    AGENT_METRICS(AGENT_NAME_INIT)
#undef AGENT_NAME_INIT
};

const char *const agent_metric_names[AM_COUNT] = {
#define AGENT_NAME_BY_ID(id, ...) [AM_##id] = AGENT_NAME(id),
    AGENT_METRICS(AGENT_NAME_BY_ID)
#undef AGENT_NAME_BY_ID
};
