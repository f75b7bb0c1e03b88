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

int latency_next_workload(const struct jobs *j, int w, int dir)
{
    for (int k = 1; k <= j->nwl; k++) {
        int i = w < 0 ? (k - 1) : ((w + dir * k) % j->nwl + j->nwl) % j->nwl;
        if (latency_workload(j->wl[i]))
            return i;
    }
    return -1;
}

/* A column's cell: "  1234 ####" or, with shares, " 12.3% ####"; the bar
 * scaled to the source's fullest row either way. */
static void cell(char *buf, size_t len, uint64_t c, uint64_t n, uint64_t top,
                 bool shares, int bar_w)
{
    char bar[64], num[16];
    latency_bar(bar, sizeof bar, c, top, bar_w < 63 ? bar_w : 63);
    if (shares)
        snprintf(num, sizeof num, "%5.1f%%", n ? 100.0 * (double)c / n : 0);
    else
        snprintf(num, sizeof num, "%6llu", (unsigned long long)c);
    snprintf(buf, len, " %s %s", num, bar);
}

int latency_view_text(const struct session *s, const struct jobs *j, int w,
                      bool shares, int width, int height,
                      char lines[][LAT_VIEW_LINE_MAX])
{
    static struct lat_view v[SESSION_MAX_SOURCES];
    const struct lat_hist *h[SESSION_MAX_SOURCES];
    int idx[SESSION_MAX_SOURCES], n = 0;
    if (w < 0 || w >= j->nwl || height < 3)
        return 0;
    for (int src = 0; src < s->nsrc; src++) {
        latency_view_of(j, src, w, &v[src]);
        if (v[src].ok && v[src].h.n > 0) {
            idx[n] = src;
            h[n++] = &v[src].h;
        }
    }
    if (n == 0)
        return 0;
    if (width > LAT_VIEW_LINE_MAX - 1)
        width = LAT_VIEW_LINE_MAX - 1;
    const int range_w = 13;
    int col_w = (width - range_w) / n; /* " 123456 " and a bar */
    int bar_w = col_w - 9;
    if (bar_w < 1)
        bar_w = 1;
    int lo[LAT_VIEW_LINES], hi[LAT_VIEW_LINES];
    int max_rows = height - 2 < LAT_VIEW_LINES ? height - 2 : LAT_VIEW_LINES;
    int rows = latency_rows(h, n, max_rows, lo, hi);
    uint64_t top[SESSION_MAX_SOURCES] = {0};
    for (int k = 0; k < n; k++)
        for (int r = 0; r < rows; r++) {
            uint64_t c = latency_count(h[k], lo[r], hi[r]);
            top[k] = c > top[k] ? c : top[k];
        }
    /* header: each source's name, p99 and max */
    int used =
        snprintf(lines[0], LAT_VIEW_LINE_MAX, "%-*s", range_w, "latency");
    for (int k = 0; k < n && used < width; k++) {
        char p99[16], mx[16], head[LAT_VIEW_LINE_MAX];
        latency_us_text(p99, sizeof p99, v[idx[k]].pct[2]);
        latency_us_text(mx, sizeof mx, v[idx[k]].max);
        snprintf(head, sizeof head, " %.*s p99 %s max %s",
                 col_w - 20 > 1 ? col_w - 20 : 1, s->model[idx[k]].name, p99,
                 mx);
        used += snprintf(lines[0] + used, LAT_VIEW_LINE_MAX - (size_t)used,
                         "%-*.*s", col_w, col_w, head);
    }
    int out = 1;
    for (int r = 0; r < rows && out < height - 1; r++, out++) {
        char range[32];
        latency_range_text(range, sizeof range, lo[r], hi[r]);
        used = snprintf(lines[out], LAT_VIEW_LINE_MAX, "%-*s", range_w, range);
        for (int k = 0; k < n && used < width; k++) {
            char c[LAT_VIEW_LINE_MAX];
            cell(c, sizeof c, latency_count(h[k], lo[r], hi[r]), h[k]->n,
                 top[k], shares, bar_w);
            used +=
                snprintf(lines[out] + used, LAT_VIEW_LINE_MAX - (size_t)used,
                         "%-*.*s", col_w, col_w, c);
        }
    }
    snprintf(lines[out++], LAT_VIEW_LINE_MAX, "%s in real time; %s",
             shares ? "shares of each source's samples" : "samples per bucket",
             "bars: each source's fullest row");
    for (int i = 0; i < out; i++) { /* no trailing blanks, never too wide */
        lines[i][width] = '\0';
        size_t len = strlen(lines[i]);
        while (len > 0 && lines[i][len - 1] == ' ')
            lines[i][--len] = '\0';
    }
    return out;
}
