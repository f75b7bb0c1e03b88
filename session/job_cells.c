/* The cell table of session/jobs.h: a cell per workload and source, made
 * on first use; what a cell's figures say (the figure, partial, divergent);
 * the cells a baseline or a recording sets; whether anything runs; and the
 * end of it all. Starting is session/job_start.c, folding what the runs
 * report session/job_fold.c, the leases session/job_leases.c. */
#include "session/jobs.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/diag.h"
#include "session/job_parts.h"
#include "session/job_time.h"
#include "session/lease.h"
#include "workloads/extras.h"
#include "workloads/lat_hist.h"
#include "workloads/registry.h"

int jobs_first_remote(const struct session *s)
{
    return s->nsrc > 0 && s->model[0].target[0] ? 0 : 1;
}

void jobs_log_end(const struct jobs *j, const struct session *s, int src, int w,
                  const struct job_cell *c)
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

const struct job_cell job_blank = {
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
    .billed_s = NAN,
};

void job_cell_reset(struct job_cell *c)
{
    struct job_stamps *keep = c->stamps;
    *c = job_blank;
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

struct job_cell *job_cell_at(struct jobs *j, int src, int w)
{
    if (!j->cells[src]) {
        j->cells[src] = malloc(sizeof(struct job_cell) * JOBS_MAX_WL);
        if (!j->cells[src])
            return NULL;
        for (int i = 0; i < JOBS_MAX_WL; i++)
            j->cells[src][i] = job_blank;
    }
    return &j->cells[src][w];
}

const struct job_cell *jobs_cell(const struct jobs *j, int src, int w)
{
    return j->cells[src] ? &j->cells[src][w] : &job_blank;
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
    struct job_cell *c = w >= 0 && w < j->nwl ? job_cell_at(j, src, w) : NULL;
    if (!c || st->n <= 0)
        return;
    job_cell_reset(c);
    c->state = JOB_DONE;
    c->stats = c->said = *st;
    c->real = true; /* as it was saved */
}

bool job_cell_live(const struct jobs *j, int src, int w)
{
    const struct job_cell *c = j->cells[src] ? &j->cells[src][w] : NULL;
    return c && (c->state == JOB_RUNNING || c->state == JOB_STOPPING);
}

const struct pmda_job *jobs_guest_job(const struct jobs *j,
                                      const struct source_model *m, int w)
{
    for (int i = 0; i < m->njobs; i++)
        if (strcmp(m->job[i].name, j->wl[w]->name) == 0)
            return &m->job[i];
    return NULL;
}

void job_stats_of(struct wl_stats *st, const struct pmda_job *pj)
{
    *st = job_blank.stats;
    st->n = pj->n;
    if (pj->n > 0) {
        st->median = pj->median;
        st->min = pj->min;
        st->max = pj->max;
        st->mean = pj->mean;
        st->ci95 = (pj->ci_hi - pj->ci_lo) / 2;
    }
}

/* The figures a recording (or an agent) gives of workload w, into the
 * cell of the recorded column src: progress, statistics, why it failed,
 * the details (extras text), a latency workload's distribution. */
void jobs_set_recorded(struct jobs *j, int src, int w,
                       const struct pmda_job *pj, const char *extras,
                       const char *hist)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? job_cell_at(j, src, w) : NULL;
    if (!c)
        return;
    *c = job_blank;
    if (!pj)
        return;
    c->live = pj->figure;
    c->repeat = pj->repeats_done;
    c->repeats = pj->repeats;
    job_stats_of(&c->stats, pj);
    if (pj->n > 0) {
        c->last.figure = pj->figure;
        wl_extras_parse(extras, &c->last);
        /* by the source's clock, as the agent gave it */
        lat_hist_parse(hist, &c->last.hist);
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

bool jobs_settling(const struct jobs *j)
{
    for (int src = 0; src < SESSION_MAX_SOURCES; src++)
        for (int w = 0; j->cells[src] && w < j->nwl; w++)
            if (j->cells[src][w].mapping || job_vcpu_pending(&j->cells[src][w]))
                return true;
    return false;
}

void jobs_mark_failed(struct jobs *j, int src, int w, const char *note)
{
    struct job_cell *c = w >= 0 && w < j->nwl ? job_cell_at(j, src, w) : NULL;
    if (!c || c->state == JOB_RUNNING || c->state == JOB_STOPPING)
        return;
    job_cell_reset(c);
    c->state = JOB_FAILED;
    snprintf(c->note, sizeof(c->note), "%s", note);
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
            if (job_cell_live(j, src, i) && !(own && j->cells[src][i].foreign))
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
