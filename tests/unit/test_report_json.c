/* The JSON report read back as a baseline gives the figures written (n/a
 * stays n/a); a damaged file, another format version, a missing file or
 * an unknown source each give one line naming the file and the problem. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "core/report_json.h"
#include "core/report_read.h"
#include "report_fixture.h"

static char path[64];

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof(path), "/tmp/parallax-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

static void write_fixture(void)
{
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct report_meta meta = fix_meta();
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(report_json_write(f, s, j, &meta), 0);
    fclose(f);
    fix_free(s, j);
}

static void write_text(const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Equal figures, NaN equal to NaN. */
static void assert_same(double a, double b)
{
    if (isnan(a) || isnan(b))
        assert_true(isnan(a) && isnan(b));
    else
        assert_true(a == b);
}

static void check_source(const struct baseline *b, const struct session *s,
                         const struct jobs *j, int src)
{
    const struct source_model *m = &s->model[src];
    assert_int_equal(b->model.state, SRC_LIVE);
    assert_string_equal(b->model.info.host, m->info.host);
    assert_string_equal(b->model.info.release, m->info.release);
    assert_int_equal(b->model.info.ncpu, m->info.ncpu);
    assert_same(b->model.info.mem_bytes, m->info.mem_bytes);
    for (int id = 0; id < METRIC_COUNT; id++)
        assert_same(b->model.value[id], m->value[id]);
    assert_same(b->model.probe.sleep_took, m->probe.sleep_took);
    assert_same(b->model.probe.spin_cpu, m->probe.spin_cpu);
    int ran = 0;
    for (int w = 0; w < j->nwl; w++) {
        const struct job_cell *c = jobs_cell(j, src, w);
        const struct baseline_wl *bw = baseline_wl_find(b, j->wl[w]->name);
        if (jobs_cell(j, 0, w)->state == JOB_IDLE &&
            jobs_cell(j, 1, w)->state == JOB_IDLE) {
            assert_null(bw);
            continue;
        }
        ran++;
        assert_non_null(bw);
        assert_int_equal(bw->n, c->stats.n);
        assert_same(bw->median, c->stats.median);
        assert_same(bw->ci95, c->stats.ci95);
        assert_string_equal(bw->unit, j->wl[w]->unit);
    }
    assert_int_equal(b->nwl, ran);
}

static void test_round_trip(void **state)
{
    (void)state;
    write_fixture();
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct baseline *b = malloc(sizeof(*b));
    char err[256] = "";
    assert_int_equal(report_read(path, NULL, "6.1", b, err, sizeof(err)), 0);
    assert_string_equal(b->model.name, "baseline:6.1");
    check_source(b, s, j, 0);
    assert_int_equal(report_read(path, "guest1", NULL, b, err, sizeof(err)), 0);
    assert_string_equal(b->model.name, "baseline:guest1");
    check_source(b, s, j, 1);
    free(b);
    fix_free(s, j);
}

/* report_read fails with a one-line error that holds `want`. */
static void assert_refused(const char *source, const char *want)
{
    struct baseline *b = malloc(sizeof(*b));
    char err[256] = "";
    assert_int_equal(report_read(path, source, NULL, b, err, sizeof(err)), -1);
    free(b);
    assert_non_null(strstr(err, path));
    if (!strstr(err, want))
        fail_msg("error \"%s\" lacks \"%s\"", err, want);
    assert_null(strchr(err, '\n'));
}

static void test_damaged(void **state)
{
    (void)state;
    write_fixture();
    /* cut the file in half, as a crash without atomic writing would */
    FILE *f = fopen(path, "r+");
    fseek(f, 0, SEEK_END);
    long len = ftell(f);
    fclose(f);
    assert_int_equal(truncate(path, len / 2), 0);
    assert_refused(NULL, "damaged report");
}

static void test_wrong_version(void **state)
{
    (void)state;
    write_text("{\"format\": \"parallax-report\", \"version\": 2, "
               "\"sources\": []}");
    assert_refused(NULL, "version 2");
}

static void test_not_a_report(void **state)
{
    (void)state;
    write_text("{\"format\": \"something-else\", \"version\": 1}");
    assert_refused(NULL, "not a parallax report");
    write_text("[1, 2, 3]");
    assert_refused(NULL, "not a parallax report");
}

static void test_mistyped_field(void **state)
{
    (void)state;
    write_text("{\"format\": \"parallax-report\", \"version\": 1, "
               "\"sources\": [{\"name\": \"h\", \"host\": \"h\", \"kernel\": "
               "\"6\", \"ncpu\": \"two\", \"mem_bytes\": null, \"pmda\": "
               "false}]}");
    assert_refused(NULL, "damaged report");
}

static void test_missing_source_and_file(void **state)
{
    (void)state;
    write_fixture();
    assert_refused("nosuch", "no source named nosuch");
    unlink(path);
    assert_refused(NULL, "No such file");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_a_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mistyped_field, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_source_and_file, setup,
                                        teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
