/* Placement for workloads with several helper processes of one kind (the
 * scheduler's tasks, the disk workload's seekers): the "placement" and
 * "cpu" parameters applied to helper i of n. ANY leaves them to the
 * scheduler, SAME puts all on `cpu`, SPLIT deals them out over the CPUs
 * the run may use, starting at `cpu`. */
#ifndef PARALLAX_SPREAD_H
#define PARALLAX_SPREAD_H

#include "workloads/workload.h"

#define SPREAD_PARAM_PLACEMENT                                                 \
    {                                                                          \
        "placement", "0 any CPU, 1 all on `cpu`, 2 dealt out over the CPUs",   \
            0, 0, 2, true                                                      \
    }
#define SPREAD_PARAM_CPU                                                       \
    {                                                                          \
        "cpu", "the CPU of placement 1, the first one of placement 2", 0, 0,   \
            1023, true                                                         \
    }

struct spread {
    int kind;  /* enum wl_placement */
    int ncpu;  /* CPUs this process may use */
    int first; /* `cpu`, checked to be one of them (SAME, SPLIT) */
};

/* Reads placement and cpu from ctx->param[i] and [i + 1] and checks them
 * against the CPUs this process may use. 0, or -1 with a reason on
 * stderr. */
int spread_init(struct spread *s, const struct wl_ctx *ctx, int i,
                const char *who);

/* The CPU helper k runs on: -1 for ANY (wherever the scheduler likes). */
int spread_cpu(const struct spread *s, int k);

/* How many CPUs the helpers can share: 1 for SAME, all usable otherwise. */
int spread_width(const struct spread *s);

/* Pins the calling process as helper k. 0 or -1. */
int spread_pin(const struct spread *s, int k);

#endif
