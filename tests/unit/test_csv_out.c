/* The CSV rows (cli/csv_out.c) read back with the C library's own
 * parser: a recorded column before its first record (the reader's process
 * is still starting, issue 24) has an empty time and empty figures, as
 * pmrep leaves what it has not read, never a time of 0; once a record is
 * shown, its time is the record's. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "cli/csv_out.h"
#include "core/model.h"
#include "sample_fixture.h"

static struct session s;

/* The n-th comma-separated field of line (no quotes in the data rows). */
static void field(const char *line, int n, char *out, size_t len)
{
    const char *p = line;
    for (int i = 0; i < n && p; i++)
        p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL;
    assert_non_null(p);
    size_t k = strcspn(p, ",\n");
    assert_true(k < len);
    memcpy(out, p, k);
    out[k] = '\0';
}

/* The header's index of the column named want. */
static int column(const char *header, const char *want)
{
    char name[128];
    for (int i = 0;; i++) {
        field(header, i, name, sizeof(name));
        if (strcmp(name, want) == 0)
            return i;
        if (!strchr(header, ',') || i > 4 * METRIC_COUNT)
            fail_msg("no column %s in %s", want, header);
    }
}

/* Writes one row of s and reads back the header and that row. */
static void row(char *header, char *line, size_t len)
{
    char *buf = NULL;
    size_t size = 0;
    FILE *f = open_memstream(&buf, &size);
    assert_non_null(f);
    struct csv_out c;
    char err[256];
    assert_int_equal(csv_out_open(&c, NULL, f, err, sizeof(err)), 0);
    csv_out_row(&c, &s);
    assert_int_equal(csv_out_close(&c, err, sizeof(err)), 0);
    fclose(f);
    char *nl = strchr(buf, '\n');
    assert_non_null(nl);
    snprintf(header, len, "%.*s", (int)(nl - buf), buf);
    snprintf(line, len, "%s", nl + 1);
    free(buf);
}

static void test_recorded_before_its_first_record(void **state)
{
    (void)state;
    static char header[65536], line[65536];
    char got[64];
    s.nsrc = 2;
    model_init(&s.model[0], "host", NULL);
    for (int k = 0; k < 3; k++) {
        struct sample smp = fix_sample_at(k);
        smp.t_real = 1.7e9 + k;
        model_update(&s.model[0], &smp);
    }
    model_init(&s.model[1], "r", "rec/host");
    s.model[1].replay.on = true; /* as session_add_recorded sets it */
    row(header, line, sizeof(header));
    int t = column(header, "\"r:time (s)\"");
    int ctx = column(header, "\"r:ctxsw (count/s)\"");
    field(line, t, got, sizeof(got));
    assert_string_equal(got, "");
    field(line, ctx, got, sizeof(got));
    assert_string_equal(got, "");
    field(line, column(header, "\"host:time (s)\""), got, sizeof(got));
    assert_true(strtod(got, NULL) > 0); /* the host's own time is there */

    /* the first record shown: its time */
    struct sample rec = fix_sample_at(0);
    rec.t_real = 1.7e9 + 0.25;
    rec.replay.on = true;
    rec.replay.at = rec.t_real;
    model_update(&s.model[1], &rec);
    row(header, line, sizeof(header));
    field(line, t, got, sizeof(got));
    assert_true(strtod(got, NULL) == 1.7e9 + 0.25); /* to the bit */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recorded_before_its_first_record),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
