/* Suites name workloads by string: every name must resolve, and every
 * workload of the registry must belong to some suite besides "all", so the
 * table cannot drift from the catalogue. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "runner/suites.h"
#include "workloads/registry.h"

static void test_every_member_resolves(void **state)
{
    (void)state;
    const struct workload *w[SUITE_MAX_MEMBERS];
    char err[256];
    for (int i = 0; wl_suites[i]; i++) {
        int n =
            suite_resolve(wl_suites[i], w, SUITE_MAX_MEMBERS, err, sizeof err);
        if (n < 0)
            fail_msg("%s", err);
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++)
                if (w[a] == w[b])
                    fail_msg("suite %s lists %s twice", wl_suites[i]->name,
                             w[a]->name);
    }
}

static void test_every_workload_in_a_named_suite(void **state)
{
    (void)state;
    const struct workload *w[SUITE_MAX_MEMBERS];
    char err[256];
    for (int k = 0; workload_registry[k]; k++) {
        int found = 0;
        for (int i = 0; wl_suites[i] && !found; i++) {
            if (!wl_suites[i]->members)
                continue; /* "all" proves nothing */
            int n = suite_resolve(wl_suites[i], w, SUITE_MAX_MEMBERS, err,
                                  sizeof err);
            for (int m = 0; m < n; m++)
                found |= w[m] == workload_registry[k];
        }
        if (!found)
            fail_msg("%s is in no suite: add it to lmbench or unixbench in "
                     "runner/suites.c",
                     workload_registry[k]->name);
    }
}

static void test_all_is_the_registry(void **state)
{
    (void)state;
    const struct workload *w[SUITE_MAX_MEMBERS];
    char err[256];
    int n =
        suite_resolve(suite_find("all"), w, SUITE_MAX_MEMBERS, err, sizeof err);
    assert_int_equal(n, workload_count());
    for (int i = 0; i < n; i++)
        assert_ptr_equal(w[i], workload_registry[i]);
}

static void test_missing_member_is_an_error(void **state)
{
    (void)state;
    static const char *const names[] = {"syscall-null", "no-such-thing", NULL};
    const struct wl_suite s = {"broken", "test", names};
    const struct workload *w[4];
    char err[256];
    assert_int_equal(suite_resolve(&s, w, 4, err, sizeof err), -1);
    assert_non_null(strstr(err, "\"no-such-thing\""));
    assert_int_equal(suite_resolve(&s, w, 0, err, sizeof err), -1);
    assert_non_null(strstr(err, "more than 0"));
}

static void test_names_unique_and_findable(void **state)
{
    (void)state;
    for (int i = 0; wl_suites[i]; i++) {
        assert_ptr_equal(suite_find(wl_suites[i]->name), wl_suites[i]);
        /* a suite may not hide a workload of the same name */
        assert_null(workload_find(wl_suites[i]->name));
    }
    assert_null(suite_find("nope"));
    char buf[256];
    suite_names(buf, sizeof buf);
    assert_non_null(strstr(buf, "syscalls"));
    assert_non_null(strstr(buf, "all"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_member_resolves),
        cmocka_unit_test(test_every_workload_in_a_named_suite),
        cmocka_unit_test(test_all_is_the_registry),
        cmocka_unit_test(test_missing_member_is_an_error),
        cmocka_unit_test(test_names_unique_and_findable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
