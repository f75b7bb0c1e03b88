/* Which collectors can read this host, in order of preference: PCP's local
 * context first (the same metrics a guest's pmcd serves), libgtop and
 * /proc when PCP cannot be opened. */
#include <time.h>

#include "collectors/backend.h"

const struct backend *const local_backends[] = {
    &backend_pcp_local,
    &backend_gtop,
    NULL,
};

double mono_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}
