/* The sleep workload's durations, shared with the views that set what a
 * source's clock measured of them against what the host saw. */
#ifndef PARALLAX_SLEEP_ACC_H
#define PARALLAX_SLEEP_ACC_H

#include <stddef.h>

struct sleep_dur {
    const char *label; /* "1ms": its extras are "1ms overshoot mean", ... */
    long ns;
};

extern const struct sleep_dur sleep_durs[];
extern const size_t sleep_ndurs;

#endif
