/* See vm_remote.h. The thread owns the PCP context (a context belongs to
 * the thread that opens it) and opens it again after a failure, no
 * sooner than RETRY_S; its readings change hands through three buffers
 * (base/worker.h). */
#include "session/vm_remote.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/clock.h"
#include "base/diag.h"
#include "base/worker.h"
#include "collectors/vm_pcp.h"

#define STOP_WAIT_MS 200 /* how long vm_remote_stop waits for the thread */
#define RETRY_S      5.0 /* between attempts to reach a pmcd that failed */

/* What one round of the thread read. */
struct readings {
    int n;
    struct vm_raw raw[VM_MAX];
    char why[VM_WHY];
};

struct vm_remote {
    struct worker w;
    char target[128];
    double interval, epoch;
    bool retime;
    struct readings buf[3], *fill;
    struct triple tb;
};

static bool retimed(void *arg)
{
    return ((struct vm_remote *)arg)->retime;
}

static void remote_free(struct vm_remote *r)
{
    worker_destroy(&r->w);
    free(r);
}

static void *remote_main(void *arg)
{
    struct vm_remote *r = arg;
    struct vm_pcp *p = NULL;
    char why[VM_WHY] = "";
    double next_open = 0;
    for (;;) {
        double now = clock_mono();
        struct readings *out = r->fill;
        out->n = 0;
        if (!p && now >= next_open) {
            p = vm_pcp_open(r->target, why, sizeof(why));
            if (!p)
                next_open = now + RETRY_S;
        }
        if (p) {
            out->n = vm_pcp_read(p, now, out->raw, VM_MAX, why, sizeof(why));
            if (out->n < 0) { /* the connection is of no more use */
                DIAG(DIAG_INFO, "%s: VMs: %s", r->target, why);
                vm_pcp_close(p);
                p = NULL;
                out->n = 0;
            }
        }
        snprintf(out->why, sizeof(out->why), "%s", why);
        bool unread;
        pthread_mutex_lock(&r->w.lock);
        r->fill = triple_put(&r->tb, r->fill, &unread);
        /* on the samplers' grid: one reading a refresh, however long a
         * reading takes, when this host's VMs are read too */
        double iv = r->interval, e = r->epoch;
        double until = e + (floor((clock_mono() - e) / iv) + 1) * iv;
        bool stop = worker_wait_until(&r->w, until, retimed, r);
        r->retime = false;
        pthread_mutex_unlock(&r->w.lock);
        if (stop)
            break;
    }
    vm_pcp_close(p);
    if (worker_finish(&r->w)) /* abandoned: the thread frees */
        remote_free(r);
    return NULL;
}

struct vm_remote *vm_remote_start(const char *target, double interval,
                                  double epoch)
{
    struct vm_remote *r = calloc(1, sizeof(*r));
    if (!r)
        return NULL;
    if (worker_init(&r->w) != 0) {
        free(r);
        return NULL;
    }
    snprintf(r->target, sizeof(r->target), "%s", target);
    r->interval = interval;
    r->epoch = epoch;
    r->fill = &r->buf[0];
    r->tb.slot = &r->buf[1];
    r->tb.held = &r->buf[2];
    if (worker_start(&r->w, remote_main, r) != 0) {
        remote_free(r);
        return NULL;
    }
    return r;
}

bool vm_remote_take(struct vm_remote *r, struct vm_set *set)
{
    const struct readings *got = worker_take(&r->w, &r->tb);
    if (!got)
        return false;
    vm_set_update(set, got->raw, got->n);
    snprintf(set->why, sizeof(set->why), "%s", got->why);
    return true;
}

void vm_remote_set_interval(struct vm_remote *r, double interval)
{
    pthread_mutex_lock(&r->w.lock);
    r->interval = interval;
    r->retime = true;
    pthread_cond_signal(&r->w.wake);
    pthread_mutex_unlock(&r->w.lock);
}

static void free_of(void *r)
{
    remote_free(r);
}

void vm_remote_stop(struct vm_remote *r)
{
    if (r)
        worker_stop(&r->w, free_of, r, STOP_WAIT_MS);
}
