/* The JSON report read back as a baseline gives the figures written (n/a
 * stays n/a), named with the report's date (and its parallax version when
 * another wrote it); a damaged file, another format version, a missing
 * file or an unknown source each give one line naming the file and the
 * problem. A guest's statistics, as pmdaparallax gives them, reach the
 * JSON whole. What is not a report is refused before it is read (a
 * directory, a FIFO, a file too large), figures out of range are damage,
 * and escapes in its strings never reach a terminal (issue 16). */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "base/version.h"
#include "report/report_json.h"
#include "report/report_read.h"
#include "report_fixture.h"

static char path[64];

static int setup(void **state)
{
    (void)state;
    setenv("TZ", "UTC", 1); /* the date in the names */
    tzset();
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
        assert_same(bw->min, c->stats.min);
        assert_same(bw->max, c->stats.max);
        assert_same(bw->mean, c->stats.mean);
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
    assert_string_equal(b->model.name, "baseline:6.1 2023-11-14");
    assert_string_equal(b->version, PARALLAX_VERSION);
    assert_true(baseline_same_version(b));
    check_source(b, s, j, 0);
    assert_int_equal(report_read(path, "guest1", NULL, b, err, sizeof(err)), 0);
    assert_string_equal(b->model.name, "baseline:guest1 2023-11-14");
    check_source(b, s, j, 1);
    free(b);
    fix_free(s, j);
}

/* Rewrites the fixture's report as another parallax version wrote it. */
static void write_other_version(const char *version)
{
    write_fixture();
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    assert_non_null(root);
    json_object_set_new(root, "parallax", json_string(version));
    assert_int_equal(json_dump_file(root, path, JSON_INDENT(2)), 0);
    json_decref(root);
}

/* Another version's report is read, and says so in its column's name;
 * a label too long for the name gives way to the date and version. */
static void test_other_version(void **state)
{
    (void)state;
    write_other_version("0.0.9");
    struct baseline *b = malloc(sizeof(*b));
    char err[256] = "";
    assert_int_equal(report_read(path, NULL, "then", b, err, sizeof(err)), 0);
    assert_string_equal(b->version, "0.0.9");
    assert_false(baseline_same_version(b));
    assert_string_equal(b->model.name, "baseline:then 2023-11-14 v0.0.9");
    char label[100];
    memset(label, 'l', sizeof(label) - 1);
    label[sizeof(label) - 1] = '\0';
    assert_int_equal(report_read(path, NULL, label, b, err, sizeof(err)), 0);
    size_t len = strlen(b->model.name);
    assert_int_equal(len, sizeof(b->model.name) - 1);
    assert_string_equal(b->model.name + len - 18, " 2023-11-14 v0.0.9");
    free(b);
}

/* A guest's finished run as its sampler delivers it (parallax.workload.*
 * folded into the model): the cell and the JSON get n, median, min, max,
 * mean and the interval. */
static void test_guest_stats(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    int w = fix_wl(j, "fork-exec");
    struct source_model *m = &s->model[1];
    m->njobs = 1;
    m->job[0] = (struct pmda_job){.name = "fork-exec",
                                  .state = 2,
                                  .runs = 1,
                                  .figure = 410,
                                  .repeats_done = 3,
                                  .repeats = 3,
                                  .n = 3,
                                  .median = 400,
                                  .min = 390,
                                  .max = 420,
                                  .mean = 403.3,
                                  .ci_lo = 363.3,
                                  .ci_hi = 443.3,
                                  .extras_at = -1};
    struct job_cell *c = &j->cells[1][w];
    c->state = JOB_RUNNING;
    jobs_update(j, s);
    assert_int_equal(c->state, JOB_DONE);
    assert_int_equal(c->stats.n, 3);
    assert_true(c->stats.min == 390 && c->stats.max == 420);
    assert_true(c->stats.mean == 403.3 && c->stats.median == 400);
    assert_true(fabs(c->stats.ci95 - 40) < 1e-9);
    struct report_meta meta = fix_meta();
    FILE *f = fopen(path, "w");
    assert_int_equal(report_json_write(f, s, j, &meta), 0);
    fclose(f);
    fix_free(s, j);
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    json_t *st = json_object_get(
        json_object_get(json_array_get(json_object_get(root, "sources"), 1),
                        "workloads"),
        "fork-exec");
    assert_non_null(st);
    static const char *const keys[] = {"median", "min", "max", "mean", "ci95"};
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        assert_true(json_is_number(json_object_get(st, keys[i])));
    assert_true(json_number_value(json_object_get(st, "min")) == 390);
    assert_true(json_number_value(json_object_get(st, "mean")) == 403.3);
    json_decref(root);
}

/* The Time rows the text report marks with "!" are listed as faults: the
 * guest's CPU billed/wall of 1.15, outside 0.95-1.05; none on the host. */
static void test_time_faults(void **state)
{
    (void)state;
    write_fixture();
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    assert_non_null(root);
    json_t *srcs = json_object_get(root, "sources");
    json_t *host = json_object_get(
        json_object_get(json_array_get(srcs, 0), "time"), "faults");
    json_t *guest = json_object_get(
        json_object_get(json_array_get(srcs, 1), "time"), "faults");
    assert_true(json_is_array(host) && json_array_size(host) == 0);
    assert_true(json_is_array(guest) && json_array_size(guest) == 1);
    assert_string_equal(json_string_value(json_array_get(guest, 0)),
                        "CPU billed/wall");
    json_decref(root);
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
    assert_null(strchr(err, '\033'));
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

/* Rewrites the fixture's report with `key` ("a.b.c": a member of a
 * member) of source 0, or of the top level when top, set to v (taken). */
static void write_with(bool top, const char *key, json_t *v)
{
    write_fixture();
    json_error_t je;
    json_t *root = json_load_file(path, 0, &je);
    assert_non_null(root);
    json_t *o =
        top ? root : json_array_get(json_object_get(root, "sources"), 0);
    char k[64], *dot;
    snprintf(k, sizeof(k), "%s", key);
    char *name = k;
    while ((dot = strchr(name, '.')) != NULL) {
        *dot = '\0';
        o = json_object_get(o, name);
        name = dot + 1;
    }
    assert_non_null(o);
    json_object_set_new(o, name, v);
    assert_int_equal(json_dump_file(root, path, 0), 0);
    json_decref(root);
}

/* A directory, a FIFO (open() once blocked for ever) and a file larger
 * than any report (a 58 MB one took 793 MB to load) are refused before
 * anything is read. */
static void test_not_a_file(void **state)
{
    (void)state;
    char dir[] = "/tmp/parallax-test-dir-XXXXXX";
    assert_non_null(mkdtemp(dir));
    struct baseline *b = malloc(sizeof(*b));
    char err[512];
    assert_int_equal(report_read(dir, NULL, NULL, b, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "a directory"));
    assert_null(strstr(err, "damaged"));
    char fifo[600];
    snprintf(fifo, sizeof(fifo), "%s/fifo.json", dir);
    assert_int_equal(mkfifo(fifo, 0600), 0);
    alarm(10); /* a blocked open fails the test instead of hanging it */
    assert_int_equal(report_read(fifo, NULL, NULL, b, err, sizeof(err)), -1);
    alarm(0);
    assert_non_null(strstr(err, "not a regular file"));
    unlink(fifo);
    rmdir(dir);
    write_fixture();
    assert_int_equal(truncate(path, REPORT_READ_MAX + 1), 0);
    assert_int_equal(report_read(path, NULL, NULL, b, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "larger than a report"));
    free(b);
}

/* Figures no measurement gives are damage, with the field named. */
static void test_out_of_range(void **state)
{
    (void)state;
    static const struct {
        bool top;
        const char *key;
        double v;
        const char *want;
    } cases[] = {
        {false, "metrics.cpu_user", 1e308, "cpu_user"},
        {false, "metrics.ctxsw", -1, "ctxsw"},
        {false, "metrics.load1", 1e12, "load1"},
        {false, "ncpu", -5, "ncpu -5"},
        {false, "ncpu", 1e7, "ncpu"},
        {false, "mem_bytes", -1, "mem_bytes"},
        {false, "workloads.fork-exit.median", 1e308, "fork-exit"},
        {false, "workloads.fork-exit.median", 0, "fork-exit"},
        {false, "workloads.fork-exit.ci95", -3, "fork-exit"},
        {false, "workloads.fork-exit.n", -1, "fork-exit"},
        {false, "workloads.fork-exit.n", 1e6, "fork-exit"},
        {false, "time.probe.sleep_took_s", 1e300, "probe"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        json_t *v = strstr(cases[i].key, ".n") || !strcmp(cases[i].key, "ncpu")
                        ? json_integer((json_int_t)cases[i].v)
                        : json_real(cases[i].v);
        write_with(cases[i].top, cases[i].key, v);
        assert_refused(NULL, cases[i].want);
    }
}

/* Escapes in a report's strings are masked, in what is read and in the
 * error line that quotes the file. */
static void test_hostile_strings(void **state)
{
    (void)state;
    struct baseline *b = malloc(sizeof(*b));
    char err[512];
    write_with(true, "parallax", json_string("\033]2;PWNED\a9"));
    assert_int_equal(report_read(path, NULL, NULL, b, err, sizeof(err)), 0);
    assert_string_equal(b->version, "?]2;PWNED?9");
    assert_null(strchr(b->model.name, '\033'));
    write_with(false, "host", json_string("h\033[2J\xc2\x9b"));
    assert_int_equal(report_read(path, NULL, NULL, b, err, sizeof(err)), 0);
    assert_string_equal(b->model.info.host, "h?[2J??");
    write_with(false, "name", json_string("n\033[2J"));
    assert_int_equal(report_read(path, NULL, NULL, b, err, sizeof(err)), 0);
    assert_non_null(strstr(b->model.name, "baseline:n?[2J"));
    free(b);
    write_text("{\"format\": \033[2J}");
    assert_refused(NULL, "damaged report");
    write_text("{\"format\": \"parallax-report\", \"version\": 1, "
               "\"sources\": []}");
    assert_refused("\033[2J", "no source named ?[2J");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_other_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_guest_stats, setup, teardown),
        cmocka_unit_test_setup_teardown(test_time_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(test_damaged, setup, teardown),
        cmocka_unit_test_setup_teardown(test_wrong_version, setup, teardown),
        cmocka_unit_test_setup_teardown(test_not_a_report, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mistyped_field, setup, teardown),
        cmocka_unit_test_setup_teardown(test_missing_source_and_file, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_not_a_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_of_range, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hostile_strings, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
