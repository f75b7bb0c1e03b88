/* Batches sized to take about 10 ms, like the runner's: a stop request is
 * seen within 100 ms and the clock reads cost nothing measurable. */
#include "workloads/lat_measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "workloads/meter.h"
#include "workloads/stats.h"

#define LAT_TRIES      11    /* lmbench's TRIES */
#define LAT_INTERVAL_S 0.010 /* one try, and the batch size aimed at */
#define LAT_GROWTH_MAX 16.0

/* The batch that should take LAT_INTERVAL_S, given n took `took`. */
static uint64_t rescale(uint64_t n, double took)
{
    double want =
        took > 0 ? n * (LAT_INTERVAL_S * 1.1 / took) : n * LAT_GROWTH_MAX;
    if (want > n * LAT_GROWTH_MAX)
        want = n * LAT_GROWTH_MAX;
    return want < 1 ? 1 : (uint64_t)want;
}

/* Grows *n until one call of fn(n) takes an interval (unmeasured, so it
 * warms caches too). 0, 1 when stopped, -1 when fn failed. */
static int ramp(const struct wl_ctx *ctx, lat_loop_fn fn, void *arg,
                uint64_t *n)
{
    for (*n = 1;;) {
        if (wl_should_stop(ctx))
            return 1;
        double t0 = wl_now();
        if (fn(arg, *n) < 0)
            return -1;
        double took = wl_now() - t0;
        if (took >= LAT_INTERVAL_S)
            return 0;
        *n = rescale(*n, took);
    }
}

double lat_calibrate(const struct wl_ctx *ctx, lat_loop_fn fn, void *arg)
{
    uint64_t n;
    if (ramp(ctx, fn, arg, &n) != 0)
        return NAN;
    double us[LAT_TRIES];
    for (int i = 0; i < LAT_TRIES; i++) {
        if (wl_should_stop(ctx))
            return NAN;
        double t0 = wl_now();
        if (fn(arg, n) < 0)
            return NAN;
        us[i] = (wl_now() - t0) / (double)n * 1e6;
    }
    struct wl_stats st;
    stats_compute(us, LAT_TRIES, &st);
    return st.median;
}

static void publish(struct wl_progress *p, const struct wl_result *res)
{
    atomic_store_explicit(&p->wall, res->wall, memory_order_relaxed);
    atomic_store_explicit(&p->user, res->user, memory_order_relaxed);
    atomic_store_explicit(&p->sys, res->sys, memory_order_relaxed);
    atomic_store_explicit(&p->ops, res->ops, memory_order_release);
}

/* Runs each ref for n operations; their seconds go to secs[] if given. */
static int run_refs(struct lat_ref *refs, int nrefs, void *arg, uint64_t n,
                    double *secs)
{
    for (int i = 0; i < nrefs; i++) {
        double t0 = wl_now();
        if (refs[i].fn(arg, n) < 0)
            return -1;
        if (secs)
            secs[i] = wl_now() - t0;
    }
    return 0;
}

/* One batch of fn, its costs added to res; its seconds in *took. */
static int timed_batch(lat_loop_fn fn, void *arg, uint64_t n,
                       struct wl_result *res, double *took)
{
    double u0, s0, u1, s1;
    wl_cpu_times(&u0, &s0);
    double t0 = wl_now();
    if (fn(arg, n) < 0)
        return -1;
    *took = wl_now() - t0;
    wl_cpu_times(&u1, &s1);
    res->ops += n;
    res->wall += *took;
    res->user += u1 - u0;
    res->sys += s1 - s0;
    return 0;
}

/* The figures of the batches so far, growing as needed. */
struct batch_figures {
    double *v;
    int n, cap;
};

static int keep(struct batch_figures *f, double x)
{
    if (f->n == f->cap) {
        int cap = f->cap ? 2 * f->cap : 256;
        double *v = realloc(f->v, (size_t)cap * sizeof *v);
        if (!v) {
            fprintf(stderr, "lat_measure: out of memory\n");
            return -1;
        }
        f->v = v;
        f->cap = cap;
    }
    f->v[f->n++] = x;
    return 0;
}

/* The batch loop of lat_measure; ref_secs[i] collects ref i's seconds. */
static int batches(struct wl_ctx *ctx, lat_loop_fn fn, void *arg,
                   struct lat_ref *refs, int nrefs, lat_figure_fn figure,
                   uint64_t n, double *ref_secs, struct batch_figures *f,
                   struct wl_result *res)
{
    double start = wl_now();
    for (;;) {
        if (wl_should_stop(ctx))
            return 1;
        if (ctx->count && n > ctx->count - res->ops)
            n = ctx->count - res->ops;
        double b0 = wl_now(), took, secs[LAT_MAX_REFS], ref_us[LAT_MAX_REFS];
        if (timed_batch(fn, arg, n, res, &took) < 0)
            return -1;
        publish(ctx->progress, res);
        if (run_refs(refs, nrefs, arg, n, secs) < 0)
            return -1;
        for (int i = 0; i < nrefs; i++) {
            ref_secs[i] += secs[i];
            ref_us[i] = secs[i] / (double)n * 1e6;
        }
        if (keep(f, figure(arg, took / (double)n * 1e6, ref_us)) < 0)
            return -1;
        double t = wl_now();
        if (ctx->count ? res->ops >= ctx->count : t - start >= ctx->duration)
            return 0;
        /* the next batch: an interval long, not far past the deadline */
        double per_op = (t - b0) / (double)n; /* fn and the refs */
        double left = ctx->duration - (t - start);
        n = rescale(n, took);
        if (!ctx->count && per_op > 0 && n * per_op > left)
            n = (uint64_t)ceil(left / per_op);
    }
}

int lat_measure(struct wl_ctx *ctx, lat_loop_fn fn, void *arg,
                struct lat_ref *refs, int nrefs, lat_figure_fn figure,
                struct wl_result *res)
{
    if (nrefs < 0 || nrefs > LAT_MAX_REFS)
        return -1;
    uint64_t n;
    int rc = ramp(ctx, fn, arg, &n);
    if (rc != 0)
        return rc;
    if (run_refs(refs, nrefs, arg, n, NULL) < 0)
        return -1;
    res->ops = 0;
    res->wall = res->user = res->sys = 0;
    double ref_secs[LAT_MAX_REFS] = {0};
    struct batch_figures f = {0};
    rc = batches(ctx, fn, arg, refs, nrefs, figure, n, ref_secs, &f, res);
    if (rc == 0) {
        for (int i = 0; i < nrefs; i++)
            refs[i].us = ref_secs[i] / (double)res->ops * 1e6;
        struct wl_stats st;
        stats_compute(f.v, f.n, &st);
        res->figure = st.median;
    }
    free(f.v);
    return rc;
}

void lat_extra(struct wl_result *res, const char *name, const char *unit,
               double value)
{
    if (res->nextra >= WL_MAX_EXTRA)
        return;
    struct wl_extra *e = &res->extra[res->nextra++];
    snprintf(e->name, sizeof e->name, "%s", name);
    snprintf(e->unit, sizeof e->unit, "%s", unit);
    e->value = value;
}
