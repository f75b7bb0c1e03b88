/* The recording's table (core/record_table.h): every name a valid PCP
 * name, none recorded twice (nor beside the metric table's own), every
 * row described, and the operands of the metric table's expressions
 * recorded, so that a replay reads every row back. */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/metrics.h"
#include "core/record_table.h"

#define HELP(id, pname, type, sem, unit, when, help, ...) help,
static const char *const helps[] = {RECORD_SOURCE_TABLE(HELP)
                                        RECORD_WORKLOAD_TABLE(HELP)};
#undef HELP

/* Every name the recorder defines: the rows, then the metric table's
 * plain names. */
static int all_names(const char **out)
{
    int n = 0;
    for (int i = 0; i < RECORD_SOURCE_COUNT; i++)
        out[n++] = record_source_names[i];
    for (int i = 0; i < RECORD_WORKLOAD_COUNT; i++)
        out[n++] = record_workload_names[i];
    for (int i = 0; i < METRIC_COUNT; i++)
        if (!strchr(metric_descs[i].pcp, ' '))
            out[n++] = metric_descs[i].pcp;
    return n;
}

/* PCP's rule: dot-separated parts, each a letter then letters, digits
 * or underscores. */
static bool valid_pcp_name(const char *s)
{
    bool start = true;
    for (; *s; s++) {
        if (*s == '.') {
            if (start)
                return false;
            start = true;
        } else if (start ? isalpha((unsigned char)*s)
                         : isalnum((unsigned char)*s) || *s == '_') {
            start = false;
        } else {
            return false;
        }
    }
    return !start;
}

static void test_names_valid_and_unique(void **state)
{
    (void)state;
    const char
        *names[RECORD_SOURCE_COUNT + RECORD_WORKLOAD_COUNT + METRIC_COUNT];
    int n = all_names(names);
    assert_true(n > METRIC_COUNT + 20);
    for (int i = 0; i < n; i++) {
        if (!valid_pcp_name(names[i]))
            fail_msg("not a PCP name: '%s'", names[i]);
        for (int k = i + 1; k < n; k++)
            if (strcmp(names[i], names[k]) == 0)
                fail_msg("recorded twice: %s", names[i]);
    }
}

static void test_rows_described(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
        assert_true(strlen(helps[i]) >= 10);
}

/* "A - B": both recorded (the writer gives B so that A - B is the row). */
static void test_expressions_read_back(void **state)
{
    (void)state;
    for (int id = 0; id < METRIC_COUNT; id++) {
        char a[64], b[64];
        if (sscanf(metric_descs[id].pcp, "%63s - %63s", a, b) != 2)
            continue;
        int found = 0;
        for (int i = 0; i < RECORD_SOURCE_COUNT; i++)
            found += !strcmp(record_source_names[i], a) +
                     !strcmp(record_source_names[i], b);
        if (found != 2)
            fail_msg("%s: its operands are not both recorded",
                     metric_descs[id].key);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names_valid_and_unique),
        cmocka_unit_test(test_rows_described),
        cmocka_unit_test(test_expressions_read_back),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
