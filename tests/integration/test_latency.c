/* The latency workloads through the real runner, checked against the
 * test's own clock: timer-lat wakes once per interval per thread (its
 * samples and skipped periods add up to the periods the test's clock
 * saw), and a delay the test injects (SIGSTOP of the run for a span timed
 * here, then SIGCONT) shows as its largest latency, within the interval
 * below and a generous allowance for a busy machine above. */
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "tests/near.h"

#include "runner/runner.h"
#include "workloads/extras.h"
#include "workloads/params.h"
#include "workloads/registry.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static struct wl_run *start(const char *name, double secs,
                            const char *const *kv)
{
    const struct workload *w = workload_find(name);
    assert_non_null(w);
    double vals[WL_MAX_PARAMS];
    params_defaults(w, vals);
    char err[512];
    for (int k = 0; kv[k]; k++)
        if (params_set(w, vals, kv[k], err, sizeof err) < 0)
            fail_msg("%s", err);
    struct wl_run_opts o;
    wl_run_opts_default(&o);
    o.duration = secs;
    o.warmup = 0;
    struct wl_run *r = wl_run_start(w, vals, &o, err, sizeof err);
    if (!r)
        fail_msg("%s: %s", name, err);
    return r;
}

static const struct wl_result *finish(struct wl_run *r)
{
    if (wl_run_wait(r, NULL) != WL_RUN_DONE)
        fail_msg("%s", wl_run_error(r));
    return wl_run_result(r, 0);
}

/* Percentiles in order, the histogram's counts adding up to its samples,
 * the figure its p99. */
static void check_distribution(const struct wl_result *res)
{
    const struct lat_hist *h = &res->hist;
    assert_true(h->n > 0);
    assert_int_equal(res->ops, h->n);
    uint64_t sum = 0;
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++)
        sum += h->count[i];
    assert_int_equal(sum, h->n);
    double last = 0;
    const char *names[] = {"lat p50", "lat p90", "lat p99", "lat p99.9",
                           "lat max"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        double v = wl_extra(res, names[i]);
        if (!(v >= last))
            fail_msg("%s %g below the one before, %g", names[i], v, last);
        last = v;
    }
    assert_near(res->figure, wl_extra(res, "lat p99"), 0);
    assert_near(wl_extra(res, "samples"), (double)h->n, 0);
}

static void test_periods(void **state)
{
    (void)state;
    const double secs = 1.0;
    double t0 = now();
    struct wl_run *r =
        start("timer-lat", secs,
              (const char *const[]){"threads=2", "interval=2000", NULL});
    const struct wl_result *res = finish(r);
    double took = now() - t0;
    check_distribution(res);
    double periods = wl_extra(res, "samples") + wl_extra(res, "overruns");
    /* each thread: one period per 2 ms of its run, which lies inside the
     * test's span and covers most of the asked-for second (its threads
     * start after the deadline is set: a tenth allowed for that) */
    double lo = 0.9 * 2 * secs / 2e-3 - 4, hi = 2 * took / 2e-3 + 4;
    if (periods < lo || periods > hi)
        fail_msg("%g periods; the test's clock allows %g..%g", periods, lo, hi);
    wl_run_free(r);
}

/* Stops the run's process group for `stop` s of the test's clock, once
 * it measures; returns the span the group really stood still. */
static double inject(struct wl_run *r, double stop)
{
    struct wl_run_status st;
    double t0 = now();
    do {
        usleep(20000);
        wl_run_status(r, &st);
    } while (st.ops < 20 && now() - t0 < 30);
    assert_true(st.ops >= 20);
    kill(-wl_run_pid(r), SIGSTOP);
    double b = now();
    while (now() - b < stop)
        usleep(10000);
    double c = now();
    kill(-wl_run_pid(r), SIGCONT);
    return c - b; /* stopped by b at the latest, running again after c */
}

static void check_injected(const char *name, const char *const *kv)
{
    struct wl_run *r = start(name, 3.0, kv);
    double stood = inject(r, 0.3);
    const struct wl_result *res = finish(r);
    check_distribution(res);
    double max_s = wl_extra(res, "lat max") * 1e-6;
    /* at least the stop less one interval (the wake it delayed may have
     * been due just before it ended); at most the stop, an interval and
     * half a second of a busy machine */
    if (max_s < stood - 2e-3 || max_s > stood + 2e-3 + 0.5)
        fail_msg("%s: max %.6f s for a stop of %.6f s", name, max_s, stood);
    printf("  %s: stopped %.4f s, max latency %.4f s, p50 %.1f us\n", name,
           stood, max_s, wl_extra(res, "lat p50"));
    wl_run_free(r);
}

static void test_timer_injected(void **state)
{
    (void)state;
    check_injected("timer-lat", (const char *const[]){"interval=2000", NULL});
}

/* One worker doing 5 ms of work per wake-up cannot be woken more often
 * than the test's clock leaves room for (a SIGSTOP would stop its message
 * thread too, so no delay can be injected between the two from here). */
static void test_wakeup_work(void **state)
{
    (void)state;
    double t0 = now();
    struct wl_run *r =
        start("wakeup-lat", 1.0,
              (const char *const[]){"workers=1", "work=5000", NULL});
    const struct wl_result *res = finish(r);
    double took = now() - t0;
    check_distribution(res);
    double n = wl_extra(res, "samples");
    if (n > took / 5e-3 + 2)
        fail_msg("%g wake-ups of 5 ms work in %.3f s", n, took);
    wl_run_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_periods),
        cmocka_unit_test(test_timer_injected),
        cmocka_unit_test(test_wakeup_work),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
