/* See jobs.h. This host's runs are child processes of parallax (the runner
 * forks them in their own process groups, dying with parallax); their
 * progress is read from shared memory at every update, never waited for.
 * A guest's runs are started and stopped by stores into its
 * parallax.control metrics (made by the guest's sampler thread) and read
 * back from parallax.workload.* with every sample. They carry a lease the
 * sampler renews while they are ours and live, so that one this parallax
 * can no longer stop (killed, crashed, cut off) ends within the lease. */
#include "session/jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/sampler.h"
#include "collectors/syscalls_switch.h"
#include "runner/suites.h"
#include "session/job_time.h"
#include "session/lease.h"
#include "workloads/extras.h"
#include "workloads/lat_common.h"
#include "workloads/real_figure.h"
#include "workloads/registry.h"

#define HOST 0

/* The first source whose runs go through pmdaparallax stores: 1, or 0
 * when model[0] is a remote host (a fleet pair, session_open_pair). */
static int first_remote(const struct session *s)
{
    return s->nsrc > 0 && s->model[0].target[0] ? 0 : 1;
}

/* -v: how a run ended, for the log */
static void log_end(const struct jobs *j, const struct session *s, int src,
                    int w, const struct job_cell *c)
{
    static const char *const names[] = {"idle", "running", "stopping",
                                        "done", "stopped", "failed"};
    DIAG(DIAG_INFO, "%s on %s: %s%s%s", j->wl[w]->name, s->model[src].name,
         names[c->state], c->note[0] ? ": " : "", c->note);
}

#define NO_STATS                                                               \
    {                                                                          \
        .median = NAN, .min = NAN, .max = NAN, .mean = NAN, .sd = NAN,         \
        .ci95 = NAN, .med_lo = NAN, .med_hi = NAN, .med_cover = NAN            \
    }

static const struct job_cell blank = {
    .state = JOB_IDLE,
    .live = NAN,
    .stats = NO_STATS,
    .said = NO_STATS,
    .placement = -1,
    .cpu = -1,
    .rate = NAN,
    .rate_err = NAN,
    .real_s = NAN,
    .said_s = NAN,
    .run_real_s = NAN,
    .store_t = {NAN, NAN},
    .ran_t = NAN,
    .done_t = NAN,
    .bracket_ok = true,
};

/* Makes c blank for a new run, keeping its stamps' memory. */
static void reset_cell(struct job_cell *c)
{
    struct job_stamps *keep = c->stamps;
    *c = blank;
    c->stamps = keep;
    job_time_reset(c);
}

void jobs_init(struct jobs *j)
{
    memset(j, 0, sizeof(*j));
    for (int i = 0; workload_registry[i] && j->nwl < JOBS_MAX_WL; i++)
        j->wl[j->nwl++] = workload_registry[i];
    wl_run_opts_default(&j->opts);
    j->opts.repeats = 3;
    j->lease = LEASE_DEFAULT_S;
}

static struct job_cell *cell(struct jobs *j, int src, int w)
{
    if (!j->cells[src]) {
        j->cells[src] = malloc(sizeof(struct job_cell) * JOBS_MAX_WL);
        if (!j->cells[src])
            return NULL;
        for (int i = 0; i < JOBS_MAX_WL; i++)
            j->cells[src][i] = blank;
    }
    return &j->cells[src][w];
}

const struct job_cell *jobs_cell(const struct jobs *j, int src, int w)
{
    return j->cells[src] ? &j->cells[src][w] : &blank;
}

double jobs_figure(const struct job_cell *c)
{
    if (c->state == JOB_RUNNING || c->state == JOB_STOPPING)
        return isfinite(c->live) ? c->live : c->stats.median;
    return c->stats.median;
}

bool jobs_partial(const struct job_cell *c)
{
    return c->state == JOB_STOPPED;
}

bool jobs_divergent(const struct job_cell *c)
{
    return c->real && isfinite(c->rate) && isfinite(c->rate_err) &&
           fabs(c->rate - 1) > c->rate_err;
}

double jobs_divergence(const struct job_cell *c)
{
    if (!c->real || !(c->stats.median != 0))
        return NAN;
    return c->said.median / c->stats.median;
}

void jobs_set_done(struct jobs *j, int src, int w, const struct wl_stats *st)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? cell(j, src, w) : NULL;
    if (!c || st->n <= 0)
        return;
    reset_cell(c);
    c->state = JOB_DONE;
    c->stats = c->said = *st;
    c->real = true; /* as it was saved */
}

/* True while guest src's cell of w runs or stops. */
static bool cell_live(const struct jobs *j, int src, int w)
{
    const struct job_cell *c = j->cells[src] ? &j->cells[src][w] : NULL;
    return c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING);
}

static int start_host(struct jobs *j, int w, char *err, size_t errlen)
{
    struct job_cell *c = cell(j, HOST, w);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    wl_run_free(j->host_run[w]);
    syscalls_host_busy(true); /* the counter closes before the run starts */
    j->host_run[w] = wl_run_start(j->wl[w], NULL, &j->opts, err, errlen);
    if (!j->host_run[w])
        return -1;
    reset_cell(c);
    c->state = JOB_RUNNING;
    c->repeats = j->opts.repeats;
    c->cpu = j->opts.cpu;
    return 0;
}

/* The guest's report of workload w, or NULL. */
static const struct pmda_job *guest_job(const struct jobs *j,
                                        const struct source_model *m, int w)
{
    for (int i = 0; i < m->njobs; i++)
        if (strcmp(m->job[i].name, j->wl[w]->name) == 0)
            return &m->job[i];
    return NULL;
}

/* Whether a guest's runs need its clock ticked between samples: where
 * its rate varies (or is not known yet) the samples alone bracket a stamp
 * too loosely; a steady clock is placed precisely between them, and its
 * guest is spared the fetches. */
static bool wants_ticks(const struct source_model *m)
{
    return m->rates.unsteady || !m->rates.recent.ok;
}

/* Asks a guest's pmdaparallax to start w; false when it cannot. */
static bool start_guest(struct jobs *j, const struct session *s, int src, int w)
{
    const struct source_model *m = &s->model[src];
    struct job_cell *c = cell(j, src, w);
    if (!c || m->state != SRC_LIVE || !m->info.pmda || session_is_fixed(s, src))
        return false;
    /* the warm-up and each repeat as long in real time as the host's, in
     * the guest's seconds (within the agent's bounds): asked for its own
     * seconds, a clock 10 times fast measured 0.1 real s a repeat after
     * 10 ms of warm-up, and a run is slower in its first 100 ms or so
     * (syscall-null read 1.17 times, dhry 0.86 times its real-second
     * figures; docs/figures.md) */
    double dur = fmin(3600, fmax(0.01, time_rates_source_seconds(
                                           &m->rates, j->opts.duration, NULL)));
    double warm =
        fmin(60, time_rates_source_seconds(&m->rates, j->opts.warmup, NULL));
    char cmd[256];
    int n = snprintf(cmd, sizeof(cmd),
                     "%s --repeats=%d --duration=%.4g --warmup=%.4g",
                     j->wl[w]->name, j->opts.repeats, dur, warm);
    bool leased = m->info.lease && j->lease > 0;
    if (leased) { /* in the guest's seconds */
        struct lease_plan plan;
        lease_plan(j->lease, &m->rates, &plan);
        snprintf(cmd + n, sizeof(cmd) - (size_t)n, " " LEASE_ARG, plan.secs);
    } else if (!j->told_no_lease[src]) { /* an older agent refuses --lease */
        j->told_no_lease[src] = true;
        DIAG(DIAG_WARN,
             "%s: its pmdaparallax takes no lease (an older agent): a run "
             "started there goes on if this parallax is killed; x, or a "
             "later parallax, stops it",
             m->name);
    }
    bool ticks = wants_ticks(m);
    if (ticks) /* its clock ticks from the start on */
        session_watch(s, src, true);
    unsigned id = session_store(s, src, "parallax.control.start", cmd);
    if (!id)
        return false;
    const struct pmda_job *pj = guest_job(j, m, w);
    reset_cell(c);
    c->state = JOB_RUNNING;
    c->repeats = j->opts.repeats;
    c->store_id = id;
    c->runs_base = pj ? pj->runs : 0;
    c->ticks = ticks;
    c->leased = leased;
    return true;
}

int jobs_start(struct jobs *j, const struct session *s, int w, char *err,
               size_t errlen)
{
    if (w < 0 || w >= j->nwl) {
        snprintf(err, errlen, "no workload %d in the catalogue", w);
        return -1;
    }
    if (jobs_running(j, w)) {
        int src = first_remote(s);
        while (src < s->nsrc && !(j->cells[src] && j->cells[src][w].foreign &&
                                  cell_live(j, src, w)))
            src++;
        if (src < s->nsrc)
            snprintf(err, errlen,
                     "%s is already running on %s, not started by this "
                     "parallax; x stops it",
                     j->wl[w]->name, s->model[src].name);
        else
            snprintf(err, errlen, "%s is already running", j->wl[w]->name);
        return -1;
    }
    int started = 0;
    if (!j->excluded[HOST] && first_remote(s) == 1) {
        if (start_host(j, w, err, errlen) < 0)
            return -1;
        started++;
    }
    for (int src = first_remote(s); src < s->nsrc; src++)
        if (!j->excluded[src])
            started += start_guest(j, s, src, w);
    if (!started) {
        snprintf(err, errlen,
                 "no source can take it: none selected, or the guests are "
                 "down or lack pmdaparallax");
        return -1;
    }
    DIAG(DIAG_INFO, "%s: started on %d source%s", j->wl[w]->name, started,
         started == 1 ? "" : "s");
    return 0;
}

int jobs_start_one(struct jobs *j, const struct session *s, int w, int src,
                   char *err, size_t errlen)
{
    if (w < 0 || w >= j->nwl || src < 0 || src >= s->nsrc) {
        snprintf(err, errlen, "no workload %d or source %d", w, src);
        return -1;
    }
    if (src == HOST)
        return start_host(j, w, err, errlen);
    if (!start_guest(j, s, src, w)) {
        snprintf(err, errlen, "%s cannot take it: down, or no pmdaparallax",
                 s->model[src].name);
        return -1;
    }
    return 0;
}

bool jobs_settling(const struct jobs *j)
{
    for (int src = 0; src < SESSION_MAX_SOURCES; src++)
        for (int w = 0; j->cells[src] && w < j->nwl; w++)
            if (j->cells[src][w].mapping)
                return true;
    return false;
}

void jobs_mark_failed(struct jobs *j, int src, int w, const char *note)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? cell(j, src, w) : NULL;
    if (!c || c->state == JOB_RUNNING || c->state == JOB_STOPPING)
        return;
    reset_cell(c);
    c->state = JOB_FAILED;
    snprintf(c->note, sizeof(c->note), "%s", note);
}

void jobs_stop(struct jobs *j, const struct session *s, int w)
{
    if (w < 0 || w >= j->nwl)
        return;
    if (jobs_running(j, w))
        DIAG(DIAG_INFO, "%s: stopping", j->wl[w]->name);
    if (j->host_run[w] && !wl_run_state_final(wl_run_poll(j->host_run[w]))) {
        wl_run_stop(j->host_run[w]);
        struct job_cell *c = cell(j, HOST, w);
        if (c)
            c->state = JOB_STOPPING;
    }
    for (int src = first_remote(s); src < s->nsrc; src++) {
        struct job_cell *c = j->cells[src] ? &j->cells[src][w] : NULL;
        if (c && c->state == JOB_RUNNING) {
            c->store_id =
                session_store(s, src, "parallax.control.stop", j->wl[w]->name);
            c->state = JOB_STOPPING;
        }
    }
}

void jobs_stop_all(struct jobs *j, const struct session *s)
{
    j->qlen = j->qpos = 0;
    for (int w = 0; w < j->nwl; w++)
        jobs_stop(j, s, w);
}

static void renew_leases(const struct jobs *j, const struct session *s);

void jobs_quit(struct jobs *j, const struct session *s)
{
    j->qlen = j->qpos = 0;
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w])
            wl_run_stop(j->host_run[w]);
        for (int src = first_remote(s); src < s->nsrc; src++) {
            struct job_cell *c = j->cells[src] ? &j->cells[src][w] : NULL;
            if (c && c->state == JOB_RUNNING && !c->foreign) {
                c->store_id = session_store(s, src, "parallax.control.stop",
                                            j->wl[w]->name);
                c->state = JOB_STOPPING;
            }
        }
    }
    renew_leases(j, s); /* none: nothing of ours runs on any more */
}

int jobs_run_suite(struct jobs *j, const struct session *s, const char *name,
                   char *err, size_t errlen)
{
    const struct wl_suite *suite = suite_find(name);
    if (!suite) {
        char names[256];
        suite_names(names, sizeof(names));
        snprintf(err, errlen, "no suite '%s'; suites: %s", name, names);
        return -1;
    }
    const struct workload *members[JOBS_MAX_WL];
    int n = suite_resolve(suite, members, JOBS_MAX_WL, err, errlen);
    if (n < 0)
        return -1;
    j->qlen = j->qpos = 0;
    for (int m = 0; m < n; m++)
        for (int w = 0; w < j->nwl; w++)
            if (j->wl[w] == members[m])
                j->queue[j->qlen++] = w;
    if (jobs_running(j, -1)) {
        snprintf(err, errlen, "a workload is running; stop it first (x)");
        j->qlen = 0;
        return -1;
    }
    return jobs_start(j, s, j->queue[j->qpos++], err, errlen);
}

static enum job_state job_state_of(enum wl_run_state st)
{
    switch (st) {
    case WL_RUN_RUNNING:
        return JOB_RUNNING;
    case WL_RUN_STOPPING:
        return JOB_STOPPING;
    case WL_RUN_DONE:
        return JOB_DONE;
    case WL_RUN_STOPPED:
        return JOB_STOPPED;
    case WL_RUN_FAILED:
        break;
    }
    return JOB_FAILED;
}

/* Folds a host run's progress and results into its cell. */
static void fold_host_run(struct jobs *j, int w)
{
    struct wl_run *r = j->host_run[w];
    struct job_cell *c = cell(j, HOST, w);
    if (!r || !c)
        return;
    wl_run_poll(r);
    struct wl_run_status st;
    wl_run_status(r, &st);
    c->state = job_state_of(st.state);
    c->live = st.figure;
    c->repeat = st.repeat;
    c->lanes = st.lanes;
    int n = wl_run_nresults(r);
    double fig[WL_RUN_MAX_REPEATS];
    c->real_s = 0;
    for (int i = 0; i < n; i++) {
        fig[i] = wl_run_result(r, i)->figure;
        c->placement = wl_run_result(r, i)->placement;
        c->real_s += wl_run_result(r, i)->wall;
    }
    stats_compute(fig, n, &c->stats);
    /* this host's clock is the reference: its word is real time */
    c->said = c->stats;
    c->real = true;
    c->said_s = c->real_s;
    c->rate = 1;
    c->rate_err = 0;
    if (n > 0) /* keep the extras for the reports (fairness table) */
        c->last = *wl_run_result(r, n - 1);
    snprintf(c->note, sizeof(c->note), "%s", wl_run_error(r));
    if (wl_run_state_final(st.state)) {
        wl_run_free(r);
        j->host_run[w] = NULL;
    }
}

/* The result of store `id` among a guest's newest, or NULL. */
static const struct store_result *store_result(const struct source_model *m,
                                               unsigned id)
{
    for (int i = 0; i < SAMPLE_MAX_STORES; i++)
        if (m->store[i].id == id)
            return &m->store[i];
    return NULL;
}

static enum job_state guest_state(int code, enum job_state was)
{
    switch (code) {
    case 1:
        return was == JOB_STOPPING ? JOB_STOPPING : JOB_RUNNING;
    case 2:
        return JOB_DONE;
    case 3:
        return JOB_FAILED;
    default: /* idle: never run, or stopped */
        return was == JOB_IDLE ? JOB_IDLE : JOB_STOPPED;
    }
}

/* The statistics an agent reports of a run (blank where it has none). */
static void stats_of(struct wl_stats *st, const struct pmda_job *pj)
{
    *st = blank.stats;
    st->n = pj->n;
    if (pj->n > 0) {
        st->median = pj->median;
        st->min = pj->min;
        st->max = pj->max;
        st->mean = pj->mean;
        st->ci95 = (pj->ci_hi - pj->ci_lo) / 2;
    }
}

/* An older agent's figures, as it reports them: no stamps to time them
 * by (c->real stays false, the cell says "reported only"). */
static void fold_guest_word(struct job_cell *c, const struct pmda_job *pj)
{
    c->live = pj->figure;
    stats_of(&c->stats, pj);
    c->said = c->stats;
}

/* A guest's figures on the host's clock, from its repeat log: the live
 * one through the rate of the last seconds, the finished repeats through
 * their mapped stamps (session/job_time.c). */
static void fold_guest_times(const struct jobs *j, const struct source_model *m,
                             int w, struct job_cell *c,
                             const struct pmda_job *pj)
{
    const struct time_rate *recent = &m->rates.recent;
    c->live = recent->ok ? wl_real_figure(j->wl[w], pj->figure, recent->rate)
                         : pj->figure;
    double run[2] = {pj->run_start, pj->run_end};
    job_time_fold(c, j->wl[w], m, model_pool_text(m, pj->log_at), run);
    if (c->state != JOB_RUNNING && c->state != JOB_STOPPING)
        job_time_check(c);
}

/* The wall times among a guest's extras (sched's fairness table) in real
 * seconds: its clock gave `rate` seconds per real one over the run. CPU
 * times stay as its accounting billed them. */
static void real_extras(struct wl_result *r, double rate)
{
    for (int i = 0; i < r->nextra; i++)
        if ((strcmp(r->extra[i].unit, "s") == 0 &&
             strstr(r->extra[i].name, "wall")) ||
            (strcmp(r->extra[i].unit, "us") == 0 && /* latencies */
             strncmp(r->extra[i].name, LAT_EXTRA_PREFIX,
                     strlen(LAT_EXTRA_PREFIX)) == 0))
            r->extra[i].value /= rate;
}

/* Folds what a guest reports of workload w into its cell. */
static bool fold_guest(struct jobs *j, const struct session *s, int src, int w)
{
    struct job_cell *c = &j->cells[src][w];
    const struct source_model *m = &s->model[src];
    enum job_state before = c->state;
    if (m->state == SRC_DOWN &&
        (c->state == JOB_RUNNING || c->state == JOB_STOPPING)) {
        c->state = JOB_FAILED; /* its run is out of reach */
        c->store_id = 0;
        snprintf(c->note, sizeof(c->note), "the guest went down");
        return true;
    }
    if (c->store_id) {
        const struct store_result *r = store_result(m, c->store_id);
        if (!r)
            return false; /* not made yet */
        c->store_id = 0;
        if (c->state == JOB_RUNNING) { /* the start: the run's bracket */
            c->store_t[0] = r->t_before;
            c->store_t[1] = r->t_after;
        }
        if (r->status < 0) {
            c->state = JOB_FAILED;
            snprintf(c->note, sizeof(c->note), "%s", r->msg);
            snprintf(j->message, sizeof(j->message), "%s: %s", m->name, r->msg);
            j->message_seq++;
            return true;
        }
    }
    const struct pmda_job *pj = guest_job(j, m, w);
    if (!pj || (c->state == JOB_RUNNING && pj->runs == c->runs_base))
        return c->state != before; /* our start has not shown yet */
    bool was_live = c->state == JOB_RUNNING || c->state == JOB_STOPPING;
    c->state = guest_state(pj->state, c->state);
    c->lanes = pj->lanes;
    bool live = c->state == JOB_RUNNING || c->state == JOB_STOPPING;
    if (live) /* the latest fetch that still saw it run */
        c->ran_t = m->prev.t_before;
    else if (was_live) /* the first that saw it ended */
        c->done_t = m->prev.t_after;
    c->repeat = pj->repeats_done;
    c->repeats = pj->repeats;
    if (c->state == JOB_STOPPED && before == JOB_RUNNING) /* no stop of ours */
        snprintf(c->note, sizeof(c->note),
                 "stopped there, not by this parallax (its lease ran out, "
                 "or another client stopped it)");
    else if (c->state != JOB_STOPPED)
        snprintf(c->note, sizeof(c->note), "%s", pj->error);
    if (pj->has_times)
        fold_guest_times(j, m, w, c, pj);
    else
        fold_guest_word(c, pj);
    if (pj->n > 0) { /* the finished repeats' details, e.g. fairness */
        c->last.figure = pj->figure;
        wl_extras_parse(model_job_extras(m, pj), &c->last);
        /* a latency workload's distribution, by the guest's clock (the
         * views move it into real time through c->rate) */
        lat_hist_parse(model_pool_text(m, pj->hist_at), &c->last.hist);
        if (c->real)
            real_extras(&c->last, c->rate);
    }
    return true;
}

/* The catalogue index of the workload called name, or -1. */
static int wl_index(const struct jobs *j, const char *name)
{
    for (int w = 0; w < j->nwl; w++)
        if (strcmp(j->wl[w]->name, name) == 0)
            return w;
    return -1;
}

/* True when pj, w's run on guest src, is one this parallax started
 * through another source: the same agent under another name (the same
 * host name, and the run count our start there made). */
static bool started_elsewhere(const struct jobs *j, const struct session *s,
                              int src, int w, const struct pmda_job *pj)
{
    for (int o = 1; o < s->nsrc; o++) {
        const struct job_cell *c = j->cells[o] ? &j->cells[o][w] : NULL;
        if (o != src && c && c->state != JOB_IDLE && !c->foreign &&
            c->runs_base + 1 == pj->runs &&
            strcmp(s->model[o].info.host, s->model[src].info.host) == 0)
            return true;
    }
    return false;
}

/* Takes in the runs guest src reports live that no cell of ours follows:
 * a parallax killed before it could stop them left them, or another one
 * started them. Their cells follow them as foreign runs from now on. */
static bool adopt_foreign(struct jobs *j, const struct session *s, int src)
{
    const struct source_model *m = &s->model[src];
    bool changed = false;
    for (int i = 0; i < m->njobs; i++) {
        const struct pmda_job *pj = &m->job[i];
        int w = pj->state == 1 ? wl_index(j, pj->name) : -1;
        struct job_cell *c = w >= 0 ? cell(j, src, w) : NULL;
        if (!c || c->state == JOB_RUNNING || c->state == JOB_STOPPING ||
            started_elsewhere(j, s, src, w, pj))
            continue;
        reset_cell(c);
        c->state = JOB_RUNNING;
        c->foreign = true;
        c->runs_base = pj->runs - 1; /* its start has shown */
        DIAG(DIAG_INFO, "%s on %s: running, not started by this parallax",
             pj->name, m->name);
        changed = true;
    }
    return changed;
}

/* The sources running a workload now, a bit each. */
static uint64_t running_mask(const struct jobs *j, const struct session *s)
{
    uint64_t mask = 0;
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w])
            mask |= 1;
        for (int src = first_remote(s); src < s->nsrc && src < 64; src++) {
            const struct job_cell *c = j->cells[src] ? &j->cells[src][w] : 0;
            if (c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING))
                mask |= (uint64_t)1 << src;
        }
    }
    return mask;
}

/* Notes, in every running cell, the other sources running meanwhile. */
static void note_overlap(struct jobs *j, const struct session *s)
{
    uint64_t mask = running_mask(j, s);
    if (!(mask & (mask - 1)))
        return; /* one source at most: nothing competes */
    for (int src = 0; src < s->nsrc && src < 64; src++)
        for (int w = 0; j->cells[src] && w < j->nwl; w++) {
            struct job_cell *c = &j->cells[src][w];
            if (c->state == JOB_RUNNING || c->state == JOB_STOPPING)
                c->overlap |= mask & ~((uint64_t)1 << src);
        }
}

/* Has each guest's sampler renew, in one store, the leases of the runs
 * this parallax started there and follows, with the length and at the
 * pace its clock asks for now (session/lease.h); none once they have ended
 * or are being stopped (a stop that never arrives is then made good by
 * the lease). A foreign run is not ours to keep going. */
static void renew_leases(const struct jobs *j, const struct session *s)
{
    for (int src = first_remote(s); src < s->nsrc; src++) {
        struct lease_plan plan;
        lease_plan(j->lease, &s->model[src].rates, &plan);
        char text[SAMPLER_RENEW_MAX];
        int head = snprintf(text, sizeof(text), LEASE_ARG, plan.secs);
        size_t used = (size_t)head;
        for (int w = 0; j->cells[src] && w < j->nwl; w++) {
            const struct job_cell *c = &j->cells[src][w];
            size_t len = strlen(j->wl[w]->name);
            if (c->state == JOB_RUNNING && c->leased && !c->foreign &&
                used + len + 2 <= sizeof(text))
                used += (size_t)snprintf(text + used, sizeof(text) - used,
                                         " %s", j->wl[w]->name);
        }
        session_renew(s, src, "parallax.control.renew",
                      used > (size_t)head ? text : "", plan.every);
    }
}

bool jobs_update(struct jobs *j, const struct session *s)
{
    bool changed = false;
    for (int src = first_remote(s); src < s->nsrc; src++)
        if (s->model[src].state == SRC_LIVE && !session_is_fixed(s, src))
            changed |= adopt_foreign(j, s, src);
    note_overlap(j, s);
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w]) {
            fold_host_run(j, w);
            changed = true;
            if (!j->host_run[w])
                log_end(j, s, HOST, w, jobs_cell(j, HOST, w));
        }
        for (int src = first_remote(s); src < s->nsrc; src++) {
            const struct job_cell *c = j->cells[src] ? &j->cells[src][w] : 0;
            /* final states stay until the next start, once mapped */
            bool live =
                c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING);
            if (live || (c && c->mapping)) {
                changed |= fold_guest(j, s, src, w);
                if (live && c->state != JOB_RUNNING && c->state != JOB_STOPPING)
                    log_end(j, s, src, w, c);
            }
        }
    }
    /* a guest's clock is ticked while its runs want timing: from the
     * start where it varies, from the moment it is seen to vary else */
    for (int src = first_remote(s); src < s->nsrc; src++) {
        bool on = false, varies = wants_ticks(&s->model[src]);
        for (int w = 0; j->cells[src] && w < j->nwl; w++) {
            struct job_cell *c = &j->cells[src][w];
            bool live = c->state == JOB_RUNNING || c->state == JOB_STOPPING ||
                        c->mapping;
            c->ticks |= live && varies;
            on |= live && c->ticks;
        }
        session_watch(s, src, on);
    }
    /* a suite moves on when nothing of it runs any more */
    if (j->qpos < j->qlen && !jobs_own_running(j, -1)) {
        char err[160];
        if (jobs_start(j, s, j->queue[j->qpos++], err, sizeof(err)) < 0)
            j->qlen = j->qpos = 0;
        changed = true;
    }
    renew_leases(j, s);
    /* this host's system call counter reopens once no host run is left */
    syscalls_host_busy(jobs_host_busy(j));
    return changed;
}

/* The figures a recording (or an agent) gives of workload w, into the
 * cell of the recorded column src: progress, statistics, why it failed,
 * the details (extras text). */
void jobs_set_recorded(struct jobs *j, int src, int w,
                       const struct pmda_job *pj, const char *extras)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? cell(j, src, w) : NULL;
    if (!c)
        return;
    *c = blank;
    if (!pj)
        return;
    c->live = pj->figure;
    c->repeat = pj->repeats_done;
    c->repeats = pj->repeats;
    stats_of(&c->stats, pj);
    if (pj->n > 0) {
        c->last.figure = pj->figure;
        wl_extras_parse(extras, &c->last);
    }
    snprintf(c->note, sizeof(c->note), "%s", pj->error);
    /* never running here: a recorded run in progress shows the repeats
     * it has finished, an idle one with figures was stopped */
    c->state = pj->state == 3   ? JOB_FAILED
               : pj->state == 2 ? JOB_DONE
               : pj->n <= 0     ? JOB_IDLE
               : pj->state == 1 ? JOB_DONE
                                : JOB_STOPPED;
}

bool jobs_host_busy(const struct jobs *j)
{
    for (int w = 0; w < j->nwl; w++)
        if (j->host_run[w])
            return true;
    return false;
}

/* jobs_running, of every run or of this parallax's own only. */
static bool running(const struct jobs *j, int w, bool own)
{
    for (int i = 0; i < j->nwl; i++) {
        if (w >= 0 && i != w)
            continue;
        if (j->host_run[i])
            return true;
        /* a remote host's runs are in cell 0 (a local one's in host_run) */
        for (int src = 0; src < SESSION_MAX_SOURCES; src++)
            if (cell_live(j, src, i) && !(own && j->cells[src][i].foreign))
                return true;
    }
    return false;
}

bool jobs_running(const struct jobs *j, int w)
{
    return running(j, w, false);
}

bool jobs_own_running(const struct jobs *j, int w)
{
    return running(j, w, true);
}

void jobs_free(struct jobs *j)
{
    for (int w = 0; w < j->nwl; w++) {
        wl_run_free(j->host_run[w]);
        j->host_run[w] = NULL;
    }
    for (int src = 0; src < SESSION_MAX_SOURCES; src++) {
        for (int w = 0; j->cells[src] && w < JOBS_MAX_WL; w++)
            free(j->cells[src][w].stamps);
        free(j->cells[src]);
        j->cells[src] = NULL;
    }
}
