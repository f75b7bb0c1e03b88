/* Starting and stopping the jobs of session/jobs.h, one workload or a
 * suite. This host's runs are child processes of parallax (the runner
 * forks them in their own process groups, dying with parallax). A guest's
 * runs are started and stopped by stores into its parallax.control
 * metrics (made by the guest's sampler thread), under a lease
 * (session/job_leases.c). */
#include "session/jobs.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/diag.h"
#include "collectors/syscalls_switch.h"
#include "runner/suites.h"
#include "session/job_parts.h"

static int start_host(struct jobs *j, int w, char *err, size_t errlen)
{
    struct job_cell *c = job_cell_at(j, JOBS_HOST, w);
    if (!c) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    wl_run_free(j->host_run[w]);
    syscalls_host_busy(true); /* the counter closes before the run starts */
    j->host_run[w] = wl_run_start(j->wl[w], NULL, &j->opts, err, errlen);
    if (!j->host_run[w])
        return -1;
    job_cell_reset(c);
    c->state = JOB_RUNNING;
    c->repeats = j->opts.repeats;
    c->cpu = j->opts.cpu;
    return 0;
}

bool jobs_wants_ticks(const struct source_model *m)
{
    return m->rates.unsteady || !m->rates.recent.ok;
}

/* Asks a guest's pmdaparallax to start w; false when it cannot. */
static bool start_guest(struct jobs *j, const struct session *s, int src, int w)
{
    const struct source_model *m = &s->model[src];
    struct job_cell *c = job_cell_at(j, src, w);
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
    bool leased = jobs_lease_arg(j, m, src, cmd + n, sizeof(cmd) - (size_t)n);
    bool ticks = jobs_wants_ticks(m);
    if (ticks) /* its clock ticks from the start on */
        session_watch(s, src, true);
    unsigned id = session_store(s, src, "parallax.control.start", cmd);
    if (!id)
        return false;
    const struct pmda_job *pj = jobs_guest_job(j, m, w);
    job_cell_reset(c);
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
        int src = jobs_first_remote(s);
        while (src < s->nsrc && !(j->cells[src] && j->cells[src][w].foreign &&
                                  job_cell_live(j, src, w)))
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
    if (!j->excluded[JOBS_HOST] && jobs_first_remote(s) == 1) {
        if (start_host(j, w, err, errlen) < 0)
            return -1;
        started++;
    }
    for (int src = jobs_first_remote(s); src < s->nsrc; src++)
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
    if (src == JOBS_HOST)
        return start_host(j, w, err, errlen);
    if (!start_guest(j, s, src, w)) {
        snprintf(err, errlen, "%s cannot take it: down, or no pmdaparallax",
                 s->model[src].name);
        return -1;
    }
    return 0;
}

void jobs_stop(struct jobs *j, const struct session *s, int w)
{
    if (w < 0 || w >= j->nwl)
        return;
    if (jobs_running(j, w))
        DIAG(DIAG_INFO, "%s: stopping", j->wl[w]->name);
    if (j->host_run[w] && !wl_run_state_final(wl_run_poll(j->host_run[w]))) {
        wl_run_stop(j->host_run[w]);
        struct job_cell *c = job_cell_at(j, JOBS_HOST, w);
        if (c)
            c->state = JOB_STOPPING;
    }
    for (int src = jobs_first_remote(s); src < s->nsrc; src++) {
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

void jobs_quit(struct jobs *j, const struct session *s)
{
    j->qlen = j->qpos = 0;
    for (int w = 0; w < j->nwl; w++) {
        if (j->host_run[w])
            wl_run_stop(j->host_run[w]);
        for (int src = jobs_first_remote(s); src < s->nsrc; src++) {
            struct job_cell *c = j->cells[src] ? &j->cells[src][w] : NULL;
            if (c && c->state == JOB_RUNNING && !c->foreign) {
                c->store_id = session_store(s, src, "parallax.control.stop",
                                            j->wl[w]->name);
                c->state = JOB_STOPPING;
            }
        }
    }
    jobs_renew_leases(j, s); /* none: nothing of ours runs on any more */
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
