/* The agent's run bookkeeping: one slot per catalogue workload holding its
 * current or last run (the runner's own object, the same code the host
 * uses), a cap on live runs, the runs' leases, and the view a fetch reads.
 * No PCP here. */
#ifndef PARALLAX_PMDA_RUNS_H
#define PARALLAX_PMDA_RUNS_H

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmda/control.h"
#include "runner/repeat_log.h"
#include "workloads/lat_hist.h"
#include "workloads/stats.h"

#define RUNS_MAX_LIVE 64 /* the most -m accepts */

/* What a client sees: a stopped run goes back to idle (its complete
 * repeats stay readable), one being stopped still counts as running. */
enum slot_state { SLOT_IDLE, SLOT_RUNNING, SLOT_DONE, SLOT_FAILED };

/* One workload's slot as a fetch reports it. Figures cover the current
 * run, or the last one when none is live. */
struct run_view {
    enum slot_state state;
    uint64_t runs;          /* runs started in this slot */
    uint64_t ops;           /* operations measured in the run so far */
    double wall, user, sys; /* seconds measured in the run so far */
    double figure;          /* the repeat in progress, else the last; NaN */
    int nresults, repeats;  /* repeats finished, repeats asked for */
    struct wl_stats stats;  /* over the finished repeats' figures */
    const char *args;       /* how the run was started; "" before any */
    const char *error;      /* why it failed; "" otherwise */
    const char *extras;     /* the last finished repeat's, extras.h */
    const struct lat_hist *hist; /* ... its latency histogram; NULL none */
    const char *hist_text;       /* ... as lat_hist_format's text; "" none */
    double run_start;            /* CLOCK_REALTIME at the start; NaN before */
    double run_end;              /* ... at the end seen; NaN while it runs */
    const char *repeat_log;      /* runner/repeat_log.h */
    struct wl_lanes lanes;       /* its tasks side by side (sched's jN) */
    double lease_left;           /* s before its lease runs out (0 once it has);
                                    NaN: no lease, or the run has ended */
};

struct runs;

/* Slots for the whole catalogue; at most max_live runs at once. log gets
 * one line when a run ends. NULL when out of memory. */
struct runs *runs_new(int max_live, void (*log)(const char *line));

/* Starts req's workload. 0, or -1 with the reason in err (already running,
 * too many runs, or the runner refused). With req->lease the run is
 * stopped once that many seconds pass without a renewal (runs_poll). */
int runs_start(struct runs *rs, const struct start_req *req, char *err,
               size_t errlen);

/* Renews the lease of w's run: it now ends `lease` seconds from now (0:
 * its lease's own length; a new length holds for the next renewals too)
 * unless renewed again. True when w runs under a lease not yet out. */
bool runs_renew(struct runs *rs, const struct workload *w, double lease);

/* Asks w's run to stop; true if it was live. */
bool runs_stop(struct runs *rs, const struct workload *w);

/* Asks every live run to stop; returns how many were live. */
int runs_stop_all(struct runs *rs);

/* Reaps ended runs, escalates stops and stops the runs whose lease ran
 * out; never blocks. */
void runs_poll(struct runs *rs);

/* Runs not yet ended (stopping ones included). */
int runs_live(const struct runs *rs);

/* The cap given to runs_new. */
int runs_max(const struct runs *rs);

/* Fills pfd with the exit descriptors of live runs; returns how many. */
int runs_pollfds(const struct runs *rs, struct pollfd *pfd, int max);

/* How soon runs_poll must run again, in ms (a lease running out is one
 * such moment); -1 when nothing is live. */
int runs_timeout_ms(const struct runs *rs);

/* Longest repeat_log: a line per repeat the control metric allows, and
 * the one in progress. */
#define RUNS_LOG_MAX ((CONTROL_MAX_REPEATS + 1) * REPEAT_LOG_LINE + 1)

/* The view of slot i (catalogue index). */
void runs_view(struct runs *rs, int i, struct run_view *v);

/* "idle", "running", "done" or "failed". */
const char *slot_state_name(enum slot_state s);

/* Stops every live run, waits for it, and frees everything. */
void runs_free(struct runs *rs);

#endif
