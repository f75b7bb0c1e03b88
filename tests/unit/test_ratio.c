/* Overhead ratios: oriented so > 1 means worse in the guest, no ratio when
 * a side is missing (never 0 or infinity), and the geometric-mean index. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/ratio.h"

static void test_orientation(void **state)
{
    (void)state;
    /* higher is worse: 5 us in the guest against 1 us on the host */
    assert_true(fabs(ratio_oriented(5, 1, RO_HIGHER_WORSE) - 5) < 1e-12);
    /* lower is worse: 20 idle in the guest against 80 on the host */
    assert_true(fabs(ratio_oriented(20, 80, RO_LOWER_WORSE) - 4) < 1e-12);
    /* better in the guest reads below 1 either way */
    assert_true(ratio_oriented(1, 2, RO_HIGHER_WORSE) < 1);
    assert_true(ratio_oriented(2, 1, RO_LOWER_WORSE) < 1);
}

/* Activity is compared, not judged: an idle guest's 0.02 of the host's
 * context switches is no "better" (it was coloured green). */
static void test_busier_is_not_judged(void **state)
{
    (void)state;
    assert_true(fabs(ratio_oriented(5, 1, RO_HIGHER_BUSIER) - 5) < 1e-12);
    assert_true(fabs(ratio_oriented(20, 80, RO_LOWER_BUSIER) - 4) < 1e-12);
    assert_true(ratio_judged(RO_HIGHER_WORSE));
    assert_true(ratio_judged(RO_LOWER_WORSE));
    assert_false(ratio_judged(RO_HIGHER_BUSIER));
    assert_false(ratio_judged(RO_LOWER_BUSIER));
    assert_false(ratio_judged(RO_NONE));
    assert_false(ratio_judged(metric_descs[METRIC_CTXSW].ratio));
    assert_false(ratio_judged(metric_descs[METRIC_INTR].ratio));
    assert_false(ratio_judged(metric_descs[METRIC_RUNNABLE].ratio));
    assert_true(ratio_judged(metric_descs[METRIC_CPU_STEAL].ratio));
}

static void test_missing_sides(void **state)
{
    (void)state;
    assert_true(isnan(ratio_oriented(NAN, 1, RO_HIGHER_WORSE)));
    assert_true(isnan(ratio_oriented(1, NAN, RO_HIGHER_WORSE)));
    assert_true(isnan(ratio_oriented(3, 0, RO_HIGHER_WORSE))); /* not inf */
    assert_true(isnan(ratio_oriented(0, 3, RO_HIGHER_WORSE))); /* not 0 */
    assert_true(isnan(ratio_oriented(0, 3, RO_LOWER_WORSE)));  /* not inf */
    assert_true(isnan(ratio_oriented(-1, 3, RO_HIGHER_WORSE)));
    assert_true(isnan(ratio_oriented(INFINITY, 3, RO_HIGHER_WORSE)));
    assert_true(isnan(ratio_oriented(2, 3, RO_NONE)));
    assert_true(isnan(ratio_oriented(1e300, 1e-300, RO_HIGHER_WORSE)));
}

static void test_geomean(void **state)
{
    (void)state;
    double r[] = {2, 8};
    assert_true(fabs(ratio_geomean(r, 2) - 4) < 1e-12);
    double with_gaps[] = {NAN, 5.4, 0, 10.0, 7.6, INFINITY};
    double want = cbrt(5.4 * 10.0 * 7.6);
    assert_true(fabs(ratio_geomean(with_gaps, 6) - want) < 1e-9);
    double none[] = {NAN, 0};
    assert_true(isnan(ratio_geomean(none, 2)));
    assert_true(isnan(ratio_geomean(NULL, 0)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_orientation),
        cmocka_unit_test(test_busier_is_not_judged),
        cmocka_unit_test(test_missing_sides),
        cmocka_unit_test(test_geomean),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
