/* Statistics over the figures of repeated runs: what a result line shows
 * (n, median, min, max), the interval of the median (distribution-free:
 * two order statistics, no assumption about the figures' distribution),
 * and the mean's (Student's t) for readers of the older metrics. Host and
 * guest compute them with this same code. */
#ifndef PARALLAX_STATS_H
#define PARALLAX_STATS_H

#include <stdbool.h>

struct wl_stats {
    int n;
    double median, min, max, mean;
    double sd;   /* sample standard deviation (n - 1); NaN when n < 2 */
    double ci95; /* half-width of the 95% interval of the mean; NaN n < 2 */
    /* The median's interval: the order statistics x(k) and x(n+1-k) of
     * the sorted figures, k the largest whose coverage is at least 95%,
     * or k = 1 (min and max) when n is too small for 95% (n < 6: 75% at
     * n = 3). Inside the figures' range, so never below zero for a
     * positive figure. NaN when n < 2. */
    double med_lo, med_hi;
    double med_cover; /* its coverage, 0..1: P(the true median inside) */
};

#define STATS_COVER_WANT 0.95 /* the median interval's aim */
#define STATS_NOISY                                                            \
    0.5 /* an interval wider than this share of its                            \
           figure marks the figure noisy */

/* Fills st from x[0..n); with n == 0 every figure is NaN. NaN inputs are
 * skipped (st->n counts the others). x is not modified. */
void stats_compute(const double *x, int n, struct wl_stats *st);

/* The coverage of [x(k), x(n+1-k)] as an interval of the median of n
 * figures: 1 - 2 P(Binomial(n, 1/2) < k). 0 when k is out of 1..n/2. */
double stats_median_cover(int n, int k);

/* True when an interval [lo, hi] is wider than STATS_NOISY of |figure|
 * (false when any is NaN). */
bool stats_noisy(double figure, double lo, double hi);

/* The two-sided 95% quantile of Student's t with df degrees of freedom
 * (1.96 as df grows without bound); NaN when df < 1. */
double stats_t95(int df);

#endif
