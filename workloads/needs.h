/* What a run takes from its machine besides CPU: room in its directory's
 * file system and memory. A workload that writes files says how much for
 * its parameters (struct workload's `needs`); the runner checks it against
 * what is free before it forks, keeping a reserve for everything else, so
 * that a run cannot fill a guest's tmpfs and have the OOM killer take pmcd
 * and the agent (issue 16: disk size_mb=1048576 did). Runs started at the
 * same time are each checked against what is free then. */
#ifndef PARALLAX_NEEDS_H
#define PARALLAX_NEEDS_H

#include <stddef.h>

struct workload;

struct wl_needs {
    double disk_bytes;       /* written into the run directory, at most */
    double files;            /* files created there, at most */
    const char *param;       /* the parameter that sets disk_bytes */
    const char *files_param; /* and the one that sets files, or NULL */
};

/* 0 when a run of w with `param` fits what the file system of dir (the
 * run's directory) and memory have free (the memory too when dir is in
 * memory: tmpfs, ramfs); else -1 with err saying what it needs, what is
 * free and which parameter to lower. */
int wl_needs_check(const struct workload *w, const double *param,
                   const char *dir, char *err, size_t errlen);

#endif
