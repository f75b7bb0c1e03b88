/* Placement of a workload's helper processes. */
#include "workloads/spread.h"

#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>

int spread_init(struct spread *s, const struct wl_ctx *ctx, int i,
                const char *who)
{
    cpu_set_t allowed;
    *s = (struct spread){.kind = (int)ctx->param[i],
                         .first = (int)ctx->param[i + 1]};
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0) {
        fprintf(stderr, "%s: sched_getaffinity: %s\n", who, strerror(errno));
        return -1;
    }
    s->ncpu = CPU_COUNT(&allowed);
    if (s->kind != WL_PLACE_ANY &&
        (s->first >= CPU_SETSIZE || !CPU_ISSET(s->first, &allowed))) {
        fprintf(stderr, "%s: cpu=%d is not a CPU this run may use\n", who,
                s->first);
        return -1;
    }
    return 0;
}

/* The k-th usable CPU counting cyclically from s->first. */
static int nth_cpu(const struct spread *s, int k)
{
    cpu_set_t allowed;
    if (sched_getaffinity(0, sizeof allowed, &allowed) < 0)
        return -1;
    int c = s->first;
    for (int left = k % s->ncpu; left > 0;) {
        c = (c + 1) % CPU_SETSIZE;
        if (CPU_ISSET(c, &allowed))
            left--;
    }
    return c;
}

int spread_cpu(const struct spread *s, int k)
{
    switch (s->kind) {
    case WL_PLACE_SAME:
        return s->first;
    case WL_PLACE_SPLIT:
        return nth_cpu(s, k);
    default:
        return -1;
    }
}

int spread_width(const struct spread *s)
{
    return s->kind == WL_PLACE_SAME ? 1 : s->ncpu;
}

int spread_pin(const struct spread *s, int k)
{
    int c = spread_cpu(s, k);
    if (c < 0)
        return 0;
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(c, &set);
    return sched_setaffinity(0, sizeof set, &set);
}
