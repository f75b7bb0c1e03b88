/* See fleet_run.h. Each member moves queued -> connecting -> running
 * (one workload after another) -> done, or failed / stopped; a sampler
 * (collectors/sampler.h, the pmcd backend) is its connection while it is
 * active, so a slow or dead source only ever holds its own thread. */
#include "fleet/fleet_run.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/clock.h"
#include "base/diag.h"
#include "collectors/sampler.h"
#include "runner/suites.h"
#include "session/lease.h"
#include "workloads/registry.h"

#define CONNECT_WAIT 10.0 /* s for a source's pmcd to answer */
#define FREE_WAIT    2.0  /* s fleet_run_free waits for the stops */

static const struct workload *wl_of(const struct fleet_run *r, int pos)
{
    return workload_registry[r->wl[pos]];
}

static void say(struct fleet_run *r, const struct fleet_model *m,
                const struct fleet_member *f)
{
    snprintf(r->message, sizeof(r->message), "%s: %s", m->src[f->src].lab.name,
             f->note);
    r->message_seq++;
    DIAG(DIAG_INFO, "fleet run: %s", r->message);
}

/* Adds source src as a member unless it is one already. */
static bool add_member(struct fleet_run *r, int src, bool host)
{
    for (int i = 0; i < r->n; i++)
        if (r->m[i].src == src)
            return true;
    struct fleet_member *f = &r->m[r->n++];
    memset(f, 0, sizeof(*f));
    f->src = src;
    f->host = host;
    f->state = FM_QUEUED;
    return true;
}

int fleet_run_start(struct fleet_run *r, const struct fleet_model *m,
                    const int *guests, int nguests, const char *what,
                    int repeats, int concurrency, char *err, size_t errlen)
{
    if (r->active) {
        snprintf(err, errlen, "a fleet run is going; stop it first (x)");
        return -1;
    }
    const struct workload *wl[FLEET_WL_MAX];
    int nwl = suite_or_list_resolve(what, wl, FLEET_WL_MAX, err, errlen);
    if (nwl < 0)
        return -1;
    if (nguests <= 0) {
        snprintf(err, errlen,
                 "no guest chosen: mark some (Space) or show "
                 "some (the filter)");
        return -1;
    }
    struct fleet_member *members =
        calloc((size_t)nguests * 2, sizeof(*members));
    if (!members) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    struct wake_gate *gate = r->gate;
    int wake_fd = r->wake_fd;
    double lease = r->lease;
    free(r->m);
    memset(r, 0, sizeof(*r));
    r->m = members;
    r->gate = gate;
    r->wake_fd = wake_fd;
    r->lease = lease > 0 ? lease : LEASE_DEFAULT_S;
    if (!r->gate && r->wake_fd > 0)
        r->gate = wake_gate_new(r->wake_fd);
    snprintf(r->what, sizeof(r->what), "%s", what);
    for (int i = 0; i < nwl; i++)
        for (int k = 0; workload_registry[k]; k++)
            if (workload_registry[k] == wl[i])
                r->wl[r->nwl++] = k;
    wl_run_opts_default(&r->opts);
    r->opts.repeats = repeats;
    r->concurrency = concurrency > 0 ? concurrency : FLEET_CONCURRENCY;
    for (int i = 0; i < nguests; i++) /* hosts first: they run first */
        if (m->src[guests[i]].host >= 0)
            add_member(r, m->src[guests[i]].host, true);
    for (int i = 0; i < nguests; i++)
        add_member(r, guests[i], false);
    r->active = true;
    r->started = clock_mono();
    DIAG(DIAG_INFO, "fleet run: %s on %d sources, %d at a time", what, r->n,
         r->concurrency);
    return 0;
}

/* Ends a member's connection. */
static void disconnect(struct fleet_member *f)
{
    if (f->sampler)
        sampler_stop(f->sampler);
    f->sampler = NULL;
    free(f->model);
    f->model = NULL;
}

static void fail(struct fleet_run *r, const struct fleet_model *m,
                 struct fleet_member *f, const char *why)
{
    snprintf(f->note, sizeof(f->note), "%s", why);
    f->state = FM_FAILED;
    disconnect(f);
    say(r, m, f);
}

static bool connect_member(struct fleet_run *r, const struct fleet_model *m,
                           struct fleet_member *f, double now)
{
    const struct fleet_source *s = &m->src[f->src];
    f->model = malloc(sizeof(*f->model));
    if (!f->model) {
        fail(r, m, f, "out of memory");
        return false;
    }
    model_init(f->model, s->lab.name, s->lab.pmcd);
    f->sampler = sampler_start(remote_backends, s->lab.pmcd, FLEET_RUN_INTERVAL,
                               r->gate);
    if (!f->sampler) {
        fail(r, m, f, "cannot start a thread");
        return false;
    }
    f->state = FM_CONNECTING;
    f->give_up_at = now + CONNECT_WAIT;
    return true;
}

/* The agent's report of workload `name` in f's newest fetch, or NULL. */
static const struct pmda_job *job_of(const struct fleet_member *f,
                                     const char *name)
{
    for (int i = 0; i < f->model->njobs; i++)
        if (strcmp(f->model->job[i].name, name) == 0)
            return &f->model->job[i];
    return NULL;
}

/* Has f's sampler renew the lease of its run in progress, at the length
 * and pace its clock asks for now (session/lease.h), or no longer once the
 * run has ended or a stop was stored (a stop that never arrives is made
 * good by the lease): a run outlives a parallax killed outright by a
 * lease at most, as session/jobs.c's do. */
static void renew_lease(const struct fleet_run *r, struct fleet_member *f)
{
    if (!f->sampler || !f->leased)
        return;
    if (f->state != FM_RUNNING) {
        sampler_renew(f->sampler, "parallax.control.renew", "", 0);
        return;
    }
    struct lease_plan plan;
    lease_plan(r->lease, &f->model->rates, &plan);
    char text[128];
    snprintf(text, sizeof(text), LEASE_ARG " %s", plan.secs,
             wl_of(r, f->pos)->name);
    sampler_renew(f->sampler, "parallax.control.renew", text, plan.every);
}

/* Stores the start of the workload at f->pos, with a lease where the
 * agent takes one (an older agent's runs end only when stopped). */
static void start_workload(struct fleet_run *r, struct fleet_member *f)
{
    const struct workload *w = wl_of(r, f->pos);
    char cmd[256];
    int n =
        snprintf(cmd, sizeof(cmd), "%s --repeats=%d --duration=%g --warmup=%g",
                 w->name, r->opts.repeats, r->opts.duration, r->opts.warmup);
    f->leased = f->model->info.lease;
    if (f->leased) {
        struct lease_plan plan;
        lease_plan(r->lease, &f->model->rates, &plan);
        snprintf(cmd + n, sizeof(cmd) - (size_t)n, " " LEASE_ARG, plan.secs);
    }
    const struct pmda_job *pj = job_of(f, w->name);
    f->runs_base = pj ? pj->runs : 0;
    f->store_id = sampler_store(f->sampler, "parallax.control.start", cmd);
    f->seen = false;
    f->repeat = 0;
    f->repeats = r->opts.repeats;
    f->state = FM_RUNNING;
    renew_lease(r, f);
}

/* The outcome of store id among f's newest, or NULL. */
static const struct store_result *store_of(const struct fleet_member *f,
                                           unsigned id)
{
    for (int i = 0; i < SAMPLE_MAX_STORES; i++)
        if (f->model->store[i].id == id)
            return &f->model->store[i];
    return NULL;
}

/* A finished run of the workload at f->pos: its result into the model. */
static void record(struct fleet_run *r, struct fleet_model *m,
                   struct fleet_member *f, const struct pmda_job *pj,
                   const struct sample *smp)
{
    struct fleet_result res = {.done = true,
                               .median = pj->n > 0 ? pj->median : NAN,
                               .ci_lo = pj->ci_lo,
                               .ci_hi = pj->ci_hi,
                               .n = pj->n,
                               .diverge = NAN,
                               .diverge_within = NAN};
    double real = smp->t_real - f->real0;
    /* each stamp was taken within its fetch's round trip, so the real
     * span between them is real, give or take both half round trips */
    double half = (smp->t_after - smp->t_before) / 2 + f->half0;
    if (f->seen && real > 0.5 && real > 2 * half && isfinite(smp->t_source)) {
        res.diverge = (smp->t_source - f->src0) / real;
        res.diverge_within = res.diverge * half / (real - half);
    }
    fleet_set_result(m, f->src, r->wl[f->pos], &res);
}

/* What a running member's newest fetch says. */
static void follow_run(struct fleet_run *r, struct fleet_model *m,
                       struct fleet_member *f, const struct sample *smp)
{
    const struct workload *w = wl_of(r, f->pos);
    const struct pmda_job *pj = job_of(f, w->name);
    bool shown = pj && pj->runs != f->runs_base;
    if (f->store_id) {
        const struct store_result *sr = store_of(f, f->store_id);
        if (!sr && !shown)
            return; /* not made yet */
        /* (a run that shows was started: its store's outcome may have
         * come in a sample a newer one replaced) */
        f->store_id = 0;
        if (sr && sr->status < 0) {
            fail(r, m, f, sr->msg);
            return;
        }
    }
    if (!shown)
        return; /* our start has not shown yet */
    if (pj->state == 1) {
        if (!f->seen && isfinite(smp->t_source)) {
            f->seen = true;
            f->src0 = smp->t_source;
            f->real0 = smp->t_real;
            f->half0 = (smp->t_after - smp->t_before) / 2;
        }
        f->repeat = pj->repeats_done;
        return;
    }
    if (pj->state == 3 || (pj->state == 2 && pj->n == 0)) {
        char why[sizeof(pj->error) + 64];
        snprintf(why, sizeof(why), "%s: %s", w->name,
                 pj->error[0] ? pj->error : "failed");
        fail(r, m, f, why);
        return;
    }
    if (pj->state != 2) { /* idle again: stopped by someone */
        snprintf(f->note, sizeof(f->note), "%s was stopped", w->name);
        f->state = FM_STOPPED;
        disconnect(f);
        return;
    }
    record(r, m, f, pj, smp);
    if (++f->pos < r->nwl) {
        start_workload(r, f);
    } else {
        f->state = FM_DONE;
        disconnect(f);
    }
}

/* Folds f's newest fetch, if any. */
static bool step_member(struct fleet_run *r, struct fleet_model *m,
                        struct fleet_member *f, double now)
{
    const struct sample *smp = sampler_take(f->sampler);
    if (!smp) {
        if (f->state == FM_CONNECTING && now > f->give_up_at) {
            fail(r, m, f, "its pmcd did not answer");
            return true;
        }
        return false;
    }
    model_update(f->model, smp);
    if (f->state == FM_STOPPING) {
        const struct store_result *sr = store_of(f, f->store_id);
        if (sr || f->model->state == SRC_DOWN) {
            f->state = FM_STOPPED;
            disconnect(f);
        }
        return true;
    }
    if (f->model->state == SRC_DOWN) {
        if (f->state == FM_RUNNING || now > f->give_up_at) {
            char why[sizeof(f->model->error) + sizeof(m->src[0].lab.pmcd) + 16];
            snprintf(why, sizeof(why), "%s (pmcd %s)", f->model->error,
                     m->src[f->src].lab.pmcd);
            fail(r, m, f, why);
        }
        return true;
    }
    if (f->state == FM_CONNECTING) {
        if (!f->model->info.pmda || !f->model->njobs) {
            fail(r, m, f, "no pmdaparallax at its pmcd (docs/guests.md)");
            return true;
        }
        start_workload(r, f);
        return true;
    }
    follow_run(r, m, f, smp);
    renew_lease(r, f);
    return true;
}

static bool is_active(const struct fleet_member *f)
{
    return f->state == FM_CONNECTING || f->state == FM_RUNNING ||
           f->state == FM_STOPPING;
}

bool fleet_run_update(struct fleet_run *r, struct fleet_model *m, double now)
{
    if (!r->m)
        return false;
    bool changed = false;
    int active = 0, hosts_left = 0;
    for (int i = 0; i < r->n; i++) {
        struct fleet_member *f = &r->m[i];
        if (is_active(f))
            changed |= step_member(r, m, f, now);
        active += is_active(f);
        hosts_left += f->host && (is_active(f) || f->state == FM_QUEUED);
    }
    for (int i = 0; r->active && i < r->n && active < r->concurrency; i++) {
        struct fleet_member *f = &r->m[i];
        /* guests start once every host has its figures */
        if (f->state != FM_QUEUED || (!f->host && hosts_left))
            continue;
        if (connect_member(r, m, f, now))
            active++;
        changed = true;
    }
    bool queued = false;
    for (int i = 0; i < r->n; i++)
        queued |= r->m[i].state == FM_QUEUED;
    if (r->active && !active && !queued) {
        r->active = false;
        r->ended = now;
        DIAG(DIAG_INFO, "fleet run: %s ended", r->what);
        changed = true;
    }
    return changed;
}

void fleet_run_stop(struct fleet_run *r)
{
    for (int i = 0; i < r->n; i++) {
        struct fleet_member *f = &r->m[i];
        if (f->state == FM_QUEUED) {
            f->state = FM_STOPPED;
            snprintf(f->note, sizeof(f->note), "not started: stopped");
        } else if (f->state == FM_RUNNING && f->sampler) {
            f->store_id = sampler_store(f->sampler, "parallax.control.stop",
                                        wl_of(r, f->pos)->name);
            f->state = FM_STOPPING;
            renew_lease(r, f);
        } else if (f->state == FM_CONNECTING) {
            f->state = FM_STOPPED;
            disconnect(f);
        }
    }
}

const struct fleet_member *fleet_run_member(const struct fleet_run *r, int src)
{
    for (int i = 0; r->m && i < r->n; i++)
        if (r->m[i].src == src)
            return &r->m[i];
    return NULL;
}

void fleet_member_text(const struct fleet_run *r, const struct fleet_member *f,
                       char *buf, size_t n)
{
    switch (f->state) {
    case FM_QUEUED:
        snprintf(buf, n, "queued");
        break;
    case FM_CONNECTING:
        snprintf(buf, n, "connecting");
        break;
    case FM_RUNNING:
        snprintf(buf, n, "%d/%d %s", f->repeat, f->repeats,
                 wl_of(r, f->pos)->name);
        break;
    case FM_STOPPING:
        snprintf(buf, n, "stopping");
        break;
    case FM_DONE:
        snprintf(buf, n, "done");
        break;
    case FM_FAILED:
        snprintf(buf, n, "failed");
        break;
    case FM_STOPPED:
        snprintf(buf, n, "stopped");
        break;
    }
}

void fleet_run_count(const struct fleet_run *r, struct fleet_run_counts *c)
{
    memset(c, 0, sizeof(*c));
    for (int i = 0; r->m && i < r->n; i++) {
        const struct fleet_member *f = &r->m[i];
        c->hosts += f->host;
        c->guests += !f->host;
        c->queued += f->state == FM_QUEUED;
        c->active += is_active(f);
        c->done += f->state == FM_DONE;
        c->failed += f->state == FM_FAILED;
        c->stopped += f->state == FM_STOPPED;
    }
}

void fleet_run_free(struct fleet_run *r)
{
    bool any = false;
    for (int i = 0; r->m && i < r->n; i++)
        any |= is_active(&r->m[i]);
    if (any) {
        /* the stops must be made before the connections close: no
         * workload outlives the parallax that started it */
        fleet_run_stop(r);
        double until = clock_mono() + FREE_WAIT;
        for (;;) {
            bool waiting = false;
            for (int i = 0; i < r->n; i++) {
                struct fleet_member *f = &r->m[i];
                if (f->state != FM_STOPPING)
                    continue;
                const struct sample *smp = sampler_take(f->sampler);
                if (smp)
                    model_update(f->model, smp);
                if (smp &&
                    (store_of(f, f->store_id) || f->model->state == SRC_DOWN))
                    f->state = FM_STOPPED;
                else
                    waiting = true;
            }
            if (!waiting || clock_mono() > until)
                break;
            struct timespec ts = {0, 20 * 1000000L};
            nanosleep(&ts, NULL);
        }
    }
    for (int i = 0; r->m && i < r->n; i++)
        disconnect(&r->m[i]);
    sampler_drain(1.0); /* members that ended mid-fetch, abandoned */
    free(r->m);
    wake_gate_release(r->gate);
    memset(r, 0, sizeof(*r));
}

void fleet_run_set_lease(struct fleet_run *r, double secs)
{
    r->lease = secs;
}

void fleet_run_set_wake(struct fleet_run *r, int fd)
{
    r->wake_fd = fd;
}
