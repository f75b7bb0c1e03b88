/* Order statistics on a sorted copy, mean and deviation with Welford's
 * update (no cancellation for figures like 1e9 +- 1), t from a table, the
 * median's interval from the binomial distribution of the figures below
 * the true median (each figure is below it with probability 1/2). */
#include "workloads/stats.h"

#include <math.h>
#include <stdlib.h>

/* t(0.975, df) for df = 1..30, then selected larger df. */
static const double t_small[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};
static const struct {
    int df;
    double t;
} t_large[] = {{30, 2.042}, {40, 2.021}, {60, 2.000}, {120, 1.980}};

double stats_t95(int df)
{
    if (df < 1)
        return NAN;
    if (df <= 30)
        return t_small[df - 1];
    /* t is nearly linear in 1/df: interpolate, and towards 1.96 at inf */
    int n = sizeof t_large / sizeof t_large[0];
    for (int i = 0; i + 1 < n; i++)
        if (df <= t_large[i + 1].df) {
            double a = 1.0 / t_large[i].df, b = 1.0 / t_large[i + 1].df;
            double f = (1.0 / df - a) / (b - a);
            return t_large[i].t + f * (t_large[i + 1].t - t_large[i].t);
        }
    double f = (1.0 / df) / (1.0 / t_large[n - 1].df);
    return 1.960 + f * (t_large[n - 1].t - 1.960);
}

double stats_median_cover(int n, int k)
{
    if (n < 2 || k < 1 || 2 * k > n + 1)
        return 0;
    /* P(B < k) = sum_{i<k} C(n,i) / 2^n, in logs: n goes to 1000 */
    double below = 0;
    for (int i = 0; i < k; i++)
        below += exp(lgamma(n + 1.0) - lgamma(i + 1.0) - lgamma(n - i + 1.0) -
                     n * log(2.0));
    double c = 1 - 2 * below;
    return c > 0 ? c : 0;
}

bool stats_noisy(double figure, double lo, double hi)
{
    return isfinite(figure) && isfinite(lo) && isfinite(hi) &&
           hi - lo > STATS_NOISY * fabs(figure);
}

/* The median interval of the sorted v[0..k). */
static void median_interval(const double *v, int k, struct wl_stats *st)
{
    if (k < 2)
        return;
    int best = 1; /* min and max, whatever their coverage */
    for (int r = 2; 2 * r <= k + 1; r++)
        if (stats_median_cover(k, r) >= STATS_COVER_WANT)
            best = r;
        else
            break;
    st->med_lo = v[best - 1];
    st->med_hi = v[k - best];
    st->med_cover = stats_median_cover(k, best);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

void stats_compute(const double *x, int n, struct wl_stats *st)
{
    *st = (struct wl_stats){.median = NAN,
                            .min = NAN,
                            .max = NAN,
                            .mean = NAN,
                            .sd = NAN,
                            .ci95 = NAN,
                            .med_lo = NAN,
                            .med_hi = NAN,
                            .med_cover = NAN};
    double *v = n > 0 ? malloc((size_t)n * sizeof *v) : NULL;
    if (!v)
        return;
    int k = 0;
    double mean = 0, m2 = 0;
    for (int i = 0; i < n; i++) {
        if (isnan(x[i]))
            continue;
        v[k++] = x[i];
        double d = x[i] - mean;
        mean += d / k;
        m2 += d * (x[i] - mean);
    }
    st->n = k;
    if (k > 0) {
        qsort(v, (size_t)k, sizeof *v, cmp_double);
        st->min = v[0];
        st->max = v[k - 1];
        st->median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
        st->mean = mean;
        median_interval(v, k, st);
    }
    if (k > 1) {
        st->sd = sqrt(m2 / (k - 1));
        st->ci95 = stats_t95(k - 1) * st->sd / sqrt(k);
    }
    free(v);
}
