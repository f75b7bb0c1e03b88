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
    assert_int_equal(parse("[fe80::1%eth0]"), 0);
    assert_int_equal(parse("my_vm.example-1.org:1"), 0);
    assert_int_equal(parse("µ=vm"), 0); /* a label is any printable text */
    assert_string_equal(sp.name, "µ");
}

/* ",pid=N": the guest's VM process on this host (the host's view) */
static void test_pid(void **state)
{
    (void)state;
    assert_int_equal(parse("vm1=10.0.0.5:44321"), 0);
    assert_int_equal(sp.pid, 0);
    assert_int_equal(parse("vm1=10.0.0.5:44321,pid=4242"), 0);
    assert_string_equal(sp.name, "vm1");
    assert_string_equal(sp.target, "10.0.0.5:44321");
    assert_int_equal(sp.pid, 4242);
    assert_int_equal(parse("[::1]:44321,pid=7"), 0);
    assert_string_equal(sp.target, "[::1]:44321");
    assert_int_equal(sp.pid, 7);
    assert_int_equal(parse("vm1=h,pid=0"), -1);
    assert_non_null(strstr(err, "pid= takes the process id"));
    assert_int_equal(parse("vm1=h,pid=12x"), -1);
    assert_int_equal(parse("vm1=h,pid="), -1);
    assert_int_equal(parse(",pid=3"), -1); /* no host */
    assert_int_equal(parse("vm1=h,pid=3,pid=4"), -1);
    assert_non_null(strstr(err, "pid= is given twice"));
}

/* ",vm=NAME": the VM of that name on this host; not with pid= */
static void test_vm(void **state)
{
    (void)state;
    assert_int_equal(parse("g=10.0.0.5:44321,vm=web-1.prod"), 0);
    assert_string_equal(sp.name, "g");
    assert_string_equal(sp.target, "10.0.0.5:44321");
    assert_string_equal(sp.vm, "web-1.prod");
    assert_int_equal(sp.pid, 0);
    assert_int_equal(parse("[::1]:44321,vm=a_b+c:d@e"), 0);
    assert_string_equal(sp.target, "[::1]:44321");
    assert_string_equal(sp.vm, "a_b+c:d@e");
    assert_int_equal(parse("g=h"), 0); /* none given: none kept */
    assert_string_equal(sp.vm, "");
    /* both, either order: one line that says to give one */
    const char *both[] = {"g=h,vm=web,pid=3", "g=h,pid=3,vm=web"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(parse(both[i]), -1);
        assert_non_null(strstr(err, "pid= and vm= both name its VM"));
        assert_null(strchr(err, '\n'));
    }
    /* empty, unsafe or no name at all */
    const char *bad[] = {"g=h,vm=",        "g=h,vm=a b",    "g=h,vm=a,b",
                         "g=h,vm=\033[2J", "g=h,vm=a/b",    "g=h,vm=$(x)",
                         "g=h,vm=a=b",     "g=h,vm=x,vm=y", "g=h,foo=1",
                         "g=h,vm=µ"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(bad[i]), -1);
        assert_non_null(strstr(err, "HOST[:PORT]"));
        assert_null(strchr(err, '\n'));
        assert_null(strchr(err, '\033'));
    }
    assert_int_equal(parse("g=h,vm="), -1);
    assert_non_null(strstr(err, "vm= is empty"));
    char long_name[80] = "g=h,vm=";
    memset(long_name + 7, 'v', 64);
    assert_int_equal(parse(long_name), -1);
    assert_non_null(strstr(err, "too long"));
    long_name[7 + 63] = '\0';
    assert_int_equal(parse(long_name), 0);
    assert_int_equal(strlen(sp.vm), 63);
}

static void test_errors(void **state)
{
    (void)state;
    /* PCP refuses these with three lines of its own, or cannot resolve
     * them: a bare IPv6 address, a:b:c, brackets without an address */
    const char *bad[] = {"",           "=host",         "name=",      ":44321",
                         "host:",      "host:0",        "host:70000", "host:x1",
                         "my host",    "n=host:123456", "a:b:c",      "::1",
                         "[::1",       "[::1]x",        "[::1]:",     "[x]:1",
                         "@a",         "h@p",           "h:+1",       "h/x",
                         "n\033[2J=h", "h\x9b"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        assert_int_equal(parse(bad[i]), -1);
        assert_non_null(strstr(err, "HOST[:PORT]"));
        assert_null(strchr(err, '\n'));
        assert_null(strchr(err, '\033'));
    }
    /* a long argument is cut in the message, and the reason stays */
    static char huge[5001];
    memset(huge, 'h', sizeof(huge) - 1);

    assert_int_equal(parse(huge), -1);
    assert_non_null(strstr(err, "is too long; give HOST[:PORT]"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_forms),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_pid),
        cmocka_unit_test(test_vm),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
