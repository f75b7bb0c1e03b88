/* See file_kind.h. */
#include "base/file_kind.h"

#include <sys/stat.h>

const char *file_kind(mode_t m)
{
    return S_ISREG(m)    ? "a file"
           : S_ISDIR(m)  ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
           : S_ISLNK(m)  ? "a symbolic link"
                         : "no file of a kind parallax knows";
}
