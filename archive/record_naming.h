/* Where a recording's archives go: DIR/SOURCE/STAMP.{0,meta,index}, the
 * source's name made one path component, and a name no recording took
 * yet (what a directory holds is never written over). */
#ifndef PARALLAX_RECORD_NAMING_H
#define PARALLAX_RECORD_NAMING_H

#include <stddef.h>

#define RECORD_PATH_MAX 4096

/* The source's name as one path component: letters, digits, '.', '-' and
 * '_' kept, anything else '_'; "source" for an empty name, "." or "..". */
void record_safe_name(const char *name, char *out, size_t n);

/* dir/SAFE/STAMP into base (n bytes), or STAMP-N when a recording already
 * took that name. 0, or -1 with one line in err. */
int record_choose_base(const char *dir, const char *safe, const char *stamp,
                       char *base, size_t n, char *err, size_t errlen);

/* dir/SAFE, made at a source's first record (a source that is never live
 * leaves none). 0, or -1 with one line in err. */
int record_make_source_dir(const char *dir, const char *safe, char *err,
                           size_t errlen);

#endif
