/* The time map: a source stamp placed on the host's clock between the
 * fetches around it, within their hard bounds; the rates it has seen, and
 * whether they vary beyond their errors. Synthetic fetches whose source
 * clock is known exactly. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "tests/near.h"

#include "core/time_map.h"

#define S0 1.7e9 /* the source's epoch seconds at host time 0 */
/* What a double resolves of an epoch stamp near S0 (2.4e-7 s): a rate
 * from two such stamps over SPAN s is exact to 2 * STAMP_ULP / SPAN. */
#define STAMP_ULP (S0 * DBL_EPSILON)

/* The source's clock at host time t: `rate` seconds a host second. */
static double src_at(double t, double rate)
{
    return S0 + t * rate;
}

/* n fetches every `every` s from host time t0, each taking rtt, the
 * source stamping its reply at the request's midpoint. */
static void feed(struct time_map *m, double t0, int n, double every, double rtt,
                 double rate)
{
    for (int i = 0; i < n; i++) {
        double t = t0 + i * every;
        time_map_add(m, t - rtt / 2, t + rtt / 2, src_at(t, rate));
    }
}

static void test_steady_stamp(void **state)
{
    (void)state;
    static struct time_map m;
    time_map_init(&m);
    feed(&m, 0, 20, 1.0, 2e-3, 0.3643);
    struct time_at a;
    /* a stamp the source took at host time 7.3 */
    assert_int_equal(time_map_host(&m, src_at(7.3, 0.3643), true, &a), TM_OK);
    assert_near(a.host, 7.3, 1e-6);
    assert_true(a.lo <= 7.3 && 7.3 <= a.hi);
    assert_near(a.lo, 7 - 1e-3, 1e-9);
    assert_near(a.hi, 8 + 1e-3, 1e-9);
    assert_true(a.err <= 1.1e-3); /* the round trips, not the bracket */
    /* the same stamp on a clock that may vary: up to the bracket */
    assert_int_equal(time_map_host(&m, src_at(7.3, 0.3643), false, &a), TM_OK);
    assert_near(a.err, fmax(7.3 - a.lo, a.hi - 7.3), 1e-5);
    /* a fetch's own stamp */
    assert_int_equal(time_map_host(&m, src_at(4, 0.3643), true, &a), TM_OK);
    assert_near(a.host, 4, 1e-9);
    assert_true(a.lo <= 4 && a.hi >= 4);
    /* newer than the newest fetch: wait; older than the oldest: lost */
    assert_int_equal(time_map_host(&m, src_at(19.5, 0.3643), true, &a),
                     TM_PENDING);
    assert_int_equal(time_map_host(&m, src_at(-1, 0.3643), true, &a), TM_LOST);
    assert_int_equal(time_map_host(&m, NAN, true, &a), TM_LOST);
}

/* Slow fetches around a stamp do not blur it on a steady clock: the
 * quickest fetches near it place it; on a clock that may vary, the pair
 * around it does, and says so in its error. */
static void test_quick_anchors(void **state)
{
    (void)state;
    static struct time_map m;
    time_map_init(&m);
    for (int i = 0; i < 30; i++) { /* every fetch but each fifth is slow */
        double t = i, rtt = i % 5 ? 0.3 : 1e-3;
        time_map_add(&m, t - rtt / 2, t + rtt / 2, src_at(t, 1.01));
    }
    struct time_at a;
    assert_int_equal(time_map_host(&m, src_at(12.5, 1.01), true, &a), TM_OK);
    assert_near(a.host, 12.5, 1e-6);
    assert_true(a.err <= 1e-3);
    assert_near(a.lo, 12 - 0.15, 1e-9); /* still the pair around */
    assert_near(a.hi, 13 + 0.15, 1e-9);
    assert_int_equal(time_map_host(&m, src_at(12.5, 1.01), false, &a), TM_OK);
    assert_true(a.err >= 0.5);
}

static void test_refused_and_steps(void **state)
{
    (void)state;
    static struct time_map m;
    time_map_init(&m);
    struct time_at a;
    assert_int_equal(time_map_host(&m, S0, true, &a), TM_LOST); /* empty */
    feed(&m, 0, 5, 1.0, 1e-3, 1);
    time_map_add(&m, NAN, 1, S0);
    time_map_add(&m, 10, 9, S0 + 10);   /* after < before */
    time_map_add(&m, 1, 1.001, S0 + 1); /* back in host time */
    assert_int_equal(m.skipped, 3);
    assert_int_equal(m.count, 5);
    /* the source's clock stepped back: the map starts afresh */
    time_map_add(&m, 5, 5.001, S0 - 100);
    assert_int_equal(m.count, 1);
    assert_int_equal(time_map_host(&m, S0 + 2, true, &a), TM_PENDING);
    /* a full ring drops its oldest */
    time_map_init(&m);
    feed(&m, 0, TIME_MAP_MAX + 10, 0.1, 1e-3, 1);
    assert_int_equal(m.count, TIME_MAP_MAX);
    assert_int_equal(time_map_host(&m, src_at(0.5, 1), true, &a), TM_LOST);
    assert_int_equal(time_map_host(&m, src_at(50, 1), true, &a), TM_OK);
}

static void test_rates_steady(void **state)
{
    (void)state;
    static struct time_map m;
    struct time_rates r;
    time_map_init(&m);
    time_map_rates(&m, &r);
    assert_false(r.recent.ok);
    assert_true(isnan(r.lo));
    feed(&m, 0, 60, 1.0, 2e-3, 1.01);
    time_map_rates(&m, &r);
    assert_true(r.recent.ok && r.all.ok);
    assert_near(r.recent.rate, 1.01, 2 * STAMP_ULP / r.recent.span);
    assert_near(r.recent.span, TIME_MAP_RECENT, 1e-9);
    assert_near(r.all.span, 59, 1e-9);
    assert_true(r.recent.err > 0 && r.recent.err < 1e-3);
    assert_near(r.lo, 1.01, 2 * STAMP_ULP / TIME_MAP_SEGMENT);
    assert_near(r.hi, 1.01, 2 * STAMP_ULP / TIME_MAP_SEGMENT);
    assert_true(r.nspans >= 20);
    assert_false(r.unsteady);
    /* slow fetches make errors larger, not a varying rate */
    time_map_init(&m);
    for (int i = 0; i < 60; i++) {
        double t = i, rtt = i % 3 ? 2e-3 : 0.2;
        time_map_add(&m, t, t + rtt,
                     src_at(t + rtt * (i % 2 ? 0.05 : 0.95), 0.3643));
    }
    time_map_rates(&m, &r);
    assert_false(r.unsteady);
    assert_true(fabs(r.recent.rate - 0.3643) <= r.recent.err);
}

/* An icount guest: its clock runs 400x while idle, 5x while busy. */
static void test_rates_unsteady(void **state)
{
    (void)state;
    static struct time_map m;
    time_map_init(&m);
    double s = S0;
    for (int i = 0; i < 120; i++) {
        double t = i * 0.5, rate = (i / 10) % 2 ? 5 : 400;
        time_map_add(&m, t - 1e-3, t + 1e-3, s);
        s += 0.5 * rate;
    }
    struct time_rates r;
    time_map_rates(&m, &r);
    assert_true(r.unsteady);
    assert_near(r.lo, 5, 0.5);
    assert_near(r.hi, 400, 5);
    /* a stamp inside a busy stretch is placed where it happened, and the
     * error says how far it may be off: up to the fetches around it */
    struct time_at a;
    double stamp = S0; /* host time 17.1: fetch 34 (busy) and 0.1 s on */
    for (int i = 0; i < 34; i++)
        stamp += 0.5 * ((i / 10) % 2 ? 5 : 400);
    stamp += 0.1 * 5;
    assert_int_equal(time_map_host(&m, stamp, false, &a), TM_OK);
    assert_near(a.host, 17.1, 1e-6);
    assert_true(a.lo <= 17.1 && a.hi >= 17.1 && a.err <= 0.5);
}

/* A guest run's seconds for the host's: a steady clock's rate times the
 * real seconds (x0.25 to x10), real seconds where the rate is not known,
 * varies, or is real time within the tolerance */
static void test_source_seconds(void **state)
{
    (void)state;
    static struct time_map m;
    struct time_rates r;
    bool scaled;
    static const double rates[] = {0.25, 0.5, 2, 4, 10};
    for (size_t k = 0; k < sizeof(rates) / sizeof(rates[0]); k++) {
        time_map_init(&m);
        feed(&m, 0, 20, 1.0, 2e-3, rates[k]);
        time_map_rates(&m, &r);
        assert_near(time_rates_source_seconds(&r, 1, &scaled), rates[k],
                    1e-6 * rates[k]);
        assert_true(scaled);
        assert_near(time_rates_source_seconds(&r, 0.1, NULL), 0.1 * rates[k],
                    1e-7 * rates[k]);
    }
    time_map_init(&m);
    time_map_rates(&m, &r); /* no fetch yet */
    assert_near(time_rates_source_seconds(&r, 1, &scaled), 1, 0);
    assert_false(scaled);
    feed(&m, 0, 20, 1.0, 2e-3, 1 + TIME_MAP_TOL / 2);
    time_map_rates(&m, &r);
    assert_near(time_rates_source_seconds(&r, 1, &scaled), 1, 0);
    assert_false(scaled);
    time_map_init(&m); /* a varying clock: its own seconds, as asked */
    double s = S0;
    for (int i = 0; i < 60; i++) {
        time_map_add(&m, i * 0.5 - 1e-3, i * 0.5 + 1e-3, s);
        s += 0.5 * ((i / 10) % 2 ? 5 : 400);
    }
    time_map_rates(&m, &r);
    assert_true(r.unsteady);
    assert_near(time_rates_source_seconds(&r, 1, &scaled), 1, 0);
    assert_false(scaled);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_seconds),
        cmocka_unit_test(test_steady_stamp),
        cmocka_unit_test(test_quick_anchors),
        cmocka_unit_test(test_refused_and_steps),
        cmocka_unit_test(test_rates_steady),
        cmocka_unit_test(test_rates_unsteady),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
