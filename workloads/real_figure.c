/* See real_figure.h. The dimension comes from the unit, so a new workload
 * needs nothing unless its figure is neither a time, a rate nor a ratio
 * (the sleep workload's overshoot has its own rule). */
#include "workloads/real_figure.h"

#include <math.h>
#include <string.h>

enum wl_clock_dim wl_clock_dim(const struct workload *w)
{
    static const char *const times[] = {"ns", "us", "ms", "s"};
    static const char *const rates[] = {"lps", "MWIPS"};
    const char *u = w->unit;
    for (size_t i = 0; i < sizeof(times) / sizeof(times[0]); i++)
        if (strcmp(u, times[i]) == 0)
            return WD_TIME;
    for (size_t i = 0; i < sizeof(rates) / sizeof(rates[0]); i++)
        if (strcmp(u, rates[i]) == 0)
            return WD_RATE;
    size_t n = strlen(u);
    return n > 2 && strcmp(u + n - 2, "/s") == 0 ? WD_RATE : WD_NONE;
}

double wl_real_figure(const struct workload *w, double figure, double rate)
{
    if (!(rate > 0) || !isfinite(rate))
        return NAN;
    if (w->real_figure)
        return w->real_figure(figure, rate);
    switch (wl_clock_dim(w)) {
    case WD_TIME:
        return figure / rate;
    case WD_RATE:
        return figure * rate;
    case WD_NONE:
        break;
    }
    return figure;
}
