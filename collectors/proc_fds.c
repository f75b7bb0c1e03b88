/* See proc_fds.h. */
#include "collectors/proc_fds.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

void proc_fds_init(struct proc_fds *c)
{
    c->n = 0;
    c->round = 1;
    for (int i = 0; i < PROC_FDS_SLOT; i++)
        c->slot[i].fd = -1;
}

/* FNV-1a of the path: the slot its probe starts at */
static unsigned hash(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h & (PROC_FDS_SLOT - 1);
}

/* The slot holding path, or else the free slot it would go to. */
static int find(const struct proc_fds *c, const char *path)
{
    unsigned i = hash(path);
    while (c->slot[i].fd >= 0 && strcmp(c->slot[i].path, path) != 0)
        i = (i + 1) & (PROC_FDS_SLOT - 1);
    return (int)i;
}

/* Reads fd from offset 0 into buf, up to n-1 bytes: a /proc file shorter
 * than the buffer comes whole in one read. */
static ssize_t read_all(int fd, char *buf, size_t n)
{
    ssize_t got = 0, r = 0;
    while ((size_t)got < n - 1 &&
           (r = pread(fd, buf + got, n - 1 - (size_t)got, got)) > 0) {
        got += r;
        if (got < (ssize_t)(n - 1) && got < 4096)
            break; /* short of a page and of the buffer: the end */
    }
    if (got == 0 && r < 0)
        return -1;
    buf[got] = '\0';
    return got;
}

/* Removes slot i, moving the probe chain after it up (linear probing
 * leaves no hole a later find would stop at). */
static void drop(struct proc_fds *c, int i)
{
    close(c->slot[i].fd);
    c->slot[i].fd = -1;
    c->n--;
    unsigned j = (unsigned)i;
    for (;;) {
        j = (j + 1) & (PROC_FDS_SLOT - 1);
        if (c->slot[j].fd < 0)
            return;
        unsigned home = hash(c->slot[j].path);
        /* can slot j's entry move to the hole at i? yes unless its home
         * lies cyclically in (i, j] */
        bool stays = ((unsigned)i <= j) ? (home > (unsigned)i && home <= j)
                                        : (home > (unsigned)i || home <= j);
        if (!stays) {
            c->slot[i] = c->slot[j];
            c->slot[j].fd = -1;
            i = (int)j;
        }
    }
}

ssize_t proc_fds_read(struct proc_fds *c, const char *path, char *buf, size_t n)
{
    size_t len = strlen(path);
    int i = len < PROC_FDS_PATH ? find(c, path) : -1;
    if (i >= 0 && c->slot[i].fd >= 0) {
        ssize_t got = read_all(c->slot[i].fd, buf, n);
        if (got >= 0) {
            c->slot[i].used = c->round;
            return got;
        }
        drop(c, i); /* its process or thread ended: the path afresh */
        i = find(c, path);
    }
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    ssize_t got = read_all(fd, buf, n);
    int e = errno;
    if (got < 0 || i < 0 || c->n >= PROC_FDS_MAX) {
        close(fd);
        errno = e;
        return got;
    }
    c->slot[i].fd = fd;
    c->slot[i].used = c->round;
    memcpy(c->slot[i].path, path, len + 1);
    c->n++;
    return got;
}

void proc_fds_sweep(struct proc_fds *c)
{
    for (int i = 0; i < PROC_FDS_SLOT; i++)
        while (c->slot[i].fd >= 0 && c->slot[i].used != c->round)
            drop(c, i); /* another entry may move into i: look again */
    c->round++;
}

void proc_fds_close(struct proc_fds *c)
{
    for (int i = 0; i < PROC_FDS_SLOT; i++)
        if (c->slot[i].fd >= 0)
            close(c->slot[i].fd);
    proc_fds_init(c);
}
