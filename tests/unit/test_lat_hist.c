/* The latency histogram, checked against what it summarises: percentiles
 * against the exact nearest-rank percentiles of the samples themselves
 * (sorted here, independently of the histogram), edges against 10^(k/20)
 * computed here, the wire text against the histogram it came from. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "tests/near.h"

#include "workloads/lat_hist.h"

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The nearest-rank percentile of sorted x[0..n). */
static double exact(const double *x, size_t n, double p)
{
    size_t r = (size_t)ceil(p / 100.0 * (double)n);
    return x[(r < 1 ? 1 : r) - 1];
}

static void test_edges(void **state)
{
    (void)state;
    assert_near(lat_hist_lo(0), 0, 0);
    assert_near(lat_hist_lo(1), 1e3, 1e-9);
    assert_near(lat_hist_lo(21), 1e4, 1e-6); /* a decade is 20 buckets */
    assert_near(lat_hist_lo(LAT_HIST_NBUCKETS - 1), 1e9, 0);
    assert_true(isinf(lat_hist_hi(LAT_HIST_NBUCKETS - 1)));
    for (int k = 0; k <= 120; k++) {
        double edge = 1e3 * pow(10, k / 20.0);
        /* a sample on an edge opens the bucket that starts there */
        assert_int_equal(lat_hist_bucket(edge), k + 1 > 121 ? 121 : k + 1);
        if (k > 0)
            assert_int_equal(lat_hist_bucket(nextafter(edge, 0)), k);
    }
    assert_int_equal(lat_hist_bucket(0), 0);
    assert_int_equal(lat_hist_bucket(999), 0);
    assert_int_equal(lat_hist_bucket(-5), 0);
    assert_int_equal(lat_hist_bucket(NAN), 0);
    assert_int_equal(lat_hist_bucket(5e9), LAT_HIST_NBUCKETS - 1);
}

/* Log-normal samples around 50 us with a tail, as timer latencies look:
 * every percentile within one bucket (12%) of the exact one. */
static void test_percentiles_against_sorted(void **state)
{
    (void)state;
    enum { N = 100000 };
    double *x = malloc(N * sizeof *x);
    assert_non_null(x);
    struct lat_hist h = {0};
    srand48(27);
    for (int i = 0; i < N; i++) {
        double u1 = drand48() + 1e-12, u2 = drand48();
        double z = sqrt(-2 * log(u1)) * cos(2 * M_PI * u2);
        x[i] = 50e3 * exp(0.8 * z) + (i % 1000 == 0 ? 2e6 : 0);
        lat_hist_add(&h, x[i]);
    }
    qsort(x, N, sizeof *x, cmp);
    assert_int_equal(h.n, N);
    const double ps[] = {1, 10, 50, 90, 99, 99.9, 99.99};
    for (size_t i = 0; i < sizeof ps / sizeof ps[0]; i++) {
        double want = exact(x, N, ps[i]);
        double got = lat_hist_percentile(&h, ps[i]);
        if (fabs(got - want) > want * (pow(10, 1 / 20.0) - 1))
            fail_msg("p%g: %g ns, the samples' %g", ps[i], got, want);
    }
    assert_near(lat_hist_percentile(&h, 100), x[N - 1], 0);
    assert_near(h.max_ns, x[N - 1], 0);
    assert_near(h.min_ns, x[0], 0);
    free(x);
}

/* Few samples: the nearest rank, clamped to the exact extremes. */
static void test_small(void **state)
{
    (void)state;
    struct lat_hist h = {0};
    assert_true(isnan(lat_hist_percentile(&h, 50)));
    lat_hist_add(&h, 7000);
    assert_near(lat_hist_percentile(&h, 50), 7000, 0);
    assert_near(lat_hist_percentile(&h, 99.9), 7000, 0);
    lat_hist_add(&h, 3000);
    lat_hist_add(&h, 2e9); /* beyond 1 s: the last bucket */
    assert_int_equal(h.count[LAT_HIST_NBUCKETS - 1], 1);
    assert_near(lat_hist_percentile(&h, 100), 2e9, 0);
    double p50 = lat_hist_percentile(&h, 50); /* rank 2: the 7 us sample */
    assert_true(p50 >= 7000 / 1.13 && p50 <= 7000 * 1.13);
    assert_near(lat_hist_percentile(&h, 1), 3000, 3000 * 0.13);
}

static void test_text_round_trip(void **state)
{
    (void)state;
    struct lat_hist h = {0}, back;
    for (int i = 0; i < 5000; i++)
        lat_hist_add(&h, 800.0 + i * 977.3);
    char buf[LAT_HIST_TEXT_MAX];
    assert_true(lat_hist_format(&h, buf, sizeof buf) > 0);
    assert_true(lat_hist_parse(buf, &back));
    assert_memory_equal(&h, &back, sizeof h);
    /* every bucket used still fits */
    struct lat_hist full = {0};
    for (int i = 0; i < LAT_HIST_NBUCKETS; i++)
        for (int k = 0; k < 1000; k++)
            full.count[i] += 1000000007ULL;
    full.n = 1000000007ULL * 1000 * LAT_HIST_NBUCKETS;
    full.max_ns = 1.0 / 3, full.sum_ns = 1e300;
    assert_true(lat_hist_format(&full, buf, sizeof buf) > 0);
    assert_true(lat_hist_parse(buf, &back));
    assert_memory_equal(&full, &back, sizeof full);
    struct lat_hist empty = {0};
    assert_int_equal(lat_hist_format(&empty, buf, sizeof buf), 0);
    assert_string_equal(buf, "");
}

static void test_parse_refuses(void **state)
{
    (void)state;
    struct lat_hist h;
    const char *bad[] = {
        "",
        "x",
        "2 5 1 6;3:1",   /* counts short of n */
        "1 5 1 5;122:1", /* no such bucket */
        "1 5 1 5;3:1,",  /* a dangling comma */
        "1 nan 1 5;3:1", /* not a number */
        "1 5 9 5;3:1",   /* min above max */
        "1 5 1 5;3:1;junk",
        "-1 5 1 5;3:1",
        "1 5 1 5 3:1",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        if (lat_hist_parse(bad[i], &h))
            fail_msg("took \"%s\"", bad[i]);
        assert_int_equal(h.n, 0);
    }
    assert_true(lat_hist_parse("2 5000 3000 8000;11:1,15:1", &h));
    assert_int_equal(h.count[11] + h.count[15], 2);
}

/* A clock at half speed measured every latency at half its real length:
 * scaled by its rate, each sample moves up by 20 log10(2) = 6.02 buckets
 * (to the bucket of its centre), the exact figures double exactly. */
static void test_scale(void **state)
{
    (void)state;
    struct lat_hist h = {0}, real;
    for (int i = 0; i < 100; i++)
        lat_hist_add(&h, 10e3);
    lat_hist_add(&h, 40e3);
    lat_hist_scale(&h, 0.5, &real);
    assert_int_equal(real.n, h.n);
    assert_near(real.max_ns, 80e3, 0);
    assert_near(real.min_ns, 20e3, 0);
    assert_int_equal(real.count[lat_hist_bucket(20e3)], 100);
    assert_int_equal(real.count[lat_hist_bucket(80e3)], 1);
    double p50 = lat_hist_percentile(&real, 50);
    assert_true(p50 > 20e3 / 1.13 && p50 < 20e3 * 1.13);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_percentiles_against_sorted),
        cmocka_unit_test(test_small),
        cmocka_unit_test(test_text_round_trip),
        cmocka_unit_test(test_parse_refuses),
        cmocka_unit_test(test_scale),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
