/* The main screen: title bar, the sources' table, the key bar. */
#ifndef PARALLAX_SCREEN_H
#define PARALLAX_SCREEN_H

#include <stdbool.h>

#include "core/session.h"
#include "tui/prompt.h"
#include "tui/table_panel.h"

/* Draws the whole screen from the session's models and jobs, with the
 * prompt (when not NULL) on the status row. */
void screen_draw(const struct session *s, const struct jobs *j,
                 struct table_panel *table, const struct prompt *prompt,
                 bool utf8);

#endif
