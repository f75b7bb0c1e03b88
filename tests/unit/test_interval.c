/* The + and - keys' interval ladder: round steps, never outside the bounds
 * -t accepts, from values on the ladder and off it; and the title's form. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli/interval.h"
#include "cli/options.h"

static void test_steps(void **state)
{
    (void)state;
    assert_true(interval_step(1, +1) == 2);
    assert_true(interval_step(1, -1) == 0.5);
    assert_true(interval_step(0.5, -1) == 0.2);
    assert_true(interval_step(60, +1) == 120);
}

static void test_bounds(void **state)
{
    (void)state;
    assert_true(interval_step(INTERVAL_MIN, -1) == INTERVAL_MIN);
    assert_true(interval_step(INTERVAL_MAX, +1) == INTERVAL_MAX);
    assert_true(interval_step(0.2, -1) == INTERVAL_MIN);
    assert_true(interval_step(1800, +1) == INTERVAL_MAX);
    /* every step from anywhere stays in range */
    for (double v = INTERVAL_MIN; v <= INTERVAL_MAX; v *= 1.37) {
        double up = interval_step(v, +1), down = interval_step(v, -1);
        assert_true(up >= INTERVAL_MIN && up <= INTERVAL_MAX);
        assert_true(down >= INTERVAL_MIN && down <= INTERVAL_MAX);
    }
}

/* -t 0.7 or -t 0.1 as parsed: the next round value either way */
static void test_off_ladder(void **state)
{
    (void)state;
    assert_true(interval_step(0.7, +1) == 1);
    assert_true(interval_step(0.7, -1) == 0.5);
    assert_true(interval_step(0.1000000001, -1) == 0.1000000001);
    assert_true(interval_step(0.30000000000000004, -1) == 0.2);
}

static void test_format(void **state)
{
    (void)state;
    char buf[32];
    interval_format(0.5, buf, sizeof(buf));
    assert_string_equal(buf, "0.5 s");
    interval_format(2, buf, sizeof(buf));
    assert_string_equal(buf, "2 s");
    interval_format(3600, buf, sizeof(buf));
    assert_string_equal(buf, "3600 s");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_steps),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_off_ladder),
        cmocka_unit_test(test_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
