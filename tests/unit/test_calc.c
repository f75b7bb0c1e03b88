/* The arithmetic of the sleep and scheduler figures on known data:
 * percentiles as numpy computes them, Jain's index, and the wall time of
 * perfectly shared CPUs. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/near.h"

#include "workloads/calc.h"

static void test_percentile_numpy(void **state)
{
    (void)state;
    double a[] = {4, 1, 3, 2}; /* np.percentile([1,2,3,4], 99) == 3.97 */
    assert_near(calc_percentile(a, 4, 99), 3.97, 1e-12);
    double b[] = {50, 15, 40, 20, 35}; /* np.percentile(b, 40) == 29 */
    assert_near(calc_percentile(b, 5, 40), 29.0, 1e-12);
    assert_near(calc_percentile(b, 5, 50), 35.0, 1e-12);
    assert_near(calc_percentile(b, 5, 0), 15.0, 1e-12);
    assert_near(calc_percentile(b, 5, 100), 50.0, 1e-12);
    assert_near(b[0], 15.0, 0); /* sorted in place, as documented */
    assert_near(b[4], 50.0, 0);
}

static void test_percentile_edges(void **state)
{
    (void)state;
    double one[] = {7.5};
    assert_near(calc_percentile(one, 1, 99), 7.5, 0);
    assert_true(isnan(calc_percentile(one, 0, 50)));
    double c[101];
    for (int i = 0; i <= 100; i++)
        c[i] = 100 - i; /* p99 of 0..100 is 99 exactly */
    assert_near(calc_percentile(c, 101, 99), 99.0, 1e-12);
}

static void test_mean(void **state)
{
    (void)state;
    double v[] = {1, 2, 3, 6};
    assert_near(calc_mean(v, 4), 3.0, 1e-12);
    assert_true(isnan(calc_mean(v, 0)));
}

static void test_jain(void **state)
{
    (void)state;
    double equal[] = {2, 2, 2, 2};
    assert_near(calc_jain(equal, 4), 1.0, 1e-12);
    double hog[] = {5, 0, 0, 0}; /* one has everything: 1/n */
    assert_near(calc_jain(hog, 4), 0.25, 1e-12);
    double mixed[] = {1, 2, 3}; /* 36 / (3 * 14) */
    assert_near(calc_jain(mixed, 3), 36.0 / 42.0, 1e-12);
    double scaled[] = {10, 20, 30}; /* scale-free */
    assert_near(calc_jain(scaled, 3), 36.0 / 42.0, 1e-12);
    double zero[] = {0, 0};
    assert_true(isnan(calc_jain(zero, 2)));
    assert_true(isnan(calc_jain(zero, 0)));
}

static void test_shared_wall_equal_tasks(void **state)
{
    (void)state;
    /* n equal tasks of t: n * t / min(n, ncpu) */
    double t[] = {1, 1, 1, 1, 1, 1, 1, 1};
    assert_near(calc_shared_wall(t, 3, 2), 1.5, 1e-12);
    assert_near(calc_shared_wall(t, 1, 2), 1.0, 1e-12);
    assert_near(calc_shared_wall(t, 2, 4), 1.0, 1e-12);
    assert_near(calc_shared_wall(t, 8, 2), 4.0, 1e-12);
    assert_near(calc_shared_wall(t, 3, 1), 3.0, 1e-12);
    assert_near(calc_shared_wall(t, 4, 4), 1.0, 1e-12);
}

static void test_shared_wall_unequal_tasks(void **state)
{
    (void)state;
    /* 1, 1, 4 on 2 CPUs: all three at 2/3 of a CPU until the short ones
     * end at 1.5 s, then the long one alone for its last 3 s */
    double t[] = {4, 1, 1};
    assert_near(calc_shared_wall(t, 3, 2), 4.5, 1e-12);
    assert_near(t[0], 4, 0); /* input untouched */
    double u[] = {1, 2};     /* one CPU: the sum */
    assert_near(calc_shared_wall(u, 2, 1), 3.0, 1e-12);
    double v[] = {1, 3}; /* two CPUs: the longest */
    assert_near(calc_shared_wall(v, 2, 2), 3.0, 1e-12);
    assert_true(isnan(calc_shared_wall(v, 0, 2)));
    assert_true(isnan(calc_shared_wall(v, 2, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_percentile_numpy),
        cmocka_unit_test(test_percentile_edges),
        cmocka_unit_test(test_mean),
        cmocka_unit_test(test_jain),
        cmocka_unit_test(test_shared_wall_equal_tasks),
        cmocka_unit_test(test_shared_wall_unequal_tasks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
