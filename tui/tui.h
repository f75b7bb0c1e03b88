/* The full-screen view: curses lifecycle, main loop and keys. */
#ifndef PARALLAX_TUI_H
#define PARALLAX_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"

#define TUI_MIN_COLS 40
#define TUI_MIN_ROWS 12

/* A screen that runs inside this lifecycle (curses, signals, the log)
 * until q (0) or a termination signal (returned); -1 with a one-line
 * reason in err when it cannot start. */
typedef int tui_screen_fn(const struct options *o, bool utf8, char *err,
                          size_t errlen);

/* Runs the live screen until q or a termination signal; always restores
 * the terminal. Returns the process exit status. With --fleet it runs
 * `fleet` (tui/fleet_tui.c, which main passes in: the fleet screen calls
 * this file's pair screen, so this file does not include it). */
int tui_run(const struct options *o, tui_screen_fn *fleet);

struct backend;

/* While the screen is up: the descriptor that becomes readable when
 * SIGINT, SIGTERM or SIGHUP arrives (one byte, the signal), for another
 * screen's loop (the fleet's). */
int tui_signal_fd(void);

/* The familiar side-by-side screen of `guest` against `host` (the
 * reference of its ratios), both read through `backends` (the fleet's
 * /pmapi), until q: returns 0, or the signal that ended it, or -1 with
 * err when they cannot be opened. Stops the workloads it started. */
int tui_pair_run(const struct source_spec *host,
                 const struct source_spec *guest,
                 const struct backend *const *backends, double interval,
                 bool utf8, char *err, size_t errlen);

#endif
