/* The main table: counters, then the workloads and the index, as rows;
 * this host, then each guest and its ratio, as columns. Guests scroll
 * sideways when they do not fit; the section with the focus (Tab) gets the
 * height it needs, the other what is left. */
#ifndef PARALLAX_TABLE_PANEL_H
#define PARALLAX_TABLE_PANEL_H

#include <stdbool.h>

#include "core/jobs.h"
#include "core/session.h"

enum table_focus {
    FOCUS_COUNTERS,
    FOCUS_WORKLOADS,
};

struct table_panel {
    int first_guest; /* the leftmost guest shown (model index, >= 1) */
    enum table_focus focus;
    int sel;              /* the selected workload */
    int wl_top;           /* the first workload row shown */
    char status[384];     /* the last action's outcome, for the status line */
    unsigned message_seq; /* the jobs' message last shown */
    double shown_at; /* paused: when the frozen figures were taken, else 0 */
};

/* Draws the table in rows y0 .. y0+height-1 of the screen. */
void table_panel_draw(struct table_panel *p, const struct session *s,
                      const struct jobs *j, int y0, int height, bool utf8);

/* Scrolling, focus, selection, and the workload keys (Space start/stop,
 * a suite, x stop all, 0-9 toggle a source). Returns key_result flags. */
int table_panel_key(struct table_panel *p, const struct session *s,
                    struct jobs *j, int ch);

#endif
