/* Atomic file writing: readers of a path see the old file or the whole
 * new one, never a part, even if the writer is killed or the disk fills
 * up (htop's Settings.c: temp file, then rename). */
#ifndef PARALLAX_ATOMIC_FILE_H
#define PARALLAX_ATOMIC_FILE_H

#include <stddef.h>
#include <stdio.h>

/* Fills f with the file's content; 0, or -1 with a reason in err. */
typedef int (*atomic_fill)(FILE *f, void *arg, char *err, size_t errlen);

/* Writes `path` through fill into a temp file in the same directory,
 * flushes and fsyncs it, renames it over path and fsyncs the directory.
 * On failure the temp file is removed, path is untouched, and err holds
 * one line naming the file and the cause. 0 or -1. */
int atomic_file_write(const char *path, atomic_fill fill, void *arg, char *err,
                      size_t errlen);

#endif
