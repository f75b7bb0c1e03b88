/* Formatting: n/a for missing figures, scaled numbers, sparklines with
 * gaps in UTF-8 and ASCII. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "view/fmt.h"

static const char *fv(double v, enum metric_format f)
{
    static char buf[32];
    fmt_value(buf, sizeof(buf), v, f);
    return buf;
}

static void test_values(void **state)
{
    (void)state;
    assert_string_equal(fv(NAN, MF_SI), "n/a");
    assert_string_equal(fv(INFINITY, MF_PERCENT), "n/a");
    assert_string_equal(fv(12.14, MF_PERCENT), "12.1");
    assert_string_equal(fv(0.43, MF_FIXED2), "0.43");
    assert_string_equal(fv(12, MF_SI), "12");
    assert_string_equal(fv(2.5, MF_SI), "2.5");
    assert_string_equal(fv(9300, MF_SI), "9.3k");
    assert_string_equal(fv(48000, MF_SI), "48k");
    assert_string_equal(fv(1.5e6, MF_SI), "1.5M");
    assert_string_equal(fv(512, MF_BYTES), "512");
    assert_string_equal(fv(3 * 1024.0 * 1024, MF_BYTES), "3.0M");
    assert_string_equal(fv(24 * 1024.0 * 1024 * 1024, MF_BYTES), "24G");
}

static void test_spark_ascii_with_gap(void **state)
{
    (void)state;
    struct history h = {0};
    history_push(&h, 0);
    history_push(&h, NAN);
    history_push(&h, 50);
    history_push(&h, 100);
    char buf[64];
    fmt_spark(buf, sizeof(buf), &h, 6, 100, false);
    /* two cells before history starts, then 0, gap, half, full */
    assert_string_equal(buf, "  _ =#");
}

static void test_spark_utf8_autoscale(void **state)
{
    (void)state;
    struct history h = {0};
    history_push(&h, 10);
    history_push(&h, 20);
    char buf[64];
    fmt_spark(buf, sizeof(buf), &h, 2, 0, true);
    /* scaled to the largest shown: 10 is half, 20 is full */
    assert_string_equal(buf, "\u2585\u2588");
}

static void test_history_ring(void **state)
{
    (void)state;
    struct history h = {0};
    for (int i = 0; i < HISTORY_LEN + 5; i++)
        history_push(&h, i);
    assert_int_equal(h.count, HISTORY_LEN);
    assert_true(history_get(&h, 0) == HISTORY_LEN + 4);
    assert_true(history_get(&h, HISTORY_LEN - 1) == 5);
    assert_true(isnan(history_get(&h, HISTORY_LEN)));
}

/* fmt_right gives what snprintf's "%*s" gives, cut short alike */
static void test_right(void **state)
{
    (void)state;
    char buf[8], ref[8];
    const char *texts[] = {"", "-", "1.5k", "1234567", "123456789"};
    for (size_t i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
        for (int w = 0; w < 12; w++) {
            fmt_right(buf, sizeof(buf), w, texts[i]);
            snprintf(ref, sizeof(ref), "%*s", w, texts[i]);
            assert_string_equal(buf, ref);
        }
    }
    fmt_right(buf, 1, 5, "x");
    assert_string_equal(buf, "");
    /* a cell a character: ×1.0100 keeps the blank before it */
    char wide[16];
    fmt_right(wide, sizeof(wide), 8, "\u00d71.0100");
    assert_string_equal(wide, " \u00d71.0100");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_values),
        cmocka_unit_test(test_spark_ascii_with_gap),
        cmocka_unit_test(test_spark_utf8_autoscale),
        cmocka_unit_test(test_history_ring),
        cmocka_unit_test(test_right),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
