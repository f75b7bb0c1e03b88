/* What the fork workloads and their forking server (parallax-hello
 * --fork-server, workloads/helper/parallax_hello.c) say to each other
 * over two pipes: a uint64_t count of rounds, then this reply. */
#ifndef PARALLAX_FORK_SERVER_H
#define PARALLAX_FORK_SERVER_H

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

enum fork_kind { FORK_EXIT, FORK_EXEC, FORK_SHELL };

/* The environment variable in which the server's children find their CPU
 * (set by the server from its CPU argument). */
#define FORK_CPU_ENV "PARALLAX_FORK_CPU"

struct fork_reply {
    int status;  /* 0, or the failing child's wait status, or -1 */
    double user; /* the server's CPU seconds so far, its children's */
    double sys;  /* included */
};

/* Reads exactly len bytes (a count, a reply) from fd: 0, or -1 at end of
 * file or on error. Here because the server is a program of its own,
 * built without libparallax. */
static inline int fork_read_full(int fd, void *buf, size_t len)
{
    for (size_t got = 0; got < len;) {
        ssize_t r = read(fd, (char *)buf + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

#endif
