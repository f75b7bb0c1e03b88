/* Clock probes, in a short-lived child process so the caller (pmdaparallax
 * in a guest, or parallax on the host) never stops answering: how far a
 * short sleep overshoots, and how much CPU time a CPU-bound spin is billed
 * against the wall time it took. Both by the prober's own clocks; the host
 * compares. The same code on both sides. No PCP here.
 *
 * Cost of one probe: PROBE_SLEEP_S asleep, then PROBE_SPIN_S of one CPU. */
#ifndef PARALLAX_CLOCK_PROBE_H
#define PARALLAX_CLOCK_PROBE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define PROBE_SLEEP_S   0.010 /* the short sleep */
#define PROBE_SPIN_S    0.050 /* wall time of the CPU-bound spin */
#define PROBE_TIMEOUT_S 5.0   /* a probe child gone quiet this long is killed */

/* What one probe measured, in seconds. */
struct probe_result {
    double sleep_req, sleep_took; /* CLOCK_MONOTONIC around the sleep */
    double sleep_t0, sleep_t1;    /* CLOCK_REALTIME around it (epoch s) */
    double spin_wall, spin_cpu;   /* monotonic wall, and process CPU time */
    /* runnable but not running (schedstat) between the wall's two stamps,
     * which the CPU time's lie within; NaN: unknown */
    double spin_waited;
};

/* A probe in flight and the last result. Zero-initialise, then set fd to
 * -1 (PROBE_INIT does both). */
struct probe {
    pid_t pid;      /* the child while one runs, else 0 */
    int fd;         /* read end of its pipe, or -1 */
    double started; /* monotonic seconds */
    uint64_t count; /* probes completed */
    struct probe_result last;
};
#define PROBE_INIT                                                             \
    {                                                                          \
        .fd = -1                                                               \
    }

/* Starts a probe unless one is running. 0, or -1 with the reason. */
int probe_start(struct probe *p, char *err, size_t errlen);

/* Call when p->fd is readable, or to check the timeout: reads the result
 * and reaps the child. 1 with a new result, 0 still running, -1 failed
 * (reason in err). */
int probe_collect(struct probe *p, char *err, size_t errlen);

/* Kills and reaps a running probe. */
void probe_cancel(struct probe *p);

#endif
