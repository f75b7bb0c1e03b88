/* Recording a session as PCP archives, written with PCP's own library
 * (libpcp_import): one archive per live source, DIR/SOURCE/STAMP.{0,meta,
 * index}, a record for every sample with the counters, the fetch's
 * timing, the Time rows and the workloads (core/record_table.h). Every
 * record is one unbuffered write, so a recording killed at any moment
 * reads up to its last whole record. Main thread only. */
#ifndef PARALLAX_RECORDER_H
#define PARALLAX_RECORDER_H

#include <stdbool.h>
#include <stddef.h>

#include "session/jobs.h"
#include "session/session.h"

struct recorder;

/* Has libpcp read its configuration and the time zone now, which it
 * exports with setenv on first use (pcp.conf's variables; TZ when the
 * first archive is created): called before any thread starts, so that no
 * thread reads the environment while a recording started later changes
 * it (a sampler thread crashed in getenv, under libfaketime and ASan,
 * when --record's first archive was created). */
void recorder_global_init(void);

/* Starts a recording into dir (created when missing; what it holds is
 * never written over). NULL with one line in err (the directory and
 * what is wrong). */
struct recorder *recorder_start(const char *dir, char *err, size_t errlen);

/* Writes a record for every live source that has a sample not yet
 * recorded, and notes the workloads' starts and ends; call after
 * session_update and jobs_update. 0, or -1 with one line in err (the file
 * and the cause): the recording stops, what it wrote stays readable. */
int recorder_tick(struct recorder *r, const struct session *s,
                  const struct jobs *j, char *err, size_t errlen);

/* Ends every archive and frees r (NULL: nothing). */
void recorder_stop(struct recorder *r);

/* The directory r records into. */
const char *recorder_dir(const struct recorder *r);

/* Records written so far, over every source. */
unsigned long recorder_records(const struct recorder *r);

/* Host monotonic time the recording started. */
double recorder_since(const struct recorder *r);

#endif
