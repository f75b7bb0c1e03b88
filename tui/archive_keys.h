/* The recording and replay keys of the live screen: r records, and for
 * the recorded columns , pauses, . steps, [ ] slow down and speed up, n
 * goes to the next workload run. */
#ifndef PARALLAX_ARCHIVE_KEYS_H
#define PARALLAX_ARCHIVE_KEYS_H

#include <stddef.h>

#include "cli/archives.h"
#include "session/session.h"

/* Feeds one key; key_result flags (tui/panel.h), KR_IGNORED for others.
 * The outcome goes to status. */
int archive_keys(struct archives *a, const struct session *s, int ch,
                 char *status, size_t n);

#endif
