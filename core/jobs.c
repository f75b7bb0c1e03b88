/* See jobs.h. This host's runs are child processes of parallax (the runner
 * forks them in their own process groups, dying with parallax); their
 * progress is read from shared memory at every update, never waited for. */
#include "core/jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workloads/registry.h"
#include "workloads/suites.h"

#define HOST 0

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

int jobs_start(struct jobs *j, const struct session *s, int w, char *err,
               size_t errlen)
{
    (void)s;
    if (w < 0 || w >= j->nwl) {
        snprintf(err, errlen, "no workload %d in the catalogue", w);
        return -1;
    }
    if (jobs_running(j, w)) {
        snprintf(err, errlen, "%s is already running", j->wl[w]->name);
        return -1;
    }
    if (j->excluded[HOST]) {
        snprintf(err, errlen, "no source takes part; select one first");
        return -1;
    }
    struct job_cell *c = cell(j, HOST, w);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    wl_run_free(j->host_run[w]);
    j->host_run[w] = wl_run_start(j->wl[w], NULL, &j->opts, err, errlen);
    if (!j->host_run[w])
        return -1;
    *c = blank;
    c->state = JOB_RUNNING;
    c->repeats = j->opts.repeats;
    return 0;
}

void jobs_stop(struct jobs *j, int w)
{
    if (w >= 0 && w < j->nwl && j->host_run[w] &&
        !wl_run_state_final(wl_run_poll(j->host_run[w]))) {
        wl_run_stop(j->host_run[w]);
        struct job_cell *c = cell(j, HOST, w);
        if (c)
            c->state = JOB_STOPPING;
    }
}

void jobs_stop_all(struct jobs *j)
{
    j->qlen = j->qpos = 0;
    for (int w = 0; w < j->nwl; w++)
        jobs_stop(j, w);
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
    snprintf(c->note, sizeof(c->note), "%s", wl_run_error(r));
    if (wl_run_state_final(st.state)) {
        wl_run_free(r);
        j->host_run[w] = NULL;
    }
}

bool jobs_update(struct jobs *j, const struct session *s)
{
    bool changed = false;
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w]) {
            fold_host_run(j, w);
            changed = true;
        }
    }
    /* a suite moves on when nothing of it runs any more */
    if (j->qpos < j->qlen && !jobs_running(j, -1)) {
        char err[160];
        if (jobs_start(j, s, j->queue[j->qpos++], err, sizeof(err)) < 0)
            j->qlen = j->qpos = 0;
        changed = true;
    }
    return changed;
}

bool jobs_running(const struct jobs *j, int w)
{
    for (int i = 0; i < j->nwl; i++)
        if ((w < 0 || i == w) && j->host_run[i])
            return true;
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
