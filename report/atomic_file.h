/* Atomic file writing: readers of a path see the old file or the whole
 * new one, never a part, even if the writer is killed or the disk fills
 * up (htop's Settings.c: temp file, then rename). A file is written
 * without a name first (O_TMPFILE), so a kill leaves nothing behind. */
#ifndef PARALLAX_ATOMIC_FILE_H
#define PARALLAX_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define ATOMIC_PATH_MAX 4096

/* Fills f with the file's content; 0, or -1 with a reason in err. */
typedef int (*atomic_fill)(FILE *f, void *arg, char *err, size_t errlen);

/* A file written and synced in a directory, not yet named there. */
struct atomic_file {
    int fd;                     /* -1: nothing staged */
    char dir[ATOMIC_PATH_MAX];  /* where it lives */
    char tmp[ATOMIC_PATH_MAX];  /* its hidden temp name, "" with O_TMPFILE */
    char what[ATOMIC_PATH_MAX]; /* the file meant, for messages */
};

/* Writes a new file in the directory of `path` through fill, flushed and
 * fsynced, without giving it a name yet (a hidden, locked temp file where
 * the file system lacks O_TMPFILE). Temp files of saves that were killed
 * are removed first. 0, or -1 with one line in err naming path and the
 * cause (nothing is left behind). */
int atomic_file_stage(struct atomic_file *a, const char *path, atomic_fill fill,
                      void *arg, char *err, size_t errlen);

/* Gives the staged file the name path (in the same directory): over an
 * existing file when `replace`, else never (-1 with errno EEXIST, err
 * set, the file still staged for another name). 0, or -1 with one line
 * in err. */
int atomic_file_publish(struct atomic_file *a, const char *path, bool replace,
                        char *err, size_t errlen);

/* Names two staged files (in one directory) path_a, then path_b, as a
 * pair: over existing files when `replace`, else never (-1 with errno
 * EEXIST when either name is taken, and neither given). The names are
 * given by a child process in a session of its own, so a kill of this
 * process or of its group at any moment leaves both names or neither.
 * 0, or -1 with one line in err naming the file and the cause. */
int atomic_file_publish_pair(struct atomic_file *a, const char *path_a,
                             struct atomic_file *b, const char *path_b,
                             bool replace, char *err, size_t errlen);

/* atomic_file_write for a pair: both files written through their fill
 * (with the same arg), then named together over what is there
 * (atomic_file_publish_pair). 0, or -1 with one line in err. */
int atomic_file_write_pair(const char *path_a, atomic_fill fill_a,
                           const char *path_b, atomic_fill fill_b, void *arg,
                           char *err, size_t errlen);

/* Closes a staged file; one that was never published disappears. */
void atomic_file_discard(struct atomic_file *a);

/* Writes `path` through fill atomically (stage, then publish over path).
 * On failure path is untouched and err holds one line naming the file and
 * the cause. 0 or -1. */
int atomic_file_write(const char *path, atomic_fill fill, void *arg, char *err,
                      size_t errlen);

/* 0 when path names nothing yet or a regular file (also through a
 * symbolic link): what the writers here replace. A device, a FIFO, a
 * socket or a directory is never renamed over (as root, -o /dev/null
 * would have replaced /dev/null): -1 with one line in err. The writers
 * check it themselves, just before they write. */
int atomic_file_target_ok(const char *path, char *err, size_t errlen);

/* Whether atomic_file_write could write path: it names nothing yet or a
 * regular file (atomic_file_target_ok), and its directory exists and
 * takes a new file (one is made and dropped, leaving nothing). 0, or -1
 * with one line in err naming path and the cause. */
int atomic_file_check(const char *path, char *err, size_t errlen);

/* For tests: behave as on a file system without O_TMPFILE (named, locked
 * hidden temp files) when on. */
void atomic_file_force_named(bool on);

#endif
