/* The model: the first sample gives no rate, rates follow the measured
 * interval (jitter), CPU shares of the CPU time counted, resets and wraps,
 * failed fetches and missing metrics read n/a, the first rate after a
 * reconnect is n/a, history keeps gaps. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/model.h"
#include "sample_fixture.h"

/* A sample at host time t (fetch taking 2 ms) and source time 1000 + t. */
static struct sample mk(double t)
{
    struct sample s = fix_sample_at(t);
    s.t_source = 1000 + t;
    s.info.ncpu = 2;
    return s;
}

static void test_first_sample_has_no_rate(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "host", NULL);
    assert_int_equal(m.state, SRC_CONNECTING);
    struct sample s = mk(10);
    s.count[METRIC_FORKS] = 500;
    s.value[METRIC_LOAD1] = 0.75;
    model_update(&m, &s);
    assert_int_equal(m.state, SRC_LIVE);
    assert_true(isnan(m.value[METRIC_FORKS]));
    assert_true(isnan(m.value[METRIC_CPU_USER]));
    assert_true(fabs(m.value[METRIC_LOAD1] - 0.75) < 1e-12);
    assert_true(isnan(history_get(&m.hist[METRIC_FORKS], 0)));
}

static void test_rate_over_jittered_interval(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "host", NULL);
    struct sample a = mk(10), b = mk(11.25), c = mk(12.0);
    a.count[METRIC_CTXSW] = 1000;
    b.count[METRIC_CTXSW] = 1500; /* 500 over 1.25 s */
    c.count[METRIC_CTXSW] = 1800; /* 300 over 0.75 s */
    model_update(&m, &a);
    model_update(&m, &b);
    assert_true(fabs(m.value[METRIC_CTXSW] - 400) < 1e-6);
    model_update(&m, &c);
    assert_true(fabs(m.value[METRIC_CTXSW] - 400) < 1e-6);
    assert_true(fabs(history_get(&m.hist[METRIC_CTXSW], 1) - 400) < 1e-6);
}

/* the source's clock saw 2 s pass while the host saw 1 s: the share is of
 * the CPU time counted, not of either interval (tests/unit/test_cpu_share
 * tries every rate) */
static void test_cpu_share_of_time_counted(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "guest", NULL);
    struct sample a = mk(10), b = mk(11);
    b.t_source = a.t_source + 2.0;
    b.count[METRIC_CPU_USER] = 500; /* 2000 ms on 2 CPUs: a quarter */
    b.count[METRIC_CPU_IDLE] = 1500;
    model_update(&m, &a);
    model_update(&m, &b);
    assert_true(fabs(m.value[METRIC_CPU_USER] - 25.0) < 1e-9);
    assert_true(fabs(m.value[METRIC_CPU_IDLE] - 75.0) < 1e-9);
    assert_true(fabs(m.value[METRIC_CPU_SYS]) < 1e-9);
}

static void test_reset_gives_na_then_recovers(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "host", NULL);
    struct sample a = mk(1), b = mk(2), c = mk(3);
    a.count[METRIC_FORKS] = 90000;
    b.count[METRIC_FORKS] = 20; /* rebooted */
    c.count[METRIC_FORKS] = 70;
    model_update(&m, &a);
    model_update(&m, &b);
    assert_true(isnan(m.value[METRIC_FORKS]));
    model_update(&m, &c);
    assert_true(fabs(m.value[METRIC_FORKS] - 50) < 1e-6);
}

static void test_wrap_32_in_model(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "host", NULL);
    struct sample a = mk(1), b = mk(2);
    a.width[METRIC_INTR] = b.width[METRIC_INTR] = 32;
    a.count[METRIC_INTR] = UINT32_MAX - 99;
    b.count[METRIC_INTR] = 100; /* 200 across the wrap */
    model_update(&m, &a);
    model_update(&m, &b);
    assert_true(fabs(m.value[METRIC_INTR] - 200) < 1e-6);
}

static void test_failed_fetch_and_missing_metric(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "guest", NULL);
    struct sample a = mk(1), down = mk(2), c = mk(3);
    a.count[METRIC_FORKS] = 10;
    down.ok = false;
    strcpy(down.error, "connection refused");
    c.count[METRIC_FORKS] = 30;
    c.have[METRIC_DISK_READ] = false;
    model_update(&m, &a);
    model_update(&m, &down);
    assert_int_equal(m.state, SRC_DOWN);
    assert_string_equal(m.error, "connection refused");
    assert_true(isnan(m.value[METRIC_LOAD1]));
    model_update(&m, &c);
    assert_int_equal(m.state, SRC_LIVE);
    assert_true(isnan(m.value[METRIC_DISK_READ]));
}

/* Back from down, the first rate would be averaged over the whole outage:
 * it is n/a, and the next one is over its own interval again. */
static void test_reconnect_gives_na_then_rates(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "guest", NULL);
    struct sample a = mk(1), b = mk(2), down = mk(3), c = mk(60), d = mk(61);
    a.count[METRIC_FORKS] = 10;
    b.count[METRIC_FORKS] = 20;
    a.count[METRIC_CPU_USER] = 0;
    b.count[METRIC_CPU_USER] = 1000;
    b.count[METRIC_CPU_IDLE] = 1000;
    down.ok = false;
    c.count[METRIC_FORKS] = 5000; /* 4980 forks during a 58 s outage */
    c.count[METRIC_CPU_USER] = 90000;
    c.count[METRIC_CPU_IDLE] = 26000;
    d.count[METRIC_FORKS] = 5100;
    d.count[METRIC_CPU_USER] = 90500;
    d.count[METRIC_CPU_IDLE] = 27500;
    d.value[METRIC_LOAD1] = 2.5;
    model_update(&m, &a);
    model_update(&m, &b);
    assert_true(fabs(m.value[METRIC_FORKS] - 10) < 1e-6);
    model_update(&m, &down);
    model_update(&m, &c);
    assert_int_equal(m.state, SRC_LIVE);
    assert_true(isnan(m.value[METRIC_FORKS]));
    assert_true(isnan(m.value[METRIC_CPU_USER]));
    assert_true(isnan(history_get(&m.hist[METRIC_FORKS], 0)));
    model_update(&m, &d);
    assert_true(fabs(m.value[METRIC_FORKS] - 100) < 1e-6);
    assert_true(fabs(m.value[METRIC_CPU_USER] - 25.0) < 1e-9);
    assert_true(fabs(m.value[METRIC_LOAD1] - 2.5) < 1e-12);
}

static void test_down_since_and_stale(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "guest", "localhost:44322");
    assert_string_equal(m.target, "localhost:44322");
    struct sample a = mk(10), d1 = mk(11), d2 = mk(12), c = mk(20);
    d1.ok = d2.ok = false;
    d1.retry_at = 12;
    d2.retry_at = 14;
    model_update(&m, &a);
    assert_false(model_is_stale(&m, 11.0, 1.0));
    assert_true(model_is_stale(&m, 13.0, 1.0)); /* 3 s > 2.5 intervals */
    model_update(&m, &d1);
    model_update(&m, &d2);
    /* down since the first failure of the spell; next try from the last */
    assert_true(fabs(m.down_since - 11) < 1e-9);
    assert_true(fabs(m.retry_at - 14) < 1e-9);
    assert_false(model_is_stale(&m, 30.0, 1.0)); /* down, not stale */
    model_update(&m, &c);
    assert_int_equal(m.state, SRC_LIVE);
    assert_true(m.down_since == 0);
    assert_int_equal(m.updates, 4);
    assert_int_equal(m.samples, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_sample_has_no_rate),
        cmocka_unit_test(test_rate_over_jittered_interval),
        cmocka_unit_test(test_cpu_share_of_time_counted),
        cmocka_unit_test(test_reset_gives_na_then_recovers),
        cmocka_unit_test(test_wrap_32_in_model),
        cmocka_unit_test(test_failed_fetch_and_missing_metric),
        cmocka_unit_test(test_reconnect_gives_na_then_rates),
        cmocka_unit_test(test_down_since_and_stale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
