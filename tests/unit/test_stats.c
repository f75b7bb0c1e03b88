/* Statistics over repeat figures, checked against values computed by hand
 * (and with R: t.test(c(10.1, 9.8, 10.3, 10.0, 9.9))). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/near.h"

#include "workloads/stats.h"

static void test_textbook_set(void **state)
{
    (void)state;
    const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    struct wl_stats st;
    stats_compute(x, 8, &st);
    assert_int_equal(st.n, 8);
    assert_near(st.mean, 5.0, 1e-12);
    assert_near(st.median, 4.5, 1e-12);
    assert_near(st.min, 2.0, 0);
    assert_near(st.max, 9.0, 0);
    assert_near(st.sd, sqrt(32.0 / 7), 1e-12);
    /* t(0.975, 7) = 2.365 */
    assert_near(st.ci95, 2.365 * sqrt(32.0 / 7) / sqrt(8), 1e-9);
}

static void test_r_t_test(void **state)
{
    (void)state;
    /* R: mean 10.02, 95% CI 9.781165 .. 10.258835 */
    const double x[] = {10.1, 9.8, 10.3, 10.0, 9.9};
    struct wl_stats st;
    stats_compute(x, 5, &st);
    assert_near(st.mean, 10.02, 1e-12);
    assert_near(st.median, 10.0, 1e-12);
    assert_near(st.mean - st.ci95, 9.781165, 1e-4);
    assert_near(st.mean + st.ci95, 10.258835, 1e-4);
}

static void test_odd_median_unsorted_input_untouched(void **state)
{
    (void)state;
    double x[] = {3, 1, 2};
    struct wl_stats st;
    stats_compute(x, 3, &st);
    assert_near(st.median, 2, 0);
    assert_near(x[0], 3, 0);
    assert_near(x[1], 1, 0);
}

static void test_one_and_none(void **state)
{
    (void)state;
    const double one[] = {42};
    struct wl_stats st;
    stats_compute(one, 1, &st);
    assert_int_equal(st.n, 1);
    assert_near(st.median, 42, 0);
    assert_near(st.mean, 42, 0);
    assert_true(isnan(st.sd));
    assert_true(isnan(st.ci95));
    stats_compute(NULL, 0, &st);
    assert_int_equal(st.n, 0);
    assert_true(isnan(st.median) && isnan(st.min) && isnan(st.mean));
}

static void test_nan_skipped(void **state)
{
    (void)state;
    const double x[] = {1, NAN, 3};
    struct wl_stats st;
    stats_compute(x, 3, &st);
    assert_int_equal(st.n, 2);
    assert_near(st.mean, 2, 1e-12);
    assert_near(st.median, 2, 1e-12);
    assert_near(st.max, 3, 0);
}

/* A naive sum of squares loses everything at 1e9 +- 1; Welford does not. */
static void test_large_offset(void **state)
{
    (void)state;
    const double x[] = {1e9 + 1, 1e9 + 2, 1e9 + 3};
    struct wl_stats st;
    stats_compute(x, 3, &st);
    assert_near(st.sd, 1.0, 1e-6);
    assert_near(st.mean, 1e9 + 2, 1e-6);
}

static void test_t_table(void **state)
{
    (void)state;
    assert_true(isnan(stats_t95(0)));
    assert_near(stats_t95(1), 12.706, 1e-9);
    assert_near(stats_t95(4), 2.776, 1e-9);
    assert_near(stats_t95(30), 2.042, 1e-9);
    assert_near(stats_t95(60), 2.000, 1e-9);
    /* true values: t(50) = 2.0086, t(100) = 1.9840, t(1000) = 1.9623 */
    assert_near(stats_t95(50), 2.0086, 2e-3);
    assert_near(stats_t95(100), 1.9840, 2e-3);
    assert_near(stats_t95(1000), 1.9623, 2e-3);
    for (int df = 1; df < 2000; df++) /* falls towards 1.96 */
        assert_true(stats_t95(df + 1) <= stats_t95(df));
    assert_true(stats_t95(1000000) >= 1.96);
}

/* The median's interval: order statistics with binomial coverage (R:
 * 1 - 2 * pbinom(k - 1, n, 0.5)), inside the figures' range. */
static void test_median_interval(void **state)
{
    (void)state;
    assert_near(stats_median_cover(3, 1), 0.75, 1e-12);
    assert_near(stats_median_cover(5, 1), 0.9375, 1e-12);
    assert_near(stats_median_cover(6, 1), 1 - 2.0 / 64, 1e-12);
    assert_near(stats_median_cover(9, 2), 1 - 20.0 / 512, 1e-12);
    assert_near(stats_median_cover(100, 40), 0.9648, 1e-4);
    assert_near(stats_median_cover(1000, 470), 0.9463, 1e-4);
    assert_near(stats_median_cover(3, 2), 0, 0); /* past the middle */
    /* the "498 +-860 ns": three repeats of a positive figure */
    const double x[] = {120, 498, 1610};
    struct wl_stats st;
    stats_compute(x, 3, &st);
    assert_near(st.med_lo, 120, 0);
    assert_near(st.med_hi, 1610, 0);
    assert_near(st.med_cover, 0.75, 1e-12);
    assert_true(st.mean - st.ci95 < 0); /* the mean's goes below zero */
    assert_true(stats_noisy(st.median, st.med_lo, st.med_hi));
    /* nine: x(2) and x(8), 96% */
    const double y[] = {9, 1, 8, 2, 7, 3, 6, 4, 5};
    stats_compute(y, 9, &st);
    assert_near(st.med_lo, 2, 0);
    assert_near(st.med_hi, 8, 0);
    assert_true(st.med_cover >= STATS_COVER_WANT);
    /* a tight set is not noisy; one figure has no interval */
    const double z[] = {100, 101, 99};
    stats_compute(z, 3, &st);
    assert_false(stats_noisy(st.median, st.med_lo, st.med_hi));
    stats_compute(z, 1, &st);
    assert_true(isnan(st.med_lo) && isnan(st.med_hi));
    assert_false(stats_noisy(st.median, st.med_lo, st.med_hi));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_textbook_set),
        cmocka_unit_test(test_r_t_test),
        cmocka_unit_test(test_odd_median_unsorted_input_untouched),
        cmocka_unit_test(test_one_and_none),
        cmocka_unit_test(test_nan_skipped),
        cmocka_unit_test(test_large_offset),
        cmocka_unit_test(test_t_table),
        cmocka_unit_test(test_median_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
