/* The host's clocks in seconds, as doubles: every timestamp parallax
 * compares goes through these two. */
#ifndef PARALLAX_CLOCK_H
#define PARALLAX_CLOCK_H

/* CLOCK_MONOTONIC: intervals, deadlines, fetch brackets. */
double clock_mono(void);

/* CLOCK_REALTIME: seconds since the epoch, against a source's clock. */
double clock_real(void);

#endif
