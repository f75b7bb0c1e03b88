/* See report_common.h. */
#include "report/report_common.h"

#include <stdio.h>
#include <string.h>

const char *report_state_name(enum source_state st)
{
    switch (st) {
    case SRC_CONNECTING:
        return "connecting";
    case SRC_LIVE:
        return "live";
    case SRC_DOWN:
        break;
    }
    return "down";
}

const char *report_job_state_name(enum job_state st)
{
    static const char *const names[] = {
        [JOB_IDLE] = "idle",         [JOB_RUNNING] = "running",
        [JOB_STOPPING] = "stopping", [JOB_DONE] = "done",
        [JOB_STOPPED] = "stopped",   [JOB_FAILED] = "failed",
    };
    return st <= JOB_FAILED ? names[st] : "?";
}

bool report_wl_ran(const struct jobs *j, int nsrc, int w)
{
    for (int src = 0; src < nsrc; src++)
        if (jobs_cell(j, src, w)->state != JOB_IDLE)
            return true;
    return false;
}

const struct wl_result *report_fairness(const struct jobs *j)
{
    for (int w = 0; w < j->nwl; w++) {
        const struct job_cell *c = jobs_cell(j, 0, w);
        if (strcmp(j->wl[w]->name, "sched") == 0 && c->last.nextra > 0)
            return &c->last;
    }
    return NULL;
}

void report_placement(const struct job_cell *c, char *buf, size_t n)
{
    static const char *const names[] = {"any", "same", "split"};
    const char *p =
        c->placement >= 0 && c->placement <= 2 ? names[c->placement] : "?";
    if (c->cpu >= 0)
        snprintf(buf, n, "%s@cpu%d", p, c->cpu);
    else
        snprintf(buf, n, "%s", p);
}

void report_taken(const struct session *s, const struct job_cell *c, char *buf,
                  size_t n)
{
    size_t used = (size_t)snprintf(buf, n, "%s", c->overlap ? "with" : "alone");
    for (int src = 0; src < s->nsrc && src < 64 && used < n; src++)
        if (c->overlap & ((uint64_t)1 << src))
            used += (size_t)snprintf(buf + used, n - used, "%s%s",
                                     used > 4 ? "," : " ", s->model[src].name);
}

int report_overlapped(const struct session *s, const struct jobs *j)
{
    int k = 0;
    for (int w = 0; w < j->nwl; w++)
        for (int src = 0; src < s->nsrc; src++) {
            const struct job_cell *c = jobs_cell(j, src, w);
            k += c->overlap && c->stats.n > 0;
        }
    return k;
}

const char *report_clocksource(const struct report_meta *meta, int src)
{
    const char *cs = meta ? meta->clocksource[src] : NULL;
    return cs && *cs ? cs : "?";
}
