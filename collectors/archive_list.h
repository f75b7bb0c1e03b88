/* -a's comma-separated lists (pmGetOptions(3)): "a,b,c" names archives of
 * one source that PCP reads as one context (PM_CONTEXT_ARCHIVE takes the
 * list, as it takes a directory), so a list is one column, like the
 * directory that holds its archives. */
#ifndef PARALLAX_ARCHIVE_LIST_H
#define PARALLAX_ARCHIVE_LIST_H

#include <stdbool.h>
#include <stddef.h>

#include "core/source_spec.h"

/* True when path (after any NAME=) is a list. */
bool archive_list_is(const char *path);

/* The one column a list [NAME=]A,B,... stands for: each member resolved as
 * -a resolves an archive (its base name or any of its files), the target
 * their base names joined by commas, NAME defaulting to the first's. 1, or
 * -1 with one line in err naming the member and what is wrong. */
int archive_list_find(const char *arg, struct source_spec *out, int max,
                      char *err, size_t errlen);

/* archive_frame_check for each member of target (a list or not): what
 * the reader's process is given is checked member by member first. */
int archive_list_frame_check(const char *target, char *err, size_t errlen);

#endif
