/* The host's view of a guest run (issue 26): what its VM's vCPUs ran on
 * this host over the run, beside the CPU the guest billed it. The span is
 * marked by the VM readings around the run (the last before the start's
 * store, the first after the fetch that saw it ended), so it holds the
 * whole run and a little idle time either side: a guest that billed more
 * than its vCPUs ran in that span billed time the host never gave it. */
#include <math.h>
#include <stdio.h>

#include "session/job_parts.h"
#include "session/vm_watch.h"

void job_vcpu_start(struct job_cell *c, const struct session *s, int src)
{
    c->vm_has[0] = c->vm_has[1] = false;
    c->billed_s = NAN;
    if (s->vms && isfinite(c->store_t[0]))
        c->vm_has[0] =
            vm_watch_mark(s->vms, src, c->store_t[0], true, &c->vm_at[0]);
}

void job_vcpu_end(struct job_cell *c, const struct pmda_job *pj)
{
    c->billed_s = pj->user + pj->sys; /* the run's totals: it has ended */
}

bool job_vcpu_pending(const struct job_cell *c)
{
    return c->vm_has[0] && !c->vm_has[1] && isfinite(c->done_t);
}

/* Marks c's end if a reading after it is in; true when it just was. */
static bool mark_end(struct job_cell *c, const struct session *s, int src)
{
    if (!job_vcpu_pending(c))
        return false;
    struct vm_mark end;
    if (!vm_watch_mark(s->vms, src, c->done_t, false, &end)) {
        if (!vm_set_find(&s->vms->set, s->vms->pid[src]))
            c->vm_has[0] = false; /* its VM has gone: no end to wait for */
        return false;
    }
    /* another VM now, or the same found afresh: no span */
    if (end.pid != c->vm_at[0].pid || end.run_ns < c->vm_at[0].run_ns) {
        c->vm_has[0] = false;
        return false;
    }
    c->vm_at[1] = end;
    c->vm_has[1] = true;
    return true;
}

void jobs_vcpu_update(struct jobs *j, const struct session *s)
{
    if (!s->vms)
        return;
    for (int src = jobs_first_remote(s); src < s->nsrc; src++)
        for (int w = 0; j->cells[src] && w < j->nwl; w++) {
            struct job_cell *c = &j->cells[src][w];
            if (!mark_end(c, s, src) || !isfinite(c->billed_s))
                continue;
            struct vm_run_cpu run = {
                .billed_s = c->billed_s,
                .ran_s =
                    (double)(c->vm_at[1].run_ns - c->vm_at[0].run_ns) / 1e9,
                .t0 = c->vm_at[0].t,
                .t1 = c->vm_at[1].t};
            snprintf(run.workload, sizeof(run.workload), "%s", j->wl[w]->name);
            vm_watch_set_run(s->vms, src, &run);
        }
}
