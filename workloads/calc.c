/* Percentiles, Jain's index and the perfect-sharing wall time. */
#include "workloads/calc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double calc_percentile(double *v, size_t n, double p)
{
    if (n == 0)
        return NAN;
    qsort(v, n, sizeof(*v), cmp_double);
    double h = (double)(n - 1) * fmin(fmax(p, 0.0), 100.0) / 100.0;
    size_t lo = (size_t)floor(h);
    size_t hi = lo + 1 < n ? lo + 1 : lo;
    return v[lo] + (h - (double)lo) * (v[hi] - v[lo]);
}

double calc_mean(const double *v, size_t n)
{
    if (n == 0)
        return NAN;
    double sum = 0;
    for (size_t i = 0; i < n; i++)
        sum += v[i];
    return sum / (double)n;
}

double calc_jain(const double *x, size_t n)
{
    double sum = 0, sq = 0;
    for (size_t i = 0; i < n; i++) {
        sum += x[i];
        sq += x[i] * x[i];
    }
    if (n == 0 || sq == 0)
        return NAN;
    return sum * sum / ((double)n * sq);
}

/* Shortest tasks end first under processor sharing, so walk them in
 * order: between two endings every task left runs at the same rate. */
double calc_shared_wall(const double *t, size_t n, int ncpu)
{
    if (n == 0 || ncpu < 1)
        return NAN;
    double *s = malloc(n * sizeof(*s));
    if (!s)
        return NAN;
    memcpy(s, t, n * sizeof(*s));
    qsort(s, n, sizeof(*s), cmp_double);
    double wall = 0, done = 0; /* CPU seconds each remaining task has had */
    for (size_t i = 0; i < n; i++) {
        double left = (double)(n - i);
        double rate = fmin(1.0, ncpu / left);
        wall += (s[i] - done) / rate;
        done = s[i];
    }
    free(s);
    return wall;
}
