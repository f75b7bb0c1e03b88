/* Overhead ratios: a guest's figure over the host's, turned so that a ratio
 * above 1 always means worse in the guest; and the index that folds many
 * ratios into one (UnixBench's geometric mean). */
#ifndef PARALLAX_RATIO_H
#define PARALLAX_RATIO_H

#include <stdbool.h>

#include "core/metrics.h"

/* The oriented ratio, or NaN when either side is missing, not positive or
 * not finite, or when the orientation is RO_NONE: never 0 or infinity. */
double ratio_oriented(double guest, double host, enum ratio_orientation ro);

/* True when the orientation judges: > 1 is worse in the guest, not only
 * busier. */
bool ratio_judged(enum ratio_orientation ro);

/* The interval of the oriented ratio of a guest figure in [g_lo, g_hi]
 * to a host figure in [h_lo, h_hi]: its lowest and highest value over
 * both intervals. False (lo, hi NaN) when either bound is unusable. */
bool ratio_interval(double g_lo, double g_hi, double h_lo, double h_hi,
                    enum ratio_orientation ro, double *lo, double *hi);

/* The geometric mean of the finite, positive ratios among r[0..n-1];
 * NaN when there are none. */
double ratio_geomean(const double *r, int n);

#endif
