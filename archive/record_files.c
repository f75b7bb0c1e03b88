/* See record_files.h. The sizes come from stat after each record: the
 * files are libpcp_import's (unbuffered: what it wrote is in them). */
#include "archive/record_files.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>
#include <pcp/pmapi.h>

#define FIRST_ROOM (32 * 1024) /* the first record brings the metadata */
#define SPARE_ROOM (8 * 1024)  /* the end mark, the index's last entry */

static off_t size_of(const struct record_files *f, const char *ext, int vol)
{
    char p[RECORD_BASE_MAX + 16];
    struct stat st;
    if (ext)
        snprintf(p, sizeof(p), "%s.%s", f->base, ext);
    else
        snprintf(p, sizeof(p), "%s.%d", f->base, vol);
    return stat(p, &st) == 0 ? st.st_size : -1;
}

void record_files_init(struct record_files *f, const char *base)
{
    snprintf(f->base, sizeof(f->base), "%s", base);
    f->vol = 0;
    f->meta = f->index = f->data = -1;
    f->grew = FIRST_ROOM;
}

int record_files_room(const struct record_files *f, char *err, size_t errlen)
{
    char dir[RECORD_BASE_MAX];
    snprintf(dir, sizeof(dir), "%s", f->base);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = '\0';
    struct statvfs vfs;
    if (statvfs(slash ? dir : ".", &vfs) < 0)
        return 0; /* not known: the write will tell */
    /* root writes into the blocks reserved for it too */
    double blocks = geteuid() == 0 ? (double)vfs.f_bfree : (double)vfs.f_bavail;
    double room = blocks * (double)vfs.f_frsize;
    double need =
        (f->data < 0 ? FIRST_ROOM : 4.0 * (double)f->grew) + SPARE_ROOM;
    if (room >= need)
        return 0;
    snprintf(err, errlen,
             "%s: its file system is full (%.0f KiB left, a record needs "
             "about %.0f)",
             dir, room / 1024, (double)f->grew / 1024);
    return -1;
}

void record_files_whole(struct record_files *f)
{
    while (size_of(f, NULL, f->vol + 1) >= 0)
        f->vol++;
    off_t before = f->meta + f->index + f->data;
    f->meta = size_of(f, "meta", 0);
    f->index = size_of(f, "index", 0);
    f->data = size_of(f, NULL, f->vol);
    /* the first record brought the metadata: its volume's size is what
     * the next ones will take */
    f->grew = before >= 0 ? f->meta + f->index + f->data - before : f->data;
}

/* Cuts file ext (NULL: volume vol) to size; -1: removes it. */
static int cut(const struct record_files *f, const char *ext, int vol,
               off_t size)
{
    char p[RECORD_BASE_MAX + 16];
    if (ext)
        snprintf(p, sizeof(p), "%s.%s", f->base, ext);
    else
        snprintf(p, sizeof(p), "%s.%d", f->base, vol);
    if (size < 0)
        return unlink(p) < 0 && errno != ENOENT ? -1 : 0;
    return truncate(p, size) < 0 && errno != ENOENT ? -1 : 0;
}

int record_files_restore(const struct record_files *f)
{
    int rc = 0;
    bool none = f->data < 0;
    /* a volume libpcp_import began during the failed write */
    for (int v = f->vol + 1; size_of(f, NULL, v) >= 0; v++)
        rc |= cut(f, NULL, v, -1);
    rc |= cut(f, NULL, f->vol, none ? -1 : f->data);
    rc |= cut(f, "meta", 0, none ? -1 : f->meta);
    rc |= cut(f, "index", 0, none ? -1 : f->index);
    return rc ? -1 : 0;
}

void record_files_end(const struct record_files *f)
{
    char p[RECORD_BASE_MAX + 16];
    snprintf(p, sizeof(p), "%s.index", f->base);
    int fd = open(p, O_RDONLY | O_CLOEXEC);
    uint32_t h[2];
    struct stat st;
    if (fd < 0)
        return;
    if (fstat(fd, &st) == 0 && pread(fd, h, sizeof(h), 0) == sizeof(h)) {
        off_t label = (off_t)ntohl(h[0]);
        off_t entry = (ntohl(h[1]) & 0xff) == PM_LOG_VERS02 ? 20 : 32;
        off_t whole = st.st_size - (st.st_size - label) % entry;
        if (st.st_size > label && whole != st.st_size)
            cut(f, "index", 0, whole);
    }
    close(fd);
}
