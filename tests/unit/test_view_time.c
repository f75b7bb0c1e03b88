/* The Time lines beyond the clock rows: extras survive the text form
 * pmdaparallax exports them in; the sleep workload's sleeps are shown as
 * the source's clock measured them and as the host saw them through the
 * clock model (a guest clock running at 10/27 of real time turns 1.5 s
 * into 4.05 s); the fairness table's figures and ratios are the recorded
 * ones, ratios turned so that > 1 is worse in the guest. Column headers
 * shorten to what matters in a narrow column. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "tests/near.h"

#include "report_fixture.h"
#include "view/view_jobs.h"
#include "view/view_time.h"

static void test_extras_round_trip(void **state)
{
    (void)state;
    struct wl_result a = {0}, b = {0};
    fix_extra(&a, "jain index (throughput)", "", 0.98765432101234567);
    fix_extra(&a, "task 1 jN wall", "s", 1e-9);
    fix_extra(&a, "1s overshoot p99", "us", -3.5);
    char text[WL_EXTRAS_TEXT_MAX];
    wl_extras_format(&a, text, sizeof(text));
    assert_int_equal(wl_extras_parse(text, &b), 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(a.extra[i].name, b.extra[i].name);
        assert_string_equal(a.extra[i].unit, b.extra[i].unit);
        assert_true(a.extra[i].value == b.extra[i].value); /* bit for bit */
    }
    assert_near(wl_extra(&b, "1s overshoot p99"), -3.5, 0);
    assert_true(isnan(wl_extra(&b, "no such")));
}

static void test_extras_bad_lines_and_room(void **state)
{
    (void)state;
    struct wl_result r = {0};
    assert_int_equal(wl_extras_parse("no tabs\nname\tunit\n"
                                     "x\t\tnot a number\ny\ts\t2.5\n"
                                     "z\ts\t1.5junk\n",
                                     &r),
                     1);
    assert_string_equal(r.extra[0].name, "y");
    assert_int_equal(wl_extras_parse("", &r), 0);
    /* a buffer too small holds whole lines only */
    struct wl_result a = {0};
    fix_extra(&a, "first", "s", 1);
    fix_extra(&a, "second", "s", 2);
    char small[16];
    wl_extras_format(&a, small, sizeof(small));
    assert_string_equal(small, "first\ts\t1\n");
}

/* The guest's clock runs at `rate` of the host's: its timestamps are
 * rate * host time. */
static void feed_clock(struct source_model *m, double rate)
{
    model_init(m, "guest1", "127.0.0.1:44322");
    for (int k = 0; k < 60; k++) {
        struct sample s = fix_sample(100 + k, 3, 0);
        s.t_source = 1.7e9 + (100 + k) * rate;
        model_update(m, &s);
    }
}

static const struct time_line *find(const struct time_line *tl, int n,
                                    const char *label)
{
    for (int i = 0; i < n; i++)
        if (strcmp(tl[i].label, label) == 0)
            return &tl[i];
    fail_msg("no line \"%s\"", label);
    return NULL;
}

static void test_sleep_host_saw(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    feed_clock(&s->model[1], 10.0 / 27.0);
    double req, took, host;
    /* a run not timed on the host's clock: through the clock fit */
    struct job_cell *c = &j->cells[1][fix_wl(j, "sleep")];
    c->real = false;
    assert_true(view_sleep_figures(s, j, 1, 2, &req, &took, &host));
    assert_near(req, 1.0, 1e-12);
    assert_near(took, 1.5, 1e-9); /* 0.5 s overshoot, its clock */
    assert_near(host, 1.5 * 27 / 10, 0.01);
    /* timed: through the run's own rate */
    c->real = true;
    c->rate = 10.0 / 27.0;
    assert_true(view_sleep_figures(s, j, 1, 2, &req, &took, &host));
    assert_near(host, 1.5 * 27 / 10, 1e-9);
    assert_true(view_sleep_figures(s, j, 0, 2, &req, &took, &host));
    assert_true(isnan(host)); /* the host is its own reference */

    struct time_line tl[VIEW_TIME_LINES_MAX];
    int n = view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 8);
    const struct time_line *one = find(tl, n, "sleep 1s took");
    char val[32], detail[64];
    view_time_line_cell(s, j, 1, one, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "  1.500s");
    assert_string_equal(detail, "host saw 4.050s");
    view_time_line_cell(s, j, 0, one, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "  1.000s");
    assert_string_equal(detail, "p99 +120us");
    /* what the guest's sleep really took against what the host's did */
    assert_near(view_time_line_ratio(s, j, 1, one), 4.05 / 1.00007, 1e-3);
    fix_free(s, j);
}

static void test_fairness_lines(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct time_line tl[VIEW_TIME_LINES_MAX];
    int n = view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 2);
    /* 5 clock rows, 3 sleeps, a rule, 8 figures, 2 tasks of 3 shown */
    assert_int_equal(n, 5 + 3 + 1 + 8 + 4);
    assert_int_equal(tl[8].kind, TL_RULE);
    char val[32], detail[64];
    const struct time_line *tc = find(tl, n, "tasks/cpus");
    view_time_line_cell(s, j, 1, tc, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "     3/1");
    assert_true(isnan(view_time_line_ratio(s, j, 1, tc)));
    const struct time_line *ae = find(tl, n, "actual/expect");
    view_time_line_cell(s, j, 0, ae, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "   1.060"); /* 1.59 / 1.5 */
    assert_near(view_time_line_ratio(s, j, 1, ae), 1.25 / 1.06, 1e-9);
    /* a less fair guest has the lower index: worse, so above 1 */
    const struct time_line *jain = find(tl, n, "Jain index");
    assert_near(view_time_line_ratio(s, j, 1, jain), 0.987 / 0.9, 1e-9);
    const struct time_line *w2 = find(tl, n, "task 2 wall s");
    view_time_line_cell(s, j, 1, w2, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "   7.500");
    fix_free(s, j);
}

/* A guest whose clock reads `offset` s ahead of the host's and runs at
 * `rate` of real time. */
static void clock_guest(struct source_model *m, double offset, double rate)
{
    model_init(m, "guest1", "127.0.0.1:44322");
    for (int k = 0; k < 60; k++) {
        struct sample s = fix_sample(100 + k, 3, 0);
        s.t_source = s.t_real + offset + (rate - 1) * k;
        model_update(m, &s);
    }
}

struct clock_case {
    double offset, rate;
    const char *offset_val, *drift_val, *drift_detail, *ratio;
    bool offset_fault, drift_fault;
};

/* The clock rows in the unit that fits, faults flagged (and marked where
 * there is no colour), the drift's ratio column holding the clock's rate:
 * a day ahead once read +8640000 (a digit lost), 5 s glued to the cell
 * before it, a drift of 4.8e8 ppm as +4823169. */
static void test_clock_rows(void **state)
{
    (void)state;
    static const struct clock_case cases[] = {
        {86400, 1, " +1.000d", "      +0", "+-", " 1.0000", true, false},
        {5, 1, " +5.000s", "      +0", "+-", " 1.0000", true, false},
        {2e-4, 1.0001, "  +200us", "    +100", "+-", " 1.0001", false, false},
        {0, 1.001, "     +0s", "   +1000", "+-", " 1.0010", false, true},
        {0, 1.02, "    +0s", " x1.0200", "fast", " 1.0200", false, true},
        {0, 0.3643, "    +0s", "  x0.364", "slow", "  0.364", false, true},
        {0, 415, "    +0s", "    x415", "fast", "    415", false, true},
        {0, 4.82e8, "    +0s", " x4.82e8", "fast", " 4.82e8", false, true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        const struct clock_case *c = &cases[i];
        struct source_model m, host;
        clock_guest(&m, c->offset, c->rate);
        model_init(&host, "host", "");
        char val[32], detail[64], ratio[16];
        bool fault = view_time_cell(&m, false, TR_DRIFT, val, sizeof(val),
                                    detail, sizeof(detail), false);
        if (strcmp(val, c->drift_val) || fault != c->drift_fault ||
            strncmp(detail, c->drift_detail, strlen(c->drift_detail)) ||
            (detail[0] == '+' && !strstr(detail, "ppm")))
            fail_msg("rate %g: drift '%s' '%s' %d", c->rate, val, detail,
                     fault);
        view_ratio_text(view_time_ratio(&m, &host, TR_DRIFT),
                        view_time_ratio_kind(TR_DRIFT), ratio, sizeof(ratio));
        if (strcmp(ratio, c->ratio))
            fail_msg("rate %g: ratio '%s'", c->rate, ratio);
        if (c->rate != 1)
            continue; /* the offset grows: the first two cases check it */
        fault = view_time_cell(&m, false, TR_OFFSET, val, sizeof(val), detail,
                               sizeof(detail), false);
        if (strcmp(val, c->offset_val) || fault != c->offset_fault)
            fail_msg("offset %g: '%s' %d", c->offset, val, fault);
        view_mark_fault(val, fault);
        assert_true((strchr(val, '!') != NULL) == fault);
    }
}

/* A stock pmcd (no pmdaparallax, no probe ever) a day ahead: its clock
 * rows from pmcd's stamps as any guest's, and "no agent" where a figure
 * needs the agent (the probe, billed/wall, system calls, a workload
 * cell); a guest with the agent, or this host, never says it */
static void test_no_agent_cells(void **state)
{
    (void)state;
    static struct source_model m;
    model_init(&m, "stock", "127.0.0.1:44322");
    for (int k = 0; k < 30; k++) {
        struct sample s = fix_sample(100 + k, 3, 0);
        s.t_source = s.t_real + 86400;
        s.info.pmda = false;
        s.probe.count = 0;
        s.have[METRIC_SYSCALLS] = false;
        model_update(&m, &s);
    }
    char val[32], detail[64], spark[32];
    view_time_cell(&m, false, TR_OFFSET, val, sizeof(val), detail,
                   sizeof(detail), false);
    assert_string_equal(val, " +1.000d");
    view_time_cell(&m, false, TR_DRIFT, val, sizeof(val), detail,
                   sizeof(detail), false);
    assert_string_equal(val, "      +0");
    for (int row = TR_SLEEP; row <= TR_BILLED; row++) {
        view_time_cell(&m, false, row, val, sizeof(val), detail, sizeof(detail),
                       false);
        assert_string_equal(val, "     n/a");
        assert_string_equal(detail, "no agent");
    }
    view_metric_cell(&m, METRIC_SYSCALLS, val, sizeof(val), spark,
                     sizeof(spark), 8, false);
    assert_string_equal(spark, "no agent");
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    int w = fix_wl(j, "fork-exec"); /* never ran in the fixture */
    assert_int_equal(jobs_cell(j, 1, w)->state, JOB_IDLE);
    view_job_cell(j, &m, 1, w, val, sizeof(val), detail, sizeof(detail), false);
    assert_string_equal(detail, "no agent");
    view_job_cell(j, &s->model[1], 1, w, val, sizeof(val), detail,
                  sizeof(detail), false);
    assert_string_equal(detail, ""); /* the fixture's guest has the agent */
    /* the same with the agent, and this host: never */
    m.info.pmda = true;
    view_time_cell(&m, false, TR_BILLED, val, sizeof(val), detail,
                   sizeof(detail), false);
    assert_string_equal(detail, "");
    m.info.pmda = false;
    assert_null(view_no_agent(&m, true));
    m.probe.count = 1; /* a recording of this host: its own probes */
    assert_null(view_no_agent(&m, false));
    fix_free(s, j);
}

/* The billed/wall row with the host's view of the probe: a guest that
 * billed its spin 0.10 of the wall beyond what the host gave its vCPU
 * could not see why (fault, "off: held by host"); within that the held
 * share is only said; a view of an older probe, or none, says nothing;
 * a guest that saw it itself (billed/wall 0.50, its own run queue) keeps
 * its own cause; readings that missed the spin say so. */
static void test_probe_held_cells(void **state)
{
    (void)state;
    static const struct {
        double cpu, share;
        unsigned long of;
        bool fault;
        const char *detail;
        bool unseen;
    } cases[] = {
        {0.050, 0.50, 2, true, "off: held by host 50%", false},
        {0.050, 0.08, 2, false, "host held 8%", false},
        {0.050, 0.50, 1, false, "", false},
        {0.050, NAN, 2, false, "", false},
        {0.025, 0.50, 2, true, "off: waited 50%", false},
        {0.030, 0.65, 2, true, "off: held by host 65%", false},
        {0.050, NAN, 2, false, "host: spin unseen", true},
        {0.025, NAN, 2, true, "off: waited 50%", true},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        struct source_model m;
        model_init(&m, "g", "g:44321");
        m.state = SRC_LIVE;
        m.info.pmda = true;
        m.probe = (struct probe_sample){.count = 2,
                                        .spin_wall = 0.050,
                                        .spin_cpu = cases[i].cpu,
                                        .spin_waited = 0.050 - cases[i].cpu};
        m.held = (struct probe_held){.count = cases[i].of,
                                     .share = cases[i].share,
                                     .unseen = cases[i].unseen};
        char val[32], detail[64];
        bool fault = view_time_cell(&m, false, TR_BILLED, val, sizeof(val),
                                    detail, sizeof(detail), false);
        if (fault != cases[i].fault || strcmp(detail, cases[i].detail))
            fail_msg("case %zu: %d '%s'", i, fault, detail);
    }
}

/* While sched's tasks run side by side, each one's share of the work
 * done so far, per source, above the fairness table; a source whose run
 * has ended shows none (every task has done the same work by then); no
 * live run anywhere, no share lines. */
static void test_task_shares(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct time_line tl[VIEW_TIME_LINES_MAX];
    int plain = view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 8);
    int w = fix_wl(j, "sched");
    j->cells[0][w].state = JOB_RUNNING;
    j->cells[0][w].lanes = (struct wl_lanes){3, {300, 300, 400}};
    j->cells[1][w].lanes = (struct wl_lanes){3, {100, 100, 100}};
    int n = view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 8);
    assert_int_equal(n, plain + 1 + 3);
    const struct time_line *rule = find(tl, n, " task shares ");
    assert_int_equal(rule->kind, TL_RULE);
    assert_true(rule[1].kind == TL_SHARE); /* the shares follow it */
    char val[32], detail[64];
    const struct time_line *t3 = find(tl, n, "task 3 share %");
    assert_int_equal(t3->kind, TL_SHARE);
    view_time_line_cell(s, j, 0, t3, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "    40.0");
    view_time_line_cell(s, j, 1, t3, val, sizeof(val), detail, sizeof(detail),
                        false);
    assert_string_equal(val, "        "); /* its run is over */
    assert_true(isnan(view_time_line_ratio(s, j, 1, t3)));
    j->cells[0][w].state = JOB_DONE;
    assert_int_equal(view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 8), plain);
    fix_free(s, j);
}

/* Before sched and sleep ran anywhere: just the clock rows. */
/* A live guest with pmdaparallax, as its headers would show it. */
static void live_guest(struct source_model *m, const char *host)
{
    model_init(m, "g1", "localhost:45351");
    m->state = SRC_LIVE;
    m->samples = 3;
    m->backend = "pcp";
    snprintf(m->info.host, sizeof(m->info.host), "%s", host);
    snprintf(m->info.release, sizeof(m->info.release), "6.18.44-fc-v782");
    m->info.ncpu = 2;
    m->info.mem_bytes = 3.8 * 1024 * 1024 * 1024;
    m->info.pmda = true;
}

static void header(const struct source_model *m, int row, int width, char *buf,
                   size_t n)
{
    view_source_header(m, row, 0, 1, width, buf, n, false);
    assert_true((int)strlen(buf) <= width);
}

static void test_headers_shorten(void **state)
{
    (void)state;
    struct source_model m;
    char buf[160];
    live_guest(&m, "vm");
    header(&m, 2, 40, buf, sizeof(buf)); /* room for all */
    assert_string_equal(buf, "vm 6.18.44-fc-v782 2cpu 3.8G");
    header(&m, 3, 40, buf, sizeof(buf));
    assert_string_equal(buf, "pcp localhost:45351 +pmda");
    header(&m, 2, 20, buf, sizeof(buf)); /* the release to its minor */
    assert_string_equal(buf, "vm 6.18 2cpu 3.8G");
    header(&m, 3, 22, buf, sizeof(buf)); /* no back-end */
    assert_string_equal(buf, "localhost:45351 +pmda");
    header(&m, 2, 14, buf, sizeof(buf)); /* 80 columns, two guests */
    assert_string_equal(buf, "6.18 2cpu 3.8G");
    header(&m, 3, 14, buf, sizeof(buf)); /* the host name comes here */
    assert_string_equal(buf, "vm +pmda");
    live_guest(&m, "a-rather-long-host-name");
    header(&m, 3, 14, buf, sizeof(buf)); /* cut, but +pmda stays */
    assert_string_equal(buf, "a-rather +pmda");
    m.info.pmda = false;
    header(&m, 3, 14, buf, sizeof(buf));
    assert_string_equal(buf, "a-rath no pmda");
    /* the scheduler and preemption model, the model going first */
    live_guest(&m, "vm");
    snprintf(m.info.sched, sizeof(m.info.sched), "EEVDF");
    snprintf(m.info.preempt, sizeof(m.info.preempt), "RT lazy");
    const struct {
        int width;
        const char *want;
    } fit[] = {
        {60, "vm 6.18.44-fc-v782 EEVDF RT lazy 2cpu 3.8G"},
        {40, "vm 6.18 EEVDF RT lazy 2cpu 3.8G"},
        {28, "6.18 EEVDF RT lazy 2cpu 3.8G"},
        {23, "vm 6.18 EEVDF 2cpu 3.8G"},
        {20, "6.18 EEVDF 2cpu 3.8G"},
        {16, "6.18 2cpu 3.8G"},
        {14, "6.18 2cpu 3.8G"},
        {10, "2cpu 3.8G"},
    };
    for (size_t k = 0; k < sizeof(fit) / sizeof(fit[0]); k++) {
        header(&m, 2, fit[k].width, buf, sizeof(buf));
        assert_string_equal(buf, fit[k].want);
    }
}

static void test_host_header_names_backend(void **state)
{
    (void)state;
    struct source_model m;
    char buf[160];
    live_guest(&m, "vm");
    m.target[0] = '\0'; /* this host */
    m.backend = "pcp local";
    header(&m, 3, 40, buf, sizeof(buf));
    assert_string_equal(buf, "pcp local");
    header(&m, 3, 14, buf, sizeof(buf)); /* host name not above */
    assert_string_equal(buf, "vm pcp local");
    m.state = SRC_CONNECTING; /* a guest not reached yet: its target */
    m.samples = 0;
    snprintf(m.target, sizeof(m.target), "10.0.0.5:44321");
    m.backend = NULL;
    header(&m, 3, 40, buf, sizeof(buf));
    assert_string_equal(buf, "pcp 10.0.0.5:44321");
    header(&m, 3, 14, buf, sizeof(buf));
    assert_string_equal(buf, "10.0.0.5:44321");
}

static void test_no_runs_no_lines(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    for (int src = 0; src < 2; src++)
        for (int w = 0; w < j->nwl; w++)
            j->cells[src][w].last.nextra = 0;
    struct time_line tl[VIEW_TIME_LINES_MAX];
    assert_int_equal(view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 8),
                     TIME_ROW_COUNT);
    fix_free(s, j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_extras_round_trip),
        cmocka_unit_test(test_extras_bad_lines_and_room),
        cmocka_unit_test(test_sleep_host_saw),
        cmocka_unit_test(test_fairness_lines),
        cmocka_unit_test(test_clock_rows),
        cmocka_unit_test(test_task_shares),
        cmocka_unit_test(test_no_runs_no_lines),
        cmocka_unit_test(test_no_agent_cells),
        cmocka_unit_test(test_probe_held_cells),
        cmocka_unit_test(test_headers_shorten),
        cmocka_unit_test(test_host_header_names_backend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
