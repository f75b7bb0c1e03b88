/* Folding what the runs report into the cells of session/jobs.h, at
 * every jobs_update: this host's progress read from shared memory (never
 * waited for), a guest's from parallax.workload.* with every sample (its
 * repeats timed on the host's clock by session/job_time.c); the runs a
 * guest reports that this parallax did not start (foreign); which sources
 * ran at once; a suite moving on. */
#include "session/jobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/syscalls_switch.h"
#include "session/job_parts.h"
#include "session/job_time.h"
#include "workloads/extras.h"
#include "workloads/lat_common.h"
#include "workloads/real_figure.h"

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
    struct job_cell *c = job_cell_at(j, JOBS_HOST, w);
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

/* An older agent's figures, as it reports them: no stamps to time them
 * by (c->real stays false, the cell says "reported only"). */
static void fold_guest_word(struct job_cell *c, const struct pmda_job *pj)
{
    c->live = pj->figure;
    job_stats_of(&c->stats, pj);
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

/* True when the agent that runs cell c's run is not the one that took
 * its start: a run count moves on from ours and never back, unless a new
 * agent counts from 0 (an agent that a signal killed, restarted by pmcd,
 * knows nothing of the run and would leave the cell running forever).
 * Before the run has shown: two samples made after the agent took the
 * start show no run of it. */
static bool agent_restarted(const struct job_cell *c,
                            const struct source_model *m,
                            const struct pmda_job *pj)
{
    if (c->shown)
        return pj->runs < c->runs_base + 1;
    return c->state == JOB_RUNNING && !c->store_id && c->acked_at &&
           pj->runs == c->runs_base && m->updates >= c->acked_at + 2;
}

/* Fails cell c with note and posts it as the screen's message, headed by
 * the source's name and, when given, the workload's. */
static void cell_failed(struct jobs *j, struct job_cell *c, const char *src,
                        const char *wl, const char *note)
{
    c->state = JOB_FAILED;
    snprintf(c->note, sizeof(c->note), "%s", note);
    if (wl)
        snprintf(j->message, sizeof(j->message), "%s: %s: %s", src, wl, note);
    else
        snprintf(j->message, sizeof(j->message), "%s: %s", src, note);
    j->message_seq++;
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
            c->acked_at = m->updates;
            job_vcpu_start(c, s, src);
        }
        if (r->status < 0) {
            cell_failed(j, c, m->name, NULL, r->msg);
            return true;
        }
    }
    const struct pmda_job *pj = jobs_guest_job(j, m, w);
    bool was_live = c->state == JOB_RUNNING || c->state == JOB_STOPPING;
    if (pj && was_live && agent_restarted(c, m, pj)) {
        cell_failed(j, c, m->name, j->wl[w]->name,
                    "its agent there restarted during the run (pmcd restarts "
                    "an agent that died), and the run ended with it");
        return true;
    }
    if (!pj || (c->state == JOB_RUNNING && pj->runs == c->runs_base))
        return c->state != before; /* our start has not shown yet */
    c->shown |= c->state == JOB_RUNNING;
    c->state = guest_state(pj->state, c->state);
    c->lanes = pj->lanes;
    bool live = c->state == JOB_RUNNING || c->state == JOB_STOPPING;
    if (live) /* the latest fetch that still saw it run */
        c->ran_t = m->prev.t_before;
    else if (was_live) { /* the first that saw it ended */
        c->done_t = m->prev.t_after;
        job_vcpu_end(c, pj);
    }
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
        struct job_cell *c = w >= 0 ? job_cell_at(j, src, w) : NULL;
        if (!c || c->state == JOB_RUNNING || c->state == JOB_STOPPING ||
            started_elsewhere(j, s, src, w, pj))
            continue;
        job_cell_reset(c);
        c->state = JOB_RUNNING;
        c->foreign = true;
        c->runs_base = pj->runs - 1; /* its start has shown */
        c->shown = true;
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
        for (int src = jobs_first_remote(s); src < s->nsrc && src < 64; src++) {
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

bool jobs_update(struct jobs *j, const struct session *s)
{
    bool changed = false;
    for (int src = jobs_first_remote(s); src < s->nsrc; src++)
        if (s->model[src].state == SRC_LIVE && !session_is_fixed(s, src))
            changed |= adopt_foreign(j, s, src);
    note_overlap(j, s);
    jobs_vcpu_update(j, s);
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w]) {
            fold_host_run(j, w);
            changed = true;
            if (!j->host_run[w])
                jobs_log_end(j, s, JOBS_HOST, w, jobs_cell(j, JOBS_HOST, w));
        }
        for (int src = jobs_first_remote(s); src < s->nsrc; src++) {
            const struct job_cell *c = j->cells[src] ? &j->cells[src][w] : 0;
            /* final states stay until the next start, once mapped */
            bool live =
                c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING);
            if (live || (c && c->mapping)) {
                changed |= fold_guest(j, s, src, w);
                if (live && c->state != JOB_RUNNING && c->state != JOB_STOPPING)
                    jobs_log_end(j, s, src, w, c);
            }
        }
    }
    /* a guest's clock is ticked while its runs want timing: from the
     * start where it varies, from the moment it is seen to vary else */
    for (int src = jobs_first_remote(s); src < s->nsrc; src++) {
        bool on = false, varies = jobs_wants_ticks(&s->model[src]);
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
    jobs_renew_leases(j, s);
    /* this host's system call counter reopens once no host run is left */
    syscalls_host_busy(jobs_host_busy(j));
    return changed;
}
