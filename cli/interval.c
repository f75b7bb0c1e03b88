/* See interval.h. The ladder's ends are INTERVAL_MIN and INTERVAL_MAX, so
 * the keys can never leave the range -t checks. */
#include "cli/interval.h"

#include <stdio.h>

#include "cli/options.h"

static const double ladder[] = {INTERVAL_MIN, 0.2,  0.5,         1,  2,   5,
                                10,           15,   30,          60, 120, 300,
                                600,          1800, INTERVAL_MAX};
#define NSTEPS (sizeof(ladder) / sizeof(ladder[0]))
#define EPS    1e-9 /* -t 0.1 parses to a double near, not at, 0.1 */

double interval_step(double cur, int dir)
{
    if (dir > 0) {
        for (size_t i = 0; i < NSTEPS; i++)
            if (ladder[i] > cur + EPS)
                return ladder[i];
    } else if (dir < 0) {
        for (size_t i = NSTEPS; i-- > 0;)
            if (ladder[i] < cur - EPS)
                return ladder[i];
    }
    return cur;
}

void interval_format(double iv, char *buf, size_t n)
{
    snprintf(buf, n, "%g s", iv);
}
