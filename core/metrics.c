/* The metric descriptors, generated from METRIC_TABLE in metrics.h. */
#include "core/metrics.h"

#include <string.h>

const struct metric_desc metric_descs[METRIC_COUNT] = {
#define METRIC_DESC(id, key_, label_, pcp_, inst_, kind_, unit_, fmt_, ro_)    \
    [METRIC_##id] = {.key = key_,                                              \
                     .label = label_,                                          \
                     .pcp = pcp_,                                              \
                     .inst = inst_,                                            \
                     .kind = kind_,                                            \
                     .unit = unit_,                                            \
                     .format = fmt_,                                           \
                     .ratio = ro_},
    METRIC_TABLE(METRIC_DESC)
#undef METRIC_DESC
};

bool metric_is_counter(enum metric_id id)
{
    return metric_descs[id].kind != MK_INSTANT;
}

int metric_by_key(const char *key)
{
    for (int i = 0; i < METRIC_COUNT; i++)
        if (strcmp(metric_descs[i].key, key) == 0)
            return i;
    return -1;
}
