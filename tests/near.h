/* Comparing doubles in the cmocka tests. cmocka 1.1.5's assert_float_equal
 * converts its arguments to float (7 digits, and its macro casts only the
 * first operand of each: `(float)wall / ops`) and then passes anything
 * within float precision whatever the tolerance asked: 1700000000.1 was
 * "equal" to anything within 200 s, and an exact wall / ops * 1e9 was
 * refused now and then (test_count_mode_exact). */
#ifndef PARALLAX_TESTS_NEAR_H
#define PARALLAX_TESTS_NEAR_H

#include <math.h>

/* Fails unless v is within tol of want, all in double (NaN is never near). */
#define assert_near(v, want, tol)                                              \
    do {                                                                       \
        double v_ = (v), w_ = (want), t_ = (tol);                              \
        if (!(fabs(v_ - w_) <= t_))                                            \
            fail_msg("%s = %.17g, want %.17g +- %.3g (off by %.3g)", #v, v_,   \
                     w_, t_, v_ - w_);                                         \
    } while (0)

#endif
