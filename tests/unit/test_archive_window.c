/* The replay window (-S, -T, -O) on an index of ten records a second
 * apart: the records kept are those PCP's window holds (relative times
 * from the first and last record, as pmdumplog counts them where the
 * archive cannot say), runs are renumbered or dropped, the origin picks
 * the first position, a window with no record is refused, and the window
 * is exported for the processes parallax starts (PARALLAX_REPLAY_*). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "collectors/archive_window.h"

#define N 10

static struct timespec pos[N];
static bool gap[N];
static struct archive_run runs[3];

/* ten records at 1000.5 s .. 1009.5 s; runs over 1-2, 4-7 and 8-9 */
static struct archive_index make(void)
{
    for (int k = 0; k < N; k++) {
        pos[k] = (struct timespec){.tv_sec = 1000 + k, .tv_nsec = 500000000};
        gap[k] = false;
    }
    runs[0] = (struct archive_run){.pos = 1, .end = 2, .name = "a"};
    runs[1] = (struct archive_run){.pos = 4, .end = 7, .name = "b"};
    runs[2] = (struct archive_run){.pos = 8, .end = 9, .name = "c"};
    return (struct archive_index){.ours = true,
                                  .npos = N,
                                  .pos = pos,
                                  .gap = gap,
                                  .nruns = 3,
                                  .runs = runs,
                                  .step = 1};
}

static void test_window(void **state)
{
    (void)state;
    char err[256];
    int first;
    struct archive_index ix = make();
    archive_window_set("+3sec", "-2sec", NULL);
    assert_int_equal(
        archive_window_apply(-1, &ix, "a", &first, err, sizeof(err)), 0);
    /* 1003.5 .. 1007.5: records 3 to 7 */
    assert_int_equal(ix.npos, 5);
    assert_int_equal(ix.pos[0].tv_sec, 1003);
    assert_int_equal(ix.pos[4].tv_sec, 1007);
    assert_int_equal(first, 0);
    /* run a is gone, b is 4-7 -> 1-4, c (8-9) is gone */
    assert_int_equal(ix.nruns, 1);
    assert_string_equal(ix.runs[0].name, "b");
    assert_int_equal(ix.runs[0].pos, 1);
    assert_int_equal(ix.runs[0].end, 4);

    ix = make();
    archive_window_set(NULL, NULL, "+4.2sec");
    assert_int_equal(
        archive_window_apply(-1, &ix, "a", &first, err, sizeof(err)), 0);
    assert_int_equal(ix.npos, N);
    assert_int_equal(first, 5); /* 1004.7: the first record after is 1005.5 */

    ix = make();
    archive_window_set("+20sec", NULL, NULL);
    assert_int_equal(
        archive_window_apply(-1, &ix, "arch", &first, err, sizeof(err)), -1);
    assert_non_null(strstr(err, "arch: no record in the -S/-T window"));
}

static void test_exported(void **state)
{
    (void)state;
    archive_window_set("+1sec", NULL, NULL);
    assert_string_equal(getenv("PARALLAX_REPLAY_START"), "+1sec");
    assert_null(getenv("PARALLAX_REPLAY_FINISH"));
    archive_window_set(NULL, NULL, NULL);
    assert_null(getenv("PARALLAX_REPLAY_START"));
    assert_false(archive_window_given());
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_window),
        cmocka_unit_test(test_exported),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
