/* The main screen (sources side by side) and the pair screen (a guest
 * against its host, opened from the fleet screen). The terminal's
 * lifecycle around them is tui/lifecycle.h; main chooses the screen. */
#ifndef PARALLAX_TUI_H
#define PARALLAX_TUI_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"
#include "core/source_spec.h"

/* Runs the main screen until q or a termination signal; always restores
 * the terminal. Returns the process exit status. */
int tui_run(const struct options *o);

struct backend;

/* The familiar side-by-side screen of `guest` against `host` (the
 * reference of its ratios), both read through `backends` (the fleet's
 * /pmapi), every o->interval s, its runs made with o's repeats and lease
 * and its reports saved into o->report_dir, until q: returns 0, or the
 * signal that ended it, or -1 with err when they cannot be opened. Stops
 * the workloads it started. Runs inside the fleet screen's lifecycle. */
int tui_pair_run(const struct options *o, const struct source_spec *host,
                 const struct source_spec *guest,
                 const struct backend *const *backends, bool utf8, char *err,
                 size_t errlen);

#endif
