/* --text: the main table printed as plain text every interval. */
#ifndef PARALLAX_TEXT_MODE_H
#define PARALLAX_TEXT_MODE_H

#include "cli/options.h"

/* Prints o->samples refreshes (0: until SIGINT/SIGTERM) to stdout, the
 * first once rates exist. Returns the process exit status. */
int text_mode_run(const struct options *o);

#endif
