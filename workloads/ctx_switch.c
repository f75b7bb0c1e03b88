/* Context switch time, lmbench `lat_ctx -s 0 2`: a 4-byte token goes
 * around a ring of two pipes between two processes with no working set.
 * As lat_ctx does, the figure is the time of one trip around the ring
 * divided by the number of processes, less the cost of a write and read
 * of the token on a pipe within one process (timed in turn with the ring,
 * see lat_measure.h), in microseconds per context switch. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/lat_measure.h"
#include "workloads/lat_peer.h"

#define CTX_PROCS 2
#define CTX_MSG   ((int)sizeof(int)) /* lat_ctx's token */

struct ctx_switch {
    struct lat_place pl;
    int ring[CTX_PROCS][2]; /* [0]: us -> peer, [1]: peer -> us */
    int ovr[CTX_PROCS][2];  /* the overhead's pipes, ours alone */
    int next;               /* the overhead pipe to use next */
    pid_t peer;
};

static void ctx_teardown(struct wl_ctx *ctx)
{
    struct ctx_switch *s = ctx->state;
    if (!s)
        return;
    lat_peer_end(&s->peer);
    for (int i = 0; i < CTX_PROCS; i++)
        for (int k = 0; k < 2; k++) {
            lat_close(&s->ring[i][k]);
            lat_close(&s->ovr[i][k]);
        }
    free(s);
    ctx->state = NULL;
}

static int ctx_open(struct wl_ctx *ctx)
{
    struct ctx_switch *s = malloc(sizeof *s);
    if (!s)
        return -1;
    *s = (struct ctx_switch){0};
    memset(s->ring, -1, sizeof s->ring);
    memset(s->ovr, -1, sizeof s->ovr);
    ctx->state = s;
    signal(SIGPIPE, SIG_IGN); /* a dead peer is an error, not our death */
    if (lat_place_init(&s->pl, ctx, 0, "ctx") < 0)
        return -1;
    for (int i = 0; i < CTX_PROCS; i++)
        if (pipe(s->ring[i]) < 0 || pipe(s->ovr[i]) < 0) {
            fprintf(stderr, "ctx: pipe: %s\n", strerror(errno));
            return -1;
        }
    int ours[2] = {s->ring[0][1], s->ring[1][0]};
    s->peer =
        lat_peer_start(&s->pl, s->ring[0][0], s->ring[1][1], CTX_MSG, ours, 2);
    if (s->peer < 0) {
        fprintf(stderr, "ctx: fork: %s\n", strerror(errno));
        return -1;
    }
    lat_close(&s->ring[0][0]);
    lat_close(&s->ring[1][1]);
    /* once around the ring to get everyone ready, as lat_ctx does */
    return lat_roundtrips(s->ring[0][1], s->ring[1][0], CTX_MSG, 1, "ctx");
}

static int ctx_setup(struct wl_ctx *ctx)
{
    if (ctx_open(ctx) == 0)
        return 0;
    ctx_teardown(ctx);
    return -1;
}

/* lat_ctx's benchmark_overhead: the token through our own pipes, taking
 * each pipe in turn. */
static int ctx_overhead_loop(void *arg, uint64_t n)
{
    struct ctx_switch *s = arg;
    int msg = 1;
    while (n-- > 0) {
        int *p = s->ovr[s->next];
        if (write(p[1], &msg, CTX_MSG) != CTX_MSG ||
            read(p[0], &msg, CTX_MSG) != CTX_MSG) {
            fprintf(stderr, "ctx: overhead pipe: %s\n", strerror(errno));
            return -1;
        }
        s->next = (s->next + 1) % CTX_PROCS;
    }
    return 0;
}

static int ctx_ring_loop(void *arg, uint64_t n)
{
    struct ctx_switch *s = arg;
    return lat_roundtrips(s->ring[0][1], s->ring[1][0], CTX_MSG, n, "ctx");
}

/* lat_ctx's arithmetic: per switch, the ring trip over the processes
 * less one write and read of the token */
static double ctx_figure(void *arg, double us, const double *ref_us)
{
    (void)arg;
    return us / CTX_PROCS - ref_us[0];
}

static int ctx_run(struct wl_ctx *ctx, struct wl_result *res)
{
    struct ctx_switch *s = ctx->state;
    struct lat_ref ovr = {ctx_overhead_loop, 0};
    int rc = lat_measure(ctx, ctx_ring_loop, s, &ovr, 1, ctx_figure, res);
    if (rc != 0)
        return rc < 0 ? -1 : 0;
    lat_extra(res, "ring trip", "us", res->wall / (double)res->ops * 1e6);
    lat_extra(res, "pipe overhead", "us", ovr.us);
    return 0;
}

const struct workload wl_ctx_switch = {
    .name = "ctx",
    .desc = "context switch between 2 processes passing a token through "
            "pipes, 0 KB (lmbench lat_ctx -s 0 2)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = ctx_setup,
    .run = ctx_run,
    .teardown = ctx_teardown,
    .figure_kind = WF_TIME_PER_OP, /* the live figure: ring trips */
    .scale = 1e6,
};
