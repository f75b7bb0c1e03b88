/* Workloads across a fleet: a workload, or a suite's workloads one after
 * another, on a chosen set of guests and their hosts (for the ratios),
 * hosts first, at most `concurrency` sources at a time. Each source is
 * reached as today, through its pmdaparallax: a sampler on its pmcd (its
 * parallax_pmcd label) stores into parallax.control.start and follows
 * parallax.workload.* every RUN_INTERVAL; so its pmcd must allow stores
 * from this host. What each run gives lands in the fleet model
 * (fleet_set_result): the median by the source's clock ("reported"), and
 * the run's divergence, the source's seconds over real seconds between
 * the first fetch that saw it running and the first that saw it end, both
 * bracketed by this host's clock. */
#ifndef PARALLAX_FLEET_RUN_H
#define PARALLAX_FLEET_RUN_H

#include <stdbool.h>
#include <stddef.h>

#include "collectors/sampler.h"
#include "core/model.h"
#include "fleet/fleet_model.h"
#include "runner/runner.h"

#define FLEET_RUN_INTERVAL 0.25 /* s between fetches of a running source */
#define FLEET_CONCURRENCY  4    /* sources at a time, by default */

enum fleet_member_state {
    FM_QUEUED,
    FM_CONNECTING,
    FM_RUNNING,
    FM_STOPPING, /* a stop was stored; waiting for its outcome */
    FM_DONE,     /* every workload of the run finished */
    FM_FAILED,   /* see note */
    FM_STOPPED,  /* stopped, or never started because of a stop */
};

struct fleet_member {
    int src;   /* in the fleet model */
    bool host; /* a host, run for its guests' ratios */
    enum fleet_member_state state;
    int pos;                    /* the workload in progress (run->wl) */
    struct sampler *sampler;    /* while connecting, running, stopping */
    struct source_model *model; /* that connection's figures */
    unsigned store_id;          /* the start or stop not yet answered */
    unsigned runs_base;         /* the agent's run count before our start */
    bool seen;                  /* our run showed in a fetch */
    bool leased;                /* started with a lease, renewed */
    double src0, real0;         /* that fetch: its clock, real time */
    double half0;               /* ... and half its round trip, s */
    int repeat, repeats;        /* progress of the workload in progress */
    double give_up_at;          /* connecting: host monotonic deadline */
    char note[320];             /* why it failed */
};

struct fleet_run {
    bool active;
    char what[64]; /* the suite or workload asked for */
    int nwl;
    int wl[FLEET_WL_MAX]; /* workload_registry indices, in order */
    struct wl_run_opts opts;
    int concurrency;
    double lease; /* s a run outlives the last renewal (--lease) */
    int n;
    struct fleet_member *m;
    double started, ended;  /* host monotonic */
    int wake_fd;            /* a byte here when a source's fetch came */
    struct wake_gate *gate; /* the sources' samplers share it */
    unsigned message_seq;   /* rises with each new message */
    char message[400];      /* the newest failure, for the status line */
};

/* Counts of a run's members by state, for progress lines. */
struct fleet_run_counts {
    int queued, active, done, failed, stopped, hosts, guests;
};

/* Makes every source's fetch write a byte to fd (the caller's loop
 * polls it), from the next run on. */
void fleet_run_set_wake(struct fleet_run *r, int fd);

/* Runs started from now on end about `secs` real seconds after this
 * parallax last renewed them, should it be gone (--lease; session/lease.h). */
void fleet_run_set_lease(struct fleet_run *r, double secs);

/* Starts `what` (a suite name, or workloads "a,b,c") on the guests
 * guests[0..nguests) of m (model indices) and their hosts, `repeats`
 * repeats each, `concurrency` sources at a time. 0, or -1 with a one-line
 * reason in err (an unknown workload, no guest chosen, a run already
 * going). */
int fleet_run_start(struct fleet_run *r, const struct fleet_model *m,
                    const int *guests, int nguests, const char *what,
                    int repeats, int concurrency, char *err, size_t errlen);

/* Moves the run on at host monotonic time now: folds what each source's
 * fetches say, records results into m, starts the next workloads and
 * sources. Never blocks. True when anything changed. */
bool fleet_run_update(struct fleet_run *r, struct fleet_model *m, double now);

/* Stops every run it started and starts nothing more. */
void fleet_run_stop(struct fleet_run *r);

/* The member for model source src, or NULL. */
const struct fleet_member *fleet_run_member(const struct fleet_run *r, int src);

/* Its progress as a short cell: "queued", "2/3 pipe-lat", "done",
 * "failed", "stopped". */
void fleet_member_text(const struct fleet_run *r, const struct fleet_member *f,
                       char *buf, size_t n);

/* The members counted by state. */
void fleet_run_count(const struct fleet_run *r, struct fleet_run_counts *c);

/* Stops what still runs (waiting up to two seconds for the stops to be
 * made, then up to one for the connections that ended mid-fetch:
 * sampler_drain) and frees the run. */
void fleet_run_free(struct fleet_run *r);

#endif
