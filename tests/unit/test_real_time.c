/* Real time for a guest's figures: each workload's figure turned by a
 * clock's rate (every catalogue unit has its rule), the agent's repeat log
 * read back, and a guest run folded into its cell through a source whose
 * clock runs at half real time: real figures, the source's own beside
 * them, the rate and its divergence, a stamp waiting for the next fetch,
 * and the host's own bracket of the run held against the mapping. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/near.h"

#include "core/model.h"
#include "runner/repeat_log.h"
#include "session/job_time.h"
#include "session/jobs.h"
#include "workloads/real_figure.h"
#include "workloads/registry.h"

#define S0 1.7e9 /* the source's clock at host time 0 */

static void test_every_unit_has_a_rule(void **state)
{
    (void)state;
    for (int i = 0; workload_registry[i]; i++) {
        const struct workload *w = workload_registry[i];
        enum wl_clock_dim d = wl_clock_dim(w);
        /* only a ratio of two times on one clock is left as it is */
        if (d == WD_NONE)
            assert_string_equal(w->unit, "x");
        double f = wl_real_figure(w, 100, 0.5);
        assert_true(isfinite(f));
        if (!w->real_figure)
            assert_near(f, d == WD_TIME ? 200 : d == WD_RATE ? 50 : 100, 1e-9);
    }
}

static void test_real_figures(void **state)
{
    (void)state;
    /* the seed's guest: 10 s by its clock in 27.45 s */
    double r = 0.3643;
    assert_near(wl_real_figure(workload_find("syscall-null"), 94.35, r),
                94.35 / r, 1e-9);
    assert_near(wl_real_figure(workload_find("dhry"), 129.5e6, r), 129.5e6 * r,
                1e-3);
    /* a 10 ms sleep that overshot 54 us on its clock lasted 27.6 ms */
    assert_near(wl_real_figure(workload_find("sleep"), 54, r),
                10054 / r - 10000, 1e-6);
    assert_true(isnan(wl_real_figure(workload_find("dhry"), 1, 0)));
    assert_true(isnan(wl_real_figure(workload_find("dhry"), 1, -1)));
    assert_true(isnan(wl_real_figure(workload_find("dhry"), 1, INFINITY)));
}

static void test_log_parse(void **state)
{
    (void)state;
    struct repeat_entry e[4];
    const char *log = "1700000000.100000 1700000001.100000 1.0 94.5 0\n"
                      "1700000001.200000 1700000002.200000 1.0 95.5 2 more\n"
                      "1700000002.300000 - - - -\n";
    assert_int_equal(repeat_log_parse(log, e, 4), 3);
    assert_near(e[0].t_start, 1700000000.1, 1e-6);
    assert_near(e[1].figure, 95.5, 0);
    assert_int_equal(e[1].placement, 2);
    assert_true(isnan(e[2].t_end) && isnan(e[2].figure));
    assert_int_equal(e[2].placement, -1);
    assert_int_equal(repeat_log_parse(log, e, 1), 1);
    assert_int_equal(repeat_log_parse("", e, 4), 0);
    assert_int_equal(repeat_log_parse(NULL, e, 4), 0);
    /* what is not a line of the log ends it */
    assert_int_equal(repeat_log_parse("1 2 3 4 0\nfoo 2 3 4 0\n", e, 4), 1);
    assert_int_equal(repeat_log_parse("5 4 3 2 0\n", e, 4), 0); /* ends first */
    assert_int_equal(repeat_log_parse("1 2 3\n", e, 4), 0);
    assert_int_equal(repeat_log_parse("1 2 nan 4 0\n", e, 4), 0);
}

/* A guest whose clock gives `rate` s per host second, fetched every
 * 0.25 s for `secs` from host time 1, 1 ms round trips. */
static void feed(struct source_model *m, double rate, double secs)
{
    model_init(m, "g", "localhost:1");
    for (double t = 1; t <= 1 + secs; t += 0.25)
        time_map_add(&m->tmap, t - 5e-4, t + 5e-4, S0 + t * rate);
    time_map_rates(&m->tmap, &m->rates);
}

/* A cell as session/job_start.c leaves one it started on a guest. */
static void blank_cell(struct job_cell *c)
{
    memset(c, 0, sizeof(*c));
    c->state = JOB_RUNNING;
    c->placement = c->cpu = -1;
    job_time_reset(c);
}

/* "START END WALL FIGURE 0" lines: n repeats of 1 s by the source's
 * clock, back to back from its time s0, each with figure fig[i]. */
static void log_of(char *buf, size_t len, double s0, int n, const double *fig)
{
    size_t used = 0;
    for (int i = 0; i < n; i++)
        used += (size_t)snprintf(buf + used, len - used, "%.6f %.6f 1 %g 0\n",
                                 s0 + i * 1.0, s0 + i * 1.0 + 1.0, fig[i]);
}

static void test_fold_half_speed(void **state)
{
    (void)state;
    static struct source_model m;
    static struct job_cell c;
    const struct workload *w = workload_find("syscall-null");
    feed(&m, 0.5, 10);
    blank_cell(&c);
    char log[512];
    const double fig[] = {100, 110, 90};
    /* three repeats of 1 s on its clock from host time 2: 2 s each */
    log_of(log, sizeof(log), S0 + 2 * 0.5, 3, fig);
    /* the run: started at host time 1.5, ended at 8.5 */
    double run[2] = {S0 + 1.5 * 0.5, S0 + 8.5 * 0.5};
    job_time_fold(&c, w, &m, log, run);
    assert_near(c.run_real_s, 7, 1e-5);
    assert_true(c.real);
    assert_false(c.mapping);
    assert_int_equal(c.said.n, 3);
    assert_near(c.said.median, 100, 1e-9);
    /* real time: each call took twice what the guest's clock says */
    assert_near(c.stats.median, 200, 1e-3);
    assert_near(c.stats.med_lo, 180, 1e-3);
    assert_near(c.stats.med_hi, 220, 1e-3);
    assert_near(c.rate, 0.5, 1e-6);
    assert_true(c.rate_err > 0 && c.rate_err < 1e-3);
    assert_near(c.real_s, 6, 1e-5);
    assert_near(c.said_s, 3, 1e-9);
    assert_true(jobs_divergent(&c));
    assert_near(jobs_divergence(&c), 0.5, 1e-6);
    /* the host's bracket of the run: stored at 1.9, done seen by 8.3 */
    c.state = JOB_DONE;
    c.store_t[0] = 1.9;
    c.done_t = 8.3;
    job_time_check(&c);
    assert_true(c.bracket_ok);
    /* a mapping that puts the run before its own start store is wrong */
    c.store_t[0] = 3;
    job_time_check(&c);
    assert_false(c.bracket_ok);
    free(c.stamps);
}

static void test_fold_waits_and_loses(void **state)
{
    (void)state;
    const double none[2] = {NAN, NAN};
    static struct source_model m;
    static struct job_cell c;
    const struct workload *w = workload_find("dhry");
    feed(&m, 1, 4); /* fetches to host time 5 */
    blank_cell(&c);
    char log[512];
    const double fig[] = {1e7, 1e7, 1e7};
    /* the third repeat ends at host time 6: after the newest fetch */
    log_of(log, sizeof(log), S0 + 3, 3, fig);
    job_time_fold(&c, w, &m, log, none);
    assert_true(c.mapping);
    assert_false(c.real);
    assert_near(c.stats.median, 1e7, 0); /* its word until then */
    assert_true(isnan(c.rate));
    /* the next fetches bracket it: real time, no divergence at rate 1 */
    for (double t = 5.25; t <= 7; t += 0.25)
        time_map_add(&m.tmap, t - 5e-4, t + 5e-4, S0 + t);
    job_time_fold(&c, w, &m, log, none);
    assert_true(c.real);
    assert_false(c.mapping);
    assert_near(c.rate, 1, 1e-6);
    assert_false(jobs_divergent(&c));
    /* a run older than every fetch kept is the source's word only */
    free(c.stamps);
    blank_cell(&c);
    log_of(log, sizeof(log), S0 - 100, 3, fig);
    job_time_fold(&c, w, &m, log, none);
    assert_false(c.real);
    assert_false(c.mapping);
    assert_near(c.stats.median, 1e7, 0);
    free(c.stamps);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_unit_has_a_rule),
        cmocka_unit_test(test_real_figures),
        cmocka_unit_test(test_log_parse),
        cmocka_unit_test(test_fold_half_speed),
        cmocka_unit_test(test_fold_waits_and_loses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
