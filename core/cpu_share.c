/* See cpu_share.h. */
#include "core/cpu_share.h"

#include <math.h>
#include <string.h>

#include "core/rate.h"

void cpu_deltas_init(struct cpu_deltas *d)
{
    memset(d, 0, sizeof(*d));
}

void cpu_deltas_add(struct cpu_deltas *d, int id, bool have_prev, uint64_t prev,
                    bool have_cur, uint64_t cur, unsigned width)
{
    if (id < 0 || id >= METRIC_COUNT || metric_descs[id].kind != MK_CPU)
        return;
    if (!have_prev && !have_cur) {
        d->st[id] = CD_NONE;
        return;
    }
    uint64_t ms;
    bool ok = have_prev && have_cur &&
              counter_delta(prev, cur, width, &ms) == RATE_OK;
    d->st[id] = ok ? CD_OK : CD_BAD;
    d->ms[id] = ok ? ms : 0;
}

double cpu_deltas_total(const struct cpu_deltas *d)
{
    static const int needed[] = {METRIC_CPU_USER, METRIC_CPU_SYS,
                                 METRIC_CPU_IDLE};
    for (size_t i = 0; i < sizeof(needed) / sizeof(needed[0]); i++)
        if (d->st[needed[i]] != CD_OK)
            return NAN;
    double total = 0;
    for (int id = 0; id < METRIC_COUNT; id++) {
        if (d->st[id] == CD_BAD)
            return NAN; /* the states counted no longer add up */
        if (d->st[id] == CD_OK)
            total += (double)d->ms[id];
    }
    return total > 0 ? total : NAN;
}

double cpu_deltas_share(const struct cpu_deltas *d, int id)
{
    if (id < 0 || id >= METRIC_COUNT || d->st[id] != CD_OK)
        return NAN;
    double total = cpu_deltas_total(d);
    return isfinite(total) ? 100.0 * (double)d->ms[id] / total : NAN;
}

double cpu_rates_share(const double rate[METRIC_COUNT], int id)
{
    if (id < 0 || id >= METRIC_COUNT || metric_descs[id].kind != MK_CPU ||
        !isfinite(rate[id]) || !isfinite(rate[METRIC_CPU_USER]) ||
        !isfinite(rate[METRIC_CPU_SYS]) || !isfinite(rate[METRIC_CPU_IDLE]))
        return NAN;
    double total = 0;
    for (int k = 0; k < METRIC_COUNT; k++)
        if (metric_descs[k].kind == MK_CPU && isfinite(rate[k]))
            total += rate[k];
    return total > 0 ? 100.0 * rate[id] / total : NAN;
}
