/* See host_probe.h. */
#include "session/host_probe.h"
#include "base/clock.h"

#include <time.h>

void host_probe_init(struct host_probe *h)
{
    *h = (struct host_probe){.p = PROBE_INIT, .next = clock_mono()};
}

int host_probe_fd(const struct host_probe *h)
{
    return h->p.pid > 0 ? h->p.fd : -1;
}

bool host_probe_step(struct host_probe *h, struct source_model *m, bool busy)
{
    char err[160];
    if (h->p.pid > 0) {
        if (probe_collect(&h->p, err, sizeof(err)) != 1)
            return false;
        const struct probe_result *r = &h->p.last;
        m->probe = (struct probe_sample){.count = h->p.count,
                                         .sleep_req = r->sleep_req,
                                         .sleep_took = r->sleep_took,
                                         .spin_wall = r->spin_wall,
                                         .spin_cpu = r->spin_cpu,
                                         .spin_waited = r->spin_waited,
                                         .sleep_t0 = r->sleep_t0,
                                         .sleep_t1 = r->sleep_t1};
        return true;
    }
    double now = clock_mono();
    if (busy || now < h->next)
        return false;
    h->next = now + HOST_PROBE_EVERY;
    probe_start(&h->p, err, sizeof(err));
    return false;
}

void host_probe_stop(struct host_probe *h)
{
    probe_cancel(&h->p);
}
