/* The repeat log: a run's repeats one line each, "START END WALL FIGURE
 * PLACEMENT" (START and END the measured span by CLOCK_REALTIME, seconds
 * since the epoch), "START - - - -" for the repeat being measured. The
 * agent writes it (parallax.workload.repeat_log), a host reads it back and
 * maps the stamps onto its own clock. No PCP here. */
#ifndef PARALLAX_REPEAT_LOG_H
#define PARALLAX_REPEAT_LOG_H

#include <stdbool.h>
#include <stddef.h>

#include "runner/runner.h"

#define REPEAT_LOG_LINE 80 /* the longest line, with its newline */

/* One line of the log. */
struct repeat_entry {
    double t_start, t_end; /* t_end NaN: the repeat is being measured */
    double wall, figure;   /* NaN while measured */
    int placement;         /* enum wl_placement, -1 when not given */
};

/* Writes r's log into buf (n bytes; lines that do not fit are left out):
 * its finished repeats, then the one being measured, if any. */
void repeat_log_format(const struct wl_run *r, char *buf, size_t n);

/* Reads up to max lines of text into out; returns how many. Stops at the
 * first line that is not one (an agent's future fields after the known
 * ones are allowed). */
int repeat_log_parse(const char *text, struct repeat_entry *out, int max);

#endif
