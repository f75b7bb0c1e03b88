/* What a file is, in words for a one-line message: "a FIFO", "a
 * character device" (an archive, a recording's directory and a report
 * each refuse the kinds they cannot be). */
#ifndef PARALLAX_FILE_KIND_H
#define PARALLAX_FILE_KIND_H

#include <sys/types.h>

/* "a file", "a directory", "a FIFO", "a character device", "a block
 * device", "a socket", "a symbolic link", for st_mode m. */
const char *file_kind(mode_t m);

#endif
