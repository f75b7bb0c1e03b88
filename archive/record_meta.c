/* See record_meta.h. */
#include "archive/record_meta.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "archive/pmi_lib.h"
#include "core/metrics.h"
#include "core/record_table.h"

static pmUnits units_of(int space, int time, int count, int sspace, int stime)
{
    return pmi.make_units(space, time, count, sspace, stime,
                          count ? PM_COUNT_ONE : 0);
}

#define U_NONE  units_of(0, 0, 0, 0, 0)
#define U_SEC   units_of(0, 1, 0, 0, PM_TIME_SEC)
#define U_COUNT units_of(0, 0, 1, 0, 0)
#define U_BYTE  units_of(1, 0, 0, PM_SPACE_BYTE, 0)
#define U_KBYTE units_of(1, 0, 0, PM_SPACE_KBYTE, 0)

static pmUnits table_units(enum metric_unit u)
{
    switch (u) {
    case MU_MSEC:
        return units_of(0, 1, 0, 0, PM_TIME_MSEC);
    case MU_BYTE:
        return U_BYTE;
    case MU_COUNT:
        return U_COUNT;
    case MU_NONE:
        break;
    }
    return U_NONE;
}

int record_define_one(const char *name, pmID id, int type, pmInDom indom,
                      int sem, pmUnits units, const char *help)
{
    int sts = pmi.add_metric(name, id, type, indom, sem, units);
    if (sts >= 0)
        sts = pmi.put_text(PM_TEXT_PMID, PM_TEXT_ONELINE, id, help);
    if (sts >= 0)
        sts = pmi.put_text(PM_TEXT_PMID, PM_TEXT_HELP, id, help);
    return sts;
}

/* The metric table's rows under their PCP names; an expression (memory
 * used) is recorded through its operands, which the record table holds. */
static int define_table(void)
{
    for (int id = 0; id < METRIC_COUNT; id++) {
        const struct metric_desc *d = &metric_descs[id];
        if (strchr(d->pcp, ' '))
            continue;
        bool counter = metric_is_counter(id);
        pmInDom indom = d->inst ? pmi.make_indom(REC_DOMAIN, 1 + id)
                                : (pmInDom)PM_INDOM_NULL;
        char help[160];
        snprintf(help, sizeof(help), "parallax's \"%s\" row, as read (%s)",
                 d->label, counter ? "a counter" : "an instant value");
        int sts =
            record_define_one(d->pcp, pmi.make_id(REC_DOMAIN, CL_TABLE, id),
                              counter ? PM_TYPE_U64 : PM_TYPE_DOUBLE, indom,
                              counter ? PM_SEM_COUNTER : PM_SEM_INSTANT,
                              table_units(d->unit), help);
        if (sts >= 0 && d->inst)
            sts = pmi.add_instance(indom, d->inst, 1);
        if (sts < 0)
            return sts;
    }
    return 0;
}

static int define_rows(const struct jobs *j)
{
    int sts = 0;
    pmInDom wl = pmi.make_indom(REC_DOMAIN, WL_INDOM_SERIAL);
#define RS_DEFINE(id, pname, type, sem, unit, when, help, expr)                \
    if (sts >= 0)                                                              \
        sts = record_define_one(                                               \
            pname, pmi.make_id(REC_DOMAIN, CL_SOURCE, RECORD_##id),            \
            PM_TYPE_##type, PM_INDOM_NULL, PM_SEM_##sem, U_##unit, help);
    RECORD_SOURCE_TABLE(RS_DEFINE)
#undef RS_DEFINE
#define RW_DEFINE(id, pname, type, sem, unit, when, help, expr)                \
    if (sts >= 0)                                                              \
        sts = record_define_one(                                               \
            pname, pmi.make_id(REC_DOMAIN, CL_WORKLOAD, RECORD_##id),          \
            PM_TYPE_##type, wl, PM_SEM_##sem, U_##unit, help);
    RECORD_WORKLOAD_TABLE(RW_DEFINE)
#undef RW_DEFINE
    if (sts >= 0)
        sts = pmi.put_text(PM_TEXT_INDOM, PM_TEXT_ONELINE, wl,
                           "parallax's workload catalogue, one instance per "
                           "workload");
    for (int w = 0; w < j->nwl && sts >= 0; w++)
        sts = pmi.add_instance(wl, j->wl[w]->name, w);
    return sts < 0 ? sts : 0;
}

int record_define(const struct jobs *j)
{
    int sts = define_table();
    return sts < 0 ? sts : define_rows(j);
}
