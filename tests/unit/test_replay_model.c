/* The model fed by a replay (core/model.c with struct replay_pos): a
 * paused replay's "again" samples change no figure, a jump restarts rates
 * and the clock fit, and a recorded column is never stale however old its
 * recorded times are. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "tests/near.h"

#include "core/model.h"
#include "sample_fixture.h"

/* A recorded sample at recorded time t (an hour before any now), with
 * ctx switches `ctx` and the source's clock 5 ms ahead. */
static struct sample recorded(double t, uint64_t ctx)
{
    struct sample s = fix_sample_at(t);
    s.count[METRIC_CTXSW] = ctx;
    s.t_real = 1.7e9 + t;
    s.t_source = s.t_real + 0.005;
    s.replay.on = true;
    s.replay.at = s.t_real;
    s.replay.speed = 1;
    return s;
}

static void test_again_changes_nothing(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "rec:host", "rec/host");
    for (int k = 0; k < 3; k++) {
        struct sample s = recorded(k, 1000 * (uint64_t)k);
        model_update(&m, &s);
    }
    assert_near(m.value[METRIC_CTXSW], 1000, 1e-6);
    unsigned long updates = m.updates;
    struct sample again = recorded(99, 0);
    again.replay.again = true;
    again.replay.speed = 0; /* paused */
    again.have[METRIC_CTXSW] = false;
    model_update(&m, &again);
    assert_int_equal(m.updates, updates);
    assert_near(m.value[METRIC_CTXSW], 1000, 1e-6);
    assert_true(m.replay.speed == 0); /* the position is news */
}

static void test_jump_restarts_rates_and_clock(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "rec:g1", "rec/g1");
    for (int k = 0; k < 12; k++) {
        struct sample s = recorded(k, 1000 * (uint64_t)k);
        model_update(&m, &s);
    }
    struct clock_fit f;
    clock_model_fit(&m.clock, &f);
    assert_true(f.ok);
    assert_near(f.offset, 0.005, 1e-4);
    /* back to the start of a run: across the jump, no rate */
    struct sample s = recorded(40, 3000);
    s.replay.restart = true;
    model_update(&m, &s);
    assert_true(isnan(m.value[METRIC_CTXSW]));
    clock_model_fit(&m.clock, &f);
    assert_false(f.ok);
    s = recorded(41, 3500);
    model_update(&m, &s);
    assert_near(m.value[METRIC_CTXSW], 500, 1e-6);
}

static void test_never_stale(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "rec:host", "rec/host");
    struct sample s = recorded(1, 0);
    model_update(&m, &s);
    assert_false(model_is_stale(&m, 1e6, 1.0));
    m.replay.on = false; /* a live source that old is stale */
    assert_true(model_is_stale(&m, 1e6, 1.0));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_again_changes_nothing),
        cmocka_unit_test(test_jump_restarts_rates_and_clock),
        cmocka_unit_test(test_never_stale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
