/* The main table: counters, the Time rows, then the workloads and the
 * index, as rows; this host, then each guest and its ratio, as columns.
 * Guests scroll sideways when they do not fit; the section with the focus
 * (Tab: counters, time, workloads) gets the height it needs, the other what
 * is left; rows that still do not fit scroll (PgUp PgDn: the workloads
 * with the focus, or when all counter and Time rows show; else those),
 * and the workloads' rule says which are shown ("workloads 1-11 of 25"). */
#ifndef PARALLAX_TABLE_PANEL_H
#define PARALLAX_TABLE_PANEL_H

#include <stdbool.h>

#include "session/jobs.h"
#include "session/session.h"
#include "tui/run_status.h"

enum table_focus { /* in Tab's order */
                   FOCUS_COUNTERS,
                   FOCUS_TIME, /* the counters' section, from its Time rows on
                                */
                   FOCUS_WORKLOADS,
};

struct table_panel {
    int first_guest; /* the leftmost guest shown (model index, >= 1) */
    enum table_focus focus;
    int sel;           /* the selected workload */
    int wl_top;        /* the first workload row shown */
    int upper_top;     /* the first counter or Time row shown (0: CPU user) */
    int upper_rows;    /* how many of them the last draw showed */
    bool upper_hidden; /* some of them were not shown */
    int wl_rows;       /* workload rows the last draw showed */
    int followed;      /* the suite's workload the selection followed + 1 */
    char status[RUN_STATUS_MAX]; /* the last action's outcome */
    struct run_status runs;      /* keeps status true of runs it announced */
    unsigned message_seq;        /* the jobs' message last shown */
    double shown_at; /* paused: when the frozen figures were taken, else 0 */
};

/* Puts the jobs' newest message (a guest's refusal) on the status line,
 * once; keeps what it says of a suite or a workload it started true. */
void table_panel_take_message(struct table_panel *p, const struct jobs *j);

/* Draws the table in rows y0 .. y0+height-1 of the screen. */
void table_panel_draw(struct table_panel *p, const struct session *s,
                      const struct jobs *j, int y0, int height, bool utf8);

/* The selection follows a running suite to each workload it starts (its
 * row then shows); the user's own moves in between stand until the next.
 * Called by each draw. */
void table_panel_follow_suite(struct table_panel *p, const struct jobs *j);

/* What PgUp/PgDn scroll: the workloads with the focus, or when every
 * counter and Time row shows (not upper_hidden); else the counter and
 * Time rows. */
bool table_panel_pages_workloads(const struct table_panel *p,
                                 bool upper_hidden);

/* How many guests fit beside this host at this width from guest `first`
 * on (the layout the draw makes). */
int table_panel_guests_fit(const struct session *s, int first);

/* tui/table_keys.c: scrolling, focus, selection, and the workload keys (Space
 * start/stop, a suite, x stop all, 0-9 toggle a source). Returns key_result
 * flags. */
int table_panel_key(struct table_panel *p, const struct session *s,
                    struct jobs *j, int ch);

/* Toggles whether the sources named in text take part in workloads: model
 * indexes (0 is this host) or names, separated by spaces or commas. The
 * outcome goes to the status line. */
void table_panel_toggle(struct table_panel *p, const struct session *s,
                        struct jobs *j, const char *text);

#endif
