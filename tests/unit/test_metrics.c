/* The metric table: every entry complete and consistent, keys unique, and
 * the generated enum, descriptors and lookups agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/metrics.h"

static void test_entries_complete(void **state)
{
    (void)state;
    assert_true(METRIC_COUNT >= 13);
    for (int i = 0; i < METRIC_COUNT; i++) {
        const struct metric_desc *d = &metric_descs[i];
        assert_non_null(d->key);
        assert_non_null(d->label);
        assert_non_null(d->pcp);
        assert_true(strlen(d->key) > 0 && strlen(d->label) > 0);
        /* labels fit the label column */
        assert_true(strlen(d->label) < 16);
    }
}

static void test_keys_unique_and_found(void **state)
{
    (void)state;
    for (int i = 0; i < METRIC_COUNT; i++) {
        assert_int_equal(metric_by_key(metric_descs[i].key), i);
        for (int j = i + 1; j < METRIC_COUNT; j++)
            assert_string_not_equal(metric_descs[i].key, metric_descs[j].key);
    }
    assert_int_equal(metric_by_key("no_such_metric"), -1);
}

static void test_kinds_match_units(void **state)
{
    (void)state;
    for (int i = 0; i < METRIC_COUNT; i++) {
        const struct metric_desc *d = &metric_descs[i];
        if (d->kind == MK_CPU) {
            assert_int_equal(d->unit, MU_MSEC);
            assert_int_equal(d->format, MF_PERCENT);
        }
        assert_int_equal(metric_is_counter(i), d->kind != MK_INSTANT);
    }
}

static void test_issue_metric_set(void **state)
{
    (void)state;
    /* the set the foundation promises, by key */
    const char *keys[] = {"cpu_user",  "cpu_sys", "cpu_idle",  "cpu_iowait",
                          "cpu_steal", "ctxsw",   "forks",     "intr",
                          "runnable",  "load1",   "disk_read", "disk_write",
                          "mem_used"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        assert_true(metric_by_key(keys[i]) >= 0);
    assert_int_equal(metric_descs[METRIC_LOAD1].kind, MK_INSTANT);
    assert_string_equal(metric_descs[METRIC_LOAD1].inst, "1 minute");
    assert_int_equal(metric_descs[METRIC_FORKS].kind, MK_RATE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_entries_complete),
        cmocka_unit_test(test_keys_unique_and_found),
        cmocka_unit_test(test_kinds_match_units),
        cmocka_unit_test(test_issue_metric_set),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
