/* What parallax itself costs, for the title line: the CPU share of the
 * whole process (every thread, user and system) since the last tick, and
 * its resident memory. Cheap: one getrusage and one small /proc read. */
#ifndef PARALLAX_SELFCOST_H
#define PARALLAX_SELFCOST_H

#include <stdbool.h>
#include <stddef.h>

struct selfcost {
    double t_wall, t_cpu; /* monotonic and CPU seconds at the last tick */
    double cpu_pct;       /* CPU time over wall time since then, NaN: none */
    double rss_bytes;     /* resident set size, NaN when unreadable */
};

/* Starts measuring now; no share until the first tick. */
void selfcost_init(struct selfcost *c);

/* Takes the share since the last tick, when at least min_s seconds have
 * passed (a shorter span says little); reads the RSS then too. */
void selfcost_tick(struct selfcost *c, double min_s);

/* "parallax itself: 0.1% cpu, 3.1 MB", or brief: "self 0.1% cpu 3.1 MB"
 * ("?" for what is unknown). */
void selfcost_format(const struct selfcost *c, bool brief, char *buf, size_t n);

#endif
