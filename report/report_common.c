/* See report_common.h. */
#include "report/report_common.h"

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

const char *report_clocksource(const struct report_meta *meta, int src)
{
    const char *cs = meta ? meta->clocksource[src] : NULL;
    return cs && *cs ? cs : "?";
}
