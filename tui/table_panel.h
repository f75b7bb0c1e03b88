/* The sources' table: counters as rows, this host then each guest and its
 * ratio as columns; guests scroll sideways when they do not fit. */
#ifndef PARALLAX_TABLE_PANEL_H
#define PARALLAX_TABLE_PANEL_H

#include <stdbool.h>

#include "core/session.h"

struct table_panel {
    int first_guest; /* the leftmost guest shown (1-based model index) */
};

/* Draws the table in rows y0 .. y0+height-1 of the screen. */
void table_panel_draw(const struct table_panel *p, const struct session *s,
                      int y0, int height, bool utf8);

/* Left/right scroll the guests. Returns enum key_result flags. */
int table_panel_key(struct table_panel *p, const struct session *s, int ch);

#endif
