/* See probe_vcpu.h. The probe's spin follows its sleep, whose end the
 * guest stamps by its realtime clock (sleep_t1): the time map places that
 * stamp on the host's monotonic clock, within its error, and the spin
 * ends within spin_wall (by the guest's clock, at its rate) after it. The
 * VM readings around that span, the last at or before its start and the
 * first at or after its end, give what the vCPUs ran and waited over a
 * span holding the spin (about one interval at 1 s). In that span an
 * otherwise idle guest wants its vCPU mostly for the spin, so the share
 * of the wanted time the host held the vCPU off a CPU is the spin's; a
 * guest busy meanwhile gives the share over all it did. A span in which
 * the vCPUs wanted a CPU for less than the spin lasted did not see it. */
#include "session/probe_vcpu.h"

#include <math.h>

#include "session/session.h"
#include "session/vm_watch.h"

/* the spin's end is placed this much late: the rate is the last 10 s's,
 * and a late end only widens the span */
#define SPIN_MARGIN 1.5
/* of the spin's wall, what the vCPUs must have wanted a CPU in the span */
#define SPIN_SEEN 0.9

/* True while a run of the agent's is live: a probe would disturb it. */
static bool runs_live(const struct source_model *m)
{
    for (int k = 0; k < m->njobs; k++)
        if (m->job[k].state == 1)
            return true;
    return false;
}

/* Once per guest, when no probe of it has the host's view yet and its VM
 * has been read: the probe comes at once, and its spin's span is then
 * within the readings kept. */
static void ask(struct session *s, int src)
{
    struct source_model *m = &s->model[src];
    const struct vm_model *vm = vm_set_find(&s->vms->set, s->vms->pid[src]);
    if (m->held.asked || (m->held.count && isfinite(m->held.share)) || !vm ||
        !vm->nmark || m->state != SRC_LIVE || !m->info.pmda ||
        m->tmap.count < 2 || runs_live(m))
        return;
    if (session_store(s, src, "parallax.control.probe", "1"))
        m->held.asked = true;
}

/* The held share of m's newest probe once the reading after it is in;
 * false while it is not. A probe that cannot be placed gets NaN. */
static bool place(const struct session *s, int src, struct probe_held *out)
{
    const struct source_model *m = &s->model[src];
    const struct probe_sample *p = &m->probe;
    out->share = out->ran_s = out->waited_s = out->t0 = out->t1 = NAN;
    if (!isfinite(p->sleep_t1) || !(p->spin_wall > 0))
        return true; /* an older agent: no stamp to place */
    const struct vm_model *vm = vm_set_find(&s->vms->set, s->vms->pid[src]);
    if (vm && vm->cur.id.kind == VMK_UML) {
        /* it spins in a guest process of its own, a host process that
         * lives 60 ms and ends between two readings: never seen whole */
        out->unseen = true;
        return true;
    }
    struct time_at a;
    enum time_map_rc rc =
        time_map_host(&m->tmap, p->sleep_t1, !m->rates.unsteady, &a);
    if (rc == TM_PENDING)
        return false;
    double rate = m->rates.recent.ok && m->rates.recent.rate > 0
                      ? m->rates.recent.rate
                      : 1;
    struct vm_mark m0, m1;
    /* the estimate's error: the fetches' round trips for a steady clock,
     * up to the fetches around the stamp for one that varies */
    if (rc != TM_OK || !vm_watch_mark(s->vms, src, a.host - a.err, true, &m0))
        return true; /* before the readings kept */
    if (!vm_watch_mark(s->vms, src,
                       a.host + a.err + SPIN_MARGIN * p->spin_wall / rate,
                       false, &m1))
        return !vm_set_find(&s->vms->set, s->vms->pid[src]);
    if (m1.pid != m0.pid || m1.run_ns < m0.run_ns || m1.wait_ns < m0.wait_ns)
        return true; /* another VM, or the same found afresh */
    out->ran_s = (double)(m1.run_ns - m0.run_ns) / 1e9;
    out->waited_s = (double)(m1.wait_ns - m0.wait_ns) / 1e9;
    out->t0 = m0.t;
    out->t1 = m1.t;
    /* the spin wanted a CPU all its wall: a span whose vCPUs wanted less
     * missed it */
    out->unseen = out->ran_s + out->waited_s < SPIN_SEEN * p->spin_wall / rate;
    if (!out->unseen)
        out->share = out->waited_s / (out->ran_s + out->waited_s);
    return true;
}

void probe_vcpu_update(struct session *s)
{
    if (!s->vms)
        return;
    for (int src = 1; src < s->nsrc && src < VM_WATCH_SOURCES; src++) {
        struct source_model *m = &s->model[src];
        if (!s->vms->pid[src] || s->recorded[src])
            continue;
        ask(s, src);
        if (!m->probe.count || m->held.count == m->probe.count)
            continue;
        struct probe_held h = {.asked = m->held.asked};
        if (place(s, src, &h)) {
            h.count = m->probe.count;
            m->held = h;
        }
    }
}
