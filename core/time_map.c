/* See time_map.h. A fetch's stamp was taken at some host time inside its
 * request, so the host time it stands for is its midpoint give or take
 * half the round trip: every error below comes from that, and from how
 * far apart the fetches are (a rate over 2 s with 1 ms round trips is
 * good to 0.05%). */
#include "core/time_map.h"

#include <math.h>
#include <string.h>

#define STAMP_RES 1e-6 /* s: PCP's timestamps, and the log's %.6f */

static const struct time_point *at(const struct time_map *m, int pos)
{
    return &m->ring[(m->head + pos) % TIME_MAP_MAX];
}

static double mid(const struct time_point *p)
{
    return p->before + (p->after - p->before) / 2;
}

static double half_rtt(const struct time_point *p)
{
    return (p->after - p->before) / 2;
}

void time_map_init(struct time_map *m)
{
    memset(m, 0, sizeof *m);
}

void time_map_add(struct time_map *m, double before, double after,
                  double source)
{
    if (!isfinite(before) || !isfinite(after) || !isfinite(source) ||
        after < before) {
        m->skipped++;
        return;
    }
    struct time_point p = {before, after, source};
    if (m->count > 0) {
        const struct time_point *last = at(m, m->count - 1);
        if (mid(&p) < mid(last)) {
            m->skipped++;
            return;
        }
        if (source < last->source) /* the source's clock stepped back */
            m->count = 0;
    }
    if (m->count == TIME_MAP_MAX) {
        m->head = (m->head + 1) % TIME_MAP_MAX;
        m->count--;
    }
    m->ring[(m->head + m->count) % TIME_MAP_MAX] = p;
    m->count++;
}

/* The quickest fetch (least round trip) from position `from` stepping by
 * `dir` while its midpoint is on this side of `limit`; `dflt` when none
 * is quicker. */
static const struct time_point *quickest(const struct time_map *m, int from,
                                         int dir, double limit,
                                         const struct time_point *dflt)
{
    const struct time_point *best = dflt;
    for (int i = from; i >= 0 && i < m->count; i += dir) {
        const struct time_point *c = at(m, i);
        if (dir < 0 ? mid(c) < limit : mid(c) > limit)
            break;
        if (c->after - c->before < best->after - best->before)
            best = c;
    }
    return best;
}

enum time_map_rc time_map_host(const struct time_map *m, double source,
                               bool steady, struct time_at *a)
{
    if (m->count == 0 || !isfinite(source) || source < at(m, 0)->source)
        return TM_LOST;
    if (source > at(m, m->count - 1)->source)
        return TM_PENDING;
    /* the newest pair around it: runs are looked up soon after they end */
    int k = m->count - 1;
    while (k > 0 && at(m, k - 1)->source >= source)
        k--;
    const struct time_point *q = at(m, k);
    const struct time_point *p = k > 0 ? at(m, k - 1) : q;
    a->lo = p->before; /* the hard bracket: the pair around it */
    a->hi = q->after;
    if (source == q->source) /* a fetch's own stamp: inside its request */
        a->lo = q->before;
    if (steady) { /* any two fetches place it: take the quickest near it */
        p = quickest(m, k - 1, -1, mid(q) - TIME_MAP_ANCHOR, p);
        q = quickest(m, k, 1, mid(q) + TIME_MAP_ANCHOR, q);
    }
    double ds = q->source - p->source;
    double f = ds > 0 ? (source - p->source) / ds : 1;
    a->host = mid(p) + f * (mid(q) - mid(p));
    double e = fmax(half_rtt(p), half_rtt(q)) + STAMP_RES;
    double bound = fmax(a->host - a->lo, a->hi - a->host);
    a->err = steady ? fmin(e, bound) : bound;
    return TM_OK;
}

/* The rate between positions i < j. */
static struct time_rate rate_between(const struct time_map *m, int i, int j)
{
    const struct time_point *p = at(m, i), *q = at(m, j);
    struct time_rate r = {.span = mid(q) - mid(p)};
    if (!(r.span > 0))
        return r;
    r.rate = (q->source - p->source) / r.span;
    r.err =
        (fabs(r.rate) * (half_rtt(p) + half_rtt(q)) + 2 * STAMP_RES) / r.span;
    r.ok = true;
    return r;
}

/* The position of the quickest fetch among from..last whose midpoint is
 * at most `until`; of equals, the one nearest `from` (which may be after
 * last: then the search runs backwards). */
static int quickest_at(const struct time_map *m, int from, double until,
                       int last)
{
    int best = from, dir = last >= from ? 1 : -1;
    for (int i = from; dir * (last - i) >= 0 && mid(at(m, i)) <= until;
         i += dir)
        if (half_rtt(at(m, i)) < half_rtt(at(m, best)))
            best = i;
    return best;
}

/* The oldest position whose midpoint is within `secs` of the newest's, or
 * the one before the newest when none is. */
static int back(const struct time_map *m, double secs)
{
    int n = m->count - 1, i = n;
    double t = mid(at(m, n));
    while (i > 0 && t - mid(at(m, i - 1)) <= secs)
        i--;
    return i < n ? i : n - 1;
}

void time_map_rates(const struct time_map *m, struct time_rates *r)
{
    *r = (struct time_rates){.lo = NAN, .hi = NAN};
    if (m->count < 2)
        return;
    int n = m->count - 1;
    /* the last seconds, between the quickest fetches at either end: one
     * slow fetch at an end would move it by its round trip */
    int first = back(m, TIME_MAP_RECENT);
    int qb = quickest_at(m, first, mid(at(m, first)) + TIME_MAP_SEGMENT / 2, n);
    int qn = quickest_at(m, n, INFINITY, back(m, TIME_MAP_SEGMENT / 2));
    r->recent = qb < qn ? rate_between(m, qb, qn) : rate_between(m, first, n);
    r->all = rate_between(m, 0, n);
    /* spans of at least TIME_MAP_SEGMENT s, newest first */
    double t0 = mid(at(m, n)), lo_top = INFINITY, hi_bottom = -INFINITY;
    for (int e = n; e > 0 && t0 - mid(at(m, e)) < TIME_MAP_RANGE;) {
        int b = e - 1;
        while (b > 0 && mid(at(m, e)) - mid(at(m, b)) < TIME_MAP_SEGMENT)
            b--;
        struct time_rate s = rate_between(m, b, e);
        e = b;
        if (!s.ok)
            continue;
        if (r->nspans++ == 0 || s.rate < r->lo)
            r->lo = s.rate;
        if (r->nspans == 1 || s.rate > r->hi)
            r->hi = s.rate;
        lo_top = fmin(lo_top, s.rate + s.err);       /* the lowest's top */
        hi_bottom = fmax(hi_bottom, s.rate - s.err); /* the highest's bottom */
    }
    r->unsteady =
        r->nspans >= 2 && hi_bottom - lo_top > TIME_MAP_TOL * fabs(lo_top);
}

double time_rates_source_seconds(const struct time_rates *r, double real,
                                 bool *scaled)
{
    double k = r->recent.rate;
    bool ok = r->recent.ok && !r->unsteady && k > 0 && isfinite(k) &&
              fabs(k - 1) > TIME_MAP_TOL;
    if (scaled)
        *scaled = ok;
    return ok ? real * k : real;
}
