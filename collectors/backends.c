/* The backend registries, in order of preference. This host: PCP's local
 * context first (the same metrics a guest's pmcd serves), libgtop and /proc
 * when PCP cannot be opened. Guests and other hosts: their pmcd. */
#include "collectors/backend.h"

const struct backend *const local_backends[] = {
    &backend_pcp_local,
    &backend_gtop,
    NULL,
};

const struct backend *const remote_backends[] = {
    &backend_pcp_host,
    NULL,
};
