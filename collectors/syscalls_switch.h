/* Whether system calls are counted (the syscalls/s row), and this host's
 * counter. Off until the user asks (key y, --syscalls): the perf
 * tracepoint behind the count makes every system call on the counted
 * machine slower while it is open (a null system call went from about 260
 * to 470 ns on a 2-vCPU VM), on the host and, through pmdaparallax, in
 * every guest. The host's counter is closed before a host workload starts
 * and stays closed while one runs, so that no figure pays for it; the
 * agent pauses its own the same way. The counter is opened and read by
 * the local sampler thread, closed by whichever thread turns counting off
 * or starts a run, under one lock. */
#ifndef PARALLAX_SYSCALLS_SWITCH_H
#define PARALLAX_SYSCALLS_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Counting wanted (true) or not; off closes this host's counter. */
void syscalls_want(bool on);
bool syscalls_wanted(void);

/* A host workload is about to run or runs (true), or none does (false);
 * true closes this host's counter before it returns. */
void syscalls_host_busy(bool busy);

/* This host's system calls since its counter opened: 0 and *total, or -1
 * when not counting (not wanted, a host run, or the counter cannot open:
 * then once, until counting is asked for again, the reason goes where
 * syscalls_host_failure finds it). Opens the counter when due. */
int syscalls_host_read(uint64_t *total);

/* The newest reason the counter could not open, one line with the fix:
 * its number (0: none yet), the text copied into buf. */
unsigned syscalls_host_failure(char *buf, size_t n);

#endif
