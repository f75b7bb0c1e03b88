/* The workload and ratio cells (issue 16.15, 16.17): a time in the unit
 * that fits with the unit in the figure, not after the progress counter
 * (1.2k > 1/3 ns read as if the counter had a unit); other units first in
 * the detail; a failed run says failed where its figure would be. Ratios
 * never read 0.00; n/a (a figure missing) is told from - (no ratio);
 * activity counters are compared, not judged, so they are not coloured;
 * a saved run's Δ% says which way is worse. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "report_fixture.h"
#include "view/view.h"
#include "view/view_jobs.h"
#include "view/view_time.h"

static void job(const struct jobs *j, int src, const char *name,
                const char *val, const char *detail)
{
    char v[32], d[320];
    view_job_cell(j, NULL, src, fix_wl(j, name), v, sizeof(v), d, sizeof(d),
                  true);
    if (strcmp(v, val) || strncmp(d, detail, strlen(detail)))
        fail_msg("%s on %d: '%s' '%s', want '%s' '%s'", name, src, v, d, val,
                 detail);
}

static void test_job_cells(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    job(j, 0, "syscall-null", " 110.0ns", "109ns..111ns");
    job(j, 1, "fork-exit", " 1.500ms", "said\u00d70.36 shared 1.4ms..1.6ms");
    job(j, 0, "dhry", "   25.5M", "loops/s 25.0M..26.0M");
    job(j, 1, "dhry", "  failed", "the guest went down");
    job(j, 1, "pipe-lat", "  failed", "No permission");
    /* running: the unit with the figure, or first in the detail */
    struct job_cell *c = &j->cells[1][fix_wl(j, "syscall-null")];
    c->state = JOB_RUNNING;
    c->live = 1234;
    c->repeat = 0;
    c->repeats = 3;
    job(j, 1, "syscall-null", " 1.234\u00b5s", "> 1/3");
    c = &j->cells[0][fix_wl(j, "dhry")];
    c->state = JOB_RUNNING;
    c->live = 1.2e6;
    job(j, 0, "dhry", "   1.20M", "loops/s > ");
    /* nothing run on either side: a blank ratio, not "-" */
    int w = fix_wl(j, "whet");
    assert_int_equal(view_job_ratio_kind(j, 1, w), VR_EMPTY);
    assert_int_equal(view_job_ratio_kind(j, 1, fix_wl(j, "dhry")), VR_JUDGED);
    fix_free(s, j);
}

static const char *ratio(double r, enum view_ratio_kind k)
{
    static char buf[32];
    view_ratio_text(r, k, buf, sizeof(buf));
    return buf;
}

static void test_ratio_texts(void **state)
{
    (void)state;
    assert_string_equal(ratio(0.004, VR_JUDGED), "  <0.01");
    assert_string_equal(ratio(0.02, VR_PLAIN), "   0.02");
    assert_string_equal(ratio(NAN, VR_JUDGED), "    n/a");
    assert_string_equal(ratio(NAN, VR_NONE), "      -");
    assert_string_equal(ratio(NAN, VR_EMPTY), "       ");
    assert_string_equal(ratio(1.0005, VR_RATE), " 1.0005");
    /* coloured only where they judge */
    assert_int_equal(view_ratio_mark(0.02, VR_PLAIN), VM_PLAIN);
    assert_int_equal(view_ratio_mark(50, VR_PLAIN), VM_PLAIN);
    assert_int_equal(view_ratio_mark(0.02, VR_JUDGED), VM_GOOD);
    assert_int_equal(view_ratio_mark(1.6, VR_JUDGED), VM_BAD);
    /* a rate is coloured by its row's fault (view_time_cell), which
     * knows the rate's bound; the ratio alone never judges it */
    assert_int_equal(view_ratio_mark(1.0004, VR_RATE), VM_PLAIN);
    assert_int_equal(view_ratio_mark(0.36, VR_RATE), VM_PLAIN);
}

static void test_metric_kinds(void **state)
{
    (void)state;
    struct session *s;
    struct jobs *j;
    fix_build(&s, &j);
    struct source_model *g = &s->model[1], *h = &s->model[0];
    /* an idle guest's context switches are busier or not, never better */
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_CTXSW), VR_PLAIN);
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_INTR), VR_PLAIN);
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_RUNNABLE), VR_PLAIN);
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_CPU_STEAL), VR_JUDGED);
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_FORKS), VR_NONE);
    h->value[METRIC_CPU_STEAL] = 0; /* 0 on one side: no ratio, no n/a */
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_CPU_STEAL), VR_NONE);
    g->value[METRIC_CTXSW] = NAN; /* a missing figure: n/a */
    assert_int_equal(view_metric_ratio_kind(g, h, METRIC_CTXSW), VR_PLAIN);
    fix_free(s, j);
}

static void test_baseline_direction(void **state)
{
    (void)state;
    struct source_model m;
    model_init(&m, "then", "/tmp/then.json");
    char buf[32];
    assert_string_equal(view_column_ratio_header(&m, 0, true), "\u00d7");
    assert_string_equal(view_column_ratio_header(&m, 1, true), ">1 bad");
    m.backend = "baseline";
    assert_string_equal(view_column_ratio_header(&m, 0, true), "\u0394%");
    assert_string_equal(view_column_ratio_header(&m, 1, true), "+ bad");
    assert_string_equal(view_column_ratio_header(&m, 2, true), "");
    view_column_ratio_text(&m, 1.12, VR_JUDGED, buf, sizeof(buf));
    assert_string_equal(buf, "   +12%");
    view_column_ratio_text(&m, 1e6, VR_JUDGED, buf, sizeof(buf));
    assert_string_equal(buf, "  >1e5%");
    view_column_ratio_text(&m, NAN, VR_NONE, buf, sizeof(buf));
    assert_string_equal(buf, "      -");
}

/* The legend: every line there is, in ASCII as well. */
static void test_legend(void **state)
{
    (void)state;
    char line[256];
    int n = 0;
    while (view_legend(n, false, line, sizeof(line))) {
        for (const char *c = line; *c; c++)
            assert_true(*c >= ' ' && *c <= '~');
        n++;
    }
    assert_true(n >= 5);
    assert_true(view_legend(0, true, line, sizeof(line)));
    assert_memory_equal(line, "\u00d7", 2);
    assert_false(view_legend(n, true, line, sizeof(line)));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_cells),
        cmocka_unit_test(test_ratio_texts),
        cmocka_unit_test(test_metric_kinds),
        cmocka_unit_test(test_baseline_direction),
        cmocka_unit_test(test_legend),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
