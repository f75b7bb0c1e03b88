/* See jobs.h. This host's runs are child processes of parallax (the runner
 * forks them in their own process groups, dying with parallax); their
 * progress is read from shared memory at every update, never waited for.
 * A guest's runs are started and stopped by stores into its
 * parallax.control metrics (made by the guest's sampler thread) and read
 * back from parallax.workload.* with every sample. */
#include "core/jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "collectors/syscalls_switch.h"
#include "core/diag.h"
#include "workloads/extras.h"
#include "workloads/registry.h"
#include "workloads/suites.h"

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

static const struct job_cell blank = {
    .state = JOB_IDLE,
    .live = NAN,
    .stats = {.median = NAN,
              .min = NAN,
              .max = NAN,
              .mean = NAN,
              .sd = NAN,
              .ci95 = NAN},
};

void jobs_init(struct jobs *j)
{
    memset(j, 0, sizeof(*j));
    for (int i = 0; workload_registry[i] && j->nwl < JOBS_MAX_WL; i++)
        j->wl[j->nwl++] = workload_registry[i];
    wl_run_opts_default(&j->opts);
    j->opts.repeats = 3;
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

void jobs_set_done(struct jobs *j, int src, int w, const struct wl_stats *st)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? cell(j, src, w) : NULL;
    if (!c || st->n <= 0)
        return;
    *c = blank;
    c->state = JOB_DONE;
    c->stats = *st;
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
    *c = blank;
    c->state = JOB_RUNNING;
    c->repeats = j->opts.repeats;
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

/* Asks a guest's pmdaparallax to start w; false when it cannot. */
static bool start_guest(struct jobs *j, const struct session *s, int src, int w)
{
    const struct source_model *m = &s->model[src];
    struct job_cell *c = cell(j, src, w);
    if (!c || m->state != SRC_LIVE || !m->info.pmda || session_is_fixed(s, src))
        return false;
    char cmd[256];
    snprintf(cmd, sizeof(cmd), "%s --repeats=%d --duration=%g --warmup=%g",
             j->wl[w]->name, j->opts.repeats, j->opts.duration, j->opts.warmup);
    unsigned id = session_store(s, src, "parallax.control.start", cmd);
    if (!id)
        return false;
    const struct pmda_job *pj = guest_job(j, m, w);
    *c = blank;
    c->state = JOB_RUNNING;
    c->repeats = j->opts.repeats;
    c->store_id = id;
    c->runs_base = pj ? pj->runs : 0;
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

void jobs_mark_failed(struct jobs *j, int src, int w, const char *note)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? cell(j, src, w) : NULL;
    if (!c || c->state == JOB_RUNNING || c->state == JOB_STOPPING)
        return;
    *c = blank;
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
    int n = wl_run_nresults(r);
    double fig[WL_RUN_MAX_REPEATS];
    for (int i = 0; i < n; i++) {
        fig[i] = wl_run_result(r, i)->figure;
        c->placement = wl_run_result(r, i)->placement;
    }
    stats_compute(fig, n, &c->stats);
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
    c->state = guest_state(pj->state, c->state);
    c->live = pj->figure;
    c->repeat = pj->repeats_done;
    c->repeats = pj->repeats;
    c->stats = blank.stats;
    c->stats.n = pj->n;
    if (pj->n > 0) {
        c->stats.median = pj->median;
        c->stats.min = pj->min;
        c->stats.max = pj->max;
        c->stats.mean = pj->mean;
        c->stats.ci95 = (pj->ci_hi - pj->ci_lo) / 2;
    }
    snprintf(c->note, sizeof(c->note), "%s", pj->error);
    if (pj->n > 0) { /* the finished repeats' details, e.g. fairness */
        c->last.figure = pj->figure;
        wl_extras_parse(model_job_extras(m, pj), &c->last);
    }
    return true;
}

bool jobs_update(struct jobs *j, const struct session *s)
{
    bool changed = false;
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w]) {
            fold_host_run(j, w);
            changed = true;
            if (!j->host_run[w])
                log_end(j, s, HOST, w, jobs_cell(j, HOST, w));
        }
        for (int src = first_remote(s); src < s->nsrc; src++) {
            const struct job_cell *c = j->cells[src] ? &j->cells[src][w] : 0;
            /* final states stay until the next start */
            if (c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING)) {
                changed |= fold_guest(j, s, src, w);
                if (c->state != JOB_RUNNING && c->state != JOB_STOPPING)
                    log_end(j, s, src, w, c);
            }
        }
    }
    /* a suite moves on when nothing of it runs any more */
    if (j->qpos < j->qlen && !jobs_running(j, -1)) {
        char err[160];
        if (jobs_start(j, s, j->queue[j->qpos++], err, sizeof(err)) < 0)
            j->qlen = j->qpos = 0;
        changed = true;
    }
    /* this host's system call counter reopens once no host run is left */
    syscalls_host_busy(jobs_host_busy(j));
    return changed;
}

bool jobs_host_busy(const struct jobs *j)
{
    for (int w = 0; w < j->nwl; w++)
        if (j->host_run[w])
            return true;
    return false;
}

bool jobs_running(const struct jobs *j, int w)
{
    for (int i = 0; i < j->nwl; i++) {
        if (w >= 0 && i != w)
            continue;
        if (j->host_run[i])
            return true;
        /* a remote host's runs are in cell 0 (a local one's in host_run) */
        for (int src = 0; src < SESSION_MAX_SOURCES; src++) {
            const struct job_cell *c = j->cells[src] ? &j->cells[src][i] : 0;
            if (c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING))
                return true;
        }
    }
    return false;
}

void jobs_free(struct jobs *j)
{
    for (int w = 0; w < j->nwl; w++) {
        wl_run_free(j->host_run[w]);
        j->host_run[w] = NULL;
    }
    for (int src = 0; src < SESSION_MAX_SOURCES; src++) {
        free(j->cells[src]);
        j->cells[src] = NULL;
    }
}
