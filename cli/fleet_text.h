/* --fleet with --text: the fleet table printed as plain text after each
 * poll of pmproxy (what the fleet screen shows, one line per guest), for
 * scripts and tests. */
#ifndef PARALLAX_FLEET_TEXT_H
#define PARALLAX_FLEET_TEXT_H

#include "cli/options.h"

/* Prints o->samples refreshes (0: until SIGINT/SIGTERM) of the fleet at
 * o->fleet. Returns the process exit status. */
int fleet_text_run(const struct options *o);

#endif
