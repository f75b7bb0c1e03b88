/* See ratio.h. */
#include "core/ratio.h"

#include <math.h>
#include <stdbool.h>

static bool usable(double v)
{
    return isfinite(v) && v > 0;
}

double ratio_oriented(double guest, double host, enum ratio_orientation ro)
{
    if (ro == RO_NONE || !usable(guest) || !usable(host))
        return NAN;
    bool higher = ro == RO_HIGHER_WORSE || ro == RO_HIGHER_BUSIER;
    double r = higher ? guest / host : host / guest;
    return usable(r) ? r : NAN;
}

bool ratio_judged(enum ratio_orientation ro)
{
    return ro == RO_HIGHER_WORSE || ro == RO_LOWER_WORSE;
}

bool ratio_interval(double g_lo, double g_hi, double h_lo, double h_hi,
                    enum ratio_orientation ro, double *lo, double *hi)
{
    double a = ratio_oriented(g_lo, h_hi, ro),
           b = ratio_oriented(g_hi, h_lo, ro);
    *lo = *hi = NAN;
    if (!usable(a) || !usable(b))
        return false;
    *lo = fmin(a, b);
    *hi = fmax(a, b);
    return true;
}

double ratio_geomean(const double *r, int n)
{
    double logsum = 0;
    int used = 0;
    for (int i = 0; i < n; i++) {
        if (!usable(r[i]))
            continue;
        logsum += log(r[i]);
        used++;
    }
    return used ? exp(logsum / used) : NAN;
}
