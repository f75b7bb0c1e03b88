/* The runner: runs one workload in a child process (own process group,
 * dies with its parent, stdio on /dev/null, private temp directory) and
 * lets the parent read its live progress and results without blocking.
 * No global state: a TUI or the PMDA may keep many runs live at once.
 *
 * Typical use from a main loop:
 *   r = wl_run_start(w, param, &opt, err, sizeof err);
 *   every tick: wl_run_poll(r); wl_run_status(r, &st); draw st;
 *   on a key: wl_run_stop(r);   -- keep polling until it is final
 *   when final: read wl_run_result(r, i); wl_run_free(r);
 * A CLI calls wl_run_wait instead of polling.
 *
 * A run belongs to the thread that started it (no locking inside).
 * The caller must not reap children it did not start (no waitpid(-1), no
 * SIGCHLD set to SIG_IGN), and must start a run from a thread that
 * outlives it: PR_SET_PDEATHSIG fires when the forking thread ends.
 * CPU times are those of the workload process plus its reaped children
 * (RUSAGE_SELF + RUSAGE_CHILDREN), so forking workloads pay for their
 * helpers. */
#ifndef PARALLAX_RUNNER_H
#define PARALLAX_RUNNER_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "workloads/workload.h"

#define WL_RUN_MAX_REPEATS 1000
/* A stop escalates to SIGTERM, then SIGKILL, after this many ms each. */
#define WL_RUN_STOP_GRACE_MS 100

struct wl_run_opts {
    double duration; /* seconds measured per repeat (when count is 0) */
    uint64_t count;  /* > 0: measure exactly this many operations instead */
    double warmup;   /* unmeasured seconds before the first repeat (step
                        workloads; composites warm up themselves) */
    int repeats;     /* results wanted, 1..WL_RUN_MAX_REPEATS */
    int cpu;         /* pin the run (and its helpers) to this CPU; -1: any */
};

enum wl_run_state {
    WL_RUN_RUNNING,
    WL_RUN_STOPPING, /* stop asked for, the child not reaped yet */
    WL_RUN_DONE,     /* every repeat gave a result */
    WL_RUN_STOPPED,  /* ended by wl_run_stop; complete repeats are kept */
    WL_RUN_FAILED,   /* failed or crashed: see wl_run_error */
};

/* A snapshot of a run, for display. Counters are those of the repeat in
 * progress (or of the last one once the run has ended). */
struct wl_run_status {
    enum wl_run_state state;
    enum wl_phase phase;
    int repeat;   /* 0-based index of the repeat in progress */
    int nresults; /* repeats finished */
    uint64_t ops;
    double wall, user, sys;
    double figure;  /* live figure from ops and wall; NaN before any op */
    double t_start; /* CLOCK_REALTIME where the measuring repeat began
                       (wl_result.t_start); NaN in warm-up or before */
    struct wl_lanes lanes; /* its tasks side by side, when it has any */
};

struct wl_run;

/* Defaults: 1 s per repeat, no count, 0.1 s warm-up, 1 repeat, any CPU. */
void wl_run_opts_default(struct wl_run_opts *opt);

/* Starts w with its parameter values `param` (NULL: the defaults) in a new
 * child process. Returns the run, or NULL with a message in err. */
struct wl_run *wl_run_start(const struct workload *w, const double *param,
                            const struct wl_run_opts *opt, char *err,
                            size_t errlen);

/* Never blocks: reaps the child if it has ended (removing its directory),
 * escalates a pending stop, and returns the state. */
enum wl_run_state wl_run_poll(struct wl_run *r);

/* Asks the run to end: the workload sees progress->stop at once; if it has
 * not exited WL_RUN_STOP_GRACE_MS later its group gets SIGTERM, then
 * SIGKILL (escalation happens in wl_run_poll and wl_run_wait). */
void wl_run_stop(struct wl_run *r);

/* Blocks until the run has ended and returns its final state. When
 * *cancel (a flag a signal handler sets; may be NULL) becomes non-zero,
 * stops the run first. */
enum wl_run_state wl_run_wait(struct wl_run *r,
                              const volatile sig_atomic_t *cancel);

/* A descriptor that becomes readable when the child exits (a pidfd), for
 * poll() loops, or -1 where the kernel has none: then poll on a timer. */
int wl_run_fd(const struct wl_run *r);

/* Fills st with the current state and progress. */
void wl_run_status(const struct wl_run *r, struct wl_run_status *st);

/* How many repeats have a result so far. */
int wl_run_nresults(const struct wl_run *r);

/* The result of repeat i (0 <= i < wl_run_nresults). */
const struct wl_result *wl_run_result(const struct wl_run *r, int i);

/* Why the run failed (one line), or "" when it did not. */
const char *wl_run_error(const struct wl_run *r);

/* The workload, parameter values and options the run was started with. */
const struct workload *wl_run_workload(const struct wl_run *r);
const double *wl_run_params(const struct wl_run *r);
const struct wl_run_opts *wl_run_options(const struct wl_run *r);

/* The child's pid, which is also the run's process group id. */
pid_t wl_run_pid(const struct wl_run *r);

/* True once the state is DONE, STOPPED or FAILED. */
bool wl_run_state_final(enum wl_run_state s);

/* "running", "stopping", "done", "stopped" or "failed". */
const char *wl_run_state_name(enum wl_run_state s);

/* Ends the run if it is live (wl_run_stop + wait), removes its directory
 * and frees it. NULL is allowed. */
void wl_run_free(struct wl_run *r);

#endif
