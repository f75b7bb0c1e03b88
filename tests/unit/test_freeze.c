/* The pause key's frozen copy: it keeps the figures and workload cells of
 * the moment it was taken while the live ones move on, owns its cells (the
 * live ones can be freed), and can be taken again and released. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "session/freeze.h"

static struct session s; /* large: not on the stack */
static struct jobs j;

static void setup_live(void)
{
    s.nsrc = 2;
    s.interval = 1;
    model_init(&s.model[0], "host", NULL);
    model_init(&s.model[1], "vm1", "10.0.0.5");
    s.model[0].value[0] = 12.5;
    jobs_init(&j);
    j.cells[1] = calloc(JOBS_MAX_WL, sizeof(struct job_cell));
    assert_non_null(j.cells[1]);
    j.cells[1][0].state = JOB_RUNNING;
    j.cells[1][0].live = 42;
}

static void test_copy_stays(void **state)
{
    (void)state;
    setup_live();
    struct freeze f = {0};
    assert_false(freeze_active(&f));
    assert_int_equal(freeze_take(&f, &s, &j), 0);
    assert_true(freeze_active(&f));
    assert_true(f.at > 0);
    /* the live side moves on, and lets its cells go */
    s.model[0].value[0] = 99;
    s.nsrc = 3;
    j.cells[1][0].live = 7;
    free(j.cells[1]);
    j.cells[1] = NULL;
    assert_int_equal(f.s->nsrc, 2);
    assert_true(f.s->model[0].value[0] == 12.5);
    assert_string_equal(f.s->model[1].name, "vm1");
    assert_true(jobs_cell(f.j, 1, 0)->live == 42);
    assert_true(jobs_running(f.j, 0));
    assert_int_equal(f.j->nwl, j.nwl);
    /* taken again: the newest figures */
    assert_int_equal(freeze_take(&f, &s, &j), 0);
    assert_true(f.s->model[0].value[0] == 99);
    assert_false(jobs_running(f.j, 0));
    freeze_release(&f);
    assert_false(freeze_active(&f));
    freeze_release(&f); /* twice is harmless */
    jobs_free(&j);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_copy_stays),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
