/* The backend registries, in order of preference. This host: /proc read
 * directly (cheapest: no PCP context, no agents loaded in-process), PCP's
 * local context (the same metrics a guest's pmcd serves, through PCP's
 * linux agent), then libgtop and /proc. `--local` picks where the list
 * starts. Guests and other hosts: their pmcd. Recordings: their archive. */
#include <stddef.h>
#include <string.h>

#include "collectors/backend.h"

static const struct backend *const local_all[] = {
    &backend_proc,
    &backend_pcp_local,
    &backend_gtop,
    NULL,
};

/* The names --local takes, each the index in local_all where it starts. */
static const struct {
    const char *name;
    int first;
} local_choices[] = {{"proc", 0}, {"pcp", 1}, {"gtop", 2}};

static int local_first; /* set once, before any sampler starts */

const struct backend *const remote_backends[] = {
    &backend_pcp_host,
    NULL,
};

const struct backend *const archive_backends[] = {
    &backend_archive,
    NULL,
};

const struct backend *const *local_backends(void)
{
    return local_all + local_first;
}

bool local_backends_choose(const char *name)
{
    for (size_t i = 0; i < sizeof(local_choices) / sizeof(local_choices[0]);
         i++) {
        if (strcmp(name, local_choices[i].name) == 0) {
            local_first = local_choices[i].first;
            return true;
        }
    }
    return false;
}
