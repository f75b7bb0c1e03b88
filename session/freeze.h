/* A frozen copy of what the screen shows, for the pause key: the models
 * and the workload cells at one moment, while the live session and jobs
 * go on sampling and running underneath. */
#ifndef PARALLAX_FREEZE_H
#define PARALLAX_FREEZE_H

#include <stdbool.h>

#include "session/jobs.h"
#include "session/session.h"

struct freeze {
    struct session *s; /* NULL while not frozen */
    struct jobs *j;
    double at; /* host monotonic time of the copy */
};

/* Copies s's models and j's cells. The copies are only for drawing: no
 * sampler, no run (run pointers only say whether one was live). 0, or -1
 * when out of memory (then nothing is frozen). */
int freeze_take(struct freeze *f, const struct session *s,
                const struct jobs *j);

/* True while f holds a copy. */
bool freeze_active(const struct freeze *f);

/* Frees the copy. */
void freeze_release(struct freeze *f);

#endif
