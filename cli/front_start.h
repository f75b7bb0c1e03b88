/* The start every front end makes (the screen, --text, --batch): the jobs
 * as the options ask for them, then the session of the sources given,
 * the baselines' columns, the recorded columns (-a) and the recording
 * (--record). Written once here, so that the three cannot start apart. */
#ifndef PARALLAX_FRONT_START_H
#define PARALLAX_FRONT_START_H

#include <stddef.h>

#include "cli/archives.h"
#include "cli/options.h"
#include "session/jobs.h"
#include "session/session.h"

/* The catalogue's jobs with o's repeats and lease. */
void front_jobs_init(struct jobs *j, const struct options *o);

/* Opens the session of o's sources into s, then o's baselines (into j,
 * which front_jobs_init made) and o's archives and recording into a. 0;
 * else the exit status with one line in err: 1 when the session cannot
 * open, 2 for a baseline or an archive that cannot be used (the session
 * then closed again). */
int front_start(struct session *s, struct jobs *j, struct archives *a,
                const struct options *o, char *err, size_t errlen);

#endif
