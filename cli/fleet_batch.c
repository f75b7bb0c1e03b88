/* See fleet_batch.h. The same poller, model, view and run as the fleet
 * screen; the loop waits on their wake pipe with a short timeout. */
#include "cli/fleet_batch.h"
#include "cli/report_out.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/clock.h"
#include "collectors/sampler.h"
#include "fleet/fleet_poll.h"
#include "fleet/fleet_run.h"
#include "fleet/http.h"
#include "report/fleet_report.h"
#include "report/report.h"
#include "runner/suites.h"
#include "view/fleet_view.h"

#define FIRST_WAIT 20.0 /* s for pmproxy's first answer with rates */
#define DOWN_WAIT  5.0  /* s of polls failing before giving up */

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    stop_requested = sig;
}

struct fleet_batch {
    struct fleet_model m;
    struct fleet_view v;
    struct fleet_run run;
    struct fleet_poll *poll;
    int wake[2];
};

/* Waits up to `timeout` s for news and folds them in. */
static void step(struct fleet_batch *b, double timeout)
{
    struct pollfd pfd = {.fd = b->wake[0], .events = POLLIN};
    poll(&pfd, 1, (int)ceil(timeout * 1000));
    char drain[64];
    while (read(b->wake[0], drain, sizeof(drain)) > 0)
        ;
    double now = clock_mono();
    const struct fleet_raw *raw = fleet_poll_take(b->poll);
    if (raw)
        fleet_model_update(&b->m, raw, now);
    else
        fleet_model_age(&b->m, now);
    fleet_run_update(&b->run, &b->m, now);
}

static void progress(const struct fleet_run *r)
{
    struct fleet_run_counts c;
    fleet_run_count(r, &c);
    fprintf(stderr,
            "parallax: fleet run %s: %d running, %d done, %d failed, %d "
            "queued of %d sources\n",
            r->what, c.active, c.done, c.failed, c.queued, r->n);
}

/* The reports: o->output and the JSON next to it, stdout alone (-o -), or
 * stdout and the pair in the report directory (cli/report_out.h). 0 or -1
 * (said on stderr). */
static int write_reports(const struct options *o, struct fleet_batch *b)
{
    char clk[64];
    struct report_meta meta;
    report_meta_now(&meta, clk, sizeof(clk));
    struct fleet_report_of a = {&b->v, &b->m, &b->run};
    struct report_pair p = fleet_report_pair(&a);
    return report_out_write(o->output, o->report_dir, &p, &meta);
}

/* Starts the run on the guests shown; 0, 2 for bad input, 1 when the
 * fleet never answered. */
static int start(const struct options *o, struct fleet_batch *b)
{
    char err[512];
    double begin = clock_mono();
    while (!fleet_model_ready(&b->m) && clock_mono() < begin + FIRST_WAIT &&
           !stop_requested) {
        step(b, 0.5);
        if (b->m.link == FLEET_LINK_DOWN && clock_mono() > begin + DOWN_WAIT)
            break; /* pmproxy is not there (yet): no point waiting longer */
    }
    if (b->m.link != FLEET_LINK_UP || b->m.nlive == 0) {
        fprintf(stderr, "parallax: no fleet at %s: %s\n", o->fleet,
                b->m.link == FLEET_LINK_UP ? "no source is live"
                : b->m.link == FLEET_LINK_DOWN && b->m.error[0] ? b->m.error
                : b->m.note[0]                                  ? b->m.note
                                                                : "no answer");
        return 1;
    }
    fleet_view_build(&b->v, &b->m, &b->run);
    int *chosen = malloc(sizeof(int) * (size_t)(b->v.nrows + 1));
    int n = chosen ? fleet_view_chosen(&b->v, chosen, b->v.nrows) : 0;
    int rc = fleet_run_start(&b->run, &b->m, chosen, n, o->batch, o->repeats,
                             o->fleet_jobs, err, sizeof(err));
    free(chosen);
    if (rc < 0) {
        fprintf(stderr, "parallax: --batch: %s\n", err);
        return 2;
    }
    b->v.wl = b->run.wl[b->run.nwl - 1];
    return 0;
}

int fleet_batch_run(const struct options *o)
{
    static struct fleet_batch b;
    char err[256];
    struct sigaction sa = {.sa_handler = on_stop};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    const struct workload *wl[FLEET_WL_MAX];
    char why[400];
    if (suite_or_list_resolve(o->batch, wl, FLEET_WL_MAX, why, sizeof(why)) <
        0) { /* before anything starts */
        fprintf(stderr, "parallax: --batch: %s\n", why);
        return 2;
    }
    if (report_out_check(o->output, why, sizeof(why)) < 0) {
        fprintf(stderr, "parallax: %s\n", why); /* known before the run */
        return 2;
    }
    fleet_view_init(&b.v);
    if (o->fleet_filter && fleet_filter_parse(o->fleet_filter, &b.v.filter, err,
                                              sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    if (o->fleet_filter)
        snprintf(b.v.filter_text, sizeof(b.v.filter_text), "%s",
                 o->fleet_filter);
    char herr[256];
    if (http_global_init(herr, sizeof(herr)) < 0) {
        fprintf(stderr, "parallax: %s\n", herr);
        return 1;
    }
    if (pipe2(b.wake, O_NONBLOCK | O_CLOEXEC) < 0) {
        fprintf(stderr, "parallax: cannot set up the network client\n");
        return 1;
    }
    fleet_model_init(&b.m, o->fleet, o->interval);
    fleet_run_set_wake(&b.run, b.wake[1]);
    fleet_run_set_lease(&b.run, o->lease);
    b.poll = fleet_poll_start(o->fleet, o->interval, b.wake[1]);
    int rc = b.poll ? start(o, &b) : 1;
    if (rc == 0) {
        double next_line = 0;
        while (b.run.active) {
            if (stop_requested)
                fleet_run_stop(&b.run);
            step(&b, 0.25);
            if (clock_mono() >= next_line) { /* one line a second at most */
                progress(&b.run);
                next_line = clock_mono() + 1;
            }
        }
        progress(&b.run);
        struct fleet_run_counts c;
        fleet_run_count(&b.run, &c);
        for (int k = 0; k < b.run.n; k++)
            if (b.run.m[k].state == FM_FAILED)
                fprintf(stderr, "parallax: %s: %s\n",
                        b.m.src[b.run.m[k].src].lab.name, b.run.m[k].note);
        fleet_view_build(&b.v, &b.m, &b.run);
        rc = c.done == b.run.n ? 0 : 1;
        /* what was measured is reported, also after failures or a signal */
        if (write_reports(o, &b) < 0)
            rc = 1;
    }
    fleet_run_free(&b.run);
    fleet_poll_stop(b.poll);
    fleet_model_free(&b.m);
    fleet_view_free(&b.v);
    close(b.wake[0]);
    close(b.wake[1]);
    return stop_requested ? 128 + stop_requested : rc;
}
