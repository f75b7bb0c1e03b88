/* A system-wide system call counter: the perf tracepoint
 * raw_syscalls:sys_enter in counting mode, one event per online CPU, summed.
 * Shared by the host collector and pmdaparallax, so both count the same way.
 * No PCP here: callers map the negative errno to their own error codes.
 *
 * Cost: while open, every system call on the machine passes the tracepoint
 * (the kernel's syscall slow path), a few tens of ns each. */
#ifndef PARALLAX_PERF_SYSCALLS_H
#define PARALLAX_PERF_SYSCALLS_H

#include <stddef.h>
#include <stdint.h>

struct perf_syscalls {
    int *fd; /* one counting event per CPU online at open time */
    int nfd;
};

/* Opens the counters. 0, or a negative errno (-EACCES, -ENOENT, ...) with
 * a one-line message naming the cause and the fix in err. Needs root (or
 * CAP_PERFMON and read access to tracefs); when tracefs is not mounted and
 * we are root, mounts it at /sys/kernel/tracing as perf(1) does. */
int perf_syscalls_open(struct perf_syscalls *ps, char *err, size_t errlen);

/* Sums the counters: system calls entered since open. 0, or a negative
 * errno. CPUs brought online after open are not counted. */
int perf_syscalls_read(struct perf_syscalls *ps, uint64_t *total);

/* Closes every counter; safe on a zeroed or already closed struct. */
void perf_syscalls_close(struct perf_syscalls *ps);

#endif
