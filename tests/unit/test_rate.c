/* Counter deltas and rates: forward steps, wraps at 32 and 64 bits, resets
 * (no rate, never negative or huge) and bad intervals. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/rate.h"

static void test_forward(void **state)
{
    (void)state;
    uint64_t d = 0;
    assert_int_equal(counter_delta(100, 250, 64, &d), RATE_OK);
    assert_int_equal(d, 150);
    assert_int_equal(counter_delta(7, 7, 32, &d), RATE_OK);
    assert_int_equal(d, 0);
}

static void test_wrap_32(void **state)
{
    (void)state;
    uint64_t d = 0;
    assert_int_equal(counter_delta(UINT32_MAX - 5, 10, 32, &d), RATE_OK);
    assert_int_equal(d, 16);
}

static void test_wrap_64(void **state)
{
    (void)state;
    uint64_t d = 0;
    assert_int_equal(counter_delta(UINT64_MAX - 1, 3, 64, &d), RATE_OK);
    assert_int_equal(d, 5);
}

static void test_reset(void **state)
{
    (void)state;
    uint64_t d = 42;
    /* a counter that restarts from zero is not a wrap */
    assert_int_equal(counter_delta(1000000, 10, 64, &d), RATE_RESET);
    assert_int_equal(counter_delta(1000000, 10, 32, &d), RATE_RESET);
    assert_int_equal(d, 42); /* untouched */
    double r = -1;
    assert_int_equal(counter_rate(5000, 3, 64, 1.0, &r), RATE_RESET);
    assert_true(r == -1);
}

static void test_rate_uses_measured_interval(void **state)
{
    (void)state;
    double r = 0;
    assert_int_equal(counter_rate(0, 300, 64, 1.5, &r), RATE_OK);
    assert_true(fabs(r - 200.0) < 1e-9);
    /* the same delta over a jittered, shorter interval is a higher rate */
    assert_int_equal(counter_rate(0, 300, 64, 0.75, &r), RATE_OK);
    assert_true(fabs(r - 400.0) < 1e-9);
}

static void test_bad_interval(void **state)
{
    (void)state;
    double r = 0;
    assert_int_equal(counter_rate(0, 10, 64, 0.0, &r), RATE_NO_INTERVAL);
    assert_int_equal(counter_rate(0, 10, 64, -1.0, &r), RATE_NO_INTERVAL);
    assert_int_equal(counter_rate(0, 10, 64, NAN, &r), RATE_NO_INTERVAL);
    assert_int_equal(counter_rate(0, 10, 64, INFINITY, &r), RATE_NO_INTERVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forward),
        cmocka_unit_test(test_wrap_32),
        cmocka_unit_test(test_wrap_64),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_rate_uses_measured_interval),
        cmocka_unit_test(test_bad_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
