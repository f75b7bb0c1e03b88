/* See clock.h. */
#include "base/clock.h"

#include <time.h>

static double now(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

double clock_mono(void)
{
    return now(CLOCK_MONOTONIC);
}

double clock_real(void)
{
    return now(CLOCK_REALTIME);
}
