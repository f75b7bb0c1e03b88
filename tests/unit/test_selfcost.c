/* parallax's own cost: a CPU-bound span reads near 100% of a CPU, a
 * sleeping one near 0, the resident size is what /proc says, and no share
 * is shown before the first tick or from a too short span. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/selfcost.h"

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
    selfcost_init(&c);
    assert_true(isnan(c.cpu_pct));
    spin(0.3);
    selfcost_tick(&c, 0.1);
    /* on a loaded machine the spin may get less than all of a CPU */
    assert_true(c.cpu_pct > 30 && c.cpu_pct < 110);
    struct timespec ts = {0, 300 * 1000000L};
    nanosleep(&ts, NULL);
    selfcost_tick(&c, 0.1);
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
