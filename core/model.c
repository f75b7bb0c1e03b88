/* Turns samples into figures: counters into rates over the measured
 * interval, CPU milliseconds into shares of the CPU time counted, instants
 * as they are.
 *
 * Per-second rates use the host's clock (the midpoints of the fetches):
 * "per second" means per real second. CPU shares use no clock: each
 * state's milliseconds over every state's (core/cpu_share.h), as top and
 * vmstat compute them, so they add up to 100 whatever the source's clock
 * or the host's did. */
#include "core/model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/safe_text.h"
#include "core/cpu_share.h"
#include "core/rate.h"

/* Forgets everything known of m's clock (a new source, or a replay that
 * jumped: no fetch spans the jump). */
static void clock_forget(struct source_model *m)
{
    clock_model_init(&m->clock);
    time_map_init(&m->tmap);
    m->rates = (struct time_rates){.lo = NAN, .hi = NAN};
}

void model_init(struct source_model *m, const char *name, const char *target)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->name, sizeof(m->name), "%s", name);
    snprintf(m->target, sizeof(m->target), "%s", target ? target : "");
    m->state = SRC_CONNECTING;
    clock_forget(m);
    for (int i = 0; i < METRIC_COUNT; i++)
        m->value[i] = NAN;
}

/* What every CPU state counted from the last good sample to s. */
static void cpu_deltas_of(const struct source_model *m, const struct sample *s,
                          struct cpu_deltas *d)
{
    cpu_deltas_init(d);
    if (!m->have_prev)
        return;
    for (int id = 0; id < METRIC_COUNT; id++)
        if (metric_descs[id].kind == MK_CPU)
            cpu_deltas_add(d, id, m->prev.have[id], m->prev.count[id],
                           s->have[id], s->count[id], s->width[id]);
}

static double figure(const struct source_model *m, const struct sample *s,
                     const struct cpu_deltas *cpu, int id)
{
    const struct metric_desc *d = &metric_descs[id];
    const struct sample *p = &m->prev;
    if (!s->have[id])
        return NAN;
    if (d->kind == MK_INSTANT)
        return s->value[id];
    if (!m->have_prev || !p->have[id])
        return NAN; /* the first sample has no rate */

    double rate;
    if (d->kind == MK_RATE) {
        double dt = sample_midpoint(s) - sample_midpoint(p);
        if (counter_rate(p->count[id], s->count[id], s->width[id], dt, &rate) !=
            RATE_OK)
            return NAN;
        return rate;
    }
    return cpu_deltas_share(cpu, id); /* MK_CPU */
}

/* The texts of a good sample, from its source: made safe for a terminal
 * and a report here, so that the model holds no other (base/safe_text.h);
 * a guest's host name once wrote escape sequences into reports. */
static void make_safe(struct source_model *m)
{
    safe_text(m->info.host);
    safe_text(m->info.release);
    for (int k = 0; k < m->njobs; k++) {
        safe_text(m->job[k].name);
        safe_text(m->job[k].error);
    }
    for (int at = 0; at < m->prev.extras_len;) /* NUL-separated texts */
        at += (int)strlen(safe_text_lines(m->prev.extras + at)) + 1;
}

/* Where the robust fit has no answer yet (a short batch), a coarse one
 * from the time map: the rate from the oldest fetch kept to the newest,
 * the offset of the newest, both within their round trips' bounds. Where
 * the rate was seen to vary, drift and its error span the rates seen,
 * not one rate with a tight error. */
static void clock_stand_in(struct source_model *m, const struct sample *s)
{
    struct clock_fit f;
    clock_model_fit(&m->clock, &f);
    const struct time_rates *r = &m->rates;
    if ((f.ok && !r->unsteady) || !r->all.ok)
        return;
    double rate = r->all.rate, err = r->all.err;
    if (r->unsteady) {
        rate = (r->lo + r->hi) / 2;
        err = fmax(err, (r->hi - r->lo) / 2);
    }
    if (!f.ok) {
        f = (struct clock_fit){.ok = true, .coarse = true, .n_used = 2};
        f.offset = s->t_source - s->t_real;
        f.offset_err = fabs(rate) * (s->t_after - s->t_before) / 2 + 1e-6;
    }
    f.unsteady = r->unsteady;
    if (r->unsteady) /* the newest fetch's own offset, not the line's */
        f.offset_err =
            fmax(f.offset_err, fabs(f.offset - (s->t_source - s->t_real)));
    f.drift_ppm = (rate - 1) * 1e6;
    f.drift_err_ppm = err * 1e6;
    clock_model_set_fit(&m->clock, &f);
}

/* A replayed record's VMs, parsed from their texts (the reader's, and
 * so untrusted: vm_recorded_parse bounds and cleans every field). */
static void fold_vms(struct source_model *m, const struct sample *s)
{
    m->nvms = 0;
    m->nvms_held = s->nvms_held;
    if (s->nvms_held > 0 && !m->vms)
        m->vms = calloc(SAMPLE_MAX_VMS, sizeof(*m->vms));
    for (int i = 0; m->vms && i < s->nvms && i < SAMPLE_MAX_VMS; i++)
        m->nvms += vm_recorded_parse(model_pool_text(m, s->vm_at[i]),
                                     &m->vms[m->nvms]);
}

void model_update(struct source_model *m, const struct sample *s)
{
    for (int i = 0; i < s->nstores; i++) { /* a ring of the newest results */
        struct store_result *r =
            &m->store[m->stores_seen++ % SAMPLE_MAX_STORES];
        *r = s->store[i];
        safe_text(r->msg);
    }
    if (s->replay.on) {
        m->replay = s->replay;
        if (s->replay.again && s->ok)
            return;              /* a paused or ended replay: no new record */
        if (s->replay.restart) { /* a jump: nothing spans it */
            m->have_prev = false;
            clock_forget(m);
        }
    }
    m->updates++;
    m->fetch_ms = (s->t_after - s->t_before) * 1e3;
    if (!s->ok) {
        if (m->state != SRC_DOWN)
            m->down_since = sample_midpoint(s);
        m->retry_at = s->retry_at;
        m->state = SRC_DOWN;
        safe_text_copy(m->error, sizeof(m->error), s->error, 0);
        /* a rate across the outage would average over all of it: the
         * first sample back starts afresh, as the very first one does */
        m->have_prev = false;
        m->nvms = m->nvms_held = 0;
        for (int i = 0; i < METRIC_COUNT; i++) {
            m->value[i] = NAN;
            history_push(&m->hist[i], NAN);
        }
        return;
    }
    m->state = SRC_LIVE;
    m->down_since = 0;
    m->error[0] = '\0';
    m->backend = s->backend;
    m->info = s->info;
    m->last_ok = sample_midpoint(s);
    m->samples++;
    struct cpu_deltas cpu;
    cpu_deltas_of(m, s, &cpu);
    for (int i = 0; i < METRIC_COUNT; i++) {
        m->value[i] = figure(m, s, &cpu, i);
        history_push(&m->hist[i], m->value[i]);
    }
    if (s->probe.count)
        m->probe = s->probe;
    if (s->have_held) /* replayed: the share alone was recorded */
        m->held = (struct probe_held){.count = m->probe.count,
                                      .share = s->held_share,
                                      .ran_s = NAN,
                                      .waited_s = NAN,
                                      .t0 = NAN,
                                      .t1 = NAN};
    if (isfinite(s->t_source) && isfinite(s->t_real)) {
        clock_model_add(&m->clock, s->t_before, s->t_after, s->t_real,
                        s->t_source);
        for (int i = 0; i < s->nticks; i++) /* older than the sample */
            time_map_add(&m->tmap, s->tick[i].t_before, s->tick[i].t_after,
                         s->tick[i].t_source);
        time_map_add(&m->tmap, s->t_before, s->t_after, s->t_source);
        time_map_rates(&m->tmap, &m->rates);
        clock_stand_in(m, s);
    }
    m->njobs = s->njobs;
    memcpy(m->job, s->job, sizeof(s->job[0]) * (size_t)s->njobs);
    m->prev = *s; /* a few KB, once per sample and source */
    m->have_prev = true;
    make_safe(m);
    fold_vms(m, s);
}

void model_release(struct source_model *m)
{
    free(m->vms);
    m->vms = NULL;
    m->nvms = m->nvms_held = 0;
}

bool model_is_stale(const struct source_model *m, double now, double interval)
{
    return m->state == SRC_LIVE && !m->replay.on &&
           now - m->last_ok > 2.5 * interval;
}

const char *model_pool_text(const struct source_model *m, int at)
{
    if (at < 0 || at >= m->prev.extras_len)
        return "";
    return m->prev.extras + at;
}

const char *model_job_extras(const struct source_model *m,
                             const struct pmda_job *job)
{
    return model_pool_text(m, job->extras_at);
}
