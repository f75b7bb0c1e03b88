/* Slots over the catalogue, each keeping the runner's object of its last
 * run until the next start replaces it, so results stay readable. Totals
 * over a run are the finished repeats plus the repeat in progress. A
 * lease is timed by CLOCK_MONOTONIC: setting the clock moves no lease. */
#include "pmda/runs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runner/repeat_log.h"
#include "runner/runner.h"
#include "workloads/extras.h"
#include "workloads/meter.h"
#include "workloads/registry.h"

#define POLL_STOPPING_MS 20   /* a stop escalates after WL_RUN_STOP_GRACE_MS */
#define POLL_NO_PIDFD_MS 100  /* no exit descriptor: notice exits this soon */
#define POLL_LIVE_MS     1000 /* and a regular look at every live run */

struct slot {
    const struct workload *w;
    struct wl_run *run; /* current or last run; NULL before the first */
    uint64_t runs;
    char args[512];
    /* the extras of the last finished repeat, formatted once per result */
    const struct wl_result *extras_of;
    char extras[WL_EXTRAS_TEXT_MAX];
    char hist[LAT_HIST_TEXT_MAX]; /* its histogram, lat_hist_format */
    double started, ended; /* CLOCK_REALTIME of the run's start and end */
    char *log;             /* repeat_log, RUNS_LOG_MAX; from the first run */
    double lease;          /* s a renewal holds the run; 0: no lease */
    double lease_end;      /* CLOCK_MONOTONIC when it runs out */
    bool lease_out;        /* it ran out: the run is being stopped */
};

struct runs {
    int nslots, max_live;
    void (*log)(const char *line);
    struct slot slot[];
};

struct runs *runs_new(int max_live, void (*log)(const char *line))
{
    int n = workload_count();
    struct runs *rs = calloc(1, sizeof *rs + (size_t)n * sizeof rs->slot[0]);
    if (!rs)
        return NULL;
    rs->nslots = n;
    rs->max_live = max_live;
    rs->log = log;
    for (int i = 0; i < n; i++)
        rs->slot[i].w = workload_registry[i];
    return rs;
}

static double mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static bool live(const struct slot *s)
{
    if (!s->run)
        return false;
    struct wl_run_status st;
    wl_run_status(s->run, &st);
    return !wl_run_state_final(st.state);
}

static struct slot *find(struct runs *rs, const struct workload *w)
{
    for (int i = 0; i < rs->nslots; i++)
        if (rs->slot[i].w == w)
            return &rs->slot[i];
    return NULL;
}

int runs_start(struct runs *rs, const struct start_req *req, char *err,
               size_t errlen)
{
    struct slot *s = find(rs, req->w);
    if (!s) {
        snprintf(err, errlen, "%s is not in the catalogue", req->w->name);
        return -1;
    }
    if (live(s)) {
        snprintf(err, errlen,
                 "%s is already running; stop it first "
                 "(parallax.control.stop)",
                 s->w->name);
        return -1;
    }
    if (runs_live(rs) >= rs->max_live) {
        snprintf(err, errlen,
                 "%d runs are live, the most this agent allows "
                 "(pmdaparallax -m)",
                 rs->max_live);
        return -1;
    }
    if (!s->log && !(s->log = malloc(RUNS_LOG_MAX))) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    double started = wl_realtime();
    struct wl_run *r = wl_run_start(req->w, req->param, &req->opt, err, errlen);
    if (!r)
        return -1;
    s->started = started;
    s->ended = NAN;
    s->lease = req->lease;
    s->lease_end = mono() + req->lease;
    s->lease_out = false;
    wl_run_free(s->run); /* the last run has ended: this does not block */
    s->run = r;
    s->extras_of = NULL; /* the old results are gone */
    s->runs++;
    control_format_args(req, s->args, sizeof s->args);
    return 0;
}

/* True while s's run is live under a lease that has not run out. */
static bool leased(const struct slot *s)
{
    return s->lease > 0 && !s->lease_out && live(s);
}

bool runs_renew(struct runs *rs, const struct workload *w, double lease)
{
    struct slot *s = find(rs, w);
    if (!s || !leased(s))
        return false;
    if (lease > 0)
        s->lease = lease;
    s->lease_end = mono() + s->lease;
    return true;
}

bool runs_stop(struct runs *rs, const struct workload *w)
{
    struct slot *s = find(rs, w);
    if (!s || !live(s))
        return false;
    wl_run_stop(s->run);
    return true;
}

int runs_stop_all(struct runs *rs)
{
    int n = 0;
    for (int i = 0; i < rs->nslots; i++)
        n += runs_stop(rs, rs->slot[i].w);
    return n;
}

static void log_end(const struct runs *rs, const struct slot *s)
{
    if (!rs->log)
        return;
    char line[768];
    enum wl_run_state st = wl_run_poll(s->run);
    if (st == WL_RUN_FAILED)
        snprintf(line, sizeof line, "run of %s failed: %s", s->w->name,
                 wl_run_error(s->run));
    else
        snprintf(line, sizeof line, "run of %s %s after %d of %d repeats",
                 s->w->name, wl_run_state_name(st), wl_run_nresults(s->run),
                 wl_run_options(s->run)->repeats);
    rs->log(line);
}

/* Stops s's run: its client has not renewed the lease in time (killed,
 * cut off, or hung), so nobody is left to stop it. */
static void lease_ran_out(const struct runs *rs, struct slot *s)
{
    s->lease_out = true;
    wl_run_stop(s->run);
    if (rs->log) {
        char line[256];
        snprintf(line, sizeof line,
                 "lease of %s ran out: no renewal in %.10g s; stopping it",
                 s->w->name, s->lease);
        rs->log(line);
    }
}

void runs_poll(struct runs *rs)
{
    double now = mono();
    for (int i = 0; i < rs->nslots; i++) {
        struct slot *s = &rs->slot[i];
        if (live(s) && wl_run_state_final(wl_run_poll(s->run))) {
            s->ended = wl_realtime();
            log_end(rs, s);
        } else if (leased(s) && now >= s->lease_end) {
            lease_ran_out(rs, s);
        }
    }
}

int runs_live(const struct runs *rs)
{
    int n = 0;
    for (int i = 0; i < rs->nslots; i++)
        n += live(&rs->slot[i]);
    return n;
}

int runs_max(const struct runs *rs)
{
    return rs->max_live;
}

int runs_pollfds(const struct runs *rs, struct pollfd *pfd, int max)
{
    int n = 0;
    for (int i = 0; i < rs->nslots && n < max; i++)
        if (live(&rs->slot[i]) && wl_run_fd(rs->slot[i].run) >= 0)
            pfd[n++] = (struct pollfd){.fd = wl_run_fd(rs->slot[i].run),
                                       .events = POLLIN};
    return n;
}

int runs_timeout_ms(const struct runs *rs)
{
    int ms = -1;
    for (int i = 0; i < rs->nslots; i++) {
        const struct slot *s = &rs->slot[i];
        if (!live(s))
            continue;
        struct wl_run_status st;
        wl_run_status(s->run, &st);
        int want = st.state == WL_RUN_STOPPING ? POLL_STOPPING_MS
                   : wl_run_fd(s->run) < 0     ? POLL_NO_PIDFD_MS
                                               : POLL_LIVE_MS;
        if (leased(s)) { /* at the moment it runs out, not a poll later */
            double left = ceil((s->lease_end - mono()) * 1e3);
            if (left < want)
                want = left < 0 ? 0 : (int)left;
        }
        if (ms < 0 || want < ms)
            ms = want;
    }
    return ms;
}

/* True when st still shows repeat nres-1's final counters: the child has
 * recorded that result and moved on, but not yet zeroed the progress. */
static bool stale(const struct wl_run *r, const struct wl_run_status *st,
                  int nres)
{
    const struct wl_result *last = wl_run_result(r, nres - 1);
    return last && st->ops == last->ops && st->wall == last->wall;
}

static enum slot_state slot_state(enum wl_run_state st)
{
    switch (st) {
    case WL_RUN_RUNNING:
    case WL_RUN_STOPPING:
        return SLOT_RUNNING;
    case WL_RUN_DONE:
        return SLOT_DONE;
    case WL_RUN_FAILED:
        return SLOT_FAILED;
    case WL_RUN_STOPPED:
        break;
    }
    return SLOT_IDLE;
}

/* Totals and figures of a run: finished repeats, plus the one in progress
 * (or cut short by a stop) unless its counters are already in a result. */
static void view_run(const struct wl_run *r, struct run_view *v)
{
    struct wl_run_status st;
    wl_run_status(r, &st);
    int n = wl_run_nresults(r);
    double fig[WL_RUN_MAX_REPEATS];
    for (int i = 0; i < n; i++) {
        const struct wl_result *res = wl_run_result(r, i);
        fig[i] = res->figure;
        v->ops += res->ops;
        v->wall += res->wall;
        v->user += res->user;
        v->sys += res->sys;
    }
    bool partial = st.repeat >= n && st.ops > 0 && !stale(r, &st, n);
    if (partial) {
        v->ops += st.ops;
        v->wall += st.wall;
        v->user += st.user;
        v->sys += st.sys;
    }
    v->figure = partial && isfinite(st.figure) ? st.figure
                : n > 0                        ? fig[n - 1]
                                               : NAN;
    v->state = slot_state(st.state);
    v->lanes = st.lanes;
    v->nresults = n;
    v->repeats = wl_run_options(r)->repeats;
    v->error = wl_run_error(r);
    stats_compute(fig, n, &v->stats);
}

/* The slot's extras text, formatted again only when a new result came. */
static const char *slot_extras(struct slot *s, int nresults)
{
    const struct wl_result *last =
        s->run && nresults > 0 ? wl_run_result(s->run, nresults - 1) : NULL;
    if (last != s->extras_of) {
        s->extras_of = last;
        s->extras[0] = s->hist[0] = '\0';
        if (last)
            wl_extras_format(last, s->extras, sizeof s->extras);
        if (last)
            lat_hist_format(&last->hist, s->hist, sizeof s->hist);
    }
    return s->extras;
}

void runs_view(struct runs *rs, int i, struct run_view *v)
{
    struct slot *s = &rs->slot[i];
    *v = (struct run_view){.state = SLOT_IDLE,
                           .runs = s->runs,
                           .figure = NAN,
                           .args = s->args,
                           .error = ""};
    stats_compute(NULL, 0, &v->stats);
    v->run_start = s->run ? s->started : NAN;
    v->run_end = s->run && !live(s) ? s->ended : NAN;
    v->lease_left = s->lease > 0 && live(s)
                        ? (s->lease_out ? 0 : fmax(0, s->lease_end - mono()))
                        : NAN;
    v->repeat_log = "";
    if (s->run) {
        view_run(s->run, v);
        repeat_log_format(s->run, s->log, RUNS_LOG_MAX);
        v->repeat_log = s->log;
    }
    v->extras = slot_extras(s, v->nresults);
    v->hist_text = s->hist;
    v->hist = s->extras_of && s->extras_of->hist.n ? &s->extras_of->hist : NULL;
}

const char *slot_state_name(enum slot_state s)
{
    static const char *const names[] = {
        [SLOT_IDLE] = "idle",
        [SLOT_RUNNING] = "running",
        [SLOT_DONE] = "done",
        [SLOT_FAILED] = "failed",
    };
    return (unsigned)s < sizeof names / sizeof names[0] ? names[s] : "?";
}

void runs_free(struct runs *rs)
{
    if (!rs)
        return;
    runs_stop_all(rs);
    for (int i = 0; i < rs->nslots; i++) {
        wl_run_free(rs->slot[i].run);
        free(rs->slot[i].log);
    }
    free(rs);
}
