/* A synthetic sample for the unit tests: a fetch that succeeded, with
 * every metric present and zero, counters 64 bits wide. The tests set the
 * clocks, the counters and the values they are about. */
#ifndef PARALLAX_TEST_SAMPLE_FIXTURE_H
#define PARALLAX_TEST_SAMPLE_FIXTURE_H

#include <string.h>

#include "core/sample.h"

/* A sample fetched at host time t, the request taking 2 ms around it. */
static inline struct sample fix_sample_at(double t)
{
    struct sample s;
    memset(&s, 0, sizeof(s));
    s.ok = true;
    s.backend = "test";
    s.t_before = t - 0.001;
    s.t_after = t + 0.001;
    for (int i = 0; i < METRIC_COUNT; i++) {
        s.have[i] = true;
        s.width[i] = 64;
    }
    return s;
}

#endif
