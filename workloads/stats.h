/* Statistics over the figures of repeated runs: what a result line shows
 * (n, median, min, max) and how far the mean can be trusted (standard
 * deviation, 95% confidence interval with Student's t for small n). */
#ifndef PARALLAX_STATS_H
#define PARALLAX_STATS_H

struct wl_stats {
    int n;
    double median, min, max, mean;
    double sd;   /* sample standard deviation (n - 1); NaN when n < 2 */
    double ci95; /* half-width of the 95% interval of the mean; NaN n < 2 */
};

/* Fills st from x[0..n); with n == 0 every figure is NaN. NaN inputs are
 * skipped (st->n counts the others). x is not modified. */
void stats_compute(const double *x, int n, struct wl_stats *st);

/* The two-sided 95% quantile of Student's t with df degrees of freedom
 * (1.96 as df grows without bound); NaN when df < 1. */
double stats_t95(int df);

#endif
