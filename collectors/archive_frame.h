/* An archive's files checked byte by byte before the PCP library reads
 * them (issue 24): libpcp trusts what a file says (a metric's name 5 MB
 * long overflowed a stack buffer in __pmLogLoadMeta), blocks on a FIFO
 * and takes a record cut short for the end of the archive. What this
 * cannot foresee the reader process survives (archive_child.c); this
 * gives the clear message for what it can. */
#ifndef PARALLAX_ARCHIVE_FRAME_H
#define PARALLAX_ARCHIVE_FRAME_H

#include <stddef.h>

/* Checks every file of target (an archive's base name, or a directory of
 * archives: every archive in it, as PCP reads them all): each a regular
 * file, opened without blocking (a FIFO or a device is refused); each
 * volume, the metadata and the temporal index framed (a record is its
 * length, its body, its length again; none cut short), labelled as PCP
 * labels them, the metadata's descriptors and instance domains within
 * their records, and the index's entries in order and at record
 * boundaries of the files they point into. Compressed files (.xz, .gz...)
 * are checked as regular files only. 0, or -1 with one line in err
 * naming the file and what is wrong. */
int archive_frame_check(const char *target, char *err, size_t errlen);

#endif
