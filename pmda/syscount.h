/* The agent's system-wide system call counter: collectors/perf_syscalls,
 * opened on demand by a small helper process that keeps root while the
 * agent itself runs as an unprivileged user, and closed again when nobody
 * has read it for a while and (by default) while workloads run, because
 * every system call on the machine is slower while the tracepoint is on.
 * A counter reopened starts again from 0: readers see a reset, not a
 * made-up rate. No PCP here. */
#ifndef PARALLAX_PMDA_SYSCOUNT_H
#define PARALLAX_PMDA_SYSCOUNT_H

#include <stdbool.h>
#include <stdint.h>

#define SYSCOUNT_RETRY_S 10.0 /* after a failed open, try again this late */

enum syscount_mode {
    SYSCOUNT_AUTO,   /* count while read, pause while workloads run */
    SYSCOUNT_ALWAYS, /* count while read, runs or not */
};

struct syscount;

/* Forks the helper (call while still privileged). The counter closes when
 * idle_s pass without a read. NULL when out of memory. */
struct syscount *syscount_new(enum syscount_mode mode, double idle_s);

/* System calls since the counter was opened, opening it first if needed.
 * 0, or a negative errno: -EAGAIN while paused for runs, otherwise why it
 * cannot be opened (-EACCES, -ENOENT, ...). */
int syscount_read(struct syscount *sc, bool runs_live, uint64_t *total);

/* Closes the counter when it has not been read for idle_s, or when runs
 * are live in auto mode. Returns ms until the next tick is due, or -1. */
int syscount_tick(struct syscount *sc, bool runs_live);

/* One line for parallax.syscalls.status: counting, closed, paused, or
 * unavailable with the reason and the fix. */
const char *syscount_status(struct syscount *sc, bool runs_live);

/* Closes the counter and ends the helper. NULL is allowed. */
void syscount_free(struct syscount *sc);

#endif
