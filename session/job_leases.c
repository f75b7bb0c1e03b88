/* The leases of a guest's runs (session/lease.h): the length a start
 * asks for, and the renewals each guest's sampler makes while the runs
 * are ours and live, so that one this parallax can no longer stop
 * (killed, crashed, cut off) ends within the lease. */
#include "session/jobs.h"

#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/sampler.h"
#include "session/job_parts.h"
#include "session/lease.h"

bool jobs_lease_arg(struct jobs *j, const struct source_model *m, int src,
                    char *buf, size_t n)
{
    if (m->info.lease && j->lease > 0) {
        struct lease_plan plan;
        lease_plan(j->lease, &m->rates, &plan);
        snprintf(buf, n, " " LEASE_ARG, plan.secs);
        return true;
    }
    if (j->told_no_lease[src])
        return false;
    j->told_no_lease[src] = true; /* an older agent refuses --lease */
    DIAG(DIAG_WARN,
         "%s: its pmdaparallax takes no lease (an older agent): a run "
         "started there goes on if this parallax is killed; x, or a "
         "later parallax, stops it",
         m->name);
    return false;
}

void jobs_renew_leases(const struct jobs *j, const struct session *s)
{
    for (int src = jobs_first_remote(s); src < s->nsrc; src++) {
        struct lease_plan plan;
        lease_plan(j->lease, &s->model[src].rates, &plan);
        char text[SAMPLER_RENEW_MAX];
        int head = snprintf(text, sizeof(text), LEASE_ARG, plan.secs);
        size_t used = (size_t)head;
        for (int w = 0; j->cells[src] && w < j->nwl; w++) {
            const struct job_cell *c = &j->cells[src][w];
            size_t len = strlen(j->wl[w]->name);
            if (c->state == JOB_RUNNING && c->leased && !c->foreign &&
                used + len + 2 <= sizeof(text))
                used += (size_t)snprintf(text + used, sizeof(text) - used,
                                         " %s", j->wl[w]->name);
        }
        session_renew(s, src, "parallax.control.renew",
                      used > (size_t)head ? text : "", plan.every);
    }
}
