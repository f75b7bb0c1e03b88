/* key=value parameters: every rejection names the key and its bounds, and
 * a rejected value leaves the others untouched (the PMDA takes these from
 * the wire). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "tests/near.h"

#include "workloads/params.h"

static const struct workload fake = {
    .name = "fake",
    .params =
        {
            {"size", "bytes per message", 64, 1, 4096, true},
            {"ratio", "a real number", 1.0, 0.5, 2.0, false},
            {"placement", "0 any, 1 same, 2 split", 0, 0, 2, true},
        },
};
static const struct workload bare = {.name = "bare"};

static double vals[WL_MAX_PARAMS];
static char err[256];

static int set(const char *kv)
{
    err[0] = '\0';
    return params_set(&fake, vals, kv, err, sizeof err);
}

static int setup(void **state)
{
    (void)state;
    params_defaults(&fake, vals);
    return 0;
}

static void test_defaults_and_count(void **state)
{
    (void)state;
    assert_int_equal(params_count(&fake), 3);
    assert_int_equal(params_count(&bare), 0);
    assert_near(vals[0], 64, 0);
    assert_near(vals[1], 1.0, 0);
    assert_near(vals[3], 0, 0); /* unused slots are zero */
    assert_int_equal(params_index(&fake, "placement"), 2);
    assert_int_equal(params_index(&fake, "nope"), -1);
}

static void test_valid_values(void **state)
{
    (void)state;
    assert_int_equal(set("size=4096"), 0);
    assert_int_equal(set("ratio=0.75"), 0);
    assert_int_equal(set("placement=2"), 0);
    assert_int_equal(set("size=1e3"), 0);
    assert_near(vals[0], 1000, 0);
    assert_near(vals[1], 0.75, 0);
    assert_near(vals[2], 2, 0);
    assert_int_equal(set("size=1"), 0); /* bounds are inclusive */
    assert_int_equal(set("ratio=2"), 0);
}

static void test_unknown_key_lists_valid(void **state)
{
    (void)state;
    assert_int_equal(set("colour=3"), -1);
    assert_non_null(strstr(err, "unknown parameter \"colour\""));
    assert_non_null(strstr(err, "size=1..4096, ratio=0.5..2, placement=0..2"));
    assert_int_equal(set("siz=3"), -1); /* a prefix is not the key */
    assert_int_equal(set("sizes=3"), -1);
    assert_int_equal(params_set(&bare, vals, "x=1", err, sizeof err), -1);
    assert_non_null(strstr(err, "valid: none"));
}

static void test_not_key_value(void **state)
{
    (void)state;
    assert_int_equal(set("size"), -1);
    assert_non_null(strstr(err, "not key=value"));
    assert_int_equal(set("=5"), -1);
    assert_non_null(strstr(err, "not key=value"));
}

static void test_not_numbers(void **state)
{
    (void)state;
    /* decimal only: hex (with a binary exponent too) was taken */
    const char *bad[] = {
        "size=",     "size=abc",    "size=12abc", "size= ",    "ratio=nan",
        "ratio=inf", "ratio=1e400", "size=1 ",    "size=0x10", "size=0X1p4",
        "size= 5",   "size=1e",     "size=.",     "size=+-1",  "ratio=0x.8p1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(set(bad[i]), -1);
        assert_non_null(strstr(err, "is not a number"));
    }
    assert_near(vals[0], 64, 0); /* untouched */
    set("size=x");
    assert_non_null(strstr(err, "size takes whole numbers 1..4096"));
}

static void test_whole_numbers(void **state)
{
    (void)state;
    assert_int_equal(set("size=1.5"), -1);
    assert_non_null(strstr(err, "not a whole number"));
    assert_int_equal(set("placement=0.5"), -1);
    assert_int_equal(set("ratio=1.5"), 0); /* not an integer param */
}

static void test_out_of_range(void **state)
{
    (void)state;
    assert_int_equal(set("size=0"), -1);
    assert_non_null(strstr(err, "size=0 is out of range"));
    assert_non_null(strstr(err, "1..4096"));
    assert_int_equal(set("size=4097"), -1);
    assert_int_equal(set("ratio=0.49"), -1);
    assert_non_null(strstr(err, "ratio takes 0.5..2"));
    assert_int_equal(set("placement=-1"), -1);
    assert_near(vals[0], 64, 0);
}

static void test_parse_and_check(void **state)
{
    (void)state;
    char *ok[] = {"size=8", "placement=1"};
    assert_int_equal(params_parse(&fake, vals, 2, ok, err, sizeof err), 0);
    assert_near(vals[0], 8, 0);
    assert_near(vals[1], 1.0, 0);
    assert_int_equal(params_check(&fake, vals, err, sizeof err), 0);
    char *bad[] = {"size=8", "placement=3"};
    assert_int_equal(params_parse(&fake, vals, 2, bad, err, sizeof err), -1);
    vals[1] = NAN;
    assert_int_equal(params_check(&fake, vals, err, sizeof err), -1);
    vals[1] = 1.0;
    vals[0] = 7.25;
    assert_int_equal(params_check(&fake, vals, err, sizeof err), -1);
    assert_non_null(strstr(err, "whole"));
}

static void test_format(void **state)
{
    (void)state;
    char buf[128];
    params_format(&fake, vals, false, buf, sizeof buf);
    assert_string_equal(buf, "");
    set("size=512");
    set("ratio=0.5");
    params_format(&fake, vals, false, buf, sizeof buf);
    assert_string_equal(buf, "size=512 ratio=0.5");
    params_format(&fake, vals, true, buf, sizeof buf);
    assert_string_equal(buf, "size=512 ratio=0.5 placement=0");
    params_format(&fake, vals, true, buf, 8); /* truncated, terminated */
    assert_int_equal(strlen(buf), 7);
    params_describe(&bare, buf, sizeof buf);
    assert_string_equal(buf, "none");
}

/* Wire input can be anything: long keys and values must not overflow a
 * small error buffer (ASan checks this). */
static void test_hostile_input(void **state)
{
    (void)state;
    char big[5000];
    memset(big, 'k', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    char small[16];
    assert_int_equal(params_set(&fake, vals, big, small, sizeof small), -1);
    big[100] = '=';
    assert_int_equal(params_set(&fake, vals, big, small, sizeof small), -1);
    memcpy(big, "size=", 5);
    assert_int_equal(params_set(&fake, vals, big, err, sizeof err), -1);
    assert_true(strlen(err) < sizeof err);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_defaults_and_count, setup),
        cmocka_unit_test_setup(test_valid_values, setup),
        cmocka_unit_test_setup(test_unknown_key_lists_valid, setup),
        cmocka_unit_test_setup(test_not_key_value, setup),
        cmocka_unit_test_setup(test_not_numbers, setup),
        cmocka_unit_test_setup(test_whole_numbers, setup),
        cmocka_unit_test_setup(test_out_of_range, setup),
        cmocka_unit_test_setup(test_parse_and_check, setup),
        cmocka_unit_test_setup(test_format, setup),
        cmocka_unit_test_setup(test_hostile_input, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
