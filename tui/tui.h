/* The full-screen view: curses lifecycle, main loop and keys. */
#ifndef PARALLAX_TUI_H
#define PARALLAX_TUI_H

#include "cli/options.h"

#define TUI_MIN_COLS 40
#define TUI_MIN_ROWS 12

/* Runs the live screen until q or a termination signal; always restores
 * the terminal. Returns the process exit status. */
int tui_run(const struct options *o);

#endif
