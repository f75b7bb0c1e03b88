/* Cells that fit: clock offsets from 1 µs to 10 days and drifts from 1 ppm
 * to 1e9 ppm, at every width a cell can have, either read back as the
 * figure within the precision they show or end in an ellipsis, and never
 * take more cells than given; at a figure cell's width (7) they always
 * fit whole. Text is cut with an ellipsis, never silently; ratios never
 * read 0.00. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "view/fit.h"
#include "view/view.h"

#define MAX_WIDTH 40

/* Reads a number at *p (advanced); *ulp is half the last digit shown. */
static double read_number(const char **p, double *half_ulp)
{
    char *end;
    double v = strtod(*p, &end);
    const char *dot = memchr(*p, '.', (size_t)(end - *p));
    int dec = dot ? (int)(end - dot - 1) : 0;
    const char *e = memchr(*p, 'e', (size_t)(end - *p));
    if (e) { /* 4.8e8: the mantissa's decimals, scaled */
        dec = dot ? (int)(e - dot - 1) : 0;
        *half_ulp = 0.5 * pow(10, -dec) * pow(10, atoi(e + 1));
    } else {
        *half_ulp = 0.5 * pow(10, -dec);
    }
    *p = end;
    return v;
}

static bool ends_with_ellipsis(const char *s)
{
    size_t n = strlen(s);
    return n >= 3 && strcmp(s + n - 3, "\u2026") == 0;
}

/* A duration as fit_duration writes it, in seconds; *prec its precision. */
static double read_duration(const char *text, double *prec)
{
    static const struct {
        const char *name;
        double size;
    } units[] = {{"ns", 1e-9}, {"\u00b5s", 1e-6}, {"ms", 1e-3}, {"min", 60},
                 {"s", 1},     {"h", 3600},       {"d", 86400}};
    const char *p = text;
    double half, v = read_number(&p, &half);
    for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(p, units[i].name) == 0) {
            *prec = half * units[i].size;
            return v * units[i].size;
        }
    fail_msg("no unit in '%s'", text);
    return NAN;
}

static void test_offsets_read_back(void **state)
{
    (void)state;
    int checked = 0;
    for (double v = 1e-6; v <= 10 * 86400 * 1.0001; v *= 1.07) {
        for (int sign = -1; sign <= 1; sign += 2) {
            double secs = sign * v, prec = 0;
            for (int w = 1; w <= MAX_WIDTH; w++) {
                char buf[64];
                bool whole = fit_duration(buf, sizeof(buf), w, secs,
                                          FIT_SIGN | FIT_UTF8);
                assert_true(fit_cells(buf) <= w);
                if (!whole) {
                    assert_true(w < VIEW_FIGURE_W);
                    assert_true(ends_with_ellipsis(buf));
                    continue;
                }
                assert_true(buf[0] == (sign < 0 ? '-' : '+'));
                double got = read_duration(buf, &prec);
                if (fabs(got - secs) > prec * (1 + 1e-9))
                    fail_msg("%g s shown as '%s' at width %d", secs, buf, w);
                /* at a figure's width, 3 significant digits at least */
                if (w >= VIEW_FIGURE_W && prec > 0.0051 * v)
                    fail_msg("%g s: '%s' is imprecise at width %d", secs, buf,
                             w);
                checked++;
            }
        }
    }
    assert_true(checked > 1000);
}

static void test_drifts_read_back(void **state)
{
    (void)state;
    int factors = 0;
    for (double v = 1; v <= 1e9 * 1.0001; v *= 1.09) {
        for (int sign = -1; sign <= 1; sign += 2) {
            double ppm = sign * v;
            if (ppm <= -1e6) /* a clock that stands or runs backwards */
                continue;
            for (int w = 1; w <= MAX_WIDTH; w++) {
                char buf[64];
                bool whole;
                bool factor = fit_drift(buf, sizeof(buf), w, ppm,
                                        FIT_SIGN | FIT_UTF8, &whole);
                assert_true(fit_cells(buf) <= w);
                assert_true(factor == (fabs(ppm) > FIT_DRIFT_PPM_MAX));
                if (!whole) {
                    assert_true(w < VIEW_FIGURE_W);
                    assert_true(ends_with_ellipsis(buf));
                    continue;
                }
                const char *p = buf;
                double half, got;
                if (factor) {
                    assert_memory_equal(buf, "\u00d7", 2);
                    p += 2;
                    got = (read_number(&p, &half) - 1) * 1e6;
                    half *= 1e6;
                } else {
                    got = read_number(&p, &half);
                }
                assert_true(*p == '\0');
                if (fabs(got - ppm) > half * (1 + 1e-9))
                    fail_msg("%g ppm shown as '%s' at width %d", ppm, buf, w);
                /* the rate itself to 3 significant digits at least */
                if (factor && w >= VIEW_FIGURE_W && half > 0.0051 * (1e6 + ppm))
                    fail_msg("%g ppm: '%s' is imprecise", ppm, buf);
                factors += factor;
            }
        }
    }
    assert_true(factors > 1000);
}

static const char *dur(double secs, int w, unsigned flags)
{
    static char buf[64];
    fit_duration(buf, sizeof(buf), w, secs, flags);
    return buf;
}

static void test_durations(void **state)
{
    (void)state;
    assert_string_equal(dur(86400.0002, 7, FIT_SIGN), "+1.000d");
    assert_string_equal(dur(5.0002, 7, FIT_SIGN), "+5.000s");
    assert_string_equal(dur(0.1169, 7, FIT_SIGN), "+117ms");
    assert_string_equal(dur(0.01014, 7, 0), "10.14ms");
    assert_string_equal(dur(1.2e-6, 7, FIT_UTF8), "1.200\u00b5s");
    assert_string_equal(dur(1.2e-6, 7, 0), "1.200us");
    assert_string_equal(dur(294e-9, 7, 0), "294.0ns");
    assert_string_equal(dur(0.99996, 7, 0), "1.000s"); /* not 1000ms */
    assert_string_equal(dur(90, 7, 0), "90.00s");      /* not 1.50min */
    assert_string_equal(dur(-61.19, 7, FIT_SIGN), "-61.19s");
    assert_string_equal(dur(1.25 * 3600, 7, 0), "1.250h");
    assert_string_equal(dur(16 * 3600, 7, FIT_SIGN), "+16.00h");
    assert_string_equal(dur(NAN, 7, 0), "n/a");
    assert_string_equal(dur(0, 7, FIT_SIGN), "+0s");
    /* narrower: fewer decimals, then an ellipsis, never fewer digits */
    assert_string_equal(dur(86400.0002, 4, FIT_SIGN), "+24h");
    assert_string_equal(dur(86400 * 123.0, 4, FIT_SIGN), "+12~");
}

static void test_text(void **state)
{
    (void)state;
    char buf[32];
    assert_true(fit_text(buf, sizeof(buf), 6, "failed", true));
    assert_string_equal(buf, "failed");
    assert_false(fit_text(buf, sizeof(buf), 5, "failed: why", true));
    assert_string_equal(buf, "fail\u2026");
    assert_false(fit_text(buf, sizeof(buf), 5, "failed: why", false));
    assert_string_equal(buf, "fail~");
    assert_true(fit_text(buf, sizeof(buf), 6, "\u00b185ns", true));
    assert_int_equal(fit_cells("\u00b185\u00b5s"), 5);
    assert_false(fit_text(buf, sizeof(buf), 0, "x", true));
    assert_string_equal(buf, "");
    /* a small buffer still ends in a whole ellipsis */
    char tiny[6];
    fit_text(tiny, sizeof(tiny), 10, "0123456789abc", true);
    assert_string_equal(tiny, "01\u2026");
    const char *cand[] = {"failed: no pmda", "failed"};
    assert_int_equal(fit_first(buf, sizeof(buf), 20, cand, 2, true), 0);
    assert_int_equal(fit_first(buf, sizeof(buf), 7, cand, 2, true), 1);
    assert_string_equal(buf, "failed");
    assert_int_equal(fit_first(buf, sizeof(buf), 4, cand, 2, true), 2);
    assert_string_equal(buf, "fai\u2026");
}

/* A table's cell: padded to its width in cells, not bytes (a UTF-8 name
 * lines up), cut silently at a character when longer. */
static void test_pad(void **state)
{
    (void)state;
    char buf[32];
    fit_pad(buf, sizeof(buf), 8, "g\u00e4st-\u00fc", false);
    assert_string_equal(buf, "g\u00e4st-\u00fc  ");
    assert_int_equal(fit_cells(buf), 8);
    fit_pad(buf, sizeof(buf), 8, "\u00b185", true);
    assert_string_equal(buf, "     \u00b185");
    fit_pad(buf, sizeof(buf), 3, "\u00e4\u00e4\u00e4\u00e4", false);
    assert_string_equal(buf, "\u00e4\u00e4\u00e4");
    fit_pad(buf, sizeof(buf), 0, "x", false);
    assert_string_equal(buf, "");
    /* a buffer too small: whole characters of it, never half of one */
    char tiny[4];
    fit_pad(tiny, sizeof(tiny), 8, "\u00e4\u00e4\u00e4", false);
    assert_string_equal(tiny, "\u00e4 "); /* 2 bytes, a space, the NUL */
}

static void test_wrap(void **state)
{
    (void)state;
    const char *text = "count system calls (syscalls/s); each call costs",
               *rest;
    int len = fit_wrap(text, 20, &rest);
    assert_int_equal(len, 18); /* "count system calls" */
    assert_string_equal(rest, "(syscalls/s); each call costs");
    len = fit_wrap("\u00d7\u00d7 ab", 3, &rest); /* ×× fits, then a space */
    assert_int_equal(len, 4);
    assert_string_equal(rest, "ab");
    len = fit_wrap("abcdefgh", 3, &rest); /* one long word: broken */
    assert_int_equal(len, 3);
    assert_string_equal(rest, "defgh");
    assert_int_equal(fit_wrap("short", 10, NULL), 5);
}

static const char *ratio(double r)
{
    static char buf[32];
    fit_ratio(buf, sizeof(buf), 6, r);
    return buf;
}

static void test_ratios(void **state)
{
    (void)state;
    assert_string_equal(ratio(0.004), "<0.01"); /* never 0.00 */
    assert_string_equal(ratio(0.0049), "<0.01");
    assert_string_equal(ratio(0.83), "0.83");
    assert_string_equal(ratio(9.996), "10.0");
    assert_string_equal(ratio(12.34), "12.3");
    assert_string_equal(ratio(415.2), "415");
    assert_string_equal(ratio(99999), "99999");
    assert_string_equal(ratio(4.82e8), "4.8e8");
    assert_string_equal(ratio(9.97e8), "1.0e9");
    assert_string_equal(ratio(NAN), "n/a");
    for (double r = 1e-6; r < 1e15; r *= 1.3)
        assert_true(fit_cells(ratio(r)) <= VIEW_RATIO_W - 1);
}

static void test_rates_and_si(void **state)
{
    (void)state;
    char buf[32];
    fit_rate(buf, sizeof(buf), 7, 1.01, FIT_TIMES | FIT_UTF8);
    assert_string_equal(buf, "\u00d71.0100");
    fit_rate(buf, sizeof(buf), 7, 0.3643, FIT_TIMES);
    assert_string_equal(buf, "x0.364");
    fit_rate(buf, sizeof(buf), 7, 415.3, FIT_TIMES);
    assert_string_equal(buf, "x415");
    fit_rate(buf, sizeof(buf), 6, 1.0005, 0);
    assert_string_equal(buf, "1.0005");
    fit_rate(buf, sizeof(buf), 7, 4.82e8, FIT_TIMES);
    assert_string_equal(buf, "x4.82e8");
    fit_si(buf, sizeof(buf), 7, 12345678, 0);
    assert_string_equal(buf, "12.3M");
    fit_si(buf, sizeof(buf), 7, 294, 0);
    assert_string_equal(buf, "294");
    fit_si(buf, sizeof(buf), 7, 999.7, 0);
    assert_string_equal(buf, "1.00k");
    fit_si(buf, sizeof(buf), 7, 1.05, 0);
    assert_string_equal(buf, "1.05");
    fit_si(buf, sizeof(buf), 3, 1234, 0);
    assert_string_equal(buf, "1k");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_read_back),
        cmocka_unit_test(test_drifts_read_back),
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_text),
        cmocka_unit_test(test_pad),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_ratios),
        cmocka_unit_test(test_rates_and_si),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
