/* The main screen: title bar, the sources' table, the key bar. */
#ifndef PARALLAX_SCREEN_H
#define PARALLAX_SCREEN_H

#include <stdbool.h>

#include "session/session.h"
#include "tui/help.h"
#include "tui/latency_panel.h"
#include "tui/prompt.h"
#include "tui/table_panel.h"

/* What is open over the table. */
struct screen_overlay {
    const struct prompt *prompt; /* on the status row, or NULL */
    struct help *help;           /* the help box over the table, or NULL */
    const struct latency_panel *latency; /* the distribution view, NULL */
    bool paused;                         /* the status row says PAUSED */
    const char *badge;                   /* and this after it (REC), or NULL */
    bool vms; /* the host's view of its VMs in the table's place (v) */
};

/* Draws the whole screen from the session's models and jobs, with what
 * ov says is open over it. */
void screen_draw(const struct session *s, const struct jobs *j,
                 struct table_panel *table, const struct screen_overlay *ov,
                 bool utf8);

#endif
