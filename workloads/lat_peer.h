/* Placement and peer processes for the lmbench-style latency workloads:
 * the "placement" and "cpu" parameters, pinning, and the echo peer that
 * answers every message, as lmbench's writer processes do. */
#ifndef PARALLAX_LAT_PEER_H
#define PARALLAX_LAT_PEER_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workloads/workload.h"

/* The two parameters every workload with a second process has, in this
 * order; lat_place_init reads them from the index of the first. */
#define LAT_PARAM_PLACEMENT                                                    \
    {                                                                          \
        "placement", "0 any CPU, 1 all on `cpu`, 2 peer on another", 0, 0, 2,  \
            true                                                               \
    }
#define LAT_PARAM_CPU                                                          \
    {                                                                          \
        "cpu", "the measuring process's CPU (placement 1, 2)", 0, 0, 1023,     \
            true                                                               \
    }

struct lat_place {
    int kind;  /* enum wl_placement */
    int cpu;   /* the measuring process's CPU (SAME, SPLIT) */
    int other; /* the peer's CPU (SPLIT) */
};

/* Reads placement and cpu from ctx->param[i] and [i + 1], checks them
 * against the CPUs this process may use (the run's --cpu narrows those),
 * and pins the calling, measuring process. 0, or -1 with a reason on
 * stderr. */
int lat_place_init(struct lat_place *pl, const struct wl_ctx *ctx, int i,
                   const char *who);

/* In a process just forked from the measuring one: moves it to the peer's
 * CPU for SPLIT (SAME and ANY are inherited). 0 or -1. */
int lat_place_peer(const struct lat_place *pl);

/* Forks a peer that dies with us, placed by pl, which closes the n
 * descriptors `close_fds` (our ends), then echoes: reads msize bytes from
 * rd and writes them to wr until either fails. Its pid, or -1. */
pid_t lat_peer_start(const struct lat_place *pl, int rd, int wr, size_t msize,
                     const int *close_fds, int n);

/* Kills the peer *pid (if > 0) as lmbench's cleanup does, reaps it and
 * sets *pid to 0. */
void lat_peer_end(pid_t *pid);

/* n round trips of msize bytes (at most 64): write to wr, read from rd.
 * 0, or -1 with a reason on stderr. */
int lat_roundtrips(int wr, int rd, size_t msize, uint64_t n, const char *who);

/* Closes *fd if it is open and marks it closed (-1). */
void lat_close(int *fd);

#endif
