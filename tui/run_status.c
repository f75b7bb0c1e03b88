/* See run_status.h. A suite is running while its queue has workloads left
 * or its last one still runs; jobs drops the queue (qlen 0) when a start
 * fails or x stops everything. */
#include "tui/run_status.h"

#include <stdio.h>
#include <string.h>

int run_status_suite_at(const struct jobs *j)
{
    if (j->qlen <= 0 || j->qpos <= 0)
        return -1;
    int w = j->queue[j->qpos - 1];
    return j->qpos < j->qlen || jobs_running(j, w) ? w : -1;
}

/* Runs of workload w that failed, on any source. */
static int failures(const struct jobs *j, int w)
{
    int n = 0;
    for (int src = 0; src < SESSION_MAX_SOURCES; src++)
        n += jobs_cell(j, src, w)->state == JOB_FAILED;
    return n;
}

static void say(struct run_status *r, char *status, size_t n, const char *text)
{
    snprintf(status, n, "%s", text);
    snprintf(r->said, sizeof(r->said), "%s", status);
}

void run_status_suite(struct run_status *r, const char *name, int len,
                      char *status, size_t n)
{
    r->watch = RS_SUITE;
    r->wl = -1;
    r->len = len;
    snprintf(r->suite, sizeof(r->suite), "%s", name);
    char text[RUN_STATUS_MAX];
    snprintf(text, sizeof(text),
             "running the %s suite, %d workloads one after another (x stops)",
             name, len);
    say(r, status, n, text);
}

void run_status_one(struct run_status *r, const struct jobs *j, int w,
                    char *status, size_t n)
{
    r->watch = RS_ONE;
    r->wl = w;
    char text[RUN_STATUS_MAX];
    snprintf(text, sizeof(text), "started %s", j->wl[w]->name);
    say(r, status, n, text);
}

/* The suite's news: where it is, or how it ended. */
static void suite_news(struct run_status *r, const struct jobs *j, char *text,
                       size_t n)
{
    int at = run_status_suite_at(j);
    if (at >= 0) {
        r->wl = at;
        snprintf(text, n, "running the %s suite: %d/%d %s (x stops)", r->suite,
                 j->qpos, r->len, j->wl[at]->name);
        return;
    }
    int failed = 0, done = j->qlen > 0 ? j->qlen : 0;
    for (int i = 0; i < done; i++)
        failed += failures(j, j->queue[i]);
    if (j->qlen == 0) /* dropped: stopped, or a start failed */
        snprintf(text, n, "the %s suite stopped before its end", r->suite);
    else if (failed)
        snprintf(text, n, "the %s suite ended: %d workloads, %d run%s failed",
                 r->suite, done, failed, failed == 1 ? "" : "s");
    else
        snprintf(text, n, "the %s suite ended: %d workloads", r->suite, done);
    r->watch = RS_NONE;
}

bool run_status_update(struct run_status *r, const struct jobs *j, char *status,
                       size_t n)
{
    if (r->watch == RS_NONE || strcmp(status, r->said) != 0) {
        r->watch = RS_NONE; /* something else has the line now */
        return false;
    }
    char text[RUN_STATUS_MAX];
    if (r->watch == RS_SUITE) {
        suite_news(r, j, text, sizeof(text));
    } else if (jobs_running(j, r->wl)) {
        return false;
    } else {
        int failed = failures(j, r->wl);
        if (failed)
            snprintf(text, sizeof(text), "%s ended: failed on %d source%s",
                     j->wl[r->wl]->name, failed, failed == 1 ? "" : "s");
        else
            snprintf(text, sizeof(text), "%s ended", j->wl[r->wl]->name);
        r->watch = RS_NONE;
    }
    if (strcmp(text, status) == 0)
        return false;
    say(r, status, n, text);
    return true;
}
