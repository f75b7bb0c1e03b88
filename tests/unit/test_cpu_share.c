/* CPU shares: each state's milliseconds over every state's in the
 * interval, whatever clock the counters ran on. A source whose kernel
 * counts CPU time in real seconds while its own clock (the fetch stamps)
 * runs at x0.25 to x10, and one whose counters tick at another rate than
 * the host's (an icount guest), read the same shares; they add up to 100,
 * and a missing or reset state gives no share rather than a wrong one. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "core/cpu_share.h"
#include "core/model.h"
#include "sample_fixture.h"

/* ms per second of each state on one CPU: user 300, sys 100, nice 50,
 * idle 500, iowait 30, irq 15, steal 5 (1000 in all) */
static const struct {
    int id;
    double ms;
} load[] = {
    {METRIC_CPU_USER, 300}, {METRIC_CPU_SYS, 100},   {METRIC_CPU_NICE, 50},
    {METRIC_CPU_IDLE, 500}, {METRIC_CPU_IOWAIT, 30}, {METRIC_CPU_IRQ, 15},
    {METRIC_CPU_STEAL, 5},
};
#define NLOAD (sizeof(load) / sizeof(load[0]))

/* A fetch at host time t of a source with ncpu CPUs whose kernel counted
 * `tick` CPU-seconds per host second and whose clock reads `rate` source
 * seconds per host second (from 1000 at t = 0). */
static struct sample at(double t, int ncpu, double tick, double rate)
{
    struct sample s = fix_sample_at(t);
    s.info.ncpu = ncpu;
    s.t_source = 1000 + t * rate;
    s.t_real = 1.7e9 + t;
    for (size_t i = 0; i < NLOAD; i++)
        s.count[load[i].id] = (uint64_t)(t * tick * ncpu * load[i].ms);
    return s;
}

static void feed(struct source_model *m, int ncpu, double tick, double rate)
{
    model_init(m, "guest", "localhost:1");
    for (int k = 0; k < 4; k++) {
        struct sample s = at(10 + k * 0.5, ncpu, tick, rate);
        model_update(m, &s);
    }
}

/* Each share within 0.05 points (counters are whole milliseconds), and
 * all of them 100 */
static void assert_load(const struct source_model *m)
{
    double sum = 0;
    for (size_t i = 0; i < NLOAD; i++) {
        double v = m->value[load[i].id];
        assert_true(fabs(v - load[i].ms / 10) < 0.05);
        sum += v;
    }
    assert_true(fabs(sum - 100) < 1e-6);
}

/* The fetch stamps of a clock at another rate change no share: the same
 * counters at x0.25, x0.5, x1, x2, x4 and x10 (x0.5 once read 199% idle,
 * the interval taken by the source's clock) */
static void test_source_clock_rate(void **state)
{
    (void)state;
    static const double rates[] = {0.25, 0.5, 1, 2, 4, 10};
    for (size_t r = 0; r < sizeof(rates) / sizeof(rates[0]); r++) {
        struct source_model m;
        feed(&m, 2, 1, rates[r]);
        assert_load(&m);
        /* every rate stays per real second: 1000 context switches a host
         * second read 1000/s at any clock rate */
    }
}

/* Counters that tick at another rate than real time (a guest kernel on
 * virtual time, 3.7 CPU-seconds per host second, or a fifth of one): the
 * shares are of the CPU time they counted */
static void test_counters_at_another_rate(void **state)
{
    (void)state;
    struct source_model m;
    feed(&m, 1, 3.7, 3.7);
    assert_load(&m);
    feed(&m, 4, 0.2, 1);
    assert_load(&m);
    /* no source clock at all (this host, read from /proc) */
    model_init(&m, "host", NULL);
    for (int k = 0; k < 3; k++) {
        struct sample s = at(k, 2, 1, 1);
        s.t_source = NAN;
        model_update(&m, &s);
    }
    assert_load(&m);
}

/* Per-second rates stay on the host's clock while shares use none */
static void test_rates_stay_real(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "guest", "localhost:1");
    for (int k = 0; k < 3; k++) {
        struct sample s = at(k, 2, 1, 0.5);
        s.count[METRIC_CTXSW] = (uint64_t)(k * 1000);
        model_update(&m, &s);
    }
    assert_true(fabs(m.value[METRIC_CTXSW] - 1000) < 1e-6);
    assert_load(&m);
}

/* A source without some states (an old recording without nice and irq):
 * the shares of those it has, adding up to 100 */
static void test_states_missing(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "old", NULL);
    for (int k = 0; k < 3; k++) {
        struct sample s = at(k, 2, 1, 1);
        s.have[METRIC_CPU_NICE] = s.have[METRIC_CPU_IRQ] = false;
        model_update(&m, &s);
    }
    assert_true(isnan(m.value[METRIC_CPU_NICE]));
    assert_true(fabs(m.value[METRIC_CPU_USER] - 300.0 / 935 * 100) < 1e-6);
    double sum = 0;
    for (int id = 0; id < METRIC_COUNT; id++)
        if (metric_descs[id].kind == MK_CPU && isfinite(m.value[id]))
            sum += m.value[id];
    assert_true(fabs(sum - 100) < 1e-6);
    /* without idle there is no share of the CPU's time at all */
    model_init(&m, "old", NULL);
    for (int k = 0; k < 3; k++) {
        struct sample s = at(k, 2, 1, 1);
        s.have[METRIC_CPU_IDLE] = false;
        model_update(&m, &s);
    }
    assert_true(isnan(m.value[METRIC_CPU_USER]));
    assert_true(isnan(m.value[METRIC_CPU_IDLE]));
}

/* A state that went backwards (a reset) or that one end lacks makes the
 * total unknown: no share, not a share of a wrong total */
static void test_reset_state(void **state)
{
    (void)state;
    struct cpu_deltas d;
    cpu_deltas_init(&d);
    assert_true(isnan(cpu_deltas_total(&d)));
    cpu_deltas_add(&d, METRIC_CPU_USER, true, 100, true, 400, 64);
    cpu_deltas_add(&d, METRIC_CPU_SYS, true, 0, true, 100, 64);
    cpu_deltas_add(&d, METRIC_CPU_IDLE, true, 0, true, 500, 64);
    assert_true(fabs(cpu_deltas_total(&d) - 900) < 1e-9);
    assert_true(fabs(cpu_deltas_share(&d, METRIC_CPU_USER) - 100.0 / 3) < 1e-9);
    cpu_deltas_add(&d, METRIC_CPU_STEAL, true, 50, true, 10, 64);
    assert_true(isnan(cpu_deltas_total(&d)));
    assert_true(isnan(cpu_deltas_share(&d, METRIC_CPU_USER)));
    cpu_deltas_add(&d, METRIC_CPU_STEAL, false, 0, true, 10, 64);
    assert_true(isnan(cpu_deltas_share(&d, METRIC_CPU_USER)));
    /* a 32-bit counter across its wrap */
    cpu_deltas_add(&d, METRIC_CPU_STEAL, true, UINT32_MAX - 49, true, 50, 32);
    assert_true(fabs(cpu_deltas_total(&d) - 1000) < 1e-9);
    /* a rate counter is no CPU state */
    cpu_deltas_add(&d, METRIC_CTXSW, true, 0, true, 5000, 64);
    assert_true(fabs(cpu_deltas_total(&d) - 1000) < 1e-9);
    /* no CPU time passed (two fetches within a tick): no share */
    cpu_deltas_init(&d);
    cpu_deltas_add(&d, METRIC_CPU_USER, true, 7, true, 7, 64);
    cpu_deltas_add(&d, METRIC_CPU_SYS, true, 7, true, 7, 64);
    cpu_deltas_add(&d, METRIC_CPU_IDLE, true, 7, true, 7, 64);
    assert_true(isnan(cpu_deltas_share(&d, METRIC_CPU_IDLE)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_source_clock_rate),
        cmocka_unit_test(test_counters_at_another_rate),
        cmocka_unit_test(test_rates_stay_real),
        cmocka_unit_test(test_states_missing),
        cmocka_unit_test(test_reset_state),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
