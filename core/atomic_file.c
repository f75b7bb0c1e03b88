/* See atomic_file.h. The temp file is a hidden sibling of the target
 * (".NAME.XXXXXX") so the rename stays within one file system and a
 * directory listing of reports never shows a half-written one. */
#include "core/atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PATH_LEN 4096

/* The directory of path into buf ("." for a bare name). */
static void dir_of(const char *path, char *buf, size_t n)
{
    char copy[PATH_LEN];
    snprintf(copy, sizeof(copy), "%s", path);
    snprintf(buf, n, "%s", dirname(copy));
}

static int temp_for(const char *path, char *tmp, size_t n)
{
    char dir[PATH_LEN], copy[PATH_LEN];
    dir_of(path, dir, sizeof(dir));
    snprintf(copy, sizeof(copy), "%s", path);
    int len = snprintf(tmp, n, "%s/.%s.XXXXXX", dir, basename(copy));
    return len < 0 || (size_t)len >= n ? -1 : 0;
}

/* A failed directory fsync is not reported: the rename is done, and some
 * file systems refuse fsync on directories. */
static void sync_dir(const char *path)
{
    char dir[PATH_LEN];
    dir_of(path, dir, sizeof(dir));
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

static int fill_and_sync(FILE *f, atomic_fill fill, void *arg, const char *path,
                         char *err, size_t errlen)
{
    char why[256] = "";
    if (fill(f, arg, why, sizeof(why)) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, why);
        return -1;
    }
    if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}

int atomic_file_write(const char *path, atomic_fill fill, void *arg, char *err,
                      size_t errlen)
{
    char tmp[PATH_LEN];
    if (temp_for(path, tmp, sizeof(tmp)) < 0) {
        snprintf(err, errlen, "cannot write %s: path too long", path);
        return -1;
    }
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        return -1;
    }
    fchmod(fd, 0644); /* mkostemp makes it 0600; reports are for sharing */
    FILE *f = fdopen(fd, "w");
    if (!f) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        close(fd);
        unlink(tmp);
        return -1;
    }
    int rc = fill_and_sync(f, fill, arg, path, err, errlen);
    errno = 0;
    if (fclose(f) != 0 && rc == 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc == 0 && rename(tmp, path) < 0) {
        snprintf(err, errlen, "cannot write %s: %s", path, strerror(errno));
        rc = -1;
    }
    if (rc < 0) {
        unlink(tmp);
        return -1;
    }
    sync_dir(path);
    return 0;
}
