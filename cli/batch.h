/* --batch: run a suite or a list of workloads on every source, one after
 * another, with a progress line on stderr, then write the text report to
 * stdout (or --output FILE, the JSON next to it) and the pair into the
 * report directory. Nothing is drawn with curses. */
#ifndef PARALLAX_BATCH_H
#define PARALLAX_BATCH_H

#include "cli/options.h"

/* Returns the exit status: 0 when every run completed everywhere, 1 when
 * one did not (the report still says what was measured), 2 for bad
 * input, 128+N on signal N. */
int batch_run(const struct options *o);

#endif
