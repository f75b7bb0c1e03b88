/* A session and jobs built in memory for the report tests: this host and
 * one guest fed synthetic samples (no threads, no PCP), four workloads
 * finished on both (one with a spread in the hundreds), two failed on the
 * guest (one with a long note), sched results with their fairness extras
 * on both (the guest's read back from the text form pmdaparallax
 * exports), and sleep results on both. Everything in it is fixed, so
 * reports of it are too (bar the date and version lines). */
#ifndef PARALLAX_TEST_REPORT_FIXTURE_H
#define PARALLAX_TEST_REPORT_FIXTURE_H

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "sample_fixture.h"
#include "session/jobs.h"
#include "session/session.h"
#include "workloads/extras.h"

#define FIX_UNUSED __attribute__((unused))

/* Why pipe-lat failed on the guest: longer than any table should be. */
#define FIX_LONG_NOTE                                                          \
    "No permission to perform requested operation: pmcd on "                   \
    "127.0.0.1:44322 refuses stores from this host; add the line 'allow "      \
    "\"10.0.2.2\" : store;' to the [access] section of "                       \
    "/etc/pcp/pmcd/pmcd.conf on the guest, then run 'pmsignal -a -s HUP "      \
    "pmcd' there"

/* A sample at host time t: counters that grow by `scale` per second. */
static struct sample fix_sample(double t, double scale, double skew)
{
    struct sample s = fix_sample_at(t);
    s.t_real = 1.7e9 + t;
    s.t_source = s.t_real + skew * (1 + t * 1e-5); /* offset, +10 ppm */
    snprintf(s.info.host, sizeof(s.info.host), "%s",
             scale > 1 ? "pcpguest" : "myhost");
    snprintf(s.info.release, sizeof(s.info.release), "6.1.0-18-amd64");
    s.info.ncpu = scale > 1 ? 1 : 2;
    s.info.mem_bytes = scale > 1 ? 1073741824.0 : 8.0 * 1073741824.0;
    s.info.pmda = scale > 1;
    for (int i = 0; i < METRIC_COUNT; i++) {
        s.count[i] = (uint64_t)(t * 100 * scale * (i + 1));
        s.value[i] = 0.5 * (i + 1) * scale;
    }
    /* CPU ms per second in each state, adding up to ncpu x 1000 */
    static const int cpu[] = {
        METRIC_CPU_USER,   METRIC_CPU_SYS, METRIC_CPU_NICE, METRIC_CPU_IDLE,
        METRIC_CPU_IOWAIT, METRIC_CPU_IRQ, METRIC_CPU_STEAL};
    static const double host_ms[] = {240, 80, 10, 1600, 40, 24, 6};
    static const double guest_ms[] = {500, 150, 0, 250, 60, 22, 18};
    for (size_t k = 0; k < sizeof(cpu) / sizeof(cpu[0]); k++)
        s.count[cpu[k]] =
            (uint64_t)(t * (scale > 1 ? guest_ms[k] : host_ms[k]));
    s.value[METRIC_MEM_USED] = 512e6 * scale;
    s.probe.count = 3;
    s.probe.sleep_req = 0.010;
    s.probe.sleep_took = scale > 1 ? 0.0125 : 0.0101;
    s.probe.spin_wall = 0.2;
    s.probe.spin_cpu = scale > 1 ? 0.23 : 0.2;
    return s;
}

static void fix_feed(struct source_model *m, double scale, double skew)
{
    for (int k = 0; k < 20; k++) {
        struct sample s = fix_sample(100 + k, scale, skew);
        model_update(m, &s);
    }
}

static int fix_wl(const struct jobs *j, const char *name)
{
    for (int w = 0; w < j->nwl; w++)
        if (strcmp(j->wl[w]->name, name) == 0)
            return w;
    return -1;
}

static void fix_cell(struct jobs *j, int src, const char *name,
                     enum job_state st, const double *fig, int n)
{
    int w = fix_wl(j, name);
    struct job_cell *c = &j->cells[src][w];
    c->state = st;
    c->live = NAN;
    c->repeat = c->repeats = n;
    stats_compute(fig, n, &c->stats);
    /* timed on the host's clock; a guest's kept it within 0.1% */
    c->said = c->stats;
    c->real = n > 0;
    c->placement = n > 0 ? 0 : -1;
    c->rate = n > 0 ? 1 : NAN;
    c->rate_err = src == 0 ? 0 : 1e-3;
}

/* The guest's clock ran at `rate` over cell w's run: its own figures of
 * a time per operation were `rate` of the real ones. */
static void fix_slow_clock(struct jobs *j, int src, const char *name,
                           double rate)
{
    struct job_cell *c = &j->cells[src][fix_wl(j, name)];
    double said[3];
    for (int i = 0; i < c->stats.n && i < 3; i++)
        said[i] = (i == 0   ? c->stats.min
                   : i == 1 ? c->stats.median
                            : c->stats.max) *
                  rate;
    stats_compute(said, c->stats.n < 3 ? c->stats.n : 3, &c->said);
    c->rate = rate;
}

static void fix_blank_cells(struct jobs *j, int src)
{
    j->cells[src] = calloc(JOBS_MAX_WL, sizeof(struct job_cell));
    for (int w = 0; w < JOBS_MAX_WL; w++) {
        struct job_cell *c = &j->cells[src][w];
        c->live = NAN;
        stats_compute(NULL, 0, &c->stats);
        c->said = c->stats;
        c->placement = c->cpu = -1;
        c->rate = c->rate_err = c->real_s = c->said_s = NAN;
        c->store_t[0] = c->store_t[1] = c->ran_t = c->done_t = NAN;
        c->bracket_ok = true;
    }
}

static void fix_extra(struct wl_result *r, const char *name, const char *unit,
                      double v)
{
    struct wl_extra *x = &r->extra[r->nextra++];
    snprintf(x->name, sizeof(x->name), "%s", name);
    snprintf(x->unit, sizeof(x->unit), "%s", unit);
    x->value = v;
}

static void fix_sched(struct jobs *j)
{
    static const double fig[] = {1.04, 1.02, 1.06};
    fix_cell(j, 0, "sched", JOB_DONE, fig, 3);
    struct wl_result *r = &j->cells[0][fix_wl(j, "sched")].last;
    r->figure = 1.06;
    fix_extra(r, "cpus shared", "", 2);
    fix_extra(r, "j1 wall total", "s", 3.0);
    fix_extra(r, "j1 user total", "s", 2.98);
    fix_extra(r, "jN wall expected", "s", 1.5);
    fix_extra(r, "jN wall actual", "s", 1.59);
    fix_extra(r, "jN user total", "s", 3.01);
    fix_extra(r, "jain index (throughput)", "", 0.987);
    static const double wall[] = {1.45, 1.52, 1.59};
    static const double user[] = {1.0, 1.0, 1.01};
    for (int k = 0; k < 3; k++) {
        char n[32];
        snprintf(n, sizeof(n), "task %d jN wall", k + 1);
        fix_extra(r, n, "s", wall[k]);
        snprintf(n, sizeof(n), "task %d jN user", k + 1);
        fix_extra(r, n, "s", user[k]);
    }
}

/* The guest's sched repeat as pmdaparallax exports it: 1 CPU, slower. */
static void fix_guest_sched(struct jobs *j)
{
    static const double fig[] = {1.2, 1.25};
    fix_cell(j, 1, "sched", JOB_DONE, fig, 2);
    wl_extras_parse("cpus shared\t\t1\n"
                    "j1 wall total\ts\t6\n"
                    "j1 user total\ts\t5.5\n"
                    "jN wall expected\ts\t6\n"
                    "jN wall actual\ts\t7.5\n"
                    "jN user total\ts\t5.7\n"
                    "jain index (throughput)\t\t0.9\n"
                    "task 1 jN wall\ts\t5.5\n"
                    "task 1 jN user\ts\t1.9\n"
                    "task 2 jN wall\ts\t7.5\n"
                    "task 2 jN user\ts\t1.9\n"
                    "task 3 jN wall\ts\t6.5\n"
                    "task 3 jN user\ts\t1.9\n",
                    &j->cells[1][fix_wl(j, "sched")].last);
}

/* Sleep results: the guest oversleeps 1 ms sleeps by 2 ms and 1 s ones by
 * 0.5 s on its own clock. */
static void fix_sleep(struct jobs *j)
{
    static const double fig[] = {60, 61, 59};
    static const double over[2][6] = {{55, 80, 60, 90, 70, 120},
                                      {2000, 3000, 2500, 4000, 5e5, 6e5}};
    static const char *const names[] = {"1ms", "10ms", "1s"};
    for (int src = 0; src < 2; src++) {
        fix_cell(j, src, "sleep", JOB_DONE, fig, 3);
        struct wl_result *r = &j->cells[src][fix_wl(j, "sleep")].last;
        for (int d = 0; d < 3; d++) {
            char n[32];
            snprintf(n, sizeof(n), "%s overshoot mean", names[d]);
            fix_extra(r, n, "us", over[src][2 * d]);
            snprintf(n, sizeof(n), "%s overshoot p99", names[d]);
            fix_extra(r, n, "us", over[src][2 * d + 1]);
        }
    }
}

/* Builds the fixture into freshly allocated *s and *j. */
static FIX_UNUSED void fix_build(struct session **sp, struct jobs **jp)
{
    struct session *s = calloc(1, sizeof(*s));
    struct jobs *j = calloc(1, sizeof(*j));
    s->interval = 1.0;
    s->nsrc = 2;
    model_init(&s->model[0], "host", NULL);
    model_init(&s->model[1], "guest1", "127.0.0.1:44322");
    fix_feed(&s->model[0], 1, 0);
    fix_feed(&s->model[1], 3, 0.014);
    jobs_init(j);
    fix_blank_cells(j, 0);
    fix_blank_cells(j, 1);
    static const double h_null[] = {110, 111, 109}, g_null[] = {590, 596, 584};
    static const double h_pipe[] = {52e3, 51e3, 53e3}, g_pipe[] = {21e3, 20e3};
    static const double h_dhry[] = {2.5e7, 2.6e7, 2.55e7};
    fix_cell(j, 0, "syscall-null", JOB_DONE, h_null, 3);
    fix_cell(j, 1, "syscall-null", JOB_DONE, g_null, 3);
    fix_cell(j, 0, "pipe-tput", JOB_DONE, h_pipe, 3);
    fix_cell(j, 1, "pipe-tput", JOB_STOPPED, g_pipe, 2);
    fix_cell(j, 0, "dhry", JOB_DONE, h_dhry, 3);
    fix_cell(j, 1, "dhry", JOB_FAILED, NULL, 0);
    snprintf(j->cells[1][fix_wl(j, "dhry")].note, 256, "the guest went down");
    /* a spread of 248 us on the guest: between 100 and 999 */
    static const double h_fork[] = {184, 190, 178};
    static const double g_fork[] = {1400, 1600, 1500};
    fix_cell(j, 0, "fork-exit", JOB_DONE, h_fork, 3);
    fix_cell(j, 1, "fork-exit", JOB_DONE, g_fork, 3);
    fix_slow_clock(j, 1, "fork-exit", 0.3643); /* the seed's 10 s in 27.45 */
    j->cells[1][fix_wl(j, "fork-exit")].overlap = 1; /* ran beside the host */
    static const double h_lat[] = {9.1, 9.3, 9.0};
    fix_cell(j, 0, "pipe-lat", JOB_DONE, h_lat, 3);
    fix_cell(j, 1, "pipe-lat", JOB_FAILED, NULL, 0);
    snprintf(j->cells[1][fix_wl(j, "pipe-lat")].note, 256, "%s", FIX_LONG_NOTE);
    fix_sched(j);
    fix_guest_sched(j);
    fix_sleep(j);
    *sp = s;
    *jp = j;
}

/* The fixture's meta: a fixed time and the host's clocksource. */
static FIX_UNUSED struct report_meta fix_meta(void)
{
    struct report_meta m;
    memset(&m, 0, sizeof(m));
    m.when = 1700000000;
    m.clocksource[0] = "tsc";
    return m;
}

static FIX_UNUSED void fix_free(struct session *s, struct jobs *j)
{
    jobs_free(j);
    free(j);
    free(s);
}

#endif
