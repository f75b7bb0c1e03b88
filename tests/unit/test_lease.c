/* A guest run's lease in the guest's own seconds: as long as --lease on a
 * clock that keeps real time, stretched by the rate of one that runs fast
 * (never shortened by a slow one), the agent's longest for a clock whose
 * rate is not known or varies above real time; and renewals often enough
 * that LEASE_RENEWALS of them fit in a lease by the guest's clock at the
 * fastest rate seen. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/near.h"

#include "session/lease.h"

/* A clock map that has seen the rates lo..hi, the newest `recent`. */
static struct time_rates clock_of(double recent, double lo, double hi,
                                  bool unsteady)
{
    struct time_rates r = {.lo = lo, .hi = hi, .unsteady = unsteady};
    r.recent = (struct time_rate){.ok = true, .rate = recent, .span = 10};
    r.all = r.recent;
    r.nspans = 5;
    return r;
}

static struct lease_plan plan_for(double real, struct time_rates r)
{
    struct lease_plan p;
    lease_plan(real, &r, &p);
    /* whatever the clock: within the agent's bounds, renewed at least
     * once a second less than the lease */
    assert_true(p.secs >= LEASE_MIN_S && p.secs <= LEASE_MAX_S);
    assert_true(p.every > 0 && p.every <= real / LEASE_RENEWALS + 1e-12);
    return p;
}

static void test_real_time(void **state)
{
    (void)state;
    /* a few fetches' noise (2e-4) is real time */
    struct lease_plan p = plan_for(30, clock_of(1.0, 0.9998, 1.0002, false));
    assert_near(p.secs, 30, 0);
    assert_near(p.every, 5, 1e-12);
    p = plan_for(2, clock_of(1.0, 1.0, 1.0, false));
    assert_near(p.secs, 2, 0);
    assert_near(p.every, 2.0 / 6, 1e-12);
}

static void test_fast_and_slow_clocks(void **state)
{
    (void)state;
    /* twice real time: the lease doubles in the guest's seconds, the
     * renewals keep their real pace */
    struct lease_plan p = plan_for(30, clock_of(2.0, 2.0, 2.0, false));
    assert_near(p.secs, 60, 1e-9);
    assert_near(p.every, 5, 1e-9);
    /* the fastest rate of the last spans counts, not the latest */
    p = plan_for(30, clock_of(1.01, 1.01, 1.5, false));
    assert_near(p.secs, 45, 1e-9);
    /* a slow clock lengthens a lease of real seconds: it stays as asked */
    p = plan_for(30, clock_of(0.36, 0.36, 0.36, false));
    assert_near(p.secs, 30, 0);
    assert_near(p.every, 5, 0);
    /* a slow clock whose rate varies below real time (qemu's slow icount)
     * is no risk either */
    p = plan_for(30, clock_of(0.4, 0.15, 1.0, true));
    assert_near(p.secs, 30, 0);
    /* 200 times fast: capped at the agent's longest, renewed faster so
     * that six renewals still fit in it by the guest's clock */
    p = plan_for(30, clock_of(200, 200, 200, false));
    assert_near(p.secs, LEASE_MAX_S, 0);
    assert_true(200 * p.every * LEASE_RENEWALS <= p.secs + 1e-9);
    assert_near(p.every, 3, 1e-9);
}

static void test_wild_clocks(void **state)
{
    (void)state;
    /* not known yet: the longest lease, renewed often, until it is */
    struct time_rates unknown = {.lo = NAN, .hi = NAN};
    struct lease_plan p = plan_for(30, unknown);
    assert_near(p.secs, LEASE_MAX_S, 0);
    assert_near(p.every, LEASE_WILD_S, 0);
    /* qemu's fast icount: 3 times real time busy, 858 idle */
    p = plan_for(30, clock_of(3, 3, 858, true));
    assert_near(p.secs, LEASE_MAX_S, 0);
    assert_near(p.every, LEASE_WILD_S, 0);
    /* a renewal gap at its fastest is far within the lease */
    assert_true(858 * p.every < p.secs / 4);
    /* a short lease is renewed as often as it asks */
    p = plan_for(2, clock_of(3, 3, 858, true));
    assert_near(p.every, 2.0 / 6, 1e-12);
    /* a rate that is not a number (a stepped clock) is wild too */
    p = plan_for(30, clock_of(NAN, NAN, NAN, false));
    assert_near(p.secs, LEASE_MAX_S, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_real_time),
        cmocka_unit_test(test_fast_and_slow_clocks),
        cmocka_unit_test(test_wild_clocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
