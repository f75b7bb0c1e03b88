/* See lat_hist.h. Edges are 1 us * 10^(k/20); a sample's bucket comes from
 * log10 and is corrected against the edges, so a sample exactly on an
 * edge lands in the bucket that starts there whatever log10 rounds to. */
#include "workloads/lat_hist.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAST (LAT_HIST_NBUCKETS - 1)

const double lat_pct[LAT_NPCT] = {50, 90, 99, 99.9};
const char *const lat_pct_name[LAT_NPCT] = {"p50", "p90", "p99", "p99.9"};

void lat_hist_clear(struct lat_hist *h)
{
    memset(h, 0, sizeof *h);
}

double lat_hist_lo(int i)
{
    if (i <= 0)
        return 0;
    if (i >= LAST)
        return 1e9;
    return 1e3 * pow(10.0, (double)(i - 1) / LAT_HIST_PER_DECADE);
}

double lat_hist_hi(int i)
{
    return i >= LAST ? INFINITY : lat_hist_lo(i + 1);
}

int lat_hist_bucket(double ns)
{
    if (!(ns >= 1e3))
        return 0; /* NaN too */
    if (ns >= 1e9)
        return LAST;
    int i = 1 + (int)floor(log10(ns / 1e3) * LAT_HIST_PER_DECADE);
    if (i > 1 && ns < lat_hist_lo(i))
        i--;
    else if (i < LAST && ns >= lat_hist_hi(i))
        i++;
    return i < 1 ? 1 : i > LAST ? LAST : i;
}

void lat_hist_add(struct lat_hist *h, double ns)
{
    if (ns < 0)
        ns = 0; /* a clock read before the wake it follows: none late */
    if (h->n == 0 || ns < h->min_ns)
        h->min_ns = ns;
    if (h->n == 0 || ns > h->max_ns)
        h->max_ns = ns;
    h->n++;
    h->sum_ns += ns;
    h->count[lat_hist_bucket(ns)]++;
}

void lat_hist_merge(struct lat_hist *dst, const struct lat_hist *src)
{
    if (src->n == 0)
        return;
    if (dst->n == 0 || src->min_ns < dst->min_ns)
        dst->min_ns = src->min_ns;
    if (dst->n == 0 || src->max_ns > dst->max_ns)
        dst->max_ns = src->max_ns;
    dst->n += src->n;
    dst->sum_ns += src->sum_ns;
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++)
        dst->count[i] += src->count[i];
}

/* Where inside bucket i a share f (0..1) of its samples lies: linear in
 * the first and the last bucket (no log edges there), geometric inside. */
static double inside(const struct lat_hist *h, int i, double f)
{
    double lo = lat_hist_lo(i), hi = lat_hist_hi(i);
    if (i == 0)
        return lo + f * (hi - lo);
    if (i == LAST)
        return lo + f * (h->max_ns - lo);
    return lo * pow(hi / lo, f);
}

double lat_hist_percentile(const struct lat_hist *h, double p)
{
    if (h->n == 0 || !(p > 0 && p <= 100))
        return NAN;
    uint64_t rank = (uint64_t)ceil(p / 100.0 * (double)h->n);
    if (rank < 1)
        rank = 1;
    if (rank >= h->n)
        return h->max_ns;
    uint64_t below = 0;
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++) {
        uint64_t c = h->count[i];
        if (below + c >= rank) {
            double f = ((double)(rank - below) - 0.5) / (double)c;
            double v = inside(h, i, f);
            return v < h->min_ns ? h->min_ns : v > h->max_ns ? h->max_ns : v;
        }
        below += c;
    }
    return h->max_ns; /* counts short of n: only a damaged histogram */
}

size_t lat_hist_format(const struct lat_hist *h, char *buf, size_t len)
{
    if (len == 0)
        return 0;
    buf[0] = '\0';
    if (h->n == 0)
        return 0;
    int k = snprintf(buf, len, "%" PRIu64 " %.17g %.17g %.17g;", h->n,
                     h->max_ns, h->min_ns, h->sum_ns);
    if (k < 0 || (size_t)k >= len) {
        buf[0] = '\0';
        return 0;
    }
    size_t used = (size_t)k;
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++) {
        if (h->count[i] == 0)
            continue;
        k = snprintf(buf + used, len - used, "%s%d:%" PRIu64,
                     buf[used - 1] == ';' ? "" : ",", i, h->count[i]);
        if (k < 0 || (size_t)k >= len - used) {
            buf[0] = '\0'; /* never half a histogram */
            return 0;
        }
        used += (size_t)k;
    }
    return used;
}

/* An unsigned decimal at *p, advancing it; false when there is none. */
static bool read_u64(const char **p, uint64_t *out)
{
    if (**p < '0' || **p > '9')
        return false;
    char *end;
    unsigned long long v = strtoull(*p, &end, 10);
    *p = end;
    *out = v;
    return true;
}

bool lat_hist_parse(const char *text, struct lat_hist *h)
{
    lat_hist_clear(h);
    struct lat_hist t = {0};
    const char *p = text;
    char *end;
    if (!read_u64(&p, &t.n) || *p++ != ' ')
        return false;
    double *f[3] = {&t.max_ns, &t.min_ns, &t.sum_ns};
    for (int k = 0; k < 3; k++) {
        *f[k] = strtod(p, &end);
        if (end == p || !isfinite(*f[k]) || *f[k] < 0)
            return false;
        p = end;
        if (*p++ != (k < 2 ? ' ' : ';'))
            return false;
    }
    uint64_t total = 0;
    while (*p) {
        uint64_t i, c;
        if (!read_u64(&p, &i) || i >= LAT_HIST_NBUCKETS || *p++ != ':' ||
            !read_u64(&p, &c))
            return false;
        if (*p && (*p++ != ',' || !*p))
            return false; /* a comma, and an entry after it */
        t.count[i] += c;
        total += c;
    }
    if (total != t.n || t.n == 0 || t.min_ns > t.max_ns)
        return false;
    *h = t;
    return true;
}

void lat_hist_scale(const struct lat_hist *h, double rate, struct lat_hist *out)
{
    struct lat_hist t = {0};
    if (h->n == 0 || !(rate > 0) || !isfinite(rate)) {
        *out = *h;
        return;
    }
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++) {
        if (h->count[i] == 0)
            continue;
        double lo = lat_hist_lo(i), hi = lat_hist_hi(i);
        double mid = i == 0 ? hi / 2 : i == LAST ? lo : sqrt(lo * hi);
        t.count[lat_hist_bucket(mid / rate)] += h->count[i];
    }
    t.n = h->n;
    t.max_ns = h->max_ns / rate;
    t.min_ns = h->min_ns / rate;
    t.sum_ns = h->sum_ns / rate;
    *out = t;
}
