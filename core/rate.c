/* Counter deltas and rates; see rate.h for the wrap-versus-reset rule. */
#include "core/rate.h"

#include <math.h>

enum rate_status counter_delta(uint64_t prev, uint64_t cur, unsigned width,
                               uint64_t *delta)
{
    if (width == 0 || width > 64)
        width = 64;
    uint64_t mask = width == 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
    uint64_t half =
        width == 64 ? UINT64_C(1) << 63 : UINT64_C(1) << (width - 1);
    uint64_t d = (cur - prev) & mask;
    if (cur >= prev) {
        *delta = d;
        return RATE_OK;
    }
    if (d < half) {
        *delta = d;
        return RATE_OK;
    }
    return RATE_RESET;
}

enum rate_status counter_rate(uint64_t prev, uint64_t cur, unsigned width,
                              double dt, double *rate)
{
    if (!(dt > 0) || !isfinite(dt))
        return RATE_NO_INTERVAL;
    uint64_t d;
    enum rate_status st = counter_delta(prev, cur, width, &d);
    if (st != RATE_OK)
        return st;
    *rate = (double)d / dt;
    return RATE_OK;
}
