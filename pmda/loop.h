/* The agent's main loop, in place of pmdaMain. */
#ifndef PARALLAX_PMDA_LOOP_H
#define PARALLAX_PMDA_LOOP_H

#include "pmda/agent.h"

/* Answers pmcd and keeps runs, probes and the counter going until pmcd
 * closes the connection (0) or a signal asks to stop (0), or ppoll fails
 * (-1). Takes the first clock probe at once. */
int agent_loop(pmdaInterface *dp, struct agent *a);

#endif
