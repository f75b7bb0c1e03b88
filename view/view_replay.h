/* What the screen and --text say of recorded columns (-a): each one's
 * state under its name, and the title's line: which columns are
 * recorded and at what recorded time. */
#ifndef PARALLAX_VIEW_REPLAY_H
#define PARALLAX_VIEW_REPLAY_H

#include <stddef.h>

#include "core/model.h"

/* A recorded column's state: "rec 14:02:11", "rec x4 14:02:11", "paused
 * 14:02:11", "ended 14:05:00" (the recorded time shown). */
void view_replay_state(const struct source_model *m, char *buf, size_t n);

/* "recorded kernel-6.1:host, kernel-6.1:vm1 at 2026-12-01 14:02:11, x2"
 * (the first recorded column's time), or "" when none is recorded. */
void view_replay_title(const struct source_model *srcs, int nsrc, char *buf,
                       size_t n);

#endif
