/* The fleet screen (--fleet URL): its loop, keys and drawing around the
 * fleet table (tui/fleet_panel.h), with fleet runs, the fleet report, and
 * Enter opening the familiar side-by-side screen of a guest against its
 * host. Runs inside the lifecycle of tui/tui.c (curses, signals, the
 * log), which calls it. */
#ifndef PARALLAX_FLEET_TUI_H
#define PARALLAX_FLEET_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"

/* Runs the fleet screen until q (0) or a termination signal (returned);
 * -1 with a one-line reason in err when it cannot start. */
int fleet_tui_run(const struct options *o, bool utf8, char *err, size_t errlen);

#endif
