/* Recording and replay for every front end: the recorded columns -a
 * names (session/replay.h) and the recording --record (or the r key) makes
 * (archive/recorder.h), opened, ticked and closed the same way by the
 * screen, --text and --batch. */
#ifndef PARALLAX_ARCHIVES_H
#define PARALLAX_ARCHIVES_H

#include <stdbool.h>
#include <stddef.h>

#include "cli/options.h"
#include "session/jobs.h"
#include "session/replay.h"
#include "session/session.h"

struct archives {
    struct replay replay;
    struct recorder *rec; /* NULL while not recording */
    char dir[2048];       /* where the r key records */
    unsigned replay_seq;  /* the replay's message last passed on */
    char failed[600];     /* why a recording stopped before its end, or "" */
};

/* Adds the recorded columns o->archives name and starts o->record. 0, or
 * -1 with one line in err (a bad archive when no live guest was asked
 * for, a directory that cannot be recorded into): exit 2. */
int archives_open(struct archives *a, struct session *s,
                  const struct options *o, char *err, size_t errlen);

/* After session_update and jobs_update: records what arrived, shows the
 * recorded columns' workloads and lines their runs up. True when there is
 * news for the user in msg (a recording that failed and stopped, what a
 * recording lacks). */
bool archives_tick(struct archives *a, struct session *s, struct jobs *j,
                   char *msg, size_t n);

/* The r key: starts recording into the directory, or stops. */
void archives_toggle_record(struct archives *a, char *status, size_t n);

/* Ends the recording, if any. */
void archives_close(struct archives *a);

/* Why a recording stopped on an error during the run ("recording stopped:
 * ..."), NULL when none did: the front ends then exit 1. */
const char *archives_failed(const struct archives *a);

#endif
