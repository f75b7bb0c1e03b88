/* The fleet's arithmetic without a network: the clock rate from a
 * logger's stamps (late fetches, missed ticks, a step), the model folding
 * polls (rates over stamps, CPU shares, staleness, pairing, drift and the
 * offset's bounds, a pmproxy that stops answering), and the view (filters,
 * worst-first order, distributions, the guests a run takes). The polls
 * are made up here with figures chosen so the answers are known; the real
 * pmproxy path is tests/integration/test_fleet.sh. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fleet/fleet_clock.h"
#include "fleet/fleet_metrics.h"
#include "fleet/fleet_model.h"
#include "view/fleet_view.h"

#define T0 1796126000.0

/* A delay in [0, max) from a fixed sequence: a fetch's way to the source. */
static double delay(unsigned *seed, double max)
{
    *seed = *seed * 1103515245u + 12345u;
    return max * (double)((*seed >> 8) % 10000) / 10000.0;
}

static void test_ticks_rate(void **state)
{
    (void)state;
    struct fleet_ticks t;
    unsigned seed = 1;
    fleet_ticks_init(&t);
    /* a clock 1000 ppm fast, logged every second, fetches late by up to
     * 30 ms, seen by polls that find one, two or three new records (every
     * other tick missed is more than half of the gaps two ticks long) */
    for (int k = 0; k < 120; k++)
        if (k % 2 == 0 || k % 5 == 0)
            fleet_ticks_add(&t, T0 + k * 1.001 + delay(&seed, 0.03));
    double rate = fleet_ticks_rate(&t);
    assert_true(fabs(rate / 1.001 - 1) < 50e-6);
    /* the same record seen twice, or an older one: nothing changes */
    fleet_ticks_add(&t, fleet_ticks_last(&t));
    fleet_ticks_add(&t, T0);
    assert_true(fleet_ticks_rate(&t) == rate);
}

static void test_ticks_late_and_step(void **state)
{
    (void)state;
    struct fleet_ticks t;
    fleet_ticks_init(&t);
    for (int k = 0; k < 40; k++) /* one fetch 0.6 s late: not a step */
        fleet_ticks_add(&t, T0 + k + (k == 20 ? 0.6 : 0));
    assert_true(fabs(fleet_ticks_rate(&t) - 1) < 1e-6);
    /* a step of +0.5 s: the window starts again after it */
    for (int k = 40; k < 50; k++)
        fleet_ticks_add(&t, T0 + k + 0.5);
    assert_true(isnan(fleet_ticks_rate(&t))); /* 10 stamps since: too few */
    for (int k = 50; k < 60; k++)
        fleet_ticks_add(&t, T0 + k + 0.5);
    assert_true(fabs(fleet_ticks_rate(&t) - 1) < 1e-6);
    fleet_ticks_init(&t);
    assert_true(isnan(fleet_ticks_rate(&t)));
}

/* A poll of two sources: host h1 (role host) and guest g1 of h1, their
 * anchor stamped at `stamp` by each one's clock, counters given. */
struct fake {
    struct fleet_raw raw;
    struct fleet_src_raw src[3];
};

static void fake_source(struct fleet_src_raw *s, const char *id,
                        const char *name, enum fleet_role role,
                        const char *host)
{
    memset(s, 0, sizeof(*s));
    snprintf(s->id, sizeof(s->id), "%s", id);
    s->lab.role = role;
    snprintf(s->lab.name, sizeof(s->lab.name), "%s", name);
    snprintf(s->lab.host, sizeof(s->lab.host), "%s", host);
    snprintf(s->lab.variant, sizeof(s->lab.variant), "%s",
             role == FLEET_HOST ? "metal" : "tcg");
    snprintf(s->release, sizeof(s->release), "6.1.0-%s", name);
    for (int k = 0; k < FLEET_NAMES_MAX; k++)
        s->stamp[k] = s->value[k] = NAN;
}

/* Sets s's records at stamp: `ms` CPU user milliseconds of `total` the
 * CPUs counted (none of sys, the rest idle), ctx switches, 2 CPUs. */
static void fake_values(struct fleet_src_raw *s, double stamp, uint64_t ms,
                        uint64_t total, uint64_t ctx)
{
    const struct fleet_metrics *fm = fleet_metrics();
    int user = fm->a[METRIC_CPU_USER], sw = fm->a[METRIC_CTXSW];
    int sys = fm->a[METRIC_CPU_SYS], idle = fm->a[METRIC_CPU_IDLE];
    s->stamp[user] = s->stamp[sw] = s->stamp[fm->ncpu] = stamp;
    s->stamp[sys] = s->stamp[idle] = stamp;
    s->count[sys] = 0;
    s->value[sys] = 0;
    s->count[idle] = total - ms;
    s->value[idle] = (double)(total - ms);
    s->count[user] = ms;
    s->value[user] = (double)ms;
    s->count[sw] = ctx;
    s->value[sw] = (double)ctx;
    s->value[fm->ncpu] = 2;
}

static void fake_init(struct fake *f)
{
    memset(f, 0, sizeof(*f));
    f->raw.src = f->src;
    f->raw.nsrc = f->raw.cap = 3;
    f->raw.link = FLEET_LINK_UP;
    fake_source(&f->src[0], "1111111111111111111111111111111111111111", "h1",
                FLEET_HOST, "h1");
    fake_source(&f->src[1], "2222222222222222222222222222222222222222", "g1",
                FLEET_GUEST, "h1");
    fake_source(&f->src[2], "3333333333333333333333333333333333333333", "g2",
                FLEET_GUEST, "h9"); /* its host is not in the fleet */
}

/* Poll j of a fleet whose host's clock is right, g1's runs fast by 2000
 * ppm and is 5 s ahead, g2 right. The loggers tick at T0 + k + 0.7; poll
 * j begins at T0 + j + a varying part of a second (the poller's
 * golden-ratio phases), takes 20 ms, and sees the records of the newest
 * tick before it. */
static void fake_poll(struct fake *f, struct fleet_model *m, int j)
{
    double begin = T0 + j + fmod(j * 0.6180339887, 1.0);
    int k = (int)floor(begin - T0 - 0.7);
    double tick = T0 + k + 0.7;
    /* every kernel counts 2000 ms of CPU time a real second */
    uint64_t total = 2000u * (uint64_t)k;
    fake_values(&f->src[0], tick, 1000u * (uint64_t)k, total,
                500u * (uint64_t)k);
    fake_values(&f->src[1], 5 + T0 + 0.7 + k * 1.002, 1500u * (uint64_t)k,
                total, 1000u * (uint64_t)k);
    fake_values(&f->src[2], tick, 400u * (uint64_t)k, total, 10u * (uint64_t)k);
    f->raw.read_begin = begin;
    f->raw.read_end = begin + 0.02;
    f->raw.answered_at = 100.0 + j;
    fleet_model_update(m, &f->raw, 100.0 + j);
}

/* A state whose newest record pmproxy has not taken in yet (idle a
 * record behind the others every other poll): g1's shares hold, 75% user
 * of the CPU time counted, on its clock 2000 ppm fast */
static void test_cpu_shares_lag(void **state)
{
    (void)state;
    static struct fake f;
    static struct fleet_model m;
    fake_init(&f);
    fleet_model_init(&m, "http://proxy:44322", 1.0);
    for (int k = 0; k < 40; k++)
        fake_poll(&f, &m, k);
    const struct fleet_source *sg = &m.src[fleet_find(&m, "g1")];
    const struct fleet_metrics *fm = fleet_metrics();
    int idle = fm->a[METRIC_CPU_IDLE];
    for (int k = 40; k < 44; k++) { /* ticks 40-43, as fake_poll makes them */
        fake_values(&f.src[1], 5 + T0 + 0.7 + k * 1.002, 1500u * (uint64_t)k,
                    2000u * (uint64_t)k, 1000u * (uint64_t)k);
        if (k % 2) { /* idle's record of the tick before */
            f.src[1].stamp[idle] = 5 + T0 + 0.7 + (k - 1) * 1.002;
            f.src[1].count[idle] = 500u * (uint64_t)(k - 1);
        }
        f.raw.answered_at = 100.0 + k;
        fleet_model_update(&m, &f.raw, 100.0 + k);
        assert_true(fabs(sg->value[METRIC_CPU_USER] - 75) < 1e-4);
        assert_true(fabs(sg->value[METRIC_CPU_IDLE] - 25) < 1e-4);
    }
}

static void test_model(void **state)
{
    (void)state;
    static struct fake f;
    static struct fleet_model m;
    fake_init(&f);
    fleet_model_init(&m, "http://proxy:44322", 1.0);
    for (int k = 0; k < 40; k++)
        fake_poll(&f, &m, k);
    assert_int_equal(m.n, 3);
    assert_int_equal(m.nhosts, 1);
    assert_int_equal(m.nguests, 2);
    int h = fleet_find(&m, "h1"), g = fleet_find(&m, "g1"),
        g2 = fleet_find(&m, "g2");
    const struct fleet_source *sg = &m.src[g];
    assert_int_equal(sg->host, h);
    assert_int_equal(m.src[g2].host, -1);
    assert_int_equal(sg->state, FLEET_LIVE);
    /* 1000 ms of CPU a second on 2 CPUs: 50% */
    assert_true(fabs(m.src[h].value[METRIC_CPU_USER] - 50) < 1e-6);
    /* g1: 1500 ms of the 2000 its CPUs counted between two records,
     * 1.002 s apart by its clock: 75%, whatever its clock says */
    assert_true(fabs(sg->value[METRIC_CPU_USER] - 75) < 1e-6);
    assert_true(fabs(sg->value[METRIC_CPU_IDLE] - 25) < 1e-6);
    /* its context switches per real second: 1000, through the drift */
    assert_true(fabs(sg->value[METRIC_CTXSW] - 1000) < 0.01);
    assert_true(fabs(sg->drift_ppm - 2000) < 1);
    /* its offset is within the bounds, and the bounds are honest */
    double truth = 5 + 0.7 * 0.002 + 38 * 0.002; /* at tick 38 */
    assert_true(fabs(sg->offset - truth) <= sg->offset_res + 1e-9);
    /* each record's bracket is as wide as the time between two polls
     * plus a logging tick (pmproxy may take a record in a tick after its
     * logger wrote it): the intersection narrows to about a tick */
    assert_true(sg->offset_res < 1.2);
    /* ratios: g1 against h1; g2 has no host */
    assert_true(fabs(fleet_metric_ratio(&m, g, METRIC_CTXSW) - 2) < 0.01);
    assert_true(isnan(fleet_metric_ratio(&m, g2, METRIC_CTXSW)));
    /* records stop coming: late after 2.5 intervals (its figures stay,
     * with their age), stale after 2.5 of its longest gap between
     * arrivals (no figures) */
    double seen = m.src[g].seen_at;
    fleet_model_age(&m, seen + 2.0);
    assert_int_equal(m.src[g].state, FLEET_LIVE);
    f.raw.read_begin += 4;
    f.raw.read_end += 4;
    f.raw.answered_at = seen + 3.0;
    fleet_model_update(&m, &f.raw, seen + 3.0);
    assert_int_equal(m.src[g].state, FLEET_LATE);
    assert_false(isnan(m.src[g].value[METRIC_CPU_USER]));
    f.raw.answered_at = seen + 5.1;
    fleet_model_update(&m, &f.raw, seen + 5.1);
    assert_int_equal(m.src[g].state, FLEET_STALE);
    assert_true(isnan(m.src[g].value[METRIC_CPU_USER]));
    /* pmproxy stops answering: nothing is claimed, the link says why */
    fleet_model_age(&m, seen + 9.0);
    assert_int_equal(m.link, FLEET_LINK_DOWN);
    assert_int_equal(m.src[h].state, FLEET_NODATA);
    assert_true(isnan(m.src[h].value[METRIC_CPU_USER]));
    assert_non_null(strstr(m.error, "has not answered"));
    fleet_model_free(&m);
}

static void test_view(void **state)
{
    (void)state;
    static struct fake f;
    static struct fleet_model m;
    struct fleet_view v;
    char err[200], buf[64];
    fake_init(&f);
    fleet_model_init(&m, "http://proxy:44322", 1.0);
    for (int k = 0; k < 30; k++)
        fake_poll(&f, &m, k);
    fleet_view_init(&v);
    /* guests only, worst drift first; g2 has no host: no drift, last */
    fleet_view_build(&v, &m, NULL);
    assert_int_equal(v.nrows, 2);
    assert_string_equal(m.src[v.row[0]].lab.name, "g1");
    assert_int_equal(v.dist[FC_DRIFT].n, 1);
    assert_int_equal(v.dist[FC_DRIFT].worst_src, fleet_find(&m, "g1"));
    fleet_cell_text(&v, &m, NULL, v.row[1], FC_DRIFT, 130, buf, sizeof buf);
    assert_string_equal(buf, "-");
    fleet_cell_text(&v, &m, NULL, v.row[1], FC_HOST, 130, buf, sizeof buf);
    assert_string_equal(buf, "h9?");
    /* by busy CPU: g1 (75%) over g2 (20%); reversed, the other way */
    v.sort = FC_BUSY;
    fleet_view_build(&v, &m, NULL);
    assert_string_equal(m.src[v.row[0]].lab.name, "g1");
    assert_true(fabs(v.dist[FC_BUSY].median - (75 + 20) / 2.0) < 0.01);
    v.reverse = true;
    fleet_view_build(&v, &m, NULL);
    assert_string_equal(m.src[v.row[0]].lab.name, "g2");
    /* filters */
    assert_int_equal(fleet_filter_parse("host:h9", &v.filter, err, sizeof err),
                     0);
    fleet_view_build(&v, &m, NULL);
    assert_int_equal(v.nrows, 1);
    assert_string_equal(m.src[v.row[0]].lab.name, "g2");
    assert_int_equal(
        fleet_filter_parse("role:host kernel:6.1*", &v.filter, err, sizeof err),
        0);
    fleet_view_build(&v, &m, NULL);
    assert_int_equal(v.nrows, 1);
    assert_string_equal(m.src[v.row[0]].lab.name, "h1");
    assert_int_equal(
        fleet_filter_parse("colour:red", &v.filter, err, sizeof err), -1);
    assert_non_null(strstr(err, "no filter 'colour:'"));
    assert_int_equal(fleet_filter_parse("host:", &v.filter, err, sizeof err),
                     -1);
    /* what a run takes: the marked guests shown, else every one shown */
    fleet_filter_parse("", &v.filter, err, sizeof err);
    fleet_view_build(&v, &m, NULL);
    int chosen[4];
    assert_int_equal(fleet_view_chosen(&v, chosen, 4), 2);
    fleet_view_mark(&v, fleet_find(&m, "g2"), true);
    assert_int_equal(fleet_view_chosen(&v, chosen, 4), 1);
    assert_int_equal(chosen[0], fleet_find(&m, "g2"));
    fleet_view_free(&v);
    fleet_model_free(&m);
}

static void test_distribution(void **state)
{
    (void)state;
    double x[20], bad[20];
    int src[20], worst[3];
    struct fleet_dist d;
    for (int i = 0; i < 20; i++) {
        x[i] = bad[i] = i + 1; /* 1 .. 20 */
        src[i] = 100 + i;
    }
    bad[5] = x[5] = NAN; /* no figure: left out */
    fleet_dist_compute(bad, x, src, 20, &d, worst, 3);
    assert_int_equal(d.n, 19);
    assert_true(d.median == 11);
    assert_true(d.p95 == 20); /* nearest rank: the 19th of 19 */
    assert_true(d.worst == 20);
    assert_int_equal(worst[0], 119);
    assert_int_equal(worst[1], 118);
    assert_int_equal(worst[2], 117);
}

/* Every metric a column shows is one the poller reads every poll. */
static void test_columns_polled(void **state)
{
    (void)state;
    for (int c = 0; c < FC_COUNT; c++)
        if (fleet_cols[c].metric >= 0 &&
            !fleet_metric_polled((enum metric_id)fleet_cols[c].metric))
            fail_msg("column %s shows a metric the poller does not read",
                     fleet_cols[c].header_ascii);
    assert_true(fleet_metric_polled(METRIC_CPU_USER)); /* cpu% */
    assert_true(fleet_metric_polled(METRIC_CPU_SYS));
    const struct fleet_metrics *fm = fleet_metrics();
    assert_int_equal(fm->names[fm->anchor].use, FLEET_POLL);
    assert_int_equal(fm->names[fm->ncpu].use, FLEET_INFO);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_columns_polled),
        cmocka_unit_test(test_ticks_rate),
        cmocka_unit_test(test_ticks_late_and_step),
        cmocka_unit_test(test_model),
        cmocka_unit_test(test_cpu_shares_lag),
        cmocka_unit_test(test_view),
        cmocka_unit_test(test_distribution),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
