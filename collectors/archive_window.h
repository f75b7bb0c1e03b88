/* The replay window -S, -T and -O give (pmGetOptions(3)): each replayed
 * archive plays only its records from the window's start to its finish,
 * beginning at the origin; relative times ("+30sec", "-1min") count from
 * that archive's own first and last record, as PCP's tools count them. */
#ifndef PARALLAX_ARCHIVE_WINDOW_H
#define PARALLAX_ARCHIVE_WINDOW_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/archive_scan.h"

/* The window for every archive opened from now on (NULL: not given), in
 * this process and the ones it starts (through PARALLAX_REPLAY_START,
 * _FINISH and _ORIGIN in the environment, which a process that never set
 * it reads). Call before any thread starts. */
void archive_window_set(const char *start, const char *finish,
                        const char *origin);

/* True when -S, -T or -O was given. */
bool archive_window_given(void);

/* Checks the syntax of what archive_window_set was given against a span of
 * a day: 0, or -1 with err naming the option and PCP's reason. */
int archive_window_check(char *err, size_t errlen);

/* Cuts ix (of the archive open in PCP context ctx: its label's start and
 * its end, as pmdumplog takes them, are what relative times count from)
 * down to the window's records and sets *first to the position the replay
 * starts at (the first at or after the origin). 0, or -1 with err naming
 * target and the window when no record lies in it. */
int archive_window_apply(int ctx, struct archive_index *ix, const char *target,
                         int *first, char *err, size_t errlen);

#endif
