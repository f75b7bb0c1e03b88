/* --baseline [LABEL=]FILE[:SOURCE]: saved reports (or the end of
 * recordings, report/archive_baseline.h) shown as fixed columns, with
 * their workload figures in the jobs so ratios against them work like a
 * live guest's. SOURCE names which of its sources (default: the first,
 * this host of that run). */
#ifndef PARALLAX_BASELINES_H
#define PARALLAX_BASELINES_H

#include <stddef.h>

#include "session/jobs.h"
#include "session/session.h"

/* Reads each of the n arguments and adds it to s and j. 0, or -1 with a
 * one-line message in err (the file and what is wrong with it). A report
 * from another parallax version is added with a one-line warning on
 * stderr. */
int baselines_open(struct session *s, struct jobs *j, const char *const *args,
                   int n, char *err, size_t errlen);

#endif
