/* Placement and echo peers for the latency workloads. Pinning follows
 * lmbench's LMBENCH_SCHED: SINGLE (all on one CPU) is our SAME, UNIQUE
 * (the peer on the next CPU) our SPLIT, DEFAULT (no pinning) our ANY. */
#include "workloads/lat_peer.h"

#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "workloads/proc.h"

#define LAT_MSG_MAX 64

static int pin(int cpu)
{
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    return sched_setaffinity(0, sizeof set, &set);
}

/* The first CPU after `cpu`, cyclically, that `allowed` holds; -1 if
 * none. */
static int next_cpu(const cpu_set_t *allowed, int cpu)
{
    for (int k = 1; k < CPU_SETSIZE; k++) {
        int c = (cpu + k) % CPU_SETSIZE;
        if (CPU_ISSET(c, allowed))
            return c;
    }
    return -1;
}

int lat_place_init(struct lat_place *pl, const struct wl_ctx *ctx, int i,
                   const char *who)
{
    *pl = (struct lat_place){
        .kind = (int)ctx->param[i], .cpu = (int)ctx->param[i + 1], .other = -1};
    if (pl->kind == WL_PLACE_ANY)
        return 0;
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0) {
        fprintf(stderr, "%s: sched_getaffinity: %s\n", who, strerror(errno));
        return -1;
    }
    if (pl->cpu >= CPU_SETSIZE || !CPU_ISSET(pl->cpu, &allowed)) {
        fprintf(stderr, "%s: cpu=%d is not a CPU this run may use\n", who,
                pl->cpu);
        return -1;
    }
    if (pl->kind == WL_PLACE_SPLIT) {
        pl->other = next_cpu(&allowed, pl->cpu);
        if (pl->other < 0) {
            fprintf(stderr,
                    "%s: placement=2 needs a second CPU; this run may use "
                    "cpu %d only\n",
                    who, pl->cpu);
            return -1;
        }
    }
    if (pin(pl->cpu) < 0) {
        fprintf(stderr, "%s: cannot pin to cpu %d: %s\n", who, pl->cpu,
                strerror(errno));
        return -1;
    }
    return 0;
}

int lat_place_peer(const struct lat_place *pl)
{
    return pl->kind == WL_PLACE_SPLIT ? pin(pl->other) : 0;
}

pid_t lat_peer_start(const struct lat_place *pl, int rd, int wr, size_t msize,
                     const int *close_fds, int n)
{
    if (msize == 0 || msize > LAT_MSG_MAX) {
        errno = EINVAL;
        return -1;
    }
    pid_t pid = wl_fork();
    if (pid != 0)
        return pid;
    /* our ends closed, a dead measuring process reads as end of file */
    for (int k = 0; k < n; k++)
        close(close_fds[k]);
    if (lat_place_peer(pl) < 0)
        _exit(1);
    char buf[LAT_MSG_MAX];
    while (read(rd, buf, msize) == (ssize_t)msize &&
           write(wr, buf, msize) == (ssize_t)msize)
        ;
    _exit(0);
}

void lat_peer_end(pid_t *pid)
{
    if (*pid <= 0)
        return;
    kill(*pid, SIGKILL);
    while (waitpid(*pid, NULL, 0) < 0 && errno == EINTR)
        ;
    *pid = 0;
}

int lat_roundtrips(int wr, int rd, size_t msize, uint64_t n, const char *who)
{
    char buf[LAT_MSG_MAX] = {0};
    if (msize == 0 || msize > LAT_MSG_MAX)
        return -1;
    while (n-- > 0) {
        if (write(wr, buf, msize) != (ssize_t)msize) {
            fprintf(stderr, "%s: write: %s\n", who, strerror(errno));
            return -1;
        }
        ssize_t got = read(rd, buf, msize);
        if (got != (ssize_t)msize) {
            fprintf(stderr, "%s: read: %s\n", who,
                    got == 0 ? "the peer has gone" : strerror(errno));
            return -1;
        }
    }
    return 0;
}

void lat_close(int *fd)
{
    if (*fd >= 0)
        close(*fd);
    *fd = -1;
}
