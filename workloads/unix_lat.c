/* AF_UNIX stream latency, lmbench lat_unix: a byte goes to a peer process
 * over a socketpair and comes back. One operation is one round trip; the
 * figure is microseconds per round trip. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "workloads/lat_peer.h"

#define UNIX_LAT_MSG 1 /* lat_unix's default message size */

struct unix_lat {
    struct lat_place pl;
    int sv[2]; /* sv[0] the peer's end, sv[1] ours, as in lat_unix */
    pid_t peer;
};

static void unix_lat_teardown(struct wl_ctx *ctx)
{
    struct unix_lat *s = ctx->state;
    if (!s)
        return;
    lat_peer_end(&s->peer);
    lat_close(&s->sv[0]);
    lat_close(&s->sv[1]);
    free(s);
    ctx->state = NULL;
}

static int unix_lat_open(struct wl_ctx *ctx)
{
    struct unix_lat *s = malloc(sizeof *s);
    if (!s)
        return -1;
    *s = (struct unix_lat){.sv = {-1, -1}};
    ctx->state = s;
    signal(SIGPIPE, SIG_IGN); /* a dead peer is an error, not our death */
    if (lat_place_init(&s->pl, ctx, 0, "unix-lat") < 0)
        return -1;
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, s->sv) < 0) {
        fprintf(stderr, "unix-lat: socketpair: %s\n", strerror(errno));
        return -1;
    }
    s->peer =
        lat_peer_start(&s->pl, s->sv[0], s->sv[0], UNIX_LAT_MSG, &s->sv[1], 1);
    if (s->peer < 0) {
        fprintf(stderr, "unix-lat: fork: %s\n", strerror(errno));
        return -1;
    }
    lat_close(&s->sv[0]);
    /* once around, so that the peer is up and placed before timing */
    return lat_roundtrips(s->sv[1], s->sv[1], UNIX_LAT_MSG, 1, "unix-lat");
}

static int unix_lat_setup(struct wl_ctx *ctx)
{
    if (unix_lat_open(ctx) == 0)
        return 0;
    unix_lat_teardown(ctx);
    return -1;
}

static int unix_lat_step(struct wl_ctx *ctx, uint64_t n)
{
    struct unix_lat *s = ctx->state;
    return lat_roundtrips(s->sv[1], s->sv[1], UNIX_LAT_MSG, n, "unix-lat");
}

const struct workload wl_unix_lat = {
    .name = "unix-lat",
    .desc = "AF_UNIX stream round trip of 1 byte between two processes "
            "(lmbench lat_unix)",
    .unit = "us",
    .better = WL_LOWER_IS_BETTER,
    .params = {LAT_PARAM_PLACEMENT, LAT_PARAM_CPU},
    .setup = unix_lat_setup,
    .step = unix_lat_step,
    .teardown = unix_lat_teardown,
    .figure_kind = WF_TIME_PER_OP,
    .scale = 1e6,
};
