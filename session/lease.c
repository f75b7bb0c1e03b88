/* See lease.h. A rate within TIME_MAP_TOL of 1 is real time: the noise of
 * a few fetches does not stretch a lease. */
#include "session/lease.h"

#include <math.h>

void lease_plan(double real, const struct time_rates *r, struct lease_plan *p)
{
    double k = fmax(r->recent.ok ? r->recent.rate : NAN, r->hi);
    bool fast = k > 1 + TIME_MAP_TOL;
    if (!r->recent.ok || !(k > 0) || (fast && r->unsteady)) {
        p->secs = LEASE_MAX_S;
        p->every = fmin(real / LEASE_RENEWALS, LEASE_WILD_S);
        return;
    }
    if (!fast)
        k = 1;
    p->secs = fmin(LEASE_MAX_S, fmax(LEASE_MIN_S, real * k));
    p->every = p->secs / k / LEASE_RENEWALS;
}
