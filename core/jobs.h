/* Jobs: the catalogue's workloads across the sources — which run where,
 * their live figures and the statistics of their repeats — for the
 * workloads rows of the screen and the reports. On this host a job runs
 * through the local runner, the same code pmdaparallax runs in guests. */
#ifndef PARALLAX_JOBS_H
#define PARALLAX_JOBS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/session.h"
#include "workloads/runner.h"
#include "workloads/stats.h"

#define JOBS_MAX_WL 64

enum job_state {
    JOB_IDLE,     /* never run here */
    JOB_RUNNING,  /* a run is live */
    JOB_STOPPING, /* stop asked for, not yet ended */
    JOB_DONE,     /* the last run gave every repeat */
    JOB_STOPPED,  /* the last run was stopped; finished repeats are kept */
    JOB_FAILED,   /* the last run failed: see note */
};

/* One workload on one source. */
struct job_cell {
    enum job_state state;
    unsigned store_id;     /* a guest: the start or stop store not yet done */
    unsigned runs_base;    /* a guest: its run count before our start */
    double live;           /* figure of the repeat in progress, NaN */
    int repeat, repeats;   /* progress through the repeats */
    struct wl_stats stats; /* over the finished repeats of the last run */
    int placement;         /* enum wl_placement of the last result */
    char note[256];        /* why it failed */
    /* The last finished repeat's extra figures (sched's fairness table,
     * sleep's overshoots; a guest's come through pmdaparallax), and on this
     * host the rest of that result too; nextra 0 if none. */
    struct wl_result last;
};

struct jobs {
    int nwl;
    const struct workload *wl[JOBS_MAX_WL];
    struct wl_run_opts opts;                     /* how every run is made */
    struct job_cell *cells[SESSION_MAX_SOURCES]; /* [src][wl], on demand */
    struct wl_run *host_run[JOBS_MAX_WL];
    bool excluded[SESSION_MAX_SOURCES]; /* sources that do not take part */
    int queue[JOBS_MAX_WL];             /* a suite, run one after another */
    int qlen, qpos;
    unsigned message_seq; /* rises with each new message */
    char message[320];    /* the newest refusal or failure, for the user */
};

/* Loads the catalogue; runs default to 3 repeats of 1 s after 0.1 s of
 * warm-up. Guests run them through pmdaparallax (parallax.control). */
void jobs_init(struct jobs *j);

/* Sets workload w on source src to a finished run with statistics st (a
 * baseline column's saved figures); nothing when st->n is 0. */
void jobs_set_done(struct jobs *j, int src, int w, const struct wl_stats *st);

/* Sets workload w on the recorded column src to what the recording shows
 * (pj, NULL: nothing; extras its details text). Never a running state: no
 * run of ours is live there. */
void jobs_set_recorded(struct jobs *j, int src, int w,
                       const struct pmda_job *pj, const char *extras);

/* Starts workload w on every source that takes part. 0, or -1 with the
 * reason in err (nothing was started). */
int jobs_start(struct jobs *j, const struct session *s, int w, char *err,
               size_t errlen);

/* Marks workload w failed on source src with `note`: a run that could not
 * start there (batch mode: a guest that is down). A live run is left
 * alone. */
void jobs_mark_failed(struct jobs *j, int src, int w, const char *note);

/* Stops workload w everywhere it runs. */
void jobs_stop(struct jobs *j, const struct session *s, int w);

/* Stops every workload and drops a queued suite. */
void jobs_stop_all(struct jobs *j, const struct session *s);

/* Queues the suite `name` and starts its first workload. 0, or -1 with the
 * reason in err. */
int jobs_run_suite(struct jobs *j, const struct session *s, const char *name,
                   char *err, size_t errlen);

/* Polls the runs, folds their progress into the cells and moves a suite
 * on; lets this host's system call counter reopen once no host run is
 * left (collectors/syscalls_switch.h). True when anything changed. Never
 * blocks. */
bool jobs_update(struct jobs *j, const struct session *s);

/* True while w runs (or stops) on any source; with w < 0, any workload. */
bool jobs_running(const struct jobs *j, int w);

/* True while a workload runs on this host. */
bool jobs_host_busy(const struct jobs *j);

/* The cell of workload w on source src (a blank one if never touched). */
const struct job_cell *jobs_cell(const struct jobs *j, int src, int w);

/* The figure a cell shows: the live figure while running, else the median
 * of the last run's repeats; NaN when there is none. */
double jobs_figure(const struct job_cell *c);

/* Stops everything and frees the runs and cells. */
void jobs_free(struct jobs *j);

#endif
