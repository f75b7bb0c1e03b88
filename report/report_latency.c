/* See report_latency.h. ASCII only: '#' bars, "x" ratios. */
#include "report/report_latency.h"

#include <math.h>
#include <string.h>

#include "report/report_table.h"
#include "view/latency_view.h"
#include "view/view.h"

#define HIST_ROWS 24 /* bucket rows of a histogram at most */
#define BAR_W     16

static void add_us(struct rtable *t, double us)
{
    char b[32];
    latency_us_text(b, sizeof b, us);
    rtable_add(t, "%s", isfinite(us) ? b : "-");
}

static void add_ratio(struct rtable *t, double r)
{
    char b[32];
    view_ratio_text(r, VR_JUDGED, b, sizeof b);
    rtable_add(t, "%s", b);
}

static void pct_rows(struct rtable *t, const struct session *s,
                     const struct jobs *j, int w, const struct lat_view *v)
{
    for (int src = 0; src < s->nsrc; src++) {
        if (!v[src].ok)
            continue;
        rtable_add(t, "%s", j->wl[w]->name);
        rtable_add(t, "%s", s->model[src].name);
        rtable_add(t, "%llu", (unsigned long long)v[src].h.n);
        for (int i = 0; i < LAT_NPCT; i++)
            add_us(t, v[src].pct[i]);
        add_us(t, v[src].max);
        bool host = src > 0 && v[0].ok;
        add_ratio(t, host ? latency_ratio(v[src].pct[2], v[0].pct[2]) : NAN);
        add_ratio(t, host ? latency_ratio(v[src].max, v[0].max) : NAN);
        rtable_add(t, "%s", v[src].real ? "" : "reported only");
    }
}

/* The histograms of w, one count and bar column pair per source. */
static void hist_table(FILE *f, const struct session *s, const struct jobs *j,
                       int w, const struct lat_view *v)
{
    const struct lat_hist *h[SESSION_MAX_SOURCES] = {0};
    int idx[SESSION_MAX_SOURCES], n = 0;
    for (int src = 0; src < s->nsrc; src++)
        if (v[src].ok && v[src].h.n > 0) {
            idx[n] = src;
            h[n++] = &v[src].h;
        }
    int lo[HIST_ROWS], hi[HIST_ROWS];
    int rows = latency_rows(h, n, HIST_ROWS, lo, hi);
    if (rows == 0)
        return;
    char align[2 * SESSION_MAX_SOURCES + 2] = "l";
    for (int k = 0; k < n; k++)
        strcat(align, "rl");
    struct rtable *t = rtable_new(align);
    rtable_add(t, "%s", j->wl[w]->name);
    uint64_t top[SESSION_MAX_SOURCES] = {0};
    for (int k = 0; k < n; k++) {
        rtable_add(t, "%s", s->model[idx[k]].name);
        rtable_add(t, "%s", "share");
        for (int r = 0; r < rows; r++) {
            uint64_t c = latency_count(h[k], lo[r], hi[r]);
            top[k] = c > top[k] ? c : top[k];
        }
    }
    for (int r = 0; r < rows; r++) {
        char range[32], bar[BAR_W + 2];
        latency_range_text(range, sizeof range, lo[r], hi[r]);
        rtable_add(t, "%s", range);
        for (int k = 0; k < n; k++) {
            uint64_t c = latency_count(h[k], lo[r], hi[r]);
            rtable_add(t, "%llu", (unsigned long long)c);
            latency_bar(bar, sizeof bar, c, top[k], BAR_W);
            rtable_add(t, "%s", bar);
        }
    }
    fputc('\n', f);
    rtable_print(f, t);
    rtable_free(t);
}

void report_latency_text(FILE *f, const struct session *s, const struct jobs *j)
{
    static struct lat_view v[JOBS_MAX_WL][SESSION_MAX_SOURCES];
    bool any = false, shown[JOBS_MAX_WL] = {false};
    for (int w = 0; w < j->nwl; w++) {
        if (!latency_workload(j->wl[w]))
            continue;
        for (int src = 0; src < s->nsrc; src++) {
            latency_view_of(j, src, w, &v[w][src]);
            shown[w] |= v[w][src].ok;
        }
        any |= shown[w];
    }
    if (!any)
        return;
    fprintf(f, "\nLATENCY\n");
    rtable_wrap(f, "",
                "the last repeat of each latency workload: percentiles "
                "(nearest rank, placed inside its bucket) and the largest "
                "sample, in real time (a guest's through its clock's rate); "
                "x host: p99 and max over the host's, > 1 worse in the "
                "guest; the histograms below: samples per bucket (20 a "
                "decade from 1us to 1s, merged to fit), bars scaled to each "
                "source's fullest row");
    fputc('\n', f);
    struct rtable *t = rtable_new("llrrrrrrrrl");
    const char *head[] = {"workload", "source", "samples", "p50",
                          "p90",      "p99",    "p99.9",   "max",
                          "x p99",    "x max",  "note"};
    for (size_t i = 0; i < sizeof head / sizeof head[0]; i++)
        rtable_add(t, "%s", head[i]);
    for (int w = 0; w < j->nwl; w++)
        if (shown[w])
            pct_rows(t, s, j, w, v[w]);
    rtable_print(f, t);
    rtable_free(t);
    for (int w = 0; w < j->nwl; w++)
        if (shown[w])
            hist_table(f, s, j, w, v[w]);
}
