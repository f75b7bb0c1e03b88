/* A guest run on the host's clock: the repeat log's stamps mapped through
 * the source's time map, each repeat's real length, the figures real time
 * gives, the clock's rate over the run, and the host's own bracket around
 * the run to hold the mapping against. Called by job_fold.c as a guest's
 * samples arrive. */
#ifndef PARALLAX_JOB_TIME_H
#define PARALLAX_JOB_TIME_H

#include "core/model.h"
#include "session/jobs.h"

/* Empties c's real-time figures for a new run (keeps c->stamps' memory). */
void job_time_reset(struct job_cell *c);

/* Folds the repeat log `log` (runner/repeat_log.h) of w's run on the
 * source m into c: maps what stamps it can, then sets c->said over the
 * logged figures and c->stats in real time when every finished repeat is
 * mapped (else the source's word: c->real false). run[0] and run[1] are
 * the run's start and end by the source's clock (NaN: not known yet),
 * which give c->run_real_s. */
void job_time_fold(struct job_cell *c, const struct workload *w,
                   const struct source_model *m, const char *log,
                   const double run[2]);

/* Checks c's mapped repeats against the host's bracket of the run (from
 * the start store to the fetch that showed it ended): sets c->bracket_ok. */
void job_time_check(struct job_cell *c);

#endif
