/* parallax's own cost: a CPU-bound span reads near 100% of a CPU, a
 * sleeping one near 0, the resident size is what /proc says, and no share
 * is shown before the first tick or from a too short span. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "base/clock.h"
#include "core/selfcost.h"

/* This process's CPU seconds, by another clock than selfcost's
 * (getrusage): the kernel's per-process CPU clock. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* selfcost's share of a span against the one this test timed around it
 * (its readings lie within the test's): within a point, however much of a
 * CPU the machine gave the span. */
static void check_share(const struct selfcost *c, double cpu0, double wall0,
                        double cpu1, double wall1)
{
    double outer = 100 * (cpu1 - cpu0) / (wall1 - wall0);
    print_message("selfcost %.2f%%, timed %.2f%%\n", c->cpu_pct, outer);
    assert_true(fabs(c->cpu_pct - outer) <= 1);
}

static void spin(double seconds)
{
    volatile double x = 0;
    double end = clock_mono() + seconds;
    while (clock_mono() < end)
        for (int i = 0; i < 1000; i++)
            x += i;
}

static void test_busy_and_idle(void **state)
{
    (void)state;
    struct selfcost c;
    double cpu0 = cpu_now(), wall0 = clock_mono();
    selfcost_init(&c);
    assert_true(isnan(c.cpu_pct));
    spin(0.3);
    selfcost_tick(&c, 0.1);
    double cpu1 = cpu_now(), wall1 = clock_mono();
    /* on a loaded machine the spin gets less than all of a CPU: the
     * share is the one the kernel billed */
    check_share(&c, cpu0, wall0, cpu1, wall1);
    assert_true(c.cpu_pct > 0 && c.cpu_pct <= 100 + 1);
    struct timespec ts = {0, 300 * 1000000L};
    cpu0 = cpu1, wall0 = wall1;
    nanosleep(&ts, NULL);
    selfcost_tick(&c, 0.1);
    check_share(&c, cpu0, wall0, cpu_now(), clock_mono());
    assert_true(c.cpu_pct >= 0 && c.cpu_pct < 10);
}

static void test_short_span_waits(void **state)
{
    (void)state;
    struct selfcost c;
    selfcost_init(&c);
    selfcost_tick(&c, 60); /* a minute has not passed */
    assert_true(isnan(c.cpu_pct));
}

static void test_rss(void **state)
{
    (void)state;
    struct selfcost c;
    selfcost_init(&c);
    assert_true(c.rss_bytes > 100 * 1024 && c.rss_bytes < 1e9);
    long kb = 0;
    char line[256];
    FILE *f = fopen("/proc/self/status", "r");
    assert_non_null(f);
    while (fgets(line, sizeof(line), f))
        if (sscanf(line, "VmRSS: %ld kB", &kb) == 1)
            break;
    fclose(f);
    assert_true(fabs(c.rss_bytes / 1024 - (double)kb) < 0.2 * (double)kb);
}

static void test_format(void **state)
{
    (void)state;
    struct selfcost c = {.cpu_pct = 0.25, .rss_bytes = 3.5 * 1048576};
    char buf[80];
    selfcost_format(&c, false, buf, sizeof(buf));
    assert_string_equal(buf, "parallax itself: 0.2% cpu, 3.5 MB");
    c.cpu_pct = NAN;
    c.rss_bytes = 12 * 1048576.0;
    selfcost_format(&c, true, buf, sizeof(buf));
    assert_string_equal(buf, "self ? cpu 12 MB");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_busy_and_idle),
        cmocka_unit_test(test_short_span_waits),
        cmocka_unit_test(test_rss),
        cmocka_unit_test(test_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
