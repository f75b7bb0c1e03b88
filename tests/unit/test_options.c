/* Option parsing: defaults, PCP-style -t, and one-line errors for bad
 * input (the caller exits 2 with them): decimal numbers only, printable
 * arguments only, errors that keep their reason after a long echo, no
 * empty --batch, no guest twice, no unknown theme in any mode. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/options.h"
#include "session/lease.h"

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
    assert_true(o.lease == LEASE_DEFAULT_S);
}

/* --lease: decimal seconds within the agent's bounds, 2 to 3600 */
static void test_lease(void **state)
{
    (void)state;
    const char *ok[] = {"2", "2.5", "30", "3600"};
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        const char *argv[] = {"parallax", "--lease", ok[i], NULL};
        assert_int_equal(parse(3, argv), OPT_RUN);
        assert_true(o.lease == strtod(ok[i], NULL));
    }
    const char *eq[] = {"parallax", "--lease=4", "--batch", "quick", NULL};
    assert_int_equal(parse(4, eq), OPT_RUN);
    assert_true(o.lease == 4);
    const char *bad[] = {"0",   "1.99", "-5", "3601", "0x10",
                         "nan", "inf",  "",   "4s"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = {"parallax", "--lease", bad[i], NULL};
        assert_int_equal(parse(3, argv), OPT_ERROR);
        assert_non_null(strstr(err, "lease"));
        assert_non_null(strstr(err, "from 2 to 3600; try --lease 30"));
    }
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
    const char *bad[] = {"0",     "-1",  "abc", "1x", "nan",
                         "99999", "0x1", "1e",  "inf"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = {"parallax", "-t", bad[i], NULL};
        assert_int_equal(parse(3, argv), OPT_ERROR);
        assert_non_null(strstr(err, "interval"));
        assert_non_null(strstr(err, bad[i]));
    }
}

/* -t in PCP's interval syntax (pmParseInterval(3)) as well as seconds */
static void test_pcp_intervals(void **state)
{
    (void)state;
    const struct {
        const char *arg;
        double secs;
    } ok[] = {
        {"2sec", 2},          {"500msec", 0.5}, {"1min", 60},
        {"1 min 30 sec", 90}, {"0.25", 0.25},   {"1hour", 3600},
        {"100msec", 0.1},     {" 1", 1}}; /* PCP's parser skips the blank */
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        const char *argv[] = {"parallax", "-t", ok[i].arg, NULL};
        assert_int_equal(parse(3, argv), OPT_RUN);
        assert_true(fabs(o.interval - ok[i].secs) < 1e-9);
    }
    const char *bad[] = {"50msec", "2hour", "2 parsecs", "sec"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = {"parallax", "-t", bad[i], NULL};
        assert_int_equal(parse(3, argv), OPT_ERROR);
        assert_non_null(strstr(err, "PCP interval (500msec, 2sec, 1min)"));
    }
}

/* pmGetOptions' letters: -s for samples, -S -T -O only with -a, -z or
 * -Z, not both; -A refused */
static void test_pcp_letters(void **state)
{
    (void)state;
    const char *s[] = {"parallax", "--text", "-s", "4", NULL};
    assert_int_equal(parse(4, s), OPT_RUN);
    assert_int_equal(o.samples, 4);
    const char *win[] = {"parallax", "-S", "+1sec", "--text", NULL};
    assert_int_equal(parse(4, win), OPT_ERROR);
    assert_non_null(strstr(err, "add -a ARCHIVE"));
    const char *bad[] = {"parallax", "-a", "x", "-T", "junk", NULL};
    assert_int_equal(parse(5, bad), OPT_ERROR);
    assert_non_null(strstr(err, "-T 'junk' is not a time PCP knows"));
    const char *good[] = {"parallax", "-a",    "x",  "-S",      "+1sec",
                          "-T",       "-2sec", "-O", "+1.5sec", NULL};
    assert_int_equal(parse(9, good), OPT_RUN);
    assert_string_equal(o.start, "+1sec");
    assert_string_equal(o.origin, "+1.5sec");
    const char *zz[] = {"parallax", "-z", "-Z", "UTC", NULL};
    assert_int_equal(parse(4, zz), OPT_ERROR);
    assert_non_null(strstr(err, "-z and -Z"));
    const char *al[] = {"parallax", "-A", "1min", NULL};
    assert_int_equal(parse(3, al), OPT_ERROR);
    assert_non_null(strstr(err, "-A"));
}

/* -o and -F: pmrep's with --text, the report and the CSV with --batch */
static void test_outputs(void **state)
{
    (void)state;
    const char *csv[] = {"parallax", "--text", "-o", "csv",
                         "-F",       "r.csv",  NULL};
    assert_int_equal(parse(6, csv), OPT_RUN);
    assert_true(o.csv);
    assert_null(o.output);
    assert_string_equal(o.output_file, "r.csv");
    const char *tab[] = {"parallax", "--text", "-o", "stdout", NULL};
    assert_int_equal(parse(4, tab), OPT_RUN);
    assert_false(o.csv);
    const char *file[] = {"parallax", "--text", "-o", "run.txt", NULL};
    assert_int_equal(parse(4, file), OPT_ERROR);
    assert_non_null(strstr(err, "-F FILE"));
    const char *batch[] = {"parallax", "--batch", "quick", "-o",
                           "r.txt",    "-F",      "r.csv", NULL};
    assert_int_equal(parse(7, batch), OPT_RUN);
    assert_string_equal(o.output, "r.txt");
    assert_false(o.csv);
    const char *bcsv[] = {"parallax", "--batch", "quick", "-o", "csv", NULL};
    assert_int_equal(parse(5, bcsv), OPT_ERROR);
    assert_non_null(strstr(err, "-o ./csv"));
    const char *live[] = {"parallax", "-F", "x.csv", NULL};
    assert_int_equal(parse(3, live), OPT_ERROR);
    assert_non_null(strstr(err, "--text"));
}

/* what pcp(1) passes: its options in the environment, first */
static void test_pcp_environment(void **state)
{
    (void)state;
    setenv("PCP_HOST", "vm1:44321", 1);
    setenv("PCP_INTERVAL", "2sec", 1);
    setenv("PCP_SAMPLES", "3", 1);
    const char *argv[] = {"parallax", "--text", "-h", "vm2", NULL};
    assert_int_equal(parse(4, argv), OPT_RUN);
    assert_int_equal(o.nguests, 2);
    assert_string_equal(o.guests[0].target, "vm1:44321");
    assert_string_equal(o.guests[1].target, "vm2");
    assert_true(o.interval == 2);
    assert_int_equal(o.samples, 3);
    /* the command line comes after, so it wins */
    const char *t[] = {"parallax", "--text", "-t", "0.5", NULL};
    assert_int_equal(parse(4, t), OPT_RUN);
    assert_true(o.interval == 0.5);
    unsetenv("PCP_HOST");
    unsetenv("PCP_INTERVAL");
    unsetenv("PCP_SAMPLES");
    setenv("PCP_ALIGN_TIME", "1min", 1);
    const char *a[] = {"parallax", "--text", NULL};
    assert_int_equal(parse(2, a), OPT_ERROR);
    assert_non_null(strstr(err, "PCP_ALIGN_TIME"));
    unsetenv("PCP_ALIGN_TIME");
    assert_int_equal(parse(2, a), OPT_RUN);
}

/* --container=[LABEL=]NAME[@HOST[:PORT]]: a guest column whose target
 * carries PCP's container attribute */
static void test_container(void **state)
{
    (void)state;
    const char *a[] = {"parallax",    "--container",    "web",
                       "--container", "db=pg@vm1:4000", NULL};
    assert_int_equal(parse(5, a), OPT_RUN);
    assert_int_equal(o.nguests, 2);
    assert_int_equal(o.ncontainers, 2);
    assert_string_equal(o.guests[0].name, "web");
    assert_string_equal(o.guests[0].target, "localhost?container=web");
    assert_string_equal(o.guests[1].name, "db");
    assert_string_equal(o.guests[1].target, "vm1:4000?container=pg");
    assert_string_equal(o.containers[1].host, "vm1:4000");
    const char *bad[] = {"", "a b", "=x", "x;rm", "l=@h"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = {"parallax", "--container", bad[i], NULL};
        assert_int_equal(parse(3, argv), OPT_ERROR);
        assert_non_null(strstr(err, "names no container"));
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
    const char *a3[] = {"parallax", "--theme=./themes/mono.theme", NULL};
    assert_int_equal(parse(2, a3), OPT_RUN);
    assert_string_equal(o.theme, "./themes/mono.theme");
    const char *a4[] = {"parallax", "--theme", NULL};
    assert_int_equal(parse(2, a4), OPT_ERROR);
    assert_non_null(strstr(err, "needs a value"));
    /* an unknown theme is refused in every mode, not only on the screen */
    const char *a5[] = {"parallax", "--theme", "no-such-theme", "--text", NULL};
    assert_int_equal(parse(4, a5), OPT_ERROR);
    assert_non_null(strstr(err, "unknown theme 'no-such-theme'"));
    assert_non_null(strstr(err, "light"));
    const char *a6[] = {"parallax", "--theme=no-such", "--batch=quick", NULL};
    assert_int_equal(parse(3, a6), OPT_ERROR);
    assert_non_null(strstr(err, "unknown theme"));
    const char *a7[] = {"parallax", "--theme=./nonexistent.theme", NULL};
    assert_int_equal(parse(2, a7), OPT_ERROR);
    assert_non_null(strstr(err, "No such file"));
}

/* -n and -r are decimal whole numbers, as -t is decimal */
static void test_decimal_only(void **state)
{
    (void)state;
    const char *a1[] = {"parallax", "--text", "-n", "0x5", NULL};
    assert_int_equal(parse(4, a1), OPT_ERROR);
    const char *a2[] = {"parallax", "-r", "0x3", NULL};
    assert_int_equal(parse(3, a2), OPT_ERROR);
    const char *a3[] = {"parallax", "-r", "2.5", NULL};
    assert_int_equal(parse(3, a3), OPT_ERROR);
    const char *a4[] = {"parallax", "-t", "5e-1", "-r", "+4", NULL};
    assert_int_equal(parse(5, a4), OPT_RUN);
    assert_true(o.interval == 0.5);
    assert_int_equal(o.repeats, 4);
}

/* What is not printable text is refused before anything reads it, and the
 * error quotes it masked: no escape reaches the terminal */
static void test_control_characters(void **state)
{
    (void)state;
    const char *bad[] = {"\033]2;PWNED\a\033[2J=h", "h\tx", "\xc2\x9b", "\xff"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        const char *argv[] = {"parallax", "--text", "-h", bad[i], NULL};
        assert_int_equal(parse(4, argv), OPT_ERROR);
        assert_non_null(strstr(err, "argument 3"));
        for (const char *p = err; *p; p++)
            assert_true((unsigned char)*p >= 0x20 && *p != 0x7f);
    }
    const char *utf8[] = {"parallax", "--text", "-h", "été=h", NULL};
    assert_int_equal(parse(4, utf8), OPT_RUN);
    assert_string_equal(o.guests[0].name, "été");
}

/* A 5,000-character argument is cut in the error, not the reason. */
static void test_long_echo(void **state)
{
    (void)state;
    static char huge[5001];
    memset(huge, 'a', sizeof(huge) - 1);
    const char *a1[] = {"parallax", "-h", huge, NULL};
    assert_int_equal(parse(3, a1), OPT_ERROR);
    assert_non_null(strstr(err, "...': "));
    assert_non_null(strstr(err, "HOST[:PORT]"));
    const char *a2[] = {"parallax", "-t", huge, NULL};
    assert_int_equal(parse(3, a2), OPT_ERROR);
    assert_non_null(strstr(err, "try -t 1"));
}

static void test_batch_and_guests(void **state)
{
    (void)state;
    const char *empty[] = {"", ",,,", ","};
    for (size_t i = 0; i < sizeof(empty) / sizeof(empty[0]); i++) {
        const char *argv[] = {"parallax", "--batch", empty[i], NULL};
        assert_int_equal(parse(3, argv), OPT_ERROR);
        assert_non_null(strstr(err, "--batch names no suite or workload"));
    }
    const char *twice[] = {"parallax", "-h",         "a=vm:44321",
                           "-h",       "b=vm:44321", NULL};
    assert_int_equal(parse(5, twice), OPT_ERROR);
    assert_non_null(strstr(err, "vm:44321 is given twice"));
    const char *two[] = {"parallax", "-h", "vm:1", "-h", "vm:2", NULL};
    assert_int_equal(parse(5, two), OPT_RUN);
    const char *v6[] = {"parallax", "-h", "a:b:c", NULL};
    assert_int_equal(parse(3, v6), OPT_ERROR);
    assert_non_null(strstr(err, "in brackets"));
}

int main(void)
{
    /* the themes of the source tree (run_all.sh runs from its top) */
    setenv("PARALLAX_THEMES", "themes", 1);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decimal_only),
        cmocka_unit_test(test_control_characters),
        cmocka_unit_test(test_long_echo),
        cmocka_unit_test(test_batch_and_guests),
        cmocka_unit_test(test_theme),
        cmocka_unit_test(test_verbose),
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_lease),
        cmocka_unit_test(test_text_interval_samples),
        cmocka_unit_test(test_bad_intervals),
        cmocka_unit_test(test_bad_samples_and_unknown),
        cmocka_unit_test(test_help_version),
        cmocka_unit_test(test_pcp_intervals),
        cmocka_unit_test(test_pcp_letters),
        cmocka_unit_test(test_outputs),
        cmocka_unit_test(test_pcp_environment),
        cmocka_unit_test(test_container),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
