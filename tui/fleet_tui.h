/* The fleet screen (--fleet URL): its loop, keys and drawing around the
 * fleet table (tui/fleet_panel.h), with fleet runs, the fleet report, and
 * Enter opening the familiar side-by-side screen of a guest against its
 * host (tui/tui.h's pair screen). Takes the terminal through
 * tui/lifecycle.h, as the main screen does; main chooses which runs. */
#ifndef PARALLAX_FLEET_TUI_H
#define PARALLAX_FLEET_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"

/* Runs the fleet screen (--fleet) until q or a termination signal; always
 * restores the terminal. Returns the process exit status. */
int fleet_tui_run(const struct options *o);

#endif
