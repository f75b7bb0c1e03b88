/* Turns samples into figures: counters into rates over the measured
 * interval, CPU milliseconds into shares of it, instants as they are.
 *
 * Per-second rates use the host's clock (the midpoints of the fetches):
 * "per second" means per real second. CPU shares use the source's own
 * clock when it gives one, because its CPU accounting runs on that clock
 * and the shares then add up to 100 even where the clock diverges. */
#include "core/model.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/rate.h"

void model_init(struct source_model *m, const char *name, const char *target)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->name, sizeof(m->name), "%s", name);
    snprintf(m->target, sizeof(m->target), "%s", target ? target : "");
    m->state = SRC_CONNECTING;
    clock_model_init(&m->clock);
    for (int i = 0; i < METRIC_COUNT; i++)
        m->value[i] = NAN;
}

static double cpu_interval(const struct sample *prev, const struct sample *s)
{
    if (isfinite(s->t_source) && isfinite(prev->t_source))
        return s->t_source - prev->t_source;
    return sample_midpoint(s) - sample_midpoint(prev);
}

static double figure(const struct source_model *m, const struct sample *s,
                     int id)
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
    /* MK_CPU: milliseconds of CPU per second of interval, over all CPUs */
    int ncpu = s->info.ncpu;
    if (ncpu <= 0 || counter_rate(p->count[id], s->count[id], s->width[id],
                                  cpu_interval(p, s), &rate) != RATE_OK)
        return NAN;
    return rate / 1000.0 / ncpu * 100.0;
}

void model_update(struct source_model *m, const struct sample *s)
{
    for (int i = 0; i < s->nstores; i++) /* a ring of the newest results */
        m->store[m->stores_seen++ % SAMPLE_MAX_STORES] = s->store[i];
    if (s->replay.on) {
        m->replay = s->replay;
        if (s->replay.again && s->ok)
            return;              /* a paused or ended replay: no new record */
        if (s->replay.restart) { /* a jump: nothing spans it */
            m->have_prev = false;
            clock_model_init(&m->clock);
        }
    }
    m->updates++;
    m->fetch_ms = (s->t_after - s->t_before) * 1e3;
    if (!s->ok) {
        if (m->state != SRC_DOWN)
            m->down_since = sample_midpoint(s);
        m->retry_at = s->retry_at;
        m->state = SRC_DOWN;
        snprintf(m->error, sizeof(m->error), "%s", s->error);
        /* a rate across the outage would average over all of it: the
         * first sample back starts afresh, as the very first one does */
        m->have_prev = false;
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
    for (int i = 0; i < METRIC_COUNT; i++) {
        m->value[i] = figure(m, s, i);
        history_push(&m->hist[i], m->value[i]);
    }
    if (s->probe.count)
        m->probe = s->probe;
    if (isfinite(s->t_source) && isfinite(s->t_real))
        clock_model_add(&m->clock, s->t_before, s->t_after, s->t_real,
                        s->t_source);
    m->njobs = s->njobs;
    memcpy(m->job, s->job, sizeof(s->job[0]) * (size_t)s->njobs);
    m->prev = *s; /* a few KB, once per sample and source */
    m->have_prev = true;
}

bool model_is_stale(const struct source_model *m, double now, double interval)
{
    return m->state == SRC_LIVE && !m->replay.on &&
           now - m->last_ok > 2.5 * interval;
}

const char *model_job_extras(const struct source_model *m,
                             const struct pmda_job *job)
{
    if (job->extras_at < 0 || job->extras_at >= m->prev.extras_len)
        return "";
    return m->prev.extras + job->extras_at;
}
