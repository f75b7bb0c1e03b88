/* Pure arithmetic behind the figures of the sleep, scheduler and disk
 * workloads, kept apart so that it can be tested on known data. */
#ifndef PARALLAX_CALC_H
#define PARALLAX_CALC_H

#include <stddef.h>

/* The p-th percentile (0 <= p <= 100) of v[0..n), interpolating linearly
 * between the two nearest order statistics (numpy's default, R type 7).
 * Sorts v in place. NaN when n == 0. */
double calc_percentile(double *v, size_t n, double p);

/* The arithmetic mean of v[0..n); NaN when n == 0. */
double calc_mean(const double *v, size_t n);

/* Jain's fairness index (sum x)^2 / (n * sum x^2) of x[0..n): 1 when all
 * are equal, 1/n when one value has everything. NaN when n == 0 or all
 * are 0. */
double calc_jain(const double *x, size_t n);

/* The wall time n tasks that need t[i] seconds of a CPU each take when
 * started together on ncpu CPUs shared perfectly (processor sharing:
 * while m tasks are left, each runs at min(1, ncpu / m) of a CPU). For
 * equal tasks this is n * t / min(n, ncpu). NaN when n == 0 or
 * ncpu < 1. */
double calc_shared_wall(const double *t, size_t n, int ncpu);

#endif
