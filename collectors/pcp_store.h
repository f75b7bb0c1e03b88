/* A store into a source's pmcd (pmStore, the backends' store: what
 * starts and stops a guest's workloads, collectors/backend.h): the text
 * of a value turned into the metric's type, and a refusal told with its
 * fix (the pmcd.conf line that allows this host's stores, or the agent's
 * own reason). */
#ifndef PARALLAX_PCP_STORE_H
#define PARALLAX_PCP_STORE_H

#include <stddef.h>

/* Stores `value` (a number's or a string's text) into the metric `name`
 * in the current PCP context, a pmcd at target ("host[:port]"). 0, or a
 * PCP error code with one line in msg. */
int pcp_store_value(const char *target, const char *name, const char *value,
                    char *msg, size_t msglen);

#endif
