/* A kernel's scheduler and preemption model told from what it reports:
 * the texts the demo guests' kernels gave here (6.1 cloud, 6.12 cloud,
 * 6.12 rt, User-Mode Linux 6.1), with and without debugfs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "collectors/kernel_sched.h"

static struct kernel_sched k;
static char text[64];

static const char *tell(const char *rel, const char *ver, const char *preempt,
                        bool base_slice, bool min_gran)
{
    struct kernel_facts f = {rel, ver, preempt, base_slice, min_gran};
    kernel_sched_tell(&f, &k);
    kernel_sched_text(&k, text, sizeof(text));
    return text;
}

static void test_with_debugfs(void **state)
{
    (void)state;
    assert_string_equal(tell("6.1.0-57-cloud-amd64",
                             "#1 SMP PREEMPT_DYNAMIC Debian 6.1.192-3",
                             "none (voluntary) full\n", false, true),
                        "CFS voluntary");
    assert_string_equal(tell("6.12.117+deb12-cloud-amd64",
                             "#1 SMP PREEMPT_DYNAMIC Debian 6.12.117-1",
                             "none (voluntary) full lazy\n", true, false),
                        "EEVDF voluntary");
    assert_string_equal(tell("6.12.117+deb12-rt-amd64",
                             "#1 SMP PREEMPT_RT Debian 6.12.117-1",
                             "full (lazy) laziest\n", true, false),
                        "EEVDF RT lazy");
    /* debugfs outranks the release */
    assert_string_equal(tell("6.12.0", "#1 SMP", "", false, true), "CFS none");
}

static void test_without_debugfs(void **state)
{
    (void)state;
    assert_string_equal(
        tell("6.1.176", "#1 Sat Jul  4 15:38:16 UTC 2026", NULL, false, false),
        "CFS none"); /* UML: no debugfs, no preemption */
    assert_string_equal(
        tell("6.18.44-fc-v1045", "#1 SMP PREEMPT_DYNAMIC @0", "", false, false),
        "EEVDF dynamic");
    assert_string_equal(tell("6.5.9", "#1 SMP PREEMPT Mon", NULL, false, false),
                        "CFS full");
    assert_string_equal(
        tell("6.6.0", "#1 SMP PREEMPT_RT x", NULL, false, false), "EEVDF RT");
    /* words, not parts of words */
    assert_string_equal(
        tell("6.6.0", "#1 SMP NOPREEMPT_RTX", NULL, false, false),
        "EEVDF none");
}

static void test_unknown(void **state)
{
    (void)state;
    assert_string_equal(tell(NULL, NULL, NULL, false, false), "");
    assert_string_equal(tell("garbage", "", "()", false, false), "");
    assert_string_equal(k.family, "");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_with_debugfs),
        cmocka_unit_test(test_without_debugfs),
        cmocka_unit_test(test_unknown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
