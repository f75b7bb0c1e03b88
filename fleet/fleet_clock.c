/* See fleet_clock.h. */
#include "fleet/fleet_clock.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define STEP_FRACTION 0.25 /* a gap further than this from whole ticks */

void fleet_ticks_init(struct fleet_ticks *t)
{
    memset(t, 0, sizeof(*t));
}

/* The stamp `age` records old (0 = newest). */
static double at(const struct fleet_ticks *t, int age)
{
    return t->stamp[(t->head - 1 - age + 2 * FLEET_TICKS) % FLEET_TICKS];
}

double fleet_ticks_last(const struct fleet_ticks *t)
{
    return t->count ? at(t, 0) : NAN;
}

void fleet_ticks_add(struct fleet_ticks *t, double stamp)
{
    if (!isfinite(stamp) || (t->count && stamp <= at(t, 0)))
        return;
    t->stamp[t->head] = stamp;
    t->head = (t->head + 1) % FLEET_TICKS;
    if (t->count < FLEET_TICKS)
        t->count++;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

double fleet_ticks_rate(const struct fleet_ticks *t)
{
    int n = t->count;
    if (n < FLEET_TICKS_MIN)
        return NAN;
    double d[FLEET_TICKS], work[FLEET_TICKS];
    for (int i = 0; i < n - 1; i++) /* d[i]: newest-first gaps */
        work[i] = d[i] = at(t, i) - at(t, i + 1);
    /* one tick: a gap from the low quarter (polls at varying phases see
     * one, two or more new records per gap), then the median of every
     * gap over its ticks */
    median(work, n - 1);
    double tick = work[(n - 1) / 4];
    if (!(tick > 0))
        return NAN;
    for (int i = 0; i < n - 1; i++)
        work[i] = d[i] / fmax(1, round(d[i] / tick));
    double spacing = median(work, n - 1);
    /* tick numbers back from the newest, up to the first gap that is no
     * whole number of ticks: a step of the source's clock. A stamp that
     * came late (a busy machine delayed the fetch) makes two such gaps
     * that add up to whole ticks: it is left out, not taken for a step. */
    double k[FLEET_TICKS], s[FLEET_TICKS];
    int used = 1;
    k[0] = 0;
    s[0] = at(t, 0);
    for (int i = 0; i < n - 1; i++) {
        double ticks = d[i] / spacing, whole = round(ticks);
        if (whole < 1 || fabs(ticks - whole) > STEP_FRACTION) {
            if (i + 1 >= n - 1)
                break;
            ticks = (d[i] + d[i + 1]) / spacing;
            whole = round(ticks);
            if (whole < 2 || fabs(ticks - whole) > STEP_FRACTION)
                break;
            i++; /* the late stamp at age i + 1 is skipped */
        }
        k[used] = k[used - 1] - whole;
        s[used] = at(t, i + 1);
        used++;
    }
    if (used < FLEET_TICKS_MIN)
        return NAN;
    /* The stamps sit above a line: each is the tick's instant plus how
     * long the fetch took to reach the source (never negative), so the
     * line runs under the fastest of them. Its slope: between the
     * lowest residual (against the median spacing) of the oldest third
     * and of the newest third, refined once with the slope found. */
    double rate = spacing;
    for (int pass = 0; pass < 2; pass++) {
        int third = used / 3, lo_new = 0, lo_old = used - 1;
        for (int i = 0; i < third; i++) {
            if (s[i] - k[i] * rate < s[lo_new] - k[lo_new] * rate)
                lo_new = i;
            int o = used - 1 - i;
            if (s[o] - k[o] * rate < s[lo_old] - k[lo_old] * rate)
                lo_old = o;
        }
        double dk = k[lo_new] - k[lo_old];
        if (!(dk > 0))
            return NAN;
        rate = (s[lo_new] - s[lo_old]) / dk;
    }
    return rate;
}
