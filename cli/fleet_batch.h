/* --fleet with --batch: a fleet run of a suite or workloads on the guests
 * the filter shows (and their hosts), a progress line on stderr, then the
 * fleet report (text on stdout or --output, JSON next to it). */
#ifndef PARALLAX_FLEET_BATCH_H
#define PARALLAX_FLEET_BATCH_H

#include "cli/options.h"

/* Runs o->batch across the fleet at o->fleet. Returns the exit status: 0
 * when every source gave its figures, 1 when one did not (or the fleet
 * did not answer), 2 for bad input, 128+signal when stopped. */
int fleet_batch_run(const struct options *o);

#endif
