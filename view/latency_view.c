/* See latency_view.h. The percentiles shown are the run's own (its
 * extras, exact to its histogram's rule, turned into real time by the
 * host when a guest's clock was mapped); the histogram is moved bucket
 * by bucket through the same rate (lat_hist_scale). */
#include "view/latency_view.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "workloads/extras.h"
#include "workloads/lat_common.h"

bool latency_workload(const struct workload *w)
{
    return strcmp(w->name, "timer-lat") == 0 ||
           strcmp(w->name, "wakeup-lat") == 0;
}

void latency_view_of(const struct jobs *j, int src, int w, struct lat_view *v)
{
    memset(v, 0, sizeof *v);
    const struct job_cell *c = jobs_cell(j, src, w);
    if (!c || c->last.nextra == 0)
        return;
    const struct wl_result *r = &c->last;
    char name[32];
    for (int i = 0; i < LAT_NPCT; i++) {
        snprintf(name, sizeof name, LAT_EXTRA_PREFIX "%s", lat_pct_name[i]);
        v->pct[i] = wl_extra(r, name);
    }
    v->max = wl_extra(r, LAT_EXTRA_PREFIX "max");
    v->mean = wl_extra(r, LAT_EXTRA_PREFIX "mean");
    v->ok = isfinite(v->pct[2]);
    v->real = src == 0 || c->real;
    v->rate = src > 0 && c->real && c->rate > 0 ? c->rate : 1;
    lat_hist_scale(&r->hist, v->rate, &v->h);
}

double latency_ratio(double guest, double host)
{
    if (!isfinite(guest) || !isfinite(host) || host <= 0)
        return NAN;
    return guest / host;
}

void latency_us_text(char *buf, size_t len, double us)
{
    if (!isfinite(us))
        snprintf(buf, len, "n/a");
    else if (us < 1)
        snprintf(buf, len, "%.0fns", us * 1e3);
    else if (us < 1e3)
        snprintf(buf, len, "%.3gus", us);
    else if (us < 1e6)
        snprintf(buf, len, "%.3gms", us * 1e-3);
    else
        snprintf(buf, len, "%.3gs", us * 1e-6);
}

int latency_rows(const struct lat_hist *const *h, int n, int max_rows, int *lo,
                 int *hi)
{
    int first = LAT_HIST_NBUCKETS, last = -1;
    for (int k = 0; k < n; k++)
        for (int i = 0; i < LAT_HIST_NBUCKETS; i++)
            if (h[k]->count[i]) {
                first = i < first ? i : first;
                last = i > last ? i : last;
            }
    if (last < 0 || max_rows < 1)
        return 0;
    int span = last - first + 1;
    int per = (span + max_rows - 1) / max_rows; /* buckets a row */
    int rows = 0;
    for (int b = first; b <= last; b += per, rows++) {
        lo[rows] = b;
        hi[rows] = b + per - 1 > last ? last : b + per - 1;
    }
    return rows;
}

uint64_t latency_count(const struct lat_hist *h, int lo, int hi)
{
    uint64_t c = 0;
    for (int i = lo; i <= hi && i < LAT_HIST_NBUCKETS; i++)
        c += h->count[i];
    return c;
}

void latency_bar(char *buf, size_t len, uint64_t count, uint64_t top, int width)
{
    if (len == 0)
        return;
    buf[0] = '\0';
    if (count == 0 || top == 0 || width < 1)
        return;
    double cells = (double)count / (double)top * width;
    int full = (int)cells;
    size_t k = 0;
    for (; k < (size_t)full && k + 1 < len; k++)
        buf[k] = '#';
    if (k + 1 < len && cells - full >= 0.5)
        buf[k++] = '+';
    if (k == 0 && len > 1)
        buf[k++] = '.'; /* a count too small for a cell is still there */
    buf[k] = '\0';
}

void latency_range_text(char *buf, size_t len, int lo, int hi)
{
    double a = lat_hist_lo(lo) * 1e-3, b = lat_hist_hi(hi) * 1e-3;
    char x[16], y[16];
    latency_us_text(x, sizeof x, a);
    if (isinf(b)) {
        snprintf(buf, len, ">=%s", x);
        return;
    }
    latency_us_text(y, sizeof y, b);
    if (lo == 0)
        snprintf(buf, len, "<%s", y);
    else
        snprintf(buf, len, "%s-%s", x, y);
}
