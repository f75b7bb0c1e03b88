/* base/grow.h: doubling from the first capacity, the array kept whole
 * when it grows and left as it was when it cannot. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "base/grow.h"

static void test_doubles_and_keeps(void **state)
{
    (void)state;
    int *a = NULL, cap = 0;
    for (int n = 0; n < 1000; n++) {
        int *p = grow(a, &cap, n + 1, sizeof(*a), 64);
        assert_non_null(p);
        a = p;
        a[n] = n * 3;
        /* 64, 128, 256...: the first power of two times 64 that holds it */
        int want = 64;
        while (want < n + 1)
            want *= 2;
        assert_int_equal(cap, want);
    }
    for (int n = 0; n < 1000; n++)
        assert_int_equal(a[n], n * 3);
    /* room already: the same array */
    assert_ptr_equal(grow(a, &cap, 10, sizeof(*a), 64), a);
    free(a);
}

static void test_refuses_too_many(void **state)
{
    (void)state;
    int cap = 0;
    char *a = grow(NULL, &cap, 4, 1, 4);
    assert_non_null(a);
    assert_int_equal(cap, 4);
    /* more elements than an int counts (4 doubled past INT_MAX), or
     * bytes than size_t holds */
    int before = cap;
    assert_null(grow(a, &cap, INT_MAX, 1, 4));
    assert_int_equal(cap, before);
    assert_null(grow(a, &cap, 1 << 30, SIZE_MAX / 4, 4));
    assert_int_equal(cap, before);
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doubles_and_keeps),
        cmocka_unit_test(test_refuses_too_many),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
