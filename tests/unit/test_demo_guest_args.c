/* --demo-guest=VARIANTS turned into guest/boot.sh options: each variant,
 * combinations, and a one-line error naming what is wrong for the rest
 * (checked before anything boots). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "guest/demo_guest.h"

#define MAX 16

static char *argv_[MAX];
static char buf[256], err[256];

static int args(const char *variants)
{
    err[0] = '\0';
    memset(argv_, 0xff, sizeof(argv_)); /* a missing NULL shows */
    return demo_guest_args(variants, argv_, MAX, buf, sizeof(buf), err,
                           sizeof(err));
}

/* argv_ holds exactly the NULL-ended list `want` */
static void expect(const char *variants, const char *const *want)
{
    assert_int_equal(args(variants), 0);
    size_t k = 0;
    for (; want[k]; k++) {
        assert_non_null(argv_[k]);
        assert_string_equal(argv_[k], want[k]);
    }
    assert_null(argv_[k]);
}

static void test_defaults(void **state)
{
    (void)state;
    expect("", (const char *const[]){NULL});
    expect(NULL, (const char *const[]){NULL});
    expect(",,", (const char *const[]){NULL});
}

static void test_each_variant(void **state)
{
    (void)state;
    expect("icount", (const char *const[]){"--icount", NULL});
    expect("cpus=1", (const char *const[]){"--cpus", "1", NULL});
    expect("cpus=2", (const char *const[]){"--cpus", "2", NULL});
    expect("mem=256M", (const char *const[]){"--mem", "256M", NULL});
    expect("mem=96M", (const char *const[]){"--mem", "96M", NULL});
    expect("mem=1G", (const char *const[]){"--mem", "1G", NULL});
    expect("mem=512", (const char *const[]){"--mem", "512", NULL});
    expect("clock=host", (const char *const[]){"--clock", "host", NULL});
    expect("clock=rtc", (const char *const[]){"--clock", "rtc", NULL});
}

static void test_combined(void **state)
{
    (void)state;
    expect("icount,mem=256M,clock=rtc",
           (const char *const[]){"--icount", "--mem", "256M", "--clock", "rtc",
                                 NULL});
    expect("cpus=2,mem=192M",
           (const char *const[]){"--cpus", "2", "--mem", "192M", NULL});
    /* the last cpus= counts, as in boot.sh */
    expect(
        "cpus=2,icount,cpus=1",
        (const char *const[]){"--cpus", "2", "--icount", "--cpus", "1", NULL});
}

/* each is refused with a message that names it */
static void test_bad(void **state)
{
    (void)state;
    const struct {
        const char *variants, *said;
    } bad[] = {
        {"bogus", "'bogus' is not one of icount, cpus=1|2"},
        {"icount=1", "'icount=1' is not one of"},
        {"cpus=3", "'cpus=3' is not one of"},
        {"cpus=0", "'cpus=0' is not one of"},
        {"cpus", "'cpus' is not one of"},
        {"mem=", "'mem=' is not one of"},
        {"mem=M", "'mem=M' is not one of"},
        {"mem=1M2G", "'mem=1M2G' is not one of"},
        {"mem=12MG", "'mem=12MG' is not one of"},
        {"mem=256K", "'mem=256K' is not one of"},
        {"mem=99999999M", "'mem=99999999M' is not one of"},
        {"mem=64M", "'mem=64M' is below the guest's floor; use mem=96M"},
        {"clock=ntp", "'clock=ntp' is not one of"},
        {"icount,bogus", "'bogus' is not one of"},
        {"icount,cpus=2", "icount runs 1 vCPU only; drop cpus=2"},
        {"cpus=2,icount", "icount runs 1 vCPU only; drop cpus=2"},
    };
    for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
        assert_int_equal(args(bad[k].variants), -1);
        if (!strstr(err, bad[k].said))
            fail_msg("'%s' said \"%s\", not \"%s\"", bad[k].variants, err,
                     bad[k].said);
        assert_null(strchr(err, '\n'));
    }
}

/* more options than argv or buf hold: refused, never overrun */
static void test_no_room(void **state)
{
    (void)state;
    char *small[3];
    char tiny[8];
    assert_int_equal(demo_guest_args("icount,mem=256M", small, 3, buf,
                                     sizeof(buf), err, sizeof(err)),
                     -1);
    assert_string_equal(err, "too many demo guest variants");
    assert_int_equal(demo_guest_args("clock=host,mem=256M", argv_, MAX, tiny,
                                     sizeof(tiny), err, sizeof(err)),
                     -1);
    assert_string_equal(err, "too many demo guest variants");
    assert_int_equal(
        demo_guest_args("icount", small, 2, buf, sizeof(buf), err, sizeof(err)),
        0);
    assert_string_equal(small[0], "--icount");
    assert_null(small[1]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults), cmocka_unit_test(test_each_variant),
        cmocka_unit_test(test_combined), cmocka_unit_test(test_bad),
        cmocka_unit_test(test_no_room),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
