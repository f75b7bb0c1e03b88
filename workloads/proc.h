/* Process hygiene for workload processes: the runner's child and any
 * process a workload forks must die with their parent and start clean. */
#ifndef PARALLAX_PROC_H
#define PARALLAX_PROC_H

#include <sys/types.h>

/* Asks for SIGKILL when the parent dies; exits at once if `parent` is
 * already gone (the race prctl alone leaves open). Call in the child. */
void proc_die_with_parent(pid_t parent);

/* Points stdin, stdout and stderr at /dev/null: a workload process never
 * writes onto its caller's terminal. */
void proc_stdio_null(void);

/* Sets every signal to its default action and unblocks all of them. */
void proc_reset_signals(void);

/* fork() for workloads: the child dies with the forking process (so no
 * helper outlives a killed run) and stays in the run's process group.
 * Returns what fork() returns. */
pid_t wl_fork(void);

#endif
