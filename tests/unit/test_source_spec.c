/* Guests named on the command line: HOST, HOST:PORT, NAME=HOST:PORT, and
 * one-line errors for what PCP would reject confusingly. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/source_spec.h"

static struct source_spec sp;
static char err[256];

static int parse(const char *arg)
{
    err[0] = '\0';
    return source_spec_parse(arg, &sp, err, sizeof(err));
}

static void test_forms(void **state)
{
    (void)state;
    assert_int_equal(parse("guest1"), 0);
    assert_string_equal(sp.name, "guest1");
    assert_string_equal(sp.target, "guest1");
    assert_int_equal(parse("localhost:44322"), 0);
    assert_string_equal(sp.name, "localhost:44322");
    assert_string_equal(sp.target, "localhost:44322");
    assert_int_equal(parse("vm1=10.0.0.5:44321"), 0);
    assert_string_equal(sp.name, "vm1");
    assert_string_equal(sp.target, "10.0.0.5:44321");
    assert_int_equal(parse("v6=[::1]:44321"), 0);
    assert_string_equal(sp.target, "[::1]:44321");
}

static void test_errors(void **state)
{
    (void)state;
    const char *bad[] = {"",        "=host",        "name=",      ":44321",
                         "host:",   "host:0",       "host:70000", "host:x1",
                         "my host", "n=host:123456"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(bad[i]), -1);
        assert_non_null(strstr(err, "HOST[:PORT]"));
        assert_null(strchr(err, '\n'));
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
