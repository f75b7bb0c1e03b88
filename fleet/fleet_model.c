/* See fleet_model.h. Rates are taken over the stamps of the records
 * (what the source's clock said at its logger's fetches), turned into
 * real seconds through the clock rate against its host when that is
 * known; CPU shares use no clock: each state's rate over the sum of
 * every state's, on the source's clock (core/cpu_share.h), so they add up
 * to 100 whatever it does. A source is matched across polls by pmproxy's
 * source identifier, which is stable while its labels are. */
#include "fleet/fleet_model.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/grow.h"
#include "core/cpu_share.h"
#include "core/rate.h"
#include "core/ratio.h"
#include "fleet/fleet_metrics.h"

#define STALE_TICKS                                                            \
    2.5 /* intervals (or gaps) without a record: late                          \
           (or stale) */
#define UNKNOWN_GAP                                                            \
    60.0 /* s without a record, before its second: stale                       \
            (pmproxy took up to 50 s between a thousand                        \
            sources' records, docs/fleet.md) */

void fleet_model_init(struct fleet_model *m, const char *url, double interval)
{
    memset(m, 0, sizeof(*m));
    snprintf(m->url, sizeof(m->url), "%s", url);
    m->interval = interval;
    m->link = FLEET_LINK_CONNECTING;
}

static void source_init(struct fleet_source *s, const char *id)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "%s", id);
    s->host = -1;
    s->stamp = s->tick_rate = s->drift_ppm = s->offset = NAN;
    s->offset_res = NAN;
    s->off_lo = s->off_hi = s->read_begin = NAN;
    s->mem_bytes = NAN;
    for (int k = 0; k < FLEET_NAMES_MAX; k++)
        s->base_stamp[k] = NAN;
    for (int i = 0; i < METRIC_COUNT; i++)
        s->value[i] = s->cpu_rate[i] = NAN;
    fleet_ticks_init(&s->ticks);
}

/* The model's source with pmproxy's id, added when new; NULL when out of
 * memory. */
static struct fleet_source *source_of(struct fleet_model *m, const char *id)
{
    int i = idmap_get(&m->by_id, series_key(id));
    if (i >= 0)
        return &m->src[i];
    void *p = grow(m->src, &m->cap, m->n + 1, sizeof(m->src[0]), 64);
    if (!p)
        return NULL;
    m->src = p;
    if (!idmap_put(&m->by_id, series_key(id), m->n))
        return NULL;
    source_init(&m->src[m->n], id);
    return &m->src[m->n++];
}

/* No figures, and no clock figures: what the view shows of a source
 * whose data is not current. */
static void blank_figures(struct fleet_source *s)
{
    for (int i = 0; i < METRIC_COUNT; i++)
        s->value[i] = s->cpu_rate[i] = NAN;
    s->drift_ppm = s->offset = s->offset_res = NAN;
}

/* Real seconds per second of s's clock: through its rate against its
 * host's, 1 when that is not known (the figure is then as reported). */
static double real_per_source_second(const struct fleet_source *s)
{
    return isfinite(s->drift_ppm) ? 1 / (1 + s->drift_ppm * 1e-6) : 1;
}

/* One counter name's rate per second of its stamps into *rate; false
 * when there is no base yet, the counter reset, or no new record. */
static bool name_rate(struct fleet_source *s, const struct fleet_src_raw *r,
                      int k, double per, double *rate)
{
    double st = r->stamp[k];
    if (!isfinite(st))
        return false;
    bool ok = false;
    if (isfinite(s->base_stamp[k]) && st > s->base_stamp[k])
        ok = counter_rate(s->base_count[k], r->count[k], 64,
                          (st - s->base_stamp[k]) * per, rate) == RATE_OK;
    else if (st == s->base_stamp[k])
        return false; /* the same record: keep the figure */
    s->base_stamp[k] = st;
    s->base_count[k] = r->count[k];
    return ok;
}

/* The figures of s from its newest records r. */
static void figures(struct fleet_source *s, const struct fleet_src_raw *r)
{
    const struct fleet_metrics *fm = fleet_metrics();
    double per = real_per_source_second(s);
    for (int id = 0; id < METRIC_COUNT; id++) {
        const struct metric_desc *d = &metric_descs[id];
        int a = fm->a[id], b = fm->b[id];
        double rate;
        if (a < 0)
            continue;
        if (d->kind == MK_INSTANT) {
            double v = r->value[a];
            if (b >= 0)
                v = isfinite(r->value[b]) ? v - r->value[b] : NAN;
            s->value[id] = v;
        } else if (d->kind == MK_RATE) {
            if (name_rate(s, r, a, per, &rate))
                s->value[id] = rate;
            else if (!isfinite(r->stamp[a]))
                s->value[id] = NAN;
        } else { /* MK_CPU: its rate by the source's clock, for now */
            if (name_rate(s, r, a, 1, &rate))
                s->cpu_rate[id] = rate;
            else if (!isfinite(r->stamp[a]))
                s->cpu_rate[id] = NAN;
        }
    }
    /* a share of the CPU time every state counted: their rates' ratios,
     * whatever the clock they are taken on (core/cpu_share.h) */
    for (int id = 0; id < METRIC_COUNT; id++)
        if (metric_descs[id].kind == MK_CPU)
            s->value[id] = cpu_rates_share(s->cpu_rate, id);
}

/* What the source is, from the records that carry it. */
static void info(struct fleet_source *s, const struct fleet_src_raw *r)
{
    const struct fleet_metrics *fm = fleet_metrics();
    s->lab = r->lab;
    if (r->release[0])
        snprintf(s->release, sizeof(s->release), "%s", r->release);
    if (isfinite(r->value[fm->ncpu]))
        s->ncpu = (int)r->value[fm->ncpu];
    if (isfinite(r->value[fm->physmem]))
        s->mem_bytes = r->value[fm->physmem];
}

/* The bounds of s's offset against this host's clock, at realtime `at`,
 * from the brackets kept, each carried forward by the drift; an
 * intersection that is empty (a step of either clock) starts afresh. */
static void offset_bounds(struct fleet_source *s, double at)
{
    double dev = isfinite(s->drift_ppm) ? s->drift_ppm * 1e-6 : 0;
    double lo = -INFINITY, hi = INFINITY;
    for (int k = 0; k < s->nobs; k++) {
        double carry = dev * (at - s->obs[k].at);
        lo = fmax(lo, s->obs[k].lo + carry);
        hi = fmin(hi, s->obs[k].hi + carry);
    }
    if (lo > hi && s->nobs > 1) {
        int newest = (s->obs_head + FLEET_OFF_OBS - 1) % FLEET_OFF_OBS;
        s->obs[0] = s->obs[newest];
        s->nobs = 1;
        s->obs_head = 1 % FLEET_OFF_OBS;
        offset_bounds(s, at);
        return;
    }
    s->off_lo = s->nobs ? lo : NAN;
    s->off_hi = s->nobs ? hi : NAN;
}

/* A record first seen in poll r: pmproxy took it in after the previous
 * poll began (else that poll would have had it) and before this one
 * ended; it was the newest record then, so its logger wrote it at most a
 * logging interval (tick, real seconds) before, and its source stamped it
 * at most FLEET_LAG before that. So its stamp st was taken between the
 * previous poll's begin less a tick and the lag, and this poll's end. */
static void observe(struct fleet_source *s, const struct fleet_raw *r,
                    double st, double tick)
{
    if (!isfinite(s->read_begin) || !(r->read_end > 0) || !isfinite(tick))
        return; /* no earlier poll to bound it from below */
    int k = s->obs_head;
    s->obs[k].lo = st - r->read_end;
    s->obs[k].hi = st - (s->read_begin - tick - FLEET_LAG);
    s->obs[k].at = r->read_end;
    s->obs_head = (k + 1) % FLEET_OFF_OBS;
    if (s->nobs < FLEET_OFF_OBS)
        s->nobs++;
}

static void fold_source(struct fleet_source *s, const struct fleet_raw *raw,
                        const struct fleet_src_raw *r, double now)
{
    const struct fleet_metrics *fm = fleet_metrics();
    double st = r->stamp[fm->anchor];
    s->present = true;
    info(s, r);
    if (isfinite(st) && !(st == s->stamp)) {
        if (isfinite(s->stamp) && st < s->stamp) {
            fleet_ticks_init(&s->ticks); /* the clock went back: afresh */
            s->nobs = 0;
        }
        if (s->seen_at > 0) {
            s->gaps[s->ngaps % FLEET_GAPS] = now - s->seen_at;
            s->ngaps++;
        }
        s->stamp = st;
        s->seen_at = now;
        fleet_ticks_add(&s->ticks, st);
        s->tick_rate = fleet_ticks_rate(&s->ticks);
        observe(s, raw, st, s->tick_rate / real_per_source_second(s));
    }
    s->read_begin = raw->read_begin;
    offset_bounds(s, raw->read_end);
    if (!isfinite(s->stamp)) {
        s->state = FLEET_NODATA;
        return;
    }
    figures(s, r);
    s->state = FLEET_LIVE;
}

/* Pairs each guest with its host by name, then takes the clock figures
 * against it. */
static void pair(struct fleet_model *m)
{
    m->nhosts = m->nguests = 0;
    for (int i = 0; i < m->n; i++) {
        struct fleet_source *s = &m->src[i];
        s->host = -1;
        m->nhosts += s->present && s->lab.role == FLEET_HOST;
        m->nguests += s->present && s->lab.role == FLEET_GUEST;
        if (s->lab.role != FLEET_GUEST || !s->present)
            continue;
        for (int h = 0; h < m->n; h++)
            if (m->src[h].present && m->src[h].lab.role == FLEET_HOST &&
                strcmp(m->src[h].lab.name, s->lab.host) == 0) {
                s->host = h;
                break;
            }
    }
    for (int i = 0; i < m->n; i++) {
        struct fleet_source *s = &m->src[i];
        const struct fleet_source *h = s->host >= 0 ? &m->src[s->host] : NULL;
        s->drift_ppm = s->offset = s->offset_res = NAN;
        if (!h || s->state == FLEET_STALE || s->state == FLEET_NODATA ||
            h->state == FLEET_STALE || h->state == FLEET_NODATA)
            continue;
        if (isfinite(s->tick_rate) && isfinite(h->tick_rate) &&
            h->tick_rate > 0)
            s->drift_ppm = (s->tick_rate / h->tick_rate - 1) * 1e6;
        /* both against this host's clock: their difference, as wide as
         * both brackets */
        if (isfinite(s->off_lo) && isfinite(h->off_lo)) {
            double lo = s->off_lo - h->off_hi, hi = s->off_hi - h->off_lo;
            s->offset = (lo + hi) / 2;
            s->offset_res = (hi - lo) / 2;
        }
    }
}

void fleet_model_update(struct fleet_model *m, const struct fleet_raw *r,
                        double now)
{
    m->link = r->link;
    snprintf(m->error, sizeof(m->error), "%s", r->error);
    snprintf(m->note, sizeof(m->note), "%s", r->note);
    m->answered_at = r->answered_at;
    m->down_since = r->down_since;
    m->poll_ms = r->poll_ms;
    m->polls = r->polls;
    m->updated_at = now;
    if (r->link != FLEET_LINK_UP) {
        /* pmproxy did not answer: nothing of the fleet is known now, and
         * the next record seen has no lower bound */
        for (int i = 0; i < m->n; i++) {
            m->src[i].state = FLEET_NODATA;
            m->src[i].read_begin = NAN;
            blank_figures(&m->src[i]);
        }
        m->nlive = 0;
        return;
    }
    for (int i = 0; i < m->n; i++)
        m->src[i].present = false;
    for (int i = 0; i < r->nsrc; i++) {
        struct fleet_source *s = source_of(m, r->src[i].id);
        if (s)
            fold_source(s, r, &r->src[i], now);
    }
    fleet_model_age(m, now);
    pair(m);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How long pmproxy takes between a source's records, fleet-wide: the 90th
 * percentile over the sources of the longest of their last gaps (one
 * source back from an outage does not count); NaN before half of them
 * have had two records. pmproxy's delay is the fleet's, not a source's: its
 * throttle grows with the number of archives. */
static double fleet_gap(const struct fleet_model *m)
{
    double *longest = malloc(sizeof(double) * (size_t)(m->n + 1));
    int n = 0, present = 0;
    for (int i = 0; longest && i < m->n; i++) {
        const struct fleet_source *s = &m->src[i];
        double g = 0;
        for (int k = 0; k < s->ngaps && k < FLEET_GAPS; k++)
            g = fmax(g, s->gaps[k]);
        present += s->present;
        if (s->ngaps && s->present)
            longest[n++] = g;
    }
    /* the first gaps seen are short ones (pmproxy's rounds have just
     * begun): not a measure until most sources have had theirs */
    double gap = NAN;
    if (n > 0 && 2 * n >= present) {
        qsort(longest, (size_t)n, sizeof(*longest), cmp_double);
        gap = longest[(int)ceil(0.9 * n) - 1];
    }
    free(longest);
    return gap;
}

void fleet_model_age(struct fleet_model *m, double now)
{
    /* polls come 0.3 to 2 intervals apart (fleet_poll.c) */
    if (m->link == FLEET_LINK_UP && m->answered_at &&
        now - m->answered_at > 2.5 * m->interval + 0.5) {
        /* the poller waits on a request: say so rather than show the
         * last answer as current */
        m->link = FLEET_LINK_DOWN;
        m->down_since = m->answered_at;
        snprintf(m->error, sizeof(m->error),
                 "pmproxy has not answered for %.0f s", now - m->answered_at);
    }
    m->nlive = m->nlate = 0;
    double gap = fleet_gap(m);
    for (int i = 0; i < m->n; i++) {
        struct fleet_source *s = &m->src[i];
        if (!s->present || m->link != FLEET_LINK_UP) {
            s->state = FLEET_NODATA;
            blank_figures(s);
            continue;
        }
        if (s->state == FLEET_NODATA)
            continue;
        /* a logging tick in real seconds: its host's, else its own */
        const struct fleet_source *h = s->host >= 0 ? &m->src[s->host] : NULL;
        double tick = h && isfinite(h->tick_rate) ? h->tick_rate : s->tick_rate;
        double late =
            STALE_TICKS * fmax(m->interval, isfinite(tick) ? tick : 0);
        double age = now - s->seen_at;
        double stale = isfinite(gap)
                           ? STALE_TICKS * fmax(gap, late / STALE_TICKS)
                           : UNKNOWN_GAP;
        s->state = age <= late    ? FLEET_LIVE
                   : age <= stale ? FLEET_LATE
                                  : FLEET_STALE;
        if (s->state == FLEET_STALE)
            blank_figures(s);
        m->nlive += s->state == FLEET_LIVE;
        m->nlate += s->state == FLEET_LATE;
    }
}

bool fleet_model_ready(const struct fleet_model *m)
{
    if (m->link != FLEET_LINK_UP || m->nlive == 0)
        return false;
    for (int i = 0; i < m->n; i++)
        if (m->src[i].state == FLEET_LIVE &&
            isnan(m->src[i].value[METRIC_CPU_USER]))
            return false;
    return true;
}

double fleet_metric_ratio(const struct fleet_model *m, int i, int id)
{
    const struct fleet_source *s = &m->src[i];
    if (s->host < 0)
        return NAN;
    return ratio_oriented(s->value[id], m->src[s->host].value[id],
                          metric_descs[id].ratio);
}

const struct fleet_result *fleet_result(const struct fleet_model *m, int i,
                                        int w)
{
    const struct fleet_source *s = &m->src[i];
    if (!s->result || w < 0 || w >= FLEET_WL_MAX || !s->result[w].done)
        return NULL;
    return &s->result[w];
}

bool fleet_set_result(struct fleet_model *m, int i, int w,
                      const struct fleet_result *r)
{
    struct fleet_source *s = &m->src[i];
    if (w < 0 || w >= FLEET_WL_MAX)
        return false;
    if (!s->result) {
        s->result = calloc(FLEET_WL_MAX, sizeof(*s->result));
        if (!s->result)
            return false;
    }
    s->result[w] = *r;
    return true;
}

int fleet_find(const struct fleet_model *m, const char *name)
{
    for (int i = 0; i < m->n; i++)
        if (strcmp(m->src[i].lab.name, name) == 0)
            return i;
    return -1;
}

void fleet_model_free(struct fleet_model *m)
{
    for (int i = 0; i < m->n; i++)
        free(m->src[i].result);
    free(m->src);
    idmap_free(&m->by_id);
    memset(m, 0, sizeof(*m));
}
