/* What the fork workloads and their forking server (parallax-hello
 * --fork-server, workloads/helper/parallax_hello.c) say to each other
 * over two pipes: a uint64_t count of rounds, then this reply. */
#ifndef PARALLAX_FORK_SERVER_H
#define PARALLAX_FORK_SERVER_H

enum fork_kind { FORK_EXIT, FORK_EXEC, FORK_SHELL };

struct fork_reply {
    int status;  /* 0, or the failing child's wait status, or -1 */
    double user; /* the server's CPU seconds so far, its children's */
    double sys;  /* included */
};

#endif
