/* See lat_common.h. */
#include "workloads/lat_common.h"

#include <stdio.h>
#include <string.h>

void lat_add_extra(struct wl_result *res, const char *name, const char *unit,
                   double value)
{
    if (res->nextra >= WL_MAX_EXTRA)
        return;
    struct wl_extra *x = &res->extra[res->nextra++];
    snprintf(x->name, sizeof x->name, "%s", name);
    snprintf(x->unit, sizeof x->unit, "%s", unit);
    x->value = value;
}

void lat_result(struct wl_result *res, const struct lat_hist *h)
{
    res->hist = *h;
    res->ops = h->n;
    res->figure = lat_hist_percentile(h, 99) * 1e-3;
    char name[32];
    for (int i = 0; i < LAT_NPCT; i++) {
        snprintf(name, sizeof name, LAT_EXTRA_PREFIX "%s", lat_pct_name[i]);
        lat_add_extra(res, name, "us",
                      lat_hist_percentile(h, lat_pct[i]) * 1e-3);
    }
    lat_add_extra(res, LAT_EXTRA_PREFIX "max", "us", h->max_ns * 1e-3);
    lat_add_extra(res, LAT_EXTRA_PREFIX "mean", "us",
                  h->n ? h->sum_ns / (double)h->n * 1e-3 : 0);
    lat_add_extra(res, "samples", "", (double)h->n);
}

void lat_spin(int64_t ns)
{
    int64_t end = lat_now_ns() + ns;
    while (lat_now_ns() < end)
        ;
}

static void *hog_main(void *arg)
{
    struct lat_hogs *h = arg;
    volatile uint64_t x = 0;
    while (!atomic_load_explicit(&h->stop, memory_order_relaxed))
        x++;
    return NULL;
}

int lat_hogs_start(struct lat_hogs *h, int n)
{
    h->n = 0;
    atomic_store(&h->stop, 0);
    if (n > 64)
        n = 64;
    for (; h->n < n; h->n++)
        if (pthread_create(&h->t[h->n], NULL, hog_main, h) != 0) {
            lat_hogs_stop(h);
            return -1;
        }
    return 0;
}

void lat_hogs_stop(struct lat_hogs *h)
{
    atomic_store(&h->stop, 1);
    for (int i = 0; i < h->n; i++)
        pthread_join(h->t[i], NULL);
    h->n = 0;
}
