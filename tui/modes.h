/* The live screen's modes and view keys: the help box (F1 h ?), the pause
 * (p), the interval (+ -) and the question before quitting while
 * workloads run (q F10). The rest of the keys act on the table. */
#ifndef PARALLAX_MODES_H
#define PARALLAX_MODES_H

#include <stdbool.h>
#include <stddef.h>

#include "session/freeze.h"
#include "session/jobs.h"
#include "session/session.h"
#include "tui/help.h"
#include "tui/latency_panel.h"
#include "tui/prompt.h"
#include "tui/screen.h"

struct modes {
    struct help help;
    struct latency_panel latency; /* the distribution view (l) */
    struct prompt confirm;        /* "quit? (y/n)" on the status row */
    struct freeze frozen;         /* the paused display */
    const char *badge;            /* on the status row (REC), or NULL */
    bool vms;                     /* the host's view in the table's place (v) */
};

/* Feeds one key; returns key_result flags, KR_IGNORED for keys that are
 * not the modes' (the text prompt and the table get those). Outcomes go
 * to status. */
int modes_key(struct modes *m, struct session *s, const struct jobs *j, int ch,
              char *status, size_t statuslen);

/* True while the display is frozen: samples must not redraw it. */
bool modes_paused(const struct modes *m);

/* Draws the screen: the live session and jobs, or the frozen copy. */
void modes_draw(struct modes *m, const struct session *s, const struct jobs *j,
                struct table_panel *table, const struct prompt *prompt,
                bool utf8);

/* Frees the frozen copy. */
void modes_free(struct modes *m);

#endif
