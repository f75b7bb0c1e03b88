/* A guest run's lease (pmdaparallax's --lease): how long it is in the
 * guest's own seconds and how often this parallax renews it, from what the
 * time map says of the guest's clock, so that a run this parallax can no
 * longer stop ends about --lease real seconds after the last renewal, and
 * one it follows never ends early, whatever the clock's rate. */
#ifndef PARALLAX_LEASE_H
#define PARALLAX_LEASE_H

#include "core/time_map.h"

#define LEASE_DEFAULT_S 30.0 /* --lease */
#define LEASE_MIN_S     2.0  /* the agent's bounds */
#define LEASE_MAX_S     3600.0
#define LEASE_RENEWALS  6   /* renewals within a lease, by the guest's clock */
#define LEASE_WILD_S    0.5 /* renewal period, at most, for a wild clock */

/* A lease as pmdaparallax reads it, in a start and in a renewal: the
 * plan's secs, to 4 digits. */
#define LEASE_ARG "--lease=%.4g"

struct lease_plan {
    double secs;  /* the lease in the guest's seconds, LEASE_MIN_S to
                     LEASE_MAX_S */
    double every; /* real seconds between renewals */
};

/* The plan for a lease of `real` seconds (LEASE_MIN_S to LEASE_MAX_S) on
 * a guest whose clock r describes: `real` times the fastest rate it has
 * lately been seen to run at (a clock k times fast spends a lease k times
 * sooner; a slow one is taken as real time, which only lengthens it),
 * within the agent's bounds, renewed LEASE_RENEWALS times a lease by that
 * clock. A wild clock (its rate not known yet, or varying while it runs
 * faster than real time, as qemu's fast icount does: 3 to 858 times by
 * how busy the guest is) gets the agent's longest lease, renewed every
 * LEASE_WILD_S at most. */
void lease_plan(double real, const struct time_rates *r, struct lease_plan *p);

#endif
