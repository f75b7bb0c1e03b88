/* lat_measure, the timing loop of the composite latency workloads: the
 * reference loops run exactly as many operations as the measured one (the
 * subtraction is only fair then), the figure is the median of the
 * batches' figures, count mode is exact, duration mode ends near its
 * deadline, progress is published, and a stop ends it at once. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "tests/stall.h"

#include "workloads/lat_measure.h"

struct counts {
    uint64_t main, ref;
    uint64_t ref_calls, ref_warm;   /* the first call is the warm-up's */
    struct wl_progress *stop_after; /* set stop once main passes 1000 */
};

static void spin(uint64_t n)
{
    volatile uint64_t sink = 0;
    for (uint64_t i = 0; i < n * 50; i++)
        sink += i;
}

static int main_loop(void *arg, uint64_t n)
{
    struct counts *c = arg;
    spin(n);
    c->main += n;
    if (c->stop_after && c->main > 1000)
        atomic_store(&c->stop_after->stop, 1);
    return 0;
}

static int ref_loop(void *arg, uint64_t n)
{
    struct counts *c = arg;
    spin(n);
    if (c->ref_calls++ == 0)
        c->ref_warm = n;
    c->ref += n;
    return 0;
}

/* what the workloads do: the measured cost less a ref's */
static double difference(void *arg, double us, const double *ref_us)
{
    (void)arg;
    return us - ref_us[0];
}

/* 1 for every batch but the first two, which are far off */
static double outliers_first(void *arg, double us, const double *ref_us)
{
    int *calls = arg;
    (void)us, (void)ref_us;
    return ++*calls <= 2 ? 1e6 : 1;
}

static int spin_loop(void *arg, uint64_t n)
{
    (void)arg;
    spin(n);
    return 0;
}

static int failing_loop(void *arg, uint64_t n)
{
    (void)arg, (void)n;
    return -1;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void test_count_mode_pairs_refs(void **state)
{
    (void)state;
    struct wl_progress p = {0};
    struct wl_ctx ctx = {.progress = &p, .count = 12345};
    struct counts c = {0};
    struct lat_ref ref = {ref_loop, 0};
    struct wl_result res = {0};
    assert_int_equal(
        lat_measure(&ctx, main_loop, &c, &ref, 1, difference, &res), 0);
    assert_int_equal(res.ops, 12345);
    assert_int_equal(atomic_load(&p.ops), 12345);
    /* past its warm-up, the ref ran exactly the measured operations */
    assert_int_equal(c.ref - c.ref_warm, res.ops);
    assert_true(res.wall > 0 && ref.us > 0);
    assert_true(isfinite(res.figure));
}

static void test_duration_mode(void **state)
{
    (void)state;
    struct wl_progress p = {0};
    struct wl_ctx ctx = {.progress = &p, .duration = 0.2};
    struct counts c = {0};
    struct lat_ref ref = {ref_loop, 0};
    struct wl_result res = {0};
    double t0 = now(), stall0 = stall_s();
    assert_int_equal(
        lat_measure(&ctx, main_loop, &c, &ref, 1, difference, &res), 0);
    double took = now() - t0;
    assert_true(took >= 0.2);
    assert_prompt(took, 1.0, stall0);
    /* fn's share of the time is what wall holds, the rest is the ref's */
    double ref_secs = ref.us * 1e-6 * (double)res.ops;
    assert_true(res.wall > 0.05 && res.wall + ref_secs <= took);
    assert_true(res.ops > 0);
    assert_true(res.user + res.sys <= res.wall + 0.02);
}

static void test_stop_and_failure(void **state)
{
    (void)state;
    struct wl_progress p = {0};
    struct wl_ctx ctx = {.progress = &p, .duration = 30};
    struct counts c = {.stop_after = &p};
    struct wl_result res = {0};
    double t0 = now(), stall0 = stall_s();
    assert_int_equal(
        lat_measure(&ctx, main_loop, &c, NULL, 0, difference, &res), 1);
    assert_prompt(now() - t0, 1.0, stall0); /* not its 30 s */

    atomic_store(&p.stop, 0);
    assert_int_equal(
        lat_measure(&ctx, failing_loop, &c, NULL, 0, difference, &res), -1);
    struct lat_ref bad = {failing_loop, 0};
    ctx.duration = 0.05;
    assert_int_equal(lat_measure(&ctx, ref_loop, &c, &bad, 1, difference, &res),
                     -1);
}

static void test_figure_is_median_of_batches(void **state)
{
    (void)state;
    struct wl_progress p = {0};
    struct wl_ctx ctx = {.progress = &p, .duration = 0.2};
    struct wl_result res = {0};
    int calls = 0;
    assert_int_equal(
        lat_measure(&ctx, spin_loop, &calls, NULL, 0, outliers_first, &res), 0);
    assert_true(calls >= 5);
    assert_true(res.figure == 1);
}

static void test_calibrate_and_extra(void **state)
{
    (void)state;
    struct wl_progress p = {0};
    struct wl_ctx ctx = {.progress = &p};
    struct counts c = {0};
    double us = lat_calibrate(&ctx, ref_loop, &c);
    assert_true(isfinite(us) && us > 0);
    atomic_store(&p.stop, 1);
    assert_true(isnan(lat_calibrate(&ctx, ref_loop, &c)));

    struct wl_result res = {0};
    for (int i = 0; i < WL_MAX_EXTRA + 3; i++)
        lat_extra(&res, "a name longer than the thirty-one bytes", "us", i);
    assert_int_equal(res.nextra, WL_MAX_EXTRA);
    assert_int_equal(strlen(res.extra[0].name), sizeof res.extra[0].name - 1);
    assert_true(res.extra[WL_MAX_EXTRA - 1].value == WL_MAX_EXTRA - 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_count_mode_pairs_refs),
        cmocka_unit_test(test_duration_mode),
        cmocka_unit_test(test_stop_and_failure),
        cmocka_unit_test(test_figure_is_median_of_batches),
        cmocka_unit_test(test_calibrate_and_extra),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
