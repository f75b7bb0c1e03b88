/* Jobs: the catalogue's workloads across the sources — which run where,
 * their live figures and the statistics of their repeats — for the
 * workloads rows of the screen and the reports. On this host a job runs
 * through the local runner, the same code pmdaparallax runs in guests.
 * One header for its four parts, as its callers use them together:
 * session/job_cells.c (the cell table), job_start.c (start, stop,
 * suites), job_fold.c (what the runs report, foreign runs, jobs_update),
 * job_leases.c (a guest's leases). */
#ifndef PARALLAX_JOBS_H
#define PARALLAX_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include <stdint.h>

#include "core/time_map.h"
#include "core/vm_model.h"
#include "runner/repeat_log.h"
#include "runner/runner.h"
#include "session/session.h"
#include "workloads/stats.h"

#define JOBS_MAX_WL      64
#define JOBS_MAX_REPEATS 100 /* of a guest's run: pmdaparallax's cap */

enum job_state {
    JOB_IDLE,     /* never run here */
    JOB_RUNNING,  /* a run is live */
    JOB_STOPPING, /* stop asked for, not yet ended */
    JOB_DONE,     /* the last run gave every repeat */
    JOB_STOPPED,  /* the last run was stopped; finished repeats are kept */
    JOB_FAILED,   /* the last run failed: see note */
};

/* A guest run's repeats as its log gives them, and their stamps on the
 * host's clock once mapped (session/job_time.c); host NaN: not yet. */
struct job_stamps {
    int n; /* log lines kept */
    struct repeat_entry rep[JOBS_MAX_REPEATS + 1];
    struct time_at start[JOBS_MAX_REPEATS + 1], end[JOBS_MAX_REPEATS + 1];
    double run[2];            /* the run's start and end by the source */
    struct time_at run_at[2]; /* ... on the host's clock */
};

/* One workload on one source. */
struct job_cell {
    enum job_state state;
    unsigned store_id;     /* a guest: the start or stop store not yet done */
    unsigned runs_base;    /* a guest: its run count before our start */
    double live;           /* figure of the repeat in progress, NaN */
    int repeat, repeats;   /* progress through the repeats */
    struct wl_stats stats; /* over the finished repeats of the last run, in
                              real time (see `real`) */
    int placement;         /* enum wl_placement of the last result, -1 */
    int cpu;               /* the CPU the run was pinned to, -1: any */
    bool foreign;          /* a guest's run this parallax did not start (left
                              by a parallax that was killed, or another's):
                              shown, and stopped by x, never by quitting */
    bool leased;           /* a guest's run started with a lease: renewed
                              while it runs (session/lease.h) */
    char note[256];        /* why it failed */
    struct wl_lanes lanes; /* its tasks side by side, live (sched's jN) */
    /* Real time. A guest's figures are timed by its own clock; each
     * repeat's span, mapped onto the host's clock, gives its real length
     * and so the figure real time gives. */
    bool real;             /* stats are on the host's clock (this host's
                              runs; a guest's once every repeat is mapped);
                              false: the source's word only (an agent
                              without repeat logs, a stamp lost) */
    bool mapping;          /* a stamp waits for the fetch after it */
    bool ticks;            /* its source's clock is ticked while it runs
                              (decided at the start: a clock that varies) */
    struct wl_stats said;  /* the same repeats by the source's own clock */
    double rate, rate_err; /* the source's seconds per real second over the
                              measured repeats (1 on this host); NaN */
    double real_s, said_s; /* the measured repeats' length: real, and by
                              the source's clock */
    double run_real_s;     /* the whole run (start to end, its set-up and
                              the gaps between repeats too), real; NaN */
    /* The host's own view of the run, independent of any stamp: started
     * by the store made between store_t[0] and store_t[1] (host
     * monotonic), ended after the fetch begun at ran_t (the last that
     * showed it running) and before the one that ended at done_t. */
    double store_t[2], ran_t, done_t;
    /* A guest: its agent has shown this run (its run count moved past
     * runs_base); its samples (model updates) when the agent took our
     * start, 0 before. An agent that restarted shows neither
     * (session/job_fold.c). */
    bool shown;
    unsigned long acked_at;
    bool bracket_ok;  /* the mapped repeats lie inside that bracket */
    uint64_t overlap; /* sources (bit per index) that ran a workload while
                         this one ran here */
    struct job_stamps *stamps; /* a guest's, from its first start */
    /* A guest joined to its VM here: the vCPUs' run time at the reading
     * before the start's store and at the one after done_t, and the CPU
     * the guest billed the run (session/job_vcpu.c); has[] false: not
     * marked (yet) */
    struct vm_mark vm_at[2];
    bool vm_has[2];
    double billed_s;
    /* The last finished repeat's extra figures (sched's fairness table,
     * sleep's overshoots; a guest's come through pmdaparallax), and on this
     * host the rest of that result too; nextra 0 if none. */
    struct wl_result last;
};

struct jobs {
    int nwl;
    const struct workload *wl[JOBS_MAX_WL];
    struct wl_run_opts opts; /* how every run is made */
    double lease; /* real s a guest's run outlives the last renewal of it
                     (--lease, session/lease.h) */
    bool told_no_lease[SESSION_MAX_SOURCES];     /* an agent without leases:
                                                    said once in the log */
    struct job_cell *cells[SESSION_MAX_SOURCES]; /* [src][wl], on demand */
    struct wl_run *host_run[JOBS_MAX_WL];
    bool excluded[SESSION_MAX_SOURCES]; /* sources that do not take part */
    int queue[JOBS_MAX_WL];             /* a suite, run one after another */
    int qlen, qpos;
    unsigned message_seq; /* rises with each new message */
    char message[320];    /* the newest refusal or failure, for the user */
};

/* Loads the catalogue; runs default to 3 repeats of 1 s after 0.1 s of
 * warm-up, a guest's under a lease of LEASE_DEFAULT_S. Guests run them
 * through pmdaparallax (parallax.control). */
void jobs_init(struct jobs *j);

/* Sets workload w on source src to a finished run with statistics st (a
 * baseline column's saved figures); nothing when st->n is 0. */
void jobs_set_done(struct jobs *j, int src, int w, const struct wl_stats *st);

/* Sets workload w on the recorded column src to what the recording shows
 * (pj, NULL: nothing; extras its details text, hist its latency
 * histogram's, workloads/lat_hist.h). Never a running state: no run of
 * ours is live there. */
void jobs_set_recorded(struct jobs *j, int src, int w,
                       const struct pmda_job *pj, const char *extras,
                       const char *hist);

/* Starts workload w on every source that takes part. 0, or -1 with the
 * reason in err (nothing was started). */
int jobs_start(struct jobs *j, const struct session *s, int w, char *err,
               size_t errlen);

/* Starts workload w on source src alone (batch mode: one source at a
 * time). 0, or -1 with the reason in err. */
int jobs_start_one(struct jobs *j, const struct session *s, int w, int src,
                   char *err, size_t errlen);

/* True while a guest run's stamps wait for the fetch after them (its
 * real-time figures are not final yet). */
bool jobs_settling(const struct jobs *j);

/* Marks workload w failed on source src with `note`: a run that could not
 * start there (batch mode: a guest that is down). A live run is left
 * alone. */
void jobs_mark_failed(struct jobs *j, int src, int w, const char *note);

/* Stops workload w everywhere it runs. */
void jobs_stop(struct jobs *j, const struct session *s, int w);

/* Stops every workload, also a guest's runs this parallax did not start,
 * and drops a queued suite. */
void jobs_stop_all(struct jobs *j, const struct session *s);

/* On the way out: stops what this parallax started, here and on every
 * guest (the stop stores go to the samplers, which make them before they
 * end: session_close), and drops a queued suite. */
void jobs_quit(struct jobs *j, const struct session *s);

/* Queues the suite `name` and starts its first workload. 0, or -1 with the
 * reason in err. */
int jobs_run_suite(struct jobs *j, const struct session *s, const char *name,
                   char *err, size_t errlen);

/* Polls the runs, folds their progress into the cells and moves a suite
 * on; takes in the runs a guest reports that this parallax did not start
 * (foreign); has each guest's sampler renew the leases of the runs this
 * parallax started there and still follows; lets this host's system call
 * counter reopen once no host run is left
 * (collectors/syscalls_switch.h). True when anything changed. Never
 * blocks. */
bool jobs_update(struct jobs *j, const struct session *s);

/* True while w runs (or stops) on any source; with w < 0, any workload. */
bool jobs_running(const struct jobs *j, int w);

/* The same for the runs this parallax started (not foreign ones). */
bool jobs_own_running(const struct jobs *j, int w);

/* True while a workload runs on this host. */
bool jobs_host_busy(const struct jobs *j);

/* The cell of workload w on source src (a blank one if never touched). */
const struct job_cell *jobs_cell(const struct jobs *j, int src, int w);

/* The figure a cell shows: the live figure while running, else the median
 * of the last run's repeats; NaN when there is none. */
double jobs_figure(const struct job_cell *c);

/* True when the last run was stopped before its repeats were done (`x`):
 * its figures are partial and stay out of the index. */
bool jobs_partial(const struct job_cell *c);

/* True when the source's clock over the cell's run differed from real
 * time by more than the measurement's own error. */
bool jobs_divergent(const struct job_cell *c);

/* The source's figure over the real one (the median of each): 2.75 for a
 * guest whose clock gave 0.36 s per real second on a throughput, 0.36 on
 * a latency; NaN when not known. */
double jobs_divergence(const struct job_cell *c);

/* Stops everything and frees the runs and cells. */
void jobs_free(struct jobs *j);

#endif
