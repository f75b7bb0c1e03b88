/* Option parsing: defaults, PCP-style -t, and one-line errors for bad
 * input (the caller exits 2 with them). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cli/options.h"

static char err[256];
static struct options o;

static enum options_action parse(int argc, const char **argv)
{
    err[0] = '\0';
    return options_parse(argc, (char **)argv, &o, err, sizeof(err));
}

static void test_defaults(void **state)
{
    (void)state;
    const char *argv[] = {"parallax", NULL};
    assert_int_equal(parse(1, argv), OPT_RUN);
    assert_true(o.interval == 1.0);
    assert_false(o.text);
    assert_int_equal(o.samples, 0);
}

static void test_text_interval_samples(void **state)
{
    (void)state;
    const char *argv[] = {"parallax", "--text", "-t", "0.5", "-n", "3", NULL};
    assert_int_equal(parse(6, argv), OPT_RUN);
    assert_true(o.text);
    assert_true(o.interval == 0.5);
    assert_int_equal(o.samples, 3);
}

static void test_bad_intervals(void **state)
{
    (void)state;
    const char *bad[] = {"0", "-1", "abc", "1x", "nan", "99999"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = {"parallax", "-t", bad[i], NULL};
        assert_int_equal(parse(3, argv), OPT_ERROR);
        assert_non_null(strstr(err, "interval"));
        assert_non_null(strstr(err, bad[i]));
    }
}

static void test_bad_samples_and_unknown(void **state)
{
    (void)state;
    const char *a1[] = {"parallax", "--text", "-n", "0", NULL};
    assert_int_equal(parse(4, a1), OPT_ERROR);
    assert_non_null(strstr(err, "samples"));
    const char *a2[] = {"parallax", "--bogus", NULL};
    assert_int_equal(parse(2, a2), OPT_ERROR);
    assert_non_null(strstr(err, "--bogus"));
    const char *a3[] = {"parallax", "-x", NULL};
    assert_int_equal(parse(2, a3), OPT_ERROR);
    assert_non_null(strstr(err, "-x"));
    const char *a4[] = {"parallax", "-t", NULL};
    assert_int_equal(parse(2, a4), OPT_ERROR);
    assert_non_null(strstr(err, "needs a value"));
    const char *a5[] = {"parallax", "stray", NULL};
    assert_int_equal(parse(2, a5), OPT_ERROR);
    const char *a6[] = {"parallax", "-n", "2", NULL};
    assert_int_equal(parse(3, a6), OPT_ERROR);
    assert_non_null(strstr(err, "--text"));
}

static void test_help_version(void **state)
{
    (void)state;
    const char *a1[] = {"parallax", "--help", NULL};
    assert_int_equal(parse(2, a1), OPT_HELP);
    const char *a2[] = {"parallax", "-?", NULL};
    assert_int_equal(parse(2, a2), OPT_HELP);
    const char *a3[] = {"parallax", "--version", NULL};
    assert_int_equal(parse(2, a3), OPT_VERSION);
}

/* -v is repeatable: each one more for the log */
static void test_verbose(void **state)
{
    (void)state;
    const char *a1[] = {"parallax", NULL};
    assert_int_equal(parse(1, a1), OPT_RUN);
    assert_int_equal(o.verbose, 0);
    const char *a2[] = {"parallax", "-vv", "--verbose", "-t", "2", NULL};
    assert_int_equal(parse(5, a2), OPT_RUN);
    assert_int_equal(o.verbose, 3);
    assert_true(o.interval == 2);
}

static void test_theme(void **state)
{
    (void)state;
    const char *a1[] = {"parallax", NULL};
    assert_int_equal(parse(1, a1), OPT_RUN);
    assert_null(o.theme); /* the default theme */
    const char *a2[] = {"parallax", "--theme", "light", NULL};
    assert_int_equal(parse(3, a2), OPT_RUN);
    assert_string_equal(o.theme, "light");
    const char *a3[] = {"parallax", "--theme=./my.theme", NULL};
    assert_int_equal(parse(2, a3), OPT_RUN);
    assert_string_equal(o.theme, "./my.theme");
    const char *a4[] = {"parallax", "--theme", NULL};
    assert_int_equal(parse(2, a4), OPT_ERROR);
    assert_non_null(strstr(err, "needs a value"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_theme),
        cmocka_unit_test(test_verbose),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_text_interval_samples),
        cmocka_unit_test(test_bad_intervals),
        cmocka_unit_test(test_bad_samples_and_unknown),
        cmocka_unit_test(test_help_version),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
