/* The latency workloads in the reports, from a fixture whose figures are
 * known: the host's timer-lat woke 10 us late 990 times and 1 ms late 10
 * times; the guest's clock ran at half speed (rate 0.5) and said 10 us
 * and 1 ms too, so in real time its samples were 20 us and 2 ms. The text
 * report's LATENCY section, the JSON's buckets and the Time lines must
 * give the real figures (each checked against these numbers, not against
 * the code's own arithmetic), the guest's ratios 2, and its word beside. */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/report_json.h"
#include "report/report_text.h"
#include "report_fixture.h"
#include "view/latency_view.h"
#include "view/view_time.h"
#include "workloads/lat_common.h"

/* One timer-lat result: 990 samples of fast_ns, 10 of slow_ns, as the
 * source's clock measured them, its "lat" extras divided by rate as the
 * host does once it has mapped the run (session/jobs.c). */
static void lat_cell(struct jobs *j, int src, double rate)
{
    static const double fig[] = {1000, 1000, 1000};
    fix_cell(j, src, "timer-lat", JOB_DONE, fig, 3);
    struct job_cell *c = &j->cells[src][fix_wl(j, "timer-lat")];
    c->rate = rate;
    struct lat_hist h = {0};
    for (int i = 0; i < 990; i++)
        lat_hist_add(&h, 10e3);
    for (int i = 0; i < 10; i++)
        lat_hist_add(&h, 1e6);
    c->last = (struct wl_result){0};
    lat_result(&c->last, &h);
    for (int i = 0; i < c->last.nextra; i++)
        if (strncmp(c->last.extra[i].name, LAT_EXTRA_PREFIX, 4) == 0)
            c->last.extra[i].value /= rate;
}

static void build(struct session **s, struct jobs **j)
{
    fix_build(s, j);
    lat_cell(*j, 0, 1);
    lat_cell(*j, 1, 0.5);
}

static char *text_report(void)
{
    struct session *s;
    struct jobs *j;
    build(&s, &j);
    struct report_meta meta = fix_meta();
    static char *buf; /* static: gcc takes the memstream's for a local */
    static size_t n;
    buf = NULL;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(report_text_write(f, s, j, &meta), 0);
    fclose(f);
    fix_free(s, j);
    return buf;
}

/* "10.6us", "2ms" in us. */
static double us_of(const char *text)
{
    char *end;
    double v = strtod(text, &end);
    return strcmp(end, "ns") == 0   ? v * 1e-3
           : strcmp(end, "us") == 0 ? v
           : strcmp(end, "ms") == 0 ? v * 1e3
           : strcmp(end, "s") == 0  ? v * 1e6
                                    : NAN;
}

/* Within one bucket (12.2%) above the exact figure: every sample sits at
 * the bottom of its bucket, and a percentile is placed inside it. */
static void assert_bucket(const char *text, double us)
{
    double v = us_of(text);
    if (!(v >= us * 0.999 && v <= us * 1.123))
        fail_msg("%s for %g us", text, us);
}

/* The line of the table that starts with `a` and then `b`. */
static char *line_of(char *sec, const char *a, const char *b)
{
    for (char *p = sec; (p = strchr(p, '\n')); p++) {
        char x[32], y[32];
        if (sscanf(p + 1, "%31s %31s", x, y) == 2 && strcmp(x, a) == 0 &&
            strcmp(y, b) == 0)
            return p + 1;
    }
    return NULL;
}

/* The LATENCY table: p50 10us and 20us (a bucket's width either way),
 * p99.9 and max 1ms and 2ms, x p99 and x max 2.00. */
static void test_text_section(void **state)
{
    (void)state;
    char *r = text_report();
    char *sec = strstr(r, "\nLATENCY\n");
    assert_non_null(sec);
    char *host = line_of(sec, "timer-lat", "host");
    char *guest = line_of(sec, "timer-lat", "guest1");
    assert_non_null(host);
    assert_non_null(guest);
    char name[16], src[16], p50[16], p90[16], p99[16], p999[16], max[16];
    char xp99[16], xmax[16];
    unsigned long long n;
    assert_int_equal(sscanf(guest,
                            "%15s %15s %llu %15s %15s %15s %15s "
                            "%15s %15s %15s",
                            name, src, &n, p50, p90, p99, p999, max, xp99,
                            xmax),
                     10);
    assert_int_equal(n, 1000);
    assert_bucket(p50, 20);
    assert_bucket(p99, 20);
    assert_bucket(p999, 2000);
    assert_bucket(max, 2000);
    assert_string_equal(xp99, "2.00");
    assert_string_equal(xmax, "2.00");
    assert_int_equal(sscanf(host, "%15s %15s %llu %15s %15s %15s %15s %15s",
                            name, src, &n, p50, p90, p99, p999, max),
                     8);
    assert_bucket(p50, 10);
    assert_bucket(max, 1000);
    /* the histograms: the guest's 990 in the 20 us row, its 10 at 2 ms */
    assert_non_null(strstr(sec, "\ntimer-lat "));
    char *row = strstr(sec, "\n20us-");
    assert_non_null(row);
    assert_non_null(
        strstr(row, " 990 ")); /* the guest's, beside the host's 0 */
    free(r);
}

/* The JSON: each source's buckets add up to its samples; the guest's,
 * in real time, lie around 20 us and 2 ms. */
static void test_json_buckets(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    build(&s, &j);
    struct report_meta meta = fix_meta();
    char *buf = NULL;
    size_t n = 0;
    FILE *f = open_memstream(&buf, &n);
    assert_int_equal(report_json_write(f, s, j, &meta), 0);
    fclose(f);
    fix_free(s, j);
    json_error_t err;
    json_t *root = json_loads(buf, 0, &err);
    assert_non_null(root);
    for (int src = 0; src < 2; src++) {
        json_t *h = json_object_get(
            json_object_get(
                json_object_get(
                    json_array_get(json_object_get(root, "sources"), src),
                    "workloads"),
                "timer-lat"),
            "histogram");
        assert_true(json_is_object(h));
        json_t *b = json_object_get(h, "buckets");
        json_int_t sum = 0;
        double scale = src ? 2 : 1, lo_fast = 0, lo_slow = 0;
        for (size_t i = 0; i < json_array_size(b); i++) {
            json_t *e = json_array_get(b, i);
            json_int_t c = json_integer_value(json_object_get(e, "count"));
            double lo = json_real_value(json_object_get(e, "lo_ns"));
            double hi = json_real_value(json_object_get(e, "hi_ns"));
            sum += c;
            if (c == 990)
                lo_fast = lo, assert_true(hi > 10e3 * scale / 1.13);
            if (c == 10)
                lo_slow = lo, assert_true(hi > 1e6 * scale / 1.13);
        }
        assert_int_equal(sum, 1000);
        assert_true(lo_fast <= 10e3 * scale * 1.13 && lo_fast > 0);
        assert_true(lo_slow <= 1e6 * scale * 1.13 && lo_slow > 0);
        assert_int_equal(json_integer_value(json_object_get(h, "samples")),
                         1000);
        assert_true(fabs(json_real_value(json_object_get(h, "max_ns")) -
                         1e6 * scale) < 1);
    }
    json_decref(root);
    free(buf);
}

/* The Time lines: timer-lat p99 and max, the guest's in real time with
 * its clock's word beside it, ratio 2. */
static void test_time_lines(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    build(&s, &j);
    struct time_line tl[VIEW_TIME_LINES_MAX];
    int n = view_time_lines(s, j, tl, VIEW_TIME_LINES_MAX, 8);
    int found = 0;
    for (int i = 0; i < n; i++) {
        if (tl[i].kind != TL_LAT)
            continue;
        char val[64], detail[64];
        view_time_line_cell(s, j, 1, &tl[i], val, sizeof val, detail,
                            sizeof detail, false);
        if (tl[i].index == 1) { /* max */
            assert_string_equal(tl[i].label, "timer-lat max");
            assert_non_null(strstr(val, "2.000ms"));
            assert_non_null(strstr(detail, "said 1.000ms"));
        }
        assert_true(fabs(view_time_line_ratio(s, j, 1, &tl[i]) - 2) < 1e-9);
        found++;
    }
    assert_int_equal(found, 2);
    fix_free(s, j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_text_section),
        cmocka_unit_test(test_json_buckets),
        cmocka_unit_test(test_time_lines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
