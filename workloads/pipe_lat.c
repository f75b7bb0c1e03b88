/* Pipe latency, lmbench lat_pipe: a byte goes to a peer process through
 * one pipe and comes back through another. One operation is one round
 * trip; the figure is microseconds per round trip. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workloads/lat_peer.h"

#define PIPE_LAT_MSG 1 /* lat_pipe's one char */

struct pipe_lat {
    struct lat_place pl;
    int to[2];   /* us -> peer */
    int back[2]; /* peer -> us */
    pid_t peer;
};

static void pipe_lat_teardown(struct wl_ctx *ctx)
{
    struct pipe_lat *s = ctx->state;
    if (!s)
        return;
    lat_peer_end(&s->peer);
    for (int i = 0; i < 2; i++) {
        lat_close(&s->to[i]);
        lat_close(&s->back[i]);
    }
    free(s);
    ctx->state = NULL;
}

static int pipe_lat_open(struct wl_ctx *ctx)
{
    struct pipe_lat *s = malloc(sizeof *s);
    if (!s)
        return -1;
    *s = (struct pipe_lat){.to = {-1, -1}, .back = {-1, -1}};
    ctx->state = s;
    signal(SIGPIPE, SIG_IGN); /* a dead peer is an error, not our death */
    if (lat_place_init(&s->pl, ctx, 0, "pipe-lat") < 0)
        return -1;
    if (pipe(s->to) < 0 || pipe(s->back) < 0) {
        fprintf(stderr, "pipe-lat: pipe: %s\n", strerror(errno));
        return -1;
    }
    int ours[2] = {s->to[1], s->back[0]};
    s->peer =
        lat_peer_start(&s->pl, s->to[0], s->back[1], PIPE_LAT_MSG, ours, 2);
    if (s->peer < 0) {
        fprintf(stderr, "pipe-lat: fork: %s\n", strerror(errno));
        return -1;
    }
    lat_close(&s->to[0]);
    lat_close(&s->back[1]);
    /* once around, as lat_pipe does, so that both are up and placed */
    return lat_roundtrips(s->to[1], s->back[0], PIPE_LAT_MSG, 1, "pipe-lat");
}

static int pipe_lat_setup(struct wl_ctx *ctx)
{
    if (pipe_lat_open(ctx) == 0)
        return 0;
    pipe_lat_teardown(ctx);
    return -1;
}

static int pipe_lat_step(struct wl_ctx *ctx, uint64_t n)
{
    struct pipe_lat *s = ctx->state;
    return lat_roundtrips(s->to[1], s->back[0], PIPE_LAT_MSG, n, "pipe-lat");
}

const struct workload wl_pipe_lat = {
    .name = "pipe-lat",
    .desc = "pipe round trip of 1 byte between two processes (lmbench "
            "lat_pipe)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = pipe_lat_setup,
    .step = pipe_lat_step,
    .teardown = pipe_lat_teardown,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e6,
};
