/* Recordings as sources: backend_archive replays a PCP archive (parallax's
 * own, archive/recorder.c, or pmlogger's) into samples for the same model
 * the live sources feed, at the pace it was recorded, on a replay clock
 * the main loop steers with stores (replay controls below). What the
 * archive lacks stays missing; its clock rows need parallax's recording.
 * An archive is a file from anywhere, and libpcp crashes on some: its
 * files are checked first (archive_frame.h), and it is read in a process
 * of its own (archive_child.c, parallax-archive running
 * backend_archive_reader), whose crash or hang costs only its column.
 *
 * A target is an archive's base name (DIR/STAMP, without .meta) or a
 * directory of one host's archives (PCP reads them as one). */
#ifndef PARALLAX_ARCHIVE_SOURCE_H
#define PARALLAX_ARCHIVE_SOURCE_H

#include <stddef.h>

#include "collectors/backend.h"
#include "core/source_spec.h"

/* The store name the replay controls go to (sampler_store; stores into
 * any other name are ignored, as nothing runs in a recording), with values
 * "pause", "play", "step", "speed X" (0.125 to 64), "next" (the next
 * workload run's start), "run NAME" (the next run of workload NAME, from
 * the first when none is left), "tail N" (N records before the end,
 * paused: for reading the end at once). */
#define ARCHIVE_CONTROL "replay"

/* The columns `arg` (-a [NAME=]PATH) stands for, into out (room for max):
 * a --record directory gives one per source subdirectory ("NAME:host",
 * NAME defaulting to the directory's name), a directory holding archives
 * or an archive one ("NAME"). Returns how many, or -1 with one line in err
 * naming the path and what is wrong. Looks at names only. */
int archive_find(const char *arg, struct source_spec *out, int max, char *err,
                 size_t errlen);

/* Opens target as the backend would and reads it through: 0, or -1 with
 * one line in err naming it and what is wrong (not an archive, corrupt,
 * cut short, none of parallax's metrics, the host's clock jumped, a file
 * that is no regular file, libpcp crashed or hung reading it). */
int archive_check(const char *target, char *err, size_t errlen);

/* The reader itself, in this process: what parallax-archive runs. */
extern const struct backend backend_archive_reader;

#endif
