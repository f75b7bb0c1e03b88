/* --demo-guest=VARIANTS turned into guest/boot.sh options: each variant,
 * combinations, and a one-line error naming what is wrong for the rest
 * (checked before anything boots); the column name each guest gets. */
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
    expect("icount", (const char *const[]){"--icount", "fast", NULL});
    expect("icount=fast", (const char *const[]){"--icount", "fast", NULL});
    expect("icount=slow", (const char *const[]){"--icount", "slow", NULL});
    expect("uml", (const char *const[]){"--uml", NULL});
    expect("kernel=6.1", (const char *const[]){"--kernel", "6.1", NULL});
    expect("kernel=6.12", (const char *const[]){"--kernel", "6.12", NULL});
    expect("kernel=6.12-rt",
           (const char *const[]){"--kernel", "6.12-rt", NULL});
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
           (const char *const[]){"--icount", "fast", "--mem", "256M", "--clock",
                                 "rtc", NULL});
    expect("uml,mem=192M",
           (const char *const[]){"--uml", "--mem", "192M", NULL});
    expect("kernel=6.12-rt,icount=slow,cpus=1",
           (const char *const[]){"--kernel", "6.12-rt", "--icount", "slow",
                                 "--cpus", "1", NULL});
    expect(
        "uml,cpus=1,clock=host",
        (const char *const[]){"--uml", "--cpus", "1", "--clock", "host", NULL});
    expect("cpus=2,mem=192M",
           (const char *const[]){"--cpus", "2", "--mem", "192M", NULL});
    /* the last cpus= counts, as in boot.sh */
    expect("cpus=2,icount,cpus=1",
           (const char *const[]){"--cpus", "2", "--icount", "fast", "--cpus",
                                 "1", NULL});
}

/* each is refused with a message that names it */
static void test_bad(void **state)
{
    (void)state;
    const struct {
        const char *variants, *said;
    } bad[] = {
        {"bogus", "'bogus' is not one of uml, kernel=6.1|6.12|6.12-rt, "
                  "icount[=fast|slow], cpus=1|2, mem=SIZE (e.g. 256M), "
                  "clock=host|rtc"},
        {"icount=1", "'icount=1' is not one of"},
        {"icount=", "'icount=' is not one of"},
        {"uml=1", "'uml=1' is not one of"},
        {"kernel=5.4", "'kernel=5.4' is not one of"},
        {"kernel", "'kernel' is not one of"},
        {"kernel=6.12-RT", "'kernel=6.12-RT' is not one of"},
        {"kernel=6.1|6.12", "'kernel=6.1|6.12' is not one of"},
        {"kernel=6", "'kernel=6' is not one of"},
        {"uml,cpus=2", "uml runs 1 CPU only"},
        {"uml,icount", "uml has no icount"},
        {"icount=slow,uml", "uml has no icount"},
        {"uml,kernel=6.12", "uml boots Debian's linux.uml; drop kernel="},
        {"uml,clock=rtc", "uml reads the host's clock; drop clock=rtc"},
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
    assert_int_equal(demo_guest_args("uml,mem=256M", small, 3, buf, sizeof(buf),
                                     err, sizeof(err)),
                     -1);
    assert_string_equal(err, "too many demo guest variants");
    assert_int_equal(demo_guest_args("clock=host,mem=256M", argv_, MAX, tiny,
                                     sizeof(tiny), err, sizeof(err)),
                     -1);
    assert_string_equal(err, "too many demo guest variants");
    assert_int_equal(
        demo_guest_args("uml", small, 2, buf, sizeof(buf), err, sizeof(err)),
        0);
    assert_string_equal(small[0], "--uml");
    assert_null(small[1]);
    /* longer than any list can be: refused, not cut */
    char longer[400];
    memset(longer, 'x', sizeof(longer) - 1);
    longer[sizeof(longer) - 1] = '\0';
    assert_int_equal(args(longer), -1);
    assert_non_null(strstr(err, "longer than"));
}

/* each guest's column says what it is; the defaults, its accelerator */
static void test_names(void **state)
{
    (void)state;
    const struct {
        const char *variants, *accel, *name;
    } names[] = {
        {"", "tcg", "demo-tcg"},
        {NULL, "kvm", "demo-kvm"},
        {"", NULL, ""},
        {"mem=256M,clock=host,cpus=1", "tcg", "demo-256M"},
        {"uml", "uml", "demo-uml"},
        {"kernel=6.12", "tcg", "demo-6.12"},
        {"kernel=6.12-rt,icount=slow", NULL, "demo-6.12-rt-icount-slow"},
        {"icount", "tcg", "demo-icount-fast"},
        {"cpus=2,clock=rtc", "tcg", "demo-2cpu-rtc"},
        {"bogus", "tcg", "demo-tcg"},
    };
    char name[64];
    for (size_t k = 0; k < sizeof(names) / sizeof(names[0]); k++) {
        demo_guest_name(names[k].variants, names[k].accel, name, sizeof(name));
        assert_string_equal(name, names[k].name);
    }
    assert_null(demo_guest_kernel(""));
    assert_null(demo_guest_kernel("uml"));
    assert_null(demo_guest_kernel("kernel=6.1"));
    assert_string_equal(demo_guest_kernel("mem=256M,kernel=6.12-rt"),
                        "6.12-rt");
    assert_null(demo_guest_kernel("kernel=5.4"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults), cmocka_unit_test(test_each_variant),
        cmocka_unit_test(test_combined), cmocka_unit_test(test_bad),
        cmocka_unit_test(test_no_room),  cmocka_unit_test(test_names),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
