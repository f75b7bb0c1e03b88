/* See batch.h. The same session, jobs and report writers as the screen;
 * only the driver differs: workloads start one after another, on one
 * source after another unless --overlap (runs on the same CPUs disturb
 * each other), and the loop waits on the samplers' wake pipe with a short
 * timeout so runs are polled as they progress. A run that fails, or a
 * source that cannot take one, is noted in its cell and counted; the
 * batch goes on. */
#include "cli/batch.h"
#include "base/clock.h"

#include <errno.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli/archives.h"
#include "cli/csv_out.h"
#include "cli/front_start.h"
#include "cli/quit_signals.h"
#include "cli/report_out.h"
#include "guest/demo_guests.h"
#include "report/report.h"
#include "runner/suites.h"
#include "session/host_probe.h"
#include "session/jobs.h"
#include "session/session.h"
#include "workloads/registry.h"

#define FIRST_ANSWER_WAIT 15.0 /* s for every guest's first answer */
#define SETTLE_FETCHES    5    /* fetches the last stamps may wait for */

static volatile sig_atomic_t stop_requested;
static struct archives archives; /* -a and --record */
static struct csv_out csv;       /* -F FILE: each refresh as CSV */

static void on_stop(int sig)
{
    stop_requested = sig;
}

/* The catalogue indexes (in j) of a suite or a comma list of workloads.
 * Returns how many, or -1 with the valid choices in err. */
static int resolve(const struct jobs *j, const char *what, int *out, char *err,
                   size_t errlen)
{
    const struct workload *wl[JOBS_MAX_WL];
    char why[400];
    int n = suite_or_list_resolve(what, wl, JOBS_MAX_WL, why, sizeof(why));
    if (n < 0) {
        snprintf(err, errlen, "--batch: %s", why);
        return -1;
    }
    for (int i = 0; i < n; i++)
        for (int w = 0; w < j->nwl; w++)
            if (j->wl[w] == wl[i])
                out[i] = w;
    return n;
}

/* Folds in samples and run progress for up to `timeout` seconds. */
static void step(struct session *s, struct jobs *j, struct host_probe *hp,
                 double timeout)
{
    struct pollfd pfd[2] = {{.fd = session_fd(s), .events = POLLIN},
                            {.fd = host_probe_fd(hp), .events = POLLIN}};
    poll(pfd, 2, (int)ceil(timeout * 1000));
    session_update(s);
    jobs_update(j, s);
    host_probe_step(hp, &s->model[0], jobs_host_busy(j));
    csv_out_tick(&csv, s, false);
    char msg[512];
    if (archives_tick(&archives, s, j, msg, sizeof(msg)))
        fprintf(stderr, "parallax: %s\n", msg);
}

/* Waits (two intervals at most) for a sample of every live source taken
 * after the runs: the recording's last records then hold their results. */
static void wait_round(struct session *s, struct jobs *j, struct host_probe *hp)
{
    unsigned long seen[SESSION_MAX_SOURCES];
    for (int i = 0; i < s->nsrc; i++)
        seen[i] = s->model[i].updates;
    double until = clock_mono() + 2 * s->interval + 0.5;
    for (bool all = false; !all && !stop_requested && clock_mono() < until;) {
        step(s, j, hp, 0.1);
        all = true;
        for (int i = 0; i < s->nsrc; i++)
            all &= session_is_fixed(s, i) || s->model[i].state == SRC_DOWN ||
                   s->model[i].updates > seen[i];
    }
}

/* Waits until every live source has rates (or is down), a while at most. */
static void wait_sources(struct session *s, struct jobs *j,
                         struct host_probe *hp)
{
    double until = clock_mono() + FIRST_ANSWER_WAIT;
    while (!stop_requested && clock_mono() < until) {
        bool ready = true;
        for (int i = 0; i < s->nsrc; i++)
            if (!session_is_fixed(s, i) && s->model[i].samples < 2 &&
                s->model[i].state != SRC_DOWN)
                ready = false;
        if (ready)
            return;
        step(s, j, hp, 0.25);
    }
}

/* True when source src runs the batch's workloads: not a baseline, not
 * left out. */
static bool takes_part(const struct session *s, const struct jobs *j, int src)
{
    return !session_is_fixed(s, src) && !j->excluded[src];
}

/* One progress line on stderr: "batch [2/6] pipe-lat: host 2/3 g1 done",
 * then how many runs failed so far, if any. */
static void progress(const struct session *s, const struct jobs *j, int k,
                     int n, int w, int failed)
{
    char line[512];
    int used =
        snprintf(line, sizeof(line), "batch [%d/%d] %s:", k, n, j->wl[w]->name);
    for (int src = 0; src < s->nsrc && used < (int)sizeof(line) - 80; src++) {
        if (!takes_part(s, j, src))
            continue;
        const struct job_cell *c = jobs_cell(j, src, w);
        static const char *const names[] = {"-",    "",        "stopping",
                                            "done", "stopped", "failed"};
        if (c->state == JOB_RUNNING)
            used +=
                snprintf(line + used, sizeof(line) - (size_t)used, " %s %d/%d",
                         s->model[src].name, c->repeat + 1, c->repeats);
        else
            used += snprintf(line + used, sizeof(line) - (size_t)used, " %s %s",
                             s->model[src].name, names[c->state]);
    }
    if (failed > 0)
        snprintf(line + used, sizeof(line) - (size_t)used,
                 " (%d run%s failed so far)", failed, failed == 1 ? "" : "s");
    fprintf(stderr, "%s%s", line, isatty(STDERR_FILENO) ? "\033[K\r" : "\n");
}

/* Why source src did not take a run of w it should have; err is why
 * jobs_start refused, when it did. */
static void why_not_started(const struct session *s, int src, const char *err,
                            char *buf, size_t n)
{
    const struct source_model *m = &s->model[src];
    if (src == 0 || (err && m->state == SRC_LIVE && m->info.pmda))
        snprintf(buf, n, "not started: %s", err ? err : "?");
    else if (m->state == SRC_DOWN)
        snprintf(buf, n, "the source is down%s%s", m->error[0] ? ": " : "",
                 m->error);
    else if (m->state == SRC_CONNECTING)
        snprintf(buf, n, "the source never answered");
    else if (!m->info.pmda)
        snprintf(buf, n,
                 "the source has no pmdaparallax; install it there "
                 "(docs/guests.md)");
    else
        snprintf(buf, n, "its start could not be queued");
}

/* Starts w on source `only`, or with only < 0 everywhere it can run;
 * where it cannot, its cell fails with the reason. False when it started
 * nowhere. */
static bool start_on(struct session *s, struct jobs *j, int w, int only)
{
    char err[256], note[320];
    bool started =
        (only < 0 ? jobs_start(j, s, w, err, sizeof(err))
                  : jobs_start_one(j, s, w, only, err, sizeof(err))) == 0;
    for (int src = 0; src < s->nsrc; src++) {
        if (!takes_part(s, j, src) || (only >= 0 && src != only) ||
            (started && jobs_cell(j, src, w)->state == JOB_RUNNING))
            continue;
        why_not_started(s, src, started ? NULL : err, note, sizeof(note));
        jobs_mark_failed(j, src, w, note);
    }
    return started;
}

/* Waits for workload w's runs to end, with a progress line. */
static void wait_runs(struct session *s, struct jobs *j, struct host_probe *hp,
                      int k, int n, int w, int failed_before)
{
    double next_line = 0;
    /* and the recorded columns' run of it, lined up with this one */
    while (
        jobs_own_running(j, w) ||
        (!stop_requested && replay_busy(&archives.replay, s, j->wl[w]->name))) {
        if (stop_requested)
            jobs_quit(j, s);
        step(s, j, hp, 0.25);
        if (clock_mono() >= next_line) { /* at most one line a second */
            progress(s, j, k, n, w, failed_before);
            next_line = clock_mono() + 1;
        }
    }
}

/* Runs workload w on every source that can take it (all at once with
 * `overlap`, else one after another) and waits for it. Returns how many
 * sources did not give its figures (each said on stderr, and noted in
 * its cell for the report). */
static int run_one(struct session *s, struct jobs *j, struct host_probe *hp,
                   bool overlap, int k, int n, int w, int failed_before)
{
    if (overlap) {
        if (start_on(s, j, w, -1))
            wait_runs(s, j, hp, k, n, w, failed_before);
    } else {
        for (int src = 0; src < s->nsrc && !stop_requested; src++)
            if (takes_part(s, j, src) && start_on(s, j, w, src))
                wait_runs(s, j, hp, k, n, w, failed_before);
    }
    int failed = 0;
    for (int src = 0; src < s->nsrc; src++) {
        const struct job_cell *c = jobs_cell(j, src, w);
        if (takes_part(s, j, src) && c->state != JOB_DONE)
            failed++;
    }
    progress(s, j, k, n, w, failed_before + failed);
    for (int src = 0; src < s->nsrc; src++) {
        const struct job_cell *c = jobs_cell(j, src, w);
        if (takes_part(s, j, src) && c->state != JOB_DONE)
            fprintf(stderr, "parallax: %s on %s: %s\n", j->wl[w]->name,
                    s->model[src].name,
                    c->note[0] ? c->note : "did not complete");
    }
    return failed;
}

/* The text report to o->output (the JSON next to it), to stdout alone
 * (-o -), or to stdout and the pair into the report directory
 * (cli/report_out.h). 0, or -1 (told on stderr). */
static int write_reports(const struct options *o, struct session *s,
                         struct jobs *j)
{
    char clk[64];
    struct report_meta meta;
    report_meta_now(&meta, clk, sizeof(clk));
    struct report_of_session r = {s, j, &meta};
    struct report_pair p = report_pair_session(&r);
    return report_out_write(o->output, o->report_dir, &p, &meta);
}

int batch_run(const struct options *o)
{
    char err[512];
    static struct session s;
    static struct jobs j;
    static struct demo_guests demos;
    struct host_probe hp;
    int order[JOBS_MAX_WL];
    quit_signals_install(on_stop); /* also HUP: a closed terminal */

    front_jobs_init(&j, o);
    int n = resolve(&j, o->batch, order, err, sizeof(err));
    if (n < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    /* a report that cannot be written is known now, not after the runs */
    if (report_out_check(o->output, err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    if (o->output_file &&
        csv_out_open(&csv, o->output_file, NULL, err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    /* a session that cannot open is bad input here too: 2 */
    if (front_start(&s, &j, &archives, o, err, sizeof(err)) != 0) {
        fprintf(stderr, "parallax: %s\n", err);
        return 2;
    }
    int rc = 0, failed = 0, runs = 0;
    /* a guest that fails or is down does not stop the others' runs */
    if (o->ndemo && demo_guests_join(&demos, &s, o->demo_variants, o->ndemo,
                                     stderr, &stop_requested) < 0)
        rc = 1;
    host_probe_init(&hp);
    wait_sources(&s, &j, &hp);
    for (int k = 0; k < n && !stop_requested; k++) {
        failed += run_one(&s, &j, &hp, o->overlap, k + 1, n, order[k], failed);
        for (int src = 0; src < s.nsrc; src++)
            runs += takes_part(&s, &j, src);
    }
    /* the last repeats' stamps are mapped by the fetch after them */
    double settle = clock_mono() + SETTLE_FETCHES * o->interval;
    while (jobs_settling(&j) && !stop_requested && clock_mono() < settle)
        step(&s, &j, &hp, 0.25);
    if (failed > 0) {
        fprintf(stderr,
                "parallax: %d of %d runs did not complete; the report "
                "notes why under its workloads table\n",
                failed, runs);
        rc = 1;
    }
    if (archives.rec)
        wait_round(&s, &j, &hp);
    archives_close(&archives);
    if (archives_failed(&archives))
        rc = 1;                   /* said when it stopped */
    csv_out_tick(&csv, &s, true); /* the last row: what the report holds */
    if (csv_out_close(&csv, err, sizeof(err)) < 0) {
        fprintf(stderr, "parallax: -F %s: %s\n", o->output_file, err);
        rc = 1;
    }
    /* what was measured is reported, also after a failure or a signal */
    if (write_reports(o, &s, &j) < 0)
        rc = 1;
    host_probe_stop(&hp);
    jobs_free(&j);
    demo_guests_stop(&demos);
    session_close(&s);
    return stop_requested ? 128 + stop_requested : rc;
}
