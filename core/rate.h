/* Counter arithmetic: deltas across wraps, resets and rates per second.
 * A counter that goes backwards and does not look like a wrap is a reset:
 * it yields no rate, never a negative or huge one. */
#ifndef PARALLAX_RATE_H
#define PARALLAX_RATE_H

#include <stdint.h>

enum rate_status {
    RATE_OK,
    RATE_RESET,       /* the counter went backwards: restarted, not wrapped */
    RATE_NO_INTERVAL, /* the interval was zero, negative or not a number */
};

/* Delta from prev to cur for a counter of `width` bits (1..64). A backward
 * step is a wrap when the wrapped delta is under half the counter's range,
 * otherwise a reset (RATE_RESET, *delta untouched). */
enum rate_status counter_delta(uint64_t prev, uint64_t cur, unsigned width,
                               uint64_t *delta);

/* Per-second rate of a counter over dt seconds of measured interval. */
enum rate_status counter_rate(uint64_t prev, uint64_t cur, unsigned width,
                              double dt, double *rate);

#endif
