/* Private temporary directories for runs: created and locked by the parent,
 * removed by it after the run. A parent killed with SIGKILL cannot remove
 * its directory: the run's keeper (tmpdir_keep) does, once the run's
 * processes are gone, and every creation first sweeps directories whose
 * owner is gone (their lock is free). */
#ifndef PARALLAX_TMPDIR_H
#define PARALLAX_TMPDIR_H

#include <stddef.h>

/* The prefix of every run directory under $TMPDIR (or /tmp). */
#define TMPDIR_PREFIX "parallax-wl."

struct tmpdir {
    char path[4096];
    int lock_fd; /* the directory itself, flock'ed while the run lives */
};

/* Sweeps stale run directories, then creates, locks and fills in a fresh
 * one. 0, or -1 with a message in err. */
int tmpdir_create(struct tmpdir *t, char *err, size_t errlen);

/* Removes the directory and everything below it, then drops the lock. */
void tmpdir_remove(struct tmpdir *t);

/* Removes run directories under $TMPDIR whose owner has died. Returns how
 * many were removed. */
int tmpdir_sweep(void);

/* In a run's child: forks a keeper, in a session of its own, that waits
 * until the caller and every process it forks from now on have ended (each
 * holds a close-on-exec pipe end this leaves open) and the owner's lock is
 * free, then removes path if it is still there: a run whose parent was
 * killed (SIGKILL, a fault) leaves no directory behind, and one whose
 * parent lives keeps it until the parent removes it. 0, or -1 when nothing
 * could be forked. */
int tmpdir_keep(const char *path);

#endif
