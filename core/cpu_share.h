/* CPU shares as top, vmstat and mpstat compute them: the milliseconds a
 * state counted in an interval over the milliseconds every state counted
 * in it. The counters say themselves how much CPU time passed, so a share
 * is right whatever the source's clock or the host's did meanwhile (a
 * guest's clock at half speed once read 199% idle against the interval by
 * its clock); no rate of it is involved. */
#ifndef PARALLAX_CPU_SHARE_H
#define PARALLAX_CPU_SHARE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/metrics.h"

/* What each CPU state (the MK_CPU rows) counted in one interval. */
struct cpu_deltas {
    /* CD_NONE: the source gives no such counter (neither end has it);
     * CD_OK: ms holds its delta; CD_BAD: it reset, or one end lacks it */
    enum { CD_NONE, CD_OK, CD_BAD } st[METRIC_COUNT];
    uint64_t ms[METRIC_COUNT];
};

/* Empties d: no state known. */
void cpu_deltas_init(struct cpu_deltas *d);

/* State id's counter went from prev to cur (a counter of `width` bits);
 * have_prev and have_cur say whether each end has it. */
void cpu_deltas_add(struct cpu_deltas *d, int id, bool have_prev, uint64_t prev,
                    bool have_cur, uint64_t cur, unsigned width);

/* The CPU time counted in the interval: the sum of every state's delta,
 * ms; NaN unless user, sys and idle are known (a share of less than that
 * is no share of the CPU's time), no state reset, and some time passed. */
double cpu_deltas_total(const struct cpu_deltas *d);

/* State id's share of that time, % (0 to 100); NaN where the state or
 * the total is not known. */
double cpu_deltas_share(const struct cpu_deltas *d, int id);

/* The same from each state's rate (CPU ms a second by one clock, any
 * clock: the same for every state; NaN where none): state id's share of
 * their sum, %, with the same rule for the states needed. For counters
 * whose newest values may come from different records (a fleet's, read
 * name by name through pmproxy): over a span they share, the rates'
 * ratios are the deltas'. */
double cpu_rates_share(const double rate[METRIC_COUNT], int id);

#endif
