/* /proc files read every interval, kept open between readings: a re-read
 * is one pread at offset 0, where opening the path again costs a path
 * walk through /proc, an open, a second read to see the end and a close
 * (7 µs against 2 µs a file here; bench/vmview_cost.sh). A kept file reads
 * the process or thread it was opened on, never another that got its pid
 * since: once that one ends its reads fail (ESRCH), the file is closed and
 * the path opened afresh, which is what an uncached read would have seen.
 * Main thread only. */
#ifndef PARALLAX_PROC_FDS_H
#define PARALLAX_PROC_FDS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define PROC_FDS_MAX  192 /* files kept at most; beyond, read uncached */
#define PROC_FDS_SLOT 256 /* hash slots: a power of two above the most */
#define PROC_FDS_PATH 64

struct proc_fds {
    int n;
    unsigned round; /* the reading it is at, for proc_fds_sweep */
    struct {
        int fd;        /* -1: a free slot */
        unsigned used; /* the round it was last read in */
        char path[PROC_FDS_PATH];
    } slot[PROC_FDS_SLOT];
};

/* Keeps nothing yet. */
void proc_fds_init(struct proc_fds *c);

/* The file at path into buf (up to n-1 bytes, 0-terminated), through its
 * kept descriptor when there is one (opening and keeping it otherwise).
 * Returns the bytes read, or -1 with errno (the file is then not kept). */
ssize_t proc_fds_read(struct proc_fds *c, const char *path, char *buf,
                      size_t n);

/* Ends a reading: closes the files not read since the last sweep (their
 * threads or VMs ended or are no longer watched). */
void proc_fds_sweep(struct proc_fds *c);

/* Closes every file kept. */
void proc_fds_close(struct proc_fds *c);

#endif
