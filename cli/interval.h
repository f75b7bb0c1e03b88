/* The sampling interval's steps for the + and - keys: a ladder of round
 * values within the bounds -t accepts. */
#ifndef PARALLAX_INTERVAL_H
#define PARALLAX_INTERVAL_H

#include <stddef.h>

/* The next step above (dir > 0) or below (dir < 0) `cur` on the ladder,
 * from any value, even one -t gave that is not on it; `cur` itself at
 * either end. */
double interval_step(double cur, int dir);

/* "0.5 s", "2 s", "3600 s": the interval as the title shows it. */
void interval_format(double iv, char *buf, size_t n);

#endif
